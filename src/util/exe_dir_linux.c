/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linux: /proc/self/exe names the binary actually running (proc(5)), wherever it was copied. */
#include "exe_dir.h"
#include <unistd.h>

int pcibw_exe_dir(char *buf, size_t len)
{
	if (len < 2)
		return -1;
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0 || (size_t)n >= len - 1)
		return -1;
	buf[n] = '\0';
	return pcibw_exe_dir_cut(buf);
}

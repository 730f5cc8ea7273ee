/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FreeBSD: the kern.proc.pathname sysctl of this process (sysctl(3), the MIB CTL_KERN,
 * KERN_PROC, KERN_PROC_PATHNAME, -1: "the path of the executable" of the calling process),
 * which needs no procfs. */
#include "exe_dir.h"
#include <sys/sysctl.h>

int pcibw_exe_dir(char *buf, size_t len)
{
	if (len < 2)
		return -1;
	int mib[4] = {CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME, -1};
	size_t n = len - 1;
	if (sysctl(mib, 4, buf, &n, NULL, 0) != 0 || n == 0 || n >= len)
		return -1;
	buf[n] = '\0'; /* n counts the kernel's NUL; a second one is harmless */
	return pcibw_exe_dir_cut(buf);
}

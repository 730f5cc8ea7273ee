/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The directory part of the running binary's path, whichever OS named it; see exe_dir.h. */
#include "exe_dir.h"
#include <string.h>

int pcibw_exe_dir_cut(char *path)
{
	char *slash = strrchr(path, '/');
	if (!slash)
		return -1;
	if (slash == path)
		slash++; /* a binary in / */
	*slash = '\0';
	return 0;
}

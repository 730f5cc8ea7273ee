/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FreeBSD: the kernel's own Linux-compatible trees, linsysfs(5) and linprocfs(5) (mounted at
 * /compat/linux/sys and /compat/linux/proc), and procfs(5) are not walked (statfs(2)
 * f_fstypename); anything else is a copy (sysfs_tree.c). See sysfs_attr.h. */
#include "sysfs_attr.h"
#include <string.h>
#include <sys/mount.h>

int pcibw_sysfs_check_tree(const char *root, struct pcibw_err *err)
{
	struct statfs fs;
	if (statfs(root, &fs))
		return PCIBW_OK; /* absent: whoever needs it says so */
	if (!strcmp(fs.f_fstypename, "linsysfs") || !strcmp(fs.f_fstypename, "linprocfs") ||
	    !strcmp(fs.f_fstypename, "procfs"))
		return PCIBW_OK; /* the kernel's own tree, not a copy */
	return pcibw_sysfs_walk_copy(root, err);
}

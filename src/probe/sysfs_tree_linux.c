/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linux: the kernel's own sysfs or procfs (by statfs f_type, include/uapi/linux/magic.h) is not
 * walked; anything else is a copy (sysfs_tree.c). See sysfs_attr.h. */
#include "sysfs_attr.h"
#include <linux/magic.h>
#include <sys/vfs.h>

int pcibw_sysfs_check_tree(const char *root, struct pcibw_err *err)
{
	struct statfs fs;
	if (statfs(root, &fs))
		return PCIBW_OK; /* absent: whoever needs it says so */
	if (fs.f_type == SYSFS_MAGIC || fs.f_type == PROC_SUPER_MAGIC)
		return PCIBW_OK; /* the kernel's own tree, not a copy */
	return pcibw_sysfs_walk_copy(root, err);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A copied sysfs (or proc) tree holds directories, regular files and symbolic links only; see
 * sysfs_attr.h. Checked before libpci, hwloc or pcibw read anything from the copy: any of them
 * would block forever in open() or read() on a FIFO with no writer. The walk is POSIX (nftw);
 * telling the kernel's own tree from a copy is the OS's (sysfs_tree_linux.c, _freebsd.c). */
#include "sysfs_attr.h"
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* nftw passes no context: one walk at a time. */
static struct pcibw_err *walk_err;

static const char *odd_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device node";
	return NULL;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	struct stat target;
	const char *kind = NULL, *via = "";
	if (type == FTW_F)
		kind = odd_kind(st->st_mode);
	else if (type == FTW_SL && !stat(path, &target)) {
		kind = odd_kind(target.st_mode);
		via = "a link to ";
	}
	if (!kind)
		return 0;
	pcibw_fail(walk_err, PCIBW_EINPUT,
		   "%s: is %s%s: a sysfs copy holds directories, regular files and links only (a "
		   "FIFO would block every reader; copy the files, e.g. with hwloc-gather-topology)",
		   path, via, kind);
	return 1;
}

int pcibw_sysfs_walk_copy(const char *root, struct pcibw_err *err)
{
	walk_err = err;
	int r = nftw(root, visit, 16, FTW_PHYS);
	walk_err = NULL;
	if (r == 1)
		return PCIBW_EINPUT;
	if (r < 0)
		return pcibw_fail(err, PCIBW_EINPUT, "%s: cannot walk the copied tree: %s", root,
				  strerror(errno));
	return PCIBW_OK;
}

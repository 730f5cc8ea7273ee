/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FreeBSD interface of <sys/mount.h> the *_freebsd.c files use, as statfs(2) declares it:
 * "int statfs(const char *path, struct statfs *buf);" and the member of struct statfs it
 * documents as "char f_fstypename[MFSNAMELEN]; /+ fs type name +/" (MFSNAMELEN 16). Only that
 * member is declared, so the layout is not FreeBSD's: for tests/freebsd/compile.sh, never run. */
#ifndef PCIBW_TEST_FREEBSD_SYS_MOUNT_H
#define PCIBW_TEST_FREEBSD_SYS_MOUNT_H
#define MFSNAMELEN 16
struct statfs {
	char f_fstypename[MFSNAMELEN];
};
int statfs(const char *path, struct statfs *buf);
#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FreeBSD interface of <sys/sysctl.h> the *_freebsd.c files use, as sysctl(3) declares it:
 * "int sysctl(const int *name, u_int namelen, void *oldp, size_t *oldlenp, const void *newp,
 * size_t newlen);" and "int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, const
 * void *newp, size_t newlen);" (a NULL oldp stores the size the value needs in *oldlenp), with
 * the MIB names sysctl(3) lists for "the path of the executable": CTL_KERN 1, KERN_PROC 14,
 * KERN_PROC_PATHNAME 12 (the fourth level is a pid, -1 for the calling process). For
 * tests/freebsd/compile.sh only: it lets a FreeBSD file compile on Linux, never links. */
#ifndef PCIBW_TEST_FREEBSD_SYS_SYSCTL_H
#define PCIBW_TEST_FREEBSD_SYS_SYSCTL_H
#include <stddef.h>
#define CTL_KERN 1
#define KERN_PROC 14
#define KERN_PROC_PATHNAME 12
int sysctl(const int *name, unsigned int namelen, void *oldp, size_t *oldlenp, const void *newp,
	   size_t newlen);
int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, const void *newp, size_t newlen);
#endif

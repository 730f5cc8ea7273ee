/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FreeBSD interface of <sys/sysctl.h> the *_freebsd.c files use, as sysctl(3) declares it:
 * "int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, const void *newp,
 * size_t newlen);" (a NULL oldp stores the size the value needs in *oldlenp). For
 * tests/freebsd/compile.sh only: it lets a FreeBSD file compile on Linux, never links. */
#ifndef PCIBW_TEST_FREEBSD_SYS_SYSCTL_H
#define PCIBW_TEST_FREEBSD_SYS_SYSCTL_H
#include <stddef.h>
int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, const void *newp, size_t newlen);
#endif

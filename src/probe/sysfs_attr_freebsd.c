/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sysfs attributes on FreeBSD (sysfs_attr.h): FreeBSD has no sysfs of its own (linsysfs(5)
 * mirrors only part of it for Linux binaries, without these attributes), so there is nothing of
 * this machine to read here, and a copied Linux tree (--sysfs) is read by pcibw built on Linux:
 * both calls refuse and say so. What the attributes give on Linux comes on FreeBSD from
 * config space itself (root reads it whole), pci(4) (driver, unit), sysctl(3) (the
 * dev.DRIVER.UNIT.%domain NUMA domain) and getifaddrs(3) (interface names, speed): live_freebsd.c.
 */
#include "sysfs_attr.h"
#include <string.h>

int pcibw_sysfs_read_attrs(const char *sysroot, const char *slot, struct pcibw_sysfs_attrs *a,
			   struct pcibw_err *err)
{
	memset(a, 0, sizeof *a);
	return pcibw_fail(err, PCIBW_EUSAGE,
			  "%s/bus/pci/devices/%s: Linux sysfs attributes are read by pcibw built on "
			  "Linux; this build is FreeBSD's, which reads the machine through /dev/pci and "
			  "sysctl (give --pciconf FILE for another FreeBSD machine, or copy the tree to a "
			  "Linux host)",
			  sysroot, slot);
}

int pcibw_sysfs_aspm_policy(const char *sysroot, char *buf, unsigned len, struct pcibw_err *err)
{
	if (len)
		buf[0] = '\0';
	return pcibw_fail(err, PCIBW_EUSAGE,
			  "%s/module/pcie_aspm/parameters/policy: a Linux kernel parameter, read by "
			  "pcibw built on Linux (FreeBSD keeps ASPM in each device's Link Control "
			  "register, which report reads from config space)",
			  sysroot);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether hwloc can add anything to a report of this machine on FreeBSD; see live.h. It cannot:
 * hwloc hangs PCI devices under the CPUs and NUMA node they are local to only through a backend's
 * get_pci_busid_cpuset, which only its Linux backend has (topology-linux.c; hwloc 2.x
 * pcidisc.c hwloc_pcidisc_find_busid_parent falls back to the machine root elsewhere), and it
 * names OS devices (network interfaces, InfiniBand) only from Linux sysfs. On FreeBSD the NUMA
 * domain comes from the dev.DRIVER.UNIT.%domain sysctl and the names from pci(4) and
 * getifaddrs(3) (live_freebsd.c), which is all hwloc could have said.
 */
#include "live.h"

bool probe_hwloc_may_add(const char *sysroot, struct probe_set *set)
{
	(void)sysroot;
	(void)set;
	return false;
}

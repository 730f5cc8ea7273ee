/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why an interface has no PCI device, on FreeBSD (netif.h): its link-level entry of
 * getifaddrs(3) (ifa_flags IFF_LOOPBACK, the if_data type of ifa_data) and the %parent sysctl
 * of the device named like it (sysctl(3): dev.DRIVER.UNIT.%parent, "pci3" for a PCI function,
 * "uhub1" for a USB adapter). sysroot (a Linux sysfs) is not read. The words are
 * probe_netif_fbsd_words's.
 */
#include "netif.h"
#include "src/util/ifname.h"
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysctl.h>

bool probe_netif_why_no_pci(const char *sysroot, const char *name, char *buf, size_t n)
{
	(void)sysroot;
	buf[0] = '\0';
	if (!name[0] || strchr(name, '/'))
		return false;
	struct ifaddrs *ifa = NULL;
	if (getifaddrs(&ifa) != 0)
		return false; /* nothing to say beyond "no match" */
	bool found = false, loopback = false;
	int type = -1;
	for (struct ifaddrs *a = ifa; a; a = a->ifa_next)
		if (a->ifa_addr && a->ifa_addr->sa_family == AF_LINK && !strcmp(a->ifa_name, name)) {
			found = true;
			loopback = (a->ifa_flags & IFF_LOOPBACK) != 0;
			if (a->ifa_data)
				type = ((const struct if_data *)a->ifa_data)->ifi_type;
		}
	freeifaddrs(ifa);
	char drv[32], key[96], parent[64];
	unsigned unit;
	const char *par = NULL;
	if (found && pcibw_ifname_split(name, drv, sizeof drv, &unit)) {
		size_t len = sizeof parent - 1;
		snprintf(key, sizeof key, "dev.%s.%u.%%parent", drv, unit);
		if (sysctlbyname(key, parent, &len, NULL, 0) == 0) {
			parent[len < sizeof parent ? len : sizeof parent - 1] = '\0';
			par = parent;
		}
	}
	return probe_netif_fbsd_words(name, found, loopback, type, par, buf, n);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Driver and firmware of a network interface on FreeBSD (ethtool.h), from the sysctl tree of its
 * device (sysctl(3)): the interface of a NIC driver is named after its device (em0 is the device
 * em0, pcibw_ifname_split), dev.DRIVER.UNIT.%driver names the driver, and the drivers that
 * know their firmware publish it as dev.DRIVER.UNIT.fw_version (ix, ixl, ice, mlx5en among
 * them: "eTrack 0x800003e2 PHY FW V286"). No root needed. The supported speeds are another
 * matter: SIOCGIFMEDIA lists media words whose speeds only the kernel's ifmedia_baudrate()
 * table holds, so probe_ethtool_max_mbps answers -1 (unknown) and report says the speed is
 * unknown rather than guessing it from a media name.
 */
#include "ethtool.h"
#include "src/util/ifname.h"
#include <stdio.h>
#include <string.h>
#include <sys/sysctl.h>

/* the string sysctl dev.DRIVER.UNIT.LEAF of interface ifname into buf; false when absent */
static bool dev_string(const char *ifname, const char *leaf, char *buf, size_t n)
{
	char drv[32], name[96];
	unsigned unit;
	if (n < 2 || !pcibw_ifname_split(ifname, drv, sizeof drv, &unit))
		return false;
	snprintf(name, sizeof name, "dev.%s.%u.%s", drv, unit, leaf);
	size_t len = n - 1;
	if (sysctlbyname(name, buf, &len, NULL, 0) != 0)
		return false;
	buf[len < n ? len : n - 1] = '\0';
	return buf[0] != '\0';
}

int probe_ethtool_drvinfo(const char *ifname, char *driver, size_t dlen, char *firmware, size_t flen)
{
	char drv[64], fw[128];
	if (!dev_string(ifname, "%driver", drv, sizeof drv))
		return -1;
	snprintf(driver, dlen, "%s", drv);
	if (dev_string(ifname, "fw_version", fw, sizeof fw))
		snprintf(firmware, flen, "%s", fw);
	else if (flen)
		firmware[0] = '\0';
	return 0;
}

int probe_ethtool_max_mbps(const char *ifname)
{
	(void)ifname; /* see the head of this file: unknown, never guessed */
	return -1;
}

void probe_ethtool_apply(struct pcibw_device *d)
{
	for (int i = 0; i < d->n_interfaces; i++) {
		char drv[64] = "", fw[64] = "";
		if (d->firmware[0] || probe_ethtool_drvinfo(d->interfaces[i], drv, sizeof drv, fw, sizeof fw))
			continue;
		if (!d->driver[0] && drv[0]) {
			snprintf(d->driver, sizeof d->driver, "%s", drv);
			pcibw_device_set_prov(d, "driver", "sysctl");
		}
		if (!d->iface_driver[0] && drv[0]) {
			snprintf(d->iface_driver, sizeof d->iface_driver, "%s", drv);
			pcibw_device_set_prov(d, "interface_driver", "sysctl");
		}
		if (fw[0]) {
			snprintf(d->firmware, sizeof d->firmware, "%s", fw);
			pcibw_device_set_prov(d, "firmware", "sysctl");
		}
	}
}

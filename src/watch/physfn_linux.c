/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An SR-IOV VF's PF from sysfs: the `physfn` link of the VF's PCI device (Linux
 * Documentation/ABI/testing/sysfs-bus-pci; the kernel's pci_iov_sysfs_link()). */
#include "shared_hop.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool watch_physfn(const char *slot, char pf[32])
{
	char path[128], target[256];
	pf[0] = '\0';
	if (!slot || !slot[0])
		return false;
	snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/physfn", slot);
	ssize_t n = readlink(path, target, sizeof target - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!base[0] || strlen(base) >= 32)
		return false;
	snprintf(pf, 32, "%s", base);
	return true;
}

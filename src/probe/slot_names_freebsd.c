/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The names FreeBSD gives PCI slots (pcibw/slots.h): none. pci(4) keeps no slot registry like
 * Linux's /sys/bus/pci/slots (a PCIe port's Physical Slot Number is in its Slot Capabilities
 * register, which report reads from config space, and the firmware's slot table is SMBIOS
 * type 9, which `slots` reads from dmidecode text), so this machine gives no OS names. A copied
 * Linux sysfs tree is read by pcibw built on Linux: refused here, as --sysfs is.
 */
#include "pcibw/slots.h"
#include <string.h>

int pcibw_os_slots_read(const char *root, struct pcibw_os_slots *out, struct pcibw_err *err)
{
	(void)out; /* stays empty */
	if (strcmp(root, "/"))
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "%s: the slot names of a copied Linux sysfs tree are read by pcibw built "
				  "on Linux; FreeBSD keeps no slot names of its own",
				  root);
	return PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Paravirtual devices: a hypervisor's software device has no bus of its own to saturate, so a
 * PCI clock read from its emulated config space is not a ceiling. Ids from pci.ids and the
 * virtio spec (OASIS virtio 1.2 sec. 4.1.2: vendor 0x1af4, device 0x1000-0x107f). */
#include "probe_int.h"

bool probe_is_paravirt(int vendor_id, int device_id)
{
	switch (vendor_id) {
	case 0x1af4: /* Red Hat / Qumranet virtio */
		return device_id >= 0x1000 && device_id <= 0x107f;
	case 0x15ad: /* VMware: vmxnet (0720), vmxnet3 (07b0) */
		return device_id == 0x07b0 || device_id == 0x0720;
	case 0x1414: /* Microsoft Hyper-V */
		return true;
	case 0x5853: /* XenSource platform device */
		return true;
	default:
		return false;
	}
}

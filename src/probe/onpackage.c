/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Network MACs built into a chipset, whose "link" is internal; see live.h. */
#include "live.h"
#include <math.h>
#include <stdio.h>

/* Intel Ethernet Connection X722: the LAN controller integrated in the C620 series (Lewisburg)
 * PCH; ids from pci.ids (8086:37cc-37d3). Its PCIe function sits behind PCH-internal ports,
 * and the traffic leaves the PCH through the PCH's uplink (DMI or a CPU PCIe port). */
bool pcibw_device_is_onpackage(int vendor, int device)
{
	return vendor == 0x8086 && device >= 0x37cc && device <= 0x37d3 && device != 0x37cd;
}

void probe_onpackage_warn(struct pcibw_report *out, int first)
{
	for (int i = first; i < out->n_devices; i++) {
		const struct pcibw_device *d = &out->devices[i];
		if (!pcibw_device_is_onpackage(d->vendor_id, d->device_id))
			continue;
		char speed[32] = "unknown", max[32] = "unknown";
		if (!isnan(d->link_speed_gts) && d->link_width > 0)
			snprintf(speed, sizeof speed, "%g GT/s x%d", d->link_speed_gts, d->link_width);
		if (!isnan(d->max_link_speed_gts) && d->max_link_width > 0)
			snprintf(max, sizeof max, "%g GT/s x%d", d->max_link_speed_gts, d->max_link_width);
		pcibw_report_warn(out, NULL, "on-package",
				  "%s (X722) is the LAN controller inside the Intel C620 "
				  "(Lewisburg) chipset: its link (%s, max %s) is an on-package link "
				  "that may not be a physical ceiling; its traffic leaves through the "
				  "chipset's uplink%s%s",
				  d->slot, speed, max, d->n_path ? ", the last hop of its path, " : "",
				  d->n_path ? d->path[d->n_path - 1].slot : "");
	}
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bottleneck hop of a watched interface, from the probe (as `report` finds it); a VF gets
 * its PF's, whose link its traffic crosses. */
#include "pcibw/probe.h"
#include "recording.h"
#include "shared_hop.h"
#include <stdio.h>
#include <string.h>

void watch_shared_probe(const struct pcibw_device *d, const struct pcibw_bus *own, struct watch_meta_if *m)
{
	if (!watch_physfn(d->slot, m->pf)) {
		watch_hop_of_device(d, own, m->hop, m->hop_bus, sizeof m->hop_bus);
		return;
	}
	struct pcibw_probe_opts po = {.slot_filter = m->pf};
	struct pcibw_report rep = {0};
	struct pcibw_err e = {0};
	struct pcibw_bus pb;
	bool done = false;
	if (pcibw_probe(&po, &rep, &e) == PCIBW_OK && rep.n_devices >= 1 &&
	    pcibw_bus_from_device(&rep.devices[0], &pb, &e) == PCIBW_OK)
		/* the PF's registers govern its VFs' TLPs (a VF's MPS field is reserved) */
		done = watch_hop_of_device(&rep.devices[0], &pb, m->hop, m->hop_bus, sizeof m->hop_bus);
	pcibw_report_free(&rep);
	if (!done) {
		/* the PF's link, as the VF's own config space reports it */
		snprintf(m->hop, sizeof m->hop, "%s", m->pf);
		pcibw_bus_format(own, m->hop_bus, sizeof m->hop_bus);
	}
}

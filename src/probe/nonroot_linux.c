/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Config space hidden past byte 64 from non-root readers (Linux); see live.h. */
#include "live.h"
#include <stdio.h>

bool probe_nonroot_hidden(const struct probe_node *n)
{
	/* Through the sysfs method a readable device always yields at least 256 bytes (PCI LB 3.0
	 * sec. 6.1); 64 means the kernel cut it. A device without a capability list loses nothing
	 * by the cut, so it does not count. */
	return n->cfg.len > 0 && n->cfg.len <= 64 && n->has_caps != 0;
}

void probe_nonroot_warn(struct pcibw_report *r, bool live, int n_hidden)
{
	if (!n_hidden)
		return;
	char what[200];
	if (live)
		snprintf(what, sizeof what,
			 "config space past byte 64 is readable only by root: %d "
			 "device%s gave their first 64 bytes",
			 n_hidden, n_hidden == 1 ? "" : "s");
	else
		snprintf(what, sizeof what,
			 "this copied tree holds only the first 64 bytes of config "
			 "space of %d device%s (it was gathered without root)",
			 n_hidden, n_hidden == 1 ? "" : "s");
	pcibw_report_warn(r, NULL, "non-root",
			  "%s; link speed and width come from the sysfs attributes where the "
			  "kernel writes them (current_link_speed, current_link_width, max_link_speed, "
			  "max_link_width; --json names each fact's source under provenance); %s would add "
			  "LnkCap2 speeds, the PCIe "
			  "port type (so downgrades of bridges), MPS, MRRS, RCB, relaxed ordering, "
			  "extended and 10-bit tags, Flit mode, ASPM support and exit latencies, MPS "
			  "supported, the registers that tell why a link runs slow (Link Control 2 "
			  "Target Link Speed and Hardware Autonomous Speed Disable, Link Status LBMS "
			  "and LABS, Link Status 2 equalization, the AER status registers), and the "
			  "PCI-X mode, clock, MMRBC and splits",
			  what, live ? "running pcibw as root" : "a copy gathered as root");
}

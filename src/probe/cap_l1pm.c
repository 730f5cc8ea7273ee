/* SPDX-License-Identifier: GPL-2.0-or-later */
/* L1 PM Substates extended capability (id 0x1e), PCIe Base 6.0 sec. 7.8.3: which substates of
 * L1 the link may enter. Deeper substates turn off more of the link (L1.2 its common-mode
 * voltages), so each wake takes longer (sec. 5.5). */
#include "cfg_access.h"
#include "probe_int.h"

void probe_cap_l1pm(struct probe_node *n, int at, const char *origin)
{
	const struct probe_cfg *c = &n->cfg;
	if (!cfg_has(c, at + PCI_L1PM_SUBSTAT_CTL1, 4))
		return;
	uint32_t ctl1 = cfg32(c, at + PCI_L1PM_SUBSTAT_CTL1);
	int v = 0;
	if (ctl1 & PCI_L1PM_SUBSTAT_CTL1_ASPM_L11)
		v |= PCIBW_L1SS_ASPM_L11;
	if (ctl1 & PCI_L1PM_SUBSTAT_CTL1_ASPM_L12)
		v |= PCIBW_L1SS_ASPM_L12;
	if (ctl1 & PCI_L1PM_SUBSTAT_CTL1_PM_L11)
		v |= PCIBW_L1SS_PCIPM_L11;
	if (ctl1 & PCI_L1PM_SUBSTAT_CTL1_PM_L12)
		v |= PCIBW_L1SS_PCIPM_L12;
	n->d.l1_substates = v;
	pcibw_device_set_prov(&n->d, "l1_substates", origin);
}

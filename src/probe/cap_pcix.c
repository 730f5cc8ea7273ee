/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PCI-X capability (id 0x07), PCI-X Protocol Addendum 2.0a sec. 7.2 (device) and 8.6.2 (bridge). */
#include "cfg_access.h"
#include "probe_int.h"

/* Maximum Outstanding Split Transactions encoding, PCI-X 2.0a Table 7-8 (command bits 6:4,
 * status bits 25:23). */
static const int splits_code[8] = {1, 2, 3, 4, 8, 12, 16, 32};

void probe_cap_pcix(struct probe_node *n, int at, const char *origin)
{
	struct pcibw_device *d = &n->d;
	const struct probe_cfg *c = &n->cfg;
	if (n->header_type == 1) {
		/* Bridge: Secondary Status at +2 (its bits 9:6 give the secondary bus mode and
		 * clock), Bridge Status at +4. */
		if (!cfg_has(c, at, 8))
			return;
		n->pcix_bridge = 1;
		n->pcix_sec_status = (int)cfg16(c, at + PCI_PCIX_BRIDGE_SEC_STATUS);
		return;
	}
	if (!cfg_has(c, at, 8))
		return;
	unsigned cmd = cfg16(c, at + PCI_PCIX_COMMAND);
	uint32_t st = cfg32(c, at + PCI_PCIX_STATUS);
	d->pcix_capable = true;
	d->mmrbc_bytes = 512 << ((cmd >> 2) & 3);     /* command bits 3:2 */
	d->pcix_splits = splits_code[(cmd >> 4) & 7]; /* command bits 6:4 */
	d->pcix_64bit = (int)(st >> 16 & 1);
	d->pcix_133 = (int)(st >> 17 & 1);
	d->pcix_designed_mmrbc_bytes = 512 << (st >> 21 & 3); /* status bits 22:21 */
	d->pcix_designed_splits = splits_code[st >> 23 & 7];  /* status bits 25:23 */
	d->pcix_266 = (int)(st >> 30 & 1);
	d->pcix_533 = (int)(st >> 31 & 1);
	pcibw_device_set_prov(d, "pcix_capable", origin);
	pcibw_device_set_prov(d, "mmrbc_bytes", origin);
}

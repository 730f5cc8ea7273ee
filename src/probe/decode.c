/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Config-space header and capability lists (PCI Local Bus 3.0 sec. 6.1, 6.7; PCI-to-PCI
 * Bridge 1.2 sec. 3.2; PCIe Base 6.0 sec. 7.6 for the extended list). The lists come from the
 * device (or a file): a pointer into the header, back to an earlier entry or past the end is
 * reported as bad input rather than followed, so a hostile dump cannot hang the probe. */
#include "cfg_access.h"
#include "probe_int.h"
#include <stdio.h>
#include <string.h>

int probe_bad_config(const struct probe_node *n, const struct probe_locator *loc, int offset,
		     struct pcibw_err *err, const char *what)
{
	char where[1200];
	const struct pcibw_device *d = &n->d;
	if (loc && loc->where)
		loc->where(loc->ctx, d->domain, d->bus, d->dev, d->fn, offset, where, sizeof where);
	else
		snprintf(where, sizeof where, "%s offset 0x%03x", d->slot, (unsigned)offset);
	return pcibw_fail(err, PCIBW_EINPUT, "%s: %s: %s", where, d->slot, what);
}

/* Walk the list that starts at the pointer at config offset 0x34 (0x14 for CardBus). */
static int walk_caps(struct probe_node *n, int ptr_at, const char *origin, const struct probe_locator *loc,
		     struct pcibw_report *rep, struct pcibw_err *err)
{
	const struct probe_cfg *c = &n->cfg;
	unsigned char seen[256] = {0};
	int from = ptr_at;
	unsigned at = cfg8(c, ptr_at) & 0xfc; /* bits 1:0 reserved (PCI LB 3.0 sec. 6.7) */
	char msg[200];
	while (at) {
		if (at < 0x40) {
			snprintf(msg, sizeof msg,
				 "capability pointer 0x%02x points into the header: "
				 "expected 0x40-0xfc or 0",
				 at);
			return probe_bad_config(n, loc, from, err, msg);
		}
		if (seen[at]) {
			snprintf(msg, sizeof msg,
				 "capability list loops back to 0x%02x: expected a "
				 "list ending with pointer 0",
				 at);
			return probe_bad_config(n, loc, from, err, msg);
		}
		seen[at] = 1;
		unsigned id = cfg8(c, (int)at);
		if (id == 0xff) {
			snprintf(msg, sizeof msg,
				 "capability at 0x%02x reads 0xff: expected a "
				 "capability id",
				 at);
			return probe_bad_config(n, loc, (int)at, err, msg);
		}
		/* Capabilities live below 0x100 (PCI LB 3.0 sec. 6.7): the registers read must fit
		 * there, else a 256-byte source would drop them silently and a 4096-byte one would
		 * read extended space as if it were theirs. */
		int need = 0;
		const char *name = NULL;
		if (id == PCI_CAP_ID_EXP) {
			unsigned flags = cfg16(c, (int)at + PCI_EXP_FLAGS);
			int type = (int)((flags & PCI_EXP_FLAGS_TYPE) >> 4);
			bool v2 = (flags & PCI_EXP_FLAGS_VERS) >= 2, rc = pcibw_pcie_type_rc_integrated(type);
			/* through LnkSta (v1) or LnkSta2 (v2); through DevCtl2 for RC-integrated
			 * devices, which have no link (pci_regs.h PCI_CAP_EXP_*_SIZEOF_V1/V2) */
			need = rc ? (v2 ? PCI_EXP_DEVCTL2 + 4 : PCI_EXP_DEVCTL + 4)
				  : (v2 ? PCI_EXP_LNKSTA2 + 2 : PCI_EXP_LNKSTA + 2);
			name = "PCI Express";
		} else if (id == PCI_CAP_ID_PCIX) {
			need = 8; /* Command + Status, or a bridge's Secondary + Bridge Status */
			name = "PCI-X";
		}
		if (need && at + (unsigned)need > 0x100) {
			snprintf(msg, sizeof msg,
				 "%s capability at 0x%02x needs 0x%02x bytes and runs "
				 "past 0xff: expected it to end by 0xff (capabilities live in 0x40-0xff)",
				 name, at, (unsigned)need);
			return probe_bad_config(n, loc, (int)at, err, msg);
		}
		/* PCI PM Control/Status PowerState (PCI Bus Power Management 1.2 sec. 5.6.4.1):
		 * a link cause names a device not in D0 */
		if (id == PCI_CAP_ID_PM && at + PCI_PM_CTRL + 2 <= 0x100)
			n->d.lreg.power_state =
			    (int)(cfg16(c, (int)at + PCI_PM_CTRL) & PCI_PM_CTRL_STATE_MASK);
		if (id == PCI_CAP_ID_EXP)
			probe_cap_pcie(n, (int)at, origin, rep);
		else if (id == PCI_CAP_ID_PCIX)
			probe_cap_pcix(n, (int)at, origin);
		if (id == PCI_CAP_ID_EXP || id == PCI_CAP_ID_PCIX)
			n->ext_space = true;
		from = (int)at + 1;
		at = cfg8(c, (int)at + 1) & 0xfc;
	}
	return 0;
}

/* Extended capabilities start at 0x100; each header holds a 12-bit next pointer (bits 31:20).
 * Only a PCIe or PCI-X function has them, and only their headers and the registers decoded are
 * read from the source. */
static int walk_ext_caps(struct probe_node *n, const char *origin, const struct probe_locator *loc,
			 struct pcibw_err *err)
{
	struct probe_cfg *c = &n->cfg;
	if (!n->ext_space || !probe_cfg_need(c, 0x100, 4))
		return 0;
	/* the whole extended space is in the source: no L1 PM Substates capability means none */
	if (n->lnkcap_read) {
		n->d.l1_substates = 0;
		pcibw_device_set_prov(&n->d, "l1_substates", origin);
	}
	unsigned char seen[4096 / 4] = {0};
	unsigned at = 0x100;
	int from = 0x100;
	char msg[200];
	while (at) {
		if (at >= 0x100 && at <= 0xffc)
			probe_cfg_need(c, (int)at, 4); /* unreadable: all ones, the end of the list */
		uint32_t h = cfg32(c, (int)at);
		if (h == 0 || h == 0xffffffffu)
			return 0; /* no extended capabilities */
		if (at < 0x100 || at > 0xffc) {
			snprintf(msg, sizeof msg,
				 "extended capability pointer 0x%03x is outside "
				 "extended config space: expected 0x100-0xffc or 0",
				 at);
			return probe_bad_config(n, loc, from, err, msg);
		}
		if (seen[at / 4]) {
			snprintf(msg, sizeof msg,
				 "extended capability list loops back to 0x%03x: "
				 "expected a list ending with pointer 0",
				 at);
			return probe_bad_config(n, loc, from, err, msg);
		}
		seen[at / 4] = 1;
		/* AER (PCIe Base 5.0 sec. 7.8.4): the Uncorrectable and Correctable Error Status
		 * registers, whose set bits a link cause names */
		if ((h & 0xffff) == PCI_EXT_CAP_ID_AER &&
		    probe_cfg_need(c, (int)at + PCI_ERR_UNCOR_STATUS, 4) &&
		    probe_cfg_need(c, (int)at + PCI_ERR_COR_STATUS, 4)) {
			n->d.lreg.aer_unc_status = cfg32(c, (int)at + PCI_ERR_UNCOR_STATUS);
			n->d.lreg.aer_cor_status = cfg32(c, (int)at + PCI_ERR_COR_STATUS);
		}
		if ((h & 0xffff) == PCI_EXT_CAP_ID_L1PM && n->lnkcap_read &&
		    probe_cfg_need(c, (int)at + PCI_L1PM_SUBSTAT_CTL1, 4))
			probe_cap_l1pm(n, (int)at, origin);
		from = (int)at + 2;
		at = h >> 20 & 0xffc;
		if (at && at < 0x100) {
			snprintf(msg, sizeof msg,
				 "extended capability pointer 0x%03x is outside "
				 "extended config space: expected 0x100-0xffc or 0",
				 at);
			return probe_bad_config(n, loc, from, err, msg);
		}
	}
	return 0;
}

int probe_decode(struct probe_node *n, const char *origin, const struct probe_locator *loc,
		 struct pcibw_report *rep, struct pcibw_err *err)
{
	struct pcibw_device *d = &n->d;
	const struct probe_cfg *c = &n->cfg;
	if (c->len < 64)
		return 0;
	unsigned vendor = cfg16(c, PCI_VENDOR_ID), device = cfg16(c, PCI_DEVICE_ID);
	if (vendor == 0xffff)
		return probe_bad_config(n, loc, 0, err,
					"vendor id reads 0xffff (no device answers, or its config "
					"space is not readable): expected a vendor id");
	d->vendor_id = (int)vendor;
	d->device_id = (int)device;
	d->revision = (int)cfg8(c, PCI_REVISION_ID);
	d->class_id = (int)cfg16(c, PCI_CLASS_DEVICE);
	d->is_virtual = probe_is_paravirt(d->vendor_id, d->device_id);
	pcibw_device_set_prov(d, "vendor_id", origin);
	pcibw_device_set_prov(d, "class", origin);
	if (d->is_virtual)
		pcibw_device_set_prov(d, "virtual", "inferred");

	unsigned status = cfg16(c, PCI_STATUS);
	n->status_66mhz = !!(status & PCI_STATUS_66MHZ);
	n->has_caps = !!(status & PCI_STATUS_CAP_LIST);
	n->header_type = (int)(cfg8(c, PCI_HEADER_TYPE) & 0x7f);
	if (n->header_type > 2) {
		/* lspci prints "Unknown header type" and decodes nothing: neither do we */
		char msg[200];
		snprintf(msg, sizeof msg,
			 "header type 0x%02x (config 0x0e bits 6:0): expected 0 "
			 "(normal), 1 (PCI-to-PCI bridge) or 2 (CardBus bridge)",
			 (unsigned)n->header_type);
		return probe_bad_config(n, loc, PCI_HEADER_TYPE, err, msg);
	}
	/* Latency Timer (0x0d, PCI clocks) and Cache Line Size (0x0c, DWORDs; 0 = not set by
	 * firmware or driver), PCI LB 3.0 sec. 6.2.4: they bound a PCI/PCI-X master's bursts. */
	d->latency_timer = (int)cfg8(c, PCI_LATENCY_TIMER);
	unsigned cls = cfg8(c, PCI_CACHE_LINE_SIZE);
	d->cacheline_bytes = cls ? (int)cls * 4 : PCIBW_NULL;
	pcibw_device_set_prov(d, "latency_timer", origin);
	if (cls)
		pcibw_device_set_prov(d, "cacheline_bytes", origin);
	if (n->header_type == 1 || n->header_type == 2) {
		d->is_bridge = true;
		n->sec_bus = (int)cfg8(c, PCI_SECONDARY_BUS);
		n->sub_bus = (int)cfg8(c, PCI_SUBORDINATE_BUS);
		if (n->header_type == 1)
			n->sec_status_66mhz = !!(cfg16(c, PCI_SEC_STATUS) & PCI_STATUS_66MHZ);
	}
	if (!n->has_caps) {
		n->caps_read = true; /* an empty list, known to be empty */
		return 0;
	}
	if (c->len < 256)
		return 0; /* the list lives past byte 64: caps_read stays false */
	n->caps_read = true;
	int r = walk_caps(n, n->header_type == 2 ? PCI_CB_CAPABILITY_LIST : PCI_CAPABILITY_LIST, origin, loc,
			  rep, err);
	if (r)
		return r;
	return walk_ext_caps(n, origin, loc, err);
}

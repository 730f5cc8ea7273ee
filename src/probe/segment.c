/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bus a conventional PCI or PCI-X device shares: its mode, clock and width, from the
 * upstream bridge (a PCI-X bridge's Secondary Status, a PCI-to-PCI bridge's Secondary Status
 * 66 MHz bit) and from every device on the segment (the slowest sets the clock).
 */
#include "segment.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static bool caps_unknown(const struct probe_node *n)
{
	return n->has_caps != 0 && !n->caps_read;
}

/* Conventional clock: 66 MHz only if the bridge's secondary side and every device on the
 * segment set their "66 MHz capable" bit; one 33 MHz device slows the whole bus (PCI LB 3.0
 * sec. 7.5; PCI-PCI Bridge 1.2 sec. 3.2.5.7). */
static int conventional_mhz(const struct probe_set *s, int domain, int bus, int bridge)
{
	int mhz = 66;
	if (bridge >= 0) {
		int b = s->v[bridge].sec_status_66mhz;
		if (b == PCIBW_NULL)
			return PCIBW_NULL;
		if (!b)
			mhz = 33;
	}
	for (int i = 0; i < s->n; i++) {
		if (!seg_on_bus(&s->v[i], domain, bus))
			continue;
		if (s->v[i].status_66mhz == PCIBW_NULL)
			return PCIBW_NULL;
		if (!s->v[i].status_66mhz)
			mhz = 33;
	}
	return mhz;
}

/* PCI-X bridge Secondary Status bits 9:6, "Secondary Bus Mode and Frequency" (PCI-X 2.0a
 * sec. 8.6.2.2; the kernel's pcix_bus_speed[] in drivers/pci/probe.c). lspci decodes only
 * bits 8:6, which misreads every mode-2 (266/533) value. */
static bool pcix_sec_mode(unsigned code, struct seg *g)
{
	static const int mhz[4] = {0, 66, 100, 133};
	if (code == 0) {
		g->kind = PCIBW_BUS_PCI;
		g->mode = PCIBW_PCIX_MODE_CONVENTIONAL;
		return true;
	}
	if ((code & 3) == 0)
		return false; /* 4, 8, 0xc: reserved */
	g->kind = PCIBW_BUS_PCIX;
	g->mhz = mhz[code & 3];
	g->mode = code < 4     ? PCIBW_PCIX_MODE_PCIX
		  : code < 8   ? PCIBW_PCIX_MODE_PCIX_ECC
		  : code < 0xc ? PCIBW_PCIX_MODE_PCIX_266
			       : PCIBW_PCIX_MODE_PCIX_533;
	return true;
}

/* The segment's bridge is not in the source. One conventional device on a bus forces
 * conventional mode (PCI-X 2.0a sec. 6.2), and one 33 MHz device forces 33 MHz, whatever the
 * bridge; anything faster would need the bridge's own bits. */
static void missing_bridge(const struct probe_set *s, int domain, int bus, struct seg *g)
{
	bool conventional = false, slow = false;
	for (int i = 0; i < s->n; i++) {
		const struct probe_node *n = &s->v[i];
		if (!seg_on_bus(n, domain, bus))
			continue;
		if (n->d.bus_kind == PCIBW_BUS_PCIE || n->d.pcie_port_type != PCIBW_NULL || caps_unknown(n) ||
		    n->cfg.len == 0)
			return;
		if (!n->d.pcix_capable && !n->pcix_bridge)
			conventional = true;
		if (n->status_66mhz == 0)
			slow = true;
	}
	if (!conventional)
		return;
	g->kind = PCIBW_BUS_PCI;
	g->mode = PCIBW_PCIX_MODE_CONVENTIONAL;
	g->mhz = slow ? 33 : PCIBW_NULL;
	if (!slow)
		snprintf(g->why + strlen(g->why), sizeof g->why - strlen(g->why),
			 ", so its clock (33 or 66 MHz) is unknown");
}

/* The segment `bus` below `bridge` (-1: a root bus, or a bridge missing from the source). */
void probe_segment(const struct probe_set *s, int domain, int bus, int bridge, struct seg *g)
{
	memset(g, 0, sizeof *g);
	g->kind = PCIBW_BUS_UNKNOWN;
	g->mhz = g->width_bits = PCIBW_NULL;
	if (bridge >= 0) {
		const struct probe_node *b = &s->v[bridge];
		int t = b->d.pcie_port_type;
		if (b->pcix_bridge && b->pcix_sec_status == PCIBW_NULL) {
			/* a text source (pciconf -c) shows the capability but not its registers */
			snprintf(g->why, sizeof g->why,
				 "the secondary mode and clock of PCI-X bridge %s are not in the source",
				 b->d.slot);
			return;
		} else if (b->pcix_bridge) {
			unsigned st = (unsigned)b->pcix_sec_status;
			g->from_pcix_bridge = true;
			g->width_bits = st & 1 ? 64 : 32; /* Secondary Status bit 0: 64-bit AD bus */
			if (!pcix_sec_mode(st >> 6 & 0xf, g)) {
				snprintf(g->why, sizeof g->why,
					 "PCI-X bridge %s reports reserved "
					 "secondary mode 0x%x",
					 b->d.slot, st >> 6 & 0xf);
				return;
			}
			if (g->kind == PCIBW_BUS_PCIX)
				return;
		} else if (b->header_type == 2) {
			/* CardBus: a 32-bit, 33 MHz bus (PC Card Standard 8.0, CardBus electrical
			 * spec.), with no clock or width bits of its own to read */
			g->kind = PCIBW_BUS_PCI;
			g->mode = PCIBW_PCIX_MODE_CONVENTIONAL;
			g->mhz = 33;
			g->width_bits = 32;
			g->from_spec = true;
			return;
		} else if (t == PCI_EXP_TYPE_ROOT_PORT || t == PCI_EXP_TYPE_UPSTREAM ||
			   t == PCI_EXP_TYPE_DOWNSTREAM) {
			snprintf(g->why, sizeof g->why,
				 "%s is a PCI Express port: the device below it "
				 "should be PCIe, but its capabilities are not in the source",
				 b->d.slot);
			return;
		} else if (caps_unknown(b)) {
			snprintf(g->why, sizeof g->why,
				 "the capabilities of bridge %s are not in the "
				 "source, so a PCI-X mode cannot be ruled out",
				 b->d.slot);
			return;
		}
		g->kind = PCIBW_BUS_PCI;
		g->mode = PCIBW_PCIX_MODE_CONVENTIONAL;
		g->mhz = conventional_mhz(s, domain, bus, bridge);
		if (g->mhz == PCIBW_NULL)
			snprintf(g->why, sizeof g->why, "a 66 MHz bit on bus %02x is not in the source",
				 (unsigned)bus);
		return;
	}
	/* No bridge for this bus in the source: a root bus if a host bridge (class 0x0600) sits
	 * on it; otherwise its bridge is simply missing (an excerpt), and the bridge's own clock
	 * and mode are unknown. */
	bool root = false;
	for (int i = 0; i < s->n; i++)
		if (seg_on_bus(&s->v[i], domain, bus) && s->v[i].d.class_id == 0x0600)
			root = true;
	if (!root) {
		const char *spans = NULL;
		for (int i = 0; i < s->n; i++) {
			const struct probe_node *b = &s->v[i];
			if (b->d.domain == domain && b->sec_bus != PCIBW_NULL && b->sec_bus < bus &&
			    b->sub_bus >= bus)
				spans = b->d.slot;
		}
		if (bus == 0) /* bus 0 is always a root bus: no bridge's secondary bus is 0 */
			snprintf(g->why, sizeof g->why, "root bus 00's host bridge is not in the source");
		else
			snprintf(g->why, sizeof g->why,
				 "the bridge above bus %02x is not in the source%s%s%s", (unsigned)bus,
				 spans ? " (" : "", spans ? spans : "", spans ? " spans it)" : "");
		missing_bridge(s, domain, bus, g);
		return;
	}
	bool all_pcix = true;
	for (int i = 0; i < s->n; i++) {
		const struct probe_node *n = &s->v[i];
		if (!seg_on_bus(n, domain, bus))
			continue;
		if (n->d.pcie_port_type != PCIBW_NULL || n->d.bus_kind == PCIBW_BUS_PCIE) {
			snprintf(g->why, sizeof g->why,
				 "it sits on the root bus of a PCI Express host "
				 "(%s is PCIe): an integrated device's internal link is not in config "
				 "space",
				 n->d.slot);
			return;
		}
		if (caps_unknown(n)) {
			snprintf(g->why, sizeof g->why,
				 "the capabilities of %s (on the same root bus) "
				 "are not in the source",
				 n->d.slot);
			return;
		}
		if (n->cfg.len == 0 && n->has_caps == PCIBW_NULL) {
			snprintf(g->why, sizeof g->why, "the source holds no config space");
			return;
		}
		if (!n->d.pcix_capable && !n->pcix_bridge)
			all_pcix = false;
	}
	if (all_pcix) {
		snprintf(g->why, sizeof g->why,
			 "every device on root bus %02x is PCI-X capable, and "
			 "the host bridge's PCI-X mode is not in config space",
			 (unsigned)bus);
		return;
	}
	/* one conventional device on the bus forces conventional mode (PCI-X 2.0a sec. 6.2) */
	g->kind = PCIBW_BUS_PCI;
	g->mode = PCIBW_PCIX_MODE_CONVENTIONAL;
	g->mhz = conventional_mhz(s, domain, bus, -1);
}

void probe_device_segment(struct probe_set *s, int i)
{
	struct probe_node *n = &s->v[i];
	struct pcibw_device *d = &n->d;
	if (d->bus_kind != PCIBW_BUS_UNKNOWN)
		return; /* PCIe from its capability, or set by the source (sysfs, hwloc) */
	if (caps_unknown(n) || n->cfg.len == 0)
		return;
	struct seg g;
	probe_segment(s, d->domain, d->bus, n->parent, &g);
	if (g.kind == PCIBW_BUS_UNKNOWN)
		return;
	d->bus_kind = g.kind;
	pcibw_device_set_prov(d, "bus_kind", "config");
	if (g.from_pcix_bridge || d->pcix_capable) {
		d->pcix_mode = g.mode;
		pcibw_device_set_prov(d, "pcix_mode", "config");
	}
	if (d->is_virtual)
		return; /* an emulated segment's clock is no ceiling: leave it null */
	d->bus_mhz = g.mhz;
	d->bus_width_bits = g.width_bits;
	const char *origin = g.from_spec ? "inferred" : "config";
	if (g.mhz != PCIBW_NULL)
		pcibw_device_set_prov(d, "bus_mhz", origin);
	if (g.width_bits != PCIBW_NULL)
		pcibw_device_set_prov(d, "bus_width_bits", origin);
}

/* What a reader of this device must know about the facts left null. */
void probe_segment_warnings(const struct probe_set *s, int i, struct pcibw_report *rep)
{
	const struct probe_node *n = &s->v[i];
	const struct pcibw_device *d = &n->d;
	if (caps_unknown(n) && n->cfg.len > 0)
		pcibw_report_warn(rep, d->slot, "config-short",
				  "only %d bytes of config space in the source (lspci -x, or "
				  "read without root): no capabilities, so no link speed or width, no "
				  "PCI-X mode or MMRBC, no MPS or MRRS",
				  n->cfg.len);
	if (d->bus_kind == PCIBW_BUS_PCIE && !pcibw_pcie_type_rc_integrated(d->pcie_port_type) &&
	    (isnan(d->link_speed_gts) || d->link_width == PCIBW_NULL))
		pcibw_report_warn(rep, d->slot, "link-unknown",
				  "PCIe link speed or width not reported (Link Status reads "
				  "an undefined speed, width x0 as on-chip devices do, or a reserved "
				  "code): no link ceiling");
	if (d->bus_kind == PCIBW_BUS_PCIE || d->is_virtual || n->cfg.len == 0)
		return;
	if (d->bus_kind == PCIBW_BUS_UNKNOWN && caps_unknown(n)) {
		pcibw_report_warn(rep, d->slot, "bus-unknown",
				  "bus unknown: its capabilities are not in the source, so "
				  "it may be PCIe, PCI-X or PCI");
		return;
	}
	struct seg g;
	probe_segment(s, d->domain, d->bus, n->parent, &g);
	if (d->bus_kind == PCIBW_BUS_UNKNOWN) {
		pcibw_report_warn(rep, d->slot, "bus-unknown", "bus unknown: %s", g.why);
		return;
	}
	if (d->bus_mhz == PCIBW_NULL)
		pcibw_report_warn(rep, d->slot, "clock-unknown", "bus clock unknown: %s", g.why);
	if (d->bus_width_bits == PCIBW_NULL)
		pcibw_report_warn(rep, d->slot, "width-unknown",
				  "bus width unknown: a conventional PCI bus signals 64-bit "
				  "transfers per transaction (REQ64#/ACK64#), which config space does "
				  "not record; bandwidth figures assume 32 bits");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tree above each device: parent bridges, the segment a conventional/PCI-X device shares,
 * the path to the root port and the hop that limits it.
 *
 * Bottleneck: like the kernel's pcie_bandwidth_available() (drivers/pci/pci.c), every hop from
 * the device up to the root counts with its own width x per-lane rate after encoding, and the
 * minimum wins, a tie going to the hop nearer the root (`next_bw <= bw`). PCI/PCI-X segments
 * join the walk with their whole (shared, half-duplex) bandwidth.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pci/pci.h>
#include "probe_int.h"

struct seg {
	enum pcibw_bus_kind kind;   /* PCI, PCIX or UNKNOWN */
	enum pcibw_pcix_mode mode;
	int mhz, width_bits;        /* PCIBW_NULL when unknown */
	bool from_pcix_bridge;
	char why[300];              /* why kind or width is unknown */
};

static bool on_bus(const struct probe_node *n, int domain, int bus)
{
	return n->d.domain == domain && n->d.bus == bus;
}

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
		if (!on_bus(&s->v[i], domain, bus))
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
	g->mode = code < 4 ? PCIBW_PCIX_MODE_PCIX : code < 8 ? PCIBW_PCIX_MODE_PCIX_ECC :
		  code < 0xc ? PCIBW_PCIX_MODE_PCIX_266 : PCIBW_PCIX_MODE_PCIX_533;
	return true;
}

static int find_parent(const struct probe_set *s, int i)
{
	const struct probe_node *n = &s->v[i];
	for (int j = 0; j < s->n; j++) {
		const struct probe_node *b = &s->v[j];
		if (j != i && b->d.domain == n->d.domain && b->sec_bus == n->d.bus &&
		    b->sec_bus != b->d.bus && b->sec_bus != PCIBW_NULL)
			return j;
	}
	return -1;
}

/* The segment's bridge is not in the source. One conventional device on a bus forces
 * conventional mode (PCI-X 2.0a sec. 6.2), and one 33 MHz device forces 33 MHz, whatever the
 * bridge; anything faster would need the bridge's own bits. */
static void missing_bridge(const struct probe_set *s, int domain, int bus, struct seg *g)
{
	bool conventional = false, slow = false;
	for (int i = 0; i < s->n; i++) {
		const struct probe_node *n = &s->v[i];
		if (!on_bus(n, domain, bus))
			continue;
		if (n->d.bus_kind == PCIBW_BUS_PCIE || n->d.pcie_port_type != PCIBW_NULL ||
		    caps_unknown(n) || n->cfg.len == 0)
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
static void segment(const struct probe_set *s, int domain, int bus, int bridge, struct seg *g)
{
	memset(g, 0, sizeof *g);
	g->kind = PCIBW_BUS_UNKNOWN;
	g->mhz = g->width_bits = PCIBW_NULL;
	if (bridge >= 0) {
		const struct probe_node *b = &s->v[bridge];
		int t = b->d.pcie_port_type;
		if (b->pcix_bridge) {
			unsigned st = (unsigned)b->pcix_sec_status;
			g->from_pcix_bridge = true;
			g->width_bits = st & 1 ? 64 : 32; /* Secondary Status bit 0: 64-bit AD bus */
			if (!pcix_sec_mode(st >> 6 & 0xf, g)) {
				snprintf(g->why, sizeof g->why, "PCI-X bridge %s reports reserved "
					 "secondary mode 0x%x", b->d.slot, st >> 6 & 0xf);
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
			return;
		} else if (t == 4 || t == 5 || t == 6) {
			snprintf(g->why, sizeof g->why, "%s is a PCI Express port: the device below it "
				 "should be PCIe, but its capabilities are not in the source", b->d.slot);
			return;
		} else if (caps_unknown(b)) {
			snprintf(g->why, sizeof g->why, "the capabilities of bridge %s are not in the "
				 "source, so a PCI-X mode cannot be ruled out", b->d.slot);
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
		if (on_bus(&s->v[i], domain, bus) && s->v[i].d.class_id == 0x0600)
			root = true;
	if (!root) {
		const char *spans = NULL;
		for (int i = 0; i < s->n; i++) {
			const struct probe_node *b = &s->v[i];
			if (b->d.domain == domain && b->sec_bus != PCIBW_NULL && b->sec_bus < bus &&
			    b->sub_bus >= bus)
				spans = b->d.slot;
		}
		snprintf(g->why, sizeof g->why, "the bridge above bus %02x is not in the source%s%s%s",
			 (unsigned)bus, spans ? " (" : "", spans ? spans : "", spans ? " spans it)" : "");
		missing_bridge(s, domain, bus, g);
		return;
	}
	bool all_pcix = true;
	for (int i = 0; i < s->n; i++) {
		const struct probe_node *n = &s->v[i];
		if (!on_bus(n, domain, bus))
			continue;
		if (n->d.pcie_port_type != PCIBW_NULL || n->d.bus_kind == PCIBW_BUS_PCIE) {
			snprintf(g->why, sizeof g->why, "it sits on the root bus of a PCI Express host "
				 "(%s is PCIe): an integrated device's internal link is not in config "
				 "space", n->d.slot);
			return;
		}
		if (caps_unknown(n)) {
			snprintf(g->why, sizeof g->why, "the capabilities of %s (on the same root bus) "
				 "are not in the source", n->d.slot);
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
		snprintf(g->why, sizeof g->why, "every device on root bus %02x is PCI-X capable, and "
			 "the host bridge's PCI-X mode is not in config space", (unsigned)bus);
		return;
	}
	/* one conventional device on the bus forces conventional mode (PCI-X 2.0a sec. 6.2) */
	g->kind = PCIBW_BUS_PCI;
	g->mode = PCIBW_PCIX_MODE_CONVENTIONAL;
	g->mhz = conventional_mhz(s, domain, bus, -1);
}

struct hop {
	enum pcibw_bus_kind kind;
	double gts;
	int width;
	double gbps;
	bool shared, width_assumed;
};

static void seg_hop(const struct seg *g, struct hop *h)
{
	memset(h, 0, sizeof *h);
	h->kind = g->kind;
	h->gts = NAN;
	h->width = PCIBW_NULL;
	h->shared = true;
	int w = g->width_bits;
	if (w == PCIBW_NULL && g->kind == PCIBW_BUS_PCI) {
		w = 32; /* the narrowest PCI bus; a lower bound, flagged as assumed */
		h->width_assumed = true;
	}
	h->gbps = probe_hop_gbps(g->kind, NAN, 0, 0, g->mhz, w, g->mode);
}

static void link_hop(const struct pcibw_device *d, struct hop *h)
{
	memset(h, 0, sizeof *h);
	h->kind = PCIBW_BUS_PCIE;
	h->gts = d->link_speed_gts;
	h->width = d->link_width;
	h->gbps = probe_hop_gbps(PCIBW_BUS_PCIE, d->link_speed_gts, d->link_width, d->flit_mode,
				 0, 0, PCIBW_PCIX_MODE_NULL);
}

/* A bridge on the path counts with the bus it drives: a PCIe port with its own link (a root
 * or downstream port's LnkSta is the link below it, an upstream port's the link above, as
 * in the kernel's walk), a PCI or PCI-X bridge with its secondary segment. */
static void bridge_hop(const struct probe_set *s, int j, struct hop *h)
{
	const struct probe_node *b = &s->v[j];
	if (b->d.bus_kind == PCIBW_BUS_PCIE) {
		link_hop(&b->d, h);
		return;
	}
	struct seg g;
	segment(s, b->d.domain, b->sec_bus, j, &g);
	seg_hop(&g, h);
}

static void device_segment(struct probe_set *s, int i)
{
	struct probe_node *n = &s->v[i];
	struct pcibw_device *d = &n->d;
	if (d->bus_kind != PCIBW_BUS_UNKNOWN)
		return; /* PCIe from its capability, or set by the source (sysfs, hwloc) */
	if (caps_unknown(n) || n->cfg.len == 0)
		return;
	struct seg g;
	segment(s, d->domain, d->bus, n->parent, &g);
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
	if (g.mhz != PCIBW_NULL)
		pcibw_device_set_prov(d, "bus_mhz", "config");
	if (g.width_bits != PCIBW_NULL)
		pcibw_device_set_prov(d, "bus_width_bits", "config");
}

/* What a reader of this device must know about the facts left null. */
static void segment_warnings(const struct probe_set *s, int i, struct pcibw_report *rep)
{
	const struct probe_node *n = &s->v[i];
	const struct pcibw_device *d = &n->d;
	if (caps_unknown(n) && n->cfg.len > 0)
		pcibw_report_warn(rep, "%s: only %d bytes of config space in the source (lspci -x, or "
				  "read without root): no capabilities, so no link speed or width, no "
				  "PCI-X mode or MMRBC, no MPS or MRRS", d->slot, n->cfg.len);
	if (d->bus_kind == PCIBW_BUS_PCIE && d->pcie_port_type != 9 && d->pcie_port_type != 10 &&
	    (isnan(d->link_speed_gts) || d->link_width == PCIBW_NULL))
		pcibw_report_warn(rep, "%s: PCIe link speed or width not reported (Link Status reads "
				  "an undefined speed or width x0, as on-chip devices do): no link "
				  "ceiling", d->slot);
	if (d->bus_kind == PCIBW_BUS_PCIE || d->is_virtual || n->cfg.len == 0)
		return;
	if (d->bus_kind == PCIBW_BUS_UNKNOWN && caps_unknown(n)) {
		pcibw_report_warn(rep, "%s: bus unknown: its capabilities are not in the source, so "
				  "it may be PCIe, PCI-X or PCI", d->slot);
		return;
	}
	struct seg g;
	segment(s, d->domain, d->bus, n->parent, &g);
	if (d->bus_kind == PCIBW_BUS_UNKNOWN) {
		pcibw_report_warn(rep, "%s: bus unknown: %s", d->slot, g.why);
		return;
	}
	if (d->bus_mhz == PCIBW_NULL)
		pcibw_report_warn(rep, "%s: bus clock unknown: %s", d->slot, g.why);
	if (d->bus_width_bits == PCIBW_NULL)
		pcibw_report_warn(rep, "%s: bus width unknown: a conventional PCI bus signals 64-bit "
				  "transfers per transaction (REQ64#/ACK64#), which config space does "
				  "not record; bandwidth figures assume 32 bits", d->slot);
}

static void path_and_bottleneck(struct probe_set *s, int i, struct pcibw_report *rep, bool warn)
{
	struct probe_node *n = &s->v[i];
	struct pcibw_device *d = &n->d;
	struct hop own;
	if (d->bus_kind == PCIBW_BUS_PCIE) {
		link_hop(d, &own);
	} else if (d->bus_kind == PCIBW_BUS_PCI || d->bus_kind == PCIBW_BUS_PCIX) {
		struct seg g;
		segment(s, d->domain, d->bus, n->parent, &g);
		seg_hop(&g, &own);
	} else {
		memset(&own, 0, sizeof own);
		own.gbps = NAN;
	}
	double best = own.gbps;
	const char *best_slot = d->slot;
	bool best_shared = own.shared, assumed = !isnan(own.gbps) && own.width_assumed;
	int unknown = isnan(own.gbps) ? 1 : 0;
	char unknown_slot[32];
	snprintf(unknown_slot, sizeof unknown_slot, "%s", d->slot);
	d->n_path = 0;
	int steps = 0;
	for (int j = n->parent; j >= 0 && steps < s->n; j = s->v[j].parent, steps++) {
		if (d->n_path == PCIBW_MAX_PATH) {
			if (warn)
				pcibw_report_warn(rep, "%s: path longer than %d bridges: truncated",
						  d->slot, PCIBW_MAX_PATH);
			break;
		}
		struct hop h;
		bridge_hop(s, j, &h);
		struct pcibw_hop *p = &d->path[d->n_path++];
		snprintf(p->slot, sizeof p->slot, "%s", s->v[j].d.slot);
		p->bus_kind = h.kind;
		p->link_speed_gts = h.gts;
		p->link_width = h.width;
		p->gbps = h.gbps;
		p->shared = h.shared;
		if (isnan(h.gbps)) {
			if (!unknown++)
				snprintf(unknown_slot, sizeof unknown_slot, "%s", p->slot);
			continue;
		}
		/* `<=`: a tie goes to the hop nearer the root, as in pcie_bandwidth_available() */
		if (isnan(best) || h.gbps <= best * (1 + 1e-12)) {
			best = h.gbps;
			best_slot = s->v[j].d.slot;
			best_shared = h.shared;
			assumed = h.width_assumed;
		}
	}
	if (d->is_virtual) {
		if (warn)
			pcibw_report_warn(rep, "%s: paravirtual device (%04x:%04x): no bus ceiling of its "
					  "own; its throughput is set by the host's CPU and backend",
					  d->slot, (unsigned)d->vendor_id, (unsigned)d->device_id);
		return;
	}
	if (isnan(best))
		return;
	snprintf(d->bottleneck_slot, sizeof d->bottleneck_slot, "%s", best_slot);
	d->bottleneck_gbps = best;
	d->bottleneck_shared = best_shared;
	pcibw_device_set_prov(d, "bottleneck_gbps", assumed ? "inferred" : "config");
	if (unknown && warn)
		pcibw_report_warn(rep, "%s: the bottleneck leaves out %d hop%s of unknown bandwidth "
				  "(first: %s)", d->slot, unknown, unknown == 1 ? "" : "s", unknown_slot);
}

static void peers(struct probe_set *s, int i)
{
	struct pcibw_device *d = &s->v[i].d;
	d->n_peers = 0;
	if (d->bus_kind != PCIBW_BUS_PCI && d->bus_kind != PCIBW_BUS_PCIX)
		return;
	for (int j = 0; j < s->n && d->n_peers < PCIBW_MAX_PEERS; j++)
		if (j != i && on_bus(&s->v[j], d->domain, d->bus))
			snprintf(d->peers[d->n_peers++], 32, "%s", s->v[j].d.slot);
}

static bool wanted(const struct probe_node *n, const struct pcibw_probe_opts *o,
		   const struct pci_filter *f)
{
	const struct pcibw_device *d = &n->d;
	if (!o->all && !o->slot_filter && !o->iface && !pcibw_is_network_class(d->class_id))
		return false;
	if (f && ((f->domain >= 0 && f->domain != d->domain) || (f->bus >= 0 && f->bus != d->bus) ||
		  (f->slot >= 0 && f->slot != d->dev) || (f->func >= 0 && f->func != d->fn)))
		return false;
	if (o->iface) {
		for (int k = 0; k < d->n_interfaces; k++)
			if (!strcmp(d->interfaces[k], o->iface))
				return true;
		return false;
	}
	return true;
}

static int cmp_node(const void *a, const void *b)
{
	const struct pcibw_device *x = &((const struct probe_node *)a)->d;
	const struct pcibw_device *y = &((const struct probe_node *)b)->d;
	long kx = ((long)x->domain << 16) | x->bus << 8 | x->dev << 3 | x->fn;
	long ky = ((long)y->domain << 16) | y->bus << 8 | y->dev << 3 | y->fn;
	return (kx > ky) - (kx < ky);
}

int probe_finish(struct probe_set *set, const struct pcibw_probe_opts *opts,
		 struct pcibw_report *out, struct pcibw_err *err)
{
	struct pci_filter f, *fp = NULL;
	if (opts->slot_filter) {
		char buf[128];
		snprintf(buf, sizeof buf, "%s", opts->slot_filter);
		pci_filter_init(NULL, &f);
		char *e = pci_filter_parse_slot(&f, buf);
		if (e)
			return pcibw_fail(err, PCIBW_EUSAGE, "-s '%s': %s: expected "
					  "[[DOMAIN:]BUS:]DEV.FN", opts->slot_filter, e);
		fp = &f;
	}
	if (set->n > 1) /* slot order: warnings, peers and devices read top-down */
		qsort(set->v, (size_t)set->n, sizeof *set->v, cmp_node);
	for (int i = 0; i < set->n; i++)
		set->v[i].parent = find_parent(set, i);
	for (int i = 0; i < set->n; i++)
		device_segment(set, i);
	int matched = 0;
	for (int i = 0; i < set->n; i++) {
		struct probe_node *n = &set->v[i];
		bool w = wanted(n, opts, fp);
		if (w)
			segment_warnings(set, i, out);
		path_and_bottleneck(set, i, out, w);
		peers(set, i);
		if (!w)
			continue;
		if (!pcibw_report_add(out, &n->d))
			return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		matched++;
	}
	if (!matched) {
		if (opts->slot_filter)
			return pcibw_fail(err, PCIBW_ENOMATCH, "no device matches -s %s in %s",
					  opts->slot_filter, out->source);
		if (opts->iface)
			return pcibw_fail(err, PCIBW_ENOMATCH, "no device has interface %s in %s",
					  opts->iface, out->source);
		return pcibw_fail(err, PCIBW_ENOMATCH, "no network controller (class 0x02xx or "
				  "0x0c06) in %s; --all lists every device", out->source);
	}
	pcibw_report_sort(out);
	return PCIBW_OK;
}

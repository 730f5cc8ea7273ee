/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tree above each device: parent bridges, the path to the root port and the hop that limits
 * it; then the selection (class, -s, -i) and the report. Segments: segment.c.
 *
 * Bottleneck: like the kernel's pcie_bandwidth_available() (drivers/pci/pci.c), every hop from
 * the device up to the root counts with its own width x per-lane rate after encoding, and the
 * minimum wins, a tie going to the hop nearer the root (`next_bw <= bw`). PCI/PCI-X segments
 * join the walk with their whole (shared, half-duplex) bandwidth.
 */
#include "probe_int.h"
#include "segment.h"
#include <math.h>
#include <pci/pci.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bridge leads to bus sec_bus only when that bus is above its own: bus numbers grow away
 * from the root, so every parent sits on a lower bus and the walk up cannot loop. Secondary
 * bus 0 is an unconfigured bridge (the reset value). */
static bool leads_to(const struct probe_node *b, int domain, int bus)
{
	return b->sec_bus != PCIBW_NULL && b->d.domain == domain && b->sec_bus == bus &&
	       b->sec_bus > b->d.bus;
}

static int find_parent(const struct probe_set *s, int i)
{
	const struct probe_node *n = &s->v[i];
	for (int j = 0; j < s->n; j++)
		if (j != i && leads_to(&s->v[j], n->d.domain, n->d.bus))
			return j;
	return -1;
}

/* Bus numbers read from a bridge's config space that the kernel would call "bridge
 * configuration invalid" (drivers/pci/probe.c pci_scan_bridge_extend(): secondary <= its own
 * bus, or secondary > subordinate), or a secondary bus two bridges claim: bad input, named at
 * the Secondary Bus Number byte (0x19, PCI-to-PCI Bridge 1.2 sec. 3.2.5; CardBus bus number
 * for a CardBus bridge). Bridges without config space (hwloc XML) are not checked. */
static int check_bus_numbers(const struct probe_set *s, struct pcibw_err *err)
{
	char msg[300];
	for (int i = 0; i < s->n; i++) {
		const struct probe_node *b = &s->v[i];
		if (b->sec_bus == PCIBW_NULL || b->sec_bus == 0 || b->cfg.len < 64)
			continue;
		if (b->sec_bus <= b->d.bus || b->sec_bus > b->sub_bus) {
			snprintf(msg, sizeof msg,
				 "bridge bus numbers secondary %02x, subordinate %02x "
				 "on bus %02x: expected own bus < secondary <= subordinate",
				 (unsigned)b->sec_bus, (unsigned)b->sub_bus, (unsigned)b->d.bus);
			return probe_bad_config(b, s->loc, PCI_SECONDARY_BUS, err, msg);
		}
		for (int j = 0; j < i; j++) {
			const struct probe_node *o = &s->v[j];
			if (o->sec_bus == b->sec_bus && o->d.domain == b->d.domain && o->cfg.len >= 64) {
				snprintf(msg, sizeof msg,
					 "secondary bus %02x is also the secondary bus of "
					 "bridge %s: expected each bus below one bridge",
					 (unsigned)b->sec_bus, o->d.slot);
				return probe_bad_config(b, s->loc, PCI_SECONDARY_BUS, err, msg);
			}
		}
	}
	return 0;
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
	h->gbps = probe_hop_gbps(PCIBW_BUS_PCIE, d->link_speed_gts, d->link_width, d->flit_mode, 0, 0,
				 PCIBW_PCIX_MODE_NULL);
}

/* A bridge on the path counts with the bus it drives: a PCIe port with its own link (a root
 * or downstream port's LnkSta is the link below it, an upstream port's the link above, as
 * in the kernel's walk), a PCI or PCI-X bridge with its secondary segment. A PCI Express to
 * PCI/PCI-X bridge (port type 7) drives a PCI/PCI-X segment: that segment is its hop (its own
 * PCIe link is the one the port above it counts), else a segment between it and a second
 * bridge below would never be counted. */
static void bridge_hop(const struct probe_set *s, int j, struct hop *h)
{
	const struct probe_node *b = &s->v[j];
	if (b->d.bus_kind == PCIBW_BUS_PCIE && b->d.pcie_port_type != PCI_EXP_TYPE_PCI_BRIDGE) {
		link_hop(&b->d, h);
		return;
	}
	struct seg g;
	probe_segment(s, b->d.domain, b->sec_bus, j, &g);
	seg_hop(&g, h);
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
		probe_segment(s, d->domain, d->bus, n->parent, &g);
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
				pcibw_report_warn(rep, d->slot, "path-truncated",
						  "path longer than %d bridges: truncated", PCIBW_MAX_PATH);
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
			pcibw_report_warn(rep, d->slot, "paravirtual",
					  "paravirtual device (%04x:%04x): no bus ceiling of its "
					  "own; its throughput is set by the host's CPU and backend",
					  (unsigned)d->vendor_id, (unsigned)d->device_id);
		return;
	}
	if (isnan(best))
		return;
	snprintf(d->bottleneck_slot, sizeof d->bottleneck_slot, "%s", best_slot);
	d->bottleneck_gbps = best;
	d->bottleneck_shared = best_shared;
	pcibw_device_set_prov(d, "bottleneck_gbps", assumed ? "inferred" : "config");
	if (unknown && warn)
		pcibw_report_warn(rep, d->slot, "bottleneck-partial",
				  "the bottleneck leaves out %d hop%s of unknown bandwidth "
				  "(first: %s)",
				  unknown, unknown == 1 ? "" : "s", unknown_slot);
}

static void peers(struct probe_set *s, int i)
{
	struct pcibw_device *d = &s->v[i].d;
	d->n_peers = 0;
	if (d->bus_kind != PCIBW_BUS_PCI && d->bus_kind != PCIBW_BUS_PCIX)
		return;
	for (int j = 0; j < s->n && d->n_peers < PCIBW_MAX_PEERS; j++)
		if (j != i && seg_on_bus(&s->v[j], d->domain, d->bus))
			snprintf(d->peers[d->n_peers++], 32, "%s", s->v[j].d.slot);
}

static bool wanted(const struct probe_node *n, const struct pcibw_probe_opts *o, const struct pci_filter *f)
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
	const int kx[4] = {x->domain, x->bus, x->dev, x->fn}, ky[4] = {y->domain, y->bus, y->dev, y->fn};
	for (int i = 0; i < 4; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

int probe_finish(struct probe_set *set, const struct pcibw_probe_opts *opts, struct pcibw_report *out,
		 struct pcibw_err *err)
{
	struct pci_filter f, *fp = NULL;
	if (opts->slot_filter) {
		char buf[128];
		snprintf(buf, sizeof buf, "%s", opts->slot_filter);
		pci_filter_init(NULL, &f);
		char *e = pci_filter_parse_slot(&f, buf);
		if (e)
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "-s '%s': %s: expected "
					  "[[DOMAIN:]BUS:]DEV.FN",
					  opts->slot_filter, e);
		fp = &f;
	}
	if (set->n > 1) /* slot order: warnings, peers and devices read top-down */
		qsort(set->v, (size_t)set->n, sizeof *set->v, cmp_node);
	int r = check_bus_numbers(set, err);
	if (r)
		return r;
	for (int i = 0; i < set->n; i++)
		set->v[i].parent = find_parent(set, i);
	for (int i = 0; i < set->n; i++)
		probe_device_segment(set, i);
	int matched = 0;
	for (int i = 0; i < set->n; i++) {
		struct probe_node *n = &set->v[i];
		bool w = wanted(n, opts, fp);
		if (w)
			probe_segment_warnings(set, i, out);
		path_and_bottleneck(set, i, out, w);
		peers(set, i);
		probe_linkpm(set, i, out, w);
		if (w)
			probe_port_fit(set, i, out);
		if (!w)
			continue;
		if (!pcibw_report_add(out, &n->d))
			return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		matched++;
	}
	if (!matched) {
		/* the source as a place: "on this machine", "in dump:FILE" */
		const char *in = strcmp(out->source, "live") ? "in " : "on ";
		const char *where = strcmp(out->source, "live") ? out->source : "this machine";
		if (opts->slot_filter)
			return pcibw_fail(err, PCIBW_ENOMATCH, "no device matches -s %s %s%s",
					  opts->slot_filter, in, where);
		if (opts->iface)
			return pcibw_fail(err, PCIBW_ENOMATCH, "no device has interface %s %s%s", opts->iface,
					  in, where);
		return pcibw_fail(err, PCIBW_ENOMATCH,
				  "no network controller (class 0x02xx or "
				  "0x0c06) %s%s; --all lists every device",
				  in, where);
	}
	pcibw_report_sort(out);
	return PCIBW_OK;
}

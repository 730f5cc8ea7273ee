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
#include <stddef.h>
#include <stdint.h>
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

/* Bridges by the bus they lead to, so that finding a device's parent or a bridge claiming a
 * bus already claimed costs one look-up, not a pass over every device. */
struct bus_map {
	uint64_t *keys; /* (domain, bus) + 1; 0 empty */
	int *at;	/* the first bridge (lowest index) entered for that key */
	int cap;	/* a power of two, > 2 entries */
};

static uint64_t bus_key(int domain, int bus)
{
	return ((uint64_t)(unsigned)domain << 32 | (unsigned)bus) + 1;
}

static size_t bus_hash(const struct bus_map *m, uint64_t k)
{
	k *= 0x9e3779b97f4a7c15ull;
	return (size_t)(k >> 32) & (size_t)(m->cap - 1);
}

static int bus_map_init(struct bus_map *m, int n)
{
	m->cap = 64;
	while (m->cap < 2 * n + 2)
		m->cap *= 2;
	m->keys = calloc((size_t)m->cap, sizeof *m->keys);
	m->at = malloc((size_t)m->cap * sizeof *m->at);
	return m->keys && m->at ? 0 : -1;
}

static void bus_map_free(struct bus_map *m)
{
	free(m->keys);
	free(m->at);
}

/* The bridge entered first for (domain, bus), or -1. */
static int bus_map_get(const struct bus_map *m, int domain, int bus)
{
	uint64_t k = bus_key(domain, bus);
	for (size_t h = bus_hash(m, k); m->keys[h]; h = (h + 1) & (size_t)(m->cap - 1))
		if (m->keys[h] == k)
			return m->at[h];
	return -1;
}

/* Enter bridge i for (domain, bus) unless one is there already. */
static void bus_map_put(struct bus_map *m, int domain, int bus, int i)
{
	uint64_t k = bus_key(domain, bus);
	size_t h = bus_hash(m, k);
	for (; m->keys[h]; h = (h + 1) & (size_t)(m->cap - 1))
		if (m->keys[h] == k)
			return;
	m->keys[h] = k;
	m->at[h] = i;
}

/* Each device's parent: the first bridge in the set that leads to its bus. */
static int find_parents(struct probe_set *s)
{
	struct bus_map m;
	if (bus_map_init(&m, s->n)) {
		bus_map_free(&m);
		return -1;
	}
	for (int j = 0; j < s->n; j++) {
		const struct probe_node *b = &s->v[j];
		if (b->sec_bus != PCIBW_NULL && b->sec_bus > b->d.bus)
			bus_map_put(&m, b->d.domain, b->sec_bus, j);
	}
	for (int i = 0; i < s->n; i++) {
		const struct probe_node *n = &s->v[i];
		int j = bus_map_get(&m, n->d.domain, n->d.bus);
		s->v[i].parent = j >= 0 && j != i && leads_to(&s->v[j], n->d.domain, n->d.bus) ? j : -1;
	}
	bus_map_free(&m);
	return 0;
}

/* Bus numbers read from a bridge's config space that the kernel would call "bridge
 * configuration invalid" (drivers/pci/probe.c pci_scan_bridge_extend(): secondary <= its own
 * bus, or secondary > subordinate), or a secondary bus two bridges claim: bad input, named at
 * the Secondary Bus Number byte (0x19, PCI-to-PCI Bridge 1.2 sec. 3.2.5; CardBus bus number
 * for a CardBus bridge). Bridges without config space (hwloc XML) are not checked. */
static int check_bus_numbers(const struct probe_set *s, struct pcibw_err *err)
{
	char msg[300];
	struct bus_map m;
	if (bus_map_init(&m, s->n)) {
		bus_map_free(&m);
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	}
	int rc = 0;
	for (int i = 0; i < s->n && !rc; i++) {
		const struct probe_node *b = &s->v[i];
		if (b->sec_bus == PCIBW_NULL || b->sec_bus == 0 || b->cfg.len < 64)
			continue;
		if (b->sec_bus <= b->d.bus || b->sec_bus > b->sub_bus) {
			snprintf(msg, sizeof msg,
				 "bridge bus numbers secondary %02x, subordinate %02x "
				 "on bus %02x: expected own bus < secondary <= subordinate",
				 (unsigned)b->sec_bus, (unsigned)b->sub_bus, (unsigned)b->d.bus);
			rc = probe_bad_config(b, s->loc, PCI_SECONDARY_BUS, err, msg);
			break;
		}
		/* every bridge entered has passed the checks above: the first earlier one with this
		 * secondary bus is the one to name */
		int j = bus_map_get(&m, b->d.domain, b->sec_bus);
		if (j >= 0) {
			snprintf(msg, sizeof msg,
				 "secondary bus %02x is also the secondary bus of "
				 "bridge %s: expected each bus below one bridge",
				 (unsigned)b->sec_bus, s->v[j].d.slot);
			rc = probe_bad_config(b, s->loc, PCI_SECONDARY_BUS, err, msg);
			break;
		}
		bus_map_put(&m, b->d.domain, b->sec_bus, i);
	}
	bus_map_free(&m);
	return rc;
}

struct hop {
	enum pcibw_bus_kind kind;
	double gts;
	int width;
	double gbps;
	int mhz, width_bits;
	bool shared, width_assumed;
};

static void seg_hop(const struct seg *g, struct hop *h)
{
	memset(h, 0, sizeof *h);
	h->kind = g->kind;
	h->gts = NAN;
	h->width = PCIBW_NULL;
	h->shared = true;
	h->mhz = g->mhz;
	h->width_bits = g->width_bits;
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
	h->mhz = h->width_bits = PCIBW_NULL;
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
		own.mhz = own.width_bits = PCIBW_NULL;
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
		p->bus_mhz = h.mhz;
		p->bus_width_bits = h.width_bits;
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

/* The set is in slot order (probe_finish): the devices of one bus sit next to each other. */
static void peers(struct probe_set *s, int i)
{
	struct pcibw_device *d = &s->v[i].d;
	d->n_peers = 0;
	if (d->bus_kind != PCIBW_BUS_PCI && d->bus_kind != PCIBW_BUS_PCIX)
		return;
	int first = i;
	while (first > 0 && seg_on_bus(&s->v[first - 1], d->domain, d->bus))
		first--;
	for (int j = first;
	     j < s->n && d->n_peers < PCIBW_MAX_PEERS && seg_on_bus(&s->v[j], d->domain, d->bus); j++)
		if (j != i)
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

/* The wanted devices into out. Each node's device is computed by now and no longer needed by
 * the others, so for an empty report the devices are moved down within the set's own array
 * (a node starts with its device and is larger) and that array becomes out's: a large dump
 * then never holds its devices twice. */
_Static_assert(offsetof(struct probe_node, d) == 0, "a node starts with its device");
_Static_assert(sizeof(struct probe_node) >= sizeof(struct pcibw_device), "a node holds its device");

static int hand_over(struct probe_set *set, const bool *want, int matched, struct pcibw_report *out)
{
	if (out->n_devices || out->devices) {
		for (int i = 0; i < set->n; i++)
			if (want[i] && !pcibw_report_add(out, &set->v[i].d))
				return -1;
		return 0;
	}
	for (int i = 0; i < set->n; i++) {
		free(set->v[i].cfg.b);
		set->v[i].cfg.b = NULL;
	}
	probe_fit_cache_free(set->fit);
	set->fit = NULL;
	unsigned char *base = (unsigned char *)set->v;
	int k = 0;
	for (int i = 0; i < set->n; i++)
		if (want[i])
			memmove(base + (size_t)k++ * sizeof(struct pcibw_device), &set->v[i].d,
				sizeof(struct pcibw_device));
	struct pcibw_device *v = realloc(base, (size_t)matched * sizeof *v);
	out->devices = v ? v : (struct pcibw_device *)base;
	out->n_devices = out->cap_devices = matched;
	set->v = NULL;
	set->n = set->cap = 0;
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
	if (find_parents(set))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	for (int i = 0; i < set->n; i++) {
		probe_device_segment(set, i);
		/* a configured bridge's bus below it (bus 0 is the reset value: unconfigured) */
		if (set->v[i].sec_bus != PCIBW_NULL && set->v[i].sec_bus > set->v[i].d.bus)
			set->v[i].d.secondary_bus = set->v[i].sec_bus;
	}
	probe_link_causes(set);
	bool *want = malloc((size_t)(set->n ? set->n : 1) * sizeof *want);
	if (!want)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	int matched = 0;
	for (int i = 0; i < set->n; i++) {
		struct probe_node *n = &set->v[i];
		bool w = want[i] = wanted(n, opts, fp);
		if (w)
			probe_segment_warnings(set, i, out);
		path_and_bottleneck(set, i, out, w);
		peers(set, i);
		probe_linkpm(set, i, out, w);
		if (w)
			probe_port_fit(set, i, out);
		matched += w;
	}
	if (matched)
		r = hand_over(set, want, matched, out);
	free(want);
	if (r)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	if (!matched) {
		/* the source as a place: "on this machine", "in dump:FILE" */
		const char *in = strcmp(out->source, "live") ? "in " : "on ";
		const char *where = strcmp(out->source, "live") ? out->source : "this machine";
		/* with -s and -i both, say which of the two found nothing */
		bool slot_found = false;
		if (opts->slot_filter && opts->iface) {
			struct pcibw_probe_opts slot_only = *opts;
			slot_only.iface = NULL;
			for (int i = 0; i < set->n && !slot_found; i++)
				slot_found = wanted(&set->v[i], &slot_only, fp);
		}
		if (slot_found)
			return pcibw_fail(err, PCIBW_ENOMATCH,
					  "-s %s matches, but no device there has interface %s %s%s",
					  opts->slot_filter, opts->iface, in, where);
		if (opts->slot_filter)
			return pcibw_fail(err, PCIBW_ENOMATCH, "no device matches -s %s %s%s",
					  opts->slot_filter, in, where);
		if (opts->iface) {
			/* the names the source does hold: a slip shows, and a dump's lack of any */
			char known[400];
			size_t o = 0;
			int shown = 0, total = 0;
			for (int i = 0; i < set->n; i++)
				for (int k = 0; k < set->v[i].d.n_interfaces; k++, total++)
					if (shown < 8 && o < sizeof known)
						o += (size_t)snprintf(known + o, sizeof known - o, "%s%s",
								      shown++ ? ", " : "",
								      set->v[i].d.interfaces[k]);
			if (total > shown && o < sizeof known)
				snprintf(known + o, sizeof known - o, " and %d more", total - shown);
			if (total)
				return pcibw_fail(
				    err, PCIBW_ENOMATCH,
				    "no device has interface %s %s%s (the interfaces of its PCI "
				    "devices: %s)",
				    opts->iface, in, where, known);
			return pcibw_fail(err, PCIBW_ENOMATCH,
					  "no device has interface %s %s%s (%s: select the device with -s "
					  "SLOT)",
					  opts->iface, in, where,
					  !strncmp(out->source, "dump:", 5)
					      ? "an lspci dump holds config space only, no interface names"
					      : "no PCI device there names an interface");
		}
		return pcibw_fail(err, PCIBW_ENOMATCH,
				  "no network controller (class 0x02xx or "
				  "0x0c06) %s%s; --all lists every device",
				  in, where);
	}
	pcibw_report_sort(out);
	return PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The slot ports of a report (pcibw/slots.h): which ports a card can sit below, their names,
 * what is in them, the hops above them that other slots share, and, for a card, the port fit on
 * each slot's path and the ranking. Built from the report's devices and paths alone, so every
 * source report reads (live, dump, sysfs copy, hwloc export) gives its slots the same way.
 */
#include "pcibw/slots.h"
#include "pcibw/model.h"
#include "probe_int.h"
#include "src/util/grow.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool has_bridge_child(const struct pcibw_report *r, const char *port)
{
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		if (d->is_bridge && d->n_path > 0 && !strcmp(d->path[0].slot, port))
			return true;
	}
	return false;
}

static bool slot_port(const struct pcibw_report *r, const struct pcibw_device *d)
{
	/* an hwloc export holds no config space: a bridge's bus is unknown (PCIe or PCI), and it
	 * stands as a candidate by the tree alone, its kind said unknown */
	bool unknown_kind = !strncmp(r->source, "hwloc-xml:", 10) && d->bus_kind == PCIBW_BUS_UNKNOWN &&
			    d->class_id == 0x0604 && d->pcie_port_type == PCIBW_NULL;
	if ((d->bus_kind != PCIBW_BUS_PCIE && !unknown_kind) || !d->is_bridge)
		return false;
	int t = d->pcie_port_type;
	if (t == PCI_EXP_TYPE_ROOT_PORT || t == PCI_EXP_TYPE_DOWNSTREAM)
		return d->lreg.slot_implemented != 0;
	if (t != PCIBW_NULL)
		return false;
	/* no PCI Express Capabilities in the source: a root port sits on a root bus, and a switch's
	 * upstream port always has its downstream ports below it */
	return d->n_path == 0 || !has_bridge_child(r, d->slot);
}

static int find_slot(const struct pcibw_slots *s, const char *port)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].port, port))
			return i;
	return -1;
}

static const struct pcibw_device *find_device(const struct pcibw_report *r, int domain, int bus, int dev,
					      int fn)
{
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		if (d->domain == domain && d->bus == bus && d->dev == dev && (fn < 0 || d->fn == fn))
			return d;
	}
	return NULL;
}

/* The slot of a port whose secondary bus is (domain, bus), -1 none. */
static int slot_below(const struct pcibw_slots *s, const struct pcibw_report *r, int domain, int bus)
{
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		if (d->domain == domain && d->secondary_bus == bus) {
			int k = find_slot(s, d->slot);
			if (k >= 0)
				return k;
		}
	}
	return -1;
}

/* The slot an SMBIOS record names: the port itself, the port above the device at its address,
 * or the port whose secondary bus it names. */
static int smbios_slot(const struct pcibw_slots *s, const struct pcibw_report *r,
		       const struct pcibw_smbios_slot *e)
{
	if (e->domain == PCIBW_NULL)
		return -1;
	const struct pcibw_device *d = find_device(r, e->domain, e->bus, e->dev, e->fn);
	if (d) {
		int k = find_slot(s, d->slot);
		if (k >= 0)
			return k;
		if (d->n_path > 0 && (k = find_slot(s, d->path[0].slot)) >= 0)
			return k;
	}
	return slot_below(s, r, e->domain, e->bus);
}

static double pcie_gbps(double gts, int width)
{
	return probe_hop_gbps(PCIBW_BUS_PCIE, gts, width, PCIBW_NULL, 0, 0, PCIBW_PCIX_MODE_NULL);
}

static void fill_slot(struct pcibw_slot *sl, const struct pcibw_device *d)
{
	memset(sl, 0, sizeof *sl);
	snprintf(sl->port, sizeof sl->port, "%s", d->slot);
	sl->port_type = d->pcie_port_type;
	sl->kind_known = d->bus_kind == PCIBW_BUS_PCIE;
	sl->slot_implemented = d->lreg.slot_implemented;
	sl->physical_slot = d->lreg.physical_slot;
	sl->numa_node = d->numa_node;
	sl->cap_gts = d->max_link_speed_gts;
	sl->cap_width = d->max_link_width;
	sl->cap_from = pcibw_device_prov(d, "max_link_speed_gts");
	sl->link_gts = d->link_speed_gts;
	sl->link_width = d->link_width;
	sl->empty = d->empty == 1;
	sl->link_cause = d->link_cause.code;
	sl->parent_slot = -1;
	sl->n_path = d->n_path;
	memcpy(sl->path, d->path, sizeof sl->path);
	sl->rank = 0;
	sl->fit.min_line_rate_bytes = PCIBW_NULL;
	/* what a card there gets: the slot's capability, then any slower hop above it */
	sl->path_gbps = pcie_gbps(sl->cap_gts, sl->cap_width);
	snprintf(sl->path_bottleneck, sizeof sl->path_bottleneck, "%s", d->slot);
	for (int k = 0; k < d->n_path; k++) {
		double g = d->path[k].gbps;
		if (isnan(g))
			continue;
		/* a tie goes to the hop nearer the root, as the report's bottleneck */
		if (isnan(sl->path_gbps) || g <= sl->path_gbps * (1 + 1e-12)) {
			sl->path_gbps = g;
			snprintf(sl->path_bottleneck, sizeof sl->path_bottleneck, "%s", d->path[k].slot);
		}
	}
	if (isnan(sl->path_gbps))
		sl->path_bottleneck[0] = '\0';
}

static void occupants(struct pcibw_slot *sl, const struct pcibw_report *r)
{
	for (int i = 0; i < r->n_devices && sl->n_occupants < PCIBW_SLOT_MAX_OCCUPANTS; i++) {
		const struct pcibw_device *d = &r->devices[i];
		if (d->n_path == 0 || strcmp(d->path[0].slot, sl->port))
			continue;
		struct pcibw_slot_occupant *o = &sl->occupants[sl->n_occupants++];
		snprintf(o->slot, sizeof o->slot, "%s", d->slot);
		o->class_id = d->class_id;
		snprintf(o->name, sizeof o->name, "%s", d->name);
	}
}

/* Hops above slot i that other slots' paths pass through as well. */
static void shares(struct pcibw_slots *s, int i)
{
	struct pcibw_slot *sl = &s->v[i];
	for (int k = 0; k < sl->n_path && sl->n_shared < PCIBW_SLOT_MAX_SHARED; k++) {
		struct pcibw_slot_share sh;
		memset(&sh, 0, sizeof sh);
		for (int j = 0; j < s->n; j++) {
			if (j == i || sh.n_others == PCIBW_MAX_PEERS)
				continue;
			const struct pcibw_slot *o = &s->v[j];
			for (int m = 0; m < o->n_path; m++)
				if (!strcmp(o->path[m].slot, sl->path[k].slot)) {
					sh.others[sh.n_others++] = j;
					break;
				}
		}
		if (!sh.n_others)
			continue;
		snprintf(sh.hop, sizeof sh.hop, "%s", sl->path[k].slot);
		sh.link = sl->path[k];
		sl->shared[sl->n_shared++] = sh;
	}
}

int pcibw_slots_build(const struct pcibw_report *r, const struct pcibw_smbios *smbios,
		      const struct pcibw_os_slots *os, struct pcibw_slots *out, struct pcibw_err *err)
{
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		if (!slot_port(r, d))
			continue;
		if (pcibw_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v))
			return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		fill_slot(&out->v[out->n++], d);
	}
	for (int i = 0; i < out->n; i++) {
		struct pcibw_slot *sl = &out->v[i];
		for (int k = 0; k < sl->n_path && sl->parent_slot < 0; k++)
			sl->parent_slot = find_slot(out, sl->path[k].slot);
		occupants(sl, r);
		shares(out, i);
	}
	/* names, in the contract's order of precedence: the port's own Physical Slot Number, the
	 * OS's slot name, the firmware's SMBIOS designation; each kept for JSON */
	for (int k = 0; os && k < os->n; k++) {
		int i = slot_below(out, r, os->v[k].domain, os->v[k].bus);
		if (i >= 0 && !out->v[i].os_name[0])
			snprintf(out->v[i].os_name, sizeof out->v[i].os_name, "%s", os->v[k].name);
	}
	for (int k = 0; smbios && k < smbios->n; k++) {
		int i = smbios_slot(out, r, &smbios->v[k]);
		if (i < 0) {
			out->smbios_unmatched++;
			continue;
		}
		if (!out->v[i].smbios_name[0])
			snprintf(out->v[i].smbios_name, sizeof out->v[i].smbios_name, "%s",
				 smbios->v[k].designation);
	}
	for (int i = 0; i < out->n; i++) {
		struct pcibw_slot *sl = &out->v[i];
		if (sl->physical_slot != PCIBW_NULL) {
			snprintf(sl->name, sizeof sl->name, "%d", sl->physical_slot);
			sl->name_from = "sltcap";
		} else if (sl->os_name[0]) {
			snprintf(sl->name, sizeof sl->name, "%s", sl->os_name);
			sl->name_from = "sysfs";
		} else if (sl->smbios_name[0]) {
			snprintf(sl->name, sizeof sl->name, "%s", sl->smbios_name);
			sl->name_from = "smbios";
		}
	}
	return PCIBW_OK;
}

/* The bus a card of (card_gts, card_width) gets in slot sl, NULL-free: PCIe at the lesser of both
 * capabilities, narrowed to a slower hop above. false when the slot's capability is unknown. */
static bool card_bus(const struct pcibw_slot *sl, double card_gts, int card_width, struct pcibw_bus *b)
{
	if (isnan(sl->cap_gts) || sl->cap_width <= 0)
		return false;
	double gts = sl->cap_gts;
	int w = sl->cap_width;
	if (!isnan(card_gts) && card_gts < gts)
		gts = card_gts;
	if (card_width > 0 && card_width < w)
		w = card_width;
	for (int k = 0; k < sl->n_path; k++) {
		const struct pcibw_hop *h = &sl->path[k];
		if (h->bus_kind != PCIBW_BUS_PCIE || isnan(h->link_speed_gts) || h->link_width <= 0 ||
		    isnan(h->gbps))
			continue;
		if (h->gbps < pcie_gbps(gts, w)) {
			gts = h->link_speed_gts;
			w = h->link_width;
		}
	}
	pcibw_bus_defaults(b);
	b->kind = PCIBW_BUS_PCIE;
	b->gts = gts;
	b->lanes = w;
	b->gen = pcibw_pcie_gen_of_gts(gts);
	b->flit = pcibw_pcie_flit_required(gts);
	/* the card's Device Control is not known before it sits there */
	b->mps_default = b->mrrs_default = b->rcb_default = true;
	return b->gen > 0;
}

static const struct pcibw_slots *rank_of;

static double capped(double x)
{
	return isnan(x) ? -1 : x > 1 ? 1 : x;
}

/* A slot holding a switch (a PCI-to-PCI bridge, class 0x0604) whose ports are the slots: no
 * place for a card of its own. */
static bool holds_switch(const struct pcibw_slot *sl)
{
	return sl->n_occupants && sl->occupants[0].class_id == 0x0604;
}

static int cmp_rank(const void *pa, const void *pb)
{
	const struct pcibw_slot *a = &rank_of->v[*(const int *)pa], *b = &rank_of->v[*(const int *)pb];
	if (holds_switch(a) != holds_switch(b))
		return holds_switch(a) ? 1 : -1;
	if (a->fit.known != b->fit.known)
		return a->fit.known ? -1 : 1;
	if (a->fit.known) {
		double x = capped(a->fit.ratio_1518), y = capped(b->fit.ratio_1518);
		if (x != y)
			return x > y ? -1 : 1;
		x = capped(a->fit.ratio_64), y = capped(b->fit.ratio_64);
		if (x != y)
			return x > y ? -1 : 1;
	}
	if ((a->n_occupants == 0) != (b->n_occupants == 0))
		return a->n_occupants == 0 ? -1 : 1;
	if (a->n_shared != b->n_shared)
		return a->n_shared < b->n_shared ? -1 : 1;
	if (a->fit.known && a->fit.ratio_64 != b->fit.ratio_64)
		return a->fit.ratio_64 > b->fit.ratio_64 ? -1 : 1;
	return strcmp(a->port, b->port);
}

int pcibw_slots_fit(struct pcibw_slots *s, const struct pcibw_nic *nic, const char *nic_name, int ports,
		    double line_rate_gbps, double card_gts, int card_width, const char *card_from,
		    struct pcibw_err *err)
{
	if (ports < 1 || !(line_rate_gbps > 0))
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "a card needs at least one port and a line rate above 0");
	s->card = true;
	snprintf(s->nic, sizeof s->nic, "%s", nic_name);
	s->ports = ports;
	s->line_rate_gbps = line_rate_gbps;
	s->card_gts = card_gts;
	s->card_width = card_width;
	snprintf(s->card_from, sizeof s->card_from, "%s", card_from ? card_from : "");
	for (int i = 0; i < s->n; i++) {
		struct pcibw_slot *sl = &s->v[i];
		struct pcibw_bus b;
		memset(&sl->fit, 0, sizeof sl->fit);
		sl->fit.min_line_rate_bytes = PCIBW_NULL;
		if (!card_bus(sl, card_gts, card_width, &b)) {
			snprintf(sl->fit.why, sizeof sl->fit.why,
				 "the source does not show the port's Link Capabilities (speed and width)");
			continue;
		}
		struct pcibw_err e;
		if (pcibw_port_fit_eval(&b, nic, ports, line_rate_gbps, 1, &sl->fit, &e)) {
			sl->fit.known = false;
			snprintf(sl->fit.why, sizeof sl->fit.why, "%.200s", e.msg);
			continue;
		}
		snprintf(sl->fit.nic, sizeof sl->fit.nic, "%s", nic_name);
		sl->fit.port_gbps_min = sl->fit.port_gbps_max = line_rate_gbps / ports;
	}
	free(s->order);
	s->order = malloc((size_t)(s->n ? s->n : 1) * sizeof *s->order);
	if (!s->order)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	for (int i = 0; i < s->n; i++)
		s->order[i] = i;
	rank_of = s;
	qsort(s->order, (size_t)s->n, sizeof *s->order, cmp_rank);
	rank_of = NULL;
	for (int k = 0; k < s->n; k++)
		s->v[s->order[k]].rank = holds_switch(&s->v[s->order[k]]) ? 0 : k + 1;
	return PCIBW_OK;
}

void pcibw_slots_free(struct pcibw_slots *s)
{
	free(s->v);
	free(s->order);
	memset(s, 0, sizeof *s);
}

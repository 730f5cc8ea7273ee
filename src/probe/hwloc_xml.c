/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `--topology FILE`: the PCI devices of an hwloc XML export from another machine. Nothing of
 * this machine is read (no libpci scan, no sysfs): the tree comes from the XML's bridges, the
 * names from pci.ids (else the XML's PCIVendor/PCIDevice infos), NUMA and OS names from hwloc,
 * and per-hop bandwidth from hwloc's stored pci_link_speed (GB/s per direction; 0 = unknown).
 */
#include "hwloc_int.h"
#include "probe_int.h"
#include "src/util/grow.h"
#include "src/util/input.h"
#include <math.h>
#include <pci/pci.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the export says about one PCI object, kept to rebuild paths after probe_finish(): the
 * export's own tree is the truth here (it may even hold two functions with one bus id, as
 * hand-edited test exports do), not a tree rebuilt from bus numbers. */
struct xml_rec {
	char slot[32];
	int vendor_id, device_id, class_id;
	double gbps;		       /* hwloc linkspeed x 8, NAN unknown (stored 0) */
	char path[PCIBW_MAX_PATH][32]; /* PCI bridges above it, nearest first */
	int n_path;
};

static double speed_of(const struct xml_rec *v, int n, const char *slot)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].slot, slot))
			return v[i].gbps;
	return NAN;
}

static const struct xml_rec *rec_of(const struct xml_rec *v, int n, const struct pcibw_device *d)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].slot, d->slot) && v[i].vendor_id == d->vendor_id &&
		    v[i].device_id == d->device_id && v[i].class_id == d->class_id)
			return &v[i];
	return NULL;
}

/* libpci's hooks: a warning (e.g. an unknown id) is dropped; an error (pci.ids unreadable or
 * malformed) must not return (libpci declares it noreturn), so it jumps back to the lookup,
 * which then gives no name. */
static jmp_buf lookup_jmp;

static void quiet(char *msg, ...)
{
	(void)msg;
}

static void __attribute__((noreturn)) lookup_failed(char *msg, ...)
{
	(void)msg;
	longjmp(lookup_jmp, 1);
}

static const char *lookup(struct pci_access *pa, char *buf, int len, int vendor, int device)
{
	if (setjmp(lookup_jmp))
		return NULL;
	return pci_lookup_name(
	    pa, buf, len, PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB,
	    vendor, device);
}

/* pci.ids name ("Vendor Device") without scanning any bus: libpci looks names up from its ids
 * file alone. Falls back to the export's own PCIVendor/PCIDevice infos. */
static void set_name(struct pci_access *pa, hwloc_obj_t o, struct pcibw_device *d)
{
	char buf[256];
	const char *n = NULL;
	if (pa)
		n = lookup(pa, buf, sizeof buf, d->vendor_id, d->device_id);
	if (n) {
		snprintf(d->name, sizeof d->name, "%s", n);
		return;
	}
	const char *v = hwloc_obj_get_info_by_name(o, "PCIVendor");
	const char *p = hwloc_obj_get_info_by_name(o, "PCIDevice");
	if (v || p) {
		snprintf(d->name, sizeof d->name, "%s%s%s", v ? v : "", v && p ? " " : "", p ? p : "");
		pcibw_device_set_prov(d, "name", "hwloc");
	}
}

static int add_obj(struct probe_set *set, hwloc_topology_t t, hwloc_obj_t o, struct pci_access *pa,
		   struct xml_rec **recs, int *n_recs, int *cap_recs, struct pcibw_err *err)
{
	const struct hwloc_pcidev_attr_s *p =
	    o->type == HWLOC_OBJ_BRIDGE ? &o->attr->bridge.upstream.pci : &o->attr->pcidev;
	struct probe_node *n = probe_set_add(set);
	if (!n || pcibw_grow(recs, cap_recs, *n_recs + 1, sizeof **recs))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	struct pcibw_device *d = &n->d;
	d->domain = (int)p->domain;
	d->bus = p->bus;
	d->dev = p->dev;
	d->fn = p->func;
	pcibw_format_slot(d->slot, d->domain, d->bus, d->dev, d->fn);
	d->vendor_id = p->vendor_id;
	d->device_id = p->device_id;
	d->class_id = p->class_id;
	d->revision = p->revision;
	d->is_virtual = probe_is_paravirt(d->vendor_id, d->device_id);
	set_name(pa, o, d);

	n->cfg.len = 0; /* an export holds no config space */
	n->header_type = PCIBW_NULL;
	n->sec_bus = n->sub_bus = PCIBW_NULL;
	n->status_66mhz = n->sec_status_66mhz = n->has_caps = PCIBW_NULL;
	n->pcix_sec_status = PCIBW_NULL;
	n->parent = -1;
	if (o->type == HWLOC_OBJ_BRIDGE) {
		n->header_type = 1;
		d->is_bridge = true;
		n->sec_bus = o->attr->bridge.downstream.pci.secondary_bus;
		n->sub_bus = o->attr->bridge.downstream.pci.subordinate_bus;
	}

	struct probe_hwloc_facts f;
	probe_hwloc_obj_facts(t, o, &f);
	probe_hwloc_apply(d, &f);
	struct xml_rec *r = &(*recs)[(*n_recs)++];
	memset(r, 0, sizeof *r);
	snprintf(r->slot, sizeof r->slot, "%s", d->slot);
	r->vendor_id = d->vendor_id;
	r->device_id = d->device_id;
	r->class_id = d->class_id;
	r->gbps = f.link_gbps;
	for (hwloc_obj_t a = o->parent;
	     a && a->type == HWLOC_OBJ_BRIDGE && a->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI &&
	     r->n_path < PCIBW_MAX_PATH;
	     a = a->parent) {
		const struct hwloc_pcidev_attr_s *ap = &a->attr->bridge.upstream.pci;
		pcibw_format_slot(r->path[r->n_path++], (int)ap->domain, ap->bus, ap->dev, ap->func);
	}
	return PCIBW_OK;
}

/* Per-hop bandwidth and bottleneck from hwloc's stored speeds over the device and each hop of
 * its path (nearest bridge first): the least wins, a tie goes to the hop nearest the root as in
 * the contract. One unknown hop leaves the bottleneck unknown: it could be that one. */
static void set_path(struct pcibw_device *d, const struct xml_rec *v, int n)
{
	const struct xml_rec *r = rec_of(v, n, d);
	double own = r ? r->gbps : NAN;
	bool all_known = r && !isnan(own);
	double best = own;
	const char *best_slot = d->slot;
	d->n_path = r ? r->n_path : 0;
	for (int i = 0; i < d->n_path; i++) {
		struct pcibw_hop *h = &d->path[i];
		memset(h, 0, sizeof *h);
		snprintf(h->slot, sizeof h->slot, "%s", r->path[i]);
		h->bus_kind = PCIBW_BUS_UNKNOWN;
		h->link_speed_gts = NAN;
		h->link_width = PCIBW_NULL;
		h->bus_mhz = h->bus_width_bits = PCIBW_NULL;
		h->gbps = speed_of(v, n, h->slot);
		if (isnan(h->gbps)) {
			all_known = false;
			continue;
		}
		if (isnan(best) || h->gbps <= best * (1 + 1e-12)) {
			best = h->gbps;
			best_slot = h->slot;
		}
	}
	d->bottleneck_slot[0] = '\0';
	d->bottleneck_gbps = NAN;
	d->bottleneck_shared = PCIBW_NULL;
	d->n_peers = 0;
	if (all_known && !d->is_virtual) {
		snprintf(d->bottleneck_slot, sizeof d->bottleneck_slot, "%s", best_slot);
		d->bottleneck_gbps = best;
		d->bottleneck_shared = 0;
		pcibw_device_set_prov(d, "bottleneck_gbps", "hwloc");
	}
}

int probe_hwloc_load_xml(hwloc_topology_t *t, const char *file, struct pcibw_err *err)
{
	/* read once, syntax checked (file:line:column) and loaded in a child first: hwloc_topo.c */
	return probe_hwloc_load(t, NULL, file, err);
}

int pcibw_cpuinfo_hwloc_xml(const char *path, struct pcibw_cpuinfo *ci, struct pcibw_err *err)
{
	hwloc_topology_t t;
	ci->cpus = PCIBW_NULL;
	ci->mhz = NAN;
	snprintf(ci->origin, sizeof ci->origin, "hwloc-xml");
	int rc = probe_hwloc_load_xml(&t, path, err);
	if (rc)
		return rc;
	int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
	if (n > 0)
		ci->cpus = n;
	hwloc_topology_destroy(t);
	return PCIBW_OK;
}

int probe_hwloc_xml(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err)
{
	hwloc_topology_t t;
	struct probe_set set = {0};
	struct xml_rec *recs = NULL;
	int n_recs = 0, cap_recs = 0, rc;

	snprintf(out->source, sizeof out->source, "hwloc-xml:%s", opts->topology_file);
	rc = probe_hwloc_load_xml(&t, opts->topology_file, err);
	if (rc)
		return rc;

	int ids = -1;
	char ids_path[64];
	if (opts->pci_ids && (rc = probe_pci_ids_open(opts->pci_ids, &ids, ids_path, sizeof ids_path, err))) {
		hwloc_topology_destroy(t);
		return rc;
	}
	struct pci_access *pa = pci_alloc();
	if (pa) {
		if (ids >= 0)
			pci_set_name_list_path(pa, ids_path, 0);
		pa->warning = quiet;
		pa->debug = quiet;
		pa->error = lookup_failed;
	}
	for (hwloc_obj_t o = NULL; (o = hwloc_get_next_pcidev(t, o)) && !rc;)
		rc = add_obj(&set, t, o, pa, &recs, &n_recs, &cap_recs, err);
	for (hwloc_obj_t o = NULL; (o = hwloc_get_next_bridge(t, o)) && !rc;)
		if (o->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI)
			rc = add_obj(&set, t, o, pa, &recs, &n_recs, &cap_recs, err);
	if (pa)
		pci_cleanup(pa);
	if (ids >= 0)
		pcibw_input_memfd_close(ids, ids_path);
	hwloc_topology_destroy(t);
	if (rc)
		goto out;
	if (!set.n) {
		rc = pcibw_fail(err, PCIBW_ENOMATCH,
				"%s: the export holds no PCI device (was it made with I/O objects, "
				"e.g. plain `lstopo FILE.xml`?)",
				opts->topology_file);
		goto out;
	}

	int first = out->n_devices;
	rc = probe_finish(&set, opts, out, err);
	if (rc)
		goto out;
	bool any_speed = false;
	for (int i = 0; i < n_recs; i++)
		any_speed |= !isnan(recs[i].gbps);
	for (int i = first; i < out->n_devices; i++) {
		struct pcibw_device *d = &out->devices[i];
		/* Config space would say which bus this is; hwloc's export does not. */
		d->bus_kind = PCIBW_BUS_UNKNOWN;
		d->bus_mhz = d->bus_width_bits = PCIBW_NULL;
		d->downgraded = PCIBW_NULL;
		set_path(d, recs, n_recs);
	}
	pcibw_report_warn(out, NULL, "hwloc-no-config",
			  "%s is an hwloc XML export: it holds no config space, so link speed "
			  "(GT/s), width, MPS/MRRS and whether a link is downgraded cannot be known "
			  "from it; pair it with an `lspci -xxx` dump of the same machine (--dump)",
			  opts->topology_file);
	if (any_speed)
		pcibw_report_warn(out, NULL, "hwloc-link-speed",
				  "per-hop bandwidth is hwloc's stored pci_link_speed (GB/s x 8, "
				  "one direction), as computed by the hwloc version that made the "
				  "export; 0 there means unknown, not zero");
	else
		pcibw_report_warn(out, NULL, "hwloc-no-link-speed",
				  "%s stores no link speed (pci_link_speed 0 = unknown): no "
				  "bottleneck can be named",
				  opts->topology_file);
out:
	free(recs);
	probe_set_free(&set);
	return rc;
}

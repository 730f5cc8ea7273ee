/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The facts pcibw_port_fit_eval needs, gathered for one network controller from the probe set:
 * its card's ports (the network physical functions at the same bus and device number, which
 * share the link and every hop above it), their line rate (per function: each interface's
 * speed, else its highest supported mode; a function where one is unknown counts its row of the
 * ports table, and the total is then assumed), its profile and the bus at its bottleneck.
 */
#include "pcibw/nic.h"
#include "pcibw/portfit.h"
#include "probe_int.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static bool same_card(const struct pcibw_device *a, const struct pcibw_device *b)
{
	return a->domain == b->domain && a->bus == b->bus && a->dev == b->dev;
}

/* A function's ports and line rate from its interfaces: 0 when every interface's speed (or
 * highest supported mode) is known, -1 otherwise. */
static int live_rate(const struct pcibw_device *d, int *ports, double *gbps)
{
	if (!d->n_interfaces)
		return -1;
	for (int k = 0; k < d->n_interfaces; k++) {
		int m = d->iface_speed_mbps[k] > 0 ? d->iface_speed_mbps[k] : d->iface_max_mbps[k];
		if (m <= 0)
			return -1;
		*gbps += m / 1000.0;
		(*ports)++;
	}
	return 0;
}

/* The model's bus at the device's bottleneck: its own bus (pcibw_bus_from_device), with the
 * lanes and rate of a narrower PCIe hop above it; for an on-package MAC the chipset's uplink. */
static int bottleneck_bus(const struct pcibw_device *d, struct pcibw_bus *b, struct pcibw_err *err)
{
	int rc = pcibw_bus_from_device(d, b, err);
	if (rc || b->kind != PCIBW_BUS_PCIE || !d->bottleneck_slot[0] || !strcmp(d->bottleneck_slot, d->slot))
		return rc;
	/* an on-package MAC's own link and the chipset ports below its uplink are internal:
	 * pcibw_bus_from_device has already put the uplink in (and said so in b->note) */
	if (b->note[0] && pcibw_device_is_onpackage(d->vendor_id, d->device_id))
		return PCIBW_OK;
	for (int k = 0; k < d->n_path; k++) {
		const struct pcibw_hop *h = &d->path[k];
		if (strcmp(h->slot, d->bottleneck_slot) || h->bus_kind != PCIBW_BUS_PCIE ||
		    isnan(h->link_speed_gts) || h->link_width <= 0)
			continue;
		if (h->gbps < pcibw_bus_raw_gbps(b)) {
			b->gts = h->link_speed_gts;
			b->lanes = h->link_width;
			b->gen = pcibw_pcie_gen_of_gts(b->gts);
			b->flit = b->flit || pcibw_pcie_flit_required(b->gts);
		}
	}
	return PCIBW_OK;
}

static int fit(const struct probe_set *s, int i, struct pcibw_port_fit *f, struct pcibw_err *err)
{
	const struct pcibw_device *d = &s->v[i].d;
	struct pcibw_port_entry e;
	if (d->is_virtual)
		return pcibw_fail(err, PCIBW_ENOTHERE, "a paravirtual device has no slot of its own to fill");
	bool in_table;
	int rc = pcibw_port_table_lookup(d->vendor_id, d->device_id, NULL, &e, &in_table, err);
	if (rc)
		return rc;
	if (d->is_vf || (in_table && e.ports == 0))
		return pcibw_fail(err, PCIBW_ENOTHERE,
				  "an SR-IOV virtual function: its ports are its physical function's");

	int ports = 0, funcs = 0;
	double gbps = 0;
	/* per function: its interfaces' speeds, else its row of the ports table (assumed) */
	bool assumed = false;
	for (int j = 0; j < s->n; j++) {
		const struct pcibw_device *o = &s->v[j].d;
		if (!same_card(o, d) || !pcibw_is_network_class(o->class_id) || o->is_vf)
			continue;
		int p = 0;
		double g = 0;
		if (!live_rate(o, &p, &g)) {
			ports += p;
			gbps += g;
			funcs++;
			continue;
		}
		struct pcibw_port_entry oe;
		bool listed;
		rc = pcibw_port_table_lookup(o->vendor_id, o->device_id, NULL, &oe, &listed, err);
		if (rc)
			return rc;
		if (!listed)
			return pcibw_fail(
			    err, PCIBW_ENOTHERE,
			    "no line rate: %04x:%04x is not in the ports table (data/nic-ports.txt) "
			    "and no interface of %s has a known speed",
			    (unsigned)o->vendor_id, (unsigned)o->device_id, o->slot);
		if (oe.ports == 0)
			continue; /* a VF the sysfs did not mark */
		ports += oe.ports;
		gbps += oe.ports * oe.port_gbps;
		funcs++;
		assumed = true;
	}

	char name[64];
	if (!pcibw_nic_default_name(d->vendor_id, d->device_id, d->driver, NULL, name, sizeof name))
		return pcibw_fail(err, PCIBW_ENOTHERE, "no NIC profile lists %04x:%04x",
				  (unsigned)d->vendor_id, (unsigned)d->device_id);
	struct pcibw_nic nic;
	rc = pcibw_nic_load(name, NULL, &nic, err);
	if (rc)
		return rc;
	struct pcibw_bus bus;
	rc = bottleneck_bus(d, &bus, err);
	if (rc)
		return rc;
	if (bus.kind == PCIBW_BUS_VIRTUAL)
		return pcibw_fail(err, PCIBW_ENOTHERE, "its bus is virtual: no ceiling");
	rc = pcibw_port_fit_eval(&bus, &nic, ports, gbps, funcs, f, err);
	if (rc)
		return rc;
	f->line_rate_assumed = assumed;
	return PCIBW_OK;
}

void probe_port_fit(struct probe_set *s, int i, struct pcibw_report *rep)
{
	struct pcibw_device *d = &s->v[i].d;
	if (!pcibw_is_network_class(d->class_id))
		return;
	struct pcibw_err err;
	struct pcibw_port_fit f;
	memset(&f, 0, sizeof f);
	if (fit(s, i, &f, &err)) {
		memset(&d->port_fit, 0, sizeof d->port_fit);
		d->port_fit.min_line_rate_bytes = PCIBW_NULL;
		snprintf(d->port_fit.why, sizeof d->port_fit.why, "%.200s", err.msg);
		pcibw_report_warn(rep, d->slot, "port-fit-unknown", "port fit unknown: %s", err.msg);
		return;
	}
	d->port_fit = f;
}

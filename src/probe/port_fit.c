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
#include "src/util/grow.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one probe asks the data directory, asked once: every network function of a large host
 * looks up the same few ids and profiles, and each look-up reads a file. The answers cannot
 * change within one probe. */
struct table_answer {
	int vendor_id, device_id, rc;
	struct pcibw_port_entry e;
	bool found;
	struct pcibw_err err;
};

struct name_answer {
	int vendor_id, device_id;
	char driver[64];
	bool found;
	char name[64];
};

struct nic_answer {
	char name[64];
	int rc;
	struct pcibw_nic nic;
	struct pcibw_err err;
};

struct probe_fit_cache {
	struct table_answer *t;
	struct name_answer *m;
	struct nic_answer *p;
	int nt, ct, nm, cm, np, cp;
};

void probe_fit_cache_free(struct probe_fit_cache *c)
{
	if (!c)
		return;
	free(c->t);
	free(c->m);
	free(c->p);
	free(c);
}

static struct probe_fit_cache *cache_of(struct probe_set *s)
{
	if (!s->fit)
		s->fit = calloc(1, sizeof *s->fit);
	return s->fit;
}

static int table_lookup(struct probe_set *s, int vendor_id, int device_id, struct pcibw_port_entry *e,
			bool *found, struct pcibw_err *err)
{
	struct probe_fit_cache *c = cache_of(s);
	for (int k = 0; c && k < c->nt; k++) {
		const struct table_answer *a = &c->t[k];
		if (a->vendor_id == vendor_id && a->device_id == device_id) {
			*e = a->e;
			*found = a->found;
			if (a->rc)
				*err = a->err;
			return a->rc;
		}
	}
	int rc = pcibw_port_table_lookup(vendor_id, device_id, NULL, e, found, err);
	if (c && !pcibw_grow(&c->t, &c->ct, c->nt + 1, sizeof *c->t)) {
		struct table_answer *a = &c->t[c->nt++];
		memset(a, 0, sizeof *a);
		a->vendor_id = vendor_id;
		a->device_id = device_id;
		a->rc = rc;
		a->e = *e;
		a->found = *found;
		if (rc)
			a->err = *err;
	}
	return rc;
}

static const char *default_name(struct probe_set *s, const struct pcibw_device *d, char *buf, unsigned len)
{
	struct probe_fit_cache *c = cache_of(s);
	for (int k = 0; c && k < c->nm; k++) {
		const struct name_answer *a = &c->m[k];
		if (a->vendor_id == d->vendor_id && a->device_id == d->device_id &&
		    !strcmp(a->driver, d->driver)) {
			if (!a->found)
				return NULL;
			snprintf(buf, len, "%s", a->name);
			return buf;
		}
	}
	const char *r = pcibw_nic_default_name(d->vendor_id, d->device_id, d->driver, NULL, buf, len);
	if (c && strlen(d->driver) < sizeof c->m->driver && (!r || strlen(buf) < sizeof c->m->name) &&
	    !pcibw_grow(&c->m, &c->cm, c->nm + 1, sizeof *c->m)) {
		struct name_answer *a = &c->m[c->nm++];
		memset(a, 0, sizeof *a);
		a->vendor_id = d->vendor_id;
		a->device_id = d->device_id;
		snprintf(a->driver, sizeof a->driver, "%s", d->driver);
		a->found = r != NULL;
		if (r)
			snprintf(a->name, sizeof a->name, "%s", buf);
	}
	return r;
}

static int nic_load(struct probe_set *s, const char *name, struct pcibw_nic *nic, struct pcibw_err *err)
{
	struct probe_fit_cache *c = cache_of(s);
	for (int k = 0; c && k < c->np; k++) {
		const struct nic_answer *a = &c->p[k];
		if (!strcmp(a->name, name)) {
			if (a->rc)
				*err = a->err;
			else
				*nic = a->nic;
			return a->rc;
		}
	}
	int rc = pcibw_nic_load(name, NULL, nic, err);
	if (c && strlen(name) < sizeof c->p->name && !pcibw_grow(&c->p, &c->cp, c->np + 1, sizeof *c->p)) {
		struct nic_answer *a = &c->p[c->np++];
		memset(a, 0, sizeof *a);
		snprintf(a->name, sizeof a->name, "%s", name);
		a->rc = rc;
		if (rc)
			a->err = *err;
		else
			a->nic = *nic;
	}
	return rc;
}

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

static int fit(struct probe_set *s, int i, struct pcibw_port_fit *f, struct pcibw_err *err)
{
	const struct pcibw_device *d = &s->v[i].d;
	struct pcibw_port_entry e;
	if (d->is_virtual)
		return pcibw_fail(err, PCIBW_ENOTHERE, "a paravirtual device has no slot of its own to fill");
	bool in_table;
	int rc = table_lookup(s, d->vendor_id, d->device_id, &e, &in_table, err);
	if (rc)
		return rc;
	if (d->is_vf || (in_table && e.ports == 0))
		return pcibw_fail(err, PCIBW_ENOTHERE,
				  "an SR-IOV virtual function: its ports are its physical function's");

	int ports = 0, funcs = 0;
	double gbps = 0;
	/* per function: its interfaces' speeds, else its row of the ports table (assumed) */
	bool assumed = false;
	double lo = INFINITY, hi = 0; /* per port: ports of one card may run at different speeds */
	/* the set is in slot order (probe_finish): a card's functions sit next to each other */
	int first = i;
	while (first > 0 && same_card(&s->v[first - 1].d, d))
		first--;
	for (int j = first; j < s->n && same_card(&s->v[j].d, d); j++) {
		const struct pcibw_device *o = &s->v[j].d;
		if (!pcibw_is_network_class(o->class_id) || o->is_vf)
			continue;
		int p = 0;
		double g = 0;
		if (!live_rate(o, &p, &g)) {
			ports += p;
			gbps += g;
			funcs++;
			for (int k = 0; k < o->n_interfaces; k++) {
				int m = o->iface_speed_mbps[k] > 0 ? o->iface_speed_mbps[k]
								   : o->iface_max_mbps[k];
				lo = fmin(lo, m / 1000.0);
				hi = fmax(hi, m / 1000.0);
			}
			continue;
		}
		struct pcibw_port_entry oe;
		bool listed;
		rc = table_lookup(s, o->vendor_id, o->device_id, &oe, &listed, err);
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
		lo = fmin(lo, oe.port_gbps);
		hi = fmax(hi, oe.port_gbps);
		funcs++;
		assumed = true;
	}

	char name[64];
	if (!default_name(s, d, name, sizeof name))
		return pcibw_fail(err, PCIBW_ENOTHERE, "no NIC profile lists %04x:%04x",
				  (unsigned)d->vendor_id, (unsigned)d->device_id);
	struct pcibw_nic nic;
	rc = nic_load(s, name, &nic, err);
	if (rc)
		return rc;
	struct pcibw_bus bus;
	rc = pcibw_bus_at_bottleneck(d, &bus, err);
	if (rc)
		return rc;
	if (bus.kind == PCIBW_BUS_VIRTUAL)
		return pcibw_fail(err, PCIBW_ENOTHERE, "its bus is virtual: no ceiling");
	rc = pcibw_port_fit_eval(&bus, &nic, ports, gbps, funcs, f, err);
	if (rc)
		return rc;
	f->line_rate_assumed = assumed;
	f->port_gbps_min = lo;
	f->port_gbps_max = hi;
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
		/* the reason sits in the device's own block (and its warning is prefixed with the
		 * slot): a message that starts with the slot would name it twice */
		const char *why = err.msg;
		size_t n = strlen(d->slot);
		if (n && !strncmp(why, d->slot, n) && !strncmp(why + n, ": ", 2))
			why += n + 2;
		snprintf(d->port_fit.why, sizeof d->port_fit.why, "%.200s", why);
		pcibw_report_warn(rep, d->slot, "port-fit-unknown", "port fit unknown: %s", why);
		return;
	}
	d->port_fit = f;
}

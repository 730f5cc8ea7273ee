/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine side of `pcibw watch`: bus, NIC profile and line rate per interface, the CPUs.
 * OS-neutral: the interface speed comes from the OS file of ifspeed.h. */
#include "context.h"
#include "ifspeed.h"
#include "pcibw/busfacts.h"
#include "pcibw/device.h"
#include "pcibw/ingest.h"
#include "pcibw/probe.h"
#include "pcibw/request.h"
#include "pcibw/words.h"
#include "result.h"
#include "src/util/grow.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void watch_probe_meta(const struct watch_sampler *s, double line_rate_gbps, double interval,
		      struct watch_meta *meta)
{
	memset(meta, 0, sizeof *meta);
	meta->interval = interval;
	meta->n = s->n;
	for (int i = 0; i < s->n; i++) {
		struct watch_meta_if *m = &meta->ifs[i];
		m->wi = s->ifs[i];
		m->vendor_id = m->device_id = -1;
		m->line_rate_gbps = line_rate_gbps > 0 ? line_rate_gbps : watch_iface_speed_gbps(m->wi.name);
	}
	struct pcibw_cpuinfo ci;
	pcibw_cpuinfo_live(&ci);
	meta->cpus = ci.cpus;
	meta->cpu_mhz = ci.mhz;
}

static void ctx_warn(struct watch_ctx *ctx, const struct watch_iface *wi,
		     const struct pcibw_request_warning *w)
{
	if (ctx->n_warnings >= PCIBW_WATCH_MAX_WARNINGS)
		return;
	struct pcibw_watch_warning *o = &ctx->warnings[ctx->n_warnings++];
	snprintf(o->slot, sizeof o->slot, "%s", wi->slot);
	o->code = w->code;
	/* several interfaces: each warning names its own */
	if (strncmp(w->text, wi->name, strlen(wi->name)))
		snprintf(o->text, sizeof o->text, "%s: %.360s", wi->name, w->text);
	else
		snprintf(o->text, sizeof o->text, "%s", w->text);
}

int watch_ctx_setup(struct watch_ctx *ctx, const struct pcibw_request *req, bool probe, const char *where,
		    struct pcibw_err *err)
{
	struct pcibw_machine ms[PCIBW_WATCH_MAX_IFACES];
	for (int i = 0; i < ctx->meta.n; i++) {
		struct watch_meta_if *mi = &ctx->meta.ifs[i];
		struct watch_if_model *m = &ctx->m[i];
		memset(m, 0, sizeof *m);
		struct pcibw_iface_facts f = {
		    .name = mi->wi.name,
		    .probe = probe && mi->wi.has_pci,
		    .virtual_nic = mi->wi.virtual_nic,
		    .bus = mi->bus,
		    .bus_from = "the recording",
		    .nic = mi->nic,
		    .vendor_id = probe && mi->wi.has_pci ? PCIBW_NULL : mi->vendor_id,
		    .device_id = probe && mi->wi.has_pci ? PCIBW_NULL : mi->device_id,
		    .driver = mi->wi.driver,
		    .line_rate_gbps = mi->line_rate_gbps,
		    .cpus = ctx->meta.cpus > 0 ? ctx->meta.cpus : PCIBW_NULL,
		    .cpu_mhz = ctx->meta.cpu_mhz,
		};
		int st = pcibw_request_resolve_iface(req, &f, &m->res, err);
		if (st) {
			if (where && st == PCIBW_EUSAGE) {
				char msg[sizeof err->msg];
				snprintf(msg, sizeof msg, "%s", err->msg);
				return pcibw_fail(err, PCIBW_EINPUT, "%s: %s: %s", where, mi->wi.name, msg);
			}
			return st;
		}
		const struct pcibw_resolved *r = &m->res;
		for (int k = 0; k < r->n_warnings; k++)
			if (strcmp(r->warnings[k].code, "virtual-bus"))
				ctx_warn(ctx, &mi->wi, &r->warnings[k]);
		/* what a recording keeps and the output names: the resolution's */
		snprintf(mi->bus, sizeof mi->bus, "%s", r->have_bus ? r->bus_spec : "");
		snprintf(mi->bus_from, sizeof mi->bus_from, "%.*s", (int)sizeof mi->bus_from - 1,
			 r->bus_from);
		if (r->vendor_id >= 0) {
			mi->vendor_id = r->vendor_id;
			mi->device_id = r->device_id;
		}
		mi->line_rate_gbps = r->in.line_rate_gbps;
		ctx->info[i].line_rate_gbps = mi->line_rate_gbps;
		/* --bus is the bus of every watched interface (its help): a virtual one then runs on it,
		 * as analyze sets a watch CSV's "bus: virtual" rows against --bus */
		m->virtual_nic =
		    req->bus ? r->have_bus && r->bus.kind == PCIBW_BUS_VIRTUAL
			     : mi->wi.virtual_nic || (r->have_bus && r->bus.kind == PCIBW_BUS_VIRTUAL);
		ctx->info[i].virtual_nic = m->virtual_nic;
		/* an interface without a device runs no NIC profile unless one was named, or --bus
		 * puts it on a bus, whose ceiling is then the resolved profile's */
		bool no_device = !mi->wi.has_pci && !mi->wi.dev[0];
		if (!no_device || req->nic || req->nic_file || mi->nic[0] || (req->bus && !m->virtual_nic))
			snprintf(mi->nic, sizeof mi->nic, "%s", r->nic_name);
		m->have_bus = r->have_bus && !m->virtual_nic;
		pcibw_machine_of(r, &m->mach);
		if (m->virtual_nic) {
			m->mach.have_bus = false;
			m->mach.bus_virtual = true;
			snprintf(m->mach.bus_name, sizeof m->mach.bus_name, "virtual NIC");
			snprintf(m->why, sizeof m->why,
				 "%s is a virtual NIC (%s): no bus ceiling; the CPU side only", mi->wi.name,
				 mi->wi.driver[0] ? mi->wi.driver
				 : mi->wi.dev[0]  ? mi->wi.dev
						  : "no device");
		} else if (!r->have_bus) {
			snprintf(m->why, sizeof m->why, "%s: bus unknown (give --bus SPEC)", mi->wi.name);
		}
		ms[i] = m->mach;
		/* the hop it shares with others: from its probed device's path */
		if (r->have_device && m->have_bus)
			watch_shared_probe(&r->device, &r->bus, mi);
	}
	pcibw_machine_merge(ms, ctx->meta.n, &ctx->mach);
	ctx->req = req;
	int st = watch_shared_setup(ctx, where, err);
	watch_setup_fill(ctx);
	return st;
}

void watch_ctx_free(struct watch_ctx *ctx)
{
	for (int i = 0; i < ctx->meta.n; i++) {
		struct watch_if_model *m = &ctx->m[i];
		pcibw_resolved_free(&m->res);
		for (int k = 0; k < m->n_links; k++) {
			pcibw_resolved_free(&m->links[k]->res);
			free(m->links[k]);
		}
		free(m->links);
		m->links = NULL;
		m->n_links = m->cap_links = 0;
	}
	ctx->link_nos = 0;
}

/* the resolution of interface i on bus b, as a recording of that bus resolves */
static int link_resolve(const struct watch_ctx *ctx, int i, const struct pcibw_bus *b, struct watch_link *l,
			struct pcibw_err *err)
{
	const struct watch_meta_if *mi = &ctx->meta.ifs[i];
	struct pcibw_request rq = *ctx->req;
	rq.bus = NULL; /* the link as read is the bus, whatever was given */
	struct pcibw_iface_facts f = {
	    .name = mi->wi.name,
	    .bus_parsed = b,
	    .bus_from = "current_link_speed/current_link_width",
	    .nic = mi->nic,
	    .vendor_id = mi->vendor_id,
	    .device_id = mi->device_id,
	    .driver = mi->wi.driver,
	    .line_rate_gbps = mi->line_rate_gbps,
	    .cpus = ctx->meta.cpus > 0 ? ctx->meta.cpus : PCIBW_NULL,
	    .cpu_mhz = ctx->meta.cpu_mhz,
	};
	int st = pcibw_request_resolve_iface(&rq, &f, &l->res, err);
	if (st)
		return st;
	l->gen = b->gen;
	l->lanes = b->lanes;
	pcibw_machine_of(&l->res, &l->mach);
	return PCIBW_OK;
}

int watch_links_update(struct watch_ctx *ctx, const struct pcibw_watch_interval *iv, struct pcibw_err *err)
{
	for (int i = 0; i < ctx->meta.n; i++) {
		struct watch_if_model *m = &ctx->m[i];
		unsigned was = m->link_now, no = 0;
		struct pcibw_bus now;
		if (watch_current_link(ctx, i, iv, &now)) {
			int k = 0;
			while (k < m->n_links &&
			       !(m->links[k]->gen == now.gen && m->links[k]->lanes == now.lanes))
				k++;
			if (k == m->n_links) {
				struct watch_link *l = NULL;
				if (pcibw_grow(&m->links, &m->cap_links, m->n_links + 1, sizeof *m->links) ||
				    !(l = calloc(1, sizeof *l)))
					return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
				int st = link_resolve(ctx, i, &now, l, err);
				if (st) {
					pcibw_resolved_free(&l->res);
					free(l);
					return st;
				}
				l->no = ++ctx->link_nos;
				m->links[m->n_links++] = l;
			}
			no = m->links[k]->no;
		}
		m->link_now = no;
		m->link_changed = no != was;
		/* a change between two re-reads is at least one retrain (there may have been more
		 * between them): counted, and the states seen kept in order for the summary */
		m->link_intervals++;
		m->link_changes += m->link_changed;
		if (!m->n_link_seen)
			m->link_seen[m->n_link_seen++] = 0;
		bool seen = false;
		for (int k = 0; k < m->n_link_seen && !seen; k++)
			seen = m->link_seen[k] == no;
		if (!seen && m->n_link_seen < (int)(sizeof m->link_seen / sizeof m->link_seen[0]))
			m->link_seen[m->n_link_seen++] = no;
	}
	return PCIBW_OK;
}

bool watch_link_state(const struct watch_ctx *ctx, int i, unsigned no, double *gts, int *width)
{
	const struct pcibw_machine *mach;
	const struct pcibw_resolved *r = watch_link_res(ctx, i, no, &mach);
	if (!r->have_bus || r->bus.kind != PCIBW_BUS_PCIE)
		return false;
	*gts = r->bus.gts;
	*width = r->bus.lanes;
	return true;
}

const struct pcibw_resolved *watch_link_res(const struct watch_ctx *ctx, int i, unsigned no,
					    const struct pcibw_machine **mach)
{
	const struct watch_if_model *m = &ctx->m[i];
	for (int k = 0; no && k < m->n_links; k++)
		if (m->links[k]->no == no) {
			*mach = &m->links[k]->mach;
			return &m->links[k]->res;
		}
	*mach = &m->mach;
	return &m->res;
}

/* Printed values, fixed precision: what the CSV says is what the rows carry. */
bool watch_csv_values(const struct pcibw_watch_interval *iv, int i, bool rx, char frame[32], char pps[32],
		      char cpu[32], char core[32])
{
	const struct pcibw_watch_dir *d = rx ? &iv->ifs[i].rx : &iv->ifs[i].tx;
	if (!(d->pps > 0) || isnan(d->frame_bytes))
		return false;
	snprintf(frame, 32, "%.0f", d->frame_bytes);
	snprintf(pps, 32, "%.1f", d->pps);
	if (isnan(iv->cpu_busy))
		snprintf(cpu, 32, "%s", "");
	else
		snprintf(cpu, 32, "%.2f", iv->cpu_busy * 100);
	if (isnan(iv->busiest_busy))
		snprintf(core, 32, "%s", "");
	else
		snprintf(core, 32, "%.2f", iv->busiest_busy * 100);
	return true;
}

int watch_interval_rows(const struct watch_ctx *ctx, const struct pcibw_watch_interval *iv,
			const char *source, struct pcibw_rows *rs, struct pcibw_err *err)
{
	for (int i = 0; i < iv->n_ifs; i++)
		for (int k = 0; k < 2; k++) {
			char f[32], p[32], c[32], o[32];
			if (!watch_csv_values(iv, i, k == 0, f, p, c, o))
				continue;
			struct pcibw_measured m;
			pcibw_measured_init(&m);
			m.source = source;
			m.size_bytes = strtod(f, NULL);
			m.size_conv = PCIBW_SIZE_FRAME;
			m.direction = k == 0 ? PCIBW_PAT_RX : PCIBW_PAT_TX;
			m.pps = strtod(p, NULL);
			m.cpu_pct = c[0] ? strtod(c, NULL) : NAN;
			m.core_max_pct = o[0] ? strtod(o, NULL) : NAN;
			snprintf(m.iface, sizeof m.iface, "%s", iv->ifs[i].name);
			m.machine_no = i < ctx->meta.n ? ctx->m[i].link_now : 0;
			int st = pcibw_rows_add(rs, &m, err);
			if (st)
				return st;
		}
	return PCIBW_OK;
}

bool watch_current_link(const struct watch_ctx *ctx, int i, const struct pcibw_watch_interval *iv,
			struct pcibw_bus *b)
{
	const struct watch_if_model *m = &ctx->m[i];
	if (!iv || i >= iv->n_ifs || !m->have_bus || m->res.bus.kind != PCIBW_BUS_PCIE ||
	    !ctx->meta.ifs[i].wi.own_link)
		return false;
	const struct pcibw_watch_ifiv *f = &iv->ifs[i];
	int gen = isnan(f->link_gts) ? 0 : pcibw_pcie_gen_of_gts(f->link_gts);
	/* a width the link cannot have (PCIe Base 6.0 sec. 7.5.3.8: x1, x2, x4, x8, x12, x16, x32)
	 * is unknown, as a rate that is no PCIe rate is: nothing to re-model it on */
	int lanes = pcibw_pcie_width_ok(f->link_width) ? f->link_width : 0;
	if ((gen == 0 || gen == m->res.bus.gen) && (lanes <= 0 || lanes == m->res.bus.lanes))
		return false;
	*b = m->res.bus;
	if (gen) {
		b->gen = gen;
		b->gts = pcibw_pcie_gen_gts(gen);
		b->flit = b->flit || pcibw_pcie_flit_required(b->gts);
	}
	if (lanes > 0)
		b->lanes = lanes;
	return true;
}

void watch_link_notes(const struct watch_ctx *ctx, struct pcibw_watch_interval *iv)
{
	for (int i = 0; i < ctx->meta.n && i < iv->n_ifs; i++) {
		struct pcibw_bus now;
		if (!watch_current_link(ctx, i, iv, &now))
			continue;
		iv->flags |= PCIBW_WF_LINK;
		if (iv->n_notes >= PCIBW_WATCH_MAX_NOTES)
			return;
		const struct pcibw_bus *was = &ctx->m[i].res.bus;
		const struct pcibw_watch_ifiv *f = &iv->ifs[i];
		char width[48];
		/* what the file read, and where it was not a width to model on, the width kept */
		if (f->link_width > 0 && !pcibw_pcie_width_ok(f->link_width))
			snprintf(width, sizeof width, "%d, not a PCIe width: x%d kept", f->link_width,
				 now.lanes);
		else
			snprintf(width, sizeof width, "%d", now.lanes);
		iv->note_flag[iv->n_notes] = PCIBW_WF_LINK;
		snprintf(iv->notes[iv->n_notes++], sizeof iv->notes[0],
			 "%s: bus ceiling re-modelled on the link as it is now, gen%d x%d "
			 "(current_link_speed %.1f GT/s, current_link_width %s), not gen%d x%d",
			 f->name, now.gen, now.lanes, now.gts, width, was->gen, was->lanes);
	}
}

void watch_ceilings(struct pcibw_rows *rs, const struct watch_ctx *ctx)
{
	for (int r = 0; r < rs->n; r++) {
		struct pcibw_row *row = &rs->v[r];
		int i = 0;
		while (i < ctx->meta.n && strcmp(ctx->meta.ifs[i].wi.name, row->iface))
			i++;
		if (i == ctx->meta.n)
			continue;
		const struct watch_if_model *m = &ctx->m[i];
		const struct pcibw_machine *mach;
		/* a link that trained to another rate or width: the ceiling of the rows measured on
		 * it is that link's (sysfs current_link_speed / current_link_width) */
		pcibw_row_ceilings(row, watch_link_res(ctx, i, row->machine_no, &mach));
		row->machine = mach;
		if (!m->have_bus && m->why[0] && !row->model_note[0])
			snprintf(row->model_note, sizeof row->model_note, "%.250s", m->why);
	}
}

int watch_verdict(struct pcibw_rows *rs, const struct watch_ctx *ctx, const struct pcibw_thresholds *t,
		  struct pcibw_summary *sum, struct pcibw_err *err)
{
	pcibw_rows_finish(rs);
	watch_ceilings(rs, ctx);
	return pcibw_verdict_run(rs, t, &ctx->mach, sum, err);
}

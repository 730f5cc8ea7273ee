/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The finished results a renderer is handed (pcibw/watch_result.h): the setup from the context,
 * each interval's per-interface figures and verdicts, the summary's. Everything a renderer prints
 * is decided here or before; no verdict is worked out after.
 */
#include "result.h"
#include "pcibw/model.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void watch_setup_fill(struct watch_ctx *ctx)
{
	struct pcibw_watch_setup *s = &ctx->setup;
	bool listed_all = s->listed_all;
	memset(s, 0, sizeof *s);
	s->listed_all = listed_all;
	s->n = ctx->meta.n;
	for (int i = 0; i < ctx->meta.n; i++) {
		const struct watch_meta_if *m = &ctx->meta.ifs[i];
		s->ifs[i] = (struct pcibw_watch_setup_if){
		    .name = m->wi.name,
		    .slot = m->wi.slot,
		    .dev = m->wi.dev,
		    .driver = m->wi.driver,
		    .bus = m->bus,
		    .bus_from = m->bus_from,
		    .nic = m->nic,
		    .line_rate_gbps = m->line_rate_gbps,
		    .virtual_nic = ctx->m[i].virtual_nic,
		    .have_bus = ctx->m[i].have_bus,
		};
	}
	s->cpus = ctx->meta.cpus;
	s->cpu_mhz = ctx->meta.cpu_mhz;
	s->n_hops = ctx->shared.n;
	s->hops = ctx->shared.g;
	s->n_warnings = ctx->n_warnings;
	s->warnings = ctx->warnings;
}

static double larger(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : fmax(a, b);
}

void watch_iv_result(const struct watch_ctx *ctx, const struct pcibw_watch_interval *iv,
		     const struct pcibw_rows *rows, const struct pcibw_summary *sum,
		     struct pcibw_watch_iv_result *r)
{
	r->setup = &ctx->setup;
	r->iv = iv;
	r->rows = rows;
	r->sum = sum;
	for (int i = 0; i < iv->n_ifs && i < PCIBW_WATCH_MAX_IFACES; i++) {
		const struct pcibw_watch_ifiv *f = &iv->ifs[i];
		struct pcibw_watch_if_result *o = &r->ifs[i];
		memset(o, 0, sizeof *o);
		o->rx = watch_row_of(rows, f->name, PCIBW_PAT_RX);
		o->tx = watch_row_of(rows, f->name, PCIBW_PAT_TX);
		o->bus_util = larger(o->rx ? o->rx->bus_util : NAN, o->tx ? o->tx->bus_util : NAN);
		o->wire_util = larger(f->rx.wire_util, f->tx.wire_util);
		for (int k = 0; k < 2; k++) {
			struct pcibw_watch_values *x = &o->values[k];
			x->moved = watch_csv_values(iv, i, k == 0, x->frame, x->pps, x->cpu, x->core);
		}
		watch_iface_verdict(rows, f->name, f->present, f->valid, f->valid ? 1 : 0, NAN, &o->v);
		if (i >= ctx->meta.n)
			continue;
		/* the bus this interval's ceiling was modelled on: the link as it is now */
		const char *bm = ctx->meta.ifs[i].bus;
		struct pcibw_bus now;
		if (watch_current_link(ctx, i, iv, &now))
			bm = pcibw_bus_format(&now, o->bus_modelled, sizeof o->bus_modelled);
		else
			snprintf(o->bus_modelled, sizeof o->bus_modelled, "%s", bm);
		if (!ctx->m[i].have_bus)
			o->bus_modelled[0] = '\0';
		const struct watch_if_model *m = &ctx->m[i];
		const struct pcibw_machine *mach;
		const struct pcibw_resolved *lr = watch_link_res(ctx, i, m->link_now, &mach);
		o->link_changed = m->link_changed;
		o->link_bus = m->link_now ? lr->bus_spec : ctx->meta.ifs[i].bus;
		o->link_changes = m->link_changes;
	}
}

double watch_interval_len(const struct watch_ctx *ctx, long intervals, double seconds)
{
	if (ctx->meta.interval > 0)
		return ctx->meta.interval;
	return intervals > 0 ? seconds / (double)intervals : NAN;
}

int watch_summary_result(const struct watch_ctx *ctx, const struct pcibw_rows *rows,
			 struct pcibw_watch_summary_result *r)
{
	r->setup = &ctx->setup;
	r->rows = rows;
	r->row_bus = rows->n ? calloc((size_t)rows->n, sizeof *r->row_bus) : NULL;
	if (rows->n && !r->row_bus)
		return PCIBW_EINTERNAL;
	/* the bus each row was set against: the link as it was while the row was measured */
	for (int k = 0; k < rows->n; k++)
		for (int i = 0; i < ctx->meta.n; i++) {
			if (strcmp(ctx->meta.ifs[i].wi.name, rows->v[k].iface))
				continue;
			const struct pcibw_machine *mach;
			const struct pcibw_resolved *res =
			    watch_link_res(ctx, i, rows->v[k].machine_no, &mach);
			r->row_bus[k] = ctx->m[i].have_bus && res->have_bus ? res->bus_spec : NULL;
			break;
		}
	for (int i = 0; i < ctx->meta.n; i++)
		watch_iface_verdict(rows, ctx->meta.ifs[i].wi.name, true, true, r->intervals, r->interval_s,
				    &r->ifs[i]);
	for (int i = 0; i < ctx->meta.n && i < PCIBW_WATCH_MAX_IFACES; i++) {
		const struct watch_if_model *m = &ctx->m[i];
		struct pcibw_watch_link_run *l = &r->links[i];
		memset(l, 0, sizeof *l);
		l->changes = m->link_changes;
		l->intervals = m->link_intervals;
		for (int k = 0; k < m->n_link_seen && l->n_states < 10; k++)
			if (watch_link_state(ctx, i, m->link_seen[k], &l->gts[l->n_states],
					     &l->width[l->n_states]))
				l->n_states++;
	}
	return PCIBW_OK;
}

void watch_summary_result_free(struct pcibw_watch_summary_result *r)
{
	free(r->row_bus);
	r->row_bus = NULL;
}

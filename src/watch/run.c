/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The watch loop. Two snapshots are kept and swapped; each interval's rows are built, judged by
 * the shared verdict engine and freed; the summary's rows group by (interface, direction, whole
 * frame size), so they grow with the distinct sizes seen, not with the number of intervals.
 */
#include "run.h"
#include "pcibw/words.h"
#include "result.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct run_state {
	struct pcibw_watch_sample sample;
	struct pcibw_watch_snap snap[2];
	struct pcibw_watch_interval iv;
	struct pcibw_rows all;
	struct watch_recorder rec;
	bool recording;
	const char *names[PCIBW_WATCH_MAX_IFACES];
	struct pcibw_watch_hop_ivs shared;  /* this interval's groups */
	struct watch_shared_run shared_run; /* the run's, for the summary */
};

static void remember(struct pcibw_watch_summary_result *sv, const struct pcibw_watch_interval *iv)
{
	for (int k = 0; k < iv->n_notes; k++) {
		if (sv->flags & iv->note_flag[k])
			continue;
		if (sv->n_notes < PCIBW_WATCH_MAX_NOTES)
			snprintf(sv->notes[sv->n_notes++], sizeof sv->notes[0], "at %.1f s: %.180s", iv->t,
				 iv->notes[k]);
	}
	/* the flags of notes seen, after the loop above so each flag's first note is kept */
	for (int k = 0; k < iv->n_notes; k++)
		sv->flags |= iv->note_flag[k];
	sv->flags |= iv->flags;
	double pps = 0, gbps = 0, rx = 0, tx = 0;
	int best = -1;
	double best_pps = -1;
	for (int i = 0; i < iv->n_ifs; i++) {
		const struct pcibw_watch_ifiv *f = &iv->ifs[i];
		double r = isnan(f->rx.pps) ? 0 : f->rx.pps, t = isnan(f->tx.pps) ? 0 : f->tx.pps, p = r + t;
		rx += r;
		tx += t;
		pps += p;
		gbps += (isnan(f->rx.gbps) ? 0 : f->rx.gbps) + (isnan(f->tx.gbps) ? 0 : f->tx.gbps);
		if (p > best_pps) {
			best_pps = p;
			best = i;
		}
	}
	if (pps > sv->peak_pps) {
		sv->peak_pps = pps;
		sv->peak_gbps = gbps;
		sv->peak_rx_pps = rx;
		sv->peak_tx_pps = tx;
		sv->peak_ifaces = iv->n_ifs;
		sv->peak_t = iv->t;
		snprintf(sv->peak_iface, sizeof sv->peak_iface, "%s", best >= 0 ? iv->ifs[best].name : "");
	}
	if (iv->busiest_cpu >= 0 && (sv->busiest_cpu < 0 || iv->busiest_busy > sv->busiest_busy)) {
		sv->busiest_cpu = iv->busiest_cpu;
		sv->busiest_busy = iv->busiest_busy;
		sv->busiest_t = iv->t;
	}
}

/* groups whose hop limits this interval, a bit each: a note is printed when one starts to */
static unsigned hops_limiting(const struct pcibw_watch_hop_ivs *s)
{
	unsigned m = 0;
	for (int g = 0; g < s->n && g < 32; g++)
		if (s->g[g].limiting)
			m |= 1u << g;
	return m;
}

/* the summary: the whole-run verdict over every interval's rows, the interfaces that moved no
 * packet named, then worded once */
static int summarise(struct run_state *rs, struct watch_ctx *ctx, const struct watch_run_opts *o,
		     struct pcibw_watch_summary_result *sv, struct pcibw_summary *sum, struct pcibw_err *err)
{
	int st;
	sv->interval_s = watch_interval_len(ctx, sv->intervals, sv->seconds);
	if (rs->all.n || sv->intervals) {
		*sum = (struct pcibw_summary){.verdict = PCIBW_V_UNDETERMINED, .representative = -1};
		/* no row at all: the engine has nothing to judge; the idle interfaces are the answer */
		if (rs->all.n && (st = watch_verdict(&rs->all, ctx, &o->t, sum, err)))
			return st;
		watch_idle_reasons(sum, ctx, &rs->all, sv->intervals, sv->interval_s);
		pcibw_verdict_words(&rs->all, &ctx->mach, sum);
		sv->sum = sum;
	}
	if (watch_summary_result(ctx, &rs->all, sv))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	if ((st = watch_shared_finish(&rs->shared_run, ctx, &o->t, err)))
		return st;
	sv->hops = &rs->shared_run.out;
	sv->recording_full = rs->rec.full;
	return PCIBW_OK;
}

int watch_run(struct watch_sampler *s, struct watch_ctx *ctx, struct watch_run_opts *o,
	      const struct pcibw_watch_sink *sink, struct pcibw_err *err)
{
	struct run_state *rs = calloc(1, sizeof *rs);
	struct pcibw_watch_iv_result *ivr_out = calloc(1, sizeof *ivr_out);
	struct pcibw_watch_summary_result *sv = calloc(1, sizeof *sv);
	int st = PCIBW_OK, cur = 0;
	struct pcibw_summary sum = {0};
	if (!rs || !ivr_out || !sv) {
		st = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		goto out;
	}
	sv->busiest_cpu = -1;
	sv->recording = o->record_dir;
	struct pcibw_watch_limits lim = {.core = o->t.core, .idle = o->t.idle, .irq_ratio = 0.5};
	const char *where = o->where ? o->where : "live sample";
	for (int i = 0; i < s->n; i++)
		rs->names[i] = s->ifs[i].name;
	if ((st = pcibw_watch_snap_init(&rs->snap[0], err)) ||
	    (st = pcibw_watch_snap_init(&rs->snap[1], err)) || (st = pcibw_watch_interval_init(&rs->iv, err)))
		goto out;
	if (o->record_dir) {
		if ((st = watch_record_open(o->record_dir, o->record_max, &ctx->meta, &rs->rec, err)))
			goto out;
		rs->recording = true;
	}
	if ((st = sink->start(sink->self, &ctx->setup, err)))
		goto out;
	int r = s->read(s, &rs->sample, err);
	if (r == 1)
		r = pcibw_fail(err, PCIBW_EINPUT, "%s: no sample", where);
	if ((st = r))
		goto out;
	if (rs->recording && (st = watch_record_sample(&rs->rec, &rs->sample, err)))
		goto out;
	if ((st = pcibw_watch_parse(&rs->sample, rs->names, s->n, where, &rs->snap[cur], err)))
		goto out;
	double t0 = rs->snap[cur].t;
	unsigned prev_flags = 0, prev_hops = 0;
	for (long k = 1; o->count == 0 || k <= o->count; k++) {
		if (o->live) {
			if (*o->stop)
				break;
			watch_sleep_until(t0 + (double)k * o->interval);
			if (*o->stop)
				break;
		}
		r = s->read(s, &rs->sample, err);
		if (r == 1)
			break;
		if ((st = r))
			goto out;
		if (rs->recording && (st = watch_record_sample(&rs->rec, &rs->sample, err)))
			goto out;
		int nx = 1 - cur;
		if ((st = pcibw_watch_parse(&rs->sample, rs->names, s->n, where, &rs->snap[nx], err)))
			goto out;
		pcibw_watch_interval(&rs->snap[cur], &rs->snap[nx], t0, ctx->info, &lim, &rs->iv);
		cur = nx;
		watch_link_notes(ctx, &rs->iv);
		if ((st = watch_links_update(ctx, &rs->iv, err)))
			goto out;
		struct pcibw_rows ivr = {0};
		struct pcibw_summary ivs = {0};
		if ((st = watch_interval_rows(ctx, &rs->iv, o->source, &ivr, err)) ||
		    (st = watch_interval_rows(ctx, &rs->iv, o->source, &rs->all, err)) ||
		    (st = watch_verdict(&ivr, ctx, &o->t, &ivs, err)) ||
		    (st = watch_shared_interval(ctx, &rs->iv, &ivr, &o->t, &rs->shared, err)) ||
		    (st = watch_shared_remember(&rs->shared_run, ctx, &rs->iv, &rs->shared, err))) {
			pcibw_rows_free(&ivr);
			pcibw_summary_free(&ivs);
			goto out;
		}
		pcibw_verdict_words(&ivr, &ctx->mach, &ivs);
		watch_iv_result(ctx, &rs->iv, &ivr, &ivs, ivr_out);
		ivr_out->index = k;
		ivr_out->new_flags = rs->iv.flags & ~prev_flags;
		ivr_out->prev_flags = prev_flags;
		ivr_out->hops = &rs->shared;
		ivr_out->hops_new = hops_limiting(&rs->shared) & ~prev_hops;
		st = sink->interval(sink->self, ivr_out, err);
		prev_flags = rs->iv.flags;
		prev_hops = hops_limiting(&rs->shared);
		remember(sv, &rs->iv);
		sv->intervals = k;
		sv->seconds = rs->iv.t;
		pcibw_rows_free(&ivr);
		pcibw_summary_free(&ivs);
		if (st)
			goto out;
	}
	if (*o->stop)
		sv->stopped_by = *o->stop == SIGTERM ? "SIGTERM" : *o->stop == SIGHUP ? "SIGHUP" : "SIGINT";
	if ((st = summarise(rs, ctx, o, sv, &sum, err)))
		goto out;
	st = sink->summary(sink->self, sv, err);
out:
	if (rs && rs->recording) {
		struct pcibw_err e2 = {0};
		if (watch_record_close(&rs->rec, &e2) && !st)
			st = pcibw_fail(err, PCIBW_EINTERNAL, "%s", e2.msg);
		o->recording_full = !st && rs->rec.full;
	}
	pcibw_summary_free(&sum);
	if (sv)
		watch_summary_result_free(sv);
	if (rs) {
		watch_shared_run_free(&rs->shared_run);
		pcibw_rows_free(&rs->all);
		pcibw_watch_interval_free(&rs->iv);
		pcibw_watch_snap_free(&rs->snap[0]);
		pcibw_watch_snap_free(&rs->snap[1]);
		pcibw_watch_sample_free(&rs->sample);
	}
	free(rs);
	free(ivr_out);
	free(sv);
	return st;
}

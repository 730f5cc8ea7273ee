/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The watch loop. Two snapshots are kept and swapped; each interval's rows are built, judged by
 * the shared verdict engine and freed; the summary's rows group by (interface, direction, whole
 * frame size), so they grow with the distinct sizes seen, not with the number of intervals.
 */
#include "run.h"
#include "src/render/watch_render.h"
#include "src/util/atomic_file.h"
#include <errno.h>
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
	struct watch_shared_ivs shared;	    /* this interval's groups */
	struct watch_shared_run shared_run; /* the run's, for the summary */
};

/* Prometheus to a textfile: the whole file replaced at once, each interval */
static int render_textfile(const struct watch_run_opts *o, const struct watch_view *v, struct pcibw_err *err)
{
	struct pcibw_atomic_file tf;
	if (pcibw_atomic_open(&tf, o->textfile, err))
		return PCIBW_EINTERNAL;
	if (watch_render_prometheus(tf.f, v)) {
		int e = errno;
		pcibw_atomic_abort(&tf);
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: %s: %s", o->textfile,
				  strerror(e));
	}
	if (pcibw_atomic_commit(&tf, err))
		return PCIBW_EINTERNAL;
	return PCIBW_OK;
}

/* err is filled only for a --textfile failure (its own reason); a failed write to o->out
 * leaves it to the caller, whose errno is the write's */
static int render_iv(const struct watch_run_opts *o, const struct watch_view *v, struct pcibw_err *err)
{
	switch (o->format) {
	case WATCH_JSON:
		return watch_render_json(o->out, v);
	case WATCH_CSV:
		return watch_render_csv(o->out, v);
	case WATCH_PROMETHEUS:
		return o->textfile ? render_textfile(o, v, err) : watch_render_prometheus(o->out, v);
	default:
		return watch_render_text(o->out, v);
	}
}

static void remember(struct watch_summary_view *sv, const struct pcibw_watch_interval *iv)
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
static unsigned shared_limiting(const struct watch_shared_ivs *s)
{
	unsigned m = 0;
	for (int g = 0; g < s->n && g < 32; g++)
		if (s->g[g].limiting)
			m |= 1u << g;
	return m;
}

double watch_interval_s(const struct watch_ctx *ctx, const struct watch_summary_view *sv)
{
	if (ctx->meta.interval > 0)
		return ctx->meta.interval;
	return sv->intervals > 0 ? sv->seconds / (double)sv->intervals : NAN;
}

int watch_run(struct watch_sampler *s, struct watch_ctx *ctx, const struct watch_run_opts *o,
	      struct pcibw_err *err)
{
	struct run_state *rs = calloc(1, sizeof *rs);
	if (!rs)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	int st = PCIBW_OK, cur = 0;
	struct pcibw_summary sum = {0};
	bool have_sum = false;
	long lines = 0;
	struct watch_summary_view sv = {.ctx = ctx, .busiest_cpu = -1, .recording = o->record_dir};
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
	switch (o->format) {
	case WATCH_JSON:
	case WATCH_PROMETHEUS:
		break;
	case WATCH_CSV:
		st = watch_render_start_csv(o->out, ctx);
		break;
	default:
		st = watch_render_start_text(o->out, ctx);
	}
	if (st || (o->live && fflush(o->out)))
		goto write_fail; /* at once: errno is the write's, not a later read's */
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
	unsigned prev_flags = 0, prev_shared = 0;
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
		struct watch_view v = {.iv = &rs->iv,
				       .rows = &ivr,
				       .sum = &ivs,
				       .ctx = ctx,
				       .index = k,
				       .new_flags = rs->iv.flags & ~prev_flags,
				       .prev_flags = prev_flags,
				       .lines = &lines,
				       .shared = &rs->shared,
				       .shared_new = shared_limiting(&rs->shared) & ~prev_shared};
		st = render_iv(o, &v, err);
		prev_flags = rs->iv.flags;
		prev_shared = shared_limiting(&rs->shared);
		remember(&sv, &rs->iv);
		sv.intervals = k;
		sv.seconds = rs->iv.t;
		pcibw_rows_free(&ivr);
		pcibw_summary_free(&ivs);
		if (st && o->textfile && o->format == WATCH_PROMETHEUS)
			goto out; /* err says why, once */
		if (st)
			goto write_fail;
		if (o->live && fflush(o->out))
			goto write_fail;
	}
	if (*o->stop)
		sv.stopped_by = *o->stop == SIGTERM ? "SIGTERM" : *o->stop == SIGHUP ? "SIGHUP" : "SIGINT";
	if (rs->all.n || sv.intervals) {
		if ((st = watch_verdict(&rs->all, ctx, &o->t, &sum, err)))
			goto out;
		have_sum = true;
		watch_idle_evidence(&sum, ctx, &rs->all, sv.intervals, watch_interval_s(ctx, &sv));
	}
	if ((st = watch_shared_finish(&rs->shared_run, ctx, &o->t, err)))
		goto out;
	sv.shared = &rs->shared_run;
	sv.rows = &rs->all;
	sv.sum = have_sum ? &sum : NULL;
	sv.recording_full = rs->rec.full;
	switch (o->format) {
	case WATCH_PROMETHEUS: /* the last interval's figures stay */
		break;
	case WATCH_JSON:
		st = watch_render_summary_json(o->out, &sv);
		break;
	case WATCH_CSV:
		st = watch_render_summary_csv(o->out, &sv);
		break;
	default:
		st = watch_render_summary_text(o->out, &sv);
	}
	if (st || fflush(o->out))
		goto write_fail;
	goto out;
write_fail:
	st = pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: %s", strerror(errno));
out:
	if (rs->recording) {
		struct pcibw_err e2 = {0};
		if (watch_record_close(&rs->rec, &e2) && !st)
			st = pcibw_fail(err, PCIBW_EINTERNAL, "%s", e2.msg);
		if (!st && rs->rec.full) {
			char m[4200];
			snprintf(m, sizeof m, "the recording %s stopped at --record-max", o->record_dir);
			pcibw_put_message(stderr, "pcibw: warning: ", m);
		}
	}
	pcibw_summary_free(&sum);
	watch_shared_run_free(&rs->shared_run);
	pcibw_rows_free(&rs->all);
	pcibw_watch_interval_free(&rs->iv);
	pcibw_watch_snap_free(&rs->snap[0]);
	pcibw_watch_snap_free(&rs->snap[1]);
	pcibw_watch_sample_free(&rs->sample);
	free(rs);
	return st;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict of one interface among several, and what to say of an interface that moved no
 * packet: it has no row, so nothing of it can be set against the bus, the wire or the CPU; the
 * verdict of the busy interface beside it is not its verdict. Reasons only: the words are
 * pcibw/words.h's.
 */
#include "context.h"
#include "pcibw/words.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

const struct pcibw_row *watch_row_of(const struct pcibw_rows *rows, const char *iface, int direction)
{
	for (int i = 0; rows && i < rows->n; i++)
		if (rows->v[i].direction == direction && !strcmp(rows->v[i].iface, iface))
			return &rows->v[i];
	return NULL;
}

static void idle_fill(struct pcibw_reason *x, const char *name, long intervals, double interval_s)
{
	snprintf(x->name, sizeof x->name, "%s", name);
	x->value = (double)intervals;
	x->unit = "intervals";
	x->span_s = interval_s;
}

void watch_iface_verdict(const struct pcibw_rows *rs, const char *name, bool present, bool valid,
			 long intervals, double interval_s, struct pcibw_watch_if_verdict *v)
{
	memset(v, 0, sizeof *v);
	int counts[PCIBW_V_N] = {0};
	for (int i = 0; rs && i < rs->n; i++)
		if (!strcmp(rs->v[i].iface, name)) {
			counts[rs->v[i].verdict]++;
			v->judged = true;
		}
	v->verdict = pcibw_verdict_of_counts(counts);
	v->word = !present ? "gone" : v->judged ? pcibw_verdict_name(v->verdict) : valid ? "idle" : "-";
	if (!v->judged) {
		if (intervals <= 0)
			return;
		int n = 0;
		struct pcibw_reason *x =
		    pcibw_reason_push(v->idle_reason, &n, 1, PCIBW_R_IFACE_IDLE, PCIBW_RES_NONE, 0);
		idle_fill(x, name, intervals, interval_s);
		pcibw_iface_idle_words(x, v->idle_text, sizeof v->idle_text);
		v->idle_line[0] = v->idle_text;
		v->evidence = v->idle_line;
		v->n_evidence = 1;
		v->reasons = v->idle_reason;
		v->n_reasons = n;
		return;
	}
	/* the evidence of its busiest row with that verdict: a verdict never comes bare */
	const struct pcibw_row *best = NULL;
	for (int i = 0; i < rs->n; i++) {
		const struct pcibw_row *r = &rs->v[i];
		if (!strcmp(r->iface, name) && r->verdict == v->verdict &&
		    (!best || (!isnan(r->pps) && !(r->pps <= best->pps))))
			best = r;
	}
	if (best) {
		v->evidence = (const char *const *)best->evidence;
		v->n_evidence = best->n_evidence;
		v->reasons = best->reasons;
		v->n_reasons = best->n_reasons;
	}
}

static bool has_rows(const struct pcibw_rows *rs, const char *name)
{
	for (int i = 0; rs && i < rs->n; i++)
		if (!strcmp(rs->v[i].iface, name))
			return true;
	return false;
}

void watch_idle_reasons(struct pcibw_summary *sum, const struct watch_ctx *ctx, const struct pcibw_rows *all,
			long intervals, double interval_s)
{
	int line = sum->n_reasons ? sum->reasons[sum->n_reasons - 1].evidence_index + 1 : 0;
	bool any = false;
	for (int i = 0; i < ctx->meta.n; i++) {
		const char *name = ctx->meta.ifs[i].wi.name;
		if (has_rows(all, name))
			continue;
		any = true;
		/* no row at all: no packets on these interfaces is the answer, one line naming them */
		struct pcibw_reason *x =
		    all->n == 0 ? pcibw_reason_push(sum->reasons, &sum->n_reasons, PCIBW_MAX_SUMMARY_REASONS,
						    PCIBW_R_NO_PACKETS, PCIBW_RES_NONE, 0)
		    : line < PCIBW_MAX_EVIDENCE
			? pcibw_reason_push(sum->reasons, &sum->n_reasons, PCIBW_MAX_SUMMARY_REASONS,
					    PCIBW_R_IFACE_IDLE, PCIBW_RES_NONE, line++)
			: NULL;
		if (x)
			idle_fill(x, name, intervals, interval_s);
	}
	if (all->n == 0 && !any)
		pcibw_reason_push(sum->reasons, &sum->n_reasons, PCIBW_MAX_SUMMARY_REASONS, PCIBW_R_NO_ROWS,
				  PCIBW_RES_NONE, 0);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict of one interface among several, and what to say of an interface that moved no
 * packet: it has no row, so nothing of it can be set against the bus, the wire or the CPU; the
 * verdict of the busy interface beside it is not its verdict.
 */
#include "context.h"
#include "pcibw/words.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool watch_iface_verdict(const struct pcibw_rows *rs, const char *name, enum pcibw_verdict *v)
{
	int counts[PCIBW_V_N] = {0};
	bool any = false;
	for (int i = 0; rs && i < rs->n; i++)
		if (!strcmp(rs->v[i].iface, name)) {
			counts[rs->v[i].verdict]++;
			any = true;
		}
	*v = pcibw_verdict_of_counts(counts);
	return any;
}

void watch_idle_words(const char *name, long intervals, double interval_s, char *buf, size_t n)
{
	snprintf(buf, n, "idle: no packets on %s during %ld interval%s of %.3g s", name, intervals,
		 intervals == 1 ? "" : "s", interval_s);
}

static void idle_reason(struct pcibw_summary *s, enum pcibw_reason_code code, const char *name, int line,
			long intervals, double interval_s)
{
	struct pcibw_reason *x = pcibw_reason_push(s->reasons, &s->n_reasons, PCIBW_MAX_SUMMARY_REASONS, code,
						   PCIBW_RES_NONE, line);
	if (!x)
		return;
	snprintf(x->name, sizeof x->name, "%s", name);
	x->value = (double)intervals;
	x->unit = "intervals";
	x->span_s = interval_s;
}

void watch_idle_evidence(struct pcibw_summary *sum, const struct watch_ctx *ctx, const struct pcibw_rows *all,
			 long intervals, double interval_s)
{
	enum pcibw_verdict v;
	int idle = 0;
	for (int i = 0; i < ctx->meta.n; i++)
		idle += !watch_iface_verdict(all, ctx->meta.ifs[i].wi.name, &v);
	if (!idle)
		return;
	/* the engine's words for an empty input mean nothing to a user watching a NIC: no packets
	 * on these interfaces is the answer */
	if (all->n == 0)
		sum->n_reasons = 0;
	int line = sum->n_reasons ? sum->reasons[sum->n_reasons - 1].evidence_index + 1 : 0;
	for (int i = 0; i < ctx->meta.n; i++) {
		const char *name = ctx->meta.ifs[i].wi.name;
		if (watch_iface_verdict(all, name, &v))
			continue;
		if (all->n == 0)
			idle_reason(sum, PCIBW_R_NO_PACKETS, name, 0, intervals, interval_s);
		else if (line < PCIBW_MAX_EVIDENCE)
			idle_reason(sum, PCIBW_R_IFACE_IDLE, name, line++, intervals, interval_s);
	}
	pcibw_summary_words(all, &ctx->mach, sum);
}

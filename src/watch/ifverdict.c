/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict of one interface among several, and what to say of an interface that moved no
 * packet: it has no row, so nothing of it can be set against the bus, the wire or the CPU; the
 * verdict of the busy interface beside it is not its verdict.
 */
#include "context.h"
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

static void push(struct pcibw_summary *s, const char *text, bool first)
{
	char *e = strdup(text);
	if (!e)
		return;
	if (s->n_evidence >= PCIBW_MAX_EVIDENCE)
		free(s->evidence[--s->n_evidence]);
	if (first) {
		memmove(s->evidence + 1, s->evidence, (size_t)s->n_evidence * sizeof *s->evidence);
		s->evidence[0] = e;
	} else {
		s->evidence[s->n_evidence] = e;
	}
	s->n_evidence++;
}

void watch_idle_evidence(struct pcibw_summary *sum, const struct watch_ctx *ctx, const struct pcibw_rows *all,
			 long intervals, double interval_s)
{
	char names[512] = "", w[768];
	size_t o = 0;
	int idle = 0;
	enum pcibw_verdict v;
	for (int i = 0; i < ctx->meta.n; i++) {
		const char *name = ctx->meta.ifs[i].wi.name;
		if (watch_iface_verdict(all, name, &v) || o >= sizeof names)
			continue;
		o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", idle ? ", " : "", name);
		idle++;
	}
	if (!idle)
		return;
	if (all->n == 0) {
		/* the engine's words for an empty input mean nothing to a user watching a NIC */
		for (int i = 0; i < sum->n_evidence; i++)
			free(sum->evidence[i]);
		sum->n_evidence = 0;
		snprintf(w, sizeof w,
			 "Undetermined: no packets on %s during %ld interval%s of %.3g s: nothing to set "
			 "against the bus, the wire or the CPU (is the traffic running, and on %s?)",
			 names, intervals, intervals == 1 ? "" : "s", interval_s,
			 idle > 1 ? "these interfaces" : "this interface");
		push(sum, w, true);
		return;
	}
	for (int i = 0; i < ctx->meta.n; i++) {
		const char *name = ctx->meta.ifs[i].wi.name;
		if (watch_iface_verdict(all, name, &v))
			continue;
		char idle_w[256];
		watch_idle_words(name, intervals, interval_s, idle_w, sizeof idle_w);
		snprintf(w, sizeof w, "%s: left out of the verdict", idle_w);
		push(sum, w, false);
	}
}

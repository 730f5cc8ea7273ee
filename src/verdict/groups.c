/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Verdicts per group, then the whole. Rows group by (source, series, test, interface, direction, stated
 * machine): one benchmark series on one interface (two NICs never share a verdict). Within a group the rows
 * are taken by size, and a new group starts where the verdict changes from one size to the next, so a sweep
 * that is cpu-bound at 64 B, io-bound at 128-256 B and wire-bound above reads as three groups, never as one
 * majority. Rows of one size (a cores or work sweep at that size) always share a group.
 */
#include "groups.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum pcibw_verdict verdict_of_counts(const int counts[PCIBW_V_N])
{
	if (counts[PCIBW_V_IMPOSSIBLE])
		return PCIBW_V_IMPOSSIBLE;
	enum pcibw_verdict v = PCIBW_V_UNDETERMINED;
	int best = 0;
	for (int k = PCIBW_V_IO; k < PCIBW_V_UNDETERMINED; k++)
		if (counts[k] > best) {
			best = counts[k];
			v = (enum pcibw_verdict)k;
		}
	return v;
}

enum pcibw_verdict pcibw_verdict_of_counts(const int counts[PCIBW_V_N])
{
	return verdict_of_counts(counts);
}

bool verdict_same_key(const struct pcibw_row *a, const struct pcibw_row *b)
{
	return a->pattern == b->pattern && a->machine_no == b->machine_no && a->machine == b->machine &&
	       !strcmp(a->source, b->source) && !strcmp(a->series, b->series) && !strcmp(a->test, b->test) &&
	       !strcmp(a->iface, b->iface);
}

/* the size a row is sorted and banded by: the one the input gave */
static double size_of(const struct pcibw_row *r)
{
	return !isnan(r->input_size_bytes) ? r->input_size_bytes : r->size_bytes;
}

static int cmp_idx(const void *pa, const void *pb, void *ctx)
{
	const struct pcibw_row *v = ctx, *a = &v[*(const int *)pa], *b = &v[*(const int *)pb];
	int c = strcmp(a->source, b->source);
	if (!c)
		c = strcmp(a->test, b->test);
	if (!c)
		c = strcmp(a->series, b->series);
	/* an interface's rows together (its own machine, if it has one, with them), in the order of
	 * the interfaces' names, never of where the machines lie in memory */
	if (!c)
		c = strcmp(a->iface, b->iface);
	if (!c)
		c = a->pattern - b->pattern;
	if (!c)
		c = (a->machine_no > b->machine_no) - (a->machine_no < b->machine_no);
	double sa = size_of(a), sb = size_of(b);
	if (!c && isnan(sa) != isnan(sb))
		c = isnan(sa) ? 1 : -1;
	if (!c && !isnan(sa))
		c = (sa > sb) - (sa < sb);
	if (!c)
		c = *(const int *)pa - *(const int *)pb; /* input order: a stable sort */
	return c;
}

static double rate_of(const struct pcibw_row *r)
{
	return !isnan(r->gbps) ? r->gbps : r->pps;
}

static int close_group(const struct pcibw_rows *rs, struct pcibw_group *g, int gi)
{
	int counts[PCIBW_V_N] = {0};
	g->size_min = g->size_max = NAN;
	for (int k = 0; k < g->n_rows; k++) {
		const struct pcibw_row *r = &rs->v[g->rows[k]];
		counts[r->verdict]++;
		double sz = size_of(r);
		if (!isnan(sz)) {
			if (isnan(g->size_min) || sz < g->size_min)
				g->size_min = sz;
			if (isnan(g->size_max) || sz > g->size_max)
				g->size_max = sz;
		}
	}
	g->verdict = verdict_of_counts(counts);
	g->representative = -1;
	for (int k = 0; k < g->n_rows; k++) {
		const struct pcibw_row *r = &rs->v[g->rows[k]];
		if (r->verdict != g->verdict)
			continue;
		if (g->representative < 0 || rate_of(r) > rate_of(&rs->v[g->representative]))
			g->representative = g->rows[k];
	}
	const struct pcibw_row *rep = &rs->v[g->representative];
	g->n_reasons = rep->n_reasons;
	memcpy(g->reasons, rep->reasons, sizeof rep->reasons[0] * (size_t)rep->n_reasons);
	for (int k = 0; k < g->n_reasons; k++)
		g->reasons[k].group = gi;
	return 0;
}

int verdict_groups_build(const struct pcibw_rows *rs, struct pcibw_summary *s)
{
	s->groups = NULL;
	s->n_groups = 0;
	if (rs->n == 0)
		return 0;
	int *idx = malloc(sizeof *idx * (size_t)rs->n);
	/* at most one group per row */
	struct pcibw_group *gs = calloc((size_t)rs->n, sizeof *gs);
	int *all = malloc(sizeof *all * (size_t)rs->n);
	if (!idx || !gs || !all) {
		free(idx);
		free(gs);
		free(all);
		return -1;
	}
	for (int i = 0; i < rs->n; i++)
		idx[i] = i;
	qsort_r(idx, (size_t)rs->n, sizeof *idx, cmp_idx, rs->v);
	memcpy(all, idx, sizeof *idx * (size_t)rs->n);
	free(idx);
	int ng = 0;
	struct pcibw_group *g = NULL;
	for (int k = 0; k < rs->n; k++) {
		const struct pcibw_row *r = &rs->v[all[k]];
		bool start = !g;
		if (g) {
			const struct pcibw_row *prev = &rs->v[all[k - 1]];
			bool same_size =
			    (isnan(size_of(prev)) && isnan(size_of(r))) || size_of(prev) == size_of(r);
			start = !verdict_same_key(prev, r) || (!same_size && r->verdict != prev->verdict);
		}
		if (start) {
			if (g && close_group(rs, g, (int)(g - gs)))
				goto oom;
			g = &gs[ng++];
			g->key_row = all[k];
			g->rows = all + k; /* groups are runs of the one sorted array */
		}
		g->n_rows++;
	}
	if (g && close_group(rs, g, (int)(g - gs)))
		goto oom;
	/* the first group owns the array (freed through it) */
	s->groups = gs;
	s->n_groups = ng;
	return 0;
oom:
	for (int i = 0; i < ng; i++)
		for (int k = 0; k < gs[i].n_evidence; k++)
			free(gs[i].evidence[k]);
	free(gs);
	free(all);
	return -1;
}

void pcibw_group_label(const struct pcibw_rows *rs, const struct pcibw_group *g, bool with_source, char *buf,
		       size_t n)
{
	static const char *dirs[] = {"rx", "tx", "both", "dma-read", "dma-write", "dma-rw"};
	const struct pcibw_row *r = &rs->v[g->key_row];
	const char *base = strrchr(r->source, '/');
	base = base ? base + 1 : r->source;
	size_t o = 0;
	buf[0] = '\0';
	if (with_source)
		o += (size_t)snprintf(buf + o, n - o, "%s", base);
	/* the interface first: two NICs' groups otherwise read alike */
	if (r->iface[0] && o < n)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? " " : "", r->iface);
	if (r->test[0] && o < n)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? " " : "", r->test);
	if (r->series[0] && o < n)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? " " : "", r->series);
	else if (r->pattern >= 0 && r->pattern < 6 && o < n)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? " " : "", dirs[r->pattern]);
	/* rows measured on another machine the input stated (a link that retrained): which one */
	if (r->machine_no && r->machine && r->machine->bus_name[0] && o < n)
		o += (size_t)snprintf(buf + o, n - o, "%son %s", o ? " " : "", r->machine->bus_name);
	if (!o)
		snprintf(buf, n, "rows");
}

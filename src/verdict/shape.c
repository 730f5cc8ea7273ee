/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the shape of the results says, across rows:
 * - Elasticity: rows that differ only in `work` (or only in `cpu_mhz`) at one size. A CPU-bound
 *   host loses throughput as per-packet work rises and gains it with the clock; an IO-bound one
 *   absorbs the work into idle time (freebsd-performance, 21 Oct 2004, "CPU utilisation cap?":
 *   added per-packet work lowered throughput while CPU use stayed at 80-85 %).
 *   Elasticity = d ln(throughput) / d ln(x): the least-squares slope over the points with x > 0
 *   when there are two or more, else the midpoint arc elasticity between the smallest and largest
 *   x, (dy / mean y) / (dx / mean x), which is defined at x = 0.
 * - Per-packet limit: packet rates flat within `flat` over >= `flat_sizes` consecutive sizes while
 *   the bytes rise: the cost is per packet (CPU or driver path), not per byte (bus or wire).
 * - Cores: rows that differ only in cores (else queues, else threads). A packet rate that grows
 *   with them (d ln pps / d ln cores >= cores_elasticity) is a per-core CPU limit; one flat over
 *   them (spread within cores_flat) says more CPU does not help.
 * All sort an index (qsort_r), so they cost O(n log n) in the number of rows; the flat-run search
 * after the sort is linear.
 */
#include "shape.h"
#include "pcibw/verdict.h"
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int cmp_d(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

/* Rows of a `size` column first, then frames, UDP payloads, IP packets, DMA sizes, TCP writes,
 * TCP payloads. */
static int conv_rank(enum pcibw_size_is s)
{
	static const int rank[] = {
	    [PCIBW_SIZE_OPTION] = 0,	 [PCIBW_SIZE_FRAME] = 1, [PCIBW_SIZE_UDP_PAYLOAD] = 2,
	    [PCIBW_SIZE_L3] = 3,	 [PCIBW_SIZE_DMA] = 4,	 [PCIBW_SIZE_WRITE] = 5,
	    [PCIBW_SIZE_TCP_PAYLOAD] = 6};
	return (unsigned)s < sizeof rank / sizeof rank[0] ? rank[s] : (int)s;
}

static int cmp_base(const struct pcibw_row *a, const struct pcibw_row *b)
{
	int c = strcmp(a->source, b->source);
	if (!c)
		c = strcmp(a->series, b->series);
	if (!c)
		c = strcmp(a->test, b->test);
	if (!c)
		c = strcmp(a->iface, b->iface);
	if (!c)
		c = conv_rank(a->size_conv) - conv_rank(b->size_conv);
	if (!c)
		c = a->direction - b->direction;
	return c;
}

/* The keys a family may vary one of; the others must be equal. */
enum sort_by { BY_WORK, BY_MHZ, BY_SIZE, BY_CORES, BY_QUEUES, BY_THREADS, BY_STREAMS, N_KEYS };

static double key(const struct pcibw_row *r, enum sort_by k)
{
	switch (k) {
	case BY_WORK:
		return r->work;
	case BY_MHZ:
		return r->cpu_mhz;
	case BY_SIZE:
		return r->size_bytes;
	case BY_CORES:
		return r->cores;
	case BY_QUEUES:
		return r->queues;
	case BY_THREADS:
		return r->threads;
	case BY_STREAMS:
		return r->streams;
	case N_KEYS:
		break;
	}
	return NAN;
}

/* by the base, every key but `by` (size first), then `by` */
static int cmp_keys(const struct pcibw_row *a, const struct pcibw_row *b, enum sort_by by)
{
	int c = cmp_base(a, b);
	static const enum sort_by order[] = {BY_SIZE,	BY_WORK,    BY_MHZ,    BY_CORES,
					     BY_QUEUES, BY_THREADS, BY_STREAMS};
	for (unsigned i = 0; !c && i < sizeof order / sizeof order[0]; i++)
		if (order[i] != by)
			c = cmp_d(key(a, order[i]), key(b, order[i]));
	return c;
}

static int cmp_rows(const void *pa, const void *pb, void *vctx)
{
	const struct pcibw_row *v = ((void **)vctx)[0];
	enum sort_by by = *(enum sort_by *)((void **)vctx)[1];
	const struct pcibw_row *a = &v[*(const int *)pa], *b = &v[*(const int *)pb];
	int c = cmp_keys(a, b, by);
	return c ? c : cmp_d(key(a, by), key(b, by));
}

/* Same family: everything but the varied quantity equal. */
static bool same_family(const struct pcibw_row *a, const struct pcibw_row *b, enum sort_by by)
{
	return cmp_keys(a, b, by) == 0;
}

static int *sorted(const struct pcibw_rows *rs, enum sort_by by)
{
	int *idx = malloc(sizeof *idx * (size_t)(rs->n ? rs->n : 1));
	if (!idx)
		return NULL;
	for (int i = 0; i < rs->n; i++)
		idx[i] = i;
	void *ctx[2] = {rs->v, &by};
	qsort_r(idx, (size_t)rs->n, sizeof *idx, cmp_rows, ctx);
	return idx;
}

static double throughput(const struct pcibw_row *r)
{
	return !isnan(r->pps) ? r->pps : r->gbps;
}

double pcibw_elasticity(const double *x, const double *y, int n)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (!(x[i] > 0) || !(y[i] > 0))
			continue;
		double lx = log(x[i]), ly = log(y[i]);
		sx += lx;
		sy += ly;
		sxx += lx * lx;
		sxy += lx * ly;
		k++;
	}
	double den = k * sxx - sx * sx;
	if (k >= 2 && fabs(den) > 1e-12)
		return (k * sxy - sx * sy) / den;
	/* arc elasticity between the extremes of x */
	int lo = -1, hi = -1;
	for (int i = 0; i < n; i++) {
		if (isnan(x[i]) || isnan(y[i]))
			continue;
		if (lo < 0 || x[i] < x[lo])
			lo = i;
		if (hi < 0 || x[i] > x[hi])
			hi = i;
	}
	if (lo < 0 || x[hi] == x[lo] || y[hi] + y[lo] <= 0)
		return NAN;
	return ((y[hi] - y[lo]) / ((y[hi] + y[lo]) / 2)) / ((x[hi] - x[lo]) / ((x[hi] + x[lo]) / 2));
}

typedef void (*family_fn)(struct pcibw_rows *rs, const int *idx, int n, void *ctx);

/* Sort the rows by `by` and call fn once per family: the rows idx[0..n) that are equal in every
 * key but `by`, in ascending `by`. Returns 0, or -1 out of memory. */
static int each_family(struct pcibw_rows *rs, enum sort_by by, family_fn fn, void *ctx)
{
	int *idx = sorted(rs, by);
	if (!idx)
		return -1;
	for (int i = 0; i < rs->n;) {
		int j = i + 1;
		while (j < rs->n && same_family(&rs->v[idx[i]], &rs->v[idx[j]], by))
			j++;
		fn(rs, idx + i, j - i, ctx);
		i = j;
	}
	free(idx);
	return 0;
}

/* scratch of the elasticity and cores passes: x and y of as many points as there are rows */
struct sweep {
	enum sort_by by;
	const char *name;
	double *x, *y;
};

static int sweep_alloc(struct sweep *w, const struct pcibw_rows *rs, enum sort_by by, const char *name)
{
	w->by = by;
	w->name = name;
	w->x = malloc(sizeof *w->x * (size_t)(rs->n ? rs->n : 1) * 2);
	w->y = w->x ? w->x + rs->n : NULL;
	return w->x ? 0 : -1;
}

static void elasticity_family(struct pcibw_rows *rs, const int *idx, int m, void *ctx)
{
	struct sweep *w = ctx;
	double *x = w->x, *y = w->y;
	enum sort_by by = w->by;
	int n = 0, distinct = 0;
	for (int k = 0; k < m; k++) {
		const struct pcibw_row *r = &rs->v[idx[k]];
		x[n] = by == BY_WORK ? r->work : r->cpu_mhz;
		y[n] = throughput(r);
		if (!isnan(x[n]) && (n == 0 || x[n] != x[n - 1]))
			distinct++;
		n++;
	}
	if (distinct < 2)
		return;
	double e = pcibw_elasticity(x, y, n);
	for (int k = 0; k < m && !isnan(e); k++) {
		struct pcibw_row *r = &rs->v[idx[k]];
		/* a row in both a work and a cpu_mhz family keeps the one that speaks of the CPU
		 * (falling with work, rising with the clock), else the larger */
		bool cpu_new = by == BY_WORK ? e < 0 : e > 0;
		bool cpu_old = !isnan(r->elasticity) &&
			       (!strcmp(r->elasticity_of, "work") ? r->elasticity < 0 : r->elasticity > 0);
		if (isnan(r->elasticity) || (cpu_new && !cpu_old) ||
		    (cpu_new == cpu_old && fabs(e) > fabs(r->elasticity))) {
			r->elasticity = e;
			r->elasticity_of = by == BY_WORK ? "work" : "cpu_mhz";
		}
	}
}

static int elasticity_pass(struct pcibw_rows *rs, enum sort_by by)
{
	struct sweep w;
	if (sweep_alloc(&w, rs, by, NULL))
		return -1;
	int st = each_family(rs, by, elasticity_family, &w);
	free(w.x);
	return st;
}

static bool has_rate(const struct pcibw_row *r)
{
	return r->pps > 0 && !isnan(r->size_bytes);
}

/* (max - min) / max of packet rates: how far from flat a run is */
static double spread(double lo, double hi)
{
	return (hi - lo) / hi;
}

/*
 * One family (rows idx[0..n), sizes ascending). For each start a the longest run [a, end[a]]
 * whose packet rates stay within the spread; a run qualifies with >= flat_sizes rows and rising
 * bytes. Each row then takes the qualifying run covering it with the widest size span (the first
 * of equals). Linear: the run's end never moves back as its start moves on (dropping a row never
 * widens the spread), min/max over the run come from two monotonic deques, and the runs covering
 * row k are the starts a <= k whose end reaches k, a sliding range whose widest span a third
 * deque keeps.
 */
static void flat_family(struct pcibw_row *v, const int *idx, int n, const struct pcibw_thresholds *t,
			int *end, double *lo, double *hi, int *dq)
{
	int *qmin = dq, *qmax = dq + n, *qspan = dq + 2 * n;
	int fn = 0, bn = 0, fx = 0, bx = 0; /* min and max deques: [front, back) */
	int r = -1;			    /* the run is [a, r] */
	for (int a = 0; a < n; a++) {
		end[a] = -1;
		const struct pcibw_row *ra = &v[idx[a]];
		if (ra->size_conv == PCIBW_SIZE_WRITE || !has_rate(ra))
			continue;
		if (r < a) {
			r = a;
			fn = bn = fx = bx = 0;
			qmin[bn++] = a;
			qmax[bx++] = a;
		}
		while (fn < bn && qmin[fn] < a)
			fn++;
		while (fx < bx && qmax[fx] < a)
			fx++;
		while (r + 1 < n) {
			const struct pcibw_row *rk = &v[idx[r + 1]];
			if (!has_rate(rk))
				break;
			double nlo = fmin(v[idx[qmin[fn]]].pps, rk->pps);
			double nhi = fmax(v[idx[qmax[fx]]].pps, rk->pps);
			if (spread(nlo, nhi) > t->flat)
				break;
			r++;
			while (bn > fn && v[idx[qmin[bn - 1]]].pps >= rk->pps)
				bn--;
			qmin[bn++] = r;
			while (bx > fx && v[idx[qmax[bx - 1]]].pps <= rk->pps)
				bx--;
			qmax[bx++] = r;
		}
		if (r - a + 1 < t->flat_sizes || !(v[idx[r]].size_bytes > ra->size_bytes))
			continue;
		end[a] = r;
		lo[a] = v[idx[qmin[fn]]].pps;
		hi[a] = v[idx[qmax[fx]]].pps;
	}
	int fs = 0, bs = 0;
#define SPAN(a) (v[idx[end[a]]].size_bytes - v[idx[a]].size_bytes)
	for (int k = 0; k < n; k++) {
		if (end[k] >= 0) {
			while (bs > fs && SPAN(qspan[bs - 1]) < SPAN(k))
				bs--;
			qspan[bs++] = k;
		}
		while (fs < bs && end[qspan[fs]] < k)
			fs++;
		if (fs == bs)
			continue;
		int a = qspan[fs];
		struct pcibw_row *row = &v[idx[k]];
		row->per_packet = true;
		row->flat_pps_lo = lo[a];
		row->flat_pps_hi = hi[a];
		row->flat_size_lo = v[idx[a]].size_bytes;
		row->flat_size_hi = v[idx[end[a]]].size_bytes;
	}
#undef SPAN
}

/* scratch of the flat pass, sized for the whole row set */
struct flat_scratch {
	const struct pcibw_thresholds *t;
	int *end; /* 4 n ints: run ends, then the three deques */
	double *lo, *hi;
};

static void flat_one(struct pcibw_rows *rs, const int *idx, int n, void *ctx)
{
	struct flat_scratch *f = ctx;
	flat_family(rs->v, idx, n, f->t, f->end, f->lo, f->hi, f->end + rs->n);
}

static int flat_pass(struct pcibw_rows *rs, const struct pcibw_thresholds *t)
{
	size_t n = (size_t)(rs->n ? rs->n : 1);
	struct flat_scratch f = {
	    .t = t, .end = malloc(sizeof *f.end * n * 4), .lo = malloc(sizeof *f.lo * n * 2)};
	int st = -1;
	if (f.end && f.lo) {
		f.hi = f.lo + n;
		st = each_family(rs, BY_SIZE, flat_one, &f);
	}
	free(f.lo);
	free(f.end);
	return st;
}

/* Rows that differ only in cores (or queues, or threads): the log-log slope of the packet rate
 * over them, and the range they span. A row keeps the first sweep it is in. */
static void cores_family(struct pcibw_rows *rs, const int *idx, int m, void *ctx)
{
	struct sweep *w = ctx;
	double *x = w->x, *y = w->y;
	int n = 0, distinct = 0;
	double lo = NAN, hi = NAN;
	for (int k = 0; k < m; k++) {
		const struct pcibw_row *r = &rs->v[idx[k]];
		double c = key(r, w->by);
		if (isnan(c) || !(r->pps > 0))
			continue;
		x[n] = c;
		y[n] = r->pps;
		if (n == 0 || x[n] != x[n - 1])
			distinct++;
		lo = isnan(lo) ? c : fmin(lo, c);
		hi = isnan(hi) ? c : fmax(hi, c);
		n++;
	}
	if (distinct < 2)
		return;
	double e = pcibw_elasticity(x, y, n), pmin = y[0], pmax = y[0];
	for (int k = 1; k < n; k++) {
		pmin = fmin(pmin, y[k]);
		pmax = fmax(pmax, y[k]);
	}
	for (int k = 0; k < m && !isnan(e); k++) {
		struct pcibw_row *r = &rs->v[idx[k]];
		if (r->cores_of || isnan(key(r, w->by)))
			continue;
		r->cores_elasticity = e;
		r->cores_of = w->name;
		r->cores_lo = lo;
		r->cores_hi = hi;
		r->cores_pps_lo = pmin;
		r->cores_pps_hi = pmax;
	}
}

static int cores_pass(struct pcibw_rows *rs, enum sort_by by, const char *name)
{
	struct sweep w;
	if (sweep_alloc(&w, rs, by, name))
		return -1;
	int st = each_family(rs, by, cores_family, &w);
	free(w.x);
	return st;
}

int pcibw_shape(struct pcibw_rows *rs, const struct pcibw_thresholds *t)
{
	if (elasticity_pass(rs, BY_WORK) || elasticity_pass(rs, BY_MHZ) || flat_pass(rs, t) ||
	    cores_pass(rs, BY_CORES, "cores") || cores_pass(rs, BY_QUEUES, "queues") ||
	    cores_pass(rs, BY_THREADS, "threads"))
		return -1;
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-packet (flat run) search of pcibw_shape against its definition, written here the
 * direct way (every start, every extension: O(n^2)): for each start the longest run of sizes
 * whose packet rates stay within `flat` ((max - min) / max); a run counts with >= flat_sizes
 * rows and rising bytes; each row takes the covering run with the widest size span, the first
 * of equals. Random families (flat plateaus, steps, noise, missing rates, write-size rows,
 * repeated sizes) must give the same per_packet and flat_* fields, bit for bit.
 */
#include "pcibw/ingest.h"
#include "pcibw/model.h"
#include "pcibw/verdict.h"
#include "shape.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct want {
	bool per_packet;
	double pps_lo, pps_hi, size_lo, size_hi;
};

static int cmp_size(const void *a, const void *b, void *v)
{
	const struct pcibw_row *r = v;
	double x = r[*(const int *)a].size_bytes, y = r[*(const int *)b].size_bytes;
	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

/* One family (all rows share every key but size): the definition, directly. */
static void oracle(const struct pcibw_rows *rs, const struct pcibw_thresholds *t, struct want *w)
{
	int n = rs->n, *idx = malloc(sizeof *idx * (size_t)n);
	for (int i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, (size_t)n, sizeof *idx, cmp_size, rs->v);
	memset(w, 0, sizeof *w * (size_t)n);
	for (int a = 0; a < n; a++) {
		const struct pcibw_row *ra = &rs->v[idx[a]];
		if (ra->size_conv == PCIBW_SIZE_WRITE || !(ra->pps > 0) || isnan(ra->size_bytes))
			continue;
		double lo = ra->pps, hi = ra->pps;
		int b = a;
		for (int k = a + 1; k < n; k++) {
			const struct pcibw_row *rk = &rs->v[idx[k]];
			if (!(rk->pps > 0) || isnan(rk->size_bytes))
				break;
			double nlo = fmin(lo, rk->pps), nhi = fmax(hi, rk->pps);
			if ((nhi - nlo) / nhi > t->flat)
				break;
			lo = nlo;
			hi = nhi;
			b = k;
		}
		const struct pcibw_row *rb = &rs->v[idx[b]];
		if (b - a + 1 < t->flat_sizes || !(rb->size_bytes > ra->size_bytes))
			continue;
		for (int k = a; k <= b; k++) {
			struct want *x = &w[idx[k]];
			if (x->per_packet && x->size_hi - x->size_lo >= rb->size_bytes - ra->size_bytes)
				continue;
			*x = (struct want){true, lo, hi, ra->size_bytes, rb->size_bytes};
		}
	}
	free(idx);
}

static void add(struct pcibw_rows *rs, double size, double pps, enum pcibw_size_is conv)
{
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "synthetic";
	m.size_bytes = size;
	m.size_conv = conv;
	m.direction = PCIBW_PAT_RX;
	m.pps = pps;
	struct pcibw_err err;
	cr_assert_eq(pcibw_rows_add(rs, &m, &err), PCIBW_OK);
}

static double uniform(unsigned *seed)
{
	return rand_r(seed) / (RAND_MAX + 1.0);
}

Test(shape_flat, matches_definition_on_random_families)
{
	unsigned seed = 12345;
	for (int trial = 0; trial < 400; trial++) {
		struct pcibw_rows rs = {0};
		int n = 1 + (int)(uniform(&seed) * 60);
		enum pcibw_size_is conv = uniform(&seed) < 0.05 ? PCIBW_SIZE_WRITE : PCIBW_SIZE_FRAME;
		double level = 1e5 + uniform(&seed) * 1e6;
		for (int i = 0; i < n; i++) {
			double u = uniform(&seed);
			if (u >= 0.08 && u < 0.25)
				level *= 0.5 + uniform(&seed); /* a step */
			/* no rate on some lines; else +-4 % around the level */
			double pps = u < 0.08 ? NAN : level * (1 + (uniform(&seed) - 0.5) * 0.08);
			/* sizes repeat now and then (distinct rows by pps only when sizes differ) */
			double size = 64 + 8 * (int)(uniform(&seed) * 200);
			add(&rs, size, pps, conv);
		}
		pcibw_rows_finish(&rs);
		struct pcibw_thresholds t;
		pcibw_thresholds_default(&t);
		t.flat = 0.02 + uniform(&seed) * 0.08;
		t.flat_sizes = 2 + (int)(uniform(&seed) * 4);
		struct want *w = calloc((size_t)rs.n, sizeof *w);
		oracle(&rs, &t, w);
		cr_assert_eq(pcibw_shape(&rs, &t), 0);
		for (int i = 0; i < rs.n; i++) {
			const struct pcibw_row *r = &rs.v[i];
			cr_assert_eq(r->per_packet, w[i].per_packet, "trial %d row %d (size %g)", trial, i,
				     r->size_bytes);
			if (!w[i].per_packet)
				continue;
			cr_assert(r->flat_pps_lo == w[i].pps_lo && r->flat_pps_hi == w[i].pps_hi &&
				      r->flat_size_lo == w[i].size_lo && r->flat_size_hi == w[i].size_hi,
				  "trial %d row %d: run %g-%g B %g-%g pps, want %g-%g B %g-%g pps", trial, i,
				  r->flat_size_lo, r->flat_size_hi, r->flat_pps_lo, r->flat_pps_hi,
				  w[i].size_lo, w[i].size_hi, w[i].pps_lo, w[i].pps_hi);
		}
		free(w);
		pcibw_rows_free(&rs);
	}
}

/* 20,000 sizes at one packet rate: one run over all of them, every row in it. */
Test(shape_flat, one_long_plateau)
{
	struct pcibw_rows rs = {0};
	for (int i = 0; i < 20000; i++)
		add(&rs, 64 + i, 1e6, PCIBW_SIZE_FRAME);
	pcibw_rows_finish(&rs);
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	cr_assert_eq(pcibw_shape(&rs, &t), 0);
	for (int i = 0; i < rs.n; i++)
		cr_assert(rs.v[i].per_packet && rs.v[i].flat_size_lo == 64 &&
			      rs.v[i].flat_size_hi == 64 + 19999,
			  "row %d", i);
	pcibw_rows_free(&rs);
}

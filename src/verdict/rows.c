/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Grouping measured rows (contract: a row of output is a group of input lines that share every
 * key: source, series (the column prefix or stream role), test, interface, size and its
 * convention, direction, work, cpu_mhz, cores, queues, threads and streams). A line without a
 * size is its own row: two such lines may well be two sizes. Each group keeps running sums, so
 * memory grows with the number of groups, never with the input's length.
 */
#include "evidence.h"
#include "pcibw/verdict.h"
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One 64-bit word into the hash: a multiply spreads it, the rotation keeps the high bits moving. */
static inline uint64_t mix64(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 29);
}

static inline uint64_t mixd(uint64_t h, double d)
{
	/* every NAN hashes alike (no key value is negative); adding +0 makes -0 the +0 it equals */
	d = isnan(d) ? -1 : d + 0.0;
	uint64_t w;
	memcpy(&w, &d, sizeof w);
	return mix64(h, w);
}

/* A string by 8-byte words (the last one zero-padded), then its length; "" (the usual series,
 * test and interface) without a call. */
static inline uint64_t mixs(uint64_t h, const char *s)
{
	if (!s[0])
		return mix64(h, 0);
	size_t n = strlen(s), i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = mix64(h, w);
	}
	if (i < n) {
		uint64_t w = 0;
		memcpy(&w, s + i, n - i);
		h = mix64(h, w);
	}
	return mix64(h, n);
}

static inline bool same_d(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* strncmp(a, b, n) == 0, with two empty strings (the usual test and interface) told at once */
static inline bool same_text(const char *a, const char *b, size_t n)
{
	return (!a[0] && !b[0]) || !strncmp(a, b, n);
}

static uint64_t src_hash(const char *source)
{
	return mixs(1469598103934665603ull, source);
}

/* The numeric part of a key, the same for a measured line and a row. */
struct nkey {
	double size, work, mhz, cores, queues, threads, streams;
	int conv, dir;
	unsigned line; /* the line, for a line without a size (its own row); 0 otherwise */
	unsigned machine;
};

static struct nkey key_of_m(const struct pcibw_measured *m)
{
	return (struct nkey){
	    m->size_bytes, m->work,    m->cpu_mhz,	  m->cores,	m->queues,
	    m->threads,	   m->streams, (int)m->size_conv, m->direction, isnan(m->size_bytes) ? m->line : 0,
	    m->machine_no};
}

static struct nkey key_of_r(const struct pcibw_row *r)
{
	return (struct nkey){r->size_bytes, r->work,
			     r->cpu_mhz,    r->cores,
			     r->queues,	    r->threads,
			     r->streams,    (int)r->size_conv,
			     r->direction,  isnan(r->size_bytes) ? r->first_line : 0,
			     r->machine_no};
}

static uint64_t key_hash(uint64_t h, const char *series, const char *test, const char *iface, struct nkey k)
{
	h = mixs(h, series);
	h = mixs(h, test);
	h = mixs(h, iface);
	h = mixd(h, k.size);
	h = mix64(h, (uint64_t)(unsigned)k.conv << 32 | (unsigned)k.dir);
	h = mix64(h, (uint64_t)k.line << 32 | k.machine);
	h = mixd(h, k.work);
	h = mixd(h, k.cores);
	h = mixd(h, k.queues);
	h = mixd(h, k.threads);
	h = mixd(h, k.streams);
	return mixd(h, k.mhz);
}

static bool key_eq(const struct pcibw_row *r, const struct pcibw_measured *m)
{
	struct nkey a = key_of_r(r), b = key_of_m(m);
	/* cheap comparisons first: the strings are compared only for a likely match */
	return same_d(a.size, b.size) && a.conv == b.conv && a.dir == b.dir && a.line == b.line &&
	       a.machine == b.machine && same_d(a.work, b.work) && same_d(a.mhz, b.mhz) &&
	       same_d(a.cores, b.cores) && same_d(a.queues, b.queues) && same_d(a.threads, b.threads) &&
	       same_d(a.streams, b.streams) && same_text(r->series, m->series, sizeof r->series) &&
	       same_text(r->test, m->test, sizeof r->test - 1) &&
	       same_text(r->iface, m->iface, sizeof r->iface - 1) &&
	       !strcmp(r->source, m->source ? m->source : "");
}

static uint64_t row_hash(const struct pcibw_row *r)
{
	return key_hash(src_hash(r->source), r->series, r->test, r->iface, key_of_r(r));
}

static int rehash(struct pcibw_rows *rs, int hcap)
{
	int *h = malloc(sizeof *h * (size_t)hcap);
	if (!h)
		return -1;
	for (int i = 0; i < hcap; i++)
		h[i] = -1;
	for (int i = 0; i < rs->n; i++) {
		size_t k = row_hash(&rs->v[i]) & (size_t)(hcap - 1);
		while (h[k] >= 0)
			k = (k + 1) & (size_t)(hcap - 1);
		h[k] = i;
	}
	free(rs->hash);
	rs->hash = h;
	rs->hcap = hcap;
	return 0;
}

static void add(double *s, long *n, double v)
{
	if (!isnan(v)) {
		*s += v;
		(*n)++;
	}
}

int pcibw_rows_add(struct pcibw_rows *rs, const struct pcibw_measured *m, struct pcibw_err *err)
{
	const char *src = m->source ? m->source : "";
	if (rs->hcap == 0 && rehash(rs, 64))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	bool same_src = rs->n && rs->last_src_row >= 0 && rs->last_src_row < rs->n &&
			!strcmp(rs->v[rs->last_src_row].source, src);
	if (!same_src) {
		rs->last_src_hash = src_hash(src);
		rs->last_src_row = -1;
	}
	uint64_t hv = key_hash(rs->last_src_hash, m->series, m->test, m->iface, key_of_m(m));
	size_t k = hv & (size_t)(rs->hcap - 1);
	struct pcibw_row *r = NULL;
	while (rs->hash[k] >= 0) {
		if (key_eq(&rs->v[rs->hash[k]], m)) {
			r = &rs->v[rs->hash[k]];
			break;
		}
		k = (k + 1) & (size_t)(rs->hcap - 1);
	}
	if (!r) {
		if (rs->n == rs->cap) {
			int nc = rs->cap ? rs->cap * 2 : 32;
			struct pcibw_row *nv = realloc(rs->v, sizeof *nv * (size_t)nc);
			if (!nv)
				return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			rs->v = nv;
			rs->cap = nc;
		}
		r = &rs->v[rs->n];
		memset(r, 0, sizeof *r);
		snprintf(r->source, sizeof r->source, "%s", src);
		snprintf(r->series, sizeof r->series, "%s", m->series);
		r->size_bytes = m->size_bytes;
		r->size_conv = m->size_conv;
		r->direction = m->direction;
		r->work = m->work;
		r->cpu_mhz = m->cpu_mhz;
		r->cores = m->cores;
		r->queues = m->queues;
		r->threads = m->threads;
		r->streams = m->streams;
		snprintf(r->test, sizeof r->test, "%s", m->test);
		snprintf(r->iface, sizeof r->iface, "%s", m->iface);
		r->tcp = m->tcp;
		r->mss = m->mss;
		r->ipv6 = m->ipv6;
		r->first_line = m->line;
		r->machine_no = m->machine_no;
		r->gbps_basis = m->gbps_basis;
		rs->hash[k] = rs->n++;
		if (rs->n * 2 > rs->hcap && rehash(rs, rs->hcap * 2))
			return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	}
	if (rs->last_src_row < 0)
		rs->last_src_row = (int)(r - rs->v);
	r->count++;
	add(&r->s_pps, &r->n_pps, m->pps);
	add(&r->s_gbps, &r->n_gbps, m->gbps);
	add(&r->s_cpu, &r->n_cpu, m->cpu_pct);
	add(&r->s_core, &r->n_core, m->core_max_pct);
	add(&r->s_rcpu, &r->n_rcpu, m->remote_cpu_pct);
	add(&r->s_sd, &r->n_sd, m->sd_us_per_kb);
	if (m->n_cores > r->n_cores)
		r->n_cores = m->n_cores;
	return PCIBW_OK;
}

static double mean(double s, long n, double scale)
{
	return n ? s / (double)n * scale : NAN;
}

void pcibw_rows_finish(struct pcibw_rows *rs)
{
	for (int i = 0; i < rs->n; i++) {
		struct pcibw_row *r = &rs->v[i];
		r->pps = mean(r->s_pps, r->n_pps, 1);
		r->gbps = mean(r->s_gbps, r->n_gbps, 1);
		r->cpu_util = mean(r->s_cpu, r->n_cpu, 0.01);
		r->core_util = mean(r->s_core, r->n_core, 0.01);
		r->remote_util = mean(r->s_rcpu, r->n_rcpu, 0.01);
		r->sd_us_per_kb = mean(r->s_sd, r->n_sd, 1);
		r->cycles_per_packet = NAN;
		r->rate_mismatch = NAN;
		r->pattern = r->direction;
		r->packet_bytes = r->basis_bytes = NAN;
		r->bus_mpps = r->bus_gbps = r->wire_mpps = r->wire_gbps = NAN;
		r->machine = NULL;
		r->bus_util = r->wire_util = r->elasticity = NAN;
		r->flat_pps_lo = r->flat_pps_hi = r->flat_size_lo = r->flat_size_hi = NAN;
		r->cores_elasticity = r->cores_lo = r->cores_hi = r->cores_pps_lo = r->cores_pps_hi = NAN;
		r->cores_of = NULL;
		r->cpu_from = NULL;
		r->input_size_bytes = r->segment_bytes = NAN;
		r->segment_from = NULL;
		r->fragments = 0;
		r->mtu = NAN;
		r->verdict = PCIBW_V_UNDETERMINED;
	}
}

void pcibw_row_rates(struct pcibw_row *r)
{
	if (r->size_conv == PCIBW_SIZE_WRITE)
		return; /* a write size says nothing of packets: keep the bit rate as given */
	if (r->segment_bytes > 0 || r->fragments > 0)
		return; /* packets from segments or fragments (pcibw_rows_packets): the bit rate stays
			 * the payload as measured */
	if (!isnan(r->pps) && r->pps > 0 && !isnan(r->gbps) && r->basis_bytes > 0)
		r->rate_mismatch = r->gbps / (r->pps * r->basis_bytes * 8 / 1e9) - 1;
	if (isnan(r->pps) && !isnan(r->gbps) && r->basis_bytes > 0)
		r->pps = r->gbps * 1e9 / (8 * r->basis_bytes);
	if (!isnan(r->pps) && r->packet_bytes > 0)
		r->gbps = r->pps * r->packet_bytes * 8 / 1e9;
}

void pcibw_rows_cpu(struct pcibw_rows *rs, const struct pcibw_cpu_sample *c)
{
	if (!c || !c->valid)
		return;
	for (int i = 0; i < rs->n; i++) {
		struct pcibw_row *r = &rs->v[i];
		if (!isnan(r->cpu_util) || !isnan(r->core_util))
			continue;
		r->cpu_util = c->all_busy / 100;
		r->core_util = c->core_busy / 100; /* NAN when the report has only "all" */
		r->cpu_from = c;
	}
}

void pcibw_row_evidence(struct pcibw_row *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	evidence_vadd(r->evidence, &r->n_evidence, PCIBW_MAX_EVIDENCE, fmt, ap);
	va_end(ap);
}

void pcibw_rows_free(struct pcibw_rows *rs)
{
	for (int i = 0; i < rs->n; i++)
		for (int k = 0; k < rs->v[i].n_evidence; k++)
			free(rs->v[i].evidence[k]);
	free(rs->v);
	free(rs->hash);
	memset(rs, 0, sizeof *rs);
}

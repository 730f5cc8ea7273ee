/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Grouping measured rows (contract: a row of output is a group of input lines that share every
 * key: source, series (the column prefix or stream role), test, interface, size and its
 * convention, direction, work, cpu_mhz, cores, queues, threads and streams). A line without a
 * size is its own row: two such lines may well be two sizes. Each group keeps running sums, so
 * memory grows with the number of groups, never with the input's length.
 */
#include "pcibw/verdict.h"
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One 64-bit word into a string's hash: a multiply spreads it, the rotation keeps the high bits
 * moving. */
static inline uint64_t mix64(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 29);
}

/* A key number as the word hashed: every NAN alike (no key value is negative), and -0 the +0 it
 * equals (adding +0 does that). */
static inline uint64_t dbits(double d)
{
	d = isnan(d) ? -1 : d + 0.0;
	uint64_t w;
	memcpy(&w, &d, sizeof w);
	return w;
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

/* Equal numbers: the same bits (a NAN and its copy, the usual case), else by value (-0 == 0). */
static inline bool same_d(double a, double b)
{
	uint64_t x, y;
	memcpy(&x, &a, sizeof x);
	memcpy(&y, &b, sizeof y);
	return x == y || a == b || (isnan(a) && isnan(b));
}

/* strncmp(a, b, n) == 0, with two empty strings (the usual test and interface) told at once */
static inline bool same_text(const char *a, const char *b, size_t n)
{
	return (!a[0] && !b[0]) || !strncmp(a, b, n);
}

/* The numeric part of a key, the same for a measured line and a row. */
struct nkey {
	double size, work, mhz, cores, queues, threads, streams;
	int conv, dir;
	unsigned line; /* the line, for a line without a size (its own row); 0 otherwise */
	unsigned machine;
};

static inline struct nkey key_of_m(const struct pcibw_measured *m)
{
	return (struct nkey){
	    m->size_bytes, m->work,    m->cpu_mhz,	  m->cores,	m->queues,
	    m->threads,	   m->streams, (int)m->size_conv, m->direction, isnan(m->size_bytes) ? m->line : 0,
	    m->machine_no};
}

static inline struct nkey key_of_r(const struct pcibw_row *r)
{
	return (struct nkey){r->size_bytes, r->work,
			     r->cpu_mhz,    r->cores,
			     r->queues,	    r->threads,
			     r->streams,    (int)r->size_conv,
			     r->direction,  isnan(r->size_bytes) ? r->first_line : 0,
			     r->machine_no};
}

/* The hash of the key strings: source, series, test, interface. */
static uint64_t strings_hash(const char *source, const char *series, const char *test, const char *iface)
{
	uint64_t h = mixs(1469598103934665603ull, source);
	h = mixs(h, series);
	h = mixs(h, test);
	return mixs(h, iface);
}

/* The numbers into the strings' hash h: one multiply per word, then a final mix of all 64 bits
 * into the low ones the table is indexed by (MurmurHash3's fmix64). */
static inline uint64_t numbers_hash(uint64_t h, struct nkey k)
{
	const uint64_t K = 0x9E3779B97F4A7C15ull;
	h = (h ^ dbits(k.size)) * K;
	h = (h ^ ((uint64_t)(unsigned)k.conv << 32 | (unsigned)k.dir)) * K;
	h = (h ^ ((uint64_t)k.line << 32 | k.machine)) * K;
	h = (h ^ dbits(k.work)) * K;
	h = (h ^ dbits(k.cores)) * K;
	h = (h ^ dbits(k.queues)) * K;
	h = (h ^ dbits(k.threads)) * K;
	h = (h ^ dbits(k.streams)) * K;
	h = (h ^ dbits(k.mhz)) * K;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/* The key numbers lie alike in a row and a measured line, size_bytes to streams: */
#define KEY_AT(s, f) (offsetof(struct s, f) - offsetof(struct s, size_bytes))
#define SAME_AT(f) KEY_AT(pcibw_row, f) == KEY_AT(pcibw_measured, f)
_Static_assert(SAME_AT(size_conv) && SAME_AT(direction) && SAME_AT(work) && SAME_AT(cpu_mhz) &&
		   SAME_AT(cores) && SAME_AT(queues) && SAME_AT(threads) && SAME_AT(streams),
	       "the key numbers of pcibw_row and pcibw_measured are laid out alike");
#define KEY_BYTES (KEY_AT(pcibw_row, streams) + sizeof(double))

static inline bool numbers_eq(const struct pcibw_row *r, const struct pcibw_measured *m)
{
	/* the same bytes are the same key (the usual case: a row is a copy of its first line's);
	 * else by value, where -0 == 0 and NAN matches NAN */
	if (!memcmp(&r->size_bytes, &m->size_bytes, KEY_BYTES) && r->machine_no == m->machine_no &&
	    (!isnan(m->size_bytes) || r->first_line == m->line))
		return true;
	struct nkey a = key_of_r(r), b = key_of_m(m);
	return same_d(a.size, b.size) && a.conv == b.conv && a.dir == b.dir && a.line == b.line &&
	       a.machine == b.machine && same_d(a.work, b.work) && same_d(a.mhz, b.mhz) &&
	       same_d(a.cores, b.cores) && same_d(a.queues, b.queues) && same_d(a.threads, b.threads) &&
	       same_d(a.streams, b.streams);
}

static inline bool strings_eq(const struct pcibw_row *r, const struct pcibw_measured *m, const char *src)
{
	return same_text(r->series, m->series, sizeof r->series) &&
	       same_text(r->test, m->test, sizeof r->test - 1) &&
	       same_text(r->iface, m->iface, sizeof r->iface - 1) && !strcmp(r->source, src);
}

static uint64_t row_hash(const struct pcibw_row *r)
{
	return numbers_hash(strings_hash(r->source, r->series, r->test, r->iface), key_of_r(r));
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
	/* a line usually has the key strings of the line before: then they are hashed and compared
	 * once, and a row of the same strings (the same rep) is told by its numbers alone */
	int last = rs->last_src_row;
	bool same = last >= 0 && last < rs->n && strings_eq(&rs->v[last], m, src);
	if (!same)
		rs->last_src_hash = strings_hash(src, m->series, m->test, m->iface);
	int rep = same ? rs->rep[last] : -1;
	uint64_t hv = numbers_hash(rs->last_src_hash, key_of_m(m));
	size_t k = hv & (size_t)(rs->hcap - 1);
	struct pcibw_row *r = NULL;
	while (rs->hash[k] >= 0) {
		int i = rs->hash[k];
		if (numbers_eq(&rs->v[i], m) && (rs->rep[i] == rep || strings_eq(&rs->v[i], m, src))) {
			r = &rs->v[i];
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
			int *nr = realloc(rs->rep, sizeof *nr * (size_t)nc);
			if (!nr)
				return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			rs->rep = nr;
			rs->cap = nc;
		}
		rs->rep[rs->n] = rep >= 0 ? rep : rs->n;
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
		r->concurrent = m->concurrent;
		r->core_is_process = m->core_is_process;
		r->poll_mode = m->poll_mode;
		r->loopback = m->loopback;
		r->mss = m->mss;
		r->tcp_path = m->tcp_path;
		r->ipv6 = m->ipv6;
		r->first_line = m->line;
		r->machine_no = m->machine_no;
		r->gbps_basis = m->gbps_basis;
		rs->hash[k] = rs->n++;
		if (rs->n * 2 > rs->hcap && rehash(rs, rs->hcap * 2))
			return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	}
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
		r->bus_mpps_low = r->bus_mpps_high = r->bus_gbps_low = r->bus_gbps_high = NAN;
		r->bus_util_low = r->bus_util_high = NAN;
		r->machine = NULL;
		r->bus_util = r->wire_util = r->elasticity = NAN;
		r->flat_pps_lo = r->flat_pps_hi = r->flat_size_lo = r->flat_size_hi = NAN;
		r->cores_elasticity = r->cores_lo = r->cores_hi = r->cores_pps_lo = r->cores_pps_hi = NAN;
		r->cores_of = NULL;
		r->cpu_from = r->cpu_from_unused = NULL;
		r->process_core_util = NAN;
		r->input_size_bytes = r->segment_bytes = NAN;
		r->segment_from = NULL;
		r->fragments = 0;
		r->mtu = NAN;
		r->tcp_window_share = NAN;
		r->tcp_limit = false;
		r->polls = false;
		r->partner = -1;
		r->limits = 0;
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
		if (r->cpu_from)
			continue; /* an earlier report gave it */
		bool own_host = !isnan(r->cpu_util) || (!isnan(r->core_util) && !r->core_is_process);
		if (own_host) {
			if (!r->cpu_from_unused)
				r->cpu_from_unused = c;
			continue;
		}
		/* the host's figure overrides one process's: the busiest core is at least as busy
		 * as the process that ran on it, and at least as busy as the report says */
		r->process_core_util = r->core_util;
		double host_core = c->core_busy / 100; /* NAN when the report has only "all" */
		r->cpu_util = c->all_busy / 100;
		r->core_util = isnan(r->process_core_util)	  ? host_core
			       : isnan(host_core)		  ? r->process_core_util
			       : host_core > r->process_core_util ? host_core
								  : r->process_core_util;
		r->cpu_from = c;
	}
}

void pcibw_rows_free(struct pcibw_rows *rs)
{
	for (int i = 0; i < rs->n; i++)
		for (int k = 0; k < rs->v[i].n_evidence; k++)
			free(rs->v[i].evidence[k]);
	free(rs->v);
	free(rs->rep);
	free(rs->hash);
	memset(rs, 0, sizeof *rs);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Generic CSV: the first record is the header; columns are recognised by name (columns.c) or
 * by `--col ROLE=HEADER`. Each rate prefix is a series: a line with send_kpps and recv_kpps gives
 * two rows (series "send" and "recv"), and the prefix names the direction when no direction
 * column does (send/tx/sent -> tx, recv/rx/received -> rx).
 */
#include "columns.h"
#include "ingest_int.h"
#include "pcibw/device.h"
#include "pcibw/nic.h"
#include "src/util/number_fast.h"
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_SERIES 8
#define MAX_CORES 256

struct series {
	char prefix[PCIBW_MEASURE_TEXT];
	int dir;			 /* the direction the prefix names (prefix_direction) */
	int pkt_col, bit_col, count_col; /* -1 when absent */
	enum rate_unit pkt_unit, bit_unit;
	double pkt_scale, bit_scale; /* ingest_rate_factor() of the units */
};

/* A number column read on every line, resolved once from the header: its field, its kind and
 * where its value goes in the measured row. */
struct numcol {
	int col;
	enum pcibw_value_kind kind;
	bool cpu;	       /* a CPU column (cpu_num: --cpu-scale, the fraction warning) */
	size_t off;	       /* of the double in struct pcibw_measured */
	double scale;	       /* 1, or --cpu-scale fraction's 100 for a CPU column */
	struct value_range vr; /* of kind */
};

struct csvctx {
	const struct pcibw_ingest_opts *opts;
	pcibw_row_cb cb;
	void *ctx;
	struct pcibw_ingest_stats *st;
	bool have_header;
	int ncols;
	struct series ser[MAX_SERIES];
	int nser;
	int time_col; /* time_s: when each line was measured */
	double time_lo, time_hi;
	int size_col, elapsed_col, cpu_col, core_max_col, remote_cpu_col, sd_col, remote_sd_col;
	int dir_col, work_col, mhz_col, iface_col, test_col;
	int cores_col, queues_col, threads_col, streams_col;
	int rtt_col, cwnd_col, window_col, poll_col;
	struct role size_role;
	int core_cols[MAX_CORES];
	int ncore;
	/* CPU values seen (as written) and the largest, for the fraction warning */
	long cpu_seen;
	double cpu_max;
	int cpu_first_col; /* a CPU column's index, for the warning; -1 */
	bool tcp_seen;	   /* a line of a TCP test */
	/* resolved from the header: the number columns in the order they are checked, the row
	 * every line starts from, and the ranges the per-line columns are held to */
	struct numcol num[12];
	int nnum;
	struct pcibw_measured tmpl, m; /* m: the row being built, kept between lines (record()) */
	double cpu_scale;
	struct value_range pct_vr, pps_vr, gbps_vr;
};

static const char *unit_words(enum rate_unit u)
{
	static const char *w[] = {"pps",    "kpps",   "Mpps",	      "kbit/s",
				  "Mbit/s", "Gbit/s", "MB/s (bytes)", "GB/s (bytes)"};
	return (unsigned)u < sizeof w / sizeof w[0] ? w[u] : "?";
}

/* What a recognised column is read as, in a few words. */
static void use_words(const struct role *r, char *buf, size_t n)
{
	switch (r->kind) {
	case ROLE_SIZE:
		snprintf(buf, n, "size (%s)",
			 r->conv == PCIBW_SIZE_OPTION ? "--size-is" : pcibw_size_is_name(r->conv));
		break;
	case ROLE_RATE:
		snprintf(buf, n, "%s%srate in %s", r->prefix, r->prefix[0] ? " " : "", unit_words(r->unit));
		break;
	case ROLE_COUNT:
		snprintf(buf, n, "%s%smessage count", r->prefix, r->prefix[0] ? " " : "");
		break;
	case ROLE_CPU:
		snprintf(buf, n, "cpu_pct (all CPUs)");
		break;
	case ROLE_CORE:
		snprintf(buf, n, "cpuN_pct (one core)");
		break;
	default:
		snprintf(buf, n, "%s", r->canon ? r->canon : "?");
	}
}

/* Record column i's use ("" = not read) for the input line and the JSON. */
static void column_use(struct pcibw_ingest_stats *st, const char *header, const char *use)
{
	if (st->n_columns >= PCIBW_MAX_COLUMNS)
		return;
	struct pcibw_ingest_column *c = &st->columns[st->n_columns++];
	snprintf(c->header, sizeof c->header, "%s", header);
	snprintf(c->use, sizeof c->use, "%s", use);
}

static int prefix_direction(const char *p)
{
	static const char *tx[] = {"send", "sent", "tx", "sender"},
			  *rx[] = {"recv", "received", "rx", "receiver"};
	for (unsigned i = 0; i < 4; i++) {
		if (!strcmp(p, tx[i]))
			return PCIBW_PAT_TX;
		if (!strcmp(p, rx[i]))
			return PCIBW_PAT_RX;
	}
	return PCIBW_DIR_UNSET;
}

static int series_for(struct csvctx *c, const char *prefix)
{
	for (int i = 0; i < c->nser; i++)
		if (!strcmp(c->ser[i].prefix, prefix))
			return i;
	if (c->nser >= MAX_SERIES)
		return -1;
	struct series *s = &c->ser[c->nser];
	snprintf(s->prefix, sizeof s->prefix, "%s", prefix);
	s->dir = prefix_direction(s->prefix);
	s->pkt_col = s->bit_col = s->count_col = -1;
	return c->nser++;
}

static bool ends_with_mbs(const char *h)
{
	size_t n = strlen(h);
	while (n && (h[n - 1] == ' ' || h[n - 1] == ')' || h[n - 1] == ']'))
		n--;
	return n >= 4 && (!strncmp(h + n - 4, "mb/s", 4) || !strncmp(h + n - 4, "gb/s", 4));
}

static void num_add(struct csvctx *c, int col, enum pcibw_value_kind k, bool cpu, size_t off)
{
	if (col >= 0)
		c->num[c->nnum++] =
		    (struct numcol){col, k, cpu, off, cpu ? c->cpu_scale : 1, ingest_value_range(k)};
}

/* What every line repeats, resolved once: the number columns in the order record() checks them
 * (the first bad one is the one reported), the scales and ranges, and the row a line starts as. */
static void plan(struct csvctx *c, const struct csvr_record *rec)
{
	c->cpu_scale = c->opts->cpu_scale == PCIBW_CPU_SCALE_FRACTION ? 100 : 1;
	c->pct_vr = ingest_value_range(PCIBW_VAL_PCT);
	c->pps_vr = ingest_value_range(PCIBW_VAL_PPS);
	c->gbps_vr = ingest_value_range(PCIBW_VAL_GBPS);
	c->nnum = 0;
#define AT(f) offsetof(struct pcibw_measured, f)
	num_add(c, c->size_col, PCIBW_VAL_SIZE, false, AT(size_bytes));
	num_add(c, c->work_col, PCIBW_VAL_WORK, false, AT(work));
	num_add(c, c->mhz_col, PCIBW_VAL_MHZ, false, AT(cpu_mhz));
	num_add(c, c->cores_col, PCIBW_VAL_PARALLEL, false, AT(cores));
	num_add(c, c->queues_col, PCIBW_VAL_PARALLEL, false, AT(queues));
	num_add(c, c->threads_col, PCIBW_VAL_PARALLEL, false, AT(threads));
	num_add(c, c->streams_col, PCIBW_VAL_PARALLEL, false, AT(streams));
	num_add(c, c->cpu_col, PCIBW_VAL_PCT, true, AT(cpu_pct));
	num_add(c, c->core_max_col, PCIBW_VAL_PCT, true, AT(core_max_pct));
	num_add(c, c->remote_cpu_col, PCIBW_VAL_PCT, true, AT(remote_cpu_pct));
	num_add(c, c->sd_col, PCIBW_VAL_SD, false, AT(sd_us_per_kb));
	num_add(c, c->remote_sd_col, PCIBW_VAL_SD, false, AT(remote_sd_us_per_kb));
#undef AT
	for (int s = 0; s < c->nser; s++) {
		c->ser[s].pkt_scale = ingest_rate_factor(c->ser[s].pkt_unit);
		c->ser[s].bit_scale = ingest_rate_factor(c->ser[s].bit_unit);
	}
	pcibw_measured_init(&c->tmpl);
	c->tmpl.source = rec->file;
	if (c->size_col >= 0)
		c->tmpl.size_conv = c->size_role.conv;
	if (c->nser == 1)
		memcpy(c->tmpl.series, c->ser[0].prefix, sizeof c->tmpl.series);
	c->m = c->tmpl;
}

static int header(struct csvctx *c, const struct csvr_record *rec, struct pcibw_err *err)
{
	c->have_header = true;
	c->st->header_line = rec->line;
	c->ncols = rec->n;
	c->time_col = -1;
	c->size_col = c->elapsed_col = c->cpu_col = c->core_max_col = c->remote_cpu_col = -1;
	c->sd_col = c->remote_sd_col = c->dir_col = c->work_col = c->mhz_col = c->iface_col = c->test_col =
	    -1;
	c->cores_col = c->queues_col = c->threads_col = c->streams_col = c->cpu_first_col = -1;
	c->rtt_col = c->cwnd_col = c->window_col = c->poll_col = -1;
	for (int i = 0; i < rec->n; i++) {
		struct role r;
		const char *h = rec->f[i];
		int k = 0;
		bool mapped = false;
		for (int m = 0; m < c->opts->n_colmap; m++)
			if (!strcmp(c->opts->colmap[m].header, h)) {
				k = ingest_role_parse(c->opts->colmap[m].role, &r);
				mapped = true;
			}
		if (!mapped)
			k = ingest_role_parse(h, &r);
		if (k < 0) {
			bool ambiguous = ends_with_mbs(h);
			return pcibw_fail(
			    err, PCIBW_EINPUT,
			    "%s:%u:%u: column '%s' looks like a rate but its unit is not one pcibw "
			    "knows (expected a header NAME or PREFIX_NAME with pps, kpps, mpps, mbps, "
			    "gbps or MB/s, or --col ROLE='%s')%s",
			    rec->file, rec->line, ingest_csvr_col(rec, i), h, h,
			    ambiguous ? "; 'mb/s' is ambiguous: write MB/s for megabytes or Mb/s "
					"(Mbit/s) for megabits"
				      : "");
		}
		if (k == 0) {
			const char *near = ingest_role_suggest(h);
			column_use(c->st, h, "");
			if (near)
				ingest_stats_warn(
				    c->st,
				    "%s:%u:%u: column '%s' not used: did you mean %s? (give --col %s='%s')",
				    rec->file, rec->line, ingest_csvr_col(rec, i), h, near,
				    !strcmp(near, "rate") ? "gbps" : near, h);
			else
				ingest_stats_warn(
				    c->st,
				    "%s:%u:%u: column '%s' not used: not a name pcibw knows (give --col "
				    "ROLE='%s' to read it)",
				    rec->file, rec->line, ingest_csvr_col(rec, i), h, h);
			continue;
		}
		char use[64];
		use_words(&r, use, sizeof use);
		int *slot = NULL;
		switch (r.kind) {
		case ROLE_SIZE:
			if (c->size_col < 0) {
				c->size_col = i;
				c->size_role = r;
			} else {
				ingest_stats_warn(
				    c->st,
				    "%s:%u:%u: column '%s' not used: column '%s' already gives the size",
				    rec->file, rec->line, ingest_csvr_col(rec, i), h, rec->f[c->size_col]);
				use[0] = '\0';
			}
			break;
		case ROLE_RATE:
		case ROLE_COUNT: {
			int s = series_for(c, r.prefix);
			if (s < 0)
				return pcibw_fail(err, PCIBW_EINPUT, "%s:%u:%u: more than %d rate prefixes",
						  rec->file, rec->line, ingest_csvr_col(rec, i), MAX_SERIES);
			struct series *se = &c->ser[s];
			int *same = r.kind == ROLE_COUNT      ? &se->count_col
				    : rate_is_packets(r.unit) ? &se->pkt_col
							      : &se->bit_col;
			if (*same >= 0)
				return pcibw_fail(
				    err, PCIBW_EINPUT,
				    "%s:%u:%u: column '%s' gives the same %s as "
				    "column '%s' (expected one packet rate and one bit rate per series: "
				    "give them different prefixes, e.g. rx_kpps and tx_kpps)",
				    rec->file, rec->line, ingest_csvr_col(rec, i), h,
				    r.kind == ROLE_COUNT      ? "count"
				    : rate_is_packets(r.unit) ? "packet rate"
							      : "bit rate",
				    rec->f[*same]);
			if (r.kind == ROLE_COUNT)
				se->count_col = i;
			else if (rate_is_packets(r.unit)) {
				se->pkt_col = i;
				se->pkt_unit = r.unit;
			} else {
				se->bit_col = i;
				se->bit_unit = r.unit;
			}
			break;
		}
		case ROLE_ELAPSED:
			slot = &c->elapsed_col;
			break;
		case ROLE_TIME:
			slot = &c->time_col;
			break;
		case ROLE_CPU:
			slot = &c->cpu_col;
			break;
		case ROLE_CORES:
			slot = &c->cores_col;
			break;
		case ROLE_QUEUES:
			slot = &c->queues_col;
			break;
		case ROLE_THREADS:
			slot = &c->threads_col;
			break;
		case ROLE_STREAMS:
			slot = &c->streams_col;
			break;
		case ROLE_CORE_MAX:
			slot = &c->core_max_col;
			break;
		case ROLE_REMOTE_CPU:
			slot = &c->remote_cpu_col;
			break;
		case ROLE_SD:
			slot = &c->sd_col;
			break;
		case ROLE_REMOTE_SD:
			slot = &c->remote_sd_col;
			break;
		case ROLE_DIRECTION:
			slot = &c->dir_col;
			break;
		case ROLE_WORK:
			slot = &c->work_col;
			break;
		case ROLE_CPU_MHZ:
			slot = &c->mhz_col;
			break;
		case ROLE_IFACE:
			slot = &c->iface_col;
			break;
		case ROLE_TEST:
			slot = &c->test_col;
			break;
		case ROLE_RTT:
			slot = &c->rtt_col;
			break;
		case ROLE_CWND:
			slot = &c->cwnd_col;
			break;
		case ROLE_WINDOW:
			slot = &c->window_col;
			break;
		case ROLE_POLL_MODE:
			slot = &c->poll_col;
			break;
		case ROLE_CORE:
			if (c->ncore < MAX_CORES)
				c->core_cols[c->ncore++] = i;
			else {
				ingest_stats_warn(
				    c->st, "%s:%u:%u: column '%s' not used: more than %d per-core columns",
				    rec->file, rec->line, ingest_csvr_col(rec, i), h, MAX_CORES);
				use[0] = '\0';
			}
			break;
		case ROLE_NONE:
			break;
		}
		if (slot && *slot < 0)
			*slot = i;
		else if (slot) {
			ingest_stats_warn(
			    c->st, "%s:%u:%u: column '%s' not used: column '%s' already gives that figure",
			    rec->file, rec->line, ingest_csvr_col(rec, i), h, rec->f[*slot]);
			use[0] = '\0';
		}
		if (use[0] && (r.kind == ROLE_CPU || r.kind == ROLE_CORE || r.kind == ROLE_CORE_MAX) &&
		    c->cpu_first_col < 0)
			c->cpu_first_col = i;
		column_use(c->st, h, use);
	}
	/* a --col naming a header this file does not have: said, not silently ignored */
	for (int m = 0; m < c->opts->n_colmap; m++) {
		bool found = false;
		for (int i = 0; i < rec->n && !found; i++)
			found = !strcmp(c->opts->colmap[m].header, rec->f[i]);
		if (!found) {
			char names[512] = "";
			for (int i = 0; i < rec->n && strlen(names) < 400; i++)
				snprintf(names + strlen(names), sizeof names - strlen(names), "%s'%s'",
					 i ? ", " : "", rec->f[i]);
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:1: --col %s=%s: no column '%s' in the header "
					  "(expected one of %s%s)",
					  rec->file, rec->line, c->opts->colmap[m].role,
					  c->opts->colmap[m].header, c->opts->colmap[m].header, names,
					  strlen(names) >= 400 ? ", ..." : "");
		}
	}
	bool any = false;
	for (int s = 0; s < c->nser; s++)
		any |= c->ser[s].pkt_col >= 0 || c->ser[s].bit_col >= 0 ||
		       (c->ser[s].count_col >= 0 && c->elapsed_col >= 0);
	if (!any)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:%u:1: no rate column in the header (expected a column named pps, kpps, "
				  "mpps, mbps, gbps or MB/s, optionally PREFIX_NAME, or MSGS with elapsed_s; "
				  "or --col ROLE=HEADER)",
				  rec->file, rec->line);
	plan(c, rec);
	return PCIBW_OK;
}

int ingest_direction_parse(const char *text, int *dir)
{
	static const struct {
		const char *n;
		int d;
	} dirs[] = {
	    {"rx", PCIBW_PAT_RX},
	    {"tx", PCIBW_PAT_TX},
	    {"both", PCIBW_PAT_BOTH},
	    {"dma-read", PCIBW_PAT_DMA_READ},
	    {"dma-write", PCIBW_PAT_DMA_WRITE},
	    {"dma-rw", PCIBW_PAT_DMA_RW},
	    {"rx+tx", PCIBW_DIR_RX_TX},
	};
	for (unsigned i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		if (!strcasecmp(text, dirs[i].n)) {
			*dir = dirs[i].d;
			return 1;
		}
	return 0;
}

/* The CPU values as written (percent, or the fraction --cpu-scale fraction scaled by 100), for
 * the warning that they all look like fractions. */
static inline void cpu_seen(struct csvctx *c, double scaled)
{
	double v = scaled / c->cpu_scale;
	if (!c->cpu_seen++ || v > c->cpu_max)
		c->cpu_max = v;
}

/* A CPU field: percent, or a fraction times 100 with --cpu-scale fraction. */
static int cpu_num(struct csvctx *c, const struct csvr_record *rec, int i, double *out, struct pcibw_err *err)
{
	*out = NAN;
	if (i < 0 || ingest_blank(rec->f[i]))
		return PCIBW_OK;
	int st = ingest_check_field(rec, i, PCIBW_VAL_PCT, c->cpu_scale, out, err);
	if (st == PCIBW_EINPUT && c->cpu_scale == 100)
		snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
			 " (--cpu-scale fraction: CPU columns hold 0 to 1)");
	if (st == PCIBW_OK)
		cpu_seen(c, *out);
	return st;
}

/*
 * Field i when it is the short decimal nearly every value is (number_fast) and in range once
 * scaled: the value ingest_check_field() would give, with no call. false for anything else (blank,
 * sign, exponent, out of range, not a number), which the caller hands to the full check.
 */
static inline bool quick(const struct csvr_record *rec, int i, double scale, const struct value_range *vr,
			 double *out)
{
	double v;
	if (!number_fast(rec->f[i], rec->len[i], true, &v))
		return false;
	double s = v * scale;
	if (!(s <= vr->hi && s >= vr->lo && !(vr->lo_open && s <= vr->lo)))
		return false;
	*out = s;
	return true;
}

/* rtt_ms, cwnd_bytes, window_bytes: a TCP path of one sample, window x 8 / RTT (the window in
 * flight is the smaller of the two windows given) */
static int tcp_path_fields(struct csvctx *c, const struct csvr_record *rec, struct pcibw_measured *m,
			   struct pcibw_err *err)
{
	if (c->rtt_col < 0 && c->cwnd_col < 0 && c->window_col < 0)
		return PCIBW_OK;
	double rtt = NAN, cwnd = NAN, win = NAN;
	int st;
	if ((st = ingest_field_num(rec, c->rtt_col, PCIBW_VAL_SECONDS, &rtt, err)) ||
	    (st = ingest_field_num(rec, c->cwnd_col, PCIBW_VAL_COUNT, &cwnd, err)) ||
	    (st = ingest_field_num(rec, c->window_col, PCIBW_VAL_COUNT, &win, err)))
		return st;
	struct pcibw_tcp_path *p = &m->tcp_path;
	pcibw_tcp_path_init(p);
	double w = !isnan(win) && !(cwnd < win) ? win : cwnd;
	if (!isnan(rtt))
		p->rtt_us = rtt * 1e3;
	if (!isnan(cwnd))
		p->max_cwnd_bytes = cwnd;
	if (!(w > 0))
		return PCIBW_OK;
	m->tcp = true; /* a window in flight is TCP's */
	p->window_bytes = w;
	p->rwnd_limited = !isnan(win) && !isnan(cwnd) && win < cwnd;
	if (rtt > 0) {
		p->samples = 1;
		p->window_gbps = w * 8 / (rtt / 1e3) / 1e9;
	}
	return PCIBW_OK;
}

static int record(const struct csvr_record *rec, void *vctx, struct pcibw_err *err)
{
	struct csvctx *c = vctx;
	if (!c->have_header)
		return header(c, rec, err);
	c->st->lines++;
	if (rec->n != c->ncols) {
		char why[96];
		snprintf(why, sizeof why, "%d fields where the header has %d", rec->n, c->ncols);
		ingest_stats_skip(c->st, rec->file, rec->line, why);
		return PCIBW_OK;
	}
	/*
	 * The row starts as the last line's and every field a line sets is set again here or below:
	 * the number columns (a value or NAN), test, tcp and iface when their columns exist, the
	 * size convention, the per-core results, and per series its name, rates and direction.
	 */
	struct pcibw_measured *m = &c->m;
	m->source = rec->file;
	m->line = rec->line;
	m->size_conv = c->tmpl.size_conv;
	if (c->ncore) {
		m->n_cores = 0;
		if (c->cpu_col < 0)
			m->cpu_pct = NAN;
		if (c->core_max_col < 0)
			m->core_max_pct = NAN;
	}
	int st;
	for (int k = 0; k < c->nnum; k++) {
		const struct numcol *nc = &c->num[k];
		double *dst = (double *)((char *)m + nc->off);
		if (quick(rec, nc->col, nc->scale, &nc->vr, dst)) {
			if (nc->cpu)
				cpu_seen(c, *dst);
		} else if ((st = nc->cpu ? cpu_num(c, rec, nc->col, dst, err)
					 : ingest_field_num(rec, nc->col, nc->kind, dst, err))) {
			return st;
		}
	}
	if (c->test_col >= 0) {
		ingest_copy_text(m->test, rec->f[c->test_col]);
		m->tcp = strncasecmp(m->test, "TCP", 3) == 0;
		c->tcp_seen |= m->tcp;
	}
	if (c->iface_col >= 0)
		ingest_copy_text(m->iface, rec->f[c->iface_col]);
	if (m->tcp && c->size_col >= 0 && c->size_role.msg)
		m->size_conv = PCIBW_SIZE_WRITE;
	int dir = PCIBW_DIR_UNSET;
	if (c->dir_col >= 0 && !ingest_blank(rec->f[c->dir_col]) &&
	    !ingest_direction_parse(rec->f[c->dir_col], &dir))
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:%u:%u: direction '%s' (expected rx, tx, both, rx+tx, "
				  "dma-read, dma-write or dma-rw)",
				  rec->file, rec->line, ingest_csvr_col(rec, c->dir_col), rec->f[c->dir_col]);
	/* Per-core columns: the mean is the share of all CPUs, the highest the busiest core. */
	double sum = 0, mx = NAN;
	int nc = 0;
	for (int k = 0; k < c->ncore; k++) {
		double v;
		if (quick(rec, c->core_cols[k], c->cpu_scale, &c->pct_vr, &v))
			cpu_seen(c, v);
		else if ((st = cpu_num(c, rec, c->core_cols[k], &v, err)))
			return st;
		if (isnan(v))
			continue;
		sum += v;
		nc++;
		if (isnan(mx) || v > mx)
			mx = v;
	}
	if (nc) {
		m->n_cores = nc;
		if (isnan(m->cpu_pct))
			m->cpu_pct = sum / nc;
		if (isnan(m->core_max_pct))
			m->core_max_pct = mx;
	}
	if ((st = tcp_path_fields(c, rec, m, err)))
		return st;
	if (c->poll_col >= 0) {
		double v;
		if ((st = ingest_field_num(rec, c->poll_col, PCIBW_VAL_COUNT, &v, err)))
			return st;
		if (!isnan(v) && v != 0 && v != 1)
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:%u: poll_mode '%s' (expected 0, interrupts, or 1, a polling "
					  "receive path)",
					  rec->file, rec->line, ingest_csvr_col(rec, c->poll_col),
					  rec->f[c->poll_col]);
		m->poll_mode = isnan(v) ? PCIBW_NULL : (int)v;
	}
	double elapsed = NAN;
	if (c->elapsed_col >= 0 &&
	    (st = ingest_field_num(rec, c->elapsed_col, PCIBW_VAL_SECONDS, &elapsed, err)))
		return st;
	if (c->time_col >= 0) {
		double t;
		if ((st = ingest_field_num(rec, c->time_col, PCIBW_VAL_TIME, &t, err)))
			return st;
		if (!isnan(t) && (isnan(c->time_lo) || t < c->time_lo))
			c->time_lo = t;
		if (!isnan(t) && (isnan(c->time_hi) || t > c->time_hi))
			c->time_hi = t;
	}

	/* one row per series, built in place: only the series, its rates and direction differ */
	bool emitted = false;
	for (int s = 0; s < c->nser; s++) {
		const struct series *se = &c->ser[s];
		double v;
		if (c->nser > 1)
			memcpy(m->series, se->prefix, sizeof m->series);
		m->pps = m->gbps = NAN;
		m->gbps_basis = c->tmpl.gbps_basis;
		if (se->pkt_col >= 0 && !quick(rec, se->pkt_col, se->pkt_scale, &c->pps_vr, &m->pps) &&
		    !ingest_blank(rec->f[se->pkt_col]) &&
		    (st = ingest_check_field(rec, se->pkt_col, PCIBW_VAL_PPS, se->pkt_scale, &m->pps, err)))
			return st;
		if (se->bit_col >= 0) {
			if (quick(rec, se->bit_col, se->bit_scale, &c->gbps_vr, &m->gbps)) {
				m->gbps_basis = c->opts->rate_basis;
			} else if (!ingest_blank(rec->f[se->bit_col])) {
				if ((st = ingest_check_field(rec, se->bit_col, PCIBW_VAL_GBPS, se->bit_scale,
							     &m->gbps, err)))
					return st;
				m->gbps_basis = c->opts->rate_basis;
			}
		}
		if (isnan(m->pps) && !isnan(elapsed)) {
			if ((st = ingest_field_num(rec, se->count_col, PCIBW_VAL_COUNT, &v, err)))
				return st;
			if (!isnan(v))
				m->pps = v / elapsed;
		}
		if (isnan(m->pps) && isnan(m->gbps))
			continue;
		m->direction = dir != PCIBW_DIR_UNSET ? dir : se->dir;
		m->concurrent = dir == PCIBW_DIR_RX_TX;
		/* rx+tx: two streams at once, one each way, each at the line's rate (per direction,
		 * as for both): two rows, rx then tx, whose CPU figure covers both */
		for (int k = 0; k < (m->concurrent ? 2 : 1); k++) {
			if (m->concurrent)
				m->direction = k ? PCIBW_PAT_TX : PCIBW_PAT_RX;
			if ((st = c->cb(m, c->ctx, err)))
				return st;
			c->st->rows++;
		}
		emitted = true;
	}
	if (!emitted)
		ingest_stats_skip(c->st, rec->file, rec->line, "no rate value");
	return PCIBW_OK;
}

int ingest_csv(const struct ingest_src *src, const struct pcibw_ingest_opts *opts, pcibw_row_cb cb, void *ctx,
	       struct pcibw_ingest_stats *st, struct pcibw_err *err)
{
	struct csvctx c = {.opts = opts, .cb = cb, .ctx = ctx, .st = st, .time_lo = NAN, .time_hi = NAN};
	int r = ingest_csvr_run(src, record, &c, err);
	if (r == PCIBW_OK && !c.have_header)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:1:1: no header line (expected column names such as "
				  "frame_bytes,kpps,cpu_pct)",
				  src->name);
	if (r == PCIBW_OK && c.cpu_seen && c.cpu_max <= 1.0 && opts->cpu_scale == PCIBW_CPU_SCALE_AUTO)
		ingest_stats_warn(
		    st,
		    "%s: every CPU value (column '%s' and the other CPU columns) is at most 1.0: read "
		    "as percent (0.99 = 0.99 %%); if they are fractions of 1, give --cpu-scale fraction",
		    src->name,
		    c.cpu_first_col >= 0 && c.cpu_first_col < st->n_columns
			? st->columns[c.cpu_first_col].header
			: "cpu_pct");
	if (r == PCIBW_OK && c.have_header && c.size_col < 0)
		ingest_stats_note(
		    st,
		    "%s: no size column: each line is its own row (lines are averaged only when they "
		    "share every key, and without a size two lines may be two different sizes)",
		    src->name);
	if (r == PCIBW_OK && c.time_col >= 0 && !isnan(c.time_lo))
		/* the lines' times are no figure of a row (a row is the mean of lines of one key, from
		 * anywhere in the file): what they give is the span the input covers */
		ingest_stats_note(st, "%s: measured from %s = %.3f s to %.3f s (%.3f s)", src->name,
				  c.time_col < st->n_columns ? st->columns[c.time_col].header : "time_s",
				  c.time_lo, c.time_hi, c.time_hi - c.time_lo);
	if (r == PCIBW_OK && c.size_col >= 0 && c.size_role.msg && c.tcp_seen)
		ingest_stats_note(
		    st,
		    "%s: a TCP message size is a write size, not a packet size: TCP packets are "
		    "counted as goodput / MSS (--mtu less 52 B of IPv4 and TCP headers)",
		    src->name);
	return r;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netperf 2.x output (netperf is not packaged in Debian 12; the layouts below are those printed
 * by nettest_bsd.c and documented in "Care and Feeding of Netperf"):
 *
 * Classic STREAM tests: a banner ("MIGRATED TCP STREAM TEST from ...", "UDP UNIDIRECTIONAL SEND
 * TEST ..."), a column block ending in a units line ("bytes  bytes ... 10^6bits/s  % S ... us/KB"),
 * then the result:
 *   TCP_STREAM  recv_sock send_sock msg_size elapsed throughput [local% remote% local_sd remote_sd]
 *   UDP_STREAM  sock msg_size elapsed msgs_ok errors throughput [cpu% sd]   (the sender)
 *               sock          elapsed msgs_ok        throughput [cpu% sd]   (the receiver)
 * With -c/-C the TCP CPU columns are "Send local" and "Recv remote" (netperf sends).
 * Request/response tests have no bit rate: their lines are counted as skipped.
 *
 * Omni -o: an optional banner, then CSV whose header holds netperf's output names ("Throughput",
 * "Throughput Units", "Local CPU Util %", "Local Service Demand", "Remote CPU Util %",
 * "Protocol", "Direction", "Local Send Size", "Elapsed Time (sec)", "Local Send Calls",
 * "Remote Recv Calls", "Local Peak Per CPU Util %"); omni prints -1 for a figure it did not measure.
 *
 * Omni -O ("human readable", nettest_omni.c print_omni_human(); "Care and Feeding of Netperf",
 * sec. "Native Omni Tests"): per block of output selectors, four header lines holding each
 * selector's four name pieces (THROUGHPUT_UNITS = "Throughput" / "Units" / "" / ""), then one line
 * of values; every column starts where its first name piece starts and is as wide as its longest
 * piece or value plus one blank; blocks (selector lists split by ';') are separated by an empty
 * line. The pieces joined by blanks are the -o names, so both layouts share one reader. An error
 * in a later block's value names the first block's value line.
 */
#include "ingest_int.h"
#include "pcibw/nic.h"
#include "pcibw/number.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Gbit/s per unit of netperf's throughput units (-f): 10^6bits/s by default. */
static double unit_gbps(const char *u)
{
	if (!strncmp(u, "10^9bits", 8))
		return 1;
	if (!strncmp(u, "10^6bits", 8))
		return 1e-3;
	if (!strncmp(u, "10^3bits", 8))
		return 1e-6;
	if (!strncmp(u, "GBytes", 6))
		return 8 * 1.073741824; /* netperf: 2^30 bytes */
	if (!strncmp(u, "MBytes", 6))
		return 8 * 1.048576e-3; /* 2^20 bytes */
	if (!strncmp(u, "KBytes", 6))
		return 8 * 1.024e-6;
	return NAN;
}

/* ---------------- classic ---------------- */

struct npc {
	const struct ingest_src *src;
	pcibw_row_cb cb;
	void *ctx;
	struct pcibw_ingest_stats *st;
	char test[PCIBW_MEASURE_TEXT];
	bool tcp, udp, stream, maerts, cpu;
	double unit;	/* Gbit/s per throughput unit, NAN until the units line */
	int expect;	/* result lines still expected after the units line */
	double udp_msg; /* UDP message size from the sender line */
};

static int split(char *s, char **f, int max)
{
	int n = 0;
	for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t"))
		f[n++] = t;
	return n;
}

/* tok: the field (NUL-terminated copy); at: where it starts in the line l, for the column */
static int field(const struct npc *c, unsigned line, const char *l, const char *at, const char *tok,
		 enum pcibw_value_kind k, double *out, struct pcibw_err *err)
{
	return ingest_check_value_at(tok, k, c->src->name, line, (unsigned)(at - l) + 1, 1, out, err);
}

static void banner(struct npc *c, const char *l)
{
	c->tcp = strstr(l, "TCP") != NULL;
	c->udp = strstr(l, "UDP") != NULL;
	c->maerts = strstr(l, "MAERTS") != NULL;
	c->stream = strstr(l, "STREAM") || strstr(l, "MAERTS") || strstr(l, "UNIDIRECTIONAL SEND");
	snprintf(c->test, sizeof c->test, "%s_%s",
		 c->tcp	  ? "TCP"
		 : c->udp ? "UDP"
			  : "OTHER",
		 c->maerts   ? "MAERTS"
		 : c->stream ? "STREAM"
			     : "RR");
	c->unit = NAN;
	c->expect = 0;
	c->cpu = false;
}

/* The CPU percentages netperf prints are negative when its CPU rate calibration failed. */
static int cpu_field(const struct npc *c, unsigned line, const char *l, const char *at, const char *tok,
		     double *out, struct pcibw_err *err)
{
	int st = field(c, line, l, at, tok, PCIBW_VAL_PCT, out, err);
	if (st && tok[0] == '-')
		snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
			 "; a negative netperf CPU figure means its CPU rate calibration failed: rerun with "
			 "-c/-C");
	return st;
}

static int result_line(struct npc *c, unsigned line, const char *orig, struct pcibw_err *err)
{
	char buf[1024], *f[16];
	snprintf(buf, sizeof buf, "%s", orig);
	int n = split(buf, f, 16);
	/* positions of the tokens in the original line */
	const char *pos[16];
	for (int i = 0; i < n; i++)
		pos[i] = orig + (f[i] - buf);
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = c->src->name;
	m.line = line;
	ingest_copy_text(m.test, c->test);
	m.tcp = c->tcp;
	int st;
	double v, elapsed, ok;
	unsigned tcol = 1; /* the throughput field's column, for its range check below */
	if (c->tcp) {
		int want = c->cpu ? 9 : 5;
		if (n != want)
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:1: %d fields in a %s result (expected %d: "
					  "recv/send socket, message size, elapsed, throughput%s)",
					  c->src->name, line, n, c->test, want,
					  c->cpu ? ", CPU local/remote, service demand local/remote" : "");
		if ((st = field(c, line, orig, pos[2], f[2], PCIBW_VAL_SIZE, &m.size_bytes, err)) ||
		    (st = field(c, line, orig, pos[4], f[4], PCIBW_VAL_COUNT, &v, err)))
			return st;
		m.size_conv = PCIBW_SIZE_WRITE;
		m.gbps = v * c->unit;
		tcol = (unsigned)(pos[4] - orig) + 1;
		m.direction = c->maerts ? PCIBW_PAT_RX : PCIBW_PAT_TX;
		if (c->cpu) {
			if ((st = cpu_field(c, line, orig, pos[5], f[5], &m.cpu_pct, err)) ||
			    (st = cpu_field(c, line, orig, pos[6], f[6], &m.remote_cpu_pct, err)) ||
			    (st = field(c, line, orig, pos[7], f[7], PCIBW_VAL_SD, &m.sd_us_per_kb, err)) ||
			    (st = field(c, line, orig, pos[8], f[8], PCIBW_VAL_SD, &m.remote_sd_us_per_kb,
					err)))
				return st;
		}
		snprintf(m.series, sizeof m.series, "%s", c->maerts ? "recv" : "send");
		c->expect = 0;
	} else {
		bool sender = c->expect == 2;
		int want = (sender ? 6 : 4) + (c->cpu ? 2 : 0);
		if (n != want)
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:1: %d fields in the UDP_STREAM %s line (expected %d)",
					  c->src->name, line, n, sender ? "sender" : "receiver", want);
		/* sender: sock msg elapsed ok errors tput [cpu sd]; receiver: sock elapsed ok tput [cpu sd]
		 */
		int ie = sender ? 2 : 1, io = ie + 1, it = sender ? 5 : 3, ic = it + 1;
		if (sender && (st = field(c, line, orig, pos[1], f[1], PCIBW_VAL_SIZE, &c->udp_msg, err)))
			return st;
		if ((st = field(c, line, orig, pos[ie], f[ie], PCIBW_VAL_SECONDS, &elapsed, err)) ||
		    (st = field(c, line, orig, pos[io], f[io], PCIBW_VAL_COUNT, &ok, err)) ||
		    (st = field(c, line, orig, pos[it], f[it], PCIBW_VAL_COUNT, &v, err)))
			return st;
		if (c->cpu &&
		    ((st = cpu_field(c, line, orig, pos[ic], f[ic], &m.cpu_pct, err)) ||
		     (st = field(c, line, orig, pos[ic + 1], f[ic + 1], PCIBW_VAL_SD, &m.sd_us_per_kb, err))))
			return st;
		m.size_bytes = c->udp_msg;
		m.size_conv = PCIBW_SIZE_UDP_PAYLOAD;
		m.pps = ok / elapsed;
		m.gbps = v * c->unit;
		tcol = (unsigned)(pos[it] - orig) + 1;
		m.gbps_basis = PCIBW_BASIS_PAYLOAD;
		m.direction = sender ? PCIBW_PAT_TX : PCIBW_PAT_RX;
		snprintf(m.series, sizeof m.series, "%s", sender ? "send" : "recv");
		c->expect--;
	}
	char where[600];
	snprintf(where, sizeof where, "%s:%u:%u", c->src->name, line, tcol);
	if ((st = ingest_check_number("throughput", m.gbps, PCIBW_VAL_GBPS, where, err)))
		return st;
	if ((st = c->cb(&m, c->ctx, err)))
		return st;
	c->st->rows++;
	return PCIBW_OK;
}

/* "MIGRATED TCP STREAM TEST from ...", "OMNI TEST from ...": a netperf banner */
static bool is_banner(const char *s)
{
	return strstr(s, " TEST") && (strstr(s, " from ") || strstr(s, " to ") || strstr(s, "MIGRATED"));
}

int ingest_netperf(const struct ingest_src *src, const struct pcibw_ingest_opts *opts, pcibw_row_cb cb,
		   void *ctx, struct pcibw_ingest_stats *st, struct pcibw_err *err)
{
	(void)opts;
	struct npc c = {.src = src, .cb = cb, .ctx = ctx, .st = st, .unit = NAN};
	banner(&c, "TCP STREAM"); /* a column block without a banner: netperf's default test */
	struct linereader lr;
	ingest_lr_init(&lr, src);
	const char *l;
	size_t len = 0;
	int r = PCIBW_OK;
	bool seen_block = false;
	while (r == PCIBW_OK && (l = ingest_lr_next(&lr, &len, err))) {
		const char *s = l;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#' || !strncmp(s, "!!!", 3))
			continue;
		if (is_banner(s)) {
			if (c.expect)
				r = pcibw_fail(err, PCIBW_EINPUT,
					       "%s:%u:1: new test before the result of the last "
					       "(expected its result line)",
					       src->name, lr.line);
			banner(&c, s);
			/* Only the TCP and UDP layouts are known: another protocol's columns (SCTP,
			 * DLPI, Unix) read as UDP would give a row with no message size. */
			if (!r && !c.tcp && !c.udp)
				r = pcibw_fail(
				    err, PCIBW_EINPUT,
				    "%s:%u:%u: netperf test '%.60s' names neither TCP nor UDP: "
				    "expected a TCP_STREAM, TCP_MAERTS or UDP_STREAM result (pcibw "
				    "knows those column layouts only)",
				    src->name, lr.line, (unsigned)(s - l) + 1, s);
			continue;
		}
		if (!strncmp(s, "Recv", 4) || !strncmp(s, "Socket", 6) || !strncmp(s, "Size", 4) ||
		    !strncmp(s, "Local", 5) || !strncmp(s, "Send", 4)) {
			if (strstr(s, "Utilization") || strstr(s, "CPU"))
				c.cpu = true;
			seen_block = true;
			continue;
		}
		if (!strncmp(s, "bytes", 5) || !strncmp(s, "frames", 6)) {
			/* the units line: "... secs.    10^6bits/sec" or "... secs.    MBytes  /s" */
			const char *u = strstr(s, "10^");
			if (!u)
				u = strstr(s, "Bytes") ? strstr(s, "Bytes") - 1 : NULL;
			c.unit = u ? unit_gbps(u) : NAN;
			if (!c.stream) {
				c.expect = 1; /* RR result: no bit rate */
			} else if (isnan(c.unit)) {
				r = pcibw_fail(
				    err, PCIBW_EINPUT,
				    "%s:%u:1: throughput unit not recognised (expected "
				    "10^6bits/s, 10^9bits/s, 10^3bits/s, MBytes/s, KBytes/s or GBytes/s)",
				    src->name, lr.line);
			} else {
				c.expect = c.udp ? 2 : 1;
			}
			seen_block = true;
			continue;
		}
		if (!isdigit((unsigned char)*s)) {
			continue; /* netperf's other prose: confidence warnings, ksink blocks */
		}
		st->lines++;
		if (!c.expect) {
			ingest_stats_skip(st, src->name, lr.line, "numbers outside a netperf result block");
			continue;
		}
		if (!c.stream) {
			ingest_stats_skip(st, src->name, lr.line, "request/response result: no bit rate");
			c.expect = 0;
			continue;
		}
		r = result_line(&c, lr.line, l, err);
	}
	if (r == PCIBW_OK && len == (size_t)-1)
		r = err->code ? (int)err->code : PCIBW_EINTERNAL;
	if (r == PCIBW_OK && !seen_block)
		r = pcibw_fail(err, PCIBW_EINPUT,
			       "%s:1:1: no netperf result block (expected the column "
			       "block netperf prints, ending in a units line)",
			       src->name);
	if (r == PCIBW_OK && c.tcp && st->rows)
		ingest_stats_note(
		    st,
		    "%s: a TCP message size is a write size, not a packet size: TCP packets are "
		    "counted as goodput / MSS (--mtu less 52 B of IPv4 and TCP headers)",
		    src->name);
	ingest_lr_free(&lr);
	return r;
}

/* ---------------- omni -o ---------------- */

struct npo {
	pcibw_row_cb cb;
	void *ctx;
	struct pcibw_ingest_stats *st;
	bool have_header;
	int ncols;
	int tput, units, lcpu, rcpu, lsd, rsd, proto, dir, size, elapsed, calls, peak;
};

/* A figure omni may print as -1 ("not measured"). The field's column is found (a scan of the
 * record) only when the value is refused: every other value costs its parse alone. */
static int onum(const struct csvr_record *rec, int i, enum pcibw_value_kind k, double *out,
		struct pcibw_err *err)
{
	*out = NAN;
	if (i < 0 || ingest_blank(rec->f[i]))
		return PCIBW_OK;
	const char *f = rec->f[i];
	double x;
	if (f[strspn(f, " \t")] == '-' &&
	    pcibw_number_scan(f, strlen(f), PCIBW_NUM_SIGN | PCIBW_NUM_BLANKS, &x) == PCIBW_NUM_OK &&
	    x == -1.0) /* "-1", "-1.00": all of the field, not "-1abc" */
		return PCIBW_OK;
	return ingest_check_field(rec, i, k, 1, out, err);
}

/* The banner omni prints before each test ("MIGRATED UDP STREAM TEST from ... AF_INET"): one
 * field, naming a TEST. */
static bool omni_banner(const struct csvr_record *rec)
{
	return rec->n == 1 && strstr(rec->f[0], "TEST");
}

/* A header again: where the last header had its throughput, a name instead of a number (a
 * letter first), and a Throughput and a Throughput Units column somewhere. */
static bool omni_header(const struct csvr_record *rec, const struct npo *c)
{
	return c->tput >= 0 && c->tput < rec->n && isalpha((unsigned char)rec->f[c->tput][0]) &&
	       ingest_csvr_column(rec, "Throughput") >= 0 && ingest_csvr_column(rec, "Throughput Units") >= 0;
}

static int omni_record(const struct csvr_record *rec, void *vctx, struct pcibw_err *err)
{
	struct npo *c = vctx;
	/* runs one after another (a shell loop over sizes): each prints its banner and its header,
	 * and its rows follow its own header, whose columns may differ from the last run's */
	if (c->have_header && (omni_banner(rec) || omni_header(rec, c)))
		c->have_header = false;
	if (!c->have_header) {
		if (omni_banner(rec))
			return PCIBW_OK; /* the banner */
		c->have_header = true;
		c->ncols = rec->n;
		c->tput = ingest_csvr_column(rec, "Throughput");
		c->units = ingest_csvr_column(rec, "Throughput Units");
		c->lcpu = ingest_csvr_column(rec, "Local CPU Util %");
		c->rcpu = ingest_csvr_column(rec, "Remote CPU Util %");
		c->lsd = ingest_csvr_column(rec, "Local Service Demand");
		c->rsd = ingest_csvr_column(rec, "Remote Service Demand");
		c->proto = ingest_csvr_column(rec, "Protocol");
		c->dir = ingest_csvr_column(rec, "Direction");
		c->size = ingest_csvr_column(rec, "Local Send Size");
		if (c->size < 0)
			c->size = ingest_csvr_column(rec, "Remote Recv Size");
		c->elapsed = ingest_csvr_column(rec, "Elapsed Time (sec)");
		c->calls = ingest_csvr_column(rec, "Local Send Calls");
		c->peak = ingest_csvr_column(
		    rec, "Local Peak Per CPU Util %"); /* LOCAL_CPU_PEAK_UTIL: the busiest CPU */
		if (c->tput < 0 || c->units < 0)
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:1: netperf omni header without %s (expected "
					  "-o THROUGHPUT,THROUGHPUT_UNITS,...)",
					  rec->file, rec->line,
					  c->tput < 0 ? "Throughput" : "Throughput Units");
		return PCIBW_OK;
	}
	c->st->lines++;
	if (rec->n != c->ncols) {
		ingest_stats_skip(c->st, rec->file, rec->line, "field count differs from the header");
		return PCIBW_OK;
	}
	double unit = unit_gbps(rec->f[c->units]);
	if (isnan(unit)) {
		if (!strncasecmp(rec->f[c->units], "Trans/s", 7)) {
			ingest_stats_skip(c->st, rec->file, rec->line,
					  "request/response result: no bit rate");
			return PCIBW_OK;
		}
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:%u:%u: throughput unit '%s' (expected 10^6bits/s, "
				  "10^9bits/s, 10^3bits/s, MBytes/s, KBytes/s or GBytes/s)",
				  rec->file, rec->line, ingest_csvr_col(rec, c->units), rec->f[c->units]);
	}
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = rec->file;
	m.line = rec->line;
	double v, elapsed, calls;
	int st;
	if ((st = onum(rec, c->tput, PCIBW_VAL_COUNT, &v, err)) ||
	    (st = onum(rec, c->lcpu, PCIBW_VAL_PCT, &m.cpu_pct, err)) ||
	    (st = onum(rec, c->rcpu, PCIBW_VAL_PCT, &m.remote_cpu_pct, err)) ||
	    (st = onum(rec, c->lsd, PCIBW_VAL_SD, &m.sd_us_per_kb, err)) ||
	    (st = onum(rec, c->rsd, PCIBW_VAL_SD, &m.remote_sd_us_per_kb, err)) ||
	    (st = onum(rec, c->size, PCIBW_VAL_SIZE, &m.size_bytes, err)) ||
	    (st = onum(rec, c->elapsed, PCIBW_VAL_SECONDS, &elapsed, err)) ||
	    (st = onum(rec, c->calls, PCIBW_VAL_COUNT, &calls, err)) ||
	    (st = onum(rec, c->peak, PCIBW_VAL_PCT, &m.core_max_pct, err)))
		return st;
	if (isnan(v)) {
		ingest_stats_skip(c->st, rec->file, rec->line, "no throughput");
		return PCIBW_OK;
	}
	m.gbps = v * unit;
	struct value_range g = ingest_value_range(PCIBW_VAL_GBPS);
	if (!(m.gbps >= g.lo && m.gbps <= g.hi && !(g.lo_open && m.gbps <= g.lo))) {
		/* refused: only now is the column looked for */
		char where[600];
		snprintf(where, sizeof where, "%s:%u:%u", rec->file, rec->line,
			 ingest_csvr_col(rec, c->tput));
		if ((st = ingest_check_number(rec->f[c->tput], m.gbps, PCIBW_VAL_GBPS, where, err)))
			return st;
	}
	const char *proto = c->proto >= 0 ? rec->f[c->proto] : "TCP";
	m.tcp = !strcasecmp(proto, "TCP");
	const char *dir = c->dir >= 0 ? rec->f[c->dir] : "Send";
	bool recv = !strncasecmp(dir, "Recv", 4) || !strncasecmp(dir, "Receive", 7);
	m.direction = recv ? PCIBW_PAT_RX : PCIBW_PAT_TX;
	snprintf(m.test, sizeof m.test, "%s_%s", m.tcp ? "TCP" : proto, recv ? "MAERTS" : "STREAM");
	snprintf(m.series, sizeof m.series, "%s", recv ? "recv" : "send");
	m.size_conv = m.tcp ? PCIBW_SIZE_WRITE : PCIBW_SIZE_UDP_PAYLOAD;
	m.gbps_basis = m.tcp ? PCIBW_BASIS_SIZE : PCIBW_BASIS_PAYLOAD;
	if (!m.tcp && !isnan(calls) && elapsed > 0)
		m.pps = calls / elapsed;
	if ((st = c->cb(&m, c->ctx, err)))
		return st;
	c->st->rows++;
	return PCIBW_OK;
}

/* ---------------- omni -O ---------------- */

struct nph_run {
	struct csvr_record hdr, val;
	char *hstore, *vstore;
	size_t hused, vused;
};

static bool nph_add(struct nph_run *run, const char *name, const char *value, unsigned col)
{
	size_t nl = strlen(name) + 1, vl = strlen(value) + 1;
	if (run->hdr.n >= CSVR_MAX_FIELDS || run->hused + nl > CSVR_MAX_RECORD ||
	    run->vused + vl > CSVR_MAX_RECORD)
		return false;
	memcpy(run->hstore + run->hused, name, nl);
	memcpy(run->vstore + run->vused, value, vl);
	run->hdr.f[run->hdr.n] = run->hstore + run->hused;
	run->val.f[run->val.n] = run->vstore + run->vused;
	run->hdr.len[run->hdr.n] = (unsigned)nl - 1;
	run->val.len[run->val.n] = (unsigned)vl - 1;
	run->hdr.col[run->hdr.n] = run->val.col[run->val.n] = col;
	run->hused += nl;
	run->vused += vl;
	run->hdr.n++;
	run->val.n++;
	return true;
}

/* text[start, end) of a line, blanks trimmed, into buf */
static void nph_cut(char *buf, size_t cap, const char *line, size_t start, size_t end)
{
	size_t len = strlen(line);
	if (start > len)
		start = len;
	if (end > len)
		end = len;
	while (start < end && isspace((unsigned char)line[start]))
		start++;
	while (end > start && isspace((unsigned char)line[end - 1]))
		end--;
	snprintf(buf, cap, "%.*s", (int)(end - start), line + start);
}

/* One block: l[0..3] the header lines, l[4] the values. Columns start where a name piece of l[0] does. */
static int nph_block(struct nph_run *run, char *const *l, unsigned line0, const struct ingest_src *src,
		     struct pcibw_err *err)
{
	size_t starts[CSVR_MAX_FIELDS + 1];
	int n = 0;
	for (size_t i = 0; l[0][i] && n < CSVR_MAX_FIELDS; i++)
		if (!isspace((unsigned char)l[0][i]) && (i == 0 || isspace((unsigned char)l[0][i - 1])))
			starts[n++] = i;
	if (!n)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:%u:1: netperf omni -O block without names (expected "
				  "four header lines and a line of values)",
				  src->name, line0);
	starts[n] = (size_t)-1 >> 1;
	for (int k = 0; k < n; k++) {
		char name[256] = "", piece[128], value[256];
		for (int h = 0; h < 4; h++) {
			nph_cut(piece, sizeof piece, l[h], starts[k], starts[k + 1]);
			if (piece[0])
				snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s",
					 name[0] ? " " : "", piece);
		}
		nph_cut(value, sizeof value, l[4], starts[k], starts[k + 1]);
		if (!nph_add(run, name, value, (unsigned)starts[k] + 1))
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:1: netperf omni -O output too wide (expected "
					  "at most %d columns)",
					  src->name, line0, CSVR_MAX_FIELDS);
	}
	return PCIBW_OK;
}

/* The run's header, then its values, through the -o reader. */
static int nph_flush(struct nph_run *run, struct npo *c, struct pcibw_err *err)
{
	int st = PCIBW_OK;
	if (run->hdr.n) {
		c->have_header = false;
		if (!(st = omni_record(&run->hdr, c, err)))
			st = omni_record(&run->val, c, err);
	}
	run->hdr.n = run->val.n = 0;
	run->hused = run->vused = 0;
	return st;
}

static int omni_human(const struct ingest_src *src, struct npo *c, struct pcibw_err *err)
{
	struct nph_run *run = calloc(1, sizeof *run);
	char *l[5] = {0};
	if (!run || !(run->hstore = malloc(CSVR_MAX_RECORD)) || !(run->vstore = malloc(CSVR_MAX_RECORD))) {
		if (run) {
			free(run->hstore);
			free(run);
		}
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	}
	run->hdr.file = run->val.file = src->name;
	struct linereader lr;
	ingest_lr_init(&lr, src);
	const char *s;
	size_t len = 0;
	int st = PCIBW_OK;
	bool any = false;
	while (st == PCIBW_OK && (s = ingest_lr_next(&lr, &len, err))) {
		const char *t = s;
		while (isspace((unsigned char)*t))
			t++;
		if (!*t || *t == '#')
			continue;
		if (is_banner(t)) {
			st = nph_flush(run, c, err);
			continue;
		}
		/* a block: this line and three more of names, then the values */
		unsigned line0 = lr.line;
		for (int k = 0; k < 5 && st == PCIBW_OK; k++) {
			const char *x = k ? ingest_lr_next(&lr, &len, err) : s;
			if (!x) {
				st = len == (size_t)-1
					 ? (err->code ? (int)err->code : PCIBW_EINTERNAL)
					 : pcibw_fail(err, PCIBW_EINPUT,
						      "%s:%u:1: netperf omni -O block cut short "
						      "(expected four header lines and a line of values)",
						      src->name, line0);
				break;
			}
			free(l[k]);
			if (!(l[k] = strdup(x)))
				st = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		}
		if (st)
			break;
		if (!run->hdr.n) {
			run->hdr.line = line0;
			run->val.line = lr.line;
		}
		st = nph_block(run, l, line0, src, err);
		any = true;
	}
	if (st == PCIBW_OK && len == (size_t)-1)
		st = err->code ? (int)err->code : PCIBW_EINTERNAL;
	if (st == PCIBW_OK)
		st = nph_flush(run, c, err);
	if (st == PCIBW_OK && !any)
		st = pcibw_fail(err, PCIBW_EINPUT,
				"%s:1:1: no netperf omni output (expected -o CSV or -O "
				"columns naming Throughput and Throughput Units)",
				src->name);
	for (int k = 0; k < 5; k++)
		free(l[k]);
	ingest_lr_free(&lr);
	free(run->hstore);
	free(run->vstore);
	free(run);
	return st;
}

/* -o (CSV) or -O (columns)? The first line that is neither a banner nor a comment decides. */
static bool omni_is_csv(const char *head, size_t len)
{
	size_t p = 0;
	while (p < len) {
		size_t e = p;
		while (e < len && head[e] != '\n')
			e++;
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(e - p), head + p);
		const char *t = line;
		while (isspace((unsigned char)*t))
			t++;
		if (*t && *t != '#' && !is_banner(t))
			return strchr(t, ',') != NULL;
		p = e + 1;
	}
	return true;
}

int ingest_netperf_omni(const struct ingest_src *src, const struct pcibw_ingest_opts *opts, pcibw_row_cb cb,
			void *ctx, struct pcibw_ingest_stats *st, struct pcibw_err *err)
{
	(void)opts;
	struct npo c = {.cb = cb, .ctx = ctx, .st = st};
	if (!omni_is_csv(src->head, src->head_len))
		return omni_human(src, &c, err);
	int r = ingest_csvr_run(src, omni_record, &c, err);
	if (r == PCIBW_OK && !c.have_header)
		r = pcibw_fail(err, PCIBW_EINPUT,
			       "%s:1:1: no netperf omni header (expected a CSV line naming "
			       "Throughput and Throughput Units)",
			       src->name);
	return r;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iperf3's default text output (what it prints without -J), client or server, TCP or UDP, one
 * stream or -P N, --bidir. The lines are those of iperf 3.x's src/iperf_locale.c:
 *
 *   [ ID] Interval           Transfer     Bitrate         Retr  Cwnd
 *   [  5]   0.00-1.00   sec   547 MBytes  4.59 Gbits/sec    4   2.25 MBytes
 *   [SUM]   0.00-3.01   sec   590 MBytes  1.65 Gbits/sec   23             sender
 *   [  5][TX-C]   0.00-3.06   sec  33.9 MBytes  93.1 Mbits/sec  0.000 ms  0/35579 (0%)  sender
 *
 * "[%3d]" or "[SUM]", with --bidir a role "[TX-C]", "[RX-C]" (client) or "[TX-S]", "[RX-S]"
 * (server), the interval "%6.2f-%-6.2f sec", the transfer and the bit rate as unit_snprintf
 * (src/units.c) writes them: bytes in 1024 multiples ("KBytes" .. "TBytes"), rates in 1000
 * multiples of bits ("Kbits/sec" .. "Tbits/sec", or with -f K/M/G 1024 multiples of bytes,
 * "MBytes/sec"), each to 3 or 4 significant digits. Then, by the header above it: TCP
 * retransmits and the congestion window (bytes, as the transfer), UDP jitter "ms" and
 * "LOST/TOTAL (P%)" or a sender's total datagrams. The last word is "sender" or "receiver" on
 * the summary lines after the last separator, "(omitted)" on a -O warm-up interval.
 *
 * Rows, as for iperf3 -J: the summary of each side (series "sender" and "receiver"; with --bidir
 * the reverse stream's as "reverse sender" and "reverse receiver"), from the [SUM] line where
 * -P N gave one, else the one stream's (streams added up where several have no [SUM]). A run
 * cut short, with no summary, gives the mean of its counted intervals. UDP: the datagram counts
 * give the packet rate; the text never states the datagram size (-l), so it is the transfer over
 * the datagrams that carried it, as precise as the transfer's 3 digits (said in a note). TCP: the
 * sender's retransmits and each interval's congestion window go to the row's TCP path; the text
 * carries no RTT, so no window bound comes from it alone. The CPU line of -V ("CPU Utilization:
 * local/sender 29.7% ...") is iperf3's process share, read as iperf3 -J's (iperf3.c).
 */
#include "ingest_int.h"
#include "pcibw/nic.h"
#include "pcibw/number.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STREAM_ID 4096

/* what the columns after the bit rate hold, from the last "[ ID]" header */
enum cols { COLS_NONE, COLS_TCP, COLS_TCP_RETR, COLS_TCP_CWND, COLS_UDP_RECV, COLS_UDP_SEND };

/* one side of one stream direction: forward (the client's data) or reverse (--bidir's other) */
struct side {
	bool seen, sum;
	int lines;     /* stream lines added (where no [SUM] line was given) */
	unsigned line; /* where it was read */
	double bytes, bps, secs;
	double retr;	    /* TCP sender: retransmits; NAN */
	double total, lost; /* UDP datagrams; NAN */
};

/* counted intervals, for a run with no summary */
struct ivsum {
	double bytes, secs, datagrams;
};

struct dirstate {
	struct side summary[2]; /* [0] sender, [1] receiver */
	/* [0] the [SUM] lines, [1] the stream lines: the streams count where no [SUM] was given */
	struct ivsum iv[2];
	/* TCP congestion windows of the counted intervals */
	double cwnd_sum;
	long cwnd_n;
	double cwnd_max[MAX_STREAM_ID];
	int streams;   /* distinct stream ids */
	long first_id; /* the stream whose interval lines count the time; -1 */
	bool id_seen[MAX_STREAM_ID];
};

struct txt {
	const struct ingest_src *src;
	enum cols cols;
	bool udp, tcp, bidir, server, client, reverse;
	bool in_summary;
	char remote[64];
	double cpu_local, cpu_remote; /* -V: process CPU %, NAN */
	struct dirstate dir[2];	      /* [0] forward, [1] reverse (--bidir) */
};

/* a token of the line: [s, s+n), 1-based column */
struct tok {
	const char *s;
	size_t n;
	size_t col;
};

static int split(const char *l, size_t len, struct tok *tk, int max)
{
	int n = 0;
	size_t i = 0;
	while (i < len && n < max) {
		while (i < len && (l[i] == ' ' || l[i] == '\t'))
			i++;
		if (i >= len)
			break;
		size_t s = i;
		while (i < len && l[i] != ' ' && l[i] != '\t')
			i++;
		tk[n].s = l + s;
		tk[n].n = i - s;
		tk[n].col = s + 1;
		n++;
	}
	return n;
}

static bool is(const struct tok *t, const char *w)
{
	return t->n == strlen(w) && !memcmp(t->s, w, t->n);
}

static bool has(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle);
	for (size_t i = 0; i + m <= n; i++)
		if (!memcmp(s + i, needle, m))
			return true;
	return false;
}

static int bad(const struct txt *t, unsigned line, size_t col, const char *got, size_t got_n,
	       const char *expected, struct pcibw_err *err)
{
	return pcibw_fail(err, PCIBW_EINPUT, "%s:%u:%zu: '%.*s': expected %s (iperf3 text output)",
			  t->src->name, line, col, (int)(got_n > 40 ? 40 : got_n), got, expected);
}

/* a plain decimal number token */
static int number(const struct txt *t, unsigned line, const struct tok *k, const char *expected, double *out,
		  struct pcibw_err *err)
{
	if (pcibw_number_scan(k->s, k->n, PCIBW_NUM_NO_EXP, out) != PCIBW_NUM_OK || !(*out >= 0))
		return bad(t, line, k->col, k->s, k->n, expected, err);
	return PCIBW_OK;
}

/* "547" "MBytes" -> bytes (1024 multiples, unit_snprintf's label_byte) */
static int bytes_of(const struct txt *t, unsigned line, const struct tok *num, const struct tok *unit,
		    double *out, struct pcibw_err *err)
{
	static const char *const names[] = {"Bytes", "KBytes", "MBytes", "GBytes", "TBytes"};
	double v;
	int r = number(t, line, num, "a byte count (as 547 MBytes)", &v, err);
	if (r)
		return r;
	for (int k = 0; k < 5; k++)
		if (is(unit, names[k])) {
			*out = v * pow(1024, k);
			return PCIBW_OK;
		}
	return bad(t, line, unit->col, unit->s, unit->n, "Bytes, KBytes, MBytes, GBytes or TBytes", err);
}

/* "4.59" "Gbits/sec" -> bit/s (bits in 1000 multiples, bytes in 1024 multiples) */
static int rate_of(const struct txt *t, unsigned line, const struct tok *num, const struct tok *unit,
		   double *out, struct pcibw_err *err)
{
	static const char *const bits[] = {"bits/sec", "Kbits/sec", "Mbits/sec", "Gbits/sec", "Tbits/sec"};
	static const char *const bytes[] = {"Bytes/sec", "KBytes/sec", "MBytes/sec", "GBytes/sec",
					    "TBytes/sec"};
	double v;
	int r = number(t, line, num, "a bit rate (as 4.59 Gbits/sec)", &v, err);
	if (r)
		return r;
	for (int k = 0; k < 5; k++) {
		if (is(unit, bits[k])) {
			*out = v * pow(1000, k);
			return PCIBW_OK;
		}
		if (is(unit, bytes[k])) {
			*out = v * pow(1024, k) * 8;
			return PCIBW_OK;
		}
	}
	return bad(t, line, unit->col, unit->s, unit->n, "bits/sec, Kbits/sec, Mbits/sec or Gbits/sec", err);
}

/* "12/345" -> lost, total */
static int lost_total(const struct txt *t, unsigned line, const struct tok *k, double *lost, double *total,
		      struct pcibw_err *err)
{
	const char *slash = memchr(k->s, '/', k->n);
	if (!slash ||
	    pcibw_number_scan(k->s, (size_t)(slash - k->s), PCIBW_NUM_INTEGER, lost) != PCIBW_NUM_OK ||
	    pcibw_number_scan(slash + 1, k->n - (size_t)(slash + 1 - k->s), PCIBW_NUM_INTEGER, total) !=
		PCIBW_NUM_OK)
		return bad(t, line, k->col, k->s, k->n, "LOST/TOTAL datagrams (as 12/3456)", err);
	if (*lost > *total)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:%u:%zu: %.0f datagrams lost of %.0f: expected LOST at most TOTAL "
				  "(iperf3 counts the lost datagrams among the total)",
				  t->src->name, line, k->col, *lost, *total);
	return PCIBW_OK;
}

static void header(struct txt *t, const char *l, size_t n)
{
	t->bidir |= has(l, n, "[Role]");
	if (has(l, n, "Lost/Total Datagrams"))
		t->cols = COLS_UDP_RECV, t->udp = true;
	else if (has(l, n, "Total Datagrams"))
		t->cols = COLS_UDP_SEND, t->udp = true;
	else if (has(l, n, "Retr  Cwnd"))
		t->cols = COLS_TCP_CWND, t->tcp = true;
	else if (has(l, n, "Retr"))
		t->cols = COLS_TCP_RETR, t->tcp = true;
	else
		t->cols = COLS_TCP; /* TCP receiver: no columns after the bit rate */
}

/* which direction a --bidir role speaks of: the client's data (forward) or the server's */
static int role_dir(const struct txt *t, const struct tok *role)
{
	(void)t;
	return is(role, "[RX-C]") || is(role, "[TX-S]") ? 1 : 0;
}

static int data_line(struct txt *t, unsigned line, const char *l, size_t len, struct pcibw_err *err)
{
	struct tok tk[24];
	int n = split(l, len, tk, 24);
	int i = 0;
	/* "[  5]" splits as "[" "5]"; "[SUM]" and "[  5][TX-C]" as they stand */
	bool sum = false;
	long id = -1;
	const struct tok *role = NULL;
	struct tok rtk;
	if (n > 0 && tk[0].n >= 5 && !memcmp(tk[0].s, "[SUM]", 5)) {
		sum = true;
		if (tk[0].n > 5) {
			rtk = (struct tok){tk[0].s + 5, tk[0].n - 5, tk[0].col + 5};
			role = &rtk;
		}
		i = 1;
	} else {
		const char *p = l;
		while (p < l + len && *p != '[')
			p++;
		p++;
		while (p < l + len && *p == ' ')
			p++;
		const char *q = p;
		while (q < l + len && isdigit((unsigned char)*q))
			q++;
		if (q == p || q >= l + len || *q != ']' || q - p > 6)
			return bad(t, line, (size_t)(p - l) + 1, p,
				   (size_t)(l + len - p > 8 ? 8 : l + len - p),
				   "a stream id as [  5] or [SUM]", err);
		id = strtol(p, NULL, 10);
		const char *after = q + 1;
		/* the token that holds "N]" */
		for (i = 0; i < n && tk[i].s + tk[i].n <= after - 1; i++)
			;
		if (i < n && tk[i].s + tk[i].n > after) {
			rtk =
			    (struct tok){after, (size_t)(tk[i].s + tk[i].n - after), (size_t)(after - l) + 1};
			role = &rtk;
		}
		i++;
	}
	if (role && !(is(role, "[TX-C]") || is(role, "[RX-C]") || is(role, "[TX-S]") || is(role, "[RX-S]")))
		return bad(t, line, role->col, role->s, role->n,
			   "a --bidir role [TX-C], [RX-C], [TX-S] or [RX-S]", err);
	/* connection lines ("[  5] local 127.0.0.1 port 5201 connected to ...") */
	if (i < n && is(&tk[i], "local")) {
		for (int k = i; k + 2 < n; k++)
			if (is(&tk[k], "connected") && is(&tk[k + 1], "to"))
				snprintf(t->remote, sizeof t->remote, "%.*s", (int)tk[k + 2].n, tk[k + 2].s);
		return PCIBW_OK;
	}
	if (i < n && (is(&tk[i], "Sent") || is(&tk[i], "MSS") || is(&tk[i], "Read") ||
		      has(l, len, "Server Report") || has(l, len, "statistics not available") ||
		      has(l, len, "out-of-order") || has(l, len, "bytes read")))
		return PCIBW_OK; /* verbose and per-stream notes: nothing pcibw reads */
	if (t->cols == COLS_NONE)
		return bad(t, line, tk[0].col, tk[0].s, tk[0].n,
			   "a '[ ID] Interval' header line before the interval lines", err);
	/* interval */
	if (i >= n)
		return bad(t, line, len + 1, "", 0, "an interval as 0.00-1.00 sec", err);
	const struct tok *iv = &tk[i];
	const char *dash = memchr(iv->s, '-', iv->n);
	double t0, t1;
	if (!dash ||
	    pcibw_number_scan(iv->s, (size_t)(dash - iv->s), PCIBW_NUM_NO_EXP, &t0) != PCIBW_NUM_OK ||
	    pcibw_number_scan(dash + 1, iv->n - (size_t)(dash + 1 - iv->s), PCIBW_NUM_NO_EXP, &t1) !=
		PCIBW_NUM_OK ||
	    !(t1 >= t0) || t0 < 0)
		return bad(t, line, iv->col, iv->s, iv->n, "an interval START-END in seconds (as 0.00-1.00)",
			   err);
	i++;
	if (i >= n || !is(&tk[i], "sec"))
		return bad(t, line, i < n ? tk[i].col : len + 1, i < n ? tk[i].s : "", i < n ? tk[i].n : 0,
			   "'sec' after the interval", err);
	i++;
	if (i + 3 >= n) /* the transfer, its unit, the rate and its unit: tk[i..i+3] */
		return bad(t, line, len + 1, "", 0,
			   "a transfer and a bit rate (as 547 MBytes  4.59 Gbits/sec)", err);
	double bytes = NAN, bps = NAN;
	int r;
	if ((r = bytes_of(t, line, &tk[i], &tk[i + 1], &bytes, err)) ||
	    (r = rate_of(t, line, &tk[i + 2], &tk[i + 3], &bps, err)))
		return r;
	i += 4;
	/* the end word */
	int side = -1; /* 0 sender, 1 receiver */
	bool omitted = false;
	int last = n;
	if (last > i && is(&tk[last - 1], "sender"))
		side = 0, last--;
	else if (last > i && is(&tk[last - 1], "receiver"))
		side = 1, last--;
	else if (last > i && is(&tk[last - 1], "(omitted)"))
		omitted = true, last--;
	double retr = NAN, cwnd = NAN, lost = NAN, total = NAN;
	int k = i;
	if (t->udp) {
		if (k < last && k + 1 < last && is(&tk[k + 1], "ms")) {
			double jit;
			if ((r = number(t, line, &tk[k], "a jitter in ms", &jit, err)))
				return r;
			k += 2;
		}
		if (k < last && memchr(tk[k].s, '/', tk[k].n)) {
			if ((r = lost_total(t, line, &tk[k], &lost, &total, err)))
				return r;
			k++;
			if (k < last && tk[k].n >= 3 && tk[k].s[0] == '(' && tk[k].s[tk[k].n - 1] == ')')
				k++;
		} else if (k < last) {
			if (pcibw_number_scan(tk[k].s, tk[k].n, PCIBW_NUM_INTEGER, &total) != PCIBW_NUM_OK)
				return bad(t, line, tk[k].col, tk[k].s, tk[k].n, "a count of datagrams", err);
			lost = 0;
			k++;
		}
	} else {
		if (k < last) {
			if (pcibw_number_scan(tk[k].s, tk[k].n, PCIBW_NUM_INTEGER, &retr) != PCIBW_NUM_OK)
				return bad(t, line, tk[k].col, tk[k].s, tk[k].n,
					   "a count of retransmits (Retr)", err);
			k++;
		}
		if (k + 1 < last) {
			if ((r = bytes_of(t, line, &tk[k], &tk[k + 1], &cwnd, err)))
				return r;
			k += 2;
		}
	}
	if (k < last)
		return bad(t, line, tk[k].col, tk[k].s, tk[k].n,
			   t->udp ? "the end of the line, 'sender' or 'receiver' (after the datagrams)"
				  : "the end of the line, 'sender' or 'receiver' (after Retr and Cwnd)",
			   err);
	int d = role ? role_dir(t, role) : 0;
	struct dirstate *ds = &t->dir[d];
	if (id >= 0 && id < MAX_STREAM_ID && !ds->id_seen[id]) {
		ds->id_seen[id] = true;
		ds->streams++;
	}
	double secs = t1 - t0;
	if (side >= 0) {
		t->in_summary = true;
		struct side *s = &ds->summary[side];
		if (sum && !s->sum) {
			/* the [SUM] line replaces the streams added so far */
			memset(s, 0, sizeof *s);
			s->retr = s->total = s->lost = NAN;
			s->sum = true;
		} else if (!sum && s->sum) {
			return PCIBW_OK; /* a stream's line after the [SUM]: the sum holds it */
		}
		if (!s->seen) {
			s->retr = s->total = s->lost = NAN;
			s->bytes = s->bps = 0;
		}
		s->seen = true;
		s->line = line;
		s->lines++;
		s->bytes += bytes;
		s->bps += bps;
		if (secs > s->secs)
			s->secs = secs;
		if (!isnan(retr))
			s->retr = (isnan(s->retr) ? 0 : s->retr) + retr;
		if (!isnan(total)) {
			s->total = (isnan(s->total) ? 0 : s->total) + total;
			s->lost = (isnan(s->lost) ? 0 : s->lost) + (isnan(lost) ? 0 : lost);
		}
		return PCIBW_OK;
	}
	if (omitted)
		return PCIBW_OK;
	/* a counted interval: its streams' windows, and the rates a run with no summary uses */
	if (!sum && !isnan(cwnd)) {
		ds->cwnd_sum += cwnd;
		ds->cwnd_n++;
		if (id >= 0 && id < MAX_STREAM_ID && cwnd > ds->cwnd_max[id])
			ds->cwnd_max[id] = cwnd;
	}
	struct ivsum *a = &ds->iv[sum ? 0 : 1];
	a->bytes += bytes;
	/* the streams of one interval run side by side: the time is counted once, by the first */
	if (sum || id == ds->first_id || ds->first_id < 0) {
		ds->first_id = sum ? ds->first_id : id;
		a->secs += secs;
	}
	if (!isnan(total))
		a->datagrams += total - (isnan(lost) ? 0 : lost);
	return PCIBW_OK;
}

/* "CPU Utilization: local/sender 29.7% (1.2%u/28.5%s), remote/receiver 11.5% (...)" (-V) */
static void cpu_line(struct txt *t, const char *l, size_t len)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), l);
	char who1[32], who2[32];
	double a, b;
	if (sscanf(buf, "CPU Utilization: %31[a-z/] %lf%%%*[^,], %31[a-z/] %lf%%", who1, &a, who2, &b) == 4 &&
	    a >= 0 && a <= 100 * 4096.0 && b >= 0 && b <= 100 * 4096.0) {
		t->cpu_local = a;
		t->cpu_remote = b;
	}
}

static int emit(struct txt *t, const struct pcibw_measured *base, int d, int side, pcibw_row_cb cb, void *ctx,
		struct pcibw_ingest_stats *st, struct pcibw_err *err)
{
	static const char *const series[2][2] = {{"sender", "receiver"},
						 {"reverse sender", "reverse receiver"}};
	struct side *s = &t->dir[d].summary[side];
	struct dirstate *ds = &t->dir[d];
	struct pcibw_measured m = *base;
	if (!s->seen)
		return PCIBW_OK;
	m.line = s->line;
	m.gbps = s->bps / 1e9;
	m.gbps_basis = t->udp ? PCIBW_BASIS_PAYLOAD : PCIBW_BASIS_SIZE;
	char where[600];
	snprintf(where, sizeof where, "%s:%u", t->src->name, s->line);
	int r = ingest_check_number("the bit rate", m.gbps, PCIBW_VAL_GBPS, where, err);
	if (r)
		return r;
	if (t->udp && !isnan(s->total) && s->secs > 0) {
		double got = s->total - s->lost;
		m.pps = got / s->secs;
		if (got > 0 && s->bytes > 0)
			m.size_bytes = round(s->bytes / got);
		if ((r = ingest_check_number("the datagram rate", m.pps, PCIBW_VAL_PPS, where, err)))
			return r;
		if (!isnan(m.size_bytes) &&
		    (r = ingest_check_number("the datagram size", m.size_bytes, PCIBW_VAL_SIZE, where, err)))
			return r;
	}
	snprintf(m.series, sizeof m.series, "%s", series[d][side]);
	m.direction = side ? PCIBW_PAT_RX : PCIBW_PAT_TX;
	m.concurrent = t->bidir;
	/* the process CPU of the host that sent or received this side (-V) */
	bool local_sends = t->client ? (d == 0) != t->reverse : d == 1;
	double cpu = (side == 0) == local_sends ? t->cpu_local : t->cpu_remote;
	m.core_max_pct = cpu >= 0 && cpu <= 100 ? cpu : NAN;
	m.core_is_process = !isnan(m.core_max_pct);
	if (t->tcp && side == 0 && d == 0) {
		struct pcibw_tcp_path *p = &m.tcp_path;
		if (!isnan(s->retr))
			p->retransmits = s->retr;
		if (ds->cwnd_n) {
			p->window_bytes = ds->cwnd_sum / ds->cwnd_n * (ds->streams > 0 ? ds->streams : 1);
			double mx = 0;
			for (int k = 0; k < MAX_STREAM_ID; k++)
				mx += ds->cwnd_max[k];
			p->max_cwnd_bytes = mx;
		}
	}
	if ((r = cb(&m, ctx, err)))
		return r;
	st->rows++;
	return PCIBW_OK;
}

int ingest_iperf3_text(const struct ingest_src *src, const struct pcibw_ingest_opts *opts, pcibw_row_cb cb,
		       void *ctx, struct pcibw_ingest_stats *st, struct pcibw_err *err)
{
	(void)opts;
	struct txt *t = calloc(1, sizeof *t);
	if (!t)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	t->src = src;
	t->cpu_local = t->cpu_remote = NAN;
	t->dir[0].first_id = t->dir[1].first_id = -1;
	struct linereader lr;
	ingest_lr_init(&lr, src);
	const char *l;
	size_t len;
	int r = PCIBW_OK;
	bool any = false;
	while ((l = ingest_lr_next(&lr, &len, err))) {
		size_t k = 0;
		while (k < len && (l[k] == ' ' || l[k] == '\t'))
			k++;
		const char *s = l + k;
		size_t n = len - k;
		if (n == 0)
			continue;
		if (n >= 14 && !memcmp(s, "iperf3: error ", 14)) {
			r = pcibw_fail(err, PCIBW_EINPUT,
				       "%s:%u: iperf3 reported an error: %.*s (expected a finished test)",
				       src->name, lr.line, (int)(n > 200 ? 200 : n), s);
			break;
		}
		if (n >= 19 && !memcmp(s, "Connecting to host ", 19)) {
			t->client = true;
			any = true;
		} else if (n >= 25 && !memcmp(s, "Accepted connection from ", 25)) {
			t->server = true;
			any = true;
		} else if (n >= 20 && !memcmp(s, "Server listening on ", 20)) {
			t->server = true;
			any = true;
		} else if (n >= 13 && !memcmp(s, "Reverse mode,", 13)) {
			t->reverse = true;
		} else if (n >= 16 && !memcmp(s, "CPU Utilization:", 16)) {
			cpu_line(t, s, n);
		} else if (n >= 5 && !memcmp(s, "[ ID]", 5)) {
			header(t, s, n);
			any = true;
		} else if (s[0] == '[') {
			st->lines++;
			if ((r = data_line(t, lr.line, l, len, err)))
				break;
		}
		/* any other line (banners, separators, -V's settings, "iperf Done.") says nothing
		 * pcibw reads */
	}
	if (len == (size_t)-1)
		r = err->code ? err->code : PCIBW_EINPUT;
	ingest_lr_free(&lr);
	if (r)
		goto out;
	if (!any) {
		r = pcibw_fail(err, PCIBW_EINPUT,
			       "%s:1:1: no iperf3 text output found (expected 'Connecting to host', 'Server "
			       "listening on' or an '[ ID] Interval' header)",
			       src->name);
		goto out;
	}
	struct pcibw_measured base;
	pcibw_measured_init(&base);
	base.source = src->name;
	base.tcp = !t->udp;
	base.size_conv = t->udp ? PCIBW_SIZE_UDP_PAYLOAD : PCIBW_SIZE_WRITE;
	ingest_copy_text(base.test, t->udp ? "UDP" : "TCP");
	int streams = t->dir[0].streams > t->dir[1].streams ? t->dir[0].streams : t->dir[1].streams;
	if (streams > 0)
		base.streams = streams;
	base.ipv6 = strchr(t->remote, ':') && strncmp(t->remote, "::ffff:", 7);
	const char *rh = t->remote;
	if (!t->udp)
		ingest_stats_note(
		    st,
		    "%s: TCP: iperf3's text gives no MSS and no write size: packets are counted as "
		    "goodput / MSS (--mtu less %d B of IP and TCP headers); it gives no RTT either, so "
		    "no TCP window bound comes from it (iperf3 -J, or a CSV with rtt_ms and cwnd_bytes)",
		    src->name, base.ipv6 ? 72 : 52);
	else
		ingest_stats_note(
		    st,
		    "%s: UDP: iperf3's text gives no datagram size: each row's size is its transfer "
		    "over the datagrams that carried it, as precise as the transfer's 3 digits",
		    src->name);
	base.loopback = !strncmp(rh, "127.", 4) || !strcmp(rh, "::1") || !strncmp(rh, "::ffff:127.", 11);
	if (base.loopback)
		ingest_stats_note(
		    st,
		    "%s: the test ran over loopback (remote host %s): no NIC and no bus carried it, "
		    "so set its rates against neither",
		    src->name, rh);
	if (t->bidir)
		ingest_stats_note(
		    st,
		    "%s: iperf3 --bidir: the two directions ran at the same time on each host, so "
		    "their rows share its CPU",
		    src->name);
	int emitted = 0;
	for (int d = 0; d < 2 && !r; d++)
		for (int side = 0; side < 2 && !r; side++) {
			long before = st->rows;
			r = emit(t, &base, d, side, cb, ctx, st, err);
			emitted += (int)(st->rows - before);
		}
	if (r || emitted)
		goto out;
	/* cut short: the mean of the counted intervals, per direction */
	for (int d = 0; d < 2 && !r; d++) {
		struct dirstate *ds = &t->dir[d];
		const struct ivsum *a = &ds->iv[ds->iv[0].secs > 0 ? 0 : 1];
		if (!(a->secs > 0))
			continue;
		struct pcibw_measured m = base;
		m.gbps = a->bytes * 8 / a->secs / 1e9;
		m.gbps_basis = t->udp ? PCIBW_BASIS_PAYLOAD : PCIBW_BASIS_SIZE;
		if (t->udp && a->datagrams > 0) {
			m.pps = a->datagrams / a->secs;
			m.size_bytes = round(a->bytes / a->datagrams);
		}
		snprintf(m.series, sizeof m.series, "%s", d ? "reverse intervals" : "intervals");
		m.direction = (t->client && !t->reverse) == (d == 0) ? PCIBW_PAT_TX : PCIBW_PAT_RX;
		m.concurrent = t->bidir;
		char where[600];
		snprintf(where, sizeof where, "%s: the intervals' mean", src->name);
		if ((r = ingest_check_number("the bit rate", m.gbps, PCIBW_VAL_GBPS, where, err)))
			break;
		if (!isnan(m.size_bytes) &&
		    (r = ingest_check_number("the datagram size", m.size_bytes, PCIBW_VAL_SIZE, where, err)))
			break;
		if ((r = cb(&m, ctx, err)))
			break;
		st->rows++;
		emitted++;
	}
	if (!r && emitted)
		ingest_stats_note(
		    st, "%s: no sender/receiver summary (test cut short?): the counted intervals averaged",
		    src->name);
	else if (!r)
		r = pcibw_fail(
		    err, PCIBW_EINPUT,
		    "%s:%u: no interval or summary line (expected iperf3's '[  5]   0.00-1.00   sec "
		    "...' lines)",
		    src->name, lr.line ? lr.line : 1);
out:
	free(t);
	return r;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Open an input (a path or "-"), tell its format from its first bytes, and hand it to the
 * format's reader. */
#include "ingest_int.h"
#include "src/util/input.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define HEAD_BYTES 8192

const char *pcibw_format_name(enum pcibw_format f)
{
	switch (f) {
	case PCIBW_FMT_CSV:
		return "csv";
	case PCIBW_FMT_IPERF3:
		return "iperf3";
	case PCIBW_FMT_NETPERF:
		return "netperf";
	case PCIBW_FMT_NETPERF_OMNI:
		return "netperf-omni";
	case PCIBW_FMT_PCIEBENCH:
		return "pcie-bench";
	case PCIBW_FMT_CPUSTAT:
		return "cpustat";
	case PCIBW_FMT_IPERF3_TEXT:
		return "iperf3-text";
	default:
		return "auto";
	}
}

bool ingest_blank(const char *s)
{
	if (*s > ' ' && *s != 0x7f) /* the common case, a field that starts with its text */
		return false;
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return false;
	return true;
}

void ingest_copy_text(char *dst, const char *src)
{
	snprintf(dst, PCIBW_MEASURE_TEXT, "%s", src ? src : "");
}

void ingest_stats_skip(struct pcibw_ingest_stats *st, const char *file, unsigned line, const char *why)
{
	if (st->skipped++ == 0) {
		/* line 0: a format without lines (JSON after its load); why names the place */
		if (line)
			snprintf(st->first_skip, sizeof st->first_skip, "%s:%u: %s", file, line, why);
		else
			snprintf(st->first_skip, sizeof st->first_skip, "%s: %s", file, why);
	}
}

void ingest_stats_note(struct pcibw_ingest_stats *st, const char *fmt, ...)
{
	if (st->n_notes >= (int)(sizeof st->notes / sizeof st->notes[0]))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->notes[st->n_notes], sizeof st->notes[0], fmt, ap);
	va_end(ap);
	for (int i = 0; i < st->n_notes; i++)
		if (!strcmp(st->notes[i], st->notes[st->n_notes]))
			return; /* said already */
	st->n_notes++;
}

void ingest_stats_warn(struct pcibw_ingest_stats *st, const char *fmt, ...)
{
	if (st->n_warnings >= (int)(sizeof st->warnings / sizeof st->warnings[0]))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->warnings[st->n_warnings], sizeof st->warnings[0], fmt, ap);
	va_end(ap);
	st->n_warnings++;
}

/* The next line of head starting at *p that is neither blank nor a '#' comment; its length. */
static const char *content_line(const char *head, size_t len, size_t *p, size_t *ll)
{
	while (*p < len) {
		size_t s = *p, e = s;
		while (e < len && head[e] != '\n')
			e++;
		*p = e < len ? e + 1 : e;
		size_t k = s;
		while (k < e && (head[k] == ' ' || head[k] == '\t' || head[k] == '\r'))
			k++;
		if (k == e || head[k] == '#')
			continue;
		*ll = e - k;
		return head + k;
	}
	return NULL;
}

static bool has(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle);
	for (size_t i = 0; i + m <= n; i++)
		if (!memcmp(s + i, needle, m))
			return true;
	return false;
}

static bool netperf_banner(const char *s, size_t n)
{
	return has(s, n, "MIGRATED") || has(s, n, " TEST from ") || has(s, n, " TEST to ") ||
	       has(s, n, "UNIDIRECTIONAL SEND TEST");
}

/*
 * The line (from 1) of a header pcie-bench's pcie-model writes for what it calculates (pcie_bw.py:
 * "Payload(Bytes)" "PCIe Write BW" "PCIe Write Trans/s" ...), 0 for any other first content line.
 * That output is a model's, not a measurement: read as CSV it would fail as malformed, or be set
 * against pcibw's own model as if it had been measured.
 */
static unsigned model_output_line(const char *head, size_t len)
{
	size_t p = 0, n = 0;
	const char *l = content_line(head, len, &p, &n);
	if (!l || !has(l, n, "\"Payload(Bytes)\"") || !has(l, n, "\"PCIe "))
		return 0;
	unsigned line = 1;
	for (const char *c = head; c < l; c++)
		line += *c == '\n';
	return line;
}

/* iperf3's text output opens with one of the lines iperf_locale.c writes first: the client's
 * "Connecting to host", the server's banner of dashes and "Server listening on", -V's "iperf 3.x"
 * version line; a cut capture may open with a "[ ID] Interval" header or a stream's "[  5] local
 * ... connected to" line. */
static bool iperf3_text_line(const char *l, size_t n, const char *head, size_t len, size_t p)
{
	if ((n >= 19 && !memcmp(l, "Connecting to host ", 19)) ||
	    (n >= 20 && !memcmp(l, "Server listening on ", 20)) ||
	    (n >= 14 && !memcmp(l, "[ ID] Interval", 14)) ||
	    (n >= 20 && !memcmp(l, "[ ID][Role] Interval", 20)) || (n >= 7 && !memcmp(l, "iperf 3", 7)))
		return true;
	if (n >= 5 && l[0] == '[' && has(l, n, "] local ") && has(l, n, " connected to "))
		return true;
	size_t dashes = 0;
	while (dashes < n && l[dashes] == '-')
		dashes++;
	if (dashes >= 10) {
		size_t n2 = 0;
		const char *l2 = content_line(head, len, &p, &n2);
		return l2 && n2 >= 20 && !memcmp(l2, "Server listening on ", 20);
	}
	return false;
}

enum pcibw_format pcibw_ingest_detect(const char *head, size_t len)
{
	if (len >= 3 && (unsigned char)head[0] == 0xEF && (unsigned char)head[1] == 0xBB &&
	    (unsigned char)head[2] == 0xBF) {
		head += 3;
		len -= 3;
	}
	size_t p = 0, n = 0;
	const char *l = content_line(head, len, &p, &n);
	if (!l)
		return PCIBW_FMT_CSV;
	if (iperf3_text_line(l, n, head, len, p)) /* before JSON: "[ ID]" opens with '[' too */
		return PCIBW_FMT_IPERF3_TEXT;
	if (l[0] == '{' || l[0] == '[') /* JSON: iperf3 -J writes an object, and says so otherwise */
		return PCIBW_FMT_IPERF3;
	if (n >= 14 && !memcmp(l, "Test,PAT,Cache", 14))
		return PCIBW_FMT_PCIEBENCH;
	/* sysstat's banner: "Linux 6.1.0 (host) \t12/01/26 \t_x86_64_\t(2 CPU)" */
	if (n >= 6 && !memcmp(l, "Linux ", 6) && has(l, n, " CPU)"))
		return PCIBW_FMT_CPUSTAT;
	if (has(l, n, "Throughput") && has(l, n, "Throughput Units") && memchr(l, ',', n))
		return PCIBW_FMT_NETPERF_OMNI;
	/* omni -O: the first of its four header lines names "Throughput" (classic output never
	 * does on its first line), with no commas and more than one column */
	if (has(l, n, "Throughput ") && !memchr(l, ',', n))
		return PCIBW_FMT_NETPERF_OMNI;
	if (netperf_banner(l, n)) {
		size_t n2 = 0;
		const char *l2 = content_line(head, len, &p, &n2);
		if (l2 && has(l2, n2, "Throughput") && (memchr(l2, ',', n2) || has(l2, n2, "Throughput ")))
			return PCIBW_FMT_NETPERF_OMNI;
		return PCIBW_FMT_NETPERF;
	}
	if ((n >= 11 && !memcmp(l, "Recv   Send", 11)) || (n >= 15 && !memcmp(l, "Socket  Message", 15)))
		return PCIBW_FMT_NETPERF;
	return PCIBW_FMT_CSV;
}

int pcibw_ingest_file(const char *path, const struct pcibw_ingest_opts *opts, pcibw_row_cb cb, void *ctx,
		      struct pcibw_ingest_stats *stats, struct pcibw_err *err)
{
	struct pcibw_ingest_opts defaults = {0};
	struct pcibw_ingest_stats local;
	if (!opts)
		opts = &defaults;
	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof *stats);
	bool is_stdin = !strcmp(path, "-");
	FILE *fp;
	int rc = pcibw_input_open(path, "a measurement file (CSV, iperf3 -J or text, netperf, pcie-bench)", 0,
				  &fp, err);
	if (rc)
		return rc;
	static char head[HEAD_BYTES];
	size_t n = fread(head, 1, sizeof head, fp);
	if (ferror(fp)) {
		fclose(fp);
		return pcibw_fail(err, PCIBW_EINPUT, "%s: read error: %s", path, strerror(errno));
	}
	struct ingest_src src = {
	    .name = is_stdin ? "-" : path, .fp = fp, .head = head, .head_len = n, .opts = opts};
	enum pcibw_format f = opts->format ? opts->format : pcibw_ingest_detect(head, n);
	unsigned model_line = f == PCIBW_FMT_CSV ? model_output_line(head, n) : 0;
	if (model_line) {
		fclose(fp);
		return pcibw_fail(
		    err, PCIBW_EINPUT,
		    "%s:%u: this is pcie-model's calculated output (pcie_bw.py's \"Payload(Bytes)\" "
		    "\"PCIe ... BW\" header), a model of the bus, not a measurement (expected "
		    "measured throughput: CSV, iperf3 -J, netperf or pcie-bench results; `pcibw "
		    "model --compat pcie-bench` gives the model itself)",
		    src.name, model_line);
	}
	stats->format = f;
	static const ingest_fn fns[] = {
	    [PCIBW_FMT_CSV] = ingest_csv,
	    [PCIBW_FMT_IPERF3] = ingest_iperf3,
	    [PCIBW_FMT_NETPERF] = ingest_netperf,
	    [PCIBW_FMT_NETPERF_OMNI] = ingest_netperf_omni,
	    [PCIBW_FMT_PCIEBENCH] = ingest_pciebench,
	    [PCIBW_FMT_CPUSTAT] = ingest_cpustat,
	    [PCIBW_FMT_IPERF3_TEXT] = ingest_iperf3_text,
	};
	int st = (unsigned)f < sizeof fns / sizeof fns[0] && fns[f]
		     ? fns[f](&src, opts, cb, ctx, stats, err)
		     : pcibw_fail(err, PCIBW_EUSAGE, "%s: input format %d is not one pcibw reads", src.name,
				  (int)f);
	fclose(fp);
	return st;
}

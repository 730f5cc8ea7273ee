/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers read from benchmark files, checked before anything believes them; the measured-row
 * null values and names. */
#include "ingest_int.h"
#include "pcibw/device.h"
#include "pcibw/number.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void pcibw_measured_init(struct pcibw_measured *m)
{
	memset(m, 0, sizeof *m);
	m->size_bytes = m->work = m->cpu_mhz = m->pps = m->gbps = NAN;
	m->cores = m->queues = m->threads = m->streams = m->mss = NAN;
	m->cpu_pct = m->core_max_pct = m->remote_cpu_pct = m->sd_us_per_kb = m->remote_sd_us_per_kb = NAN;
	m->direction = PCIBW_DIR_UNSET;
	m->poll_mode = PCIBW_NULL;
	m->size_conv = PCIBW_SIZE_OPTION;
	m->gbps_basis = PCIBW_BASIS_SIZE;
	pcibw_tcp_path_init(&m->tcp_path);
}

void pcibw_tcp_path_init(struct pcibw_tcp_path *p)
{
	memset(p, 0, sizeof *p);
	p->window_gbps = p->window_bytes = p->rtt_us = p->rtt_min_us = p->rtt_max_us = NAN;
	p->rttvar_us = p->max_cwnd_bytes = p->max_window_gbps = p->retransmits = NAN;
	p->segments = p->pmtu = NAN;
}

bool pcibw_tcp_path_known(const struct pcibw_tcp_path *p)
{
	return (p->samples > 0 && p->window_gbps > 0) || p->max_window_gbps > 0;
}

static const char *basis_names[] = {"size", "wire", "frame", "l3", "payload"};

const char *pcibw_rate_basis_name(enum pcibw_rate_basis b)
{
	return (unsigned)b < sizeof basis_names / sizeof basis_names[0] ? basis_names[b] : "?";
}

int pcibw_rate_basis_parse(const char *text, enum pcibw_rate_basis *out, struct pcibw_err *err)
{
	for (unsigned i = 1; i < sizeof basis_names / sizeof basis_names[0]; i++)
		if (!strcmp(text, basis_names[i])) {
			*out = (enum pcibw_rate_basis)i;
			return PCIBW_OK;
		}
	return pcibw_fail(err, PCIBW_EUSAGE, "--rate-basis '%s': expected wire, frame, l3 or payload", text);
}

int pcibw_cpu_scale_parse(const char *text, enum pcibw_cpu_scale *out, struct pcibw_err *err)
{
	if (!strcmp(text, "percent"))
		*out = PCIBW_CPU_SCALE_PERCENT;
	else if (!strcmp(text, "fraction"))
		*out = PCIBW_CPU_SCALE_FRACTION;
	else
		return pcibw_fail(err, PCIBW_EUSAGE, "--cpu-scale '%s': expected percent or fraction", text);
	return PCIBW_OK;
}

static const struct {
	double lo, hi;
	bool lo_open; /* value must be > lo rather than >= lo */
	const char *what;
} limits[] = {
    [PCIBW_VAL_SIZE] = {1, 16777216, false, "a size in bytes (1 to 16777216)"},
    [PCIBW_VAL_PPS] = {0, 1e10, false, "a packet rate (0 to 10^10 per second)"},
    [PCIBW_VAL_GBPS] = {0, 1e5, false, "a bit rate (0 to 100000 Gbit/s)"},
    [PCIBW_VAL_PCT] = {0, 100, false, "a percentage (0 to 100; cpu_pct is a share of all CPUs)"},
    [PCIBW_VAL_MHZ] = {1, 1e5, false, "a clock in MHz (1 to 100000)"},
    [PCIBW_VAL_WORK] = {0, 1e12, false, "an amount of work (0 or more)"},
    [PCIBW_VAL_SD] = {0, 1e9, false, "a service demand in us/KB (0 to 10^9)"},
    [PCIBW_VAL_SECONDS] = {0, 1e7, true, "a duration in seconds (more than 0)"},
    [PCIBW_VAL_COUNT] = {0, 1e18, false, "a count (0 or more)"},
    [PCIBW_VAL_PARALLEL] = {1, 1e6, false, "a count of cores, queues, threads or streams (1 to 10^6)"},
    [PCIBW_VAL_TIME] = {0, 1e10, false, "a time in seconds (0 to 10^10)"},
};

/*
 * A decimal number as people write them: blanks, an optional sign, digits with an optional '.',
 * an optional exponent, blanks; for a percentage also a trailing '%' ("45%", "45 %"). strtod()
 * alone would also take hexadecimal ("0x10" = 16), "inf", "nan" and "infinity", which no
 * benchmark writes for a rate: those are refused rather than read as a number nobody meant.
 * Returns PCIBW_NUM_OK with *v set (PCIBW_NUM_OVERFLOW: *v is the infinity of the sign written),
 * or why the text is not such a number.
 */
static enum pcibw_num_result parse_decimal(const char *text, enum pcibw_value_kind k, double *v)
{
	size_t n = strlen(text);
	if (n && (unsigned)(text[n - 1] - '0') >= 10) { /* not the common case of a final digit */
		while (n > 0 && isspace((unsigned char)text[n - 1]))
			n--;
		if (k == PCIBW_VAL_PCT && n > 0 && text[n - 1] == '%')
			n--;
	}
	enum pcibw_num_result r = pcibw_number_scan(text, n, PCIBW_NUM_SIGN | PCIBW_NUM_BLANKS, v);
	if (r == PCIBW_NUM_OVERFLOW) /* too large for a double: said as not finite, with the number quoted */
		*v = text[strspn(text, " \t")] == '-' ? -INFINITY : INFINITY;
	return r;
}

int pcibw_check_value(const char *text, enum pcibw_value_kind k, const char *where, double *out,
		      struct pcibw_err *err)
{
	double v;
	enum pcibw_num_result r = parse_decimal(text, k, &v);
	if (r == PCIBW_NUM_UNDERFLOW)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s: '%s' is too small for a double (not zero, but below 2.2e-308: "
				  "expected %s, written as 0 where it is zero)",
				  where, text, limits[k].what);
	if (r != PCIBW_NUM_OK && r != PCIBW_NUM_OVERFLOW) {
		char *e;
		double x = strtod(text, &e);
		if (e != text && !isfinite(x))
			return pcibw_fail(err, PCIBW_EINPUT, "%s: '%s' is not a finite number (expected %s)",
					  where, text, limits[k].what);
		const char *c = strchr(text, ',');
		bool decimal_comma =
		    c && isdigit((unsigned char)c[1]) && c > text && isdigit((unsigned char)c[-1]);
		return pcibw_fail(
		    err, PCIBW_EINPUT, "%s: '%s' is not a number (expected %s, written in decimal%s)", where,
		    text, limits[k].what,
		    decimal_comma ? " with '.' as the decimal point and no thousands separator" : "");
	}
	int st = ingest_check_number(text, v, k, where, err);
	if (st == PCIBW_OK)
		*out = v;
	return st;
}

int ingest_check_number(const char *text, double v, enum pcibw_value_kind k, const char *where,
			struct pcibw_err *err)
{
	if (isnan(v) || isinf(v))
		return pcibw_fail(err, PCIBW_EINPUT, "%s: '%s' is not a finite number (expected %s)", where,
				  text, limits[k].what);
	if (v < 0)
		return pcibw_fail(err, PCIBW_EINPUT, "%s: %s is negative (expected %s)", where, text,
				  limits[k].what);
	if (v > limits[k].hi || v < limits[k].lo || (limits[k].lo_open && v <= limits[k].lo))
		return pcibw_fail(err, PCIBW_EINPUT, "%s: %s is out of range (expected %s)", where, text,
				  limits[k].what);
	return PCIBW_OK;
}

struct value_range ingest_value_range(enum pcibw_value_kind k)
{
	return (struct value_range){limits[k].lo, limits[k].hi, limits[k].lo_open};
}

/* The hot path of every field: parse and check; nothing is formatted. */
static bool value_ok(const char *text, enum pcibw_value_kind k, double scale, double *out)
{
	double v;
	if (parse_decimal(text, k, &v) != PCIBW_NUM_OK || !(v >= 0))
		return false;
	double s = v * scale;
	if (!(s <= limits[k].hi && s >= limits[k].lo && !(limits[k].lo_open && s <= limits[k].lo)))
		return false;
	*out = s;
	return true;
}

int ingest_check_value_at(const char *text, enum pcibw_value_kind k, const char *file, unsigned line,
			  unsigned col, double scale, double *out, struct pcibw_err *err)
{
	if (value_ok(text, k, scale, out))
		return PCIBW_OK;
	double v = NAN;
	parse_decimal(text, k, &v);
	char where[600];
	snprintf(where, sizeof where, "%s:%u:%u", file, line, col);
	double dummy;
	int st = pcibw_check_value(text, k, where, &dummy, err);
	if (st == PCIBW_OK) /* the scaled value is out of range, the text itself was not */
		st = ingest_check_number(text, v * scale, k, where, err);
	if (st == PCIBW_OK) /* cannot happen: the fast path refused what the full check accepts */
		st = pcibw_fail(err, PCIBW_EINTERNAL, "%s: '%s' refused without a reason", where, text);
	return st;
}

int ingest_check_field(const struct csvr_record *rec, int i, enum pcibw_value_kind k, double scale,
		       double *out, struct pcibw_err *err)
{
	if (value_ok(rec->f[i], k, scale, out))
		return PCIBW_OK;
	return ingest_check_value_at(rec->f[i], k, rec->file, rec->line, ingest_csvr_col(rec, i), scale, out,
				     err);
}

int ingest_field_num(const struct csvr_record *rec, int i, enum pcibw_value_kind k, double *out,
		     struct pcibw_err *err)
{
	*out = NAN;
	if (i < 0 || ingest_blank(rec->f[i]))
		return PCIBW_OK;
	return ingest_check_field(rec, i, k, 1, out, err);
}

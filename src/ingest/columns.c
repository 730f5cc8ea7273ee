/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Header -> role, as the contract lists ("analyze input"): size columns and the convention each
 * implies, rate columns NAME or PREFIX_NAME with a unit pcibw knows, CPU columns, and the
 * grouping columns (direction, work/copies, cpu_mhz, iface, test). Units are matched exactly:
 * "MB/s" is megabytes and "Mb/s" megabits, so a lower-case "mb/s" is refused as ambiguous.
 *
 * Headers typed by people are normalised before the names are looked up: case is ignored, blanks
 * and hyphens become '_', '%' becomes "_pct", and a parenthesised or bracketed non-rate unit joins
 * the name ("Frame size (bytes)" -> frame_size_bytes, "CPU (%)" and "CPU %" -> cpu_pct,
 * "Clock [MHz]" -> clock_mhz). A rate unit may follow the name after '_', a blank or in
 * brackets ("Throughput (Mbit/s)", "rx Mpps", "send_kpps"); generic words before it
 * (throughput, bandwidth, rate, bw, tput) name no series.
 */
#include "columns.h"
#include "pcibw/error.h"
#include "pcibw/ingest.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	enum role_kind kind;
	enum pcibw_size_is conv;
	bool msg;
} named[] = {
    {"size", ROLE_SIZE, PCIBW_SIZE_OPTION, false},
    {"size_bytes", ROLE_SIZE, PCIBW_SIZE_OPTION, false},
    {"frame_bytes", ROLE_SIZE, PCIBW_SIZE_FRAME, false},
    {"payload_bytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true},
    {"msg_size", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true},
    {"message_bytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true},
    {"message_size", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true},
    {"l3_bytes", ROLE_SIZE, PCIBW_SIZE_L3, false},
    {"dma_bytes", ROLE_SIZE, PCIBW_SIZE_DMA, false},
    {"elapsed_s", ROLE_ELAPSED, 0, false},
    {"cpu_pct", ROLE_CPU, 0, false},
    {"local_cpu_pct", ROLE_CPU, 0, false},
    {"core_max_pct", ROLE_CORE_MAX, 0, false},
    {"remote_cpu_pct", ROLE_REMOTE_CPU, 0, false},
    {"sd_us_per_kb", ROLE_SD, 0, false},
    {"service_demand", ROLE_SD, 0, false},
    {"local_sd_us_per_kb", ROLE_SD, 0, false},
    {"remote_sd_us_per_kb", ROLE_REMOTE_SD, 0, false},
    {"direction", ROLE_DIRECTION, 0, false},
    {"work", ROLE_WORK, 0, false},
    {"copies", ROLE_WORK, 0, false},
    {"cpu_mhz", ROLE_CPU_MHZ, 0, false},
    {"iface", ROLE_IFACE, 0, false},
    {"test", ROLE_TEST, 0, false},
    /* spellings seen in spreadsheets: the same roles */
    {"frame_size", ROLE_SIZE, PCIBW_SIZE_FRAME, false},
    {"frame_size_bytes", ROLE_SIZE, PCIBW_SIZE_FRAME, false},
    {"frame_len", ROLE_SIZE, PCIBW_SIZE_FRAME, false},
    {"frame_length", ROLE_SIZE, PCIBW_SIZE_FRAME, false},
    {"packet_size", ROLE_SIZE, PCIBW_SIZE_OPTION, false},
    {"packet_size_bytes", ROLE_SIZE, PCIBW_SIZE_OPTION, false},
    {"pkt_size", ROLE_SIZE, PCIBW_SIZE_OPTION, false},
    {"size_b", ROLE_SIZE, PCIBW_SIZE_OPTION, false},
    {"payload_size", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true},
    {"payload_size_bytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true},
    {"udp_payload_bytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true},
    {"msg_size_bytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true},
    {"message_size_bytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true},
    {"cpu_util_pct", ROLE_CPU, 0, false},
    {"cpu_usage_pct", ROLE_CPU, 0, false},
    {"cpu_load_pct", ROLE_CPU, 0, false},
    {"cpu_utilization_pct", ROLE_CPU, 0, false},
    {"cpu_utilisation_pct", ROLE_CPU, 0, false},
    {"busiest_core_pct", ROLE_CORE_MAX, 0, false},
    {"max_core_pct", ROLE_CORE_MAX, 0, false},
    {"elapsed", ROLE_ELAPSED, 0, false},
    {"elapsed_sec", ROLE_ELAPSED, 0, false},
    {"duration_s", ROLE_ELAPSED, 0, false},
    {"dir", ROLE_DIRECTION, 0, false},
    {"interface", ROLE_IFACE, 0, false},
};

double rate_factor(enum rate_unit u)
{
	switch (u) {
	case U_PPS:
		return 1;
	case U_KPPS:
		return 1e3;
	case U_MPPS:
		return 1e6;
	case U_MBPS:
		return 1e-3;
	case U_GBPS:
		return 1;
	case U_MBYTES:
		return 8e-3; /* 10^6 bytes/s = 8 * 10^6 bit/s */
	}
	return NAN;
}

/* A unit token, matched exactly where case carries meaning. -1 if unknown. */
static int unit_of(const char *u)
{
	if (!strcmp(u, "MB/s"))
		return U_MBYTES;
	if (!strcmp(u, "Mb/s") || !strcasecmp(u, "mbit/s") || !strcasecmp(u, "mbps"))
		return U_MBPS;
	if (!strcmp(u, "Gb/s") || !strcasecmp(u, "gbit/s") || !strcasecmp(u, "gbps"))
		return U_GBPS;
	if (!strcasecmp(u, "pps"))
		return U_PPS;
	if (!strcasecmp(u, "kpps"))
		return U_KPPS;
	if (!strcasecmp(u, "mpps"))
		return U_MPPS;
	return -1;
}

static bool ends_with_ci(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcasecmp(s + n - m, suf);
}

/* Normalise n bytes of src into dst: lower case, blanks and '-' -> '_', '%' -> "_pct", runs of
 * '_' collapsed, no '_' at either end. */
static void norm_copy(char *dst, size_t cap, const char *src, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < cap; i++) {
		unsigned char c = (unsigned char)src[i];
		const char *rep = c == '%' ? "_pct" : NULL;
		char one[2] = {(char)(isspace(c) || c == '-' ? '_' : tolower(c)), '\0'};
		for (const char *r = rep ? rep : one; *r && k + 1 < cap; r++) {
			if (*r == '_' && (k == 0 || dst[k - 1] == '_'))
				continue;
			dst[k++] = *r;
		}
	}
	while (k && dst[k - 1] == '_')
		k--;
	dst[k] = '\0';
}

/* The series a rate prefix names: "" for the generic words that name none. */
static void series_copy(char *dst, size_t cap, const char *src, size_t n)
{
	static const char *generic[] = {"throughput", "bandwidth", "rate", "bw", "tput"};
	norm_copy(dst, cap, src, n);
	for (unsigned i = 0; i < sizeof generic / sizeof generic[0]; i++)
		if (!strcmp(dst, generic[i]))
			dst[0] = '\0';
}

/* A non-rate unit in brackets joins the name ("(bytes)" -> "_bytes"); NULL if not one. */
static const char *unit_suffix(const char *u)
{
	static const struct {
		const char *u, *suffix;
	} units[] = {
	    {"%", "_pct"},   {"bytes", "_bytes"}, {"byte", "_bytes"}, {"b", "_bytes"}, {"octets", "_bytes"},
	    {"mhz", "_mhz"}, {"s", "_s"},	  {"sec", "_s"},      {"secs", "_s"},  {"seconds", "_s"},
	};
	for (unsigned i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcasecmp(u, units[i].u))
			return units[i].suffix;
	return NULL;
}

/* Does a unit or a header look like a rate (so that an unknown one is refused, not ignored)? */
static bool rate_like(const char *s)
{
	return ends_with_ci(s, "bps") || ends_with_ci(s, "pps") || ends_with_ci(s, "/s") ||
	       ends_with_ci(s, "/sec") || strcasestr(s, "throughput") || strcasestr(s, "bandwidth");
}

static int role_of_name(const char *name, struct role *out)
{
	for (unsigned i = 0; i < sizeof named / sizeof named[0]; i++)
		if (!strcmp(name, named[i].name)) {
			out->kind = named[i].kind;
			out->conv = named[i].conv;
			out->msg = named[i].msg;
			return 1;
		}
	unsigned core;
	char tail;
	if (sscanf(name, "cpu%u_pct%c", &core, &tail) == 1 ||
	    sscanf(name, "core%u_pct%c", &core, &tail) == 1) {
		out->kind = ROLE_CORE;
		return 1;
	}
	return 0;
}

int role_parse(const char *header, struct role *out)
{
	memset(out, 0, sizeof *out);
	char h[160];
	snprintf(h, sizeof h, "%s", header);
	/* trim */
	char *s = h;
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	if (!n)
		return 0;

	char name[192];
	/* "NAME (unit)" or "NAME [unit]" */
	char close = s[n - 1], *open = close == ')' ? strrchr(s, '(') : close == ']' ? strrchr(s, '[') : NULL;
	if (open) {
		char unit[32];
		snprintf(unit, sizeof unit, "%.*s", (int)(s + n - 1 - open - 1), open + 1);
		char *u = unit;
		while (isspace((unsigned char)*u))
			u++;
		for (size_t k = strlen(u); k && isspace((unsigned char)u[k - 1]); k--)
			u[k - 1] = '\0';
		size_t pn = (size_t)(open - s);
		while (pn && s[pn - 1] == ' ')
			pn--;
		int ru = unit_of(u);
		if (ru >= 0) {
			out->kind = ROLE_RATE;
			out->unit = (enum rate_unit)ru;
			series_copy(out->prefix, sizeof out->prefix, s, pn);
			return 1;
		}
		const char *suffix = unit_suffix(u);
		if (!suffix)
			return -1; /* a unit pcibw does not know: refused, never guessed */
		norm_copy(name, sizeof name - 8, s, pn);
		strcat(name, suffix);
		return role_of_name(name, out);
	}

	norm_copy(name, sizeof name, s, n);
	if (role_of_name(name, out))
		return 1;

	/* "unit", "PREFIX_unit" or "PREFIX unit"; "msgs"/"packets" counts likewise. The unit is
	 * matched on the header as written (MB/s is not Mb/s). */
	char *us = strrchr(s, '_'), *sp = strrchr(s, ' ');
	if (sp > us)
		us = sp;
	const char *unit = us ? us + 1 : s;
	size_t pn = us ? (size_t)(us - s) : 0;
	if (!strcasecmp(unit, "msgs") || !strcasecmp(unit, "packets")) {
		out->kind = ROLE_COUNT;
		norm_copy(out->prefix, sizeof out->prefix, s, pn);
		return 1;
	}
	int u = unit_of(unit);
	if (u >= 0) {
		out->kind = ROLE_RATE;
		out->unit = (enum rate_unit)u;
		series_copy(out->prefix, sizeof out->prefix, s, pn);
		return 1;
	}
	/* Looks like a rate but the unit is not one pcibw knows: refuse rather than guess. */
	return rate_like(s) ? -1 : 0;
}

int pcibw_colmap_add(struct pcibw_ingest_opts *o, const char *arg, struct pcibw_err *err)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return pcibw_fail(err, PCIBW_EUSAGE, "--col '%s': expected ROLE=HEADER", arg);
	if (o->n_colmap >= PCIBW_MAX_COLMAP)
		return pcibw_fail(err, PCIBW_EUSAGE, "--col: at most %d mappings", PCIBW_MAX_COLMAP);
	struct pcibw_colmap *c = &o->colmap[o->n_colmap];
	snprintf(c->role, sizeof c->role, "%.*s", (int)(eq - arg), arg);
	snprintf(c->header, sizeof c->header, "%s", eq + 1);
	struct role r;
	if (role_parse(c->role, &r) != 1)
		return pcibw_fail(
		    err, PCIBW_EUSAGE,
		    "--col '%s': '%s' is not a role (expected size, frame_bytes, payload_bytes, "
		    "msg_size, l3_bytes, dma_bytes, [PREFIX_]pps|kpps|mpps|mbps|gbps|MB/s, "
		    "[PREFIX_]msgs, elapsed_s, cpu_pct, cpuN_pct, core_max_pct, remote_cpu_pct, "
		    "sd_us_per_kb, direction, work, copies, cpu_mhz, iface, test)",
		    arg, c->role);
	o->n_colmap++;
	return PCIBW_OK;
}

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
#include "src/util/nearest.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Names are compared in their compact form (lower case, letters and digits only, '%' -> "pct"):
 * "pkt_len", "Pkt Len" and "pkt-len" are one name. canon is the name pcibw states and suggests. */
static const struct alias {
	const char *compact;
	enum role_kind kind;
	enum pcibw_size_is conv;
	bool msg;
	const char *canon;
} named[] = {
    /* sizes: the convention the name implies (contract "Header -> size convention") */
    {"size", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"sizebytes", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"sizeb", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"len", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"length", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"packetsize", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"packetsizebytes", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"packetbytes", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"packetlen", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"packetlength", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"pktsize", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"pktsizebytes", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"pktbytes", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"pktlen", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"pktlength", ROLE_SIZE, PCIBW_SIZE_OPTION, false, "size"},
    {"framebytes", ROLE_SIZE, PCIBW_SIZE_FRAME, false, "frame_bytes"},
    {"framesize", ROLE_SIZE, PCIBW_SIZE_FRAME, false, "frame_bytes"},
    {"framesizebytes", ROLE_SIZE, PCIBW_SIZE_FRAME, false, "frame_bytes"},
    {"framelen", ROLE_SIZE, PCIBW_SIZE_FRAME, false, "frame_bytes"},
    {"framelength", ROLE_SIZE, PCIBW_SIZE_FRAME, false, "frame_bytes"},
    {"l2size", ROLE_SIZE, PCIBW_SIZE_FRAME, false, "frame_bytes"},
    {"l2bytes", ROLE_SIZE, PCIBW_SIZE_FRAME, false, "frame_bytes"},
    {"l2len", ROLE_SIZE, PCIBW_SIZE_FRAME, false, "frame_bytes"},
    {"payloadbytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "payload_bytes"},
    {"payloadsize", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "payload_bytes"},
    {"payloadsizebytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "payload_bytes"},
    {"payloadlen", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "payload_bytes"},
    {"udppayloadbytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "payload_bytes"},
    {"msgsize", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "msg_size"},
    {"msgsizebytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "msg_size"},
    {"msgbytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "msg_size"},
    {"msglen", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "msg_size"},
    {"messagebytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "msg_size"},
    {"messagesize", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "msg_size"},
    {"messagesizebytes", ROLE_SIZE, PCIBW_SIZE_UDP_PAYLOAD, true, "msg_size"},
    {"l3bytes", ROLE_SIZE, PCIBW_SIZE_L3, false, "l3_bytes"},
    {"l3size", ROLE_SIZE, PCIBW_SIZE_L3, false, "l3_bytes"},
    {"l3len", ROLE_SIZE, PCIBW_SIZE_L3, false, "l3_bytes"},
    {"iplen", ROLE_SIZE, PCIBW_SIZE_L3, false, "l3_bytes"},
    {"dmabytes", ROLE_SIZE, PCIBW_SIZE_DMA, false, "dma_bytes"},
    {"dmasize", ROLE_SIZE, PCIBW_SIZE_DMA, false, "dma_bytes"},
    /* the CPU: the share of all CPUs, the busiest core, the other end */
    {"cpupct", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpu", ROLE_CPU, 0, false, "cpu_pct"},
    {"pctcpu", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpuutil", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpuutilpct", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpuusage", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpuusagepct", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpuload", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpuloadpct", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpuutilization", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpuutilizationpct", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpuutilisation", ROLE_CPU, 0, false, "cpu_pct"},
    {"cpuutilisationpct", ROLE_CPU, 0, false, "cpu_pct"},
    {"localcpupct", ROLE_CPU, 0, false, "cpu_pct"},
    {"localcpu", ROLE_CPU, 0, false, "cpu_pct"},
    {"coremaxpct", ROLE_CORE_MAX, 0, false, "core_max_pct"},
    {"coremax", ROLE_CORE_MAX, 0, false, "core_max_pct"},
    {"busiestcorepct", ROLE_CORE_MAX, 0, false, "core_max_pct"},
    {"busiestcore", ROLE_CORE_MAX, 0, false, "core_max_pct"},
    {"maxcorepct", ROLE_CORE_MAX, 0, false, "core_max_pct"},
    {"maxcore", ROLE_CORE_MAX, 0, false, "core_max_pct"},
    {"remotecpupct", ROLE_REMOTE_CPU, 0, false, "remote_cpu_pct"},
    {"remotecpu", ROLE_REMOTE_CPU, 0, false, "remote_cpu_pct"},
    {"sdusperkb", ROLE_SD, 0, false, "sd_us_per_kb"},
    {"servicedemand", ROLE_SD, 0, false, "sd_us_per_kb"},
    {"localsdusperkb", ROLE_SD, 0, false, "sd_us_per_kb"},
    {"remotesdusperkb", ROLE_REMOTE_SD, 0, false, "remote_sd_us_per_kb"},
    /* keys */
    {"direction", ROLE_DIRECTION, 0, false, "direction"},
    {"dir", ROLE_DIRECTION, 0, false, "direction"},
    {"work", ROLE_WORK, 0, false, "work"},
    {"copies", ROLE_WORK, 0, false, "work"},
    {"cpumhz", ROLE_CPU_MHZ, 0, false, "cpu_mhz"},
    {"clockmhz", ROLE_CPU_MHZ, 0, false, "cpu_mhz"},
    {"freqmhz", ROLE_CPU_MHZ, 0, false, "cpu_mhz"},
    {"mhz", ROLE_CPU_MHZ, 0, false, "cpu_mhz"},
    {"cores", ROLE_CORES, 0, false, "cores"},
    {"ncores", ROLE_CORES, 0, false, "cores"},
    {"numcores", ROLE_CORES, 0, false, "cores"},
    {"corecount", ROLE_CORES, 0, false, "cores"},
    {"ncpus", ROLE_CORES, 0, false, "cores"},
    {"queues", ROLE_QUEUES, 0, false, "queues"},
    {"nqueues", ROLE_QUEUES, 0, false, "queues"},
    {"numqueues", ROLE_QUEUES, 0, false, "queues"},
    {"queuecount", ROLE_QUEUES, 0, false, "queues"},
    {"rings", ROLE_QUEUES, 0, false, "queues"},
    {"channels", ROLE_QUEUES, 0, false, "queues"},
    {"threads", ROLE_THREADS, 0, false, "threads"},
    {"nthreads", ROLE_THREADS, 0, false, "threads"},
    {"numthreads", ROLE_THREADS, 0, false, "threads"},
    {"threadcount", ROLE_THREADS, 0, false, "threads"},
    {"streams", ROLE_STREAMS, 0, false, "streams"},
    {"nstreams", ROLE_STREAMS, 0, false, "streams"},
    {"numstreams", ROLE_STREAMS, 0, false, "streams"},
    {"parallel", ROLE_STREAMS, 0, false, "streams"},
    {"flows", ROLE_STREAMS, 0, false, "streams"},
    {"iface", ROLE_IFACE, 0, false, "iface"},
    {"interface", ROLE_IFACE, 0, false, "iface"},
    {"ifname", ROLE_IFACE, 0, false, "iface"},
    {"test", ROLE_TEST, 0, false, "test"},
    {"testname", ROLE_TEST, 0, false, "test"},
    /* the TCP path: a window per round trip bounds the rate (tcp_window.c) */
    {"rttms", ROLE_RTT, 0, false, "rtt_ms"},
    {"rtt", ROLE_RTT, 0, false, "rtt_ms"},
    {"srttms", ROLE_RTT, 0, false, "rtt_ms"},
    {"meanrttms", ROLE_RTT, 0, false, "rtt_ms"},
    {"cwndbytes", ROLE_CWND, 0, false, "cwnd_bytes"},
    {"cwnd", ROLE_CWND, 0, false, "cwnd_bytes"},
    {"sndcwnd", ROLE_CWND, 0, false, "cwnd_bytes"},
    {"sndcwndbytes", ROLE_CWND, 0, false, "cwnd_bytes"},
    {"windowbytes", ROLE_WINDOW, 0, false, "window_bytes"},
    {"window", ROLE_WINDOW, 0, false, "window_bytes"},
    {"tcpwindow", ROLE_WINDOW, 0, false, "window_bytes"},
    {"tcpwindowbytes", ROLE_WINDOW, 0, false, "window_bytes"},
    {"pollmode", ROLE_POLL_MODE, 0, false, "poll_mode"},
    {"polling", ROLE_POLL_MODE, 0, false, "poll_mode"},
    /* when the line was measured (watch --format csv's interval end): the span of the input */
    {"times", ROLE_TIME, 0, false, "time_s"},
    {"time", ROLE_TIME, 0, false, "time_s"},
    {"timesec", ROLE_TIME, 0, false, "time_s"},
    {"elapseds", ROLE_ELAPSED, 0, false, "elapsed_s"},
    {"elapsed", ROLE_ELAPSED, 0, false, "elapsed_s"},
    {"elapsedsec", ROLE_ELAPSED, 0, false, "elapsed_s"},
    {"durations", ROLE_ELAPSED, 0, false, "elapsed_s"},
    {"duration", ROLE_ELAPSED, 0, false, "elapsed_s"},
};
#define N_NAMED (sizeof named / sizeof named[0])

double ingest_rate_factor(enum rate_unit u)
{
	switch (u) {
	case U_PPS:
		return 1;
	case U_KPPS:
		return 1e3;
	case U_MPPS:
		return 1e6;
	case U_KBPS:
		return 1e-6;
	case U_MBPS:
		return 1e-3;
	case U_GBPS:
		return 1;
	case U_MBYTES:
		return 8e-3; /* 10^6 bytes/s = 8 * 10^6 bit/s */
	case U_GBYTES:
		return 8;
	}
	return NAN;
}

/* A unit token. Where case carries meaning it is matched exactly: a capital B is bytes (MB/s,
 * MBps, MByte/s), a small b bits (Mb/s, Mbps, and the contract's lower-case mbps); a spelled-out
 * unit (Mbit/s, MByte/s) is matched in any case. -1 if unknown or ambiguous (mb/s, MBPS). */
static int unit_of(const char *u)
{
	static const struct {
		const char *u;
		bool exact;
		enum rate_unit unit;
	} units[] = {
	    {"MB/s", true, U_MBYTES},	   {"MBps", true, U_MBYTES},	     {"MByte/s", false, U_MBYTES},
	    {"MBytes/s", false, U_MBYTES}, {"megabytes/s", false, U_MBYTES}, {"GB/s", true, U_GBYTES},
	    {"GBps", true, U_GBYTES},	   {"GByte/s", false, U_GBYTES},     {"GBytes/s", false, U_GBYTES},
	    {"Mb/s", true, U_MBPS},	   {"Mbps", true, U_MBPS},	     {"mbps", true, U_MBPS},
	    {"Mbit/s", false, U_MBPS},	   {"Mbits/s", false, U_MBPS},	     {"megabits/s", false, U_MBPS},
	    {"Gb/s", true, U_GBPS},	   {"Gbps", true, U_GBPS},	     {"gbps", true, U_GBPS},
	    {"Gbit/s", false, U_GBPS},	   {"Gbits/s", false, U_GBPS},	     {"gigabits/s", false, U_GBPS},
	    {"Kbps", true, U_KBPS},	   {"kbps", true, U_KBPS},	     {"kb/s", true, U_KBPS},
	    {"Kb/s", true, U_KBPS},	   {"kbit/s", false, U_KBPS},	     {"kbits/s", false, U_KBPS},
	    {"pps", false, U_PPS},	   {"pkt/s", false, U_PPS},	     {"pkts/s", false, U_PPS},
	    {"packets/s", false, U_PPS},   {"msg/s", false, U_PPS},	     {"msgs/s", false, U_PPS},
	    {"messages/s", false, U_PPS},  {"kpps", false, U_KPPS},	     {"mpps", false, U_MPPS},
	};
	for (unsigned i = 0; i < sizeof units / sizeof units[0]; i++)
		if (units[i].exact ? !strcmp(u, units[i].u) : !strcasecmp(u, units[i].u))
			return (int)units[i].unit;
	return -1;
}

static bool ends_with_ci(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcasecmp(s + n - m, suf);
}

/* The compact form of n bytes of src: lower-case letters and digits, '%' -> "pct", the rest
 * (blanks, '_', '-', '.', '/', '#', brackets) dropped. */
static void compact_copy(char *dst, size_t cap, const char *src, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < cap; i++) {
		unsigned char c = (unsigned char)src[i];
		if (c == '%') {
			for (const char *r = "pct"; *r && k + 1 < cap; r++)
				dst[k++] = *r;
		} else if (isalnum(c)) {
			dst[k++] = (char)tolower(c);
		}
	}
	dst[k] = '\0';
}

/* The series a rate prefix names, normalised ("Send Rx" -> "send_rx"): "" for the generic words
 * that name none. */
static void series_copy(char *dst, size_t cap, const char *src, size_t n)
{
	static const char *generic[] = {"throughput", "bandwidth", "rate", "bw", "tput", "goodput", "speed"};
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < cap; i++) {
		unsigned char c = (unsigned char)src[i];
		if (isalnum(c))
			dst[k++] = (char)tolower(c);
		else if (k && dst[k - 1] != '_')
			dst[k++] = '_';
	}
	while (k && dst[k - 1] == '_')
		k--;
	dst[k] = '\0';
	for (unsigned i = 0; i < sizeof generic / sizeof generic[0]; i++)
		if (!strcmp(dst, generic[i]))
			dst[0] = '\0';
}

/* A non-rate unit in brackets joins the name ("(bytes)" -> "bytes"); NULL if not one. */
static const char *unit_suffix(const char *u)
{
	static const struct {
		const char *u, *suffix;
	} units[] = {
	    {"%", "pct"},	 {"bytes", "bytes"}, {"byte", "bytes"},	   {"b", "bytes"},
	    {"octets", "bytes"}, {"mhz", "mhz"},     {"s", "s"},	   {"sec", "s"},
	    {"secs", "s"},	 {"seconds", "s"},   {"us/kb", "usperkb"},
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

static int role_of_compact(const char *name, struct role *out)
{
	for (unsigned i = 0; i < N_NAMED; i++)
		if (!strcmp(name, named[i].compact)) {
			out->kind = named[i].kind;
			out->conv = named[i].conv;
			out->msg = named[i].msg;
			out->canon = named[i].canon;
			return 1;
		}
	unsigned core;
	int end = 0;
	if ((sscanf(name, "cpu%upct%n", &core, &end) == 1 && !name[end]) ||
	    (sscanf(name, "core%upct%n", &core, &end) == 1 && !name[end]) ||
	    (sscanf(name, "cpu%u%n", &core, &end) == 1 && !name[end]) ||
	    (sscanf(name, "core%u%n", &core, &end) == 1 && !name[end])) {
		out->kind = ROLE_CORE;
		out->canon = "cpuN_pct";
		return 1;
	}
	return 0;
}

/* "NAME (unit)" or "NAME [unit]": the unit (trimmed) into unit, the name's length; 0 if none. */
static size_t bracket_unit(const char *s, size_t n, char *unit, size_t cap)
{
	char close = n ? s[n - 1] : 0;
	const char *open = NULL;
	for (const char *p = s; p < s + n - 1; p++)
		if ((close == ')' && *p == '(') || (close == ']' && *p == '['))
			open = p;
	if (!open)
		return 0;
	const char *u = open + 1, *e = s + n - 1;
	while (u < e && isspace((unsigned char)*u))
		u++;
	while (e > u && isspace((unsigned char)e[-1]))
		e--;
	snprintf(unit, cap, "%.*s", (int)(e - u), u);
	size_t pn = (size_t)(open - s);
	while (pn && isspace((unsigned char)s[pn - 1]))
		pn--;
	return pn ? pn : (size_t)-1;
}

int ingest_role_parse(const char *header, struct role *out)
{
	memset(out, 0, sizeof *out);
	const char *s = header;
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n || n > 150)
		return 0;

	char name[192], unit[48];
	size_t pn = bracket_unit(s, n, unit, sizeof unit);
	if (pn) {
		if (pn == (size_t)-1)
			pn = 0;
		int ru = unit_of(unit);
		if (ru >= 0) {
			out->kind = ROLE_RATE;
			out->unit = (enum rate_unit)ru;
			series_copy(out->prefix, sizeof out->prefix, s, pn);
			out->canon = "rate";
			return 1;
		}
		const char *suffix = unit_suffix(unit);
		if (!suffix)
			return -1; /* a unit pcibw does not know: refused, never guessed */
		compact_copy(name, sizeof name - 16, s, pn);
		strcat(name, suffix);
		return role_of_compact(name, out);
	}

	compact_copy(name, sizeof name, s, n);
	if (role_of_compact(name, out))
		return 1;

	/* "unit", "PREFIX_unit", "PREFIX unit" or "PREFIX-unit"; "msgs"/"packets" counts likewise. The
	 * unit is matched on the header as written (MB/s is not Mb/s). */
	size_t cut = n;
	while (cut && s[cut - 1] != '_' && s[cut - 1] != ' ' && s[cut - 1] != '-')
		cut--;
	snprintf(unit, sizeof unit, "%.*s", (int)(n - cut), s + cut);
	pn = cut ? cut - 1 : 0;
	if (!strcasecmp(unit, "msgs") || !strcasecmp(unit, "packets") || !strcasecmp(unit, "pkts") ||
	    !strcasecmp(unit, "messages")) {
		out->kind = ROLE_COUNT;
		series_copy(out->prefix, sizeof out->prefix, s, pn);
		out->canon = "msgs";
		return 1;
	}
	int u = unit_of(unit);
	if (u >= 0) {
		out->kind = ROLE_RATE;
		out->unit = (enum rate_unit)u;
		series_copy(out->prefix, sizeof out->prefix, s, pn);
		out->canon = "rate";
		return 1;
	}
	/* Looks like a rate but the unit is not one pcibw knows: refuse rather than guess. */
	char whole[160];
	snprintf(whole, sizeof whole, "%.*s", (int)n, s);
	return rate_like(whole) ? -1 : 0;
}

/* Edit distance of two short strings, capped at 9 (a swap of two neighbours counts one, as a
 * typing slip does); a name past 40 characters is too far from any role to suggest one. */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 40 || lb > 40)
		return 9;
	return pcibw_edit_distance(a, la, b, lb);
}

const char *ingest_role_suggest(const char *header)
{
	static const char *units[] = {"pps", "kpps", "mpps", "mbps", "gbps"};
	char c[192];
	compact_copy(c, sizeof c, header, strlen(header));
	size_t n = strlen(c);
	if (n < 3)
		return NULL;
	/* one slip, or two in a longer name that starts as the known one does */
	int best = 2;
	const char *name = NULL;
	for (unsigned i = 0; i < N_NAMED; i++) {
		int d = distance(c, named[i].compact);
		if (d == 2 && (n <= 8 || strncmp(c, named[i].compact, 2)))
			continue;
		if (d <= best && (d < best || !name)) {
			best = d;
			name = named[i].canon;
		}
	}
	for (unsigned i = 0; i < sizeof units / sizeof units[0]; i++) {
		int d = distance(c, units[i]);
		if (d <= 1 && d <= best && (d < best || !name)) {
			best = d;
			name = units[i];
		}
	}
	return name;
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
	if (ingest_role_parse(c->role, &r) != 1)
		return pcibw_fail(
		    err, PCIBW_EUSAGE,
		    "--col '%s': '%s' is not a role (expected size, frame_bytes, payload_bytes, "
		    "msg_size, l3_bytes, dma_bytes, "
		    "[PREFIX_]pps|kpps|mpps|mbps|gbps|MB/s, [PREFIX_]msgs, elapsed_s, cpu_pct, "
		    "cpuN_pct, core_max_pct, remote_cpu_pct, sd_us_per_kb, direction, work, copies, "
		    "cpu_mhz, cores, queues, threads, streams, iface, test)",
		    arg, c->role);
	/* one role per column and one column per role: either twice would drop one silently. Roles
	 * are compared as parsed, so an alias (size and frame_bytes, gbps and mbps) is the same role;
	 * a series has one packet rate and one bit rate (as the CSV reader takes them), and cpuN
	 * columns differ by their N, which the parsed role does not keep. */
	for (int i = 0; i < o->n_colmap; i++) {
		const struct pcibw_colmap *p = &o->colmap[i];
		struct role q;
		ingest_role_parse(p->role, &q);
		if (q.kind == r.kind && !strcasecmp(q.prefix, r.prefix) &&
		    (r.kind != ROLE_RATE || rate_is_packets(q.unit) == rate_is_packets(r.unit)) &&
		    (r.kind != ROLE_CORE || !strcasecmp(p->role, c->role)))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--col %s given twice ('%s=%s' and '%s'): give it once", c->role,
					  p->role, p->header, arg);
		if (!strcmp(p->header, c->header))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--col: column '%s' given two roles ('%s' and '%s'): a column is "
					  "read as one",
					  c->header, p->role, c->role);
	}
	o->n_colmap++;
	return PCIBW_OK;
}

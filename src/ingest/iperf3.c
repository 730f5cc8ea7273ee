/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iperf3 -J (iperf 3.x JSON, read with jansson). Rows: the sender and receiver sums at the end
 * (end.sum_sent / end.sum_received, and with --bidir end.sum_sent_bidir_reverse /
 * sum_received_bidir_reverse; a UDP test of 3.x before sum_sent gives end.sum), with the
 * CPU of the host each side ran on (end.cpu_utilization_percent host_total / remote_total; the
 * client is the sender unless start.test_start.reverse). A capture cut short has no end: its
 * intervals that were not omitted (-O warm-up) stand in for it.
 *
 * iperf3 measures CPU as its own process's user+system time over wall time (iperf_util.c
 * cpu_util()), i.e. a share of ONE core: iperf3 before 3.16 runs one thread, so the figure is a
 * lower bound on the busiest core and is read as core_max_pct.
 * UDP: the datagram size is start.test_start.blksize (payload bytes) and packets are counted,
 * so each row has a packet rate. TCP: blksize is a write size, not a packet size; the MSS iperf3
 * reports (start.tcp_mss_default) gives the segments (pcibw_rows_packets).
 */
#include "ingest_int.h"
#include "pcibw/nic.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(const struct ingest_src *src, const char *path, const char *expected, struct pcibw_err *err)
{
	return pcibw_fail(err, PCIBW_EINPUT, "%s: iperf3 JSON key %s: expected %s", src->name, path,
			  expected);
}

/* A number at obj.key, or NAN if absent; a wrong type or a bad value is an error. */
static int get_num(const struct ingest_src *src, json_t *obj, const char *path, const char *key,
		   enum pcibw_value_kind k, double *out, struct pcibw_err *err)
{
	*out = NAN;
	json_t *v = obj ? json_object_get(obj, key) : NULL;
	if (!v || json_is_null(v))
		return PCIBW_OK;
	char where[700], text[64];
	snprintf(where, sizeof where, "%s: iperf3 JSON key %s.%s", src->name, path, key);
	if (!json_is_number(v))
		return pcibw_fail(err, PCIBW_EINPUT, "%s: expected a number", where);
	double d = json_number_value(v);
	snprintf(text, sizeof text, "%.17g", d);
	int st = ingest_check_number(text, d, k, where, err);
	if (st == PCIBW_OK)
		*out = d;
	return st;
}

/* bits_per_second at obj.bits_per_second, or NAN if absent or null: a rate, so a bad one is
 * refused as a bit rate (the limits of Gbit/s), not as a count. */
static int get_bps(const struct ingest_src *src, json_t *obj, const char *path, double *out,
		   struct pcibw_err *err)
{
	*out = NAN;
	json_t *v = obj ? json_object_get(obj, "bits_per_second") : NULL;
	if (!v || json_is_null(v))
		return PCIBW_OK;
	char where[700], text[64];
	snprintf(where, sizeof where, "%s: iperf3 JSON key %s.bits_per_second", src->name, path);
	if (!json_is_number(v))
		return pcibw_fail(err, PCIBW_EINPUT, "%s: expected a number (bit/s)", where);
	double d = json_number_value(v);
	snprintf(text, sizeof text, "%.17g bit/s", d);
	int st = ingest_check_number(text, d / 1e9, PCIBW_VAL_GBPS, where, err);
	if (st == PCIBW_OK)
		*out = d;
	return st;
}

struct side {
	const char *key;    /* "sum_sent" ... */
	const char *series; /* "sender" / "receiver" */
	bool receiver;
};

static int emit_sum(const struct ingest_src *src, json_t *sum, const char *path, const struct side *sd,
		    const struct pcibw_measured *base, bool udp, double cpu, pcibw_row_cb cb, void *ctx,
		    struct pcibw_ingest_stats *st, struct pcibw_err *err)
{
	struct pcibw_measured m = *base;
	double bps, secs, packets, lost, bytes;
	int r;
	if (!json_is_object(sum))
		return bad(src, path, "an object", err);
	if ((r = get_bps(src, sum, path, &bps, err)) ||
	    (r = get_num(src, sum, path, "seconds", PCIBW_VAL_COUNT, &secs, err)) ||
	    (r = get_num(src, sum, path, "packets", PCIBW_VAL_COUNT, &packets, err)) ||
	    (r = get_num(src, sum, path, "lost_packets", PCIBW_VAL_COUNT, &lost, err)) ||
	    (r = get_num(src, sum, path, "bytes", PCIBW_VAL_COUNT, &bytes, err)))
		return r;
	if (isnan(bps)) {
		char why[300];
		/* JSON has no line per value after the load: the key's path says where */
		snprintf(why, sizeof why, "iperf3 JSON key %s.bits_per_second is %s: sum left out", path,
			 json_object_get(sum, "bits_per_second") ? "null" : "missing");
		ingest_stats_skip(st, src->name, 0, why);
		return PCIBW_OK;
	}
	char where[600];
	snprintf(where, sizeof where, "%s: iperf3 JSON key %s.bits_per_second", src->name, path);
	m.gbps = bps / 1e9;
	if ((r = ingest_check_number("bits_per_second", m.gbps, PCIBW_VAL_GBPS, where, err)))
		return r;
	/* iperf3 counts application bytes: the UDP payload, or what TCP delivered */
	m.gbps_basis = udp ? PCIBW_BASIS_PAYLOAD : PCIBW_BASIS_SIZE;
	if (udp && secs > 0) {
		/* Every iperf3 UDP datagram is blksize bytes, so bytes / blksize counts the datagrams
		 * that arrived. Before 3.14 the receiver's lost_packets also counts the datagrams of
		 * the -O omitted interval (esnet/iperf issue #1489, fixed by PR #1498), so
		 * packets - lost_packets is only the fallback when bytes is absent. */
		double got = NAN;
		if (!isnan(bytes) && m.size_bytes > 0)
			got = bytes / m.size_bytes;
		else if (!isnan(packets))
			got = packets - (sd->receiver && !isnan(lost) ? lost : 0);
		if (got >= 0) {
			m.pps = got / secs;
			char text[64];
			snprintf(where, sizeof where, "%s: iperf3 JSON key %s: packets / seconds", src->name,
				 path);
			snprintf(text, sizeof text, "%g pps", m.pps);
			if ((r = ingest_check_number(text, m.pps, PCIBW_VAL_PPS, where, err)))
				return r;
		}
	}
	snprintf(m.series, sizeof m.series, "%s", sd->series);
	m.direction = sd->receiver ? PCIBW_PAT_RX : PCIBW_PAT_TX;
	m.core_max_pct = cpu;
	m.core_is_process = !isnan(cpu); /* iperf3 measures its own process, not the host */
	if ((r = cb(&m, ctx, err)))
		return r;
	st->rows++;
	return PCIBW_OK;
}

/* a sum of 0 bytes at 0 bit/s (what an iperf3 server writes for the direction it did not carry) */
static bool blank_sum(json_t *sum)
{
	json_t *b = json_object_get(sum, "bytes"), *bps = json_object_get(sum, "bits_per_second");
	return json_is_number(b) && json_number_value(b) == 0 && json_is_number(bps) &&
	       json_number_value(bps) == 0;
}

/* a sum that moved bytes */
static bool carried(json_t *sum)
{
	json_t *b = json_object_get(sum, "bytes");
	return json_is_number(b) && json_number_value(b) > 0;
}

/* Datagrams lost, as iperf3 itself counts them: the receiver's lost_packets of its packets
 * (what iperf3 prints as Lost/Total). Where the bytes the two sides counted say otherwise by
 * more than 1 %, that is stated too: iperf3 before 3.14 also counts the datagrams of the -O
 * omitted interval as lost (esnet/iperf issue #1489, fixed by PR #1498). */
static void udp_loss_note(const struct ingest_src *src, json_t *ss, json_t *sr, const char *key,
			  double blksize, const char *which, struct pcibw_ingest_stats *st)
{
	if (!json_is_object(sr))
		return;
	json_t *jl = json_object_get(sr, "lost_packets"), *jp = json_object_get(sr, "packets");
	if (!json_is_number(jl) || !json_is_number(jp))
		return;
	double lost = json_number_value(jl), total = json_number_value(jp);
	if (lost > total && lost > 0) {
		/* iperf3 counts lost datagrams among its packets: more lost than counted is no loss
		 * figure (a hand-edited or corrupt file), so none is stated, and that is said */
		ingest_stats_warn(
		    st,
		    "%s: end.%s.lost_packets %.0f is more than its packets %.0f%s: iperf3 counts "
		    "the lost datagrams among the packets, so these counts are inconsistent and no "
		    "loss is stated",
		    src->name, key, lost, total, which);
		return;
	}
	if (!(lost > 0) || !(total > 0))
		return;
	char bytes_words[200] = "";
	if (json_is_object(ss) && blksize > 0) {
		double sent = json_number_value(json_object_get(ss, "bytes"));
		double got = json_number_value(json_object_get(sr, "bytes"));
		double by_bytes = (sent - got) / blksize;
		if (sent > 0 && got >= 0 && fabs(by_bytes - lost) > 0.01 * lost)
			snprintf(
			    bytes_words, sizeof bytes_words,
			    "; the bytes each side counted differ by %.0f datagrams (iperf3 before 3.14 also "
			    "counts the -O omitted interval's datagrams as lost)",
			    by_bytes);
	}
	ingest_stats_note(
	    st,
	    "%s: %.0f of %.0f datagrams (%.3g %%) lost, as iperf3 counts them (end.%s.lost_packets)%s%s%s",
	    src->name, lost, total, lost / total * 100, key, which,
	    lost / total >= 0.01 ? ": drops are part of the limit (socket buffer, NIC ring or CPU)" : "",
	    bytes_words);
}

/*
 * iperf3 3.12 with -P N writes start.sock_bufsize, sndbuf_actual and rcvbuf_actual once per
 * stream into the one start object (tests/data/bench/iperf3-3.12-loopback-tcp-P2.json), and its
 * server writes start.target_bitrate twice, once on start and once with the accepted connection
 * (tests/data/bench/iperf3-3.12-loopback-udp-1024B-400M-server.json). pcibw reads none of the
 * four, so each repeat of them is renamed in this private copy to a name of
 * its own of the same length (sock_buf0001, ...) before the strict load, which then refuses
 * every other key given twice. A key is the string token followed by ':'; an unescaped '"'
 * after '{', ',' or a blank always opens a string token in JSON that loads, and renaming
 * letters to letters and digits never makes JSON that does not load load.
 */
static void rename_stream_keys(char *text, size_t len)
{
	static const char *const keys[] = {"\"sock_bufsize\"", "\"sndbuf_actual\"", "\"rcvbuf_actual\"",
					   "\"target_bitrate\""};
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		size_t kl = strlen(keys[k]);
		unsigned seen = 0;
		for (char *p = text; (p = memmem(p, len - (size_t)(p - text), keys[k], kl)); p += kl) {
			const char *q = p + kl, *end = text + len, *b = p;
			while (b > text && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n' || b[-1] == '\r'))
				b--;
			while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
				q++;
			if (b == text || (b[-1] != '{' && b[-1] != ',') || q == end || *q != ':')
				continue;
			if (seen++ == 0 || seen > 9999)
				continue; /* the first stays; more than 9999 streams is no iperf3 (128 at
					     most) */
			char num[12];
			snprintf(num, sizeof num, "%04u", seen - 1);
			memcpy(p + kl - 1 - 4, num, 4); /* the last 4 letters before the closing quote */
		}
	}
}

/* The key whose second occurrence jansson stopped after (pos: the byte after its token) as
 * FILE:LINE:COLUMN of its opening quote, columns counted in bytes. */
static int duplicate_key(const struct ingest_src *src, const char *text, size_t pos, struct pcibw_err *err)
{
	size_t close = pos ? pos - 1 : 0, open = close;
	/* back to the opening quote: the first '"' not escaped by an odd run of backslashes */
	while (open > 0) {
		open--;
		if (text[open] != '"')
			continue;
		size_t bs = 0;
		while (bs < open && text[open - 1 - bs] == '\\')
			bs++;
		if (bs % 2 == 0)
			break;
	}
	unsigned line = 1, col = 1;
	for (size_t i = 0; i < open; i++, col++)
		if (text[i] == '\n')
			line++, col = 0;
	int kl = (int)(close > open ? close - open - 1 : 0);
	return pcibw_fail(err, PCIBW_EINPUT,
			  "%s:%u:%u: key \"%.*s\"%s given twice in one object (expected each key once: "
			  "which of the two values counts is not said)",
			  src->name, line, col, kl > 60 ? 60 : kl, text + open + 1, kl > 60 ? "..." : "");
}

int ingest_iperf3(const struct ingest_src *src, const struct pcibw_ingest_opts *opts, pcibw_row_cb cb,
		  void *ctx, struct pcibw_ingest_stats *st, struct pcibw_err *err)
{
	(void)opts;
	char *text;
	size_t len;
	int r = ingest_read_all(src, 256u << 20, &text, &len, err);
	if (r)
		return r;
	json_error_t je;
	/* a UTF-8 byte-order mark is not JSON (RFC 8259 sec. 8.1: a parser may ignore one); as
	 * in the CSV reader, columns count from after it */
	size_t bom = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
	rename_stream_keys(text + bom, len - bom);
	/* A key given twice is refused: jansson would keep the last one silently ("protocol":
	 * "UDP", "protocol": "TCP" read as TCP). */
	json_t *root = json_loadb(text + bom, len - bom, JSON_REJECT_DUPLICATES, &je);
	if (!root && json_error_code(&je) == json_error_duplicate_key) {
		r = duplicate_key(src, text + bom, (size_t)je.position, err);
		free(text);
		return r;
	}
	free(text);
	if (!root)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:%d:%d: malformed JSON: %s (expected iperf3 -J output)", src->name,
				  je.line > 0 ? je.line : 1, je.column > 0 ? je.column : 1, je.text);
	r = PCIBW_OK;
	json_t *start = json_object_get(root, "start");
	json_t *ts = json_object_get(start, "test_start");
	json_t *end = json_object_get(root, "end");
	json_t *errs = json_object_get(root, "error");
	if (json_is_string(errs)) {
		r = pcibw_fail(err, PCIBW_EINPUT,
			       "%s: iperf3 reported an error: %s (expected a finished test)", src->name,
			       json_string_value(errs));
		goto out;
	}
	if (!json_is_object(root) || !json_is_object(start) || !json_is_object(ts)) {
		r = bad(src, "start.test_start", "an object (is this iperf3 -J output?)", err);
		goto out;
	}
	const char *proto = json_string_value(json_object_get(ts, "protocol"));
	if (!proto) {
		r = bad(src, "start.test_start.protocol", "\"TCP\" or \"UDP\"", err);
		goto out;
	}
	bool udp = !strcmp(proto, "UDP");
	if (!udp && strcmp(proto, "TCP")) {
		r = bad(src, "start.test_start.protocol", "\"TCP\" or \"UDP\"", err);
		goto out;
	}
	double blksize, reverse, streams;
	if ((r = get_num(src, ts, "start.test_start", "num_streams", PCIBW_VAL_PARALLEL, &streams, err)) ||
	    (r = get_num(src, ts, "start.test_start", "blksize", PCIBW_VAL_SIZE, &blksize, err)) ||
	    (r = get_num(src, ts, "start.test_start", "reverse", PCIBW_VAL_COUNT, &reverse, err)))
		goto out;

	struct pcibw_measured base;
	pcibw_measured_init(&base);
	base.source = src->name;
	base.size_bytes = blksize;
	base.streams = streams; /* -P */
	base.size_conv = udp ? PCIBW_SIZE_UDP_PAYLOAD : PCIBW_SIZE_WRITE;
	base.tcp = !udp;
	ingest_copy_text(base.test, proto);

	/* intervals: count the omitted (-O) ones, which never enter a sum */
	json_t *ivs = json_object_get(root, "intervals");
	long n_iv = 0, n_omit = 0;
	double sum_bps = 0, sum_secs = 0, sum_pk = 0;
	if (ivs && !json_is_array(ivs)) {
		r = bad(src, "intervals", "an array", err);
		goto out;
	}
	for (size_t i = 0; ivs && i < json_array_size(ivs); i++) {
		json_t *s = json_object_get(json_array_get(ivs, i), "sum");
		char ipath[48];
		snprintf(ipath, sizeof ipath, "intervals[%zu].sum", i);
		if (!json_is_object(s)) {
			r = bad(src, ipath, "an object", err);
			goto out;
		}
		st->lines++;
		if (json_is_true(json_object_get(s, "omitted"))) {
			n_omit++;
			continue;
		}
		double bps, secs, pk;
		if ((r = get_bps(src, s, ipath, &bps, err)) ||
		    (r = get_num(src, s, ipath, "seconds", PCIBW_VAL_COUNT, &secs, err)) ||
		    (r = get_num(src, s, ipath, "packets", PCIBW_VAL_COUNT, &pk, err)))
			goto out;
		if (isnan(bps) || isnan(secs)) {
			char why[200];
			snprintf(why, sizeof why,
				 "iperf3 JSON key %s.%s is null or missing: interval left out", ipath,
				 isnan(bps) ? "bits_per_second" : "seconds");
			ingest_stats_skip(st, src->name, 0, why);
			continue;
		}
		n_iv++;
		sum_bps += bps * secs;
		sum_secs += secs;
		if (!isnan(pk))
			sum_pk += pk;
	}
	if (n_omit)
		ingest_stats_note(st, "%s: %ld iperf3 interval(s) marked omitted (the -O warm-up) left out",
				  src->name, n_omit);
	/* A loopback test crosses no NIC and no bus: its rates cannot speak for either. */
	const char *rh = json_string_value(
	    json_object_get(json_array_get(json_object_get(start, "connected"), 0), "remote_host"));
	base.ipv6 = rh && strchr(rh, ':') && strncmp(rh, "::ffff:", 7);
	double mss = NAN;
	/* iperf3's server writes tcp_mss_default 0: it never set the MSS, so it reports none */
	json_t *mss_v = json_object_get(start, "tcp_mss_default");
	bool mss_none = json_is_number(mss_v) && json_number_value(mss_v) == 0;
	if (!udp && !mss_none &&
	    (r = get_num(src, start, "start", "tcp_mss_default", PCIBW_VAL_SIZE, &mss, err)))
		goto out;
	base.mss = mss;
	if (!udp && mss > 0)
		ingest_stats_note(
		    st,
		    "%s: TCP writes of %.0f B are not packets: packets are counted as goodput / the "
		    "MSS iperf3 reports (start.tcp_mss_default %.0f B)%s",
		    src->name, blksize, mss,
		    mss > 9000 ? ", a loopback MSS: no Ethernet NIC sends segments that large" : "");
	else if (!udp)
		ingest_stats_note(
		    st,
		    "%s: TCP writes of %.0f B are not packets: packets are counted as goodput / MSS "
		    "(--mtu less %d B of IP and TCP headers)",
		    src->name, blksize, base.ipv6 ? 72 : 52);
	json_t *rs = json_object_get(end, "sum_sent_bidir_reverse"),
	       *rr = json_object_get(end, "sum_received_bidir_reverse");
	if (!udp)
		ingest_iperf3_tcp_path(src, root, mss, rs || rr, &base.tcp_path, st);
	base.loopback =
	    rh && (!strncmp(rh, "127.", 4) || !strcmp(rh, "::1") || !strncmp(rh, "::ffff:127.", 11));
	if (base.loopback)
		ingest_stats_note(
		    st,
		    "%s: the test ran over loopback (remote host %s): no NIC and no bus carried it, "
		    "so set its rates against neither",
		    src->name, rh);

	double host_cpu, remote_cpu;
	json_t *cpu = json_object_get(end, "cpu_utilization_percent");
	if ((r = get_num(src, cpu, "end.cpu_utilization_percent", "host_total", PCIBW_VAL_COUNT, &host_cpu,
			 err)) ||
	    (r = get_num(src, cpu, "end.cpu_utilization_percent", "remote_total", PCIBW_VAL_COUNT,
			 &remote_cpu, err)))
		goto out;
	/* iperf3 3.16 and later run a thread per stream: process CPU time over wall time then passes
	 * 100 % and no longer says how busy the busiest core is. Left unknown, with a note. */
	double *cpus[] = {&host_cpu, &remote_cpu};
	for (int i = 0; i < 2; i++) {
		if (*cpus[i] > 100 * 4096.0) { /* more than 4096 busy cores: not a measurement */
			r = pcibw_fail(err, PCIBW_EINPUT,
				       "%s: iperf3 JSON key end.cpu_utilization_percent.%s: %g is "
				       "out of range (expected 0 to 100 per busy core)",
				       src->name, i ? "remote_total" : "host_total", *cpus[i]);
			goto out;
		}
		if (*cpus[i] > 100) {
			ingest_stats_note(
			    st,
			    "%s: iperf3 %s CPU %.0f %% is the process's CPU time over wall time across "
			    "its threads (iperf3 3.16+): more than one core, the busiest unknown",
			    src->name, i ? "remote" : "host", *cpus[i]);
			*cpus[i] = NAN;
		}
	}
	bool rev = !isnan(reverse) && reverse != 0;
	/* The side that wrote the capture: a server (-s -J) names the connection it accepted
	 * (start.accepted_connection), a client the server it connects to (start.connecting_to;
	 * iperf_api.c, iperf_on_connect). cpu_utilization_percent.host_total is the writer's own
	 * process, so on a server it is the receiver's (the sender's with -R). */
	bool server = json_is_object(json_object_get(start, "accepted_connection"));
	bool host_sends = server ? rev : !rev;
	static const struct side sender = {"sum_sent", "sender", false},
				 receiver = {"sum_received", "receiver", true};
	json_t *ss = json_object_get(end, "sum_sent"), *sr = json_object_get(end, "sum_received");
	json_t *s1 = json_object_get(end, "sum");
	/* A server's sums of the direction it did not carry hold 0 bytes at 0 bit/s beside the
	 * other side's real figures (tests/data/bench/iperf3-3.12-loopback-udp-1024B-400M-server.json:
	 * end.sum_sent 0 bytes, end.sum_received 36954112): that side was not measured here (the
	 * client's capture has it), so it gives no row, never a 0 bit/s one. */
	if (server) {
		json_t **pairs[][2] = {{&ss, &sr}, {&rs, &rr}};
		const char *keys[][2] = {{"sum_sent", "sum_received"},
					 {"sum_sent_bidir_reverse", "sum_received_bidir_reverse"}};
		for (int p = 0; p < 2; p++)
			for (int k = 0; k < 2; k++)
				if (blank_sum(*pairs[p][k]) && carried(*pairs[p][!k])) {
					ingest_stats_note(
					    st,
					    "%s: an iperf3 server's capture (start.accepted_connection): "
					    "end.%s holds 0 bytes, the side this server did not measure "
					    "(the client's capture has it): no row for it",
					    src->name, keys[p][k]);
					*pairs[p][k] = NULL;
				}
	}
	/* --bidir (iperf3 3.7+): the server-to-client direction has its own sums */
	static const struct side rsender = {"sum_sent_bidir_reverse", "reverse sender", false},
				 rreceiver = {"sum_received_bidir_reverse", "reverse receiver", true};
	/* the reverse connection's own TCP_INFO stays with the server: its rows have no path */
	struct pcibw_measured rbase = base;
	pcibw_tcp_path_init(&rbase.tcp_path);
	/* both directions ran at once on each host: every row's CPU figure covers both */
	base.concurrent = rbase.concurrent = rs || rr;
	if (udp) {
		udp_loss_note(src, ss, sr, "sum_received", blksize, "", st);
		udp_loss_note(src, rs, rr, "sum_received_bidir_reverse", blksize, " (reverse direction)", st);
		if (!sr && json_is_object(s1))
			udp_loss_note(src, NULL, s1, "sum", blksize, "", st);
	}
	if (ss || sr) {
		if (ss && (r = emit_sum(src, ss, "end.sum_sent", &sender, &base, udp,
					host_sends ? host_cpu : remote_cpu, cb, ctx, st, err)))
			goto out;
		if (sr && (r = emit_sum(src, sr, "end.sum_received", &receiver, &base, udp,
					host_sends ? remote_cpu : host_cpu, cb, ctx, st, err)))
			goto out;
		/* in the reverse direction the server sends and the client receives */
		if (rs && (r = emit_sum(src, rs, "end.sum_sent_bidir_reverse", &rsender, &rbase, udp,
					server ? host_cpu : remote_cpu, cb, ctx, st, err)))
			goto out;
		if (rr && (r = emit_sum(src, rr, "end.sum_received_bidir_reverse", &rreceiver, &rbase, udp,
					server ? remote_cpu : host_cpu, cb, ctx, st, err)))
			goto out;
		if (rs || rr)
			ingest_stats_note(
			    st,
			    "%s: iperf3 --bidir: each host both sends and receives, so its CPU figure "
			    "covers both directions",
			    src->name);
	} else if (s1) {
		/* a UDP sum of 3.x before sum_sent says whose it is: "sender": false is the receiver's */
		bool recv = json_is_false(json_object_get(s1, "sender"));
		r = emit_sum(src, s1, "end.sum", recv ? &receiver : &sender, &base, udp,
			     recv == host_sends ? remote_cpu : host_cpu, cb, ctx, st, err);
	} else if (n_iv && sum_secs > 0) {
		/* cut short: the mean of the intervals that count */
		struct pcibw_measured m = base;
		m.gbps = sum_bps / sum_secs / 1e9;
		m.gbps_basis = udp ? PCIBW_BASIS_PAYLOAD : PCIBW_BASIS_SIZE;
		char where[600];
		snprintf(where, sizeof where, "%s: iperf3 JSON key intervals[].sum.bits_per_second",
			 src->name);
		if ((r = ingest_check_number("bits_per_second", m.gbps, PCIBW_VAL_GBPS, where, err)))
			goto out;
		if (udp && sum_pk > 0) {
			m.pps = sum_pk / sum_secs;
			snprintf(where, sizeof where, "%s: iperf3 JSON key intervals[].sum.packets / seconds",
				 src->name);
			if ((r = ingest_check_number("packets / seconds", m.pps, PCIBW_VAL_PPS, where, err)))
				goto out;
		}
		snprintf(m.series, sizeof m.series, "intervals");
		m.direction = rev ? PCIBW_PAT_RX : PCIBW_PAT_TX;
		ingest_stats_note(st, "%s: no end summary (test cut short?): %ld interval(s) averaged",
				  src->name, n_iv);
		if ((r = cb(&m, ctx, err)) == PCIBW_OK)
			st->rows++;
	} else {
		r = bad(src, "end.sum_sent", "an object (or intervals with a sum)", err);
	}
out:
	json_decref(root);
	return r;
}

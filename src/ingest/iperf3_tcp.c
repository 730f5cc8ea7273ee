/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The TCP path of an iperf3 -J run, from what the sender's kernel told iperf3 (TCP_INFO): per
 * interval and stream snd_cwnd (bytes: tcpi_snd_cwnd x tcpi_snd_mss on Linux, iperf3
 * tcp_info.c get_snd_cwnd), snd_wnd (the peer's advertised window, 3.10 and later), rtt and rttvar
 * (tcpi_rtt, tcpi_rttvar: the smoothed RTT and its variation, µs, RFC 6298), pmtu, retransmits;
 * per stream at the end (end.streams[].sender) max_snd_cwnd, min_rtt, mean_rtt, max_rtt and
 * retransmits; end.sum_sent.retransmits for the run.
 *
 * A sender keeps at most min(cwnd, rwnd) bytes unacknowledged (RFC 5681 sec. 2, RFC 7323
 * sec. 1.1), one window per round trip, so window x 8 / RTT bounds each stream's rate. The
 * samples are taken at each interval's end; their time-weighted mean follows the window through
 * the run (after a loss the congestion window halves or, with CUBIC, drops to 0.7 of itself, RFC
 * 9438 sec. 4.6), where max_snd_cwnd / mean_rtt only bounds it from above.
 *
 * These figures are extras: a value that is not one (a negative RTT, an RTT of 0, which Linux
 * reports before its first RTT sample, a window of 0, iperf3's -1 where the system gave no
 * TCP_INFO, a wrong type) is left out with a warning naming the key, never read as a bound.
 */
#include "ingest_int.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* RFC 7323 sec. 2.3: the window scale is at most 14, so no window exceeds 2^30 bytes. */
#define MAX_WINDOW 1073741824.0
/* An RTT above 10^8 µs (100 s) is not one TCP would keep a connection through. */
#define MAX_RTT_US 1e8

struct bad_note {
	long n;
	char first[300];
};

static void bad_value(struct bad_note *b, const char *path, const char *key, const char *got,
		      const char *expected)
{
	if (!b->n++)
		snprintf(b->first, sizeof b->first, "%s.%s is %s (expected %s)", path, key, got, expected);
}

/* obj.key as a number in (0, hi]: 1 with *out set; 0 when absent or null; -1 when present and
 * not such a number (noted in b). */
static int positive(json_t *obj, const char *path, const char *key, double hi, const char *expected,
		    struct bad_note *b, double *out)
{
	json_t *v = json_object_get(obj, key);
	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	char got[64];
	if (!json_is_number(v)) {
		bad_value(b, path, key, "not a number", expected);
		return -1;
	}
	double d = json_number_value(v);
	if (!(d > 0) || d > hi || !isfinite(d)) {
		snprintf(got, sizeof got, "%.17g", d);
		bad_value(b, path, key, got, expected);
		return -1;
	}
	*out = d;
	return 1;
}

/* obj.key as a count >= 0: as positive(), 0 allowed. */
static int count(json_t *obj, const char *path, const char *key, struct bad_note *b, double *out)
{
	json_t *v = json_object_get(obj, key);
	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v) || !(json_number_value(v) >= 0) || json_number_value(v) > 1e18) {
		char got[64];
		snprintf(got, sizeof got, "%.17g", json_is_number(v) ? json_number_value(v) : NAN);
		bad_value(b, path, key, json_is_number(v) ? got : "not a number", "a count >= 0");
		return -1;
	}
	*out = json_number_value(v);
	return 1;
}

/* Does this stream object speak of the direction the rows are about? With --bidir each stream
 * says whether the local side sent it; otherwise every stream is the run's one direction. */
static bool ours(json_t *s, bool bidir)
{
	return !bidir || !json_is_false(json_object_get(s, "sender"));
}

/* The interval samples: the window bound of each counted interval, weighted by its seconds. */
static void samples(json_t *ivs, bool bidir, struct pcibw_tcp_path *p, struct bad_note *b)
{
	double s_bound = 0, s_secs = 0, s_win = 0, s_rtt = 0, s_var = 0;
	long n_rtt = 0, n_var = 0, n_rwnd = 0, n_str = 0;
	for (size_t i = 0; i < json_array_size(ivs); i++) {
		json_t *iv = json_array_get(ivs, i), *sum = json_object_get(iv, "sum");
		json_t *streams = json_object_get(iv, "streams");
		if (json_is_true(json_object_get(sum, "omitted")) || !json_is_array(streams))
			continue;
		double secs;
		char path[64];
		snprintf(path, sizeof path, "intervals[%zu].sum", i);
		if (positive(sum, path, "seconds", 1e7, "seconds > 0", b, &secs) <= 0)
			continue;
		double bound = 0, win = 0;
		bool whole = true, any = false;
		for (size_t j = 0; j < json_array_size(streams) && whole; j++) {
			json_t *s = json_array_get(streams, j);
			if (!json_is_object(s) || !ours(s, bidir))
				continue;
			snprintf(path, sizeof path, "intervals[%zu].streams[%zu]", i, j);
			double cwnd, rtt, wnd, var, pmtu;
			int kc = positive(s, path, "snd_cwnd", MAX_WINDOW, "bytes > 0", b, &cwnd);
			int kr = positive(s, path, "rtt", MAX_RTT_US, "microseconds > 0", b, &rtt);
			if (kc == 0 && kr == 0)
				continue; /* a receiver's stream: no TCP_INFO of the sender */
			if (kc <= 0 || kr <= 0) {
				whole = false; /* one stream short would understate the interval's bound */
				break;
			}
			if (positive(s, path, "snd_wnd", MAX_WINDOW, "bytes > 0", b, &wnd) > 0 &&
			    wnd < cwnd) {
				n_rwnd++;
				cwnd = wnd;
			}
			n_str++;
			if (positive(s, path, "rttvar", MAX_RTT_US, "microseconds > 0", b, &var) > 0) {
				s_var += var;
				n_var++;
			}
			if (positive(s, path, "pmtu", 65535, "bytes 1..65535", b, &pmtu) > 0)
				p->pmtu = pmtu;
			bound += cwnd * 8 / (rtt * 1e-6) / 1e9;
			win += cwnd;
			s_rtt += rtt;
			n_rtt++;
			any = true;
		}
		if (!whole || !any)
			continue;
		s_bound += bound * secs;
		s_secs += secs;
		s_win += win;
		p->samples++;
	}
	if (p->samples && s_secs > 0) {
		p->window_gbps = s_bound / s_secs;
		p->window_bytes = s_win / p->samples;
		p->rtt_us = s_rtt / (double)n_rtt;
		p->rwnd_limited = n_rwnd * 2 > n_str;
		if (n_var)
			p->rttvar_us = s_var / (double)n_var;
	}
}

/* end.streams[].sender: the run's maximum window and its RTTs, per stream. */
static void stream_ends(json_t *streams, bool bidir, struct pcibw_tcp_path *p, struct bad_note *b)
{
	double s_max = 0, s_bound = 0, s_rtt_b = 0, s_b = 0, s_re = 0, lo = INFINITY, hi = 0;
	long n_max = 0, n_re = 0, n_rtt = 0;
	bool whole = true;
	for (size_t k = 0; k < json_array_size(streams); k++) {
		json_t *s = json_object_get(json_array_get(streams, k), "sender");
		if (!json_is_object(s) || !ours(s, bidir))
			continue;
		char path[64];
		snprintf(path, sizeof path, "end.streams[%zu].sender", k);
		double cwnd, mean, mn, mx, re, bytes;
		if (count(s, path, "retransmits", b, &re) > 0) {
			s_re += re;
			n_re++;
		}
		/* iperf3 writes its own stream's maxima whenever the sender reported retransmits: 0 (and
		 * min_rtt as it started) where the local side received (-R) and took no sample */
		if (json_is_number(json_object_get(s, "max_snd_cwnd")) &&
		    json_number_value(json_object_get(s, "max_snd_cwnd")) == 0 &&
		    json_number_value(json_object_get(s, "mean_rtt")) == 0)
			continue;
		int kc = positive(s, path, "max_snd_cwnd", MAX_WINDOW, "bytes > 0", b, &cwnd);
		int km = positive(s, path, "mean_rtt", MAX_RTT_US, "microseconds > 0", b, &mean);
		if (kc > 0 && km > 0) {
			s_max += cwnd;
			s_bound += cwnd * 8 / (mean * 1e-6) / 1e9;
			n_max++;
		} else if (kc || km) {
			whole = false;
		}
		if (km > 0) {
			count(s, path, "bytes", b, &bytes);
			double w = bytes > 0 ? bytes : 1;
			s_rtt_b += mean * w;
			s_b += w;
			n_rtt++;
		}
		if (positive(s, path, "min_rtt", MAX_RTT_US, "microseconds > 0", b, &mn) > 0)
			lo = fmin(lo, mn);
		if (positive(s, path, "max_rtt", MAX_RTT_US, "microseconds > 0", b, &mx) > 0)
			hi = fmax(hi, mx);
	}
	if (n_max && whole) {
		p->max_cwnd_bytes = s_max;
		p->max_window_gbps = s_bound;
	}
	if (n_rtt)
		p->rtt_us = s_rtt_b / s_b; /* the kernel's every RTT sample, not just the interval ends */
	if (isfinite(lo))
		p->rtt_min_us = lo;
	if (hi > 0)
		p->rtt_max_us = hi;
	if (n_re)
		p->retransmits = s_re;
}

void ingest_iperf3_tcp_path(const struct ingest_src *src, json_t *root, double mss, bool bidir,
			    struct pcibw_tcp_path *p, struct pcibw_ingest_stats *st)
{
	pcibw_tcp_path_init(p);
	struct bad_note b = {0};
	json_t *ivs = json_object_get(root, "intervals"), *end = json_object_get(root, "end");
	if (json_is_array(ivs))
		samples(ivs, bidir, p, &b);
	json_t *streams = json_object_get(end, "streams");
	if (json_is_array(streams))
		stream_ends(streams, bidir, p, &b);
	double re, bytes;
	json_t *ss = json_object_get(end, "sum_sent");
	if (json_is_object(ss) && count(ss, "end.sum_sent", "retransmits", &b, &re) > 0)
		p->retransmits = re;
	if (json_is_object(ss) && mss > 0 && count(ss, "end.sum_sent", "bytes", &b, &bytes) > 0 && bytes > 0)
		p->segments = bytes / mss;
	if (isnan(p->retransmits) && json_is_array(ivs)) {
		/* cut short: the counted intervals' own retransmits */
		double s_re = 0;
		long n = 0;
		for (size_t i = 0; i < json_array_size(ivs); i++) {
			json_t *sum = json_object_get(json_array_get(ivs, i), "sum");
			char path[48];
			snprintf(path, sizeof path, "intervals[%zu].sum", i);
			if (json_is_object(sum) && !json_is_true(json_object_get(sum, "omitted")) &&
			    count(sum, path, "retransmits", &b, &re) > 0) {
				s_re += re;
				n++;
			}
		}
		if (n)
			p->retransmits = s_re;
	}
	if (b.n)
		ingest_stats_warn(st,
				  "%s: %ld TCP figure(s) left out, first iperf3 JSON key %s: the TCP window "
				  "bound uses the others%s",
				  src->name, b.n, b.first,
				  pcibw_tcp_path_known(p) ? "" : " (none is left: no bound is given)");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The TCP window bound of a row: a sender has at most one window (min(cwnd, rwnd)) unacknowledged
 * per round trip (RFC 5681 sec. 2, RFC 7323 sec. 1.1), so its rate is at most window x 8 / RTT,
 * whatever the host, the bus and the wire could carry. A row that measured most of that bound
 * (tcp_window, 0.70) is held by the path: the window, the RTT and the losses that shrink the
 * congestion window (RFC 5681 sec. 3.1; CUBIC's multiplicative decrease to 0.7, RFC 9438
 * sec. 4.6). The mean of the sampled windows is used where iperf3 gave interval samples: the
 * window a loss halved bounds the rate while it lasts, and max_snd_cwnd / mean RTT is only the
 * ceiling of the best moment.
 */
#include "tcp_window.h"
#include <math.h>
#include <stdio.h>

/* "3.73 MB", "64 KB", "900 B" (10^3 multiples, as iperf3 prints Bytes) */
static const char *bytes_text(char *buf, size_t n, double b)
{
	if (b >= 999.5e3)
		snprintf(buf, n, "%.3g MB", b / 1e6);
	else if (b >= 999.5)
		snprintf(buf, n, "%.3g KB", b / 1e3);
	else
		snprintf(buf, n, "%.0f B", b);
	return buf;
}

/* "77.2 ms", "389 us" */
static const char *us_text(char *buf, size_t n, double us)
{
	if (us >= 999.5)
		snprintf(buf, n, "%.3g ms", us / 1e3);
	else
		snprintf(buf, n, "%.3g us", us);
	return buf;
}

/* "387 Mbit/s", "61.9 Gbit/s" */
static const char *gbps_text(char *buf, size_t n, double gbps)
{
	if (gbps * 1e3 < 999.5)
		snprintf(buf, n, "%.3g Mbit/s", gbps * 1e3);
	else
		snprintf(buf, n, "%.3g Gbit/s", gbps);
	return buf;
}

double tcp_window_bound(const struct pcibw_row *r)
{
	const struct pcibw_tcp_path *p = &r->tcp_path;
	if (p->samples > 0 && p->window_gbps > 0)
		return p->window_gbps;
	return p->max_window_gbps > 0 ? p->max_window_gbps : NAN;
}

void tcp_window_judge(struct pcibw_row *r, const struct pcibw_thresholds *t)
{
	double bound = tcp_window_bound(r);
	r->tcp_window_share = NAN;
	r->tcp_limit = false;
	if (!r->tcp || !(bound > 0) || !(r->gbps > 0))
		return;
	r->tcp_window_share = r->gbps / bound;
	r->tcp_limit = r->tcp_window_share >= t->tcp_window;
}

void tcp_window_evidence(struct pcibw_row *r)
{
	const struct pcibw_tcp_path *p = &r->tcp_path;
	if (isnan(r->tcp_window_share))
		return;
	char a[32], b[32], c[32], d[32], rtt[128] = "", re[160] = "", mx[160] = "", streams[48] = "";
	if (r->streams > 1)
		snprintf(streams, sizeof streams, " (%g streams summed)", r->streams);
	if (p->rtt_us > 0) {
		int o = snprintf(rtt, sizeof rtt, "%s mean RTT", us_text(a, sizeof a, p->rtt_us));
		if (p->rtt_min_us > 0 && p->rtt_max_us > 0) {
			/* one unit for both ends: ms unless the lower is below 1 ms */
			double k = p->rtt_min_us >= 999.5 ? 1e3 : 1;
			snprintf(rtt + o, sizeof rtt - (size_t)o, " (%.4g-%.4g %s)", p->rtt_min_us / k,
				 p->rtt_max_us / k, k > 1 ? "ms" : "us");
		}
	}
	if (p->retransmits >= 0) {
		int o = snprintf(re, sizeof re, "; %.0f retransmit%s", p->retransmits,
				 p->retransmits == 1 ? "" : "s");
		if (p->segments > 0)
			snprintf(re + o, sizeof re - (size_t)o, " (%.2g %% of %.0f segments)",
				 p->retransmits / p->segments * 100, p->segments);
	}
	if (p->samples > 0 && p->window_gbps > 0) {
		if (p->max_window_gbps > 0)
			snprintf(mx, sizeof mx, "; max_snd_cwnd %s / mean RTT allows %s",
				 bytes_text(a, sizeof a, p->max_cwnd_bytes),
				 gbps_text(b, sizeof b, p->max_window_gbps));
		pcibw_row_evidence(
		    r,
		    "TCP window: a mean %s %s%s over %d interval samples, %s: window / RTT allows "
		    "%s; measured %s is %.0f %% of it%s%s%s",
		    bytes_text(c, sizeof c, p->window_bytes), p->rwnd_limited ? "snd_wnd" : "snd_cwnd",
		    streams, p->samples, rtt[0] ? rtt : "RTT per sample",
		    gbps_text(d, sizeof d, p->window_gbps), gbps_text(a, sizeof a, r->gbps),
		    round(r->tcp_window_share * 100),
		    r->tcp_window_share > 1 ? " (the samples are interval-end snapshots: the window was "
					      "larger between them)"
					    : "",
		    mx, re);
	} else {
		pcibw_row_evidence(
		    r,
		    "TCP window: max_snd_cwnd %s at %s: window / RTT allows at most %s; measured "
		    "%s is %.0f %% of it%s",
		    bytes_text(c, sizeof c, p->max_cwnd_bytes), rtt,
		    gbps_text(d, sizeof d, p->max_window_gbps), gbps_text(a, sizeof a, r->gbps),
		    round(r->tcp_window_share * 100), re);
	}
}

void tcp_window_hint(struct pcibw_row *r, const struct pcibw_thresholds *t, const char *loads)
{
	const struct pcibw_tcp_path *p = &r->tcp_path;
	char a[32], b[32], c[32], none[300] = "", loss[200] = "";
	if (loads && loads[0])
		snprintf(none, sizeof none, "none reached its threshold (%s): ", loads);
	if (p->retransmits > 0)
		snprintf(loss, sizeof loss,
			 ", and %.0f retransmits say it lost segments, each loss cutting the congestion "
			 "window",
			 p->retransmits);
	pcibw_row_evidence(
	    r,
	    "%sthe TCP path is the likely limit: %s is %.0f %% of what the window allows per "
	    "round trip (%s at %s RTT; tcp_window=%.2f): the sender keeps its window in flight "
	    "and waits on the path%s; a larger window (%s), more streams (-P) or less loss on "
	    "the path would raise it, not a faster host or bus",
	    none, gbps_text(a, sizeof a, r->gbps), round(r->tcp_window_share * 100),
	    gbps_text(b, sizeof b, tcp_window_bound(r)),
	    p->rtt_us > 0 ? us_text(c, sizeof c, p->rtt_us) : "its", t->tcp_window, loss,
	    p->rwnd_limited ? "the receiver's buffer: net.ipv4.tcp_rmem, iperf3 -w"
			    : "socket buffers: net.ipv4.tcp_wmem and tcp_rmem, iperf3 -w");
}

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

double verdict_tcp_window_bound(const struct pcibw_row *r)
{
	const struct pcibw_tcp_path *p = &r->tcp_path;
	if (p->samples > 0 && p->window_gbps > 0)
		return p->window_gbps;
	return p->max_window_gbps > 0 ? p->max_window_gbps : NAN;
}

void verdict_tcp_window_judge(struct pcibw_row *r, const struct pcibw_thresholds *t)
{
	double bound = verdict_tcp_window_bound(r);
	r->tcp_window_share = NAN;
	r->tcp_limit = false;
	if (!r->tcp || !(bound > 0) || !(r->gbps > 0))
		return;
	r->tcp_window_share = r->gbps / bound;
	r->tcp_limit = r->tcp_window_share >= t->tcp_window;
}

void verdict_tcp_window_evidence(struct pcibw_row *r)
{
	if (!isnan(r->tcp_window_share))
		pcibw_row_reason(r, false, PCIBW_R_TCP_WINDOW_SHARE, PCIBW_RES_TCP_WINDOW, r->gbps,
				 verdict_tcp_window_bound(r), r->tcp_window_share, NAN, "Gbit/s");
}

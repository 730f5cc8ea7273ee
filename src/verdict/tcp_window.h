/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TCP window bound of a row (tcp_window.c). Not installed. */
#ifndef PCIBW_TCP_WINDOW_H
#define PCIBW_TCP_WINDOW_H

#include "pcibw/verdict.h"

/* the words tcp_window_hint's evidence starts its answer with (after any load list) */
#define TCP_WINDOW_HINT "the TCP path is the likely limit"

/* tcp_window_bound - the rate the row's TCP window allows, Gbit/s: the mean of the sampled
 * window / RTT bounds (tcp_path.window_gbps), else max_snd_cwnd / mean RTT; NAN without either. */
double tcp_window_bound(const struct pcibw_row *r);

/* tcp_window_judge - r->tcp_window_share = measured Gbit/s / the bound (NAN for a row that is
 * not TCP, has no bound or no bit rate) and r->tcp_limit = share >= t->tcp_window. */
void tcp_window_judge(struct pcibw_row *r, const struct pcibw_thresholds *t);

/* tcp_window_evidence - the figures line: window, RTT (mean, min-max), the bound, the measured
 * share of it, retransmits (and their share of the segments). Nothing without a share. */
void tcp_window_evidence(struct pcibw_row *r);

/* tcp_window_hint - an undetermined row held by the TCP path: "none reached its threshold
 * (loads): the TCP path is the likely limit ..." (loads "" or NULL: no list), naming the share,
 * the bound, the RTT, the retransmits and what raises the bound. */
void tcp_window_hint(struct pcibw_row *r, const struct pcibw_thresholds *t, const char *loads);

#endif

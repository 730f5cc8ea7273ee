/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TCP window bound of a row (tcp_window.c). Not installed. */
#ifndef PCIBW_TCP_WINDOW_H
#define PCIBW_TCP_WINDOW_H

#include "pcibw/verdict.h"

/* verdict_tcp_window_bound - the rate the row's TCP window allows, Gbit/s: the mean of the sampled
 * window / RTT bounds (tcp_path.window_gbps), else max_snd_cwnd / mean RTT; NAN without either. */
double verdict_tcp_window_bound(const struct pcibw_row *r);

/* verdict_tcp_window_judge - r->tcp_window_share = measured Gbit/s / the bound (NAN for a row that is
 * not TCP, has no bound or no bit rate) and r->tcp_limit = share >= t->tcp_window. */
void verdict_tcp_window_judge(struct pcibw_row *r, const struct pcibw_thresholds *t);

/* verdict_tcp_window_evidence - the tcp-window-share reason: the bound, the measured share of it (the
 * words add window, RTT and retransmits from the row's tcp_path). Nothing without a share. */
void verdict_tcp_window_evidence(struct pcibw_row *r);

#endif

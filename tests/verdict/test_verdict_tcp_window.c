/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The TCP window rule on plain numbers: a TCP row's measured bit rate against window x 8 / RTT
 * (RFC 5681 sec. 2: one window per round trip), at and around tcp_window (0.70), and which
 * verdicts the hint may touch. Windows and RTTs are chosen by hand; the expected share is their
 * arithmetic in each comment.
 */
#include "pcibw/device.h"
#include "pcibw/nic.h"
#include "pcibw/verdict.h"
#include "pcibw/words.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* the engine, then the words its reasons give (pcibw/words.h) */
static int verdict_words(struct pcibw_rows *rs, const struct pcibw_thresholds *t,
			 const struct pcibw_machine *m, struct pcibw_summary *s, struct pcibw_err *err)
{
	int st = pcibw_verdict_run(rs, t, m, s, err);
	if (!st)
		pcibw_verdict_words(rs, m, s);
	return st;
}

/* A TCP row measuring gbps with a sampled window bound (Gbit/s) and retransmits; wire_pps a
 * line rate's worth of 1500 B packets (NAN: none given). */
static enum pcibw_verdict run(double gbps, double bound, double retransmits, double line_gbps,
			      const char *thr, struct pcibw_rows *rs, struct pcibw_summary *s)
{
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "hand";
	m.tcp = true;
	m.size_bytes = 1500;
	m.size_conv = PCIBW_SIZE_L3;
	m.direction = PCIBW_PAT_TX;
	m.gbps = gbps;
	m.core_max_pct = 5;
	m.tcp_path.samples = 4;
	m.tcp_path.window_gbps = bound;
	/* 1 MB at 80 ms: 8e6 / 0.08 = 100 Mbit/s per MB of window */
	m.tcp_path.window_bytes = bound / 0.1 * 1e6;
	m.tcp_path.rtt_us = 80000;
	m.tcp_path.retransmits = retransmits;
	struct pcibw_err err;
	cr_assert_eq(pcibw_rows_add(rs, &m, &err), PCIBW_OK);
	pcibw_rows_finish(rs);
	struct pcibw_row *r = &rs->v[0];
	r->packet_bytes = r->basis_bytes = 1500;
	pcibw_row_rates(r);
	r->wire_gbps = line_gbps;
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	if (thr)
		cr_assert_eq(pcibw_threshold_set(&t, thr, &err), PCIBW_OK, "%s", err.msg);
	struct pcibw_machine mach = {.have_bus = false,
				     .line_rate_gbps = isnan(line_gbps) ? 0 : line_gbps,
				     .cpus = PCIBW_NULL,
				     .cpu_mhz = NAN};
	cr_assert_eq(verdict_words(rs, &t, &mach, s, &err), PCIBW_OK);
	return r->verdict;
}

static bool has(const struct pcibw_row *r, const char *needle)
{
	for (int i = 0; i < r->n_evidence; i++)
		if (strstr(r->evidence[i], needle))
			return true;
	return false;
}

static const struct pcibw_reason *reason_of(const struct pcibw_row *r, enum pcibw_reason_code code)
{
	for (int k = 0; k < r->n_reasons; k++)
		if (r->reasons[k].code == code)
			return &r->reasons[k];
	return NULL;
}

/* 0.70 x 0.3 Gbit/s = 0.21: at the threshold the hint is given, and the summary leads with it */
Test(verdict_tcp_window, at_threshold)
{
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	cr_assert_eq(run(0.21, 0.3, 10, NAN, NULL, &rs, &s), PCIBW_V_UNDETERMINED);
	cr_assert(rs.v[0].tcp_limit);
	cr_assert(fabs(rs.v[0].tcp_window_share - 0.7) < 1e-12);
	const struct pcibw_reason *x = reason_of(&rs.v[0], PCIBW_R_TCP_WINDOW);
	cr_assert(x && x->resource == PCIBW_RES_TCP_WINDOW);
	cr_assert_float_eq(x->value, 0.21, 1e-12);
	cr_assert_float_eq(x->ceiling, 0.3, 1e-12);
	cr_assert_float_eq(x->share, 0.7, 1e-12);
	cr_assert_float_eq(x->threshold, 0.7, 1e-12);
	cr_assert(strstr(rs.v[0].evidence[x->evidence_index],
			 "the TCP path is the likely limit: 210 Mbit/s is 70 %"));
	cr_assert_eq(s.reasons[1].code, PCIBW_R_TCP_WINDOW,
		     "the summary leads with the row's tcp-window reason");
	cr_assert(has(&rs.v[0], "10 retransmits say it lost segments"));
	cr_assert(!has(&rs.v[0], "closed-loop"));
	cr_assert(
	    strstr(s.evidence[0], "Undetermined at 210 Mbit/s at 1500 B: the TCP path is the likely limit"),
	    "%s", s.evidence[0]);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* 0.2 / 0.3 = 66.7 %: below it, the closed-loop hint as before, the figures line still there;
 * --threshold tcp_window=0.6 brings the hint back */
Test(verdict_tcp_window, below_threshold)
{
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	run(0.2, 0.3, 0, NAN, NULL, &rs, &s);
	cr_assert(!rs.v[0].tcp_limit);
	cr_assert(!has(&rs.v[0], "TCP path"));
	cr_assert(!reason_of(&rs.v[0], PCIBW_R_TCP_WINDOW));
	cr_assert(reason_of(&rs.v[0], PCIBW_R_NONE_AT_THRESHOLD));
	cr_assert(has(&rs.v[0], "closed-loop"));
	const struct pcibw_reason *x = reason_of(&rs.v[0], PCIBW_R_TCP_WINDOW_SHARE);
	cr_assert(x);
	cr_assert_float_eq(x->share, 0.2 / 0.3, 1e-12);
	cr_assert(strstr(rs.v[0].evidence[x->evidence_index],
			 "window / RTT allows 300 Mbit/s; measured 200 Mbit/s is 67 % of it"));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
	rs = (struct pcibw_rows){0};
	run(0.2, 0.3, 0, NAN, "tcp_window=0.6", &rs, &s);
	cr_assert(rs.v[0].tcp_limit);
	cr_assert(has(&rs.v[0], "the TCP path is the likely limit"));
	cr_assert(!has(&rs.v[0], "retransmits say"), "no loss to name");
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* A wire-bound row stays wire-bound and gets no hint: 0.96 Gbit/s of payload on a 1 Gbit/s line
 * is at least 96 % of it, while it is 96 % of a 1 Gbit/s window bound too. */
Test(verdict_tcp_window, wire_bound_is_not_touched)
{
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	cr_assert_eq(run(0.96, 1.0, 3, 1.0, NULL, &rs, &s), PCIBW_V_WIRE);
	cr_assert(rs.v[0].tcp_limit, "the share is computed whatever the verdict");
	cr_assert(!has(&rs.v[0], "the TCP path is the likely limit"));
	cr_assert(has(&rs.v[0], "TCP window: "));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* A row without a bound (no samples, no max_snd_cwnd) or that is not TCP: no share, no line. */
Test(verdict_tcp_window, no_bound_no_line)
{
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	run(0.2, NAN, 0, NAN, NULL, &rs, &s);
	cr_assert(isnan(rs.v[0].tcp_window_share));
	cr_assert(!rs.v[0].tcp_limit);
	cr_assert(!has(&rs.v[0], "TCP window"));
	cr_assert(has(&rs.v[0], "closed-loop"));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* 0.36 / 0.3 = 120 %: more than the sampled windows allow, which only snapshots at the interval
 * ends can give; the line says so and the hint stands */
Test(verdict_tcp_window, above_the_samples)
{
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	run(0.36, 0.3, 0, NAN, NULL, &rs, &s);
	cr_assert(rs.v[0].tcp_limit);
	cr_assert(has(&rs.v[0], "is 120 % of it (the samples are interval-end snapshots"));
	cr_assert(has(&rs.v[0], "the TCP path is the likely limit"));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

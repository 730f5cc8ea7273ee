/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Verdicts per group, then the whole; evidence that names every loaded resource; the threshold
 * ranges; the two cores rules. Ceilings and measurements are chosen by hand around each
 * threshold (the arithmetic is next to each check); the expected verdict is the contract's rule.
 */
#include "pcibw/device.h"
#include "pcibw/ingest.h"
#include "pcibw/nic.h"
#include "pcibw/verdict.h"
#include "pcibw/words.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

struct line {
	const char *series;
	double size, pps, cpu_pct, core_pct, cores;
};

/* one line measured on interface iface (NULL: none named) */
static void add_on(struct pcibw_rows *rs, const struct line *l, const char *iface)
{
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "hand.csv";
	snprintf(m.series, sizeof m.series, "%s", l->series);
	m.size_bytes = l->size;
	m.size_conv = PCIBW_SIZE_FRAME;
	m.direction = PCIBW_PAT_RX;
	m.pps = l->pps;
	m.cpu_pct = l->cpu_pct;
	m.core_max_pct = l->core_pct;
	m.cores = l->cores;
	if (iface)
		snprintf(m.iface, sizeof m.iface, "%s", iface);
	struct pcibw_err err;
	cr_assert_eq(pcibw_rows_add(rs, &m, &err), PCIBW_OK);
}

static void add(struct pcibw_rows *rs, const struct line *l)
{
	add_on(rs, l, NULL);
}

/* The rows added, judged with the same ceilings (packets/s) on every row. */
static void judge_all(struct pcibw_rows *rs, double bus_pps, double wire_pps,
		      const struct pcibw_thresholds *t0, struct pcibw_summary *s)
{
	pcibw_rows_finish(rs);
	for (int i = 0; i < rs->n; i++) {
		struct pcibw_row *r = &rs->v[i];
		r->packet_bytes = r->basis_bytes = r->size_bytes;
		pcibw_row_rates(r);
		r->bus_mpps = bus_pps / 1e6;
		r->bus_gbps = r->bus_mpps * 1e6 * r->size_bytes * 8 / 1e9;
		r->wire_mpps = wire_pps / 1e6;
		r->wire_gbps = r->wire_mpps * 1e6 * r->size_bytes * 8 / 1e9;
	}
	struct pcibw_thresholds t;
	if (t0)
		t = *t0;
	else
		pcibw_thresholds_default(&t);
	struct pcibw_machine m = {.have_bus = true, .line_rate_gbps = 10, .cpus = PCIBW_NULL, .cpu_mhz = NAN};
	snprintf(m.bus_name, sizeof m.bus_name, "test bus");
	struct pcibw_err err;
	cr_assert_eq(verdict_words(rs, &t, &m, s, &err), PCIBW_OK);
}

/* Run the engine with the same ceilings (packets/s) on every row. */
static void run(struct pcibw_rows *rs, const struct line *lines, int n, double bus_pps, double wire_pps,
		const struct pcibw_thresholds *t0, struct pcibw_summary *s)
{
	for (int i = 0; i < n; i++)
		add(rs, &lines[i]);
	judge_all(rs, bus_pps, wire_pps, t0, s);
}

static bool has(char *const *ev, int n, const char *needle)
{
	for (int i = 0; i < n; i++)
		if (strstr(ev[i], needle))
			return true;
	return false;
}

/* 64 B cpu-bound (CPU 95 %), 128-256 B io-bound (bus 90 %), 512-1518 B wire-bound (wire 97 %):
 * three groups, and the headline names each. The whole is the most common (wire-bound, 3 rows). */
Test(groups, size_bands)
{
	const struct line l[] = {
	    {"", 64, 500e3, 95, NAN, NAN},  {"", 128, 900e3, 40, NAN, NAN},  {"", 256, 900e3, 40, NAN, NAN},
	    {"", 512, 970e3, 40, NAN, NAN}, {"", 1024, 970e3, 40, NAN, NAN}, {"", 1518, 970e3, 40, NAN, NAN},
	};
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	/* bus 1 Mpps, wire 1 Mpps at every size: 0.5 / 0.9 / 0.97 of each */
	run(&rs, l, 6, 1e6, 1e6, NULL, &s);
	cr_assert_eq(s.n_groups, 3);
	cr_assert_eq(s.groups[0].verdict, PCIBW_V_CPU);
	cr_assert_eq(s.groups[0].size_min, 64);
	cr_assert_eq(s.groups[0].size_max, 64);
	cr_assert_eq(s.groups[1].verdict, PCIBW_V_IO, "128-256 B: wire 0.9 < 0.95, bus 0.9 >= 0.85 -> io");
	cr_assert_eq(s.groups[2].verdict, PCIBW_V_WIRE);
	cr_assert_eq(s.groups[2].size_min, 512);
	cr_assert_eq(s.groups[2].size_max, 1518);
	cr_assert_eq(s.verdict, PCIBW_V_WIRE, "3 wire rows, 2 io, 1 cpu");
	cr_assert(has(s.evidence, s.n_evidence, "cpu-bound 64 B, io-bound 128-256 B, wire-bound 512-1518 B"));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

Test(groups, size_bands_io)
{
	/* wire 2 Mpps (so 0.45 of it), bus 1 Mpps: 900 kpps is io-bound */
	const struct line l[] = {
	    {"", 64, 500e3, 95, NAN, NAN},
	    {"", 128, 900e3, 40, NAN, NAN},
	    {"", 256, 900e3, 40, NAN, NAN},
	};
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	run(&rs, l, 3, 1e6, 2e6, NULL, &s);
	cr_assert_eq(s.n_groups, 2);
	cr_assert_eq(s.groups[0].verdict, PCIBW_V_CPU);
	cr_assert_eq(s.groups[1].verdict, PCIBW_V_IO);
	cr_assert_eq(s.groups[1].size_min, 128);
	cr_assert_eq(s.groups[1].size_max, 256);
	cr_assert_eq(s.groups[1].n_rows, 2);
	cr_assert_eq(s.verdict, PCIBW_V_IO, "2 io rows against 1 cpu row");
	cr_assert(has(s.evidence, s.n_evidence, "cpu-bound 64 B, io-bound 128-256 B"), "%s",
		  s.n_evidence > 2 ? s.evidence[2] : "-");
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* Two interfaces measured at one size: each is a group of its own (two NICs never share a
 * verdict), and every word that names a group or the headline's figure says which interface it
 * is about. Bus 1 Mpps, wire 2 Mpps: eth0 at 500 kpps with the CPUs 95 % busy is cpu-bound (0.95
 * >= cpu 0.90, bus 0.5 < 0.85); eth1 at 900 kpps with 40 % is io-bound (0.9 >= 0.85). One row
 * each: the tie goes to io-bound, so the headline's figure is eth1's. */
Test(groups, interfaces_apart_and_named)
{
	const struct line l[] = {
	    {"", 64, 500e3, 95, NAN, NAN},
	    {"", 64, 900e3, 40, NAN, NAN},
	};
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	add_on(&rs, &l[0], "eth0");
	add_on(&rs, &l[1], "eth1");
	judge_all(&rs, 1e6, 2e6, NULL, &s);
	cr_assert_eq(s.n_groups, 2, "one group per interface, though both rows are 64 B");
	cr_assert_eq(s.groups[0].verdict, PCIBW_V_CPU);
	cr_assert_eq(s.groups[1].verdict, PCIBW_V_IO);
	char label[64];
	pcibw_group_label(&rs, &s.groups[0], false, label, sizeof label);
	cr_assert_str_eq(label, "eth0 rx");
	pcibw_group_label(&rs, &s.groups[1], false, label, sizeof label);
	cr_assert_str_eq(label, "eth1 rx");
	pcibw_group_label(&rs, &s.groups[1], true, label, sizeof label);
	cr_assert_str_eq(label, "hand.csv eth1 rx");
	/* a short buffer is cut, never overrun */
	char tiny[4];
	pcibw_group_label(&rs, &s.groups[1], false, tiny, sizeof tiny);
	cr_assert_str_eq(tiny, "eth");
	cr_assert_eq(s.verdict, PCIBW_V_IO);
	cr_assert(strstr(s.evidence[0], "IO-bound") && strstr(s.evidence[0], " on eth1"), "%s",
		  s.evidence[0]);
	cr_assert(has(s.evidence, s.n_evidence, "eth0 rx: cpu-bound 64 B"));
	cr_assert(has(s.evidence, s.n_evidence, "eth1 rx: io-bound 64 B"));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* The whole input: undetermined rows do not vote. 1 cpu-bound row among 3 undetermined is
 * cpu-bound; all undetermined is undetermined; one impossible row makes it impossible. */
Test(groups, whole_input_rule)
{
	const struct line l[] = {
	    {"a", 64, 100e3, 95, NAN, NAN},
	    {"b", 64, 100e3, 10, NAN, NAN},
	    {"c", 64, 100e3, 10, NAN, NAN},
	    {"d", 64, 100e3, 10, NAN, NAN},
	};
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	run(&rs, l, 4, 1e6, 1e6, NULL, &s);
	cr_assert_eq(s.counts[PCIBW_V_UNDETERMINED], 3);
	cr_assert_eq(s.verdict, PCIBW_V_CPU);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);

	struct pcibw_rows rs2 = {0};
	run(&rs2, l + 1, 3, 1e6, 1e6, NULL, &s);
	cr_assert_eq(s.verdict, PCIBW_V_UNDETERMINED);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs2);

	/* 1.2 Mpps on a 1 Mpps bus: 1.2 > 1.10 */
	const struct line l3[] = {
	    {"a", 64, 1.2e6, 10, NAN, NAN}, {"b", 64, 970e3, 10, NAN, NAN}, {"c", 64, 970e3, 10, NAN, NAN}};
	struct pcibw_rows rs3 = {0};
	run(&rs3, l3, 3, 1e6, 1e6, NULL, &s);
	cr_assert_eq(s.verdict, PCIBW_V_IMPOSSIBLE);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs3);
}

/* wire 93 %, bus 76 %, CPU 85 %: nothing reached its threshold, and the row says by how much. */
Test(evidence, none_reached)
{
	/* bus 1 Mpps, wire 818 kpps: 760 kpps = 0.76 of the bus, 0.929 of the wire */
	const struct line l[] = {{"", 1000, 760e3, 85, NAN, NAN}};
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	run(&rs, l, 1, 1e6, 818e3, NULL, &s);
	const struct pcibw_row *r = &rs.v[0];
	cr_assert_eq(r->verdict, PCIBW_V_UNDETERMINED);
	cr_assert(has(r->evidence, r->n_evidence,
		      "none reached its threshold (wire 93 % < 95 %, bus 76 % < 85 %, CPU 85 % < 90 %)"),
		  "%s", r->n_evidence ? r->evidence[r->n_evidence - 1] : "-");
	/* the same as reasons: the answer, then each load below its threshold, on one line */
	const struct pcibw_reason *x = r->reasons;
	int n = r->n_reasons;
	while (n && x->code != PCIBW_R_NONE_AT_THRESHOLD)
		x++, n--;
	cr_assert(n >= 4, "no none-at-threshold reason");
	static const struct {
		enum pcibw_resource res;
		double share, thr;
	} want[] = {
	    {PCIBW_RES_WIRE, 760e3 / 818e3, 0.95}, {PCIBW_RES_BUS, 0.76, 0.85}, {PCIBW_RES_CPU, 0.85, 0.90}};
	for (int k = 0; k < 3; k++) {
		cr_assert_eq(x[k + 1].code, PCIBW_R_BELOW_THRESHOLD);
		cr_assert_eq(x[k + 1].resource, want[k].res);
		cr_assert_float_eq(x[k + 1].share, want[k].share, 1e-9);
		cr_assert_float_eq(x[k + 1].threshold, want[k].thr, 1e-12);
		cr_assert_eq(x[k + 1].evidence_index, x->evidence_index);
	}
	cr_assert(!has(r->evidence, r->n_evidence, "is loaded"));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* A wire-bound row whose busiest core is 98 % busy names the core too (>= notable 0.75). */
Test(evidence, notable_loads)
{
	const struct line l[] = {{"", 1000, 970e3, 30, 98, NAN}};
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	/* bus 1.25 Mpps: 970 kpps is 0.776 of it, also >= 0.75 */
	run(&rs, l, 1, 1.25e6, 1e6, NULL, &s);
	const struct pcibw_row *r = &rs.v[0];
	cr_assert_eq(r->verdict, PCIBW_V_WIRE);
	/* the core at 98 % reached `core` (0.95): a co-limit on the verdict's line, not merely "also
	 * loaded"; the bus at 78 % only reached `notable` */
	cr_assert(has(r->evidence, r->n_evidence, "also loaded (at least 75 % of its limit): test bus 78 %"),
		  "%s", r->evidence[r->n_evidence - 1]);
	cr_assert(
	    !has(r->evidence, r->n_evidence, "also loaded (at least 75 % of its limit): test bus 78 %, "));
	cr_assert(
	    has(r->evidence, r->n_evidence,
		"the wire is 97 % full (970 kpps of a 10 Gbit/s line at 1000 B); and the busiest core at "
		"98 %: both limit it; more line rate alone would not help"),
	    "%s", r->evidence[0]);
	cr_assert_eq(r->limits, 1u << PCIBW_RES_WIRE | 1u << PCIBW_RES_CORE);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);

	/* notable=0.99: the core at 98 % is no longer named */
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	struct pcibw_err err;
	cr_assert_eq(pcibw_threshold_set(&t, "notable=0.99", &err), PCIBW_OK);
	struct pcibw_rows rs2 = {0};
	run(&rs2, l, 1, 1.25e6, 1e6, &t, &s);
	cr_assert(!has(rs2.v[0].evidence, rs2.v[0].n_evidence, "also loaded"));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs2);
}

/* Thresholds outside their meaningful range are refused. */
Test(thresholds, ranges)
{
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	struct pcibw_err err;
	const char *bad[] = {"impossible=0.5", "impossible=0.99",    "bus=2",	    "wire=1.01",
			     "wire=0",	       "notable=1.5",	     "idle=2",	    "cores_flat=1",
			     "cores_flat=0",   "cores_elasticity=0", "cpu_only=1.1"};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_assert_eq(pcibw_threshold_set(&t, bad[i], &err), PCIBW_EUSAGE, "%s accepted", bad[i]);
		cr_assert(strstr(err.msg, "is not a value in"), "%s", err.msg);
	}
	cr_assert(pcibw_threshold_set(&t, "impossible=0.5", &err) == PCIBW_EUSAGE &&
		  strstr(err.msg, "below 1 every loaded row would be impossible"));
	const char *good[] = {"impossible=1",	      "bus=1",	       "wire=0.5", "notable=0.8",
			      "cores_elasticity=0.7", "cores_flat=0.1"};
	for (unsigned i = 0; i < sizeof good / sizeof good[0]; i++)
		cr_assert_eq(pcibw_threshold_set(&t, good[i], &err), PCIBW_OK, "%s: %s", good[i], err.msg);
	pcibw_thresholds_default(&t);
	cr_assert_eq(t.notable, 0.75);
	cr_assert_eq(t.cores_elasticity, 0.5);
	cr_assert_eq(t.cores_flat, 0.05);
}

/* A core-count sweep: pps that grows with cores is a per-core CPU limit, even though no core
 * reads 95 % busy; pps flat over cores is not the CPU. */
Test(cores, grows_and_flat)
{
	/* 1, 2, 4 cores at 1, 1.9, 3.6 Mpps: slope of ln pps on ln cores = 0.924 >= 0.5 */
	const struct line grow[] = {
	    {"", 64, 1.0e6, 30, 80, 1}, {"", 64, 1.9e6, 30, 80, 2}, {"", 64, 3.6e6, 30, 80, 4}};
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	run(&rs, grow, 3, 20e6, 14.88e6, NULL, &s);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(rs.v[i].verdict, PCIBW_V_CPU, "row %d", i);
		cr_assert(has(rs.v[i].evidence, rs.v[i].n_evidence, "packet rate grows with cores"));
	}
	/* least squares: x = ln 1, ln 2, ln 4; y = ln 1e6, ln 1.9e6, ln 3.6e6 */
	double x[] = {0, log(2), log(4)}, y[] = {log(1e6), log(1.9e6), log(3.6e6)};
	double mx = (x[0] + x[1] + x[2]) / 3, my = (y[0] + y[1] + y[2]) / 3, sxy = 0, sxx = 0;
	for (int i = 0; i < 3; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
	}
	cr_assert(fabs(rs.v[0].cores_elasticity - sxy / sxx) < 1e-9, "%g vs %g", rs.v[0].cores_elasticity,
		  sxy / sxx);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);

	/* 1, 2, 4, 8 cores all at 3.00-3.05 Mpps (spread 1.6 % < 5 %) with the busiest core at 96 %:
	 * adding cores does not help, so not cpu-bound; bus and wire below threshold: undetermined,
	 * pointing at the NIC */
	const struct line flat[] = {{"", 64, 3.00e6, 20, 96, 1},
				    {"", 64, 3.05e6, 20, 96, 2},
				    {"", 64, 3.02e6, 20, 96, 4},
				    {"", 64, 3.01e6, 20, 96, 8}};
	struct pcibw_rows rs2 = {0};
	run(&rs2, flat, 4, 20e6, 14.88e6, NULL, &s);
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(rs2.v[i].verdict, PCIBW_V_UNDETERMINED, "row %d", i);
		cr_assert(
		    has(rs2.v[i].evidence, rs2.v[i].n_evidence, "flat at 3 Mpps-3.05 Mpps over 1-8 cores"));
		cr_assert(has(rs2.v[i].evidence, rs2.v[i].n_evidence, "NIC"));
	}
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs2);

	/* the same flat sweep at 96 % of the bus (19.2 of 20 Mpps): io-bound, the bus rule decides */
	const struct line flat_bus[] = {{"", 64, 19.2e6, 20, 96, 1}, {"", 64, 19.25e6, 20, 96, 2}};
	struct pcibw_rows rs3 = {0};
	run(&rs3, flat_bus, 2, 20e6, 30e6, NULL, &s);
	cr_assert_eq(rs3.v[0].verdict, PCIBW_V_IO);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs3);
}

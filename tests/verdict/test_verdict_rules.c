/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict engine on plain numbers, no model: the rules, their order and the default
 * thresholds of doc/cli-contract.md ("Verdicts and default thresholds"), the whole-input
 * verdict and its tie-break, per-packet limits and elasticity. Ceilings and measurements are
 * chosen by hand around each threshold; the expected verdict is the contract's rule.
 */
#include "pcibw/device.h"
#include "pcibw/ingest.h"
#include "pcibw/nic.h"
#include "pcibw/verdict.h"
#include "pcibw/words.h"
#include "shape.h"
#include <criterion/criterion.h>
#include <math.h>
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

#define assert_close(a, b, tol)                                                                              \
	cr_assert(fabs((a) - (b)) <= (tol), "%s = %.10g, expected %.10g (+-%g)", #a, (double)(a),            \
		  (double)(b), (double)(tol))

/* One measured row: size (frame), pps, cpu share of all CPUs (0-100, or NAN). */
static void add(struct pcibw_rows *rs, const char *series, double size, double pps, double cpu_pct)
{
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "hand";
	snprintf(m.series, sizeof m.series, "%s", series);
	m.size_bytes = size;
	m.size_conv = PCIBW_SIZE_FRAME;
	m.direction = PCIBW_PAT_RX;
	m.pps = pps;
	m.cpu_pct = cpu_pct;
	struct pcibw_err err;
	cr_assert_eq(pcibw_rows_add(rs, &m, &err), PCIBW_OK);
}

/* Give every row the same ceilings (in packets/s). */
static void ceil_all(struct pcibw_rows *rs, double bus_pps, double wire_pps)
{
	for (int i = 0; i < rs->n; i++) {
		struct pcibw_row *r = &rs->v[i];
		r->packet_bytes = r->basis_bytes = r->size_bytes;
		pcibw_row_rates(r);
		r->bus_mpps = bus_pps / 1e6;
		r->bus_gbps = r->bus_mpps * 1e6 * r->size_bytes * 8 / 1e9;
		r->wire_mpps = wire_pps / 1e6;
		r->wire_gbps = r->wire_mpps * 1e6 * r->size_bytes * 8 / 1e9;
	}
}

static struct pcibw_machine machine(void)
{
	struct pcibw_machine m = {.have_bus = true, .line_rate_gbps = 1, .cpus = PCIBW_NULL, .cpu_mhz = NAN};
	snprintf(m.bus_name, sizeof m.bus_name, "test bus");
	return m;
}

static enum pcibw_verdict one(double pps, double cpu_pct, double bus_pps, double wire_pps,
			      struct pcibw_rows *rs, struct pcibw_summary *s)
{
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	add(rs, "", 1000, pps, cpu_pct);
	pcibw_rows_finish(rs);
	ceil_all(rs, bus_pps, wire_pps);
	struct pcibw_machine m = machine();
	struct pcibw_err err;
	cr_assert_eq(verdict_words(rs, &t, &m, s, &err), PCIBW_OK);
	return rs->v[0].verdict;
}

/* the row's reason with this code, NULL if none */
static const struct pcibw_reason *reason_of(const struct pcibw_row *r, enum pcibw_reason_code code)
{
	for (int k = 0; k < r->n_reasons; k++)
		if (r->reasons[k].code == code)
			return &r->reasons[k];
	return NULL;
}

/* A rule's verdict, the reason it gives with its share of the ceiling (NAN: none) and the words of
 * that reason's line. */
#define CASE(name, pps, cpu, bus, wire, expect, code, want_share, needle)                                    \
	Test(verdict_rules, name)                                                                            \
	{                                                                                                    \
		struct pcibw_rows rs = {0};                                                                  \
		struct pcibw_summary s;                                                                      \
		enum pcibw_verdict v = one(pps, cpu, bus, wire, &rs, &s);                                    \
		cr_assert_eq(v, expect, "got %s", pcibw_verdict_name(v));                                    \
		const struct pcibw_reason *x = reason_of(&rs.v[0], code);                                    \
		cr_assert(x, "no reason %s", pcibw_reason_code_name(code));                                  \
		if (!isnan(want_share))                                                                      \
			cr_assert_float_eq(x->share, want_share, 1e-9, "%s share %g",                        \
					   pcibw_reason_code_name(code), x->share);                          \
		cr_assert_eq(x->row, 0);                                                                     \
		cr_assert(x->evidence_index < rs.v[0].n_evidence);                                           \
		const char *e = rs.v[0].evidence[x->evidence_index];                                         \
		cr_assert(strstr(e, needle), "'%s' not in '%s'", needle, e);                                 \
		cr_assert_eq(s.verdict, expect);                                                             \
		pcibw_summary_free(&s);                                                                      \
		pcibw_rows_free(&rs);                                                                        \
	}

/* impossible: measured > 1.10 x a ceiling, checked first (even with the wire full and the CPU busy) */
CASE(impossible_bus, 111000, 99, 100000, 1e9, PCIBW_V_IMPOSSIBLE, PCIBW_R_BEYOND_CEILING, 1.11,
     "cannot have passed")
CASE(impossible_wire, 111000, NAN, 1e9, 100000, PCIBW_V_IMPOSSIBLE, PCIBW_R_BEYOND_CEILING, 1.11,
     "more than the wire")
/* exactly 1.10 is not impossible: the rule is "more than" */
CASE(at_impossible_edge_is_wire, 110000, NAN, 1e9, 100000, PCIBW_V_WIRE, PCIBW_R_WIRE_AT_THRESHOLD, 1.10,
     "the wire is")
/* wire-bound before io-bound when both are full */
CASE(wire_before_bus, 96000, NAN, 100000, 100000, PCIBW_V_WIRE, PCIBW_R_WIRE_AT_THRESHOLD, 0.96, "96 % full")
CASE(wire_at_threshold, 95000, NAN, 1e9, 100000, PCIBW_V_WIRE, PCIBW_R_WIRE_AT_THRESHOLD, 0.95, "95 % full")
CASE(io_bound, 85000, 99, 100000, 1e9, PCIBW_V_IO, PCIBW_R_BUS_AT_THRESHOLD, 0.85, "85 % of its ceiling")
CASE(below_bus_threshold, 84000, NAN, 100000, 1e9, PCIBW_V_UNDETERMINED, PCIBW_R_CPU_NOT_MEASURED, NAN,
     "no CPU was measured")
CASE(cpu_all_busy, 50000, 90, 100000, 1e9, PCIBW_V_CPU, PCIBW_R_CPUS_SATURATED, 0.90, "CPUs are 90 % busy")
/* the CPU is the only loaded resource: >= 0.75 while bus and wire < 0.60 */
CASE(cpu_only_loaded, 50000, 75, 100000, 100000, PCIBW_V_CPU, PCIBW_R_CPU_ONLY_LOADED, 0.75,
     "idle time is mis-measured (interrupt time a user-space CPU soaker never sees, or a closed-loop "
     "benchmark)")
CASE(cpu_not_only_loaded, 60000, 80, 100000, 1e9, PCIBW_V_UNDETERMINED, PCIBW_R_NONE_AT_THRESHOLD, NAN,
     "none reached its threshold (wire 0 % < 95 %, bus 60 % < 85 %, CPU 80 % < 90 %)")
CASE(nothing_loaded, 10000, 20, 100000, 100000, PCIBW_V_UNDETERMINED, PCIBW_R_NONE_AT_THRESHOLD, NAN,
     "closed-loop")

Test(verdict_rules, busiest_core)
{
	struct pcibw_rows rs = {0};
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "hand";
	m.size_bytes = 64;
	m.size_conv = PCIBW_SIZE_FRAME;
	m.pps = 920000;
	m.core_max_pct = 95;
	struct pcibw_err err;
	cr_assert_eq(pcibw_rows_add(&rs, &m, &err), PCIBW_OK);
	pcibw_rows_finish(&rs);
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	struct pcibw_machine mach = machine();
	mach.have_bus = false;
	mach.line_rate_gbps = 0;
	struct pcibw_summary s;
	cr_assert_eq(verdict_words(&rs, &t, &mach, &s, &err), PCIBW_OK);
	cr_assert_eq(rs.v[0].verdict, PCIBW_V_CPU);
	cr_assert_eq(rs.v[0].reasons[0].code, PCIBW_R_CORE_SATURATED);
	cr_assert_eq(rs.v[0].reasons[0].resource, PCIBW_RES_CORE);
	cr_assert_float_eq(rs.v[0].reasons[0].share, 0.95, 1e-12);
	cr_assert_float_eq(rs.v[0].reasons[0].threshold, 0.95, 1e-12);
	cr_assert(strstr(rs.v[0].evidence[0], "busiest core is 95 %"));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/*
 * A CPU-bound row whose cycles per packet pass cycles_high (50,000) names both readings of that
 * figure: interrupts all on one CPU, or CPUs busy with another load while the traffic is light.
 * 5 pps of 90 B frames with both of 2 CPUs at 2.8 GHz fully busy: 2 x 2.8e9 / 5 = 1.12e9
 * cycles, 400 ms of CPU per packet. 20 kpps on one 2.6 GHz core at 100 %: 130,000 cycles, 50 us.
 */
static void slow_cpu_row(double pps, double cpu_pct, int cpus, double mhz, const char *cycles,
			 const char *time)
{
	struct pcibw_rows rs = {0};
	add(&rs, "", 90, pps, cpu_pct);
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 1e6, 1e6);
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	struct pcibw_machine m = machine();
	m.cpus = cpus;
	m.cpu_mhz = mhz;
	struct pcibw_summary s;
	struct pcibw_err err;
	cr_assert_eq(verdict_words(&rs, &t, &m, &s, &err), PCIBW_OK);
	cr_assert_eq(rs.v[0].verdict, PCIBW_V_CPU);
	const char *hit = NULL;
	for (int i = 0; i < rs.v[0].n_evidence; i++)
		if (strstr(rs.v[0].evidence[i], "unexpectedly slow"))
			hit = rs.v[0].evidence[i];
	cr_assert(hit, "no cycles_high evidence");
	const struct pcibw_reason *x = reason_of(&rs.v[0], PCIBW_R_CYCLES_HIGH);
	cr_assert(x && !strcmp(x->unit, "cycles") && x->threshold == 50000, "cycles-high reason");
	cr_assert(hit == rs.v[0].evidence[x->evidence_index]);
	cr_assert(strstr(hit, cycles) && strstr(hit, time), "%s", hit);
	cr_assert(strstr(hit, "IRQ affinity") && strstr(hit, "another load"), "%s", hit);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

Test(verdict_rules, cycles_high_names_other_load)
{
	slow_cpu_row(5, 100, 2, 2800, "1120000000 cycles per packet", "(400 ms of CPU each)");
	slow_cpu_row(20000, 100, 1, 2600, "130000 cycles per packet", "(50 us of CPU each)");
}

/* Whole input: impossible if any row is; else the most common; ties io, wire, cpu, undetermined. */
Test(verdict_whole, tie_break_and_impossible)
{
	struct pcibw_rows rs = {0};
	add(&rs, "a", 100, 90000, NAN); /* io (0.9 of 100000) */
	add(&rs, "b", 100, 50000, 95);	/* cpu */
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 100000, 1e9);
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	struct pcibw_machine m = machine();
	struct pcibw_summary s;
	struct pcibw_err err;
	cr_assert_eq(verdict_words(&rs, &t, &m, &s, &err), PCIBW_OK);
	cr_assert_eq(s.verdict, PCIBW_V_IO, "1 io + 1 cpu: io wins the tie, got %s",
		     pcibw_verdict_name(s.verdict));
	cr_assert_eq(s.counts[PCIBW_V_IO], 1);
	cr_assert_eq(s.counts[PCIBW_V_CPU], 1);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);

	struct pcibw_rows rs2 = {0};
	add(&rs2, "a", 100, 50000, 95);
	add(&rs2, "b", 100, 50000, 95);
	add(&rs2, "c", 100, 120000, NAN); /* 1.2 x the bus */
	pcibw_rows_finish(&rs2);
	ceil_all(&rs2, 100000, 1e9);
	cr_assert_eq(verdict_words(&rs2, &t, &m, &s, &err), PCIBW_OK);
	cr_assert_eq(s.verdict, PCIBW_V_IMPOSSIBLE, "one impossible row makes the input impossible");
	cr_assert(strstr(s.evidence[0], "Impossible"));
	/* the headline is the impossible row's own reason, copied */
	cr_assert_eq(s.reasons[0].code, PCIBW_R_VERDICT);
	cr_assert_eq(s.reasons[0].row, 2);
	cr_assert_eq(s.reasons[1].code, PCIBW_R_BEYOND_CEILING);
	cr_assert_eq(s.reasons[1].resource, PCIBW_RES_BUS);
	cr_assert_eq(s.reasons[1].evidence_index, 0);
	cr_assert_float_eq(s.reasons[1].share, 1.2, 1e-9);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs2);
}

/* Per-packet limit: pps flat within 5 % over >= 3 sizes while the bytes rise. */
Test(verdict_shape, flat_packet_rate)
{
	struct pcibw_rows rs = {0};
	add(&rs, "", 64, 100000, NAN);
	add(&rs, "", 128, 97000, NAN);
	add(&rs, "", 256, 95000, NAN); /* (100000 - 95000) / 100000 = 5 %: still flat */
	add(&rs, "", 512, 60000, NAN);
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 1e9, 1e9);
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	cr_assert_eq(pcibw_shape(&rs, &t), 0);
	for (int i = 0; i < 3; i++)
		cr_assert(rs.v[i].per_packet, "row %d", i);
	cr_assert(!rs.v[3].per_packet);
	cr_assert_eq(rs.v[0].flat_size_lo, 64);
	cr_assert_eq(rs.v[0].flat_size_hi, 256);
	pcibw_rows_free(&rs);

	/* two sizes are not enough */
	struct pcibw_rows rs2 = {0};
	add(&rs2, "", 64, 100000, NAN);
	add(&rs2, "", 128, 100000, NAN);
	pcibw_rows_finish(&rs2);
	ceil_all(&rs2, 1e9, 1e9);
	cr_assert_eq(pcibw_shape(&rs2, &t), 0);
	cr_assert(!rs2.v[0].per_packet);
	pcibw_rows_free(&rs2);
}

/* Elasticity: d ln y / d ln x. y = k / x gives -1, y = k x gives +1, y = k / sqrt(x) gives -0.5,
 * constant y gives 0; with an x of 0 the midpoint arc elasticity: x 0 -> 2, y 4 -> 2 gives
 * ((2-4)/3) / ((2-0)/1) = -1/3. */
Test(verdict_shape, elasticity_formula)
{
	double x[] = {1, 2, 4, 8}, inv[] = {8, 4, 2, 1}, lin[] = {3, 6, 12, 24},
	       sq[] = {4, 2.828427124746190, 2, 1.414213562373095}, flat[] = {5, 5, 5, 5};
	cr_assert(fabs(pcibw_elasticity(x, inv, 4) + 1) < 1e-12);
	cr_assert(fabs(pcibw_elasticity(x, lin, 4) - 1) < 1e-12);
	cr_assert(fabs(pcibw_elasticity(x, sq, 4) + 0.5) < 1e-12);
	cr_assert(fabs(pcibw_elasticity(x, flat, 4)) < 1e-12);
	double x0[] = {0, 2}, y0[] = {4, 2};
	cr_assert(fabs(pcibw_elasticity(x0, y0, 2) + 1.0 / 3) < 1e-12);
	double same[] = {3, 3};
	cr_assert(isnan(pcibw_elasticity(same, y0, 2)), "x does not vary: no elasticity");
}

Test(verdict_thresholds, defaults_and_set)
{
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	cr_assert_eq(t.impossible, 1.10);
	cr_assert_eq(t.wire, 0.95);
	cr_assert_eq(t.bus, 0.85);
	cr_assert_eq(t.cpu, 0.90);
	cr_assert_eq(t.core, 0.95);
	cr_assert_eq(t.elasticity, 0.5);
	struct pcibw_err err;
	cr_assert_eq(pcibw_threshold_set(&t, "bus=0.7", &err), PCIBW_OK);
	cr_assert_eq(t.bus, 0.7);
	cr_assert_eq(pcibw_threshold_set(&t, "bus", &err), PCIBW_EUSAGE);
	cr_assert_eq(pcibw_threshold_set(&t, "bogus=1", &err), PCIBW_EUSAGE);
	cr_assert(strstr(err.msg, "bogus") && strstr(err.msg, "impossible"), "%s", err.msg);
	cr_assert_eq(pcibw_threshold_set(&t, "cpu=1.5", &err), PCIBW_EUSAGE);
	cr_assert_eq(pcibw_threshold_set(&t, "wire=nan", &err), PCIBW_EUSAGE);
	cr_assert_eq(pcibw_threshold_set(&t, "flat_sizes=2.5", &err), PCIBW_EUSAGE);
}

/* Lines with the same key are one row: the means of pps and CPU, with a count. */
Test(verdict_rows, grouping_means)
{
	struct pcibw_rows rs = {0};
	add(&rs, "", 64, 100, 10);
	add(&rs, "", 64, 300, 30);
	add(&rs, "", 128, 50, NAN);
	add(&rs, "x", 64, 7, NAN);
	pcibw_rows_finish(&rs);
	cr_assert_eq(rs.n, 3);
	cr_assert_eq(rs.v[0].count, 2);
	cr_assert_eq(rs.v[0].pps, 200);
	cr_assert(fabs(rs.v[0].cpu_util - 0.2) < 1e-12);
	cr_assert_eq(rs.v[1].count, 1);
	cr_assert(isnan(rs.v[1].cpu_util));
	pcibw_rows_free(&rs);
}

/*
 * A row in both a work family and a cpu_mhz family keeps the elasticity whose sign speaks of the
 * CPU, not whichever is larger in magnitude. Rows (64 B, no CPU, no bus): A work 1 at 2000 MHz 1000 pps; B
 * work 2 at 2000 MHz 500 pps; C work 2 at 3000 MHz 200 pps. Work family {A, B}: ln(500/1000) / ln(2/1) = -1.0
 * (falls with work: CPU). Clock family {B, C}: ln(200/500) / ln(3000/2000) = -2.26 (falls with the clock: not
 * the CPU's sign). Expected for B: elasticity -1.0 of work, cpu-bound (contract: elasticity magnitude >=
 * 0.5).
 */
static void add_wm(struct pcibw_rows *rs, double work, double mhz, double pps)
{
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "hand";
	m.size_bytes = 64;
	m.size_conv = PCIBW_SIZE_FRAME;
	m.direction = PCIBW_PAT_RX;
	m.work = work;
	m.cpu_mhz = mhz;
	m.pps = pps;
	struct pcibw_err err;
	cr_assert_eq(pcibw_rows_add(rs, &m, &err), PCIBW_OK);
}

Test(verdict_shape, elasticity_keeps_cpu_sign)
{
	struct pcibw_rows rs = {0};
	add_wm(&rs, 1, 2000, 1000);
	add_wm(&rs, 2, 2000, 500);
	add_wm(&rs, 2, 3000, 200);
	pcibw_rows_finish(&rs);
	for (int i = 0; i < rs.n; i++) {
		rs.v[i].packet_bytes = rs.v[i].basis_bytes = 64;
		pcibw_row_rates(&rs.v[i]);
	}
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	struct pcibw_machine mach = {.cpus = PCIBW_NULL, .cpu_mhz = NAN};
	struct pcibw_summary sum;
	struct pcibw_err err;
	cr_assert_eq(verdict_words(&rs, &t, &mach, &sum, &err), PCIBW_OK);
	struct pcibw_row *b = &rs.v[1];
	cr_assert(b->work == 2 && b->cpu_mhz == 2000);
	assert_close(b->elasticity, -1.0, 1e-12);
	cr_assert_str_eq(b->elasticity_of, "work");
	cr_assert_eq(b->verdict, PCIBW_V_CPU);
	struct pcibw_row *c = &rs.v[2];
	assert_close(c->elasticity, log(0.4) / log(1.5), 1e-12);
	cr_assert_neq(c->verdict, PCIBW_V_CPU, "falling with the clock is not the CPU's sign");
	pcibw_summary_free(&sum);
	pcibw_rows_free(&rs);
}

/* No rows, no conclusion: the contract's tie-break order must not turn "nothing" into io-bound. */
Test(verdict_whole, no_rows_is_undetermined)
{
	struct pcibw_rows rs = {0};
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	struct pcibw_machine m = {0};
	m.cpus = -1;
	m.cpu_mhz = NAN;
	struct pcibw_summary s;
	struct pcibw_err err;
	cr_assert_eq(verdict_words(&rs, &t, &m, &s, &err), 0);
	cr_assert_eq(s.verdict, PCIBW_V_UNDETERMINED);
	pcibw_summary_free(&s);
}

/* A virtual NIC has no bus load to state: the summary gives the rate and size as the verdict's,
 * not as the bus's ("a virtual NIC has no bus ceiling at 8 Mbit/s" read as a ceiling). 1000 pps
 * of 1000 B frames are 8 Mbit/s; 1 Gbit/s carries 1e9 / (1020 * 8) = 122549 frames/s, so 1000 pps
 * fill 0.816 % of the wire. */
static void virtual_cpu_case(double wire_pps, const char *expect)
{
	struct pcibw_rows rs = {0};
	add(&rs, "", 1000, 1000, 100);
	pcibw_rows_finish(&rs);
	ceil_all(&rs, NAN, wire_pps);
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	struct pcibw_machine mach = machine();
	mach.have_bus = false;
	mach.bus_virtual = true;
	mach.bus_name[0] = '\0';
	if (isnan(wire_pps))
		mach.line_rate_gbps = 0;
	struct pcibw_summary s;
	struct pcibw_err err;
	cr_assert_eq(verdict_words(&rs, &t, &mach, &s, &err), PCIBW_OK);
	cr_assert_eq(s.verdict, PCIBW_V_CPU, "got %s", pcibw_verdict_name(s.verdict));
	cr_assert_str_eq(s.evidence[0], expect);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

Test(verdict_rules, virtual_nic_summary_puts_the_rate_on_the_verdict)
{
	virtual_cpu_case(NAN, "CPU-bound at 8 Mbit/s at 1000 B: the CPUs are 100 % busy; a virtual NIC "
			      "has no bus ceiling.");
	virtual_cpu_case(1e9 / (1020 * 8), "CPU-bound at 8 Mbit/s at 1000 B: the CPUs are 100 % busy; the "
					   "wire 1 %, a virtual NIC has no bus ceiling.");
}

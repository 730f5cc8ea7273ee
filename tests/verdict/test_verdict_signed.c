/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Verdicts an engineer would sign (doc/cli-contract.md, "Verdicts and default thresholds"): a
 * headline verdict held by fewer than half of all rows says so; every resource at or above its
 * threshold is a limit; causes with a known fix lead; counters that disagree beyond what any
 * header set allows lead and are named; TCP goodput above the wire's most is said so; poll-mode
 * rows never ask for a CPU %; concurrent directions say which stream shared the CPU; loopback rows
 * ask for neither bus nor wire. Ceilings and measurements are chosen by hand around each
 * threshold; the expected figures follow from them.
 */
#include "pcibw/device.h"
#include "pcibw/ingest.h"
#include "pcibw/nic.h"
#include "pcibw/verdict.h"
#include "pcibw/words.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define assert_close(a, b, tol)                                                                              \
	cr_assert(fabs((a) - (b)) <= (tol), "%s = %.10g, expected %.10g (+-%g)", #a, (double)(a),            \
		  (double)(b), (double)(tol))

/* a frame row: size B, pps, gbps as given (NAN), CPU of all and of the busiest core (percent, NAN) */
static struct pcibw_measured line(double size, double pps, double gbps, double cpu, double core)
{
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "hand";
	m.size_bytes = size;
	m.size_conv = PCIBW_SIZE_FRAME;
	m.direction = PCIBW_PAT_RX;
	m.pps = pps;
	m.gbps = gbps;
	m.cpu_pct = cpu;
	m.core_max_pct = core;
	return m;
}

static void add(struct pcibw_rows *rs, const struct pcibw_measured *m)
{
	struct pcibw_err err;
	cr_assert_eq(pcibw_rows_add(rs, m, &err), PCIBW_OK);
}

/* every row the same ceilings in packets/s; the rates as pcibw_row_rates makes them */
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
	struct pcibw_machine m = {.have_bus = true, .line_rate_gbps = 10, .cpus = PCIBW_NULL, .cpu_mhz = NAN};
	snprintf(m.bus_name, sizeof m.bus_name, "test bus");
	return m;
}

static void judge(struct pcibw_rows *rs, const struct pcibw_machine *m, struct pcibw_summary *s)
{
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	struct pcibw_err err;
	cr_assert_eq(pcibw_verdict_run(rs, &t, m, s, &err), PCIBW_OK);
	pcibw_verdict_words(rs, m, s);
}

static const struct pcibw_reason *reason_of(const struct pcibw_row *r, enum pcibw_reason_code code)
{
	for (int k = 0; k < r->n_reasons; k++)
		if (r->reasons[k].code == code)
			return &r->reasons[k];
	return NULL;
}

static bool has(char *const *ev, int n, const char *needle)
{
	for (int i = 0; i < n; i++)
		if (strstr(ev[i], needle))
			return true;
	return false;
}

/* 4 rows: 64 B at 97 kpps of a 100 kpps wire (wire-bound), 128-512 B at 10, 8 and 6 kpps (not flat) with no
 * CPU (undetermined, "no CPU was measured"). 1 of 4 rows holds the headline verdict: it says so. */
Test(minority, headline_says_how_few_rows_hold_it)
{
	struct pcibw_rows rs = {0};
	const double sizes[] = {64, 128, 256, 512}, pps[] = {97e3, 10e3, 8e3, 6e3};
	for (int i = 0; i < 4; i++) {
		struct pcibw_measured m = line(sizes[i], pps[i], NAN, NAN, NAN);
		add(&rs, &m);
	}
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 1e9, 100e3);
	struct pcibw_machine m = machine();
	struct pcibw_summary s;
	judge(&rs, &m, &s);
	cr_assert_eq(s.verdict, PCIBW_V_WIRE);
	cr_assert_eq(s.reasons[0].code, PCIBW_R_VERDICT);
	cr_assert_eq(s.reasons[0].value, 1);
	cr_assert_eq(s.reasons[0].ceiling, 4);
	cr_assert(
	    !strncmp(
		s.evidence[0],
		"wire-bound in 1 of 4 rows (64 B); 3 undetermined: no CPU measured. Wire-bound: ",
		strlen("wire-bound in 1 of 4 rows (64 B); 3 undetermined: no CPU measured. Wire-bound: ")),
	    "%s", s.evidence[0]);
	/* the per-group verdicts stay as they are */
	cr_assert(has(s.evidence, s.n_evidence, "1 of 4 rows wire-bound"));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* 2 of 4 rows is half, not fewer: no minority words */
Test(minority, half_the_rows_is_no_minority)
{
	struct pcibw_rows rs = {0};
	const double sizes[] = {64, 128, 256, 512}, pps[] = {97e3, 97e3, 10e3, 8e3};
	for (int i = 0; i < 4; i++) {
		struct pcibw_measured m = line(sizes[i], pps[i], NAN, NAN, NAN);
		add(&rs, &m);
	}
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 1e9, 100e3);
	struct pcibw_machine m = machine();
	struct pcibw_summary s;
	judge(&rs, &m, &s);
	cr_assert_eq(s.verdict, PCIBW_V_WIRE);
	cr_assert(!strncmp(s.evidence[0], "Wire-bound: ", 12), "%s", s.evidence[0]);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* io-bound at 90 % of the bus with all CPUs 99 % busy and the core 100 %: bus, cpu and core are
 * all limits; the verdict keeps the contract's order (io-bound) and names the others on its line
 * and in the headline. */
Test(co_limits, io_bound_with_busy_cpus)
{
	struct pcibw_rows rs = {0};
	struct pcibw_measured l = line(1000, 90e3, NAN, 99, 100);
	add(&rs, &l);
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 100e3, 1e9);
	struct pcibw_machine m = machine();
	struct pcibw_summary s;
	judge(&rs, &m, &s);
	const struct pcibw_row *r = &rs.v[0];
	cr_assert_eq(r->verdict, PCIBW_V_IO);
	cr_assert_eq(r->limits, 1u << PCIBW_RES_BUS | 1u << PCIBW_RES_CPU | 1u << PCIBW_RES_CORE);
	const char *names[8];
	int n = pcibw_limits_names(r->limits, names, 8);
	cr_assert_eq(n, 3);
	cr_assert_str_eq(names[0], "bus");
	cr_assert_str_eq(names[1], "cpu");
	cr_assert_str_eq(names[2], "core");
	const char *want = "; and all CPUs at 99 %, the busiest core at 100 %: all limit it; more bus "
			   "bandwidth alone would not help";
	cr_assert(strstr(r->evidence[0], want), "%s", r->evidence[0]);
	cr_assert(strstr(s.evidence[0], want), "%s", s.evidence[0]);
	/* the co-limits are named, so no "also loaded" repeats them */
	cr_assert(!has(r->evidence, r->n_evidence, "also loaded"));
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* A bus and wire both below `idle` (0.60) with ASPM L1 on and no CPU measured: the ASPM cause
 * (a known fix) is the first line, the request for a CPU figure after it, and the headline gives
 * the cause. */
Test(leads, aspm_before_missing_cpu)
{
	struct pcibw_rows rs = {0};
	struct pcibw_measured l = line(1000, 10e3, NAN, NAN, NAN);
	add(&rs, &l);
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 100e3, 100e3);
	struct pcibw_machine m = machine();
	m.aspm = PCIBW_ASPM_L1;
	struct pcibw_summary s;
	judge(&rs, &m, &s);
	const struct pcibw_row *r = &rs.v[0];
	cr_assert_eq(r->verdict, PCIBW_V_UNDETERMINED);
	cr_assert_eq(r->reasons[0].code, PCIBW_R_ASPM_IDLE_LINK);
	cr_assert_eq(r->reasons[0].evidence_index, 0);
	const struct pcibw_reason *cpu = reason_of(r, PCIBW_R_CPU_NOT_MEASURED);
	cr_assert(cpu && cpu->evidence_index > 0);
	cr_assert(strstr(r->evidence[0], "ASPM L1 is on"), "%s", r->evidence[0]);
	cr_assert(strstr(s.evidence[0], "Undetermined at ") && strstr(s.evidence[0], "ASPM L1 is on"), "%s",
		  s.evidence[0]);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* 1500 B frames at 150 kpps on a 100 kpps wire (1.5 x: impossible), with a bit rate of
 * 150 kpps x 64 B x 8 = 0.0768 Gbit/s: 64 B per packet, 1436 B from the stated size, more than
 * the 90 B any two rate bases differ by. The bit rate's wire share, 1.5 x 64 / 1500 = 6.4 %, keeps
 * to the ceiling: the packet counter is the suspect. The reason leads, before the impossible. */
Test(counters, packet_counter_named_before_impossible)
{
	struct pcibw_rows rs = {0};
	struct pcibw_measured l = line(1500, 150e3, 150e3 * 64 * 8 / 1e9, NAN, NAN);
	add(&rs, &l);
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 1e9, 100e3);
	struct pcibw_machine m = machine();
	struct pcibw_summary s;
	judge(&rs, &m, &s);
	const struct pcibw_row *r = &rs.v[0];
	cr_assert_eq(r->verdict, PCIBW_V_IMPOSSIBLE);
	cr_assert_eq(r->reasons[0].code, PCIBW_R_COUNTERS_INCONSISTENT);
	assert_close(r->reasons[0].value, 64, 1e-9);
	assert_close(r->reasons[0].ceiling, 1500, 1e-9);
	assert_close(r->reasons[0].share, 64.0 / 1500, 1e-12);
	cr_assert_str_eq(r->reasons[0].name, "packets");
	cr_assert(!reason_of(r, PCIBW_R_RATES_DISAGREE));
	cr_assert(!strncmp(s.evidence[0], "The counters disagree: the bit rate gives 64 B per packet", 57),
		  "%s", s.evidence[0]);
	const char *imp = strstr(s.evidence[0], "Impossible:");
	cr_assert(imp && strstr(s.evidence[0], "the packet counter is the suspect") < imp, "%s",
		  s.evidence[0]);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* The case: a 64 B frame row whose bit rate gives 65,550 B per packet (x 1024.2): at
 * 50 kpps of a 100 kpps wire the packet rate keeps to it, the bit rate (x 1024) does not. */
Test(counters, bit_counter_named)
{
	struct pcibw_rows rs = {0};
	struct pcibw_measured l = line(64, 50e3, 50e3 * 65550 * 8 / 1e9, NAN, NAN);
	add(&rs, &l);
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 1e9, 100e3);
	struct pcibw_machine m = machine();
	struct pcibw_summary s;
	judge(&rs, &m, &s);
	const struct pcibw_row *r = &rs.v[0];
	cr_assert_eq(r->reasons[0].code, PCIBW_R_COUNTERS_INCONSISTENT);
	assert_close(r->reasons[0].value, 65550, 1e-6);
	assert_close(r->reasons[0].share, 65550.0 / 64, 1e-9);
	cr_assert_str_eq(r->reasons[0].name, "bits");
	cr_assert(strstr(r->evidence[0], "(x1024)"), "%s", r->evidence[0]);
	cr_assert(strstr(s.evidence[0], "the bit-rate counter is the suspect"), "%s", s.evidence[0]);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* 64 B frames whose bit rate counts 84 B (the wire's bytes: +20 B preamble and gap): 31 % off,
 * within what the rate bases explain, so the old "rates disagree" line stays (a --rate-basis
 * slip), and nothing leads. */
Test(counters, a_basis_slip_is_no_inconsistency)
{
	struct pcibw_rows rs = {0};
	struct pcibw_measured l = line(64, 50e3, 50e3 * 84 * 8 / 1e9, NAN, NAN);
	add(&rs, &l);
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 1e9, 100e3);
	struct pcibw_machine m = machine();
	struct pcibw_summary s;
	judge(&rs, &m, &s);
	const struct pcibw_row *r = &rs.v[0];
	cr_assert(!reason_of(r, PCIBW_R_COUNTERS_INCONSISTENT));
	const struct pcibw_reason *x = reason_of(r, PCIBW_R_RATES_DISAGREE);
	cr_assert(x);
	assert_close(x->share, 84.0 / 64 - 1, 1e-12);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* TCP goodput of 9.6 Gbit/s with --mtu 1500: 1448 B segments (1500 - 52), 1500 B IP packets, 1538 B
 * on the wire (+18 Ethernet, +20 preamble and gap): a 10 Gbit/s line carries 10e9 / 8 / 1538 =
 * 812,743 of them, 9.415 Gbit/s of goodput. 9.6 is 102 % of that: goodput above what the wire can
 * carry, not "the wire is 102 % full". */
Test(goodput, above_the_wire)
{
	struct pcibw_rows rs = {0};
	struct pcibw_measured l = line(NAN, NAN, 9.6, NAN, NAN);
	l.tcp = true;
	l.size_conv = PCIBW_SIZE_OPTION;
	add(&rs, &l);
	pcibw_rows_finish(&rs);
	pcibw_rows_packets(&rs, 1500, PCIBW_SIZE_FRAME);
	struct pcibw_row *r = &rs.v[0];
	cr_assert_eq(r->segment_bytes, 1448);
	double wire_pps = 10e9 / 8 / 1538, max_goodput = wire_pps * 1448 * 8 / 1e9;
	r->wire_mpps = wire_pps / 1e6;
	r->wire_gbps = r->wire_mpps * 1e6 * 1500 * 8 / 1e9;
	struct pcibw_machine m = machine();
	m.have_bus = false;
	struct pcibw_summary s;
	judge(&rs, &m, &s);
	cr_assert_eq(r->verdict, PCIBW_V_WIRE);
	const struct pcibw_reason *x = reason_of(r, PCIBW_R_GOODPUT_ABOVE_WIRE);
	cr_assert(x);
	assert_close(x->ceiling, max_goodput, 1e-9);
	assert_close(x->share, 9.6 / max_goodput, 1e-9);
	cr_assert(!reason_of(r, PCIBW_R_WIRE_AT_THRESHOLD));
	cr_assert(has(r->evidence, r->n_evidence, "goodput above what the wire can carry: 9.6 Gbit/s"));
	cr_assert(!has(r->evidence, r->n_evidence, "% full"));
	cr_assert(strstr(s.evidence[0], "goodput above what the wire can carry"), "%s", s.evidence[0]);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* 64 B at 10 Mpps, both CPU figures 100 % (polling), 2 polling cores (a cores column) at 2 GHz:
 * 2 x 2e9 / 10e6 = 400 cycles per packet per polling core. No cores sweep: undetermined, asking
 * for one, never for a CPU %. */
static void poll_row(int poll_mode, bool machine_polls, struct pcibw_rows *rs, struct pcibw_summary *s)
{
	struct pcibw_measured l = line(64, 10e6, NAN, 100, 100);
	l.poll_mode = poll_mode;
	l.cores = 2;
	add(rs, &l);
	pcibw_rows_finish(rs);
	ceil_all(rs, 100e6, 100e6);
	struct pcibw_machine m = machine();
	m.cpu_mhz = 2000;
	m.poll_mode = machine_polls;
	judge(rs, &m, s);
}

Test(poll_mode, column_one_states_cycles_and_asks_for_a_sweep)
{
	for (int k = 0; k < 2; k++) {
		struct pcibw_rows rs = {0};
		struct pcibw_summary s;
		/* the poll_mode column, then the profile (irq_batch = 0) with no column */
		poll_row(k ? PCIBW_NULL : 1, k == 1, &rs, &s);
		const struct pcibw_row *r = &rs.v[0];
		cr_assert(r->polls);
		cr_assert_eq(r->verdict, PCIBW_V_UNDETERMINED);
		assert_close(r->cycles_per_packet, 400, 1e-9);
		const struct pcibw_reason *x = reason_of(r, PCIBW_R_POLL_MODE);
		cr_assert(x);
		assert_close(x->value, 400, 1e-9);
		cr_assert_eq(x->ceiling, 2);
		cr_assert(reason_of(r, PCIBW_R_CORES_SWEEP_NOT_MEASURED));
		cr_assert(!reason_of(r, PCIBW_R_CPU_NOT_MEASURED));
		cr_assert(!reason_of(r, PCIBW_R_CPUS_SATURATED));
		cr_assert(!reason_of(r, PCIBW_R_CORE_SATURATED));
		cr_assert_eq(r->limits, 0);
		cr_assert(has(r->evidence, r->n_evidence, "400 cycles per packet per polling core"));
		cr_assert(!has(r->evidence, r->n_evidence, "cpu_pct"));
		cr_assert(!has(r->evidence, r->n_evidence, "CPU 100 %"));
		pcibw_summary_free(&s);
		pcibw_rows_free(&rs);
	}
}

/* the row's own poll_mode 0 wins over a polling profile: its CPU figures decide (cpu-bound) */
Test(poll_mode, column_zero_is_interrupts)
{
	struct pcibw_rows rs = {0};
	struct pcibw_summary s;
	poll_row(0, true, &rs, &s);
	cr_assert(!rs.v[0].polls);
	cr_assert_eq(rs.v[0].verdict, PCIBW_V_CPU);
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* A polling cores sweep: 1, 2, 4 cores at 1, 2, 4 Mpps (elasticity 1): the cores rule decides,
 * cpu-bound, with no CPU % needed. */
Test(poll_mode, cores_sweep_decides)
{
	struct pcibw_rows rs = {0};
	for (int c = 1; c <= 4; c *= 2) {
		struct pcibw_measured l = line(64, c * 1e6, NAN, 100, 100);
		l.poll_mode = 1;
		l.cores = c;
		add(&rs, &l);
	}
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 100e6, 100e6);
	struct pcibw_machine m = machine();
	struct pcibw_summary s;
	judge(&rs, &m, &s);
	for (int i = 0; i < rs.n; i++) {
		cr_assert_eq(rs.v[i].verdict, PCIBW_V_CPU);
		cr_assert(reason_of(&rs.v[i], PCIBW_R_RATE_GROWS_WITH_CORES));
		cr_assert(!reason_of(&rs.v[i], PCIBW_R_CORES_SWEEP_NOT_MEASURED));
		cr_assert(!has(rs.v[i].evidence, rs.v[i].n_evidence, "cpu_pct"));
	}
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* rx+tx: two rows of one line, rx and tx at once, the busiest core 100 %: each is cpu-bound and
 * names the other stream as sharing its cores. */
Test(concurrent, names_the_stream_sharing_the_core)
{
	struct pcibw_rows rs = {0};
	for (int d = 0; d < 2; d++) {
		struct pcibw_measured l = line(1000, 50e3, NAN, NAN, 100);
		l.direction = d ? PCIBW_PAT_TX : PCIBW_PAT_RX;
		l.concurrent = true;
		add(&rs, &l);
	}
	pcibw_rows_finish(&rs);
	ceil_all(&rs, 1e6, 1e6);
	struct pcibw_machine m = machine();
	struct pcibw_summary s;
	judge(&rs, &m, &s);
	for (int i = 0; i < 2; i++) {
		const struct pcibw_row *r = &rs.v[i];
		cr_assert_eq(r->verdict, PCIBW_V_CPU);
		cr_assert_eq(r->partner, 1 - i);
		const struct pcibw_reason *x = reason_of(r, PCIBW_R_CPU_SHARED);
		cr_assert(x);
		cr_assert_eq(x->value, 1 - i);
		char want[96];
		snprintf(want, sizeof want,
			 "the %s stream (row %d, 400 Mbit/s) shares the cores with this %s one",
			 i ? "rx" : "tx", 2 - i, i ? "tx" : "rx");
		cr_assert(has(r->evidence, r->n_evidence, want), "%s", want);
	}
	pcibw_summary_free(&s);
	pcibw_rows_free(&rs);
}

/* Loopback, no bus and no line rate given, CPU 10 %: undetermined, but asking for neither a bus nor
 * a line rate (they do not apply); at CPU 80 % the CPU is the only loaded resource. */
Test(loopback, asks_for_neither_bus_nor_wire)
{
	for (int k = 0; k < 2; k++) {
		struct pcibw_rows rs = {0};
		struct pcibw_measured l = line(1000, 50e3, NAN, k ? 80 : 10, NAN);
		l.loopback = true;
		add(&rs, &l);
		pcibw_rows_finish(&rs);
		ceil_all(&rs, 1e6, 1e6);
		struct pcibw_machine m = machine();
		m.have_bus = false;
		m.line_rate_gbps = 0;
		struct pcibw_summary s;
		judge(&rs, &m, &s);
		const struct pcibw_row *r = &rs.v[0];
		cr_assert_eq(r->verdict, k ? PCIBW_V_CPU : PCIBW_V_UNDETERMINED);
		cr_assert(isnan(r->bus_util) && isnan(r->wire_util));
		cr_assert(reason_of(r, PCIBW_R_LOOPBACK));
		cr_assert(!reason_of(r, PCIBW_R_BUS_NOT_GIVEN));
		cr_assert(!reason_of(r, PCIBW_R_LINE_RATE_NOT_GIVEN));
		cr_assert(has(r->evidence, r->n_evidence, "the test ran over loopback"));
		pcibw_summary_free(&s);
		pcibw_rows_free(&rs);
	}
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rules, in the contract's order (doc/cli-contract.md, "Verdicts and default thresholds"):
 * impossible, wire-bound, io-bound, cpu-bound, undetermined; then the whole input's verdict and
 * a summary in plain words. The undetermined hints and the "CPU ceiling below 100 %" note follow
 * the field cases: a user-level idle soaker misses interrupt time and a closed-loop (echo) load
 * leaves the CPU waiting on the round trip (freebsd-performance, 21 Oct 2004, "CPU utilisation
 * cap?"); interrupt moderation holds packets in the NIC while the CPU idles (FreeBSD em
 * RDTR/RADV, sys/dev/em/if_em.h); with bus and CPU both below their ceilings the limit is the
 * device or driver (github.com/OE4T/meta-tegra#2269, Jetson Orin nvethernet).
 */
#include "pcibw/verdict.h"
#include "groups.h"
#include "pcibw/device.h"
#include "pcibw/nic.h"
#include "shape.h"
#include "tcp_window.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pcibw_verdict_name(enum pcibw_verdict v)
{
	static const char *names[] = {"impossible", "io-bound", "wire-bound", "cpu-bound", "undetermined"};
	return (unsigned)v < PCIBW_V_N ? names[v] : "?";
}

/* a row of a series with its own bus is judged on that machine */
static const struct pcibw_machine *machine_of(const struct pcibw_row *r, const struct pcibw_machine *run)
{
	return r->machine ? r->machine : run;
}

static double clock_mhz(const struct pcibw_row *r, const struct pcibw_machine *m)
{
	return !isnan(r->cpu_mhz) ? r->cpu_mhz : m->cpu_mhz;
}

/* CPU cycles per packet and service demand where the row and machine allow. */
static void cpu_cost(struct pcibw_row *r, const struct pcibw_machine *m)
{
	double mhz = clock_mhz(r, m);
	if (r->pps > 0 && mhz > 0) {
		if (!isnan(r->cpu_util) && m->cpus > 0)
			r->cycles_per_packet = r->cpu_util * m->cpus * mhz * 1e6 / r->pps;
		else if (!isnan(r->core_util))
			r->cycles_per_packet = r->core_util * mhz * 1e6 / r->pps; /* the busiest core's */
	}
	/* netperf's service demand: µs of CPU per KB (1024 B) moved, all CPUs counted */
	if (isnan(r->sd_us_per_kb) && !isnan(r->cpu_util) && m->cpus > 0 && r->gbps > 0)
		r->sd_us_per_kb = r->cpu_util * m->cpus * 1e6 / (r->gbps * 1e9 / 8 / 1024);
}

/* a band end, or the expected figure where the row has no band (watch's shared hops) */
static double band_end(double end, double expected)
{
	return end > 0 ? end : expected;
}

static void utilisations(struct pcibw_row *r)
{
	if (r->pps > 0 && r->bus_mpps > 0) {
		r->bus_util = r->pps / (r->bus_mpps * 1e6);
		r->bus_util_low = r->pps / (band_end(r->bus_mpps_high, r->bus_mpps) * 1e6);
		r->bus_util_high = r->pps / (band_end(r->bus_mpps_low, r->bus_mpps) * 1e6);
	} else if (r->size_conv != PCIBW_SIZE_WRITE && r->gbps > 0 && r->bus_gbps > 0) {
		r->bus_util = r->gbps / r->bus_gbps;
		r->bus_util_low = r->gbps / band_end(r->bus_gbps_high, r->bus_gbps);
		r->bus_util_high = r->gbps / band_end(r->bus_gbps_low, r->bus_gbps);
	}
	if (r->pps > 0 && r->wire_mpps > 0)
		r->wire_util = r->pps / (r->wire_mpps * 1e6);
	else if (r->gbps > 0 && r->wire_gbps > 0) {
		/* no packet size (a TCP write size, or none given): the bit rate leaves out the per-packet
		 * headers, preamble and gap, so what it fills of the wire is at least this, unless the
		 * column counted the wire's own bytes (--rate-basis wire) */
		r->wire_util = r->gbps / r->wire_gbps;
		r->wire_lower_bound = r->gbps_basis != PCIBW_BASIS_WIRE;
	}
}

/* A known load below its threshold, for the undetermined list. */
static void below(struct pcibw_row *r, enum pcibw_resource res, double util, double thr)
{
	if (!isnan(util))
		pcibw_row_reason(r, true, PCIBW_R_BELOW_THRESHOLD, res, NAN, NAN, util, thr, NULL);
}

/* undetermined: name what is missing or what to check */
static void undetermined_hints(struct pcibw_row *r, const struct pcibw_thresholds *t,
			       const struct pcibw_machine *m, bool cores_flat)
{
	bool bus_known = !isnan(r->bus_util);
	if (r->size_conv == PCIBW_SIZE_WRITE)
		pcibw_row_reason(r, false, PCIBW_R_WRITE_SIZE, PCIBW_RES_BUS, NAN, NAN, NAN, NAN, NULL);
	if (isnan(r->cpu_util) && isnan(r->core_util) && !cores_flat)
		pcibw_row_reason(r, false, PCIBW_R_CPU_NOT_MEASURED, PCIBW_RES_CPU, NAN, NAN, NAN, NAN, NULL);
	if (m->bus_virtual)
		pcibw_row_reason(r, false, PCIBW_R_BUS_VIRTUAL, PCIBW_RES_BUS, NAN, NAN, NAN, NAN, NULL);
	else if (!m->have_bus)
		pcibw_row_reason(r, false, PCIBW_R_BUS_NOT_GIVEN, PCIBW_RES_BUS, NAN, NAN, NAN, NAN, NULL);
	else if (!bus_known && r->model_note[0])
		pcibw_row_reason(r, false, PCIBW_R_NO_BUS_CEILING, PCIBW_RES_BUS, NAN, NAN, NAN, NAN, NULL);
	if (m->line_rate_gbps <= 0)
		pcibw_row_reason(r, false, PCIBW_R_LINE_RATE_NOT_GIVEN, PCIBW_RES_WIRE, NAN, NAN, NAN, NAN,
				 NULL);
	bool any = !isnan(r->wire_util) || !isnan(r->bus_util) ||
		   (!cores_flat && (!isnan(r->cpu_util) || !isnan(r->core_util)));
	/* the answer first, then the loads its sentence lists */
	if (any && cores_flat)
		pcibw_row_reason(r, false, PCIBW_R_NIC_PER_PACKET, PCIBW_RES_NIC, NAN, NAN, NAN, NAN, NULL);
	else if (r->tcp_limit)
		pcibw_row_reason(r, false, PCIBW_R_TCP_WINDOW, PCIBW_RES_TCP_WINDOW, r->gbps,
				 verdict_tcp_window_bound(r), r->tcp_window_share, t->tcp_window, "Gbit/s");
	else if (any)
		pcibw_row_reason(r, false, PCIBW_R_NONE_AT_THRESHOLD, PCIBW_RES_NONE, NAN, NAN, NAN, NAN,
				 NULL);
	else
		return;
	below(r, PCIBW_RES_WIRE, r->wire_util, t->wire);
	below(r, PCIBW_RES_BUS, r->bus_util, t->bus);
	if (!cores_flat) {
		below(r, PCIBW_RES_CPU, r->cpu_util, t->cpu);
		below(r, PCIBW_RES_CORE, r->core_util, t->core);
	}
}

/* Every resource at or above `notable` of its ceiling that the verdict's own reasons did not
 * name: a wire-bound row whose busiest core is 98 % busy says so. */
static void notable_loads(struct pcibw_row *r, const struct pcibw_thresholds *t)
{
	if (r->verdict == PCIBW_V_UNDETERMINED || r->verdict == PCIBW_V_IMPOSSIBLE)
		return; /* the undetermined list names every known load; impossible is a measurement error */
	bool cpu_named = false, core_named = false;
	for (int k = 0; k < r->n_reasons; k++) {
		cpu_named |= r->reasons[k].code == PCIBW_R_CPUS_SATURATED ||
			     r->reasons[k].code == PCIBW_R_CPU_ONLY_LOADED;
		core_named |= r->reasons[k].code == PCIBW_R_CORE_SATURATED;
	}
	struct {
		enum pcibw_resource res;
		double util;
		bool named;
	} loads[] = {
	    {PCIBW_RES_WIRE, r->wire_util, r->verdict == PCIBW_V_WIRE},
	    {PCIBW_RES_BUS, r->bus_util, r->verdict == PCIBW_V_IO},
	    {PCIBW_RES_CPU, r->cpu_util, cpu_named},
	    {PCIBW_RES_CORE, r->core_util, core_named},
	};
	bool first = true;
	for (unsigned k = 0; k < sizeof loads / sizeof loads[0]; k++)
		if (!loads[k].named && loads[k].util >= t->notable) {
			pcibw_row_reason(r, !first, PCIBW_R_ALSO_LOADED, loads[k].res, NAN, NAN,
					 loads[k].util, t->notable, NULL);
			first = false;
		}
}

/* Where a row's CPU came from when a sysstat report gave it (the words name the report's file,
 * busiest CPU and interrupt time). */
static void cpu_evidence(struct pcibw_row *r)
{
	if (!r->cpu_from && r->cpu_from_unused)
		pcibw_row_reason(r, false, PCIBW_R_CPU_REPORT_UNUSED, PCIBW_RES_CPU, NAN, NAN,
				 r->cpu_from_unused->all_busy / 100, NAN, NULL);
	if (r->cpu_from && !isnan(r->process_core_util))
		pcibw_row_reason(r, false, PCIBW_R_CPU_PROCESS_LOWER_BOUND, PCIBW_RES_CORE, NAN, NAN,
				 r->process_core_util, NAN, NULL);
	if (r->cpu_from)
		pcibw_row_reason(r, false, PCIBW_R_CPU_FROM_REPORT, PCIBW_RES_CPU, NAN, NAN,
				 r->cpu_from->all_busy / 100, NAN, NULL);
}

/* What the packet rate of a TCP or fragmented UDP row rests on. */
static void packets_evidence(struct pcibw_row *r)
{
	if (r->segment_bytes > 0)
		pcibw_row_reason(r, false, PCIBW_R_TCP_SEGMENTS, PCIBW_RES_NONE, r->pps, NAN, NAN, NAN,
				 "pps");
	if (r->fragments > 0)
		pcibw_row_reason(r, false, PCIBW_R_UDP_FRAGMENTS, PCIBW_RES_NONE, r->fragments, NAN, NAN, NAN,
				 "fragments");
}

static bool is_dma(const struct pcibw_row *r)
{
	return r->pattern == PCIBW_PAT_DMA_READ || r->pattern == PCIBW_PAT_DMA_WRITE ||
	       r->pattern == PCIBW_PAT_DMA_RW;
}

/* Where an io-bound row sits in its ceiling's band (doc/model.md sec. 8). Above the expected
 * figure and within the high end: the bus is at its limit and the host does better than the
 * expected settings (more coalesced completions, no partial-line charge, a shorter burst gap). */
static void band_reason(struct pcibw_row *r, const struct pcibw_thresholds *t)
{
	double lo = band_end(r->bus_gbps_low, r->bus_gbps), hi = band_end(r->bus_gbps_high, r->bus_gbps);
	if (!(hi - lo > 0.02 * r->bus_gbps))
		return;
	if (r->bus_util > 1)
		pcibw_row_reason(r, false, PCIBW_R_BUS_ABOVE_EXPECTED, PCIBW_RES_BUS, r->gbps, hi,
				 r->bus_util_low, t->impossible, "Gbit/s");
	else
		pcibw_row_reason(r, false, PCIBW_R_BUS_IN_BAND, PCIBW_RES_BUS, r->gbps, hi,
				 r->gbps > lo ? (r->gbps - lo) / (hi - lo) : 0, NAN, "Gbit/s");
}

static void judge(struct pcibw_row *r, const struct pcibw_thresholds *t, const struct pcibw_machine *m)
{
	bool bus_known = !isnan(r->bus_util);
	bool wire_known = !isnan(r->wire_util);
	if (bus_known && is_dma(r))
		pcibw_row_reason(r, false, PCIBW_R_DMA_AGAINST_MODEL, PCIBW_RES_BUS, r->gbps, r->bus_gbps,
				 r->bus_util, NAN, "Gbit/s");

	/* the bus cannot be beaten beyond the band's high end: the most the spec and the host
	 * behaviour its sources document allow (doc/model.md sec. 8) */
	double bus_beyond = bus_known ? band_end(r->bus_util_low, r->bus_util) : NAN;
	bool bus_impossible = bus_known && bus_beyond > t->impossible;
	if (bus_impossible || (wire_known && r->wire_util > t->impossible)) {
		r->verdict = PCIBW_V_IMPOSSIBLE;
		if (bus_impossible)
			pcibw_row_reason(r, false, PCIBW_R_BEYOND_CEILING, PCIBW_RES_BUS, r->gbps,
					 r->bus_gbps, r->bus_util, t->impossible, "Gbit/s");
		if (wire_known && r->wire_util > t->impossible)
			pcibw_row_reason(r, false, PCIBW_R_BEYOND_CEILING, PCIBW_RES_WIRE, r->gbps,
					 m->line_rate_gbps, r->wire_util, t->impossible, "Gbit/s");
		return;
	}
	if (wire_known && r->wire_util >= t->wire) {
		r->verdict = PCIBW_V_WIRE;
		if (!isnan(r->pps) && !isnan(r->size_bytes))
			pcibw_row_reason(r, false, PCIBW_R_WIRE_AT_THRESHOLD, PCIBW_RES_WIRE, r->pps,
					 r->wire_mpps * 1e6, r->wire_util, t->wire, "pps");
		else /* no packet size: the bit rate against the line rate */
			pcibw_row_reason(r, false, PCIBW_R_WIRE_AT_THRESHOLD, PCIBW_RES_WIRE, r->gbps,
					 m->line_rate_gbps, r->wire_util, t->wire, "Gbit/s");
		return;
	}
	if (bus_known && r->bus_util >= t->bus) {
		r->verdict = PCIBW_V_IO;
		pcibw_row_reason(r, false, PCIBW_R_BUS_AT_THRESHOLD, PCIBW_RES_BUS, r->gbps, r->bus_gbps,
				 r->bus_util, t->bus, "Gbit/s");
		band_reason(r, t);
		return;
	}

	/* Packet rate flat while cores are added: more CPU does not help, so the CPU signs below do
	 * not decide; the bus and wire rules above already had their say, which leaves the NIC. */
	double cores_spread =
	    r->cores_pps_hi > 0 ? (r->cores_pps_hi - r->cores_pps_lo) / r->cores_pps_hi : NAN;
	bool cores_flat = !isnan(r->cores_elasticity) && r->cores_pps_hi > 0 && cores_spread <= t->cores_flat;
	if (cores_flat) {
		pcibw_row_reason(r, false, PCIBW_R_RATE_FLAT_OVER_CORES, PCIBW_RES_NONE, r->cores_pps_hi, NAN,
				 cores_spread, t->cores_flat, "pps");
		r->verdict = PCIBW_V_UNDETERMINED;
		undetermined_hints(r, t, m, true);
		return;
	}

	/* cpu-bound: any of the contract's signs */
	bool cpu = false;
	if (r->cores_elasticity >= t->cores_elasticity * (1 - 1e-9)) {
		cpu = true;
		pcibw_row_reason(r, false, PCIBW_R_RATE_GROWS_WITH_CORES, PCIBW_RES_CPU, r->cores_elasticity,
				 NAN, NAN, t->cores_elasticity, NULL);
	}
	if (r->cpu_util >= t->cpu) {
		cpu = true;
		pcibw_row_reason(r, false, PCIBW_R_CPUS_SATURATED, PCIBW_RES_CPU, NAN, NAN, r->cpu_util,
				 t->cpu, NULL);
	}
	if (r->core_util >= t->core) {
		cpu = true;
		pcibw_row_reason(r, false, PCIBW_R_CORE_SATURATED, PCIBW_RES_CORE, NAN, NAN, r->core_util,
				 t->core, NULL);
	}
	/* a relative tolerance: a log-log slope built to be exactly the threshold may land 1 ulp short */
	if (fabs(r->elasticity) >= t->elasticity * (1 - 1e-9)) {
		bool work = !strcmp(r->elasticity_of, "work");
		if ((work && r->elasticity < 0) || (!work && r->elasticity > 0)) {
			cpu = true;
			pcibw_row_reason(r, false,
					 work ? PCIBW_R_RATE_ELASTIC_TO_WORK : PCIBW_R_RATE_ELASTIC_TO_CLOCK,
					 PCIBW_RES_CPU, r->elasticity, NAN, NAN, t->elasticity, NULL);
		}
	}
	double flat_spread = r->flat_pps_hi > 0 ? (r->flat_pps_hi - r->flat_pps_lo) / r->flat_pps_hi : NAN;
	if (r->per_packet && is_dma(r)) {
		/* a DMA benchmark keeps no CPU in the loop: a per-transfer limit is the device's */
		pcibw_row_reason(r, false, PCIBW_R_TRANSFER_RATE_FLAT, PCIBW_RES_NONE, r->flat_pps_hi, NAN,
				 flat_spread, t->flat, "pps");
	} else if (r->per_packet) {
		cpu = true;
		pcibw_row_reason(r, false, PCIBW_R_RATE_FLAT_OVER_SIZES, PCIBW_RES_CPU, r->flat_pps_hi, NAN,
				 flat_spread, t->flat, "pps");
	}
	bool bus_idle = (bus_known && r->bus_util < t->idle) || m->bus_virtual;
	/* The contract's rule needs both loads known to be low: an unknown wire (no --line-rate) may be
	 * the saturated resource, so it does not count as idle. */
	bool wire_idle = wire_known && r->wire_util < t->idle;
	if (!cpu && r->cpu_util >= t->cpu_only && bus_idle && wire_idle) {
		cpu = true;
		pcibw_row_reason(r, false, PCIBW_R_CPU_ONLY_LOADED, PCIBW_RES_CPU, NAN, NAN, r->cpu_util,
				 t->cpu_only, NULL);
	}
	if (cpu) {
		r->verdict = PCIBW_V_CPU;
		/* The utilisation rules see how busy the CPUs are, not what they are busy with: at
		 * this many cycles a packet, either the packets really cost that (interrupts all on
		 * one CPU) or the busy time is some other load's and the traffic is simply light. */
		if (r->cycles_per_packet > t->cycles_high)
			pcibw_row_reason(r, false, PCIBW_R_CYCLES_HIGH, PCIBW_RES_CPU, r->cycles_per_packet,
					 NAN, NAN, t->cycles_high, "cycles");
		return;
	}

	r->verdict = PCIBW_V_UNDETERMINED;
	undetermined_hints(r, t, m, false);
}

/* A link with ASPM on that idles between bursts pays an exit latency per wake (PCIe Base 6.0
 * sec. 5.4.1: L0s, L1 exit latencies in Link Capabilities): a throughput far below both the bus
 * and the wire can be that, whatever else the row says. value: the ASPM state (PCIBW_ASPM_* bits). */
static void aspm_evidence(struct pcibw_row *r, const struct pcibw_thresholds *t,
			  const struct pcibw_machine *m)
{
	if (m->aspm <= 0 || m->aspm > 3 || isnan(r->bus_util) || isnan(r->wire_util) ||
	    r->bus_util >= t->idle || r->wire_util >= t->idle)
		return;
	pcibw_row_reason(r, false, PCIBW_R_ASPM_IDLE_LINK, PCIBW_RES_BUS, m->aspm, NAN, r->bus_util, t->idle,
			 NULL);
}

static struct pcibw_reason *add_summary(struct pcibw_summary *s, bool same_line, enum pcibw_reason_code code,
					enum pcibw_resource res)
{
	int last = s->n_reasons ? s->reasons[s->n_reasons - 1].evidence_index : -1;
	int line = same_line && last >= 0 ? last : last + 1;
	if (line >= PCIBW_MAX_EVIDENCE)
		return NULL;
	return pcibw_reason_push(s->reasons, &s->n_reasons, PCIBW_MAX_SUMMARY_REASONS, code, res, line);
}

/* the headline: the representative row's deciding reasons, copied onto line 0 */
static void copy_line(struct pcibw_summary *s, const struct pcibw_row *r, int rep, int line)
{
	for (int k = 0; k < r->n_reasons; k++)
		if (r->reasons[k].evidence_index == line) {
			struct pcibw_reason *x =
			    add_summary(s, true, r->reasons[k].code, r->reasons[k].resource);
			if (!x)
				return;
			*x = r->reasons[k];
			x->row = rep;
			x->evidence_index = 0;
		}
}

static void copy_code(struct pcibw_summary *s, const struct pcibw_row *r, int rep,
		      enum pcibw_reason_code code, enum pcibw_resource res)
{
	for (int k = 0; k < r->n_reasons; k++)
		if (r->reasons[k].code == code && (res == PCIBW_RES_NONE || r->reasons[k].resource == res)) {
			struct pcibw_reason *x = add_summary(s, true, code, r->reasons[k].resource);
			if (!x)
				return;
			*x = r->reasons[k];
			x->row = rep;
			x->evidence_index = 0;
			return;
		}
}

static void summarise(const struct pcibw_rows *rs, struct pcibw_summary *s)
{
	int rep = -1;
	for (int i = 0; i < rs->n; i++) {
		const struct pcibw_row *r = &rs->v[i];
		if (r->verdict != s->verdict)
			continue;
		double key = !isnan(r->gbps) ? r->gbps : r->pps;
		double best = rep < 0 ? -1 : (!isnan(rs->v[rep].gbps) ? rs->v[rep].gbps : rs->v[rep].pps);
		if (rep < 0 || key > best)
			rep = i;
	}
	s->representative = rep;
	if (rep < 0) {
		add_summary(s, false, PCIBW_R_NO_ROWS, PCIBW_RES_NONE);
		return;
	}
	const struct pcibw_row *r = &rs->v[rep];
	struct pcibw_reason *v = add_summary(s, false, PCIBW_R_VERDICT, PCIBW_RES_NONE);
	if (v)
		v->row = rep;
	switch (s->verdict) {
	case PCIBW_V_IMPOSSIBLE:
		copy_code(s, r, rep, PCIBW_R_BEYOND_CEILING,
			  r->bus_util > r->wire_util || isnan(r->wire_util) ? PCIBW_RES_BUS : PCIBW_RES_WIRE);
		break;
	case PCIBW_V_IO:
		copy_code(s, r, rep, PCIBW_R_BUS_AT_THRESHOLD, PCIBW_RES_BUS);
		break;
	case PCIBW_V_WIRE:
		copy_code(s, r, rep, PCIBW_R_WIRE_AT_THRESHOLD, PCIBW_RES_WIRE);
		break;
	case PCIBW_V_CPU:
		/* the row's own first reason is the CPU's */
		copy_line(s, r, rep, 0);
		break;
	default: {
		/* a row its TCP window holds says so first: that, not a missing ceiling, is the answer */
		bool tcp = false;
		for (int k = 0; r->tcp_limit && k < r->n_reasons; k++)
			tcp |= r->reasons[k].code == PCIBW_R_TCP_WINDOW;
		if (tcp)
			copy_code(s, r, rep, PCIBW_R_TCP_WINDOW, PCIBW_RES_NONE);
		else
			copy_line(s, r, rep, 0);
		break;
	}
	}
}

/* each series' verdict by size band, one summary line per series (at most 8, then how many more) */
static void headline_groups(const struct pcibw_rows *rs, struct pcibw_summary *s)
{
	if (s->n_groups < 2)
		return;
	int lines = 0, left = 0;
	for (int g = 0; g < s->n_groups;) {
		int h = g + 1;
		while (h < s->n_groups &&
		       verdict_same_key(&rs->v[s->groups[g].key_row], &rs->v[s->groups[h].key_row]))
			h++;
		int next = s->n_reasons ? s->reasons[s->n_reasons - 1].evidence_index + 1 : 0;
		if (lines >= 8 || next >= PCIBW_MAX_EVIDENCE - 3) {
			left++;
			g = h;
			continue;
		}
		struct pcibw_reason *x = add_summary(s, false, PCIBW_R_SERIES_BANDS, PCIBW_RES_NONE);
		if (x) {
			x->group = g;
			x->value = h - g;
			x->unit = "groups";
		}
		lines++;
		g = h;
	}
	struct pcibw_reason *x = left ? add_summary(s, false, PCIBW_R_MORE_SERIES, PCIBW_RES_NONE) : NULL;
	if (x) {
		x->value = left;
		x->unit = "series";
	}
}

int pcibw_verdict_run(struct pcibw_rows *rs, const struct pcibw_thresholds *t,
		      const struct pcibw_machine *mach, struct pcibw_summary *out, struct pcibw_err *err)
{
	memset(out, 0, sizeof *out);
	out->representative = -1;
	for (int i = 0; i < rs->n; i++) {
		cpu_cost(&rs->v[i], machine_of(&rs->v[i], mach));
		utilisations(&rs->v[i]);
	}
	if (pcibw_shape(rs, t))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	for (int i = 0; i < rs->n; i++) {
		struct pcibw_row *r = &rs->v[i];
		const struct pcibw_machine *m = machine_of(r, mach);
		verdict_tcp_window_judge(r, t);
		judge(r, t, m);
		notable_loads(r, t);
		aspm_evidence(r, t, m);
		packets_evidence(r);
		verdict_tcp_window_evidence(r);
		cpu_evidence(r);
		out->counts[r->verdict]++;
		if (fabs(r->rate_mismatch) > 0.10)
			/* a DMA transfer size is the bytes moved: there are no other bytes the bit rate
			 * could count (--rate-basis names packet framings), so the two rates of the
			 * line contradict each other; a packet size may be counted another way */
			pcibw_row_reason(r, false, PCIBW_R_RATES_DISAGREE, PCIBW_RES_NONE, NAN, NAN,
					 r->rate_mismatch, 0.10, NULL);
		for (int k = 0; k < r->n_reasons; k++)
			r->reasons[k].row = i;
	}
	out->verdict = verdict_of_counts(out->counts);
	if (verdict_groups_build(rs, out))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	summarise(rs, out);
	struct pcibw_reason *x;
	if (rs->n > 1 && (x = add_summary(out, false, PCIBW_R_ROWS_AGREE, PCIBW_RES_NONE))) {
		x->value = out->counts[out->verdict];
		x->ceiling = rs->n;
		x->unit = "rows";
	}
	headline_groups(rs, out);
	if (mach->bus_virtual)
		add_summary(out, false, PCIBW_R_BUS_VIRTUAL, PCIBW_RES_BUS);
	if (mach->bus_note[0])
		add_summary(out, false, PCIBW_R_BUS_NOTE, PCIBW_RES_BUS);
	return PCIBW_OK;
}

void pcibw_summary_free(struct pcibw_summary *s)
{
	for (int g = 0; g < s->n_groups; g++)
		for (int k = 0; k < s->groups[g].n_evidence; k++)
			free(s->groups[g].evidence[k]);
	if (s->n_groups)
		free(s->groups[0].rows); /* the groups' rows are runs of one array */
	free(s->groups);
	s->groups = NULL;
	s->n_groups = 0;
	for (int i = 0; i < s->n_evidence; i++)
		free(s->evidence[i]);
	s->n_evidence = 0;
	s->n_reasons = 0;
}

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

/* A poll-mode row: its poll_mode column says so, else its machine's NIC profile polls. */
static bool row_polls(const struct pcibw_row *r, const struct pcibw_machine *m)
{
	return r->poll_mode == 1 || (r->poll_mode == PCIBW_NULL && m->poll_mode);
}

/* the cores that poll: the row's cores column, else the machine's CPU count; NAN */
static double polling_cores(const struct pcibw_row *r, const struct pcibw_machine *m)
{
	return r->cores > 0 ? r->cores : m->cpus > 0 ? m->cpus : NAN;
}

/* CPU cycles per packet and service demand where the row and machine allow. A polling core
 * spends every cycle polling, whether or not a packet came, so its busy share says nothing; what
 * it costs per packet is the polling cores' cycles over the packet rate (DPDK's own measure,
 * "cycles per packet" of testpmd and l3fwd): a lower bound on what each packet needs, met at
 * this rate. */
static void cpu_cost(struct pcibw_row *r, const struct pcibw_machine *m)
{
	double mhz = clock_mhz(r, m);
	if (r->polls) {
		double n = polling_cores(r, m);
		if (r->pps > 0 && mhz > 0 && n > 0)
			r->cycles_per_packet = n * mhz * 1e6 / r->pps;
		return;
	}
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
	if (r->loopback)
		return; /* no NIC, bus or wire carried the packets: no ceiling of theirs applies */
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
	if (r->size_conv == PCIBW_SIZE_WRITE && !r->loopback)
		pcibw_row_reason(r, false, PCIBW_R_WRITE_SIZE, PCIBW_RES_BUS, NAN, NAN, NAN, NAN, NULL);
	/* a polling row's CPU share is 100 % by design: what it costs per packet first, then what it
	 * needs, a cores sweep, never a CPU % */
	if (r->polls)
		pcibw_row_reason(r, false, PCIBW_R_POLL_MODE, PCIBW_RES_CORE, r->cycles_per_packet,
				 polling_cores(r, m), NAN, NAN, "cycles");
	if (r->polls && !cores_flat)
		pcibw_row_reason(r, false, PCIBW_R_CORES_SWEEP_NOT_MEASURED, PCIBW_RES_CPU, NAN, NAN, NAN,
				 NAN, NULL);
	else if (isnan(r->cpu_util) && isnan(r->core_util) && !cores_flat)
		pcibw_row_reason(r, false, PCIBW_R_CPU_NOT_MEASURED, PCIBW_RES_CPU, NAN, NAN, NAN, NAN, NULL);
	if (r->loopback)
		; /* loopback_evidence says bus and wire do not apply: neither is asked for */
	else if (m->bus_virtual)
		pcibw_row_reason(r, false, PCIBW_R_BUS_VIRTUAL, PCIBW_RES_BUS, NAN, NAN, NAN, NAN, NULL);
	else if (!m->have_bus)
		pcibw_row_reason(r, false, PCIBW_R_BUS_NOT_GIVEN, PCIBW_RES_BUS, NAN, NAN, NAN, NAN, NULL);
	else if (!bus_known && r->model_note[0])
		pcibw_row_reason(r, false, PCIBW_R_NO_BUS_CEILING, PCIBW_RES_BUS, NAN, NAN, NAN, NAN, NULL);
	if (m->line_rate_gbps <= 0 && !r->loopback)
		pcibw_row_reason(r, false, PCIBW_R_LINE_RATE_NOT_GIVEN, PCIBW_RES_WIRE, NAN, NAN, NAN, NAN,
				 NULL);
	bool cpu_counts = !cores_flat && !r->polls;
	bool any = !isnan(r->wire_util) || !isnan(r->bus_util) ||
		   (cpu_counts && (!isnan(r->cpu_util) || !isnan(r->core_util)));
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
	if (cpu_counts) {
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
	/* a limit is named by its rule's reason (a co-limit on the verdict's line); a polling row's
	 * CPU is busy by design and named by none */
	bool named[PCIBW_RES_N] = {false};
	for (int k = 0; k < r->n_reasons; k++)
		switch (r->reasons[k].code) {
		case PCIBW_R_WIRE_AT_THRESHOLD:
		case PCIBW_R_GOODPUT_ABOVE_WIRE:
		case PCIBW_R_BUS_AT_THRESHOLD:
		case PCIBW_R_CPUS_SATURATED:
		case PCIBW_R_CPU_ONLY_LOADED:
		case PCIBW_R_CORE_SATURATED:
			named[r->reasons[k].resource] = true;
			break;
		default:
			break;
		}
	named[PCIBW_RES_CPU] |= r->polls;
	named[PCIBW_RES_CORE] |= r->polls;
	struct {
		enum pcibw_resource res;
		double util;
		bool named;
	} loads[] = {
	    {PCIBW_RES_WIRE, r->wire_util, named[PCIBW_RES_WIRE]},
	    {PCIBW_RES_BUS, r->bus_util, named[PCIBW_RES_BUS]},
	    {PCIBW_RES_CPU, r->cpu_util, named[PCIBW_RES_CPU]},
	    {PCIBW_RES_CORE, r->core_util, named[PCIBW_RES_CORE]},
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

/* TCP goodput as segments: the wire's packet rate at this segment is the most goodput it carries */
static bool goodput_row(const struct pcibw_row *r)
{
	return r->segment_bytes > 0 && r->gbps_basis == PCIBW_BASIS_SIZE;
}

/* The loads below the verdict's own that also reached their thresholds: each is a limit of the
 * row too, on the verdict's line (raising the verdict's resource alone would not help). */
static void co_limits(struct pcibw_row *r, const struct pcibw_thresholds *t, bool bus)
{
	if (bus && r->bus_util >= t->bus)
		pcibw_row_reason(r, true, PCIBW_R_BUS_AT_THRESHOLD, PCIBW_RES_BUS, r->gbps, r->bus_gbps,
				 r->bus_util, t->bus, "Gbit/s");
	if (r->polls)
		return;
	if (r->cpu_util >= t->cpu)
		pcibw_row_reason(r, true, PCIBW_R_CPUS_SATURATED, PCIBW_RES_CPU, NAN, NAN, r->cpu_util,
				 t->cpu, NULL);
	if (r->core_util >= t->core)
		pcibw_row_reason(r, true, PCIBW_R_CORE_SATURATED, PCIBW_RES_CORE, NAN, NAN, r->core_util,
				 t->core, NULL);
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
		if (goodput_row(r) && r->wire_util > 1)
			/* more goodput than the line carries in full segments of this size: the segment
			 * or the line rate is not what was assumed, the wire is not "105 % full" */
			pcibw_row_reason(r, false, PCIBW_R_GOODPUT_ABOVE_WIRE, PCIBW_RES_WIRE, r->gbps,
					 r->wire_mpps * 1e6 * r->segment_bytes * 8 / 1e9, r->wire_util,
					 t->wire, "Gbit/s");
		else if (!isnan(r->pps) && !isnan(r->size_bytes))
			pcibw_row_reason(r, false, PCIBW_R_WIRE_AT_THRESHOLD, PCIBW_RES_WIRE, r->pps,
					 r->wire_mpps * 1e6, r->wire_util, t->wire, "pps");
		else /* no packet size: the bit rate against the line rate */
			pcibw_row_reason(r, false, PCIBW_R_WIRE_AT_THRESHOLD, PCIBW_RES_WIRE, r->gbps,
					 m->line_rate_gbps, r->wire_util, t->wire, "Gbit/s");
		co_limits(r, t, true);
		return;
	}
	if (bus_known && r->bus_util >= t->bus) {
		r->verdict = PCIBW_V_IO;
		pcibw_row_reason(r, false, PCIBW_R_BUS_AT_THRESHOLD, PCIBW_RES_BUS, r->gbps, r->bus_gbps,
				 r->bus_util, t->bus, "Gbit/s");
		co_limits(r, t, false);
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
	/* a polling row's CPU shares are 100 % by design: they decide nothing */
	if (!r->polls && r->cpu_util >= t->cpu) {
		cpu = true;
		pcibw_row_reason(r, false, PCIBW_R_CPUS_SATURATED, PCIBW_RES_CPU, NAN, NAN, r->cpu_util,
				 t->cpu, NULL);
	}
	if (!r->polls && r->core_util >= t->core) {
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
	} else if (r->per_packet && !r->polls) {
		/* a polling row's flat packet rate may be the NIC's as well as its cores': the cores
		 * sweep tells them apart */
		cpu = true;
		pcibw_row_reason(r, false, PCIBW_R_RATE_FLAT_OVER_SIZES, PCIBW_RES_CPU, r->flat_pps_hi, NAN,
				 flat_spread, t->flat, "pps");
	}
	/* over loopback neither bus nor wire carries anything: both idle */
	bool bus_idle = (bus_known && r->bus_util < t->idle) || m->bus_virtual || r->loopback;
	/* The contract's rule needs both loads known to be low: an unknown wire (no --line-rate) may be
	 * the saturated resource, so it does not count as idle. */
	bool wire_idle = (wire_known && r->wire_util < t->idle) || r->loopback;
	if (!cpu && !r->polls && r->cpu_util >= t->cpu_only && bus_idle && wire_idle) {
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

/*
 * The bytes per packet any two of the rate bases pcibw knows can differ by (--rate-basis): the wire
 * counts a frame and its 8 B preamble and SFD and 12 B gap (IEEE 802.3 clause 4.4.2), a UDP
 * payload lies under at most the 14 B Ethernet header, a 4 B 802.1Q tag, the 4 B FCS, a 40 B IPv6
 * header (RFC 8200) and the 8 B UDP header (RFC 768): 20 + 70 B. A bit rate whose bytes per packet
 * differ from the size by more than that counts no packets of that size under any basis: one of
 * the two counters is wrong (a counter of another interface, a rate of both directions, a GB/s
 * read as Gbit/s).
 */
#define BASIS_SPREAD_BYTES 90.0

/* A packet rate and a bit rate that no header set reconciles. Which one is wrong: the one whose
 * rate breaks a ceiling the other keeps to (name "packets" or "bits"), else neither is named. */
static bool counters(struct pcibw_row *r, const struct pcibw_thresholds *t)
{
	if (!(fabs(r->rate_mismatch) > 0.10) || r->size_conv == PCIBW_SIZE_DMA || !(r->basis_bytes > 0))
		return false;
	double implied = r->basis_bytes * (1 + r->rate_mismatch);
	if (!(fabs(implied - r->basis_bytes) > BASIS_SPREAD_BYTES))
		return false;
	/* the utilisations follow the packet rate (it wins); the bit rate's are those times the
	 * factor */
	double u_pps = fmax(isnan(r->wire_util) ? -1 : r->wire_util, isnan(r->bus_util) ? -1 : r->bus_util);
	double u_bits = u_pps * (1 + r->rate_mismatch);
	struct pcibw_reason *x =
	    pcibw_row_reason(r, false, PCIBW_R_COUNTERS_INCONSISTENT, PCIBW_RES_NONE, implied, r->basis_bytes,
			     implied / r->basis_bytes, NAN, "B");
	if (x && u_pps >= 0) {
		if (u_pps > t->impossible && u_bits <= 1)
			snprintf(x->name, sizeof x->name, "packets");
		else if (u_bits > t->impossible && u_pps <= 1)
			snprintf(x->name, sizeof x->name, "bits");
	}
	return true;
}

/* The row of the other direction whose stream ran at the same time on the same host: the same
 * source, test, interface and size, the other of rx and tx; of an iperf3 --bidir capture the one
 * of the other stream ("reverse " on one series only), of a CSV rx+tx line its twin. -1 none. */
static int partner_of(const struct pcibw_rows *rs, int i)
{
	const struct pcibw_row *r = &rs->v[i];
	if (!r->concurrent || (r->pattern != PCIBW_PAT_RX && r->pattern != PCIBW_PAT_TX))
		return -1;
	bool rev = !strncmp(r->series, "reverse ", 8);
	int twin = -1;
	for (int j = 0; j < rs->n; j++) {
		const struct pcibw_row *o = &rs->v[j];
		if (j == i || !o->concurrent || o->pattern == r->pattern ||
		    (o->pattern != PCIBW_PAT_RX && o->pattern != PCIBW_PAT_TX) ||
		    strcmp(o->source, r->source) || strcmp(o->test, r->test) || strcmp(o->iface, r->iface) ||
		    !(o->size_bytes == r->size_bytes || (isnan(o->size_bytes) && isnan(r->size_bytes))))
			continue;
		bool orev = !strncmp(o->series, "reverse ", 8);
		if (orev != rev)
			return j;
		if (twin < 0 && !strcmp(o->series, r->series))
			twin = j;
	}
	return twin;
}

/* a concurrent row with a CPU figure: which stream shared it */
static void cpu_shared_evidence(struct pcibw_row *r)
{
	if (r->partner < 0 || (isnan(r->cpu_util) && isnan(r->core_util)) || r->polls)
		return;
	pcibw_row_reason(r, false, PCIBW_R_CPU_SHARED, PCIBW_RES_CPU, r->partner, NAN,
			 !isnan(r->core_util) ? r->core_util : r->cpu_util, NAN, "row");
}

/* a loopback row, whatever its verdict: no bus or wire ceiling applies */
static void loopback_evidence(struct pcibw_row *r)
{
	if (r->loopback)
		pcibw_row_reason(r, false, PCIBW_R_LOOPBACK, PCIBW_RES_NONE, NAN, NAN, NAN, NAN, NULL);
}

/* a polling row: its cycles per packet per polling core */
static void poll_evidence(struct pcibw_row *r, const struct pcibw_machine *m)
{
	/* an undetermined row gave it with what to measure (undetermined_hints) */
	if (r->polls && r->verdict != PCIBW_V_IMPOSSIBLE && r->verdict != PCIBW_V_UNDETERMINED)
		pcibw_row_reason(r, false, PCIBW_R_POLL_MODE, PCIBW_RES_CORE, r->cycles_per_packet,
				 polling_cores(r, m), NAN, NAN, "cycles");
}

/* Every resource at or above its threshold (the verdict's own first). Impossible rows have none:
 * their figure is a measurement error, not a load. */
static unsigned limits_of(const struct pcibw_row *r, const struct pcibw_thresholds *t)
{
	if (r->verdict == PCIBW_V_IMPOSSIBLE)
		return 0;
	unsigned l = 0;
	if (r->wire_util >= t->wire)
		l |= 1u << PCIBW_RES_WIRE;
	if (r->bus_util >= t->bus)
		l |= 1u << (r->bound_by && !strcmp(r->bound_by, "root-complex") ? PCIBW_RES_ROOT_COMPLEX
										: PCIBW_RES_BUS);
	if (!r->polls && r->cpu_util >= t->cpu)
		l |= 1u << PCIBW_RES_CPU;
	if (!r->polls && r->core_util >= t->core)
		l |= 1u << PCIBW_RES_CORE;
	if (r->verdict == PCIBW_V_CPU && !(l & (1u << PCIBW_RES_CPU | 1u << PCIBW_RES_CORE)))
		l |= 1u << PCIBW_RES_CPU; /* a CPU sign that is no load: elasticity, cores, flat rate */
	if (r->tcp_limit)
		l |= 1u << PCIBW_RES_TCP_WINDOW;
	return l;
}

int pcibw_limits_names(unsigned limits, const char **names, int max)
{
	static const enum pcibw_resource order[] = {PCIBW_RES_WIRE, PCIBW_RES_BUS,  PCIBW_RES_ROOT_COMPLEX,
						    PCIBW_RES_CPU,  PCIBW_RES_CORE, PCIBW_RES_TCP_WINDOW};
	int n = 0;
	for (unsigned k = 0; k < sizeof order / sizeof order[0] && n < max; k++)
		if (limits & (1u << order[k]))
			names[n++] = pcibw_resource_name(order[k]);
	return n;
}

/* How early a line of a row's evidence comes: counters that disagree first (every other figure
 * rests on them), then the causes with a known fix (ASPM on an idle link, the TCP window), then
 * the rest in the rules' order, requests for missing data among them. */
static int line_rank(const struct pcibw_reason *v, int k)
{
	for (int i = 0; i < k; i++)
		if (v[i].code == PCIBW_R_COUNTERS_INCONSISTENT)
			return 0;
	return v[0].code == PCIBW_R_ASPM_IDLE_LINK || v[0].code == PCIBW_R_TCP_WINDOW ||
		       v[0].code == PCIBW_R_LINK_DOWNGRADED || v[0].code == PCIBW_R_SHARED_HOP
		   ? 1
		   : 2;
}

/* reorder the row's evidence lines by rank (stable), renumbering evidence_index */
static void lead(struct pcibw_row *r)
{
	struct pcibw_reason out[PCIBW_MAX_REASONS];
	int n = 0, line = 0;
	for (int rank = 0; rank <= 2; rank++)
		for (int i = 0; i < r->n_reasons;) {
			int j = i + 1;
			while (j < r->n_reasons &&
			       r->reasons[j].evidence_index == r->reasons[i].evidence_index)
				j++;
			if (line_rank(r->reasons + i, j - i) == rank) {
				for (int k = i; k < j; k++) {
					out[n] = r->reasons[k];
					out[n++].evidence_index = line;
				}
				line++;
			}
			i = j;
		}
	memcpy(r->reasons, out, sizeof out[0] * (size_t)n);
}

/* The NIC's link trained below its capability (PCIe Base 6.0 sec. 7.5.3.6 Link Capabilities,
 * 7.5.3.8 Link Status) for a cause with a fix: the bus ceiling is the link as it is, and
 * retraining it to its capability raises it (share: the link's raw rate over its capability's). */
static void link_evidence(struct pcibw_row *r, const struct pcibw_machine *m)
{
	if (!m->link_cause || isnan(r->bus_util))
		return;
	double now = m->link_gts * m->link_width, cap = m->link_cap_gts * m->link_cap_width;
	struct pcibw_reason *x = pcibw_row_reason(r, false, PCIBW_R_LINK_DOWNGRADED, PCIBW_RES_BUS, now, cap,
						  cap > 0 ? now / cap : NAN, NAN, "GT/s x lanes");
	if (x)
		snprintf(x->name, sizeof x->name, "%s", m->link_cause);
}

/* A bottleneck hop other devices use too (a PCI/PCI-X segment's masters share its clocks, PCI
 * LB 3.0 sec. 3.4 arbitration; endpoints below a PCIe switch or chipset uplink share its link,
 * PCIe Base 6.0 sec. 1.3.3): the bus share the row sees is its own traffic alone, and the
 * others' comes on top. Said where the bus is what holds the row or the nearest to it: an
 * io-bound row whose limit is the bus, or an undetermined one whose bus share is at or above
 * `idle` and at least each other known load (wire, CPUs, busiest core). Share: the row's share
 * of that hop: on the segment the modelled bus is, its bus share; on a PCIe hop its frames'
 * Gbit/s per direction over the hop's raw Gbit/s, a lower bound (TLP headers and descriptors
 * add to it), as a root-complex or transaction-rate ceiling of its own link does not scale to
 * the hop. */
static void shared_evidence(struct pcibw_row *r, const struct pcibw_thresholds *t,
			    const struct pcibw_machine *m)
{
	if (!m->shared_hop[0] || m->shared_hop_devices < 2 || isnan(r->bus_util) || !(m->shared_hop_gbps > 0))
		return;
	double u = m->shared_hop_segment ? r->bus_util : r->gbps / m->shared_hop_gbps;
	if (isnan(u))
		return;
	bool near = r->verdict == PCIBW_V_IO ? (r->limits & (1u << PCIBW_RES_BUS)) != 0
		    : r->verdict == PCIBW_V_UNDETERMINED
			? u >= t->idle && !(r->wire_util > u) && !(r->cpu_util > u) && !(r->core_util > u)
			: false;
	if (!near)
		return;
	struct pcibw_reason *x =
	    pcibw_row_reason(r, false, PCIBW_R_SHARED_HOP, PCIBW_RES_BUS, m->shared_hop_devices,
			     m->shared_hop_gbps, u, NAN, "devices");
	if (x)
		snprintf(x->name, sizeof x->name, "%s", m->shared_hop);
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

/* the evidence line of the row's first reason with this code; -1 */
static int line_of(const struct pcibw_row *r, enum pcibw_reason_code code)
{
	for (int k = 0; k < r->n_reasons; k++)
		if (r->reasons[k].code == code)
			return r->reasons[k].evidence_index;
	return -1;
}

/* the first line that is neither the counters' nor a cause's: the verdict's own */
static int verdict_line(const struct pcibw_row *r)
{
	for (int k = 0; k < r->n_reasons; k++) {
		int l = r->reasons[k].evidence_index, j = k;
		while (j < r->n_reasons && r->reasons[j].evidence_index == l)
			j++;
		if (line_rank(r->reasons + k, j - k) == 2)
			return l;
		k = j - 1;
	}
	return 0;
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
	if (v) {
		/* how many of all rows (undetermined ones included) hold it: under half, the headline
		 * says so first */
		v->row = rep;
		v->value = s->counts[s->verdict];
		v->ceiling = rs->n;
		v->share = rs->n ? v->value / rs->n : NAN;
		v->unit = "rows";
	}
	/* counters that disagree come before any verdict: every figure of the row rests on them */
	copy_code(s, r, rep, PCIBW_R_COUNTERS_INCONSISTENT, PCIBW_RES_NONE);
	switch (s->verdict) {
	case PCIBW_V_IMPOSSIBLE:
		copy_code(s, r, rep, PCIBW_R_BEYOND_CEILING,
			  r->bus_util > r->wire_util || isnan(r->wire_util) ? PCIBW_RES_BUS : PCIBW_RES_WIRE);
		break;
	case PCIBW_V_IO:
		/* the verdict's line: its co-limits with it */
		copy_line(s, r, rep, line_of(r, PCIBW_R_BUS_AT_THRESHOLD));
		break;
	case PCIBW_V_WIRE: {
		int l = line_of(r, PCIBW_R_WIRE_AT_THRESHOLD);
		copy_line(s, r, rep, l >= 0 ? l : line_of(r, PCIBW_R_GOODPUT_ABOVE_WIRE));
		break;
	}
	case PCIBW_V_CPU:
		/* the row's own first reason is the CPU's */
		copy_line(s, r, rep, verdict_line(r));
		break;
	default: {
		/* a row its TCP window holds says so first: that, not a missing ceiling, is the answer */
		bool tcp = false;
		for (int k = 0; r->tcp_limit && k < r->n_reasons; k++)
			tcp |= r->reasons[k].code == PCIBW_R_TCP_WINDOW;
		if (tcp)
			copy_code(s, r, rep, PCIBW_R_TCP_WINDOW, PCIBW_RES_NONE);
		else
			copy_line(s, r, rep,
				  line_of(r, PCIBW_R_ASPM_IDLE_LINK) >= 0 ? line_of(r, PCIBW_R_ASPM_IDLE_LINK)
									  : verdict_line(r));
		break;
	}
	}
	/* a downgraded link is a cause with a fix whatever the verdict: the headline gives it */
	if (s->verdict != PCIBW_V_IMPOSSIBLE)
		copy_code(s, r, rep, PCIBW_R_LINK_DOWNGRADED, PCIBW_RES_NONE);
	/* so is a shared bottleneck hop where the row gives it (the bus holds it or is nearest) */
	copy_code(s, r, rep, PCIBW_R_SHARED_HOP, PCIBW_RES_NONE);
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
		rs->v[i].polls = row_polls(&rs->v[i], machine_of(&rs->v[i], mach));
		rs->v[i].partner = partner_of(rs, i);
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
		r->limits = limits_of(r, t);
		notable_loads(r, t);
		aspm_evidence(r, t, m);
		link_evidence(r, m);
		shared_evidence(r, t, m);
		poll_evidence(r, m);
		loopback_evidence(r);
		packets_evidence(r);
		verdict_tcp_window_evidence(r);
		cpu_evidence(r);
		cpu_shared_evidence(r);
		out->counts[r->verdict]++;
		if (counters(r, t))
			; /* no header set reconciles them: the reason leads (lead) */
		else if (fabs(r->rate_mismatch) > 0.10)
			/* a DMA transfer size is the bytes moved: there are no other bytes the bit rate
			 * could count (--rate-basis names packet framings), so the two rates of the
			 * line contradict each other; a packet size may be counted another way */
			pcibw_row_reason(r, false, PCIBW_R_RATES_DISAGREE, PCIBW_RES_NONE, NAN, NAN,
					 r->rate_mismatch, 0.10, NULL);
		lead(r);
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

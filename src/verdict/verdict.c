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
#include "evidence.h"
#include "groups.h"
#include "pcibw/device.h"
#include "pcibw/nic.h"
#include "shape.h"
#include "tcp_window.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pcibw_verdict_name(enum pcibw_verdict v)
{
	static const char *names[] = {"impossible", "io-bound", "wire-bound", "cpu-bound", "undetermined"};
	return (unsigned)v < PCIBW_V_N ? names[v] : "?";
}

/* "550 Mbit/s", "8.92 Gbit/s" */
static const char *rate_text(char *buf, size_t n, double gbps)
{
	/* switch units where 3 significant digits would round up to the next unit ("1e+03 Mbit/s") */
	if (isnan(gbps))
		snprintf(buf, n, "?");
	else if (gbps * 1e3 < 999.5)
		snprintf(buf, n, "%.3g Mbit/s", gbps * 1e3);
	else if (gbps < 999.5)
		snprintf(buf, n, "%.3g Gbit/s", gbps);
	else
		snprintf(buf, n, "%.0f Gbit/s", gbps);
	return buf;
}

/* "920 kpps", "14.7 kpps", "1.3 Mpps" */
static const char *pps_text(char *buf, size_t n, double pps)
{
	if (isnan(pps))
		snprintf(buf, n, "?");
	else if (pps >= 999.5e6)
		snprintf(buf, n, "%.0f Mpps", pps / 1e6);
	else if (pps >= 999.5e3)
		snprintf(buf, n, "%.3g Mpps", pps / 1e6);
	else if (pps >= 999.5)
		snprintf(buf, n, "%.3g kpps", pps / 1e3);
	else
		snprintf(buf, n, "%.3g pps", pps);
	return buf;
}

static double pct(double f)
{
	return round(f * 100);
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

/* The CPU time one packet's cycles take, to 3 digits in the unit that reads best ("430 ns", "1.2 s"). */
static const char *cpu_time_text(char *buf, size_t n, const struct pcibw_row *r,
				 const struct pcibw_machine *m)
{
	double s = r->cycles_per_packet / (clock_mhz(r, m) * 1e6);
	static const char *const unit[] = {"s", "ms", "us", "ns"};
	int u = 0;
	for (; u < 3 && s < 1; u++)
		s *= 1e3;
	snprintf(buf, n, "%.3g %s", s, unit[u]);
	return buf;
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

/* "wire 94 % < 95 %": a known load below its threshold, floored so that it never reads as
 * reaching it. */
static void below(char *buf, size_t n, size_t *o, const char *what, double util, double thr)
{
	if (isnan(util) || *o >= n)
		return;
	*o += (size_t)snprintf(buf + *o, n - *o, "%s%s %.0f %% < %.0f %%", *o ? ", " : "", what,
			       floor(util * 100), round(thr * 100));
}

/* undetermined: name what is missing or what to check */
static void undetermined_hints(struct pcibw_row *r, const struct pcibw_thresholds *t,
			       const struct pcibw_machine *m, bool cores_flat)
{
	bool bus_known = !isnan(r->bus_util);
	if (r->size_conv == PCIBW_SIZE_WRITE)
		pcibw_row_evidence(r,
				   "a TCP message size is a write size, not a packet size: no packet rate to "
				   "set against the bus");
	if (isnan(r->cpu_util) && isnan(r->core_util) && !cores_flat)
		pcibw_row_evidence(
		    r, "no CPU was measured: give cpu_pct and per-core cpuN_pct (a single saturated "
		       "core hides in a low total)");
	if (m->bus_virtual)
		pcibw_row_evidence(r, "a virtual NIC has no bus ceiling: the limit is the host's CPU or the "
				      "hypervisor's path");
	else if (!m->have_bus)
		pcibw_row_evidence(
		    r, "no bus given (--bus SPEC or a probed device): the bus ceiling is unknown");
	else if (!bus_known && r->model_note[0])
		pcibw_row_evidence(r, "no bus ceiling at this size: %s", r->model_note);
	if (m->line_rate_gbps <= 0)
		pcibw_row_evidence(r, "no line rate given (--line-rate): the wire ceiling is unknown");
	char list[256];
	size_t o = 0;
	list[0] = '\0';
	below(list, sizeof list, &o, "wire", r->wire_util, t->wire);
	below(list, sizeof list, &o, "bus", r->bus_util, t->bus);
	if (!cores_flat) {
		below(list, sizeof list, &o, "CPU", r->cpu_util, t->cpu);
		below(list, sizeof list, &o, "busiest core", r->core_util, t->core);
	}
	if (o && cores_flat)
		pcibw_row_evidence(r,
				   "none reached its threshold (%s): a per-packet limit of the NIC "
				   "(descriptor fetch, queue or firmware) is the likely one",
				   list);
	else if (r->tcp_limit)
		tcp_window_hint(r, t, list);
	else if (o)
		pcibw_row_evidence(
		    r,
		    "none reached its threshold (%s): check for a closed-loop benchmark, interrupt "
		    "moderation, a single queue, or device and driver state",
		    list);
}

/* Every resource at or above `notable` of its ceiling that the verdict's own evidence did not
 * name: a wire-bound row whose busiest core is 98 % busy says so. */
static void notable_loads(struct pcibw_row *r, const struct pcibw_thresholds *t,
			  const struct pcibw_machine *m)
{
	if (r->verdict == PCIBW_V_UNDETERMINED || r->verdict == PCIBW_V_IMPOSSIBLE)
		return; /* the undetermined list names every known load; impossible is a measurement error */
	const char *bus = m->bus_name[0] ? m->bus_name : "bus";
	bool cpu_named = false, core_named = false;
	for (int k = 0; k < r->n_evidence; k++) {
		cpu_named |= strstr(r->evidence[k], "CPUs are") != NULL ||
			     strstr(r->evidence[k], "the CPU, at") != NULL;
		core_named |= strstr(r->evidence[k], "busiest core is") != NULL;
	}
	char list[256];
	size_t o = 0;
	list[0] = '\0';
	struct {
		const char *what;
		double util;
		bool named;
	} loads[] = {
	    {"the wire", r->wire_util, r->verdict == PCIBW_V_WIRE},
	    {bus, r->bus_util, r->verdict == PCIBW_V_IO},
	    {"the CPUs", r->cpu_util, cpu_named},
	    {"the busiest core", r->core_util, core_named},
	};
	for (unsigned k = 0; k < sizeof loads / sizeof loads[0] && o < sizeof list; k++)
		if (!loads[k].named && loads[k].util >= t->notable)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s %.0f %%", o ? ", " : "",
					      loads[k].what, pct(loads[k].util));
	if (o)
		pcibw_row_evidence(r, "also loaded (at least %.0f %% of its limit): %s", pct(t->notable),
				   list);
}

/* Where a row's CPU came from when a sysstat report gave it, with the interrupt time in it. */
static void cpu_evidence(struct pcibw_row *r)
{
	const struct pcibw_cpu_sample *c = r->cpu_from;
	if (!c)
		return;
	const char *base = strrchr(c->source, '/');
	base = base ? base + 1 : c->source;
	char core[96] = "", irq[200] = "";
	if (c->core_id >= 0)
		snprintf(core, sizeof core, ", the busiest CPU %d %.0f %%", c->core_id, c->core_busy);
	if (!isnan(c->all_irq) && c->core_irq_id >= 0)
		snprintf(irq, sizeof irq,
			 "; irq+softirq %.1f %% of all CPUs, %.1f %% on CPU %d: interrupt time a user-space "
			 "CPU soaker never sees",
			 c->all_irq, c->core_irq_max, c->core_irq_id);
	else if (!isnan(c->all_irq))
		snprintf(irq, sizeof irq, "; irq+softirq %.1f %% of all CPUs", c->all_irq);
	else
		snprintf(irq, sizeof irq,
			 "; this report does not split out irq and softirq time (sar -u ALL "
			 "or mpstat does)");
	pcibw_row_evidence(r, "CPU from %s: all CPUs %.0f %% busy%s%s", base, c->all_busy, core, irq);
}

/* What the packet rate of a TCP or fragmented UDP row rests on. */
static void packets_evidence(struct pcibw_row *r)
{
	char a[48];
	if (r->segment_bytes > 0) {
		char from[96];
		if (!strcmp(r->segment_from, "iperf3"))
			snprintf(from, sizeof from, "the MSS iperf3 reports%s",
				 r->segment_bytes > 9000 ? ", a loopback one" : "");
		else if (!strcmp(r->segment_from, "--mtu"))
			snprintf(from, sizeof from, "--mtu %g less %d B of %s and TCP headers", r->mtu,
				 r->ipv6 ? 72 : 52, r->ipv6 ? "IPv6" : "IPv4");
		else
			snprintf(from, sizeof from, "%s", r->segment_from);
		pcibw_row_evidence(r,
				   "TCP: %s of %g B segments (%s), %g B IP packets: full segments assumed "
				   "(Nagle and TSO coalesce smaller writes), so at least this packet rate",
				   pps_text(a, sizeof a, r->pps), r->segment_bytes, from, r->size_bytes);
	}
	if (r->fragments > 0)
		pcibw_row_evidence(
		    r,
		    "%g B datagrams exceed the %g B MTU: each goes as %d IP fragments, so %s of "
		    "IP packets averaging %.0f B",
		    r->input_size_bytes, r->mtu, r->fragments, pps_text(a, sizeof a, r->pps), r->size_bytes);
}

static void judge(struct pcibw_row *r, const struct pcibw_thresholds *t, const struct pcibw_machine *m)
{
	char a[48], b[48], c[48];
	const char *bus = m->bus_name[0] ? m->bus_name : "bus";
	bool bus_known = !isnan(r->bus_util);
	bool wire_known = !isnan(r->wire_util);
	if (bus_known && (r->pattern == PCIBW_PAT_DMA_READ || r->pattern == PCIBW_PAT_DMA_WRITE ||
			  r->pattern == PCIBW_PAT_DMA_RW))
		pcibw_row_evidence(r, "measured %s against the model's %s at %g B: %+.1f %%",
				   rate_text(a, sizeof a, r->gbps), rate_text(b, sizeof b, r->bus_gbps),
				   r->size_bytes, (r->bus_util - 1) * 100);

	if ((bus_known && r->bus_util > t->impossible) || (wire_known && r->wire_util > t->impossible)) {
		r->verdict = PCIBW_V_IMPOSSIBLE;
		if (bus_known && r->bus_util > t->impossible)
			pcibw_row_evidence(
			    r,
			    "%s (%s) needs %.0f %% of the %s ceiling of %s at %g B: it cannot have "
			    "passed that bus; ask which card and which direction the figure belongs to",
			    rate_text(a, sizeof a, r->gbps), pps_text(b, sizeof b, r->pps), pct(r->bus_util),
			    bus, rate_text(c, sizeof c, r->bus_gbps), r->size_bytes);
		if (wire_known && r->wire_util > t->impossible)
			pcibw_row_evidence(
			    r,
			    "%s is %.0f %% of the %g Gbit/s line rate: more than the wire carries; "
			    "check the line rate and whether the figure adds both directions",
			    rate_text(a, sizeof a, r->gbps), pct(r->wire_util), m->line_rate_gbps);
		return;
	}
	if (wire_known && r->wire_util >= t->wire) {
		r->verdict = PCIBW_V_WIRE;
		if (!isnan(r->pps) && !isnan(r->size_bytes))
			pcibw_row_evidence(r, "the wire is %s%.0f %% full (%s of a %g Gbit/s line at %g B)",
					   r->wire_lower_bound ? "at least " : "", pct(r->wire_util),
					   pps_text(a, sizeof a, r->pps), m->line_rate_gbps, r->size_bytes);
		else /* no packet size: the bit rate against the line rate */
			pcibw_row_evidence(r, "the wire is %s%.0f %% full (%s of a %g Gbit/s line)",
					   r->wire_lower_bound ? "at least " : "", pct(r->wire_util),
					   rate_text(a, sizeof a, r->gbps), m->line_rate_gbps);
		return;
	}
	if (bus_known && r->bus_util >= t->bus) {
		r->verdict = PCIBW_V_IO;
		pcibw_row_evidence(r, "the %s carries %.0f %% of its ceiling (%s at %g B%s%s)", bus,
				   pct(r->bus_util), rate_text(a, sizeof a, r->bus_gbps), r->size_bytes,
				   r->bound_by ? ", set by " : "", r->bound_by ? r->bound_by : "");
		return;
	}

	/* Packet rate flat while cores are added: more CPU does not help, so the CPU signs below do
	 * not decide; the bus and wire rules above already had their say, which leaves the NIC. */
	bool cores_flat = !isnan(r->cores_elasticity) && r->cores_pps_hi > 0 &&
			  (r->cores_pps_hi - r->cores_pps_lo) / r->cores_pps_hi <= t->cores_flat;
	if (cores_flat) {
		pcibw_row_evidence(
		    r,
		    "packet rate flat at %s-%s over %g-%g %s: adding %s does not raise it, so the "
		    "limit is not per-core CPU time but the bus, the NIC (descriptor or queue limit) "
		    "or the wire",
		    pps_text(a, sizeof a, r->cores_pps_lo), pps_text(b, sizeof b, r->cores_pps_hi),
		    r->cores_lo, r->cores_hi, r->cores_of, r->cores_of);
		r->verdict = PCIBW_V_UNDETERMINED;
		undetermined_hints(r, t, m, true);
		return;
	}

	/* cpu-bound: any of the contract's signs */
	bool cpu = false;
	if (r->cores_elasticity >= t->cores_elasticity * (1 - 1e-9)) {
		cpu = true;
		pcibw_row_evidence(
		    r,
		    "packet rate grows with %s (elasticity %.2f, %s-%s over %g-%g %s): a per-core "
		    "CPU limit, each core moves what it can",
		    r->cores_of, r->cores_elasticity, pps_text(a, sizeof a, r->cores_pps_lo),
		    pps_text(b, sizeof b, r->cores_pps_hi), r->cores_lo, r->cores_hi, r->cores_of);
	}
	if (r->cpu_util >= t->cpu) {
		cpu = true;
		pcibw_row_evidence(r, "the CPUs are %.0f %% busy", pct(r->cpu_util));
	}
	if (r->core_util >= t->core) {
		cpu = true;
		pcibw_row_evidence(
		    r,
		    "the busiest core is %.0f %% busy: one core saturated (one queue, one thread "
		    "or one interrupt)",
		    pct(r->core_util));
	}
	/* a relative tolerance: a log-log slope built to be exactly the threshold may land 1 ulp short */
	if (fabs(r->elasticity) >= t->elasticity * (1 - 1e-9)) {
		bool work = !strcmp(r->elasticity_of, "work");
		if ((work && r->elasticity < 0) || (!work && r->elasticity > 0)) {
			cpu = true;
			pcibw_row_evidence(
			    r,
			    "throughput %s %.2f %% per 1 %% more %s (elasticity %.2f): about %.0f %% "
			    "of the limit is CPU time",
			    work ? "falls" : "rises", fabs(r->elasticity),
			    work ? "per-packet work" : "CPU clock", r->elasticity,
			    fmin(100, pct(fabs(r->elasticity))));
		}
	}
	bool dma = r->pattern == PCIBW_PAT_DMA_READ || r->pattern == PCIBW_PAT_DMA_WRITE ||
		   r->pattern == PCIBW_PAT_DMA_RW;
	if (r->per_packet && dma) {
		/* a DMA benchmark keeps no CPU in the loop: a per-transfer limit is the device's */
		pcibw_row_evidence(
		    r,
		    "transfer rate flat at %s-%s over %g-%g B: a per-transfer limit of the "
		    "DMA engine, root complex or read latency, not of the CPU or the link's bytes",
		    pps_text(a, sizeof a, r->flat_pps_lo), pps_text(b, sizeof b, r->flat_pps_hi),
		    r->flat_size_lo, r->flat_size_hi);
	} else if (r->per_packet) {
		cpu = true;
		pcibw_row_evidence(
		    r,
		    "packet rate flat at %s-%s over %g-%g B while the bytes rise: a per-packet "
		    "limit (CPU or driver path), not a per-byte one",
		    pps_text(a, sizeof a, r->flat_pps_lo), pps_text(b, sizeof b, r->flat_pps_hi),
		    r->flat_size_lo, r->flat_size_hi);
	}
	bool bus_idle = (bus_known && r->bus_util < t->idle) || m->bus_virtual;
	/* The contract's rule needs both loads known to be low: an unknown wire (no --line-rate) may be
	 * the saturated resource, so it does not count as idle. */
	bool wire_idle = wire_known && r->wire_util < t->idle;
	if (!cpu && r->cpu_util >= t->cpu_only && bus_idle && wire_idle) {
		cpu = true;
		pcibw_row_evidence(
		    r,
		    "the CPU, at %.0f %%, is the only loaded resource (bus %s, wire %s). A CPU "
		    "ceiling below 100 %% usually means idle time is mis-measured (interrupt time "
		    "a user-space CPU soaker never sees, or a closed-loop benchmark)",
		    pct(r->cpu_util),
		    bus_known ? (snprintf(a, sizeof a, "%.0f %%", pct(r->bus_util)), a) : "without a ceiling",
		    (snprintf(b, sizeof b, "%.0f %%", pct(r->wire_util)), b));
	}
	if (cpu) {
		r->verdict = PCIBW_V_CPU;
		/* The utilisation rules see how busy the CPUs are, not what they are busy with: at
		 * this many cycles a packet, either the packets really cost that (interrupts all on
		 * one CPU) or the busy time is some other load's and the traffic is simply light. */
		if (r->cycles_per_packet > t->cycles_high)
			pcibw_row_evidence(r,
					   "%.0f cycles per packet (%s of CPU each) is unexpectedly slow: "
					   "check IRQ affinity (all interrupts on one CPU?) and "
					   "/proc/interrupts, and whether the busy time is another load's "
					   "(top, pidstat): then the traffic is light, not held back",
					   r->cycles_per_packet, cpu_time_text(a, sizeof a, r, m));
		return;
	}

	r->verdict = PCIBW_V_UNDETERMINED;
	undetermined_hints(r, t, m, false);
}

/* A link with ASPM on that idles between bursts pays an exit latency per wake (PCIe Base 6.0
 * sec. 5.4.1: L0s, L1 exit latencies in Link Capabilities): a throughput far below both the bus
 * and the wire can be that, whatever else the row says. */
static void aspm_evidence(struct pcibw_row *r, const struct pcibw_thresholds *t,
			  const struct pcibw_machine *m)
{
	static const char *const names[] = {"off", "L0s", "L1", "L0s and L1"};
	if (m->aspm <= 0 || m->aspm > 3 || isnan(r->bus_util) || isnan(r->wire_util) ||
	    r->bus_util >= t->idle || r->wire_util >= t->idle)
		return;
	pcibw_row_evidence(
	    r,
	    "ASPM %s is on for the NIC's link and both the bus (%.0f %%) and the wire (%.0f %%) "
	    "are below %.0f %%: each wake from a low-power state costs its exit latency; "
	    "check with pcie_aspm=off on the kernel command line or "
	    "/sys/module/pcie_aspm/parameters/policy (performance)",
	    names[m->aspm], pct(r->bus_util), pct(r->wire_util), pct(t->idle));
}

static void add_summary(struct pcibw_summary *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_summary(struct pcibw_summary *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	evidence_vadd(s->evidence, &s->n_evidence, PCIBW_MAX_EVIDENCE, fmt, ap);
	va_end(ap);
}

static const char *dir_words(int pattern)
{
	/* both = echo/forward: rates are per direction */
	return pattern == PCIBW_PAT_BOTH ? " per direction" : "";
}

static void summarise(const struct pcibw_rows *rs, const struct pcibw_machine *m, struct pcibw_summary *s)
{
	char a[48], b[48];
	const char *bus = m->bus_name[0] ? m->bus_name : "bus";
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
		add_summary(s, "Undetermined: no rows");
		return;
	}
	const struct pcibw_row *r = &rs->v[rep];
	/* the words name the representative row's own bus */
	m = machine_of(r, m);
	bus = m->bus_name[0] ? m->bus_name : "bus";
	char where[320];
	int o;
	if (isnan(r->gbps))
		o = snprintf(where, sizeof where, "%s%s", pps_text(a, sizeof a, r->pps),
			     dir_words(r->pattern));
	else if (!isnan(r->input_size_bytes) && r->input_size_bytes != r->size_bytes)
		/* the size the table and the headline show (a TCP write, a UDP datagram), then the
		 * packets it went as, which the ceilings are set at */
		o = snprintf(where, sizeof where, "%s%s at %g B (%g B IP packets)",
			     rate_text(a, sizeof a, r->gbps), dir_words(r->pattern), r->input_size_bytes,
			     r->size_bytes);
	else if (!isnan(r->size_bytes))
		o = snprintf(where, sizeof where, "%s%s at %g B", rate_text(a, sizeof a, r->gbps),
			     dir_words(r->pattern), r->size_bytes);
	else
		o = snprintf(where, sizeof where, "%s%s", rate_text(a, sizeof a, r->gbps),
			     dir_words(r->pattern));
	/* which NIC the figure is of: a run over several interfaces would not say otherwise (a
	 * shared hop's bus name names it already) */
	if (r->iface[0] && !strstr(bus, r->iface) && o > 0 && (size_t)o < sizeof where)
		snprintf(where + o, sizeof where - (size_t)o, " on %s", r->iface);
	char busw[160] = "", wirew[64] = "";
	if (!isnan(r->bus_util))
		snprintf(busw, sizeof busw, "the %s is %.0f %% busy", bus, pct(r->bus_util));
	else if (m->bus_virtual)
		snprintf(busw, sizeof busw, "a virtual NIC has no bus ceiling");
	if (!isnan(r->wire_util))
		snprintf(wirew, sizeof wirew, "the wire %.0f %%", pct(r->wire_util));
	switch (s->verdict) {
	case PCIBW_V_IMPOSSIBLE:
		if (r->bus_util > r->wire_util || isnan(r->wire_util))
			add_summary(
			    s,
			    "Impossible: %s cannot have passed the %s (ceiling %s, %.0f %% needed); ask "
			    "which card and which direction the figure belongs to.",
			    where, bus, rate_text(b, sizeof b, r->bus_gbps), pct(r->bus_util));
		else
			add_summary(
			    s,
			    "Impossible: %s is more than the %g Gbit/s wire carries (%.0f %% of it); check "
			    "the line rate and whether the figure adds both directions.",
			    where, m->line_rate_gbps, pct(r->wire_util));
		break;
	case PCIBW_V_IO:
		add_summary(s, "IO-bound: the %s is %.0f %% busy at %s (its ceiling %s)%s%s.", bus,
			    pct(r->bus_util), where, rate_text(b, sizeof b, r->bus_gbps),
			    wirew[0] ? "; " : "", wirew);
		break;
	case PCIBW_V_WIRE:
		add_summary(s, "Wire-bound: the wire is %s%.0f %% full at %s%s%s.",
			    r->wire_lower_bound ? "at least " : "", pct(r->wire_util), where,
			    busw[0] ? "; " : "", busw);
		break;
	case PCIBW_V_CPU: {
		/* the row's own CPU evidence is the reason */
		const char *why = r->n_evidence ? r->evidence[0] : "the CPU is the limit";
		char shorter[1024];
		if (m->bus_virtual && isnan(r->bus_util)) {
			/* no bus load to state: the rate and size belong to the verdict, not to the bus */
			bool wire_said = !wirew[0] || strstr(why, "wire ");
			add_summary(s, "CPU-bound at %s: %s; %s%s%s.", where, why, wire_said ? "" : wirew,
				    wire_said ? "" : ", ", busw);
		} else if (busw[0]) {
			/* the summary states bus and wire already: drop the evidence's "(bus X %, wire Y %)"
			 */
			snprintf(shorter, sizeof shorter, "%s", why);
			char *p = strstr(shorter, " (bus "), *q = p ? strchr(p, ')') : NULL;
			if (q) {
				memmove(p, q + 1, strlen(q + 1) + 1);
				why = shorter;
			}
			add_summary(s, "CPU-bound: %s at %s%s%s; %s.", busw, where, wirew[0] ? " and " : "",
				    wirew, why);
		} else if (!isnan(r->wire_util))
			add_summary(s, "CPU-bound: the wire is %.0f %% full at %s; %s.", pct(r->wire_util),
				    where, why);
		else
			add_summary(s, "CPU-bound at %s: %s.", where, why);
		break;
	}
	default: {
		/* a row its TCP window holds says so first: that, not a missing ceiling, is the answer */
		const char *why = r->n_evidence ? r->evidence[0] : "neither bus, wire nor CPU shows a limit";
		for (int k = 0; r->tcp_limit && k < r->n_evidence; k++) {
			const char *t = strstr(r->evidence[k], TCP_WINDOW_HINT);
			if (t) {
				why = t;
				break;
			}
		}
		add_summary(s, "Undetermined at %s: %s.", where, why);
		break;
	}
	}
}

/* "UDP_STREAM send: cpu-bound 1-1024 B, undetermined 1500-65507 B": each series' verdict by
 * size band, one summary line per series (at most 8, then how many more). */
static void headline_groups(const struct pcibw_rows *rs, struct pcibw_summary *s)
{
	if (s->n_groups < 2)
		return;
	bool sources = false;
	for (int g = 1; g < s->n_groups; g++)
		sources |=
		    strcmp(rs->v[s->groups[g].key_row].source, rs->v[s->groups[0].key_row].source) != 0;
	int lines = 0, left = 0;
	for (int g = 0; g < s->n_groups;) {
		int h = g + 1;
		while (h < s->n_groups &&
		       same_key(&rs->v[s->groups[g].key_row], &rs->v[s->groups[h].key_row]))
			h++;
		if (lines >= 8 || s->n_evidence >= PCIBW_MAX_EVIDENCE - 3) {
			left++;
			g = h;
			continue;
		}
		char line[600], label[200];
		pcibw_group_label(rs, &s->groups[g], sources, label, sizeof label);
		size_t o = (size_t)snprintf(line, sizeof line, "%s:", label);
		for (int k = g; k < h && o < sizeof line; k++) {
			const struct pcibw_group *gr = &s->groups[k];
			char sz[64] = "";
			if (!isnan(gr->size_min) && gr->size_min == gr->size_max)
				snprintf(sz, sizeof sz, " %g B", gr->size_min);
			else if (!isnan(gr->size_min))
				snprintf(sz, sizeof sz, " %g-%g B", gr->size_min, gr->size_max);
			o += (size_t)snprintf(line + o, sizeof line - o, "%s %s%s", k > g ? "," : "",
					      pcibw_verdict_name(gr->verdict), sz);
		}
		add_summary(s, "%s", line);
		lines++;
		g = h;
	}
	if (left)
		add_summary(s, "and %d more series (JSON groups)", left);
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
		tcp_window_judge(r, t);
		judge(r, t, m);
		notable_loads(r, t, m);
		aspm_evidence(r, t, m);
		packets_evidence(r);
		tcp_window_evidence(r);
		cpu_evidence(r);
		out->counts[r->verdict]++;
		if (fabs(r->rate_mismatch) > 0.10 && r->size_conv == PCIBW_SIZE_DMA)
			/* a DMA transfer size is the bytes moved: there are no other bytes the bit
			 * rate could count (--rate-basis names packet framings), so the two rates
			 * of the line contradict each other */
			pcibw_row_evidence(
			    r,
			    "the bit-rate column is %.0f %% %s what the transfer rate gives at %g B "
			    "per DMA transfer: the transfer rate is used; the two rates disagree, so check "
			    "the line (pcie-bench writes both of one run: 'BW (GB/s)' = SZ x Trans/s x 8 / "
			    "10^9, Gbit/s despite its label; a column converted to GB/s reads 87.5 %% "
			    "below)",
			    fabs(r->rate_mismatch) * 100, r->rate_mismatch > 0 ? "above" : "below",
			    r->basis_bytes);
		else if (fabs(r->rate_mismatch) > 0.10)
			pcibw_row_evidence(
			    r,
			    "the bit-rate column is %.0f %% %s what the packet rate gives at %g B "
			    "per packet (%s bytes): the packet rate is used; if the column counts other "
			    "bytes, "
			    "say which with --rate-basis wire|frame|l3|payload",
			    fabs(r->rate_mismatch) * 100, r->rate_mismatch > 0 ? "above" : "below",
			    r->basis_bytes,
			    r->gbps_basis == PCIBW_BASIS_SIZE ? "the size column's"
							      : pcibw_rate_basis_name(r->gbps_basis));
	}
	out->verdict = verdict_of_counts(out->counts);
	if (groups_build(rs, out))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	summarise(rs, mach, out);
	if (rs->n > 1)
		add_summary(out, "%d of %d rows %s%s", out->counts[out->verdict], rs->n,
			    pcibw_verdict_name(out->verdict),
			    out->verdict != PCIBW_V_UNDETERMINED && out->counts[PCIBW_V_UNDETERMINED]
				? " (undetermined rows do not vote)"
				: "");
	headline_groups(rs, out);
	if (mach->bus_virtual)
		add_summary(out, "a virtual NIC has no bus ceiling");
	if (mach->bus_note[0])
		add_summary(out, "%s", mach->bus_note);
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
}

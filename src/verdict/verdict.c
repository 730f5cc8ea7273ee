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
#include "pcibw/device.h"
#include "pcibw/nic.h"
#include "shape.h"
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

/* CPU cycles per packet and service demand where the row and machine allow. */
static void cpu_cost(struct pcibw_row *r, const struct pcibw_machine *m)
{
	double mhz = !isnan(r->cpu_mhz) ? r->cpu_mhz : m->cpu_mhz;
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

static void utilisations(struct pcibw_row *r)
{
	if (r->pps > 0 && r->bus_mpps > 0)
		r->bus_util = r->pps / (r->bus_mpps * 1e6);
	else if (r->size_conv != PCIBW_SIZE_WRITE && r->gbps > 0 && r->bus_gbps > 0)
		r->bus_util = r->gbps / r->bus_gbps;
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

	/* cpu-bound: any of the contract's signs */
	bool cpu = false;
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
		    "the soaker never sees, or a closed-loop benchmark)",
		    pct(r->cpu_util),
		    bus_known ? (snprintf(a, sizeof a, "%.0f %%", pct(r->bus_util)), a) : "without a ceiling",
		    (snprintf(b, sizeof b, "%.0f %%", pct(r->wire_util)), b));
	}
	if (cpu) {
		r->verdict = PCIBW_V_CPU;
		if (r->cycles_per_packet > t->cycles_high)
			pcibw_row_evidence(r,
					   "%.0f cycles per packet is unexpectedly slow: check IRQ affinity "
					   "(all interrupts on one CPU?) and /proc/interrupts",
					   r->cycles_per_packet);
		return;
	}

	/* undetermined: name what is missing or what to check */
	r->verdict = PCIBW_V_UNDETERMINED;
	if (r->size_conv == PCIBW_SIZE_WRITE)
		pcibw_row_evidence(r,
				   "a TCP message size is a write size, not a packet size: no packet rate to "
				   "set against the bus");
	if (isnan(r->cpu_util) && isnan(r->core_util))
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
	if ((bus_known || m->bus_virtual) && (!isnan(r->cpu_util) || !isnan(r->core_util)))
		pcibw_row_evidence(
		    r,
		    "neither the bus%s nor the CPU is loaded: check for a closed-loop "
		    "benchmark, interrupt moderation, a single queue, or device and driver state",
		    wire_known ? ", the wire" : "");
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
	char where[160];
	if (isnan(r->gbps))
		snprintf(where, sizeof where, "%s%s", pps_text(a, sizeof a, r->pps), dir_words(r->pattern));
	else if (!isnan(r->size_bytes))
		snprintf(where, sizeof where, "%s%s at %g B", rate_text(a, sizeof a, r->gbps),
			 dir_words(r->pattern), r->size_bytes);
	else
		snprintf(where, sizeof where, "%s%s", rate_text(a, sizeof a, r->gbps), dir_words(r->pattern));
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
		if (busw[0]) {
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
	default:
		add_summary(s, "Undetermined at %s: %s.", where,
			    r->n_evidence ? r->evidence[0] : "neither bus, wire nor CPU shows a limit");
		break;
	}
}

int pcibw_verdict_run(struct pcibw_rows *rs, const struct pcibw_thresholds *t,
		      const struct pcibw_machine *mach, struct pcibw_summary *out, struct pcibw_err *err)
{
	memset(out, 0, sizeof *out);
	out->representative = -1;
	for (int i = 0; i < rs->n; i++) {
		cpu_cost(&rs->v[i], mach);
		utilisations(&rs->v[i]);
	}
	if (pcibw_shape(rs, t))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	for (int i = 0; i < rs->n; i++) {
		struct pcibw_row *r = &rs->v[i];
		judge(r, t, mach);
		out->counts[r->verdict]++;
		if (fabs(r->rate_mismatch) > 0.10)
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
	if (out->counts[PCIBW_V_IMPOSSIBLE]) {
		out->verdict = PCIBW_V_IMPOSSIBLE;
	} else if (rs->n == 0) {
		out->verdict = PCIBW_V_UNDETERMINED; /* nothing measured: nothing to conclude */
	} else {
		out->verdict = PCIBW_V_UNDETERMINED;
		int best = -1;
		for (int v = PCIBW_V_IO; v < PCIBW_V_N; v++)
			if (out->counts[v] > best) {
				best = out->counts[v];
				out->verdict = (enum pcibw_verdict)v;
			}
	}
	summarise(rs, mach, out);
	if (rs->n > 1)
		add_summary(out, "%d of %d rows %s", out->counts[out->verdict], rs->n,
			    pcibw_verdict_name(out->verdict));
	if (mach->bus_virtual)
		add_summary(out, "a virtual NIC has no bus ceiling");
	if (mach->bus_note[0])
		add_summary(out, "%s", mach->bus_note);
	return PCIBW_OK;
}

void pcibw_summary_free(struct pcibw_summary *s)
{
	for (int i = 0; i < s->n_evidence; i++)
		free(s->evidence[i]);
	s->n_evidence = 0;
}

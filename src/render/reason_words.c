/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The words of the verdict (pcibw/words.h): every evidence sentence of a row, a group and the
 * whole input is made here from the reasons the rules returned (pcibw/reason.h), and from the
 * row's own figures where a sentence states more than the rule compared (a rate, a size, the
 * TCP path). Shares print through pcibw_fmt_pct, so a sentence and the table agree.
 */
#include "pcibw/device.h"
#include "pcibw/nic.h"
#include "pcibw/words.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How a line is worded: in a row's (and group's) evidence, or in the headline. */
enum mode {
	ROW,
	HEADLINE, /* the representative row's reasons inside the summary's first line */
	SUMMARY,
};

struct out {
	char *buf;
	size_t n, o;
};

static void put(struct out *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *w, const char *fmt, ...)
{
	if (w->o >= w->n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(w->buf + w->o, w->n - w->o, fmt, ap);
	va_end(ap);
	if (k > 0)
		w->o += (size_t)k;
	if (w->o >= w->n)
		w->o = w->n - 1;
}

static const struct pcibw_machine *machine_of(const struct pcibw_row *r, const struct pcibw_machine *run)
{
	return r && r->machine ? r->machine : run;
}

static const char *bus_name(const struct pcibw_machine *m)
{
	return m->bus_name[0] ? m->bus_name : "bus";
}

/* the whole percent of a share that is compared with nothing */
static const char *pct(char *buf, size_t n, double share)
{
	return pcibw_fmt_pct(buf, n, share, NAN);
}

static const char *load_name(enum pcibw_resource r)
{
	switch (r) {
	case PCIBW_RES_WIRE:
		return "wire";
	case PCIBW_RES_BUS:
		return "bus";
	case PCIBW_RES_CPU:
		return "CPU";
	case PCIBW_RES_CORE:
		return "busiest core";
	default:
		return "?";
	}
}

/* "wire 5 % < 95 %, bus 12 % < 85 %": the below-threshold reasons of a line */
static void below_list(char *list, size_t n, const struct pcibw_reason *v, int k)
{
	struct out w = {list, n, 0};
	list[0] = '\0';
	char a[16], b[16];
	for (int i = 0; i < k; i++)
		if (v[i].code == PCIBW_R_BELOW_THRESHOLD)
			put(&w, "%s%s %s %% < %s %%", w.o ? ", " : "", load_name(v[i].resource),
			    pcibw_fmt_pct(a, sizeof a, v[i].share, v[i].threshold),
			    pct(b, sizeof b, v[i].threshold));
}

static const char *clock_time(char *buf, size_t n, const struct pcibw_row *r, const struct pcibw_machine *m)
{
	double mhz = !isnan(r->cpu_mhz) ? r->cpu_mhz : m->cpu_mhz;
	double s = r->cycles_per_packet / (mhz * 1e6);
	static const char *const unit[] = {"s", "ms", "us", "ns"};
	int u = 0;
	for (; u < 3 && s < 1; u++)
		s *= 1e3;
	snprintf(buf, n, "%.3g %s", s, unit[u]);
	return buf;
}

static void tcp_window_share(struct out *w, const struct pcibw_row *r)
{
	const struct pcibw_tcp_path *p = &r->tcp_path;
	char a[32], b[32], c[32], d[32], e[16], rtt[128] = "", re[160] = "", mx[160] = "", streams[48] = "";
	if (r->streams > 1)
		snprintf(streams, sizeof streams, " (%g streams summed)", r->streams);
	if (p->rtt_us > 0) {
		int o = snprintf(rtt, sizeof rtt, "%s mean RTT", pcibw_fmt_us(a, sizeof a, p->rtt_us));
		if (p->rtt_min_us > 0 && p->rtt_max_us > 0) {
			/* one unit for both ends: ms unless the lower is below 1 ms */
			double k = p->rtt_min_us >= 999.5 ? 1e3 : 1;
			snprintf(rtt + o, sizeof rtt - (size_t)o, " (%.4g-%.4g %s)", p->rtt_min_us / k,
				 p->rtt_max_us / k, k > 1 ? "ms" : "us");
		}
	}
	if (p->retransmits >= 0) {
		int o = snprintf(re, sizeof re, "; %.0f retransmit%s", p->retransmits,
				 p->retransmits == 1 ? "" : "s");
		if (p->segments > 0)
			snprintf(re + o, sizeof re - (size_t)o, " (%.2g %% of %.0f segments)",
				 p->retransmits / p->segments * 100, p->segments);
	}
	if (p->samples > 0 && p->window_gbps > 0) {
		if (p->max_window_gbps > 0)
			snprintf(mx, sizeof mx, "; max_snd_cwnd %s / mean RTT allows %s",
				 pcibw_fmt_bytes(a, sizeof a, p->max_cwnd_bytes),
				 pcibw_fmt_gbps(b, sizeof b, p->max_window_gbps));
		put(w,
		    "TCP window: a mean %s %s%s over %d interval samples, %s: window / RTT allows "
		    "%s; measured %s is %s %% of it%s%s%s",
		    pcibw_fmt_bytes(c, sizeof c, p->window_bytes), p->rwnd_limited ? "snd_wnd" : "snd_cwnd",
		    streams, p->samples, rtt[0] ? rtt : "RTT per sample",
		    pcibw_fmt_gbps(d, sizeof d, p->window_gbps), pcibw_fmt_gbps(a, sizeof a, r->gbps),
		    pct(e, sizeof e, r->tcp_window_share),
		    r->tcp_window_share > 1 ? " (the samples are interval-end snapshots: the window was "
					      "larger between them)"
					    : "",
		    mx, re);
	} else {
		put(w,
		    "TCP window: max_snd_cwnd %s at %s: window / RTT allows at most %s; measured "
		    "%s is %s %% of it%s",
		    pcibw_fmt_bytes(c, sizeof c, p->max_cwnd_bytes), rtt,
		    pcibw_fmt_gbps(d, sizeof d, p->max_window_gbps), pcibw_fmt_gbps(a, sizeof a, r->gbps),
		    pct(e, sizeof e, r->tcp_window_share), re);
	}
}

/* the TCP path holds an undetermined row; in a row's evidence after the loads that did not */
static void tcp_window(struct out *w, const struct pcibw_reason *x, const char *loads,
		       const struct pcibw_row *r)
{
	const struct pcibw_tcp_path *p = &r->tcp_path;
	char a[32], b[32], c[32], e[16];
	if (loads && loads[0])
		put(w, "none reached its threshold (%s): ", loads);
	put(w,
	    "the TCP path is the likely limit: %s is %s %% of what the window allows per "
	    "round trip (%s at %s RTT; tcp_window=%.2f): the sender keeps its window in flight "
	    "and waits on the path",
	    pcibw_fmt_gbps(a, sizeof a, x->value), pct(e, sizeof e, x->share),
	    pcibw_fmt_gbps(b, sizeof b, x->ceiling),
	    p->rtt_us > 0 ? pcibw_fmt_us(c, sizeof c, p->rtt_us) : "its", x->threshold);
	if (p->retransmits > 0)
		put(w,
		    ", and %.0f retransmits say it lost segments, each loss cutting the congestion "
		    "window",
		    p->retransmits);
	put(w,
	    "; a larger window (%s), more streams (-P) or less loss on the path would raise it, not a faster "
	    "host "
	    "or bus",
	    p->rwnd_limited ? "the receiver's buffer: net.ipv4.tcp_rmem, iperf3 -w"
			    : "socket buffers: net.ipv4.tcp_wmem and tcp_rmem, iperf3 -w");
}

static void cpu_from(struct out *w, const struct pcibw_row *r)
{
	const struct pcibw_cpu_sample *c = r->cpu_from;
	if (!c)
		return;
	const char *base = strrchr(c->source, '/');
	base = base ? base + 1 : c->source;
	char a[16], b[16];
	put(w, "CPU from %s: all CPUs %s %% busy", base, pct(a, sizeof a, c->all_busy / 100));
	if (c->core_id >= 0)
		put(w, ", the busiest CPU %d %s %%", c->core_id, pct(b, sizeof b, c->core_busy / 100));
	if (!isnan(c->all_irq) && c->core_irq_id >= 0)
		put(w,
		    "; irq+softirq %.1f %% of all CPUs, %.1f %% on CPU %d: interrupt time a user-space "
		    "CPU soaker never sees",
		    c->all_irq, c->core_irq_max, c->core_irq_id);
	else if (!isnan(c->all_irq))
		put(w, "; irq+softirq %.1f %% of all CPUs", c->all_irq);
	else
		put(w, "; this report does not split out irq and softirq time (sar -u ALL "
		       "or mpstat does)");
}

static void segments(struct out *w, const struct pcibw_row *r)
{
	char a[48], from[96];
	if (!strcmp(r->segment_from, "iperf3"))
		snprintf(from, sizeof from, "the MSS iperf3 reports%s",
			 r->segment_bytes > 9000 ? ", a loopback one" : "");
	else if (!strcmp(r->segment_from, "--mtu"))
		snprintf(from, sizeof from, "--mtu %g less %d B of %s and TCP headers", r->mtu,
			 r->ipv6 ? 72 : 52, r->ipv6 ? "IPv6" : "IPv4");
	else
		snprintf(from, sizeof from, "%s", r->segment_from);
	put(w,
	    "TCP: %s of %g B segments (%s), %g B IP packets: full segments assumed "
	    "(Nagle and TSO coalesce smaller writes), so at least this packet rate",
	    pcibw_fmt_pps(a, sizeof a, r->pps), r->segment_bytes, from, r->size_bytes);
}

static void rates_disagree(struct out *w, const struct pcibw_reason *x, const struct pcibw_row *r)
{
	double mis = x->share;
	if (r->size_conv == PCIBW_SIZE_DMA)
		put(w,
		    "the bit-rate column is %.0f %% %s what the transfer rate gives at %g B "
		    "per DMA transfer: the transfer rate is used; the two rates disagree, so check "
		    "the line (pcie-bench writes both of one run: 'BW (GB/s)' = SZ x Trans/s x 8 / "
		    "10^9, Gbit/s despite its label; a column converted to GB/s reads 87.5 %% "
		    "below)",
		    fabs(mis) * 100, mis > 0 ? "above" : "below", r->basis_bytes);
	else
		put(w,
		    "the bit-rate column is %.0f %% %s what the packet rate gives at %g B "
		    "per packet (%s bytes): the packet rate is used; if the column counts other "
		    "bytes, say which with --rate-basis wire|frame|l3|payload",
		    fabs(mis) * 100, mis > 0 ? "above" : "below", r->basis_bytes,
		    r->gbps_basis == PCIBW_BASIS_SIZE ? "the size column's"
						      : pcibw_rate_basis_name(r->gbps_basis));
}

static bool is_limit_code(enum pcibw_reason_code c)
{
	return c == PCIBW_R_WIRE_AT_THRESHOLD || c == PCIBW_R_GOODPUT_ABOVE_WIRE ||
	       c == PCIBW_R_BUS_AT_THRESHOLD || c == PCIBW_R_CPUS_SATURATED || c == PCIBW_R_CORE_SATURATED;
}

/* "; and the busiest core at 100 %: both limit it; more line rate alone would not help": the
 * co-limits on a verdict's line (v[1..k) after the verdict's own reason v[0]) */
static void co_limit_words(struct out *w, const struct pcibw_reason *v, int k, const struct pcibw_machine *m)
{
	int n = 0;
	char d[16];
	for (int i = 1; i < k; i++) {
		if (!is_limit_code(v[i].code) || v[i].resource == v[0].resource)
			continue;
		const char *what = v[i].resource == PCIBW_RES_BUS   ? bus_name(m)
				   : v[i].resource == PCIBW_RES_CPU ? "all CPUs"
								    : "the busiest core";
		put(w, "%s%s%s at %s %%", n ? ", " : "; and ",
		    v[i].resource == PCIBW_RES_BUS && strncmp(what, "the ", 4) ? "the " : "", what,
		    pct(d, sizeof d, v[i].share));
		n++;
	}
	if (n)
		put(w, ": %s limit it; more %s alone would not help", n == 1 ? "both" : "all",
		    v[0].resource == PCIBW_RES_WIRE ? "line rate" : "bus bandwidth");
}

static void counters_words(struct out *w, const struct pcibw_reason *x)
{
	put(w,
	    "the counters disagree: the bit rate gives %.0f B per packet against the %g B the packet rate "
	    "is counted at (x%.4g), more than any rate basis explains (they differ by at most 90 B: "
	    "preamble and gap, Ethernet, VLAN, IPv6 and UDP headers); ",
	    x->value, x->ceiling, x->share);
	if (!strcmp(x->name, "packets"))
		put(w, "the packet counter is the suspect: its rate is beyond a ceiling the bit rate keeps "
		       "to; check which interface and direction it counted");
	else if (!strcmp(x->name, "bits"))
		put(w, "the bit-rate counter is the suspect: its rate is beyond a ceiling the packet rate "
		       "keeps to; check whether it adds both directions or reads GB/s as Gbit/s");
	else
		put(w, "the packet rate is used; check both counters (another interface, both directions "
		       "added, a GB/s read as Gbit/s)");
}

static const char *dir_name(int pattern)
{
	return pattern == PCIBW_PAT_RX ? "rx" : pattern == PCIBW_PAT_TX ? "tx" : "other";
}

/* one line of a row: v[0..k) share its evidence_index */
static void row_line(struct out *w, const struct pcibw_reason *v, int k, const struct pcibw_row *r,
		     const struct pcibw_machine *m, enum mode mode)
{
	const struct pcibw_reason *x = &v[0];
	char a[48], b[48], c[48], d[16], list[256];
	switch (x->code) {
	case PCIBW_R_DMA_AGAINST_MODEL:
		put(w, "measured %s against the model's %s at %g B: %+.1f %%",
		    pcibw_fmt_gbps(a, sizeof a, x->value), pcibw_fmt_gbps(b, sizeof b, x->ceiling),
		    r->size_bytes, (x->share - 1) * 100);
		break;
	case PCIBW_R_BEYOND_CEILING:
		if (x->resource == PCIBW_RES_BUS && r->bus_gbps_high > r->bus_gbps * 1.0005) {
			/* the band's high end is what it beat (doc/model.md sec. 8) */
			char e[48], f[48];
			put(w,
			    "%s (%s) needs %s %% of the %s ceiling of %s at %g B (%s %% of the most its band "
			    "allows, %s): it cannot have passed that bus; ask which card and which direction "
			    "the figure belongs to",
			    pcibw_fmt_gbps(a, sizeof a, x->value), pcibw_fmt_pps(b, sizeof b, r->pps),
			    pct(d, sizeof d, x->share), bus_name(m), pcibw_fmt_gbps(c, sizeof c, x->ceiling),
			    r->size_bytes, pct(e, sizeof e, r->bus_util_low),
			    pcibw_fmt_gbps(f, sizeof f, r->bus_gbps_high));
		} else if (x->resource == PCIBW_RES_BUS)
			put(w,
			    "%s (%s) needs %s %% of the %s ceiling of %s at %g B: it cannot have "
			    "passed that bus; ask which card and which direction the figure belongs to",
			    pcibw_fmt_gbps(a, sizeof a, x->value), pcibw_fmt_pps(b, sizeof b, r->pps),
			    pct(d, sizeof d, x->share), bus_name(m), pcibw_fmt_gbps(c, sizeof c, x->ceiling),
			    r->size_bytes);
		else if (r->segment_bytes > 0 && r->gbps_basis == PCIBW_BASIS_SIZE)
			put(w,
			    "goodput above what the wire can carry: %s of TCP payload is %s %% of the %s a "
			    "%g "
			    "Gbit/s line carries in full %g B segments; check the line rate, the segment "
			    "size "
			    "and whether the figure adds both directions",
			    pcibw_fmt_gbps(a, sizeof a, x->value), pct(d, sizeof d, x->share),
			    pcibw_fmt_gbps(b, sizeof b, r->wire_mpps * 1e6 * r->segment_bytes * 8 / 1e9),
			    x->ceiling, r->segment_bytes);
		else
			put(w,
			    "%s is %s %% of the %g Gbit/s line rate: more than the wire carries; "
			    "check the line rate and whether the figure adds both directions",
			    pcibw_fmt_gbps(a, sizeof a, x->value), pct(d, sizeof d, x->share), x->ceiling);
		break;
	case PCIBW_R_WIRE_AT_THRESHOLD:
		if (x->unit && !strcmp(x->unit, "pps"))
			put(w, "the wire is %s%s %% full (%s of a %g Gbit/s line at %g B)",
			    r->wire_lower_bound ? "at least " : "", pct(d, sizeof d, x->share),
			    pcibw_fmt_pps(a, sizeof a, x->value), m->line_rate_gbps, r->size_bytes);
		else
			put(w, "the wire is %s%s %% full (%s of a %g Gbit/s line)",
			    r->wire_lower_bound ? "at least " : "", pct(d, sizeof d, x->share),
			    pcibw_fmt_gbps(a, sizeof a, x->value), x->ceiling);
		co_limit_words(w, v, k, m);
		break;
	case PCIBW_R_GOODPUT_ABOVE_WIRE:
		put(w,
		    "goodput above what the wire can carry: %s of TCP payload is %s %% of the %s a %g Gbit/s "
		    "line carries in full %g B segments (%s); the segments are larger than assumed (a "
		    "receive offload counting merged segments, a larger MTU) or the line is faster than "
		    "--line-rate",
		    pcibw_fmt_gbps(a, sizeof a, x->value), pct(d, sizeof d, x->share),
		    pcibw_fmt_gbps(b, sizeof b, x->ceiling), m->line_rate_gbps, r->segment_bytes,
		    r->segment_from ? r->segment_from : "?");
		co_limit_words(w, v, k, m);
		break;
	case PCIBW_R_BUS_AT_THRESHOLD:
		put(w, "the %s carries %s %% of its ceiling (%s at %g B%s%s)", bus_name(m),
		    pct(d, sizeof d, x->share), pcibw_fmt_gbps(a, sizeof a, x->ceiling), r->size_bytes,
		    r->bound_by ? ", set by " : "", r->bound_by ? r->bound_by : "");
		co_limit_words(w, v, k, m);
		break;
	case PCIBW_R_COUNTERS_INCONSISTENT:
		counters_words(w, x);
		break;
	case PCIBW_R_LINK_DOWNGRADED:
		put(w,
		    "the NIC's link runs at %g GT/s x%d of its %g GT/s x%d (%s %% of its raw rate; %s), and "
		    "the "
		    "bus ceiling is the link as it runs: %s",
		    m->link_gts, m->link_width, m->link_cap_gts, m->link_cap_width,
		    pct(d, sizeof d, x->share), x->name, m->link_fix);
		break;
	case PCIBW_R_SHARED_HOP:
		put(w, "the bottleneck hop %s (%s) is shared by %g devices", x->name,
		    pcibw_fmt_gbps(a, sizeof a, x->ceiling), x->value);
		if (!isnan(x->share))
			put(w, ", and this one alone uses %s%s %% of it",
			    m->shared_hop_segment ? "" : "at least ", pct(d, sizeof d, x->share));
		put(w,
		    ": the others' traffic comes on top; move the card to a slot whose path does not "
		    "cross %s (pcibw slots lists them)",
		    x->name);
		break;
	case PCIBW_R_POLL_MODE:
		put(w, "poll mode: the cores poll and are busy by design, so no CPU %% says how loaded they "
		       "are");
		if (!isnan(x->value))
			put(w, "; %.0f cycles per packet per polling core (%g core%s at %g MHz over %s)",
			    x->value, x->ceiling, x->ceiling == 1 ? "" : "s",
			    !isnan(r->cpu_mhz) ? r->cpu_mhz : m->cpu_mhz, pcibw_fmt_pps(a, sizeof a, r->pps));
		else
			put(w,
			    "; cycles per packet per polling core need the clock (--cpu-ghz) and the polling "
			    "cores (--cpus or a cores column)");
		break;
	case PCIBW_R_CORES_SWEEP_NOT_MEASURED:
		put(w,
		    "a polling row's CPU %% is 100 %% by design and decides nothing: measure a cores sweep "
		    "(rows with a cores column, e.g. 1, 2 and 4 polling cores) or give the tool's own "
		    "per-core packet rate");
		break;
	case PCIBW_R_CPU_SHARED: {
		int j = (int)x->value;
		const struct pcibw_row *o = r + (j - x->row);
		put(w,
		    "rx and tx ran at once on this host: the CPU figures cover both streams, and the %s "
		    "stream (row %d, %s) shares the cores with this %s one",
		    dir_name(o->pattern), j + 1, pcibw_fmt_gbps(a, sizeof a, o->gbps), dir_name(r->pattern));
		if (x->share >= 0.95)
			put(w, " (the busiest core at %s %%: what each stream alone needs is less)",
			    pct(d, sizeof d, x->share));
		break;
	}
	case PCIBW_R_LOOPBACK:
		put(w,
		    "the test ran over loopback: no NIC, bus or wire carried it, so neither ceiling applies "
		    "and none is asked for; the CPU is what such a run can be held by");
		break;
	case PCIBW_R_BUS_IN_BAND:
		put(w, "in the band %s-%s of that ceiling, the row sits %s %% of the way up",
		    pcibw_fmt_gbps(a, sizeof a, r->bus_gbps_low), pcibw_fmt_gbps(b, sizeof b, x->ceiling),
		    pct(d, sizeof d, x->share));
		break;
	case PCIBW_R_BUS_ABOVE_EXPECTED:
		put(w,
		    "the %s is at its limit and the host behaves better than expected: %s is above the "
		    "expected %s, within the band's high end %s (the host settings the spec allows)",
		    bus_name(m), pcibw_fmt_gbps(a, sizeof a, x->value),
		    pcibw_fmt_gbps(b, sizeof b, r->bus_gbps), pcibw_fmt_gbps(c, sizeof c, x->ceiling));
		break;
	case PCIBW_R_RATE_FLAT_OVER_CORES:
		put(w,
		    "packet rate flat at %s-%s over %g-%g %s: adding %s does not raise it, so the "
		    "limit is not per-core CPU time but the bus, the NIC (descriptor or queue limit) "
		    "or the wire",
		    pcibw_fmt_pps(a, sizeof a, r->cores_pps_lo), pcibw_fmt_pps(b, sizeof b, r->cores_pps_hi),
		    r->cores_lo, r->cores_hi, r->cores_of, r->cores_of);
		break;
	case PCIBW_R_RATE_GROWS_WITH_CORES:
		put(w,
		    "packet rate grows with %s (elasticity %.2f, %s-%s over %g-%g %s): a per-core "
		    "CPU limit, each core moves what it can",
		    r->cores_of, x->value, pcibw_fmt_pps(a, sizeof a, r->cores_pps_lo),
		    pcibw_fmt_pps(b, sizeof b, r->cores_pps_hi), r->cores_lo, r->cores_hi, r->cores_of);
		break;
	case PCIBW_R_CPUS_SATURATED:
		put(w, "the CPUs are %s %% busy", pct(d, sizeof d, x->share));
		break;
	case PCIBW_R_CORE_SATURATED:
		put(w,
		    "the busiest core is %s %% busy: one core saturated (one queue, one thread "
		    "or one interrupt)",
		    pct(d, sizeof d, x->share));
		break;
	case PCIBW_R_RATE_ELASTIC_TO_WORK:
	case PCIBW_R_RATE_ELASTIC_TO_CLOCK: {
		bool work = x->code == PCIBW_R_RATE_ELASTIC_TO_WORK;
		put(w,
		    "throughput %s %.2f %% per 1 %% more %s (elasticity %.2f): about %s %% "
		    "of the limit is CPU time",
		    work ? "falls" : "rises", fabs(x->value), work ? "per-packet work" : "CPU clock",
		    x->value, pct(d, sizeof d, fmin(1, fabs(x->value))));
		break;
	}
	case PCIBW_R_TRANSFER_RATE_FLAT:
	case PCIBW_R_RATE_FLAT_OVER_SIZES: {
		bool dma = x->code == PCIBW_R_TRANSFER_RATE_FLAT;
		put(w, "%s rate flat at %s-%s over %g-%g B%s", dma ? "transfer" : "packet",
		    pcibw_fmt_pps(a, sizeof a, r->flat_pps_lo), pcibw_fmt_pps(b, sizeof b, r->flat_pps_hi),
		    r->flat_size_lo, r->flat_size_hi,
		    dma ? ": a per-transfer limit of the DMA engine, root complex or read latency, not of "
			  "the CPU or the link's bytes"
			: " while the bytes rise: a per-packet limit (CPU or driver path), not a per-byte "
			  "one");
		break;
	}
	case PCIBW_R_CPU_ONLY_LOADED:
		put(w, "the CPU, at %s %%, is the only loaded resource", pct(d, sizeof d, x->share));
		/* a headline that states the bus load states the wire with it */
		if (mode != HEADLINE || isnan(r->bus_util))
			put(w, " (bus %s, wire %s)",
			    !isnan(r->bus_util)
				? (snprintf(a, sizeof a, "%s %%", pct(c, sizeof c, r->bus_util)), a)
				: "without a ceiling",
			    (snprintf(b, sizeof b, "%s %%", pct(c, sizeof c, r->wire_util)), b));
		put(w, ". A CPU ceiling below 100 %% usually means idle time is mis-measured (interrupt time "
		       "a user-space CPU soaker never sees, or a closed-loop benchmark)");
		break;
	case PCIBW_R_CYCLES_HIGH:
		put(w,
		    "%.0f cycles per packet (%s of CPU each) is unexpectedly slow: "
		    "check IRQ affinity (all interrupts on one CPU?) and "
		    "/proc/interrupts, and whether the busy time is another load's "
		    "(top, pidstat): then the traffic is light, not held back",
		    x->value, clock_time(a, sizeof a, r, m));
		break;
	case PCIBW_R_WRITE_SIZE:
		put(w, "a TCP message size is a write size, not a packet size: no packet rate to "
		       "set against the bus");
		break;
	case PCIBW_R_CPU_NOT_MEASURED:
		put(w, "no CPU was measured: give cpu_pct and per-core cpuN_pct (a single saturated "
		       "core hides in a low total)");
		break;
	case PCIBW_R_BUS_VIRTUAL:
		put(w, "a virtual NIC has no bus ceiling: the limit is the host's CPU or the "
		       "hypervisor's path");
		break;
	case PCIBW_R_BUS_NOT_GIVEN:
		put(w, "no bus given (--bus SPEC or a probed device): the bus ceiling is unknown");
		break;
	case PCIBW_R_NO_BUS_CEILING:
		put(w, "no bus ceiling at this size: %s", r->model_note);
		break;
	case PCIBW_R_LINE_RATE_NOT_GIVEN:
		put(w, "no line rate given (--line-rate): the wire ceiling is unknown");
		break;
	case PCIBW_R_NIC_PER_PACKET:
		below_list(list, sizeof list, v, k);
		put(w,
		    "none reached its threshold (%s): a per-packet limit of the NIC "
		    "(descriptor fetch, queue or firmware) is the likely one",
		    list);
		break;
	case PCIBW_R_NONE_AT_THRESHOLD:
		below_list(list, sizeof list, v, k);
		put(w,
		    "none reached its threshold (%s): check for a closed-loop benchmark, interrupt "
		    "moderation, a single queue, or device and driver state",
		    list);
		break;
	case PCIBW_R_TCP_WINDOW:
		below_list(list, sizeof list, v, k);
		tcp_window(w, x, mode == HEADLINE ? "" : list, r);
		break;
	case PCIBW_R_ALSO_LOADED:
		put(w, "also loaded (at least %s %% of its limit): ", pct(d, sizeof d, x->threshold));
		for (int i = 0; i < k; i++) {
			const char *what = v[i].resource == PCIBW_RES_WIRE  ? "the wire"
					   : v[i].resource == PCIBW_RES_BUS ? bus_name(m)
					   : v[i].resource == PCIBW_RES_CPU ? "the CPUs"
									    : "the busiest core";
			put(w, "%s%s %s %%", i ? ", " : "", what, pct(d, sizeof d, v[i].share));
		}
		break;
	case PCIBW_R_ASPM_IDLE_LINK: {
		static const char *const names[] = {"off", "L0s", "L1", "L0s and L1"};
		int st = (int)x->value;
		put(w,
		    "ASPM %s is on for the NIC's link and both the bus (%s %%) and the wire (%s %%) "
		    "are below %s %%: each wake from a low-power state costs its exit latency; "
		    "check with pcie_aspm=off on the kernel command line or "
		    "/sys/module/pcie_aspm/parameters/policy (performance)",
		    st >= 0 && st <= 3 ? names[st] : "?", pcibw_fmt_pct(a, sizeof a, x->share, x->threshold),
		    pcibw_fmt_pct(b, sizeof b, r->wire_util, x->threshold), pct(d, sizeof d, x->threshold));
		break;
	}
	case PCIBW_R_TCP_SEGMENTS:
		segments(w, r);
		break;
	case PCIBW_R_UDP_FRAGMENTS:
		put(w,
		    "%g B datagrams exceed the %g B MTU: each goes as %d IP fragments, so %s of "
		    "IP packets averaging %.0f B",
		    r->input_size_bytes, r->mtu, r->fragments, pcibw_fmt_pps(a, sizeof a, r->pps),
		    r->size_bytes);
		break;
	case PCIBW_R_TCP_WINDOW_SHARE:
		tcp_window_share(w, r);
		break;
	case PCIBW_R_CPU_FROM_REPORT:
		cpu_from(w, r);
		break;
	case PCIBW_R_CPU_PROCESS_LOWER_BOUND: {
		const char *src = r->cpu_from ? r->cpu_from->source : "the report";
		const char *base = strrchr(src, '/');
		put(w,
		    "iperf3's own CPU %s %% is its process's share of one core (a lower bound), not the "
		    "host's: the host's figures from %s override it, the busiest core the larger of the two "
		    "(%s %%)",
		    pct(a, sizeof a, x->share), base ? base + 1 : src, pct(b, sizeof b, r->core_util));
		break;
	}
	case PCIBW_R_CPU_REPORT_UNUSED: {
		const char *src = r->cpu_from_unused ? r->cpu_from_unused->source : "the report";
		const char *base = strrchr(src, '/');
		put(w,
		    "CPU from the row's own columns (the host's, as measured with it); %s's all CPUs %s %% "
		    "busy not used: of two host figures the row's own wins",
		    base ? base + 1 : src, pct(a, sizeof a, x->share));
		break;
	}
	case PCIBW_R_RATES_DISAGREE:
		rates_disagree(w, x, r);
		break;
	case PCIBW_R_ESTIMATE_EXCEEDED: {
		bool host = x->resource == PCIBW_RES_ROOT_COMPLEX;
		put(w,
		    "%.3g Gbit/s is above the %s limit (%.3g Gbit/s): %s, so the row is set "
		    "against the link alone (%.3g Gbit/s, %s)",
		    x->value, host ? "root complex's whole-cache-line" : x->name, x->ceiling,
		    host ? "this host moves partial cache lines faster than modelled"
			 : "the NIC profile underestimates this device",
		    r->bus_gbps, r->bound_by ? r->bound_by : "?");
		break;
	}
	default:
		put(w, "%s", pcibw_reason_code_name(x->code));
		break;
	}
}

static const char *dir_words(int pattern)
{
	/* both = echo/forward: rates are per direction */
	return pattern == PCIBW_PAT_BOTH ? " per direction" : "";
}

/* the headline: the whole input's verdict at its representative row, in plain words */
static void headline(struct out *w, const struct pcibw_reason *v, int k, const struct pcibw_rows *rs,
		     const struct pcibw_summary *s, const struct pcibw_machine *run)
{
	const struct pcibw_row *r = &rs->v[v[0].row];
	/* the words name the representative row's own bus */
	const struct pcibw_machine *m = machine_of(r, run);
	const char *bus = bus_name(m);
	char a[48], b[48], d[16], where[320];
	struct out wh = {where, sizeof where, 0};
	if (isnan(r->gbps))
		put(&wh, "%s%s", pcibw_fmt_pps(a, sizeof a, r->pps), dir_words(r->pattern));
	else if (!isnan(r->input_size_bytes) && r->input_size_bytes != r->size_bytes)
		/* the size the table and the headline show (a TCP write, a UDP datagram), then the
		 * packets it went as, which the ceilings are set at */
		put(&wh, "%s%s at %g B (%g B IP packets)", pcibw_fmt_gbps(a, sizeof a, r->gbps),
		    dir_words(r->pattern), r->input_size_bytes, r->size_bytes);
	else if (!isnan(r->size_bytes))
		put(&wh, "%s%s at %g B", pcibw_fmt_gbps(a, sizeof a, r->gbps), dir_words(r->pattern),
		    r->size_bytes);
	else
		put(&wh, "%s%s", pcibw_fmt_gbps(a, sizeof a, r->gbps), dir_words(r->pattern));
	/* which NIC the figure is of: a run over several interfaces would not say otherwise (a
	 * shared hop's bus name names it already) */
	if (r->iface[0] && !strstr(bus, r->iface))
		put(&wh, " on %s", r->iface);
	char busw[160] = "", wirew[64] = "";
	if (!isnan(r->bus_util))
		snprintf(busw, sizeof busw, "the %s is %s %% busy", bus, pct(d, sizeof d, r->bus_util));
	else if (m->bus_virtual)
		snprintf(busw, sizeof busw, "a virtual NIC has no bus ceiling");
	if (!isnan(r->wire_util))
		snprintf(wirew, sizeof wirew, "the wire %s %%", pct(d, sizeof d, r->wire_util));
	/* the row's reasons the headline carries (after the verdict reason itself); counters that
	 * disagree come first, before any verdict */
	int first = 1;
	if (k > 1 && v[1].code == PCIBW_R_COUNTERS_INCONSISTENT) {
		char cw[768];
		struct out co = {cw, sizeof cw, 0};
		counters_words(&co, &v[1]);
		cw[0] = (char)(cw[0] == 't' ? 'T' : cw[0]);
		put(w, "%s. ", cw);
		first = 2;
	}
	const struct pcibw_reason *why = k > first ? &v[first] : NULL;
	char whyw[1024] = "";
	struct out ww = {whyw, sizeof whyw, 0};
	if (why)
		row_line(&ww, why, k - first, r, m, HEADLINE);
	char col[256] = "";
	struct out cl = {col, sizeof col, 0};
	if (why)
		co_limit_words(&cl, why, k - first, m);
	switch (s->verdict) {
	case PCIBW_V_IMPOSSIBLE: {
		bool bus_side =
		    why ? why->resource == PCIBW_RES_BUS : r->bus_util > r->wire_util || isnan(r->wire_util);
		if (bus_side)
			put(w,
			    "Impossible: %s cannot have passed the %s (ceiling %s, %s %% needed); ask "
			    "which card and which direction the figure belongs to.",
			    where, bus, pcibw_fmt_gbps(b, sizeof b, r->bus_gbps),
			    pct(d, sizeof d, r->bus_util));
		else
			put(w,
			    "Impossible: %s is more than the %g Gbit/s wire carries (%s %% of it); check "
			    "the line rate and whether the figure adds both directions.",
			    where, m->line_rate_gbps, pct(d, sizeof d, r->wire_util));
		break;
	}
	case PCIBW_V_IO:
		put(w, "IO-bound: the %s is %s %% busy at %s (its ceiling %s)%s%s%s.", bus,
		    pct(d, sizeof d, r->bus_util), where, pcibw_fmt_gbps(b, sizeof b, r->bus_gbps),
		    wirew[0] ? "; " : "", wirew, col);
		break;
	case PCIBW_V_WIRE:
		if (why && why->code == PCIBW_R_GOODPUT_ABOVE_WIRE)
			put(w, "Wire-bound at %s: %s%s%s.", where, whyw, busw[0] ? "; " : "", busw);
		else
			put(w, "Wire-bound: the wire is %s%s %% full at %s%s%s%s.",
			    r->wire_lower_bound ? "at least " : "", pct(d, sizeof d, r->wire_util), where,
			    busw[0] ? "; " : "", busw, col);
		break;
	case PCIBW_V_CPU: {
		const char *cpu = whyw[0] ? whyw : "the CPU is the limit";
		if (m->bus_virtual && isnan(r->bus_util)) {
			/* no bus load to state: the rate and size belong to the verdict, not to the bus;
			 * the CPU-only reason states the wire itself */
			bool wire_said = !wirew[0] || (why && why->code == PCIBW_R_CPU_ONLY_LOADED);
			put(w, "CPU-bound at %s: %s; %s%s%s.", where, cpu, wire_said ? "" : wirew,
			    wire_said ? "" : ", ", busw);
		} else if (busw[0])
			put(w, "CPU-bound: %s at %s%s%s; %s.", busw, where, wirew[0] ? " and " : "", wirew,
			    cpu);
		else if (!isnan(r->wire_util))
			put(w, "CPU-bound: the wire is %s %% full at %s; %s.", pct(d, sizeof d, r->wire_util),
			    where, cpu);
		else
			put(w, "CPU-bound at %s: %s.", where, cpu);
		break;
	}
	default:
		put(w, "Undetermined at %s: %s.", where,
		    whyw[0] ? whyw : "neither bus, wire nor CPU shows a limit");
		break;
	}
	/* the cause with a fix the verdict's words did not give */
	for (int i = first + 1; i < k; i++)
		if ((v[i].code == PCIBW_R_LINK_DOWNGRADED || v[i].code == PCIBW_R_SHARED_HOP) &&
		    (!why || why->code != v[i].code)) {
			char lw[1024];
			struct out lo = {lw, sizeof lw, 0};
			row_line(&lo, &v[i], 1, r, m, HEADLINE);
			lw[0] = (char)(lw[0] == 't' ? 'T' : lw[0]);
			put(w, " %s.", lw);
		}
}

/* what most undetermined rows lack or found, in a few words (their first reason) */
static const char *undetermined_words(enum pcibw_reason_code c)
{
	switch (c) {
	case PCIBW_R_CPU_NOT_MEASURED:
		return "no CPU measured";
	case PCIBW_R_BUS_NOT_GIVEN:
		return "no bus given";
	case PCIBW_R_LINE_RATE_NOT_GIVEN:
		return "no line rate given";
	case PCIBW_R_NO_BUS_CEILING:
		return "no bus ceiling at their size";
	case PCIBW_R_WRITE_SIZE:
		return "TCP write sizes, no packet rate";
	case PCIBW_R_BUS_VIRTUAL:
		return "a virtual NIC, no bus ceiling";
	case PCIBW_R_NONE_AT_THRESHOLD:
		return "no load reached its threshold";
	case PCIBW_R_NIC_PER_PACKET:
	case PCIBW_R_RATE_FLAT_OVER_CORES:
		return "rate flat over cores, the NIC's per-packet limit";
	case PCIBW_R_TCP_WINDOW:
		return "the TCP window holds them";
	case PCIBW_R_ASPM_IDLE_LINK:
		return "ASPM on an idle link";
	case PCIBW_R_CORES_SWEEP_NOT_MEASURED:
		return "poll mode without a cores sweep";
	case PCIBW_R_COUNTERS_INCONSISTENT:
		return "counters that disagree";
	case PCIBW_R_LOOPBACK:
		return "loopback, no bus or wire";
	default:
		return pcibw_reason_code_name(c);
	}
}

/* "wire-bound in 1 of 4 rows (64 B); 3 undetermined: no CPU measured. ": a headline verdict
 * fewer than half of all rows hold says so before anything else */
static void minority(struct out *w, const struct pcibw_reason *x, const struct pcibw_rows *rs,
		     const struct pcibw_summary *s)
{
	if (!(x->value * 2 < x->ceiling))
		return;
	put(w, "%s in %.0f of %.0f rows", pcibw_verdict_name(s->verdict), x->value, x->ceiling);
	/* the sizes of the rows that hold it, in the table's order (at most 4) */
	int shown = 0, more = 0;
	double last = NAN;
	for (int i = 0; i < rs->n; i++) {
		const struct pcibw_row *r = &rs->v[i];
		double sz = !isnan(r->input_size_bytes) ? r->input_size_bytes : r->size_bytes;
		if (r->verdict != s->verdict || isnan(sz) || sz == last)
			continue;
		if (shown < 4)
			put(w, "%s%g", shown ? ", " : " (", sz);
		else
			more++;
		shown++;
		last = sz;
	}
	if (shown)
		put(w, "%s B)", more ? ", ..." : "");
	/* the other verdicts, undetermined last with what most of its rows lack */
	const char *sep = "; ";
	for (int v = 0; v < PCIBW_V_N; v++) {
		if (v == (int)s->verdict || !s->counts[v])
			continue;
		put(w, "%s%d %s", sep, s->counts[v], pcibw_verdict_name((enum pcibw_verdict)v));
		sep = ", ";
		if (v != PCIBW_V_UNDETERMINED)
			continue;
		int tally[PCIBW_R_N] = {0}, best = -1;
		for (int i = 0; i < rs->n; i++)
			if (rs->v[i].verdict == PCIBW_V_UNDETERMINED && rs->v[i].n_reasons) {
				int c = rs->v[i].reasons[0].code;
				if (++tally[c] > (best < 0 ? 0 : tally[best]))
					best = c;
			}
		if (best >= 0)
			put(w, ": %s", undetermined_words((enum pcibw_reason_code)best));
	}
	put(w, ". ");
}

/* "UDP_STREAM send: cpu-bound 1-1024 B, undetermined 1500-65507 B" */
static void series_bands(struct out *w, const struct pcibw_reason *x, const struct pcibw_rows *rs,
			 const struct pcibw_summary *s)
{
	bool sources = false;
	for (int g = 1; g < s->n_groups; g++)
		sources |=
		    strcmp(rs->v[s->groups[g].key_row].source, rs->v[s->groups[0].key_row].source) != 0;
	char label[200];
	int g0 = x->group, h = g0 + (int)x->value;
	pcibw_group_label(rs, &s->groups[g0], sources, label, sizeof label);
	put(w, "%s:", label);
	for (int k = g0; k < h && k < s->n_groups; k++) {
		const struct pcibw_group *gr = &s->groups[k];
		put(w, "%s %s", k > g0 ? "," : "", pcibw_verdict_name(gr->verdict));
		if (!isnan(gr->size_min) && gr->size_min == gr->size_max)
			put(w, " %g B", gr->size_min);
		else if (!isnan(gr->size_min))
			put(w, " %g-%g B", gr->size_min, gr->size_max);
	}
}

/* "eth0, eth1": the names of a line's idle-interface reasons */
static void names(char *buf, size_t n, const struct pcibw_reason *v, int k)
{
	struct out w = {buf, n, 0};
	buf[0] = '\0';
	for (int i = 0; i < k; i++)
		put(&w, "%s%s", i ? ", " : "", v[i].name);
}

static void summary_line(struct out *w, const struct pcibw_reason *v, int k, const struct pcibw_rows *rs,
			 const struct pcibw_summary *s, const struct pcibw_machine *m)
{
	const struct pcibw_reason *x = &v[0];
	char list[512];
	long iv = (long)x->value;
	switch (x->code) {
	case PCIBW_R_NO_ROWS:
		put(w, "Undetermined: no rows");
		break;
	case PCIBW_R_VERDICT:
		minority(w, x, rs, s);
		headline(w, v, k, rs, s, m);
		break;
	case PCIBW_R_ROWS_AGREE:
		put(w, "%.0f of %.0f rows %s%s", x->value, x->ceiling, pcibw_verdict_name(s->verdict),
		    s->verdict != PCIBW_V_UNDETERMINED && s->counts[PCIBW_V_UNDETERMINED]
			? " (undetermined rows do not vote)"
			: "");
		break;
	case PCIBW_R_SERIES_BANDS:
		series_bands(w, x, rs, s);
		break;
	case PCIBW_R_MORE_SERIES:
		put(w, "and %.0f more series (JSON groups)", x->value);
		break;
	case PCIBW_R_BUS_VIRTUAL:
		put(w, "a virtual NIC has no bus ceiling");
		break;
	case PCIBW_R_BUS_NOTE:
		put(w, "%s", m->bus_note);
		break;
	case PCIBW_R_NO_PACKETS:
		names(list, sizeof list, v, k);
		put(w,
		    "Undetermined: no packets on %s during %ld interval%s of %.3g s: nothing to set "
		    "against the bus, the wire or the CPU (is the traffic running, and on %s?)",
		    list, iv, iv == 1 ? "" : "s", x->span_s, k > 1 ? "these interfaces" : "this interface");
		break;
	case PCIBW_R_IFACE_IDLE:
		put(w, "idle: no packets on %s during %ld interval%s of %.3g s: left out of the verdict",
		    x->name, iv, iv == 1 ? "" : "s", x->span_s);
		break;
	default:
		/* a row's reason the summary carries on a line of its own */
		if (x->row >= 0 && x->row < rs->n)
			row_line(w, v, k, &rs->v[x->row], machine_of(&rs->v[x->row], m), ROW);
		else
			put(w, "%s", pcibw_reason_code_name(x->code));
		break;
	}
}

/* evidence[] from reasons v (lines by evidence_index, in order) */
static void word_list(char **ev, int *n_ev, const struct pcibw_reason *v, int n, const struct pcibw_rows *rs,
		      const struct pcibw_summary *s, const struct pcibw_row *r, const struct pcibw_machine *m)
{
	for (int i = 0; i < *n_ev; i++)
		free(ev[i]);
	*n_ev = 0;
	char buf[2048];
	for (int i = 0; i < n;) {
		int j = i + 1;
		while (j < n && v[j].evidence_index == v[i].evidence_index)
			j++;
		struct out w = {buf, sizeof buf, 0};
		buf[0] = '\0';
		if (r)
			row_line(&w, v + i, j - i, r, m, ROW);
		else
			summary_line(&w, v + i, j - i, rs, s, m);
		char *e = *n_ev < PCIBW_MAX_EVIDENCE ? strdup(buf) : NULL;
		if (e)
			ev[(*n_ev)++] = e;
		i = j;
	}
}

void pcibw_summary_words(const struct pcibw_rows *rs, const struct pcibw_machine *mach,
			 struct pcibw_summary *s)
{
	for (int g = 0; g < s->n_groups; g++) {
		struct pcibw_group *gr = &s->groups[g];
		const struct pcibw_row *r = &rs->v[gr->representative];
		word_list(gr->evidence, &gr->n_evidence, gr->reasons, gr->n_reasons, rs, s, r,
			  machine_of(r, mach));
	}
	word_list(s->evidence, &s->n_evidence, s->reasons, s->n_reasons, rs, s, NULL, mach);
}

void pcibw_verdict_words(struct pcibw_rows *rs, const struct pcibw_machine *mach, struct pcibw_summary *s)
{
	for (int i = 0; i < rs->n; i++) {
		struct pcibw_row *r = &rs->v[i];
		word_list(r->evidence, &r->n_evidence, r->reasons, r->n_reasons, rs, s, r,
			  machine_of(r, mach));
	}
	if (s)
		pcibw_summary_words(rs, mach, s);
}

const char *pcibw_iface_idle_words(const struct pcibw_reason *x, char *buf, size_t n)
{
	long iv = (long)x->value;
	if (isnan(x->span_s))
		snprintf(buf, n, "idle: no packets");
	else
		snprintf(buf, n, "idle: no packets on %s during %ld interval%s of %.3g s", x->name, iv,
			 iv == 1 ? "" : "s", x->span_s);
	return buf;
}

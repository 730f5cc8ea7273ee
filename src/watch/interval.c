/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One interval from two snapshots: rates per interface and direction, per-core CPU shares and
 * the flags. Pure: no I/O.
 *
 * CPU busy counts every non-idle field (user, nice, system, irq, softirq, steal): time a core
 * spent in interrupt and softirq context is time it could not spend on anything else, which a
 * low-priority soaker process cannot see. idle and iowait are the idle time (proc(5)).
 */
#include "pcibw/model.h"
#include "pcibw/watch.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pcibw_watch_interval_init(struct pcibw_watch_interval *iv, struct pcibw_err *err)
{
	memset(iv, 0, sizeof *iv);
	iv->core_busy = calloc(PCIBW_WATCH_MAX_CPUS, sizeof *iv->core_busy);
	return iv->core_busy ? PCIBW_OK : pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
}

void pcibw_watch_interval_free(struct pcibw_watch_interval *iv)
{
	free(iv->core_busy);
	iv->core_busy = NULL;
}

const char *pcibw_watch_flag_name(unsigned flag)
{
	static const char *const names[] = {
	    "hot-core", "one-queue", "drops",	     "irq-rate",   "squeeze",	  "no-irq-time",
	    "wrap",	"reset",     "vanished",     "renamed",	   "cpu-offline", "cpu-online",
	    "link",	"pci-stall", "pci-overflow", "pci-signal", "clock",
	};
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
		if (flag == 1u << i)
			return names[i];
	return "?";
}

static void note(struct pcibw_watch_interval *iv, unsigned flag, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note(struct pcibw_watch_interval *iv, unsigned flag, const char *fmt, ...)
{
	iv->flags |= flag;
	if (iv->n_notes >= PCIBW_WATCH_MAX_NOTES)
		return;
	va_list ap;
	va_start(ap, fmt);
	iv->note_flag[iv->n_notes] = flag;
	vsnprintf(iv->notes[iv->n_notes++], sizeof iv->notes[0], fmt, ap);
	va_end(ap);
}

enum delta_kind { D_OK, D_WRAP, D_RESET };

/* b - a for a counter; a counter that went back wrapped at 32 bits when a fitted 32 bits and
 * the wrapped distance is under 2^31 (the counter cannot have moved more than half its range
 * in one interval and still be read right), else it was reset. */
static enum delta_kind delta(uint64_t a, uint64_t b, uint64_t *d)
{
	if (b >= a) {
		*d = b - a;
		return D_OK;
	}
	if (a <= UINT32_MAX) {
		uint64_t w = b + (UINT64_C(1) << 32) - a;
		if (w < (UINT64_C(1) << 31) && b <= UINT32_MAX) {
			*d = w;
			return D_WRAP;
		}
	}
	return D_RESET;
}

static void cpus(const struct pcibw_watch_snap *a, const struct pcibw_watch_snap *b,
		 const struct pcibw_watch_limits *lim, struct pcibw_watch_interval *iv)
{
	int n = a->n_cpus > b->n_cpus ? a->n_cpus : b->n_cpus;
	double tot = 0, busy = 0, irq = 0, soft = 0, steal = 0;
	iv->busiest_cpu = -1;
	iv->busiest_busy = iv->busiest_irq = iv->busiest_softirq = NAN;
	iv->n_cpus = 0;
	uint64_t irq_ticks = 0;
	for (int i = 0; i < PCIBW_WATCH_MAX_CPUS; i++)
		iv->core_busy[i] = NAN;
	for (int i = 0; i < n; i++) {
		bool pa = i < a->n_cpus && a->cpu[i].present, pb = i < b->n_cpus && b->cpu[i].present;
		if (pa && !pb)
			note(iv, PCIBW_WF_CPU_OFFLINE, "CPU %d went offline: left out of this interval", i);
		if (!pa && pb)
			note(iv, PCIBW_WF_CPU_ONLINE, "CPU %d came online: counted from the next interval",
			     i);
		if (!pa || !pb)
			continue;
		uint64_t d[PCIBW_CPU_NFIELDS], t = 0;
		bool back = false;
		for (int k = 0; k < PCIBW_CPU_NFIELDS; k++) {
			if (b->cpu[i].t[k] < a->cpu[i].t[k])
				back = true;
			d[k] = b->cpu[i].t[k] - a->cpu[i].t[k];
			t += d[k];
		}
		if (back) {
			note(iv, PCIBW_WF_RESET, "CPU %d: its times went back (left out of this interval)",
			     i);
			continue;
		}
		if (t == 0)
			continue; /* no tick elapsed on it */
		double bz = (double)(t - d[PCIBW_CPU_IDLE] - d[PCIBW_CPU_IOWAIT]);
		iv->core_busy[i] = bz / (double)t;
		iv->n_cpus++;
		tot += (double)t;
		busy += bz;
		irq += (double)d[PCIBW_CPU_IRQ];
		irq_ticks += d[PCIBW_CPU_IRQ];
		soft += (double)d[PCIBW_CPU_SOFTIRQ];
		steal += (double)d[PCIBW_CPU_STEAL];
		if (iv->busiest_cpu < 0 || iv->core_busy[i] > iv->busiest_busy) {
			iv->busiest_cpu = i;
			iv->busiest_busy = iv->core_busy[i];
			iv->busiest_irq = (double)d[PCIBW_CPU_IRQ] / (double)t;
			iv->busiest_softirq = (double)d[PCIBW_CPU_SOFTIRQ] / (double)t;
		}
	}
	iv->cpu_busy = tot > 0 ? busy / tot : NAN;
	iv->cpu_irq = tot > 0 ? irq / tot : NAN;
	iv->cpu_softirq = tot > 0 ? soft / tot : NAN;
	iv->cpu_steal = tot > 0 ? steal / tot : NAN;
	if (iv->n_cpus > 1 && iv->busiest_busy >= lim->core && iv->cpu_busy < lim->idle)
		note(iv, PCIBW_WF_HOT_CORE,
		     "CPU %d is %.0f %% busy (irq %.0f %%, softirq %.0f %%) while all CPUs are %.0f %%",
		     iv->busiest_cpu, iv->busiest_busy * 100, iv->busiest_irq * 100,
		     iv->busiest_softirq * 100, iv->cpu_busy * 100);
	/* Without CONFIG_IRQ_TIME_ACCOUNTING (or with it off at run time) the irq field only gets
	 * the ticks that land inside a hard interrupt, which is almost never, so it reads zero
	 * whatever the load. 20000 interrupts of at least 1 us each are 20 ms: 2 ticks at
	 * USER_HZ 100, enough that a kernel which accounts irq time would show some. */
	uint64_t intr = 0, irq_boot = 0;
	if (b->intr_total >= a->intr_total)
		intr = b->intr_total - a->intr_total;
	for (int i = 0; i < b->n_cpus; i++)
		if (b->cpu[i].present)
			irq_boot += b->cpu[i].t[PCIBW_CPU_IRQ];
	if (irq_boot == 0 && b->intr_total >= 20000)
		note(iv, PCIBW_WF_NO_IRQTIME,
		     "irq time has read 0 since boot while %llu interrupts arrived: this kernel does not "
		     "account hard-irq time (CONFIG_IRQ_TIME_ACCOUNTING); irq share unknown, not 0",
		     (unsigned long long)b->intr_total);
	else if (irq_ticks == 0 && intr >= 20000)
		note(iv, PCIBW_WF_NO_IRQTIME,
		     "irq time reads 0 while %llu interrupts arrived: this kernel does not account "
		     "hard-irq time (CONFIG_IRQ_TIME_ACCOUNTING); irq share unknown, not 0",
		     (unsigned long long)intr);
	/* the NIC's interrupts per CPU */
	uint64_t sum = 0, best = 0;
	iv->irq_cpu_max = -1;
	iv->irq_cpu_max_share = NAN;
	for (int i = 0; i < n; i++) {
		uint64_t d;
		if (delta(a->irq_cpu[i], b->irq_cpu[i], &d) == D_RESET)
			continue;
		sum += d;
		if (d > best) {
			best = d;
			iv->irq_cpu_max = i;
		}
	}
	if (sum > 0)
		iv->irq_cpu_max_share = (double)best / (double)sum;
	/* softnet: 32-bit counters (unsigned int in struct softnet_data) */
	iv->squeeze_d = iv->softnet_drop_d = 0;
	for (int i = 0; i < n; i++) {
		if (!a->cpu[i].have_softnet || !b->cpu[i].have_softnet)
			continue;
		uint64_t d;
		if (delta(a->cpu[i].sn_squeeze, b->cpu[i].sn_squeeze, &d) != D_RESET)
			iv->squeeze_d += d;
		if (delta(a->cpu[i].sn_dropped, b->cpu[i].sn_dropped, &d) != D_RESET)
			iv->softnet_drop_d += d;
	}
	if (iv->squeeze_d)
		note(iv, PCIBW_WF_SQUEEZE, "softnet time_squeeze +%llu: NAPI polls ran out of budget or time",
		     (unsigned long long)iv->squeeze_d);
	if (iv->softnet_drop_d)
		note(iv, PCIBW_WF_DROPS, "softnet backlog dropped %llu packets",
		     (unsigned long long)iv->softnet_drop_d);
}

/* A counter delta, with wrap/reset stated; false when it cannot be used. */
static bool cdelta(const struct pcibw_watch_if *fa, const struct pcibw_watch_if *fb, int k,
		   struct pcibw_watch_interval *iv, double *out)
{
	static const char *const names[PCIBW_IF_NCOUNTERS] = {
	    "rx_bytes",	 "rx_packets", "rx_dropped", "rx_missed_errors", "rx_fifo_errors",
	    "rx_errors", "tx_bytes",   "tx_packets", "tx_dropped",	 "tx_errors",
	};
	if (!fa->have[k] || !fb->have[k])
		return false;
	uint64_t d;
	switch (delta(fa->c[k], fb->c[k], &d)) {
	case D_WRAP:
		note(iv, PCIBW_WF_WRAP, "%s %s wrapped at 2^32: counted across the wrap", fb->name, names[k]);
		break;
	case D_RESET:
		note(iv, PCIBW_WF_RESET,
		     "%s %s went back from %llu to %llu (counters reset): no rate this interval", fb->name,
		     names[k], (unsigned long long)fa->c[k], (unsigned long long)fb->c[k]);
		return false;
	case D_OK:
		break;
	}
	*out = (double)d;
	return true;
}

static void queues(const uint64_t *qa, const uint64_t *qb, int na, int nb, struct pcibw_watch_dir *d)
{
	d->q_active = -1;
	d->q_busiest = -1;
	d->q_share_max = NAN;
	int n = na < nb ? na : nb;
	if (n <= 0)
		return;
	uint64_t sum = 0, best = 0;
	d->q_active = 0;
	for (int q = 0; q < n; q++) {
		uint64_t x;
		if (delta(qa[q], qb[q], &x) == D_RESET)
			continue;
		sum += x;
		if (x)
			d->q_active++;
		if (x > best) {
			best = x;
			d->q_busiest = q;
		}
	}
	if (sum)
		d->q_share_max = (double)best / (double)sum;
}

static void direction(const struct pcibw_watch_if *fa, const struct pcibw_watch_if *fb, bool rx, double dt,
		      double line_gbps, struct pcibw_watch_interval *iv, struct pcibw_watch_dir *d)
{
	int kb = rx ? PCIBW_IF_RX_BYTES : PCIBW_IF_TX_BYTES,
	    kp = rx ? PCIBW_IF_RX_PACKETS : PCIBW_IF_TX_PACKETS;
	double bytes, pk, x;
	d->pps = d->gbps = d->avg_bytes = d->frame_bytes = d->drops_ps = d->wire_util = NAN;
	if (cdelta(fa, fb, kb, iv, &bytes) && cdelta(fa, fb, kp, iv, &pk)) {
		d->pps = pk / dt;
		d->gbps = bytes * 8 / dt / 1e9;
		if (pk > 0) {
			d->avg_bytes = bytes / pk;
			d->frame_bytes = d->avg_bytes + 4;
			if (line_gbps > 0)
				d->wire_util = d->pps * pcibw_wire_bytes(fmax(d->frame_bytes, 64)) * 8 /
					       (line_gbps * 1e9);
		} else if (line_gbps > 0) {
			d->wire_util = 0;
		}
	}
	double drops = 0;
	bool any = false;
	int ks[3] = {rx ? PCIBW_IF_RX_DROPPED : PCIBW_IF_TX_DROPPED, rx ? PCIBW_IF_RX_MISSED : -1,
		     rx ? PCIBW_IF_RX_FIFO : -1};
	for (int i = 0; i < 3; i++)
		if (ks[i] >= 0 && cdelta(fa, fb, ks[i], iv, &x)) {
			drops += x;
			any = true;
		}
	if (any) {
		d->drops_ps = drops / dt;
		if (drops > 0)
			note(iv, PCIBW_WF_DROPS, "%s %s: %.0f packets dropped or missed", fb->name,
			     rx ? "rx" : "tx", drops);
	}
	if (rx)
		queues(fa->q_rx, fb->q_rx, fa->n_q_rx, fb->n_q_rx, d);
	else
		queues(fa->q_tx, fb->q_tx, fa->n_q_tx, fb->n_q_tx, d);
	if (d->q_active == 1 && (rx ? fb->n_q_rx : fb->n_q_tx) > 1 && d->pps >= 1000)
		note(iv, PCIBW_WF_ONE_QUEUE,
		     "%s %s: all packets on queue %d of %d (one core does the work: RSS, RPS or "
		     "the flow hash)",
		     fb->name, rx ? "rx" : "tx", d->q_busiest, rx ? fb->n_q_rx : fb->n_q_tx);
}

static void nic_bus(const struct pcibw_watch_if *fa, const struct pcibw_watch_if *fb,
		    struct pcibw_watch_interval *iv, struct pcibw_watch_ifiv *o)
{
	o->stalled_rd_pct = fb->have_ns[PCIBW_NS_STALLED_RD] ? (double)fb->ns[PCIBW_NS_STALLED_RD] : NAN;
	o->stalled_wr_pct = fb->have_ns[PCIBW_NS_STALLED_WR] ? (double)fb->ns[PCIBW_NS_STALLED_WR] : NAN;
	o->overflow_d = o->signal_d = NAN;
	uint64_t d;
	if (fa->have_ns[PCIBW_NS_BUFFER_OVERFLOW] && fb->have_ns[PCIBW_NS_BUFFER_OVERFLOW] &&
	    delta(fa->ns[PCIBW_NS_BUFFER_OVERFLOW], fb->ns[PCIBW_NS_BUFFER_OVERFLOW], &d) != D_RESET)
		o->overflow_d = (double)d;
	double sig = 0;
	bool any = false;
	for (int k = PCIBW_NS_RX_SIGNAL; k <= PCIBW_NS_TX_SIGNAL; k++)
		if (fa->have_ns[k] && fb->have_ns[k] && delta(fa->ns[k], fb->ns[k], &d) != D_RESET) {
			sig += (double)d;
			any = true;
		}
	if (any)
		o->signal_d = sig;
	double st = fmax(isnan(o->stalled_rd_pct) ? 0 : o->stalled_rd_pct,
			 isnan(o->stalled_wr_pct) ? 0 : o->stalled_wr_pct);
	if (st >= 1)
		note(iv, PCIBW_WF_PCI_STALL,
		     "%s stalled on PCIe credits %.0f %% (reads) / %.0f %% (writes) of the last second "
		     "(outbound_pci_stalled_rd/_wr)",
		     fb->name, isnan(o->stalled_rd_pct) ? 0 : o->stalled_rd_pct,
		     isnan(o->stalled_wr_pct) ? 0 : o->stalled_wr_pct);
	if (o->overflow_d > 0)
		note(iv, PCIBW_WF_PCI_OVERFLOW,
		     "%s dropped %.0f packets on PCIe buffer overflow (outbound_pci_buffer_overflow): "
		     "receive traffic exceeds what the bus takes",
		     fb->name, o->overflow_d);
	if (o->signal_d > 0)
		note(iv, PCIBW_WF_PCI_SIGNAL,
		     "%s: %.0f PCIe link recoveries on signal integrity errors (rx/tx_pci_signal_integrity): "
		     "check the slot and riser",
		     fb->name, o->signal_d);
}

void pcibw_watch_interval(const struct pcibw_watch_snap *a, const struct pcibw_watch_snap *b, double t0,
			  const struct pcibw_watch_ifinfo *info, const struct pcibw_watch_limits *lim,
			  struct pcibw_watch_interval *iv)
{
	iv->flags = 0;
	iv->n_notes = 0;
	iv->t = b->t - t0;
	iv->dt = b->t - a->t;
	iv->n_ifs = b->n_ifs;
	if (!(iv->dt > 0)) {
		note(iv, PCIBW_WF_CLOCK, "the clock did not advance between samples (%.9f s): no rates",
		     iv->dt);
		iv->dt = NAN;
	}
	cpus(a, b, lim, iv);
	for (int i = 0; i < b->n_ifs; i++) {
		const struct pcibw_watch_if *fa = &a->ifs[i], *fb = &b->ifs[i];
		struct pcibw_watch_ifiv *o = &iv->ifs[i];
		memset(o, 0, sizeof *o);
		snprintf(o->name, sizeof o->name, "%s", fb->name);
		o->present = fb->present;
		o->speed_mbps = fb->speed_mbps;
		o->link_gts = fb->link_gts;
		o->link_width = fb->link_width;
		o->irq_ps = NAN;
		o->vec_active = -1;
		struct pcibw_watch_dir *dirs[2] = {&o->rx, &o->tx};
		for (int k = 0; k < 2; k++) {
			dirs[k]->pps = dirs[k]->gbps = dirs[k]->avg_bytes = dirs[k]->frame_bytes = NAN;
			dirs[k]->drops_ps = dirs[k]->wire_util = dirs[k]->q_share_max = NAN;
			dirs[k]->q_active = dirs[k]->q_busiest = -1;
		}
		o->stalled_rd_pct = o->stalled_wr_pct = o->overflow_d = o->signal_d = NAN;
		if (fa->present && !fb->present) {
			note(iv, PCIBW_WF_VANISHED,
			     "%s disappeared (its device was removed or its driver unbound)", fb->name);
			continue;
		}
		if (!fa->present && fb->present) {
			note(iv, PCIBW_WF_VANISHED, "%s is back: counted from the next interval", fb->name);
			continue;
		}
		if (!fb->present)
			continue;
		if (fb->renamed[0] && strcmp(fa->renamed, fb->renamed))
			note(iv, PCIBW_WF_RENAMED, "%s is now called %s (same ifindex %d): still counted",
			     fb->name, fb->renamed, fb->ifindex);
		if (fa->ifindex >= 0 && fb->ifindex >= 0 && fa->ifindex != fb->ifindex) {
			note(iv, PCIBW_WF_RESET,
			     "%s is a new interface (ifindex %d, was %d): counted from the next "
			     "interval",
			     fb->name, fb->ifindex, fa->ifindex);
			continue;
		}
		if (isnan(iv->dt))
			continue;
		bool spd =
		    !(isnan(fa->speed_mbps) && isnan(fb->speed_mbps)) && fa->speed_mbps != fb->speed_mbps;
		bool pci = (!(isnan(fa->link_gts) && isnan(fb->link_gts)) && fa->link_gts != fb->link_gts) ||
			   fa->link_width != fb->link_width;
		if (spd)
			note(iv, PCIBW_WF_LINK, "%s link speed changed: %.0f -> %.0f Mbit/s", fb->name,
			     fa->speed_mbps, fb->speed_mbps);
		if (pci)
			note(iv, PCIBW_WF_LINK, "%s PCIe link changed: %.1f GT/s x%d -> %.1f GT/s x%d",
			     fb->name, fa->link_gts, fa->link_width, fb->link_gts, fb->link_width);
		double line = info && info[i].line_rate_gbps > 0 ? info[i].line_rate_gbps
			      : fb->speed_mbps > 0		 ? fb->speed_mbps / 1000
								 : 0;
		direction(fa, fb, true, iv->dt, line, iv, &o->rx);
		direction(fa, fb, false, iv->dt, line, iv, &o->tx);
		o->valid = !isnan(o->rx.pps) || !isnan(o->tx.pps);
		uint64_t d;
		if (fa->n_vec == fb->n_vec && delta(fa->irq_total, fb->irq_total, &d) != D_RESET) {
			o->irq_ps = (double)d / iv->dt;
			o->vec_active = 0;
			for (int v = 0; v < fb->n_vec; v++)
				if (fb->irq_vec[v] != fa->irq_vec[v])
					o->vec_active++;
			double pps = (isnan(o->rx.pps) ? 0 : o->rx.pps) + (isnan(o->tx.pps) ? 0 : o->tx.pps);
			if (pps >= 1000 && o->irq_ps >= lim->irq_ratio * pps)
				note(iv, PCIBW_WF_IRQ_RATE,
				     "%s: %.0f interrupts/s for %.0f packets/s (%.2f per packet): little "
				     "interrupt moderation or coalescing",
				     fb->name, o->irq_ps, pps, o->irq_ps / pps);
		}
		nic_bus(fa, fb, iv, o);
	}
}

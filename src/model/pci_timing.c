/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bus clocks of one conventional PCI or PCI-X transaction (rules: pci_timing.h; defaults and
 * their calibration: doc/model-pci.md).
 */
#include "pci_timing.h"
#include <math.h>

int pcibw_pci_cacheline_bytes(const struct pcibw_bus *bus)
{
	/* PCI LB 3.0 sec. 6.2.4: a device that does not support the value programmed into Cache
	 * Line Size behaves as if it were 0, i.e. uses no cache-line commands; MRL/MRM need a
	 * power-of-two line, and x86 lines are 32-128 B. 0 (never programmed) or an unsupported
	 * value: the 64 B of a --bus spec. */
	int c = bus->cacheline_bytes;
	if (c >= 16 && c <= 512 && (c & (c - 1)) == 0)
		return c;
	return 64;
}

void pcibw_pci_timing_defaults(const struct pcibw_bus *bus, int segment_devices, struct pcibw_pci_timing *t)
{
	bool x = bus->kind == PCIBW_BUS_PCIX;
	bool shared = segment_devices > 1;
	*t = (struct pcibw_pci_timing){0};
	t->pcix = x;
	t->clock_hz = pcibw_pci_clock_hz(bus->clock_mhz);
	t->bytes_per_clock =
	    bus->width_bits / 8 * (bus->transfers_per_clock > 0 ? bus->transfers_per_clock : 1);
	/* PCI 2.3 sec. 3.4.3: with no other request the arbiter parks GNT# on the last master,
	 * which starts without arbitrating; a second device (or the host bridge, for register
	 * access and split completions) needs GNT# moved: one clock from GNT# to FRAME#. */
	t->dev_arb_clocks = shared ? 1 : 0;
	t->host_arb_clocks = 1;
	t->addr_clocks = 1;
	t->dac_clocks = bus->addr32 ? 0 : 1; /* PCI 2.3 sec. 3.9: DAC = two address phases */
	t->attr_clocks = x ? 1 : 0;	     /* PCI-X: attribute phase after every address */
	/* PCI: medium DEVSEL# (clock 3 of fast/medium/slow 2/3/4); PCI-X: decode B. */
	t->decode_clocks = x ? 2 : 1;
	/* PCI: one wait state before TRDY# while the target allocates a posted-write buffer;
	 * PCI-X targets take write data at DEVSEL# (PCI-X Addendum 1.0a: wait states only before
	 * the first data phase), so a PCI-X write costs O = 5: address, attribute, decode 2, idle. */
	t->write_wait_clocks = x ? 0 : 1;
	t->read_ta_clocks = x ? 0 : 1; /* PCI 2.3 sec. 3.3.1; PCI-X: in the attribute phase */
	t->turnaround_clocks = 1;
	t->stop_clocks = 1;
	/* PCI 2.3 sec. 3.3.3.2.2: a retried master releases REQ# for two clocks, one of them the
	 * idle clock that ends the attempt. */
	t->req_gap_clocks = 1;
	t->split_resp_clocks = 1;
	/* PCI 2.3 sec. 3.5.1.1 (and the PCI-X Addendum): first data within 16 clocks of FRAME#.
	 * We assume a register read takes all of them: with host_path_ns this gives 744 ns on
	 * PCI 33, between mmio_test's 8254x CTRL (708 ns) and ICR (875 ns) reads. */
	t->target_latency_clocks = 16;
	/* mmio_test (Olsson & Welte 2005): an uncached read of host memory takes 490 cycles at
	 * 2.4 GHz = 204 ns. We use it both for the CPU's path to the segment's bridge and for the
	 * memory fetch behind a delayed read or split request; with it, case C (a GbE NIC on
	 * PCI 33/32 at 80 MiB/s) lands at 92.7-96.3 % of the modelled ceiling (doc/model-pci.md). */
	t->mem_latency_ns = bus->mem_latency_ns > 0 ? bus->mem_latency_ns : 204.0;
	t->host_path_ns = 204.0;
	/* each PCI-PCI bridge on the path holds a read command as a delayed transaction of its
	 * own; no datasheet in hand gives its turnaround, so without bridge_ns a bridge adds none
	 * (doc/model-pci.md "The host path") */
	t->bridge_ns = bus->bridges > 0 && bus->bridge_ns > 0 ? bus->bridges * bus->bridge_ns : 0;
	t->prefetch_bytes = bus->prefetch_bytes;
	/* The device's Cache Line Size register (bus->cacheline_bytes: config 0x0c from a probed
	 * device, 64 B for a --bus spec); PI7C8140A table 2-4: MRL prefetches to the cache line
	 * boundary, MRM to the second one. */
	t->cacheline_bytes = pcibw_pci_cacheline_bytes(bus);
	t->mrm_lines = 2;
	t->adb_bytes = 128;	  /* PCI-X Addendum: ADB every 128 bytes */
	t->boundary_bytes = 4096; /* bursts stop at 4 KB (PI7C8140A table 2-3) */
	t->latency_timer = bus->latency_timer;
	/* PCI 2.3 sec. 3.5.4: the timer ends a burst only once GNT# is taken away, i.e. when
	 * another master waits: count it when other devices share the segment. */
	t->lt_cuts = shared;
	/* Intel 41210 manual: completions disconnect at the next ADB when the buffer runs dry;
	 * we assume the completer forwards memory data one ADB at a time (the conservative case:
	 * 1024 B at MMRBC 512 reads at 0.719 of the bus). */
	t->cpl_adb_disconnect = true;
	t->mmrbc_bytes = bus->mmrbc_bytes;
	t->splits = bus->splits;
}

static double data_clocks(const struct pcibw_pci_timing *t, double bytes)
{
	return ceil(bytes / t->bytes_per_clock - 1e-9);
}

static double pieces(double bytes, double chunk)
{
	return ceil(bytes / chunk - 1e-9);
}

/* Bytes a burst may carry before the latency timer ends it; pre = clocks before data. */
static double lt_chunk(const struct pcibw_pci_timing *t, int pre, bool adb)
{
	double left = t->latency_timer - pre;
	if (!adb) /* PCI: the data phases that fit in the timer, at least one */
		return (left < 1 ? 1 : left) * t->bytes_per_clock;
	/* PCI-X: the initiator carries on to the next ADB after the timer expires */
	double b = (left < 0 ? 0 : left) * t->bytes_per_clock;
	double c = ceil(b / t->adb_bytes) * t->adb_bytes;
	return c < t->adb_bytes ? t->adb_bytes : c;
}

/* n bursts carrying bytes in chunks: each pays its fixed clocks plus its data phases. A
 * transfer starting off_bytes into a page is cut at chunk-aligned addresses, and its first and
 * last data phases carry only the bytes of the transfer (byte enables). */
static double bursts_at(const struct pcibw_pci_timing *t, long off_bytes, double bytes, double chunk,
			double fixed, int *n)
{
	if (off_bytes <= 0) {
		double k = pieces(bytes, chunk);
		double last = bytes - (k - 1) * chunk;
		*n = (int)k;
		return k * fixed + (k - 1) * data_clocks(t, chunk) + data_clocks(t, last);
	}
	long c = (long)chunk, w = t->bytes_per_clock, a = off_bytes, end = off_bytes + (long)ceil(bytes);
	double clocks = 0;
	*n = 0;
	for (long p = a; p < end;) {
		long e = (p / c + 1) * c < end ? (p / c + 1) * c : end;
		/* the data phases of [p, e) on a bus w bytes wide */
		clocks += fixed + (double)((e - 1) / w - p / w + 1);
		(*n)++;
		p = e;
	}
	return clocks;
}

static double bursts(const struct pcibw_pci_timing *t, double bytes, double chunk, double fixed, int *n)
{
	return bursts_at(t, t->offset_bytes, bytes, chunk, fixed, n);
}

struct pcibw_pci_xfer pcibw_pci_dma_write(const struct pcibw_pci_timing *t, double bytes)
{
	struct pcibw_pci_xfer r = {0};
	if (!(bytes > 0))
		return r;
	int pre = t->addr_clocks + t->dac_clocks + t->attr_clocks + t->decode_clocks + t->write_wait_clocks;
	double chunk = t->boundary_bytes;
	if (t->lt_cuts) {
		double c = lt_chunk(t, pre, t->pcix);
		chunk = c < chunk ? c : chunk;
	}
	r.clocks = bursts(t, bytes, chunk, t->dev_arb_clocks + pre + t->turnaround_clocks, &r.transactions);
	return r;
}

/* Retried attempts until the bridge has the data: the first attempt is always retried (it
 * only queues the request); the master comes back every attempt + REQ# gap. */
static int delayed_retries(const struct pcibw_pci_timing *t, int attempt)
{
	double period_ns = (attempt + t->req_gap_clocks) * 1e9 / t->clock_hz;
	double k = period_ns > 0 ? ceil(t->mem_latency_ns / period_ns - 1e-9) : 1;
	return k < 1 ? 1 : (int)k;
}

static struct pcibw_pci_xfer pci_delayed_read(const struct pcibw_pci_timing *t, double bytes)
{
	struct pcibw_pci_xfer r = {0};
	int pre = t->addr_clocks + t->dac_clocks + t->read_ta_clocks + t->decode_clocks;
	/* MRL for a cache line or less, MRM beyond: what one delayed completion returns */
	double mrm = t->prefetch_bytes > 0 ? t->prefetch_bytes : (double)t->cacheline_bytes * t->mrm_lines;
	double chunk = bytes <= t->cacheline_bytes ? t->cacheline_bytes : mrm;
	if (chunk > t->boundary_bytes)
		chunk = t->boundary_bytes;
	if (t->lt_cuts) {
		double c = lt_chunk(t, pre, false);
		chunk = c < chunk ? c : chunk;
	}
	int attempt = t->dev_arb_clocks + pre + t->stop_clocks + t->turnaround_clocks;
	int k = delayed_retries(t, attempt);
	/* retried until the bridges' share has passed too */
	if (t->bridge_ns > 0) {
		struct pcibw_pci_timing u = *t;
		u.mem_latency_ns += t->bridge_ns;
		k = delayed_retries(&u, attempt);
	}
	r.clocks =
	    bursts(t, bytes, chunk, (double)k * attempt + t->dev_arb_clocks + pre + t->turnaround_clocks,
		   &r.transactions);
	r.retries = k * r.transactions;
	return r;
}

static int split_request_clocks(const struct pcibw_pci_timing *t)
{
	return t->dev_arb_clocks + t->addr_clocks + t->dac_clocks + t->attr_clocks + t->decode_clocks +
	       t->split_resp_clocks + t->turnaround_clocks;
}

/* Completions of one request of rb bytes: the completer addresses the requester by its ID in a
 * single address phase (no DAC). */
static double completion_clocks(const struct pcibw_pci_timing *t, double rb, int *n)
{
	int pre = t->addr_clocks + t->attr_clocks + t->decode_clocks;
	double chunk = t->cpl_adb_disconnect ? t->adb_bytes : rb;
	if (t->lt_cuts) {
		double c = lt_chunk(t, pre, true);
		chunk = c < chunk ? c : chunk;
	}
	return bursts(t, rb, chunk, t->host_arb_clocks + pre + t->turnaround_clocks, n);
}

static double request_bytes(const struct pcibw_pci_timing *t)
{
	double m = t->mmrbc_bytes > 0 ? t->mmrbc_bytes : 512;
	return m < t->boundary_bytes ? m : t->boundary_bytes;
}

static struct pcibw_pci_xfer pcix_split_read(const struct pcibw_pci_timing *t, double bytes)
{
	struct pcibw_pci_xfer r = {0};
	double m = request_bytes(t);
	double nreq = pieces(bytes, m);
	r.requests = (int)nreq;
	r.clocks = nreq * split_request_clocks(t);
	r.transactions = r.requests;
	for (int i = 0; i < r.requests; i++) {
		double rb = i + 1 < r.requests ? m : bytes - (nreq - 1) * m;
		int n;
		struct pcibw_pci_timing u = *t; /* request i starts i x MMRBC further on */
		u.offset_bytes = t->offset_bytes > 0 ? t->offset_bytes + i * (int)m : 0;
		r.clocks += completion_clocks(&u, rb, &n);
		r.transactions += n;
	}
	return r;
}

struct pcibw_pci_xfer pcibw_pci_dma_read(const struct pcibw_pci_timing *t, double bytes)
{
	if (!(bytes > 0))
		return (struct pcibw_pci_xfer){0};
	return t->pcix ? pcix_split_read(t, bytes) : pci_delayed_read(t, bytes);
}

struct pcibw_pci_xfer pcibw_pci_mmio_write(const struct pcibw_pci_timing *t, double bytes)
{
	struct pcibw_pci_xfer r = {0};
	if (!(bytes > 0))
		return r;
	r.clocks = t->host_arb_clocks + t->addr_clocks + t->attr_clocks + t->decode_clocks +
		   t->write_wait_clocks + data_clocks(t, bytes) + t->turnaround_clocks;
	r.transactions = 1;
	return r;
}

struct pcibw_pci_xfer pcibw_pci_mmio_read(const struct pcibw_pci_timing *t, double bytes)
{
	struct pcibw_pci_xfer r = {0};
	if (!(bytes > 0))
		return r;
	/* no target answers before its decode; none may take longer than its initial latency */
	int first = t->addr_clocks + t->attr_clocks + t->read_ta_clocks + t->decode_clocks + 1;
	if (t->target_latency_clocks > first)
		first = t->target_latency_clocks;
	r.clocks = t->host_arb_clocks + first + (data_clocks(t, bytes) - 1) + t->turnaround_clocks;
	r.transactions = 1;
	return r;
}

double pcibw_pci_mmio_stall_ns(const struct pcibw_pci_timing *t, double bytes)
{
	return t->host_path_ns + pcibw_pci_mmio_read(t, bytes).clocks * 1e9 / t->clock_hz;
}

double pcibw_pcix_read_time_ns(const struct pcibw_pci_timing *t, double bytes)
{
	if (!t->pcix || !(bytes > 0))
		return 0;
	double m = request_bytes(t), ns_per_clock = 1e9 / t->clock_hz;
	double nreq = pieces(bytes, m), total = 0;
	for (int i = 0; i < (int)nreq; i++) {
		double rb = i + 1 < (int)nreq ? m : bytes - (nreq - 1) * m;
		int n;
		struct pcibw_pci_timing u = *t;
		u.offset_bytes = t->offset_bytes > 0 ? t->offset_bytes + i * (int)m : 0;
		total += (split_request_clocks(&u) + completion_clocks(&u, rb, &n)) * ns_per_clock +
			 t->mem_latency_ns + t->bridge_ns;
	}
	return total / (t->splits > 0 ? t->splits : 1);
}

double pcibw_pci_bridge_hop_ns(const struct pcibw_pci_timing *t)
{
	double ns_per_clock = 1e9 / t->clock_hz;
	if (t->pcix) {
		int n;
		return (split_request_clocks(t) + completion_clocks(t, t->adb_bytes, &n)) * ns_per_clock;
	}
	double mrm = t->prefetch_bytes > 0 ? t->prefetch_bytes : (double)t->cacheline_bytes * t->mrm_lines;
	int pre = t->dev_arb_clocks + t->addr_clocks + t->dac_clocks + t->read_ta_clocks + t->decode_clocks;
	return (pre + data_clocks(t, mrm) + t->turnaround_clocks) * ns_per_clock;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One check per PCI / PCI-X mechanism, on single transactions (src/model/pci_timing.c).
 * Expected clocks are hand sums of the per-transaction rule with the defaults documented in
 * pcibw_pci_timing_defaults() and doc/model-pci.md:
 *   PCI:   device arbitration 0 alone (bus parked) / 1 shared, host bridge 1, address 1, DAC 1,
 *          medium DEVSEL 1, write wait 1, read turnaround 1, STOP 1, idle 1, REQ# gap 1,
 *          memory latency 204 ns, cache line 64 B, MRM 2 lines, latency timer 64.
 *   PCI-X: the same arbitration, address 1, DAC 1, attribute 1, decode B 2, write wait 0,
 *          split response 1, idle 1, ADB 128 B, completions disconnect at every ADB.
 * Never values printed by pcibw.
 */
#include "src/model/pci_timing.h"
#include <criterion/criterion.h>
#include <math.h>

static struct pcibw_bus bus_of(enum pcibw_bus_kind kind, int mhz, int width, int tpc)
{
	return (struct pcibw_bus){.kind = kind,
				  .clock_mhz = mhz,
				  .width_bits = width,
				  .transfers_per_clock = tpc,
				  .mmrbc_bytes = 512,
				  .splits = 1,
				  .latency_timer = 64};
}

static struct pcibw_pci_timing timing(struct pcibw_bus b, int devices)
{
	struct pcibw_pci_timing t;
	pcibw_pci_timing_defaults(&b, devices, &t);
	return t;
}

Test(pci_timing, nominal_clocks)
{
	/* PCI 2.3 sec. 4.2.3.1: 33.33 / 66.67 MHz; PCI-X 133.33 MHz */
	cr_assert_float_eq(pcibw_pci_clock_hz(33), 100e6 / 3, 1e-3);
	cr_assert_float_eq(pcibw_pci_clock_hz(66), 200e6 / 3, 1e-3);
	cr_assert_float_eq(pcibw_pci_clock_hz(100), 100e6, 1e-3);
	cr_assert_float_eq(pcibw_pci_clock_hz(133), 400e6 / 3, 1e-3);
}

Test(pci_timing, dual_address_cycle)
{
	/* PCI 33/32, one device, 64 B posted write: address 1 + DAC 1 + medium decode 1 +
	 * wait 1 + 16 data phases + idle 1 = 21; addr32 drops the DAC: 20. */
	struct pcibw_bus b = bus_of(PCIBW_BUS_PCI, 33, 32, 1);
	struct pcibw_pci_timing t = timing(b, 1);
	cr_assert_eq(pcibw_pci_dma_write(&t, 64).clocks, 21);
	b.addr32 = true;
	t = timing(b, 1);
	cr_assert_eq(pcibw_pci_dma_write(&t, 64).clocks, 20);
	/* a register write by the CPU never needs DAC (BARs below 4 GB): host arbitration 1 +
	 * address 1 + decode 1 + wait 1 + 1 data + idle 1 = 6 either way */
	cr_assert_eq(pcibw_pci_mmio_write(&t, 4).clocks, 6);
}

Test(pci_timing, attribute_phase)
{
	/* PCI-X 133/64, 16 B descriptor read. Request: address 1 + DAC 1 + attribute 1 + decode 2
	 * + split response 1 + idle 1 = 7. Completion: host arbitration 1 + address 1 + attribute 1
	 * + decode 2 + 2 data + idle 1 = 8. Total 15; without the attribute phase both lose one: 13. */
	struct pcibw_pci_timing t = timing(bus_of(PCIBW_BUS_PCIX, 133, 64, 1), 1);
	struct pcibw_pci_xfer x = pcibw_pci_dma_read(&t, 16);
	cr_assert_eq(x.clocks, 15);
	cr_assert_eq(x.requests, 1);
	t.attr_clocks = 0;
	cr_assert_eq(pcibw_pci_dma_read(&t, 16).clocks, 13);
	/* conventional PCI has none: a 64 B write on 64-bit PCI 66 is address 1 + DAC 1 +
	 * decode 1 + wait 1 + 8 + idle 1 = 13, one clock less than PCI-X's 1+1+1+2+0+8+1 = 14 */
	struct pcibw_pci_timing p = timing(bus_of(PCIBW_BUS_PCI, 66, 64, 1), 1);
	cr_assert_eq(p.attr_clocks, 0);
	cr_assert_eq(pcibw_pci_dma_write(&p, 64).clocks, 13);
	t = timing(bus_of(PCIBW_BUS_PCIX, 133, 64, 1), 1);
	cr_assert_eq(pcibw_pci_dma_write(&t, 64).clocks, 14);
}

Test(pci_timing, delayed_read_retry)
{
	/* PCI 33/32, 16 B (Memory Read Line, one cache line). Attempt: address 1 + DAC 1 + read
	 * turnaround 1 + decode 1 + STOP 1 + idle 1 = 6; the master returns every 6 + 1 (REQ# gap)
	 * = 7 clocks = 210 ns; 204 ns of memory latency -> ceil(204/210) = 1 retried attempt.
	 * Then the read itself: 4 + 4 data + idle 1 = 9. Total 15. */
	struct pcibw_pci_timing t = timing(bus_of(PCIBW_BUS_PCI, 33, 32, 1), 1);
	struct pcibw_pci_xfer x = pcibw_pci_dma_read(&t, 16);
	cr_assert_eq(x.retries, 1);
	cr_assert_eq(x.clocks, 15);
	/* 500 ns of latency: ceil(500/210) = 3 attempts: 18 + 9 = 27 */
	t.mem_latency_ns = 500;
	x = pcibw_pci_dma_read(&t, 16);
	cr_assert_eq(x.retries, 3);
	cr_assert_eq(x.clocks, 27);
	/* at 66 MHz the 7-clock period is 105 ns: ceil(204/105) = 2 attempts: 12 + 9 = 21 */
	t = timing(bus_of(PCIBW_BUS_PCI, 66, 32, 1), 1);
	x = pcibw_pci_dma_read(&t, 16);
	cr_assert_eq(x.retries, 2);
	cr_assert_eq(x.clocks, 21);
}

Test(pci_timing, mrl_and_mrm_prefetch)
{
	/* PI7C8140A table 2-4: a delayed read returns up to the cache line (MRL, 64 B) or the
	 * second cache line (MRM, 128 B). PCI 33/32: 64 B -> one delayed read: 6 + 4 + 16 + 1 = 27;
	 * 256 B -> two MRM reads of 128 B: 2 x (6 + 4 + 32 + 1) = 86; 1514 B -> 12 reads
	 * (11 x 128 + 106): 12 x 11 + 11 x 32 + 27 = 511. */
	struct pcibw_pci_timing t = timing(bus_of(PCIBW_BUS_PCI, 33, 32, 1), 1);
	struct pcibw_pci_xfer x = pcibw_pci_dma_read(&t, 64);
	cr_assert_eq(x.transactions, 1);
	cr_assert_eq(x.clocks, 27);
	x = pcibw_pci_dma_read(&t, 256);
	cr_assert_eq(x.transactions, 2);
	cr_assert_eq(x.clocks, 86);
	x = pcibw_pci_dma_read(&t, 1514);
	cr_assert_eq(x.transactions, 12);
	cr_assert_eq(x.clocks, 511);
}

Test(pci_timing, latency_timer_cut)
{
	/* PCI 33/32 with a second device waiting (arbitration 1, the timer ends bursts): the
	 * 64-clock timer leaves 64 - 4 (address, DAC, decode, wait) = 60 data phases = 240 B per
	 * burst. 1024 B -> 5 bursts (4 x 240 + 64): 5 x (1 + 4 + 1) + 4 x 60 + 16 = 286.
	 * Alone (bus parked, no cut): 4 + 256 + 1 = 261. */
	struct pcibw_bus b = bus_of(PCIBW_BUS_PCI, 33, 32, 1);
	struct pcibw_pci_timing t = timing(b, 2);
	struct pcibw_pci_xfer x = pcibw_pci_dma_write(&t, 1024);
	cr_assert_eq(x.transactions, 5);
	cr_assert_eq(x.clocks, 286);
	t = timing(b, 1);
	cr_assert_eq(pcibw_pci_dma_write(&t, 1024).clocks, 261);
	/* latency_timer=32: 28 phases = 112 B: 10 bursts (9 x 112 + 16): 60 + 9 x 28 + 4 = 316 */
	b.latency_timer = 32;
	t = timing(b, 2);
	x = pcibw_pci_dma_write(&t, 1024);
	cr_assert_eq(x.transactions, 10);
	cr_assert_eq(x.clocks, 316);
	/* PCI-X 133/64: 64 - 5 = 59 clocks = 472 B, carried on to the next ADB = 512 B:
	 * 1024 B -> 2 bursts of 1 + 5 + 64 + 1 = 142 */
	t = timing(bus_of(PCIBW_BUS_PCIX, 133, 64, 1), 2);
	x = pcibw_pci_dma_write(&t, 1024);
	cr_assert_eq(x.transactions, 2);
	cr_assert_eq(x.clocks, 142);
}

Test(pci_timing, mmrbc_512_vs_4096)
{
	/* PCI-X 133/64, 1024 B read, one device. Request 7 clocks; completions of one ADB:
	 * 1 + 1 + 1 + 2 + 16 + 1 = 22. MMRBC 512: 2 requests + 8 completions = 14 + 176 = 190.
	 * MMRBC 4096: 1 request + 8 completions = 183. */
	struct pcibw_bus b = bus_of(PCIBW_BUS_PCIX, 133, 64, 1);
	struct pcibw_pci_timing t = timing(b, 1);
	struct pcibw_pci_xfer x = pcibw_pci_dma_read(&t, 1024);
	cr_assert_eq(x.requests, 2);
	cr_assert_eq(x.clocks, 190);
	/* the device's own time in its reads, one split at a time (7.5 ns clocks): per request
	 * (7 + 88) x 7.5 + 204 = 916.5 ns; two of them 1833 ns; with 2 splits in flight 916.5 */
	cr_assert_float_eq(pcibw_pcix_read_time_ns(&t, 1024), 1833.0, 1e-6);
	b.splits = 2;
	t = timing(b, 1);
	cr_assert_float_eq(pcibw_pcix_read_time_ns(&t, 1024), 916.5, 1e-6);
	b.splits = 1;
	b.mmrbc_bytes = 4096;
	t = timing(b, 1);
	x = pcibw_pci_dma_read(&t, 1024);
	cr_assert_eq(x.requests, 1);
	cr_assert_eq(x.clocks, 183);
	/* one request: (7 + 176) x 7.5 + 204 = 1576.5 ns */
	cr_assert_float_eq(pcibw_pcix_read_time_ns(&t, 1024), 1576.5, 1e-6);
}

Test(pci_timing, split_completion_adb_disconnects)
{
	/* PCI-X 133/64, 512 B read at MMRBC 512: request 7 + four 128 B completions of 22 = 95
	 * (5 transactions); one completion for the whole request: 7 + (1 + 4 + 64 + 1) = 77. */
	struct pcibw_pci_timing t = timing(bus_of(PCIBW_BUS_PCIX, 133, 64, 1), 1);
	struct pcibw_pci_xfer x = pcibw_pci_dma_read(&t, 512);
	cr_assert_eq(x.transactions, 5);
	cr_assert_eq(x.clocks, 95);
	t.cpl_adb_disconnect = false;
	x = pcibw_pci_dma_read(&t, 512);
	cr_assert_eq(x.transactions, 2);
	cr_assert_eq(x.clocks, 77);
}

Test(pci_timing, ddr_qdr_data_phases)
{
	/* PCI-X 2.0: 266 and 533 move 2 and 4 transfers of 8 B per 133 MHz clock; address and
	 * attribute phases stay one clock. 1024 B write, one device: 5 + 1024/8 + 1 = 134 (133),
	 * 5 + 64 + 1 = 70 (266), 5 + 32 + 1 = 38 (533). */
	struct pcibw_pci_timing t = timing(bus_of(PCIBW_BUS_PCIX, 133, 64, 1), 1);
	cr_assert_eq(pcibw_pci_dma_write(&t, 1024).clocks, 134);
	t = timing(bus_of(PCIBW_BUS_PCIX, 133, 64, 2), 1);
	cr_assert_eq(t.bytes_per_clock, 16);
	cr_assert_eq(pcibw_pci_dma_write(&t, 1024).clocks, 70);
	t = timing(bus_of(PCIBW_BUS_PCIX, 133, 64, 4), 1);
	cr_assert_eq(t.bytes_per_clock, 32);
	cr_assert_eq(pcibw_pci_dma_write(&t, 1024).clocks, 38);
	/* a 128 B completion at 533: 1 + 1 + 1 + 2 + 4 + 1 = 10, request 7: 17 */
	cr_assert_eq(pcibw_pci_dma_read(&t, 128).clocks, 17);
}

Test(pci_timing, register_read_stall)
{
	/* A register read holds the bus from FRAME# to its first data (16 clocks, PCI 2.3
	 * sec. 3.5.1.1) plus host arbitration 1 and idle 1 = 18 clocks; the CPU waits for that
	 * and for its own path (204 ns): PCI 33: 204 + 18 x 30 = 744 ns; PCI-X 133: 204 + 135 = 339. */
	struct pcibw_pci_timing t = timing(bus_of(PCIBW_BUS_PCI, 33, 32, 1), 1);
	cr_assert_eq(pcibw_pci_mmio_read(&t, 4).clocks, 18);
	cr_assert_float_eq(pcibw_pci_mmio_stall_ns(&t, 4), 744.0, 1e-6);
	t = timing(bus_of(PCIBW_BUS_PCIX, 133, 64, 1), 1);
	cr_assert_eq(pcibw_pci_mmio_read(&t, 4).clocks, 18);
	cr_assert_float_eq(pcibw_pci_mmio_stall_ns(&t, 4), 339.0, 1e-6);
}

Test(pci_timing, four_kb_boundary)
{
	/* No burst crosses 4 KB (PI7C8140A table 2-3): an 8192 B write alone on PCI 33/32 is two
	 * bursts of 4 + 1024 + 1 = 2058 clocks; a PCI-X read at MMRBC 4096 is two requests. */
	struct pcibw_pci_timing t = timing(bus_of(PCIBW_BUS_PCI, 33, 32, 1), 1);
	struct pcibw_pci_xfer x = pcibw_pci_dma_write(&t, 8192);
	cr_assert_eq(x.transactions, 2);
	cr_assert_eq(x.clocks, 2058);
	struct pcibw_bus b = bus_of(PCIBW_BUS_PCIX, 133, 64, 1);
	b.mmrbc_bytes = 4096;
	t = timing(b, 1);
	cr_assert_eq(pcibw_pci_dma_read(&t, 8192).requests, 2);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixed-overhead checks, reproduced by the transaction accounting of src/model/pci_timing.c
 * when its per-transaction costs are set to fixed overheads O (clocks per transaction; PCI LB
 * 3.0 ch. 3: address, DEVSEL# decode, wait states, turnaround; PCI-X Addendum 1.0a: plus the
 * attribute phase, split completions and 128 B ADBs):
 *   efficiency = b / (W x (ceil(b/W) + O)) for one transaction of b bytes on a bus of W bytes
 *             per clock (the table below is that formula's arithmetic, rounded to 3 decimals);
 *   PCI-X 133/64 read efficiency, request O = 5 and completion O = 5, MMRBC 512/4096,
 *             with and without 128 B completion disconnects (the same arithmetic per chunk);
 *   the worked motivating example (UDP echo of 1024 B payload, 1070 B frames, e1000 legacy
 *             16 B descriptors): PCI 33/32 writes O = 6, reads O = 10 -> 600 clocks per echoed
 *             packet (55,550 pps); PCI-X 133/64 O = 5, MMRBC 512 -> 341 clocks (about 391 k pps).
 * If the accounting changes, these change only together with the documented defaults.
 */
#include "src/model/pci_timing.h"
#include <criterion/criterion.h>
#include <math.h>

/* A timing with nothing but an address phase and an idle clock; tests add what they need. */
static struct pcibw_pci_timing bare(bool pcix, int bytes_per_clock, double hz)
{
	return (struct pcibw_pci_timing){.pcix = pcix,
					 .clock_hz = hz,
					 .bytes_per_clock = bytes_per_clock,
					 .addr_clocks = 1,
					 .turnaround_clocks = 1,
					 .cacheline_bytes = 4096,
					 .mrm_lines = 1,
					 .adb_bytes = 128,
					 .boundary_bytes = 4096,
					 .latency_timer = 64,
					 .mmrbc_bytes = 512,
					 .splits = 1};
}

/* The efficiency table: rows b = 16..1500, columns (W,O) = (4,2) (8,2) (4,4) (8,4) (4,6) (8,6)
 * (4,8) (8,8). */
static const double sizes[] = {16, 64, 128, 256, 512, 1024, 1500};
static const int cols[8][2] = {{4, 2}, {8, 2}, {4, 4}, {8, 4}, {4, 6}, {8, 6}, {4, 8}, {8, 8}};
static const double table[7][8] = {
    {0.667, 0.500, 0.500, 0.333, 0.400, 0.250, 0.333, 0.200},
    {0.889, 0.800, 0.800, 0.667, 0.727, 0.571, 0.667, 0.500},
    {0.941, 0.889, 0.889, 0.800, 0.842, 0.727, 0.800, 0.667},
    {0.970, 0.941, 0.941, 0.889, 0.914, 0.842, 0.889, 0.800},
    {0.985, 0.970, 0.970, 0.941, 0.955, 0.914, 0.941, 0.889},
    {0.992, 0.985, 0.985, 0.970, 0.977, 0.955, 0.970, 0.941},
    {0.995, 0.987, 0.989, 0.977, 0.984, 0.966, 0.979, 0.957},
};

Test(pci_overheads, efficiency_table)
{
	for (int c = 0; c < 8; c++) {
		struct pcibw_pci_timing t = bare(false, cols[c][0], 100e6 / 3);
		/* O = address 1 + idle 1, then DAC, decode, wait and arbitration up to 8 */
		int extra = cols[c][1] - 2;
		t.dac_clocks = extra >= 1;
		t.decode_clocks = extra >= 2;
		t.write_wait_clocks = extra >= 3 ? extra - 2 : 0;
		for (int r = 0; r < 7; r++) {
			struct pcibw_pci_xfer x = pcibw_pci_dma_write(&t, sizes[r]);
			double eff = sizes[r] / (cols[c][0] * x.clocks);
			cr_assert_eq(x.transactions, 1);
			cr_assert(fabs(eff - table[r][c]) <= 0.0005 + 1e-12,
				  "b=%g W=%d O=%d: %.4f, expected %.3f", sizes[r], cols[c][0], cols[c][1],
				  eff, table[r][c]);
		}
	}
}

/* PCI-X request O = 5: address, attribute, decode, split response, idle; completion O = 5:
 * host arbitration, address, attribute, decode, idle. */
static struct pcibw_pci_timing pcix_o5(int mmrbc, bool adb)
{
	struct pcibw_pci_timing t = bare(true, 8, 400e6 / 3);
	t.attr_clocks = 1;
	t.decode_clocks = 1;
	t.split_resp_clocks = 1;
	t.host_arb_clocks = 1;
	t.write_wait_clocks = 1; /* writes: address, attribute, decode, wait, idle = 5 too */
	t.mmrbc_bytes = mmrbc;
	t.cpl_adb_disconnect = adb;
	return t;
}

static double read_eff(int mmrbc, bool adb, double b)
{
	struct pcibw_pci_timing t = pcix_o5(mmrbc, adb);
	return b / (8 * pcibw_pci_dma_read(&t, b).clocks);
}

Test(pci_overheads, pcix_read_efficiency)
{
	const struct {
		int mmrbc;
		bool adb;
		double b, eff;
	} v[] = {
	    {512, false, 64, 0.444},	{512, false, 256, 0.762},  {512, false, 512, 0.865},
	    {512, false, 1024, 0.865},	{512, false, 1500, 0.860}, {4096, false, 1024, 0.928},
	    {4096, false, 1500, 0.947}, {512, true, 1024, 0.719},  {4096, true, 1500, 0.741},
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		double e = read_eff(v[i].mmrbc, v[i].adb, v[i].b);
		cr_assert(fabs(e - v[i].eff) <= 0.0005 + 1e-12, "MMRBC %d adb %d b %g: %.4f, expected %.3f",
			  v[i].mmrbc, v[i].adb, v[i].b, e, v[i].eff);
	}
}

/* One echoed packet of the worked example: RX = 16 B descriptor read, 1070 B write, 16 B
 * write-back; TX = 16 B descriptor read, 1070 B read, 16 B write-back. */
static double echo_clocks(const struct pcibw_pci_timing *t)
{
	return 2 * pcibw_pci_dma_read(t, 16).clocks + pcibw_pci_dma_write(t, 1070).clocks +
	       pcibw_pci_dma_read(t, 1070).clocks + 2 * pcibw_pci_dma_write(t, 16).clocks;
}

Test(pci_overheads, worked_example_pci33)
{
	/* writes O = 6: arbitration, address, decode, 2 wait, idle. Reads O = 10: one retried
	 * attempt (arbitration, address, read turnaround, decode, idle = 5) and the read (5). */
	struct pcibw_pci_timing t = bare(false, 4, 100e6 / 3);
	t.dev_arb_clocks = 1;
	t.decode_clocks = 1;
	t.write_wait_clocks = 2;
	t.read_ta_clocks = 1;
	t.mem_latency_ns = 0; /* the first attempt is retried all the same */
	cr_assert_eq(pcibw_pci_dma_write(&t, 1070).clocks, 268 + 6);
	cr_assert_eq(pcibw_pci_dma_read(&t, 1070).clocks, 268 + 10);
	/* 298 for RX + 302 for TX */
	cr_assert_eq(echo_clocks(&t), 600);
	double pps = t.clock_hz / echo_clocks(&t);
	cr_assert(fabs(pps - 55550) / 55550 < 1e-3, "%g pps", pps);
	/* 455 Mb/s of 1024 B UDP payload per direction */
	cr_assert(fabs(pps * 1024 * 8 / 1e6 - 455) < 1, "%g Mb/s", pps * 1024 * 8 / 1e6);
}

Test(pci_overheads, worked_example_pcix133)
{
	struct pcibw_pci_timing t = pcix_o5(512, false);
	/* 158 clocks for RX + 183 for TX */
	cr_assert_eq(pcibw_pci_dma_read(&t, 16).clocks + pcibw_pci_dma_write(&t, 1070).clocks +
			 pcibw_pci_dma_write(&t, 16).clocks,
		     158);
	cr_assert_eq(echo_clocks(&t), 341);
	/* 2.56 us per echoed packet; about 391 k pps; 67,139 pps (550 Mb/s of 1024 B payload)
	 * keep the bus about 17 % busy */
	double ns = echo_clocks(&t) * 1e9 / t.clock_hz;
	cr_assert(fabs(ns - 2557.5) < 0.01, "%g ns", ns);
	cr_assert(fabs(t.clock_hz / echo_clocks(&t) - 391e3) < 1e3);
	cr_assert(fabs(67139 * ns * 1e-9 - 0.17) < 0.005);
}

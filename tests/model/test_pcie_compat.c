/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --compat pcie-bench reproduces pcie-bench's pcie-model. Expected values: tables A and B and
 * TLP_bw as printed by pcie-model at commit 40703cf (doc/sources/pcie-model.md). Table A is given to 4
 * decimals: 1e-3 relative. Table B is printed to 2 decimals: 1e-3 relative or the half-unit of the last
 * printed digit (0.005 Gbit/s), whichever is larger.
 */
#include "model_helpers.h"

static const char *const profiles[3] = {"simple", "kernel-82599", "dpdk"};
static const double sizes[6] = {64, 128, 256, 512, 1024, 1500};

/* Table A, size = bytes handed to the model (--size-is dma). Columns: MWr, MRd, MRd+MWr, then
 * simple bi/tx/rx, kern bi/tx/rx, dpdk bi/tx/rx ("tx" = NIC transmits, pcie-model DIR_RX). */
static const double table_a[6][12] = {
    {42.0980, 44.1027, 33.0770, 13.2308, 21.5385, 20.5813, 18.4356, 24.1344, 28.0919, 21.5135, 36.1868,
     28.9424},
    {48.7451, 50.0625, 42.0980, 21.5385, 31.3951, 30.3658, 27.9647, 34.0655, 37.8264, 31.3685, 44.5334,
     38.5898},
    {52.9232, 53.6902, 48.7451, 31.3951, 40.7102, 39.8347, 37.7109, 42.8900, 45.7538, 40.6878, 50.3389,
     46.3078},
    {52.9232, 53.6902, 50.7483, 39.4109, 46.3078, 45.4555, 44.0404, 47.6862, 49.0780, 46.0059, 51.9606,
     49.3950},
    {52.9232, 53.6902, 50.7483, 44.3668, 49.7265, 48.9059, 47.1570, 50.5104, 50.9281, 48.2609, 52.8112,
     51.0983},
    {52.8146, 53.5970, 50.5986, 46.0866, 50.8356, 50.0156, 48.1050, 51.3922, 51.4417, 48.8837, 52.9959,
     51.5601},
};
/* Table A in nic_bw.py's convention: frame S, model called with S - 4; the rate counts S - 4. */
static const double table_a_frame[6][12] = {
    {41.3463, 43.4136, 32.1582, 12.5836, 20.6731, 19.7334, 17.6344, 23.2313, 27.1600, 20.6485, 35.3046,
     28.0088},
    {48.4980, 49.8452, 41.7309, 21.1109, 30.9384, 29.9071, 27.5061, 33.6193, 37.4083, 30.9118, 44.2045,
     38.1793},
    {52.8513, 53.6285, 48.6232, 31.1687, 40.5193, 39.6385, 37.5034, 42.7144, 45.6021, 40.4968, 50.2349,
     46.1613},
    {52.8875, 53.6596, 50.6991, 39.3121, 46.2350, 45.3788, 43.9576, 47.6202, 49.0193, 45.9317, 51.9187,
     49.3380},
    {52.9054, 53.6750, 50.7238, 44.3262, 49.6990, 48.8762, 47.1228, 50.4852, 50.9042, 48.2294, 52.7931,
     51.0748},
    {52.8022, 53.5864, 50.5815, 46.0615, 50.8190, 49.9975, 48.0833, 51.3768, 51.4264, 48.8633, 52.9839,
     51.5450},
};

static void column(int c, const char **nic, enum pcibw_pattern *p)
{
	static const enum pcibw_pattern dma[3] = {PCIBW_PAT_DMA_WRITE, PCIBW_PAT_DMA_READ, PCIBW_PAT_DMA_RW};
	static const enum pcibw_pattern nicp[3] = {PCIBW_PAT_BOTH, PCIBW_PAT_TX, PCIBW_PAT_RX};
	if (c < 3) {
		*nic = "simple";
		*p = dma[c];
	} else {
		*nic = profiles[(c - 3) / 3];
		*p = nicp[(c - 3) % 3];
	}
}

Test(pcie_compat, table_a_dma_sizes)
{
	struct pcibw_bus b = parse_bus("gen3x8,mps=256,mrrs=512,rcb=64");
	for (int c = 0; c < 12; c++) {
		const char *name;
		enum pcibw_pattern p;
		column(c, &name, &p);
		struct pcibw_nic n = load_nic(name);
		for (int i = 0; i < 6; i++) {
			struct pcibw_model_row r =
			    eval(&b, &n, p, PCIBW_SIZE_DMA, PCIBW_COMPAT_PCIE_BENCH, sizes[i]);
			assert_rel(r.bus_gbps, table_a[i][c], 1e-3,
				   "col %d (%s %s) size %g: %.4f, oracle %.4f", c, name,
				   pcibw_pattern_name(p), sizes[i], r.bus_gbps, table_a[i][c]);
		}
	}
}

Test(pcie_compat, table_a_frame_sizes)
{
	struct pcibw_bus b = parse_bus("gen3x8,mps=256");
	for (int c = 0; c < 12; c++) {
		const char *name;
		enum pcibw_pattern p;
		column(c, &name, &p);
		struct pcibw_nic n = load_nic(name);
		for (int i = 0; i < 6; i++) {
			struct pcibw_model_row r =
			    eval(&b, &n, p, PCIBW_SIZE_FRAME, PCIBW_COMPAT_PCIE_BENCH, sizes[i]);
			/* pcibw counts frame bytes (contract); pcie-model counted the S - 4 it DMA'd */
			double dma_gbps = r.bus_mpps * 1e6 * 8 * (sizes[i] - 4) / 1e9;
			assert_rel(dma_gbps, table_a_frame[i][c], 1e-3, "col %d size %g: %.4f vs %.4f", c,
				   sizes[i], dma_gbps, table_a_frame[i][c]);
			assert_rel(r.bus_gbps, dma_gbps * sizes[i] / (sizes[i] - 4), 1e-12,
				   "frame convention");
		}
	}
}

/* Table B: MWr | MRd | MRd+MWr | simple bi | kernel bi | DPDK bi, sizes 64..1500. */
static const struct {
	const char *spec;
	double v[6][6];
} table_b[] = {
    {"gen3x8,mps=128",
     {{41.21, 43.17, 32.38, 12.95, 18.05, 21.06},
      {47.72, 49.01, 41.21, 21.08, 27.38, 30.71},
      {47.72, 49.01, 44.23, 29.25, 34.79, 37.37},
      {47.72, 49.01, 45.91, 36.27, 40.24, 41.91},
      {47.72, 49.01, 45.91, 40.52, 42.89, 43.82},
      {47.54, 48.85, 45.70, 41.91, 43.61, 44.27}}},
    {"gen3x8,mps=256,ecrc",
     {{40.27, 42.10, 30.87, 11.87, 16.96, 20.04},
      {47.50, 48.75, 40.27, 19.71, 26.24, 29.77},
      {52.18, 52.92, 47.50, 29.40, 36.11, 39.32},
      {52.18, 52.92, 49.73, 37.61, 42.68, 44.84},
      {52.18, 52.92, 49.73, 42.83, 45.93, 47.16},
      {52.05, 52.81, 49.56, 44.66, 46.92, 47.79}}},
    {"gen3x8,mps=256,addr32",
     {{44.10, 44.10, 35.62, 14.47, 19.71, 23.23},
      {50.06, 50.06, 44.10, 23.15, 29.40, 33.15},
      {53.69, 53.69, 50.06, 33.08, 39.00, 42.16},
      {53.69, 53.69, 51.81, 40.94, 45.18, 47.23},
      {53.69, 53.69, 51.81, 45.74, 48.27, 49.42},
      {53.60, 53.60, 51.68, 47.39, 49.22, 50.03}}},
    {"gen3x8,mps=256,rcb=64,rcb_chunks",
     {{42.10, 44.10, 33.08, 13.23, 18.44, 21.51},
      {48.75, 44.10, 42.10, 21.54, 26.38, 31.37},
      {52.92, 44.10, 44.10, 28.94, 33.01, 37.54},
      {52.92, 44.10, 44.10, 34.95, 37.76, 40.56},
      {52.92, 44.10, 44.10, 39.00, 40.69, 42.26},
      {52.81, 43.85, 43.85, 40.27, 41.49, 42.59}}},
    {"gen1x1,mps=128",
     {{1.35, 1.42, 1.06, 0.43, 0.59, 0.69},
      {1.57, 1.61, 1.35, 0.69, 0.90, 1.01},
      {1.57, 1.61, 1.45, 0.96, 1.14, 1.23},
      {1.57, 1.61, 1.51, 1.19, 1.32, 1.38},
      {1.57, 1.61, 1.51, 1.33, 1.41, 1.44},
      {1.56, 1.60, 1.50, 1.38, 1.43, 1.45}}},
    {"gen1x4,mps=128",
     {{4.53, 4.74, 3.56, 1.42, 1.98, 2.31},
      {5.24, 5.38, 4.53, 2.32, 3.01, 3.37},
      {5.24, 5.38, 4.86, 3.21, 3.82, 4.11},
      {5.24, 5.38, 5.04, 3.98, 4.42, 4.61},
      {5.24, 5.38, 5.04, 4.45, 4.71, 4.81},
      {5.22, 5.37, 5.02, 4.60, 4.79, 4.86}}},
    {"gen1x4,mps=256",
     {{5.01, 5.25, 3.94, 1.58, 2.20, 2.56},
      {5.81, 5.96, 5.01, 2.57, 3.33, 3.74},
      {6.30, 6.39, 5.81, 3.74, 4.49, 4.85},
      {6.30, 6.39, 6.04, 4.69, 5.25, 5.48},
      {6.30, 6.39, 6.04, 5.28, 5.62, 5.75},
      {6.29, 6.38, 6.03, 5.49, 5.73, 5.82}}},
    {"gen2x4,mps=256",
     {{10.50, 11.00, 8.25, 3.30, 4.60, 5.37},
      {12.16, 12.49, 10.50, 5.37, 6.98, 7.83},
      {13.21, 13.40, 12.16, 7.83, 9.41, 10.15},
      {13.21, 13.40, 12.66, 9.83, 10.99, 11.48},
      {13.21, 13.40, 12.66, 11.07, 11.77, 12.04},
      {13.18, 13.37, 12.63, 11.50, 12.00, 12.20}}},
    {"gen3x16,mps=256",
     {{82.69, 86.63, 64.97, 25.99, 36.21, 42.26},
      {95.75, 98.34, 82.69, 42.31, 54.93, 61.62},
      {103.95, 105.46, 95.75, 61.67, 74.07, 79.92},
      {103.95, 105.46, 99.68, 77.41, 86.51, 90.37},
      {103.95, 105.46, 99.68, 87.15, 92.63, 94.80},
      {103.74, 105.28, 99.39, 90.53, 94.49, 96.02}}},
};

Test(pcie_compat, table_b)
{
	static const char *nic[6] = {"simple", "simple", "simple", "simple", "kernel-82599", "dpdk"};
	static const enum pcibw_pattern pat[6] = {PCIBW_PAT_DMA_WRITE, PCIBW_PAT_DMA_READ, PCIBW_PAT_DMA_RW,
						  PCIBW_PAT_BOTH,      PCIBW_PAT_BOTH,	   PCIBW_PAT_BOTH};
	for (unsigned k = 0; k < sizeof table_b / sizeof table_b[0]; k++) {
		struct pcibw_bus b = parse_bus(table_b[k].spec);
		for (int c = 0; c < 6; c++) {
			struct pcibw_nic n = load_nic(nic[c]);
			for (int i = 0; i < 6; i++) {
				double want = table_b[k].v[i][c];
				struct pcibw_model_row r =
				    eval(&b, &n, pat[c], PCIBW_SIZE_DMA, PCIBW_COMPAT_PCIE_BENCH, sizes[i]);
				double tol = fmax(1e-3 * want, 0.005 + 1e-9);
				cr_assert(fabs(r.bus_gbps - want) <= tol, "%s col %d size %g: %.4f vs %.2f",
					  table_b[k].spec, c, sizes[i], r.bus_gbps, want);
			}
		}
	}
}

/* TLP_bw (doc/sources/pcie-model.md): the MWr ceiling at a size that is a whole number of MPS-sized TLPs
 * is TLP_bw x S/(S + n x 24), so TLP_bw = MWr x (S + n x 24) / S. */
Test(pcie_compat, tlp_bw_oracle)
{
	static const struct {
		const char *spec;
		double tlp_bw;
	} o[] = {
	    {"gen1x1,mps=128", 1.8598},	   {"gen1x1,mps=256", 1.9179},	  {"gen1x1,mps=512", 1.9376},
	    {"gen1x8,mps=128", 12.1375},   {"gen1x8,mps=256", 13.5659},	  {"gen1x8,mps=512", 12.9816},
	    {"gen2x8,mps=256", 28.6763},   {"gen3x4,mps=512", 29.4093},	  {"gen3x8,mps=128", 56.6659},
	    {"gen3x8,mps=256", 57.8848},   {"gen3x8,mps=512", 57.3117},	  {"gen3x16,mps=512", 114.6234},
	    {"gen4x16,mps=128", 223.3991}, {"gen4x16,mps=256", 227.4001}, {"gen4x16,mps=512", 229.2467},
	};
	struct pcibw_nic n = load_nic("simple");
	for (unsigned i = 0; i < sizeof o / sizeof o[0]; i++) {
		struct pcibw_bus b = parse_bus(o[i].spec);
		double s = 4096, tlps = 4096.0 / b.mps_bytes;
		struct pcibw_model_row r =
		    eval(&b, &n, PCIBW_PAT_DMA_WRITE, PCIBW_SIZE_DMA, PCIBW_COMPAT_PCIE_BENCH, s);
		double tlp_bw = r.bus_gbps * (s + tlps * 24) / s;
		assert_rel(tlp_bw, o[i].tlp_bw, 1e-4, "%s: TLP_bw %.4f, oracle %.4f", o[i].spec, tlp_bw,
			   o[i].tlp_bw);
	}
}

/* The 40GbE crossing points (doc/sources/pcie-model.md, table A) are pcie-bench's own slip (frame + 16 B on
 * the wire), so they are checked against its line-rate column, not against pcibw's wire: the last frame size
 * whose NIC ceiling is still below eth.bps_ex(S - 4) = 40e9 x (S - 4)/(S + 16). */
Test(pcie_compat, last_frame_below_40g_pciebench_wire)
{
	static const struct {
		const char *nic;
		int last;
	} o[] = {{"simple", 583}, {"kernel-82599", 299}, {"dpdk", 181}};
	struct pcibw_bus b = parse_bus("gen3x8,mps=256");
	for (int k = 0; k < 3; k++) {
		struct pcibw_nic n = load_nic(o[k].nic);
		int last = 0;
		for (int s = 64; s < 1500; s++) {
			struct pcibw_model_row r =
			    eval(&b, &n, PCIBW_PAT_BOTH, PCIBW_SIZE_FRAME, PCIBW_COMPAT_PCIE_BENCH, s);
			double nic_gbps = r.bus_mpps * 1e6 * 8 * (s - 4) / 1e9;
			double eth = 40.0 * (s - 4) / (s + 16);
			if (nic_gbps < eth)
				last = s;
		}
		cr_assert_eq(last, o[k].last, "%s: last frame below 40G %d, oracle %d", o[k].nic, last,
			     o[k].last);
	}
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw analyze` end to end on the real inputs of tests/data/bench (each
 * with its source header). Expected verdicts: what each file's
 * source says of its run (its header); expected numbers: the files' own rows and hand arithmetic written next
 * to each check.
 */
#include "analyze_support.h"

/* Ostinato 1G (I218-V, one UDP stream, "One core at 100% CPU during the test"): 256 B and up
 * wire-bound; 64 B at 920 kpps cpu-bound with the busiest core at 100 %. */
Test(real, ostinato_1g)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/ostinato-i218v-1g-ubuntu-maxtx-core100.csv"),
				   "--line-rate", "1G", "--pattern", "tx", "--json", NULL});
	json_t *r64 = find_row(j, 64, NULL, NULL);
	cr_assert_str_eq(jstr(r64, "verdict"), "cpu-bound");
	assert_close(jnum(r64, "measured_mpps"), 0.920, 1e-12);
	assert_close(jnum(r64, "core_max_utilisation"), 1.0, 1e-12);
	/* wire: 920,000 x (64 + 20) B x 8 / 10^9 = 0.61824 of 1 Gbit/s */
	assert_close(jnum(r64, "wire_utilisation"), 0.61824, 1e-9);
	cr_assert(evidence_has(r64, "busiest core is 100 %"));
	for (double s = 256; s <= 1024; s *= 2)
		cr_assert_str_eq(jstr(find_row(j, s, NULL, NULL), "verdict"), "wire-bound", "%g B", s);
	cr_assert_str_eq(jstr(find_row(j, 1518, NULL, NULL), "verdict"), "wire-bound");
	/* 128 B: 807,000 x 148 x 8 = 955.488 Mbit/s = 0.955488 >= 0.95: wire-bound too */
	assert_close(jnum(find_row(j, 128, NULL, NULL), "wire_utilisation"), 0.955488, 1e-9);
	cr_assert_str_eq(jstr(j, "verdict"), "wire-bound");
	json_decref(j);
}

/* The same file as published (no CPU column): 64 B cannot be called, and pcibw says why. */
Test(real, ostinato_1g_without_cpu)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze",
							test_data("bench/ostinato-i218v-1g-ubuntu-maxtx.csv"),
							"--line-rate", "1G", "--json", NULL});
	json_t *r64 = find_row(j, 64, NULL, NULL);
	cr_assert_str_eq(jstr(r64, "verdict"), "undetermined");
	cr_assert(evidence_has(r64, "no CPU was measured"));
	cr_assert(isnan(jnum(r64, "bus_gbps")), "no --bus: no bus ceiling");
	json_decref(j);
}

/* Ostinato 40G: pps flat 725-755 kpps from 64 to 1518 B while bytes rise: cpu-bound. */
Test(real, ostinato_40g)
{
	json_t *j =
	    analyze_json(NULL, (const char *[]){"analyze", test_data("bench/ostinato-40g-libpcap-txrx.csv"),
						"--line-rate", "40G", "--json", NULL});
	const double sizes[] = {64, 128, 256, 512, 1024, 1518};
	for (int i = 0; i < 6; i++) {
		json_t *r = find_row(j, sizes[i], "send", NULL);
		cr_assert_str_eq(jstr(r, "verdict"), "cpu-bound", "%g B", sizes[i]);
		cr_assert(json_is_true(json_object_get(r, "per_packet_limit")));
		cr_assert(evidence_has(r, "725 kpps-755 kpps over 64-1518 B"), "%g B", sizes[i]);
		cr_assert_str_eq(jstr(r, "direction"), "tx");
	}
	assert_close(jnum(find_row(j, 64, "send", NULL), "measured_mpps"), 0.755, 1e-12);
	/* 4096 B at 574 kpps is not in the flat run */
	cr_assert_str_neq(jstr(find_row(j, 4096, "send", NULL), "verdict"), "cpu-bound");
	cr_assert_str_eq(jstr(j, "verdict"), "cpu-bound");
	json_decref(j);
}

/* netperf over a virtual NIC (QEMU virtio, RISC-V guest, no -c/-C). */
Test(real, netperf_virtio)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/netperf-qemu-riscv-virtio-msgsize-sweep.csv"),
				   "--nic", "virtio-net", "--json", NULL});
	cr_assert(json_is_true(json_object_get(j, "virtual")));
	/* UDP_STREAM send rows, 1-1024 B: 864814-890806 messages in 60 s = 14.4-14.8 k/s, flat: cpu-bound */
	const double udp[] = {1, 64, 128, 256, 512, 1024};
	for (int i = 0; i < 6; i++) {
		json_t *r = find_row(j, udp[i], "send", "UDP_STREAM");
		cr_assert_str_eq(jstr(r, "verdict"), "cpu-bound", "UDP %g B", udp[i]);
		double mpps = jnum(r, "measured_mpps");
		cr_assert(mpps >= 864814 / 60.0 / 1e6 - 1e-9 && mpps <= 890806 / 60.0 / 1e6 + 1e-9, "%g",
			  mpps);
		cr_assert(evidence_has(r, "per-packet limit"));
	}
	assert_close(jnum(find_row(j, 1, "send", "UDP_STREAM"), "measured_mpps"), 880003 / 60.0 / 1e6, 1e-9);
	/* TCP_STREAM rows: writes counted as 1448 B segments (MTU 1500 - 52), no CPU measured, no bus
	 * ceiling on a virtual NIC */
	const double tcp[] = {1, 64, 1500, 16384, 65536};
	for (int i = 0; i < 5; i++) {
		json_t *r = find_row(j, tcp[i], "send", "TCP_STREAM");
		cr_assert_str_eq(jstr(r, "verdict"), "undetermined", "TCP %g B", tcp[i]);
		cr_assert(evidence_has(r, "of 1448 B segments (--mtu 1500 less 52 B"));
		cr_assert(evidence_has(r, "no CPU was measured"));
		cr_assert(evidence_has(r, "virtual NIC has no bus ceiling"));
		cr_assert_str_eq(jstr(r, "size_is"), "l3");
		cr_assert_eq(jnum(r, "tcp_segment_bytes"), 1448);
		cr_assert_eq(jnum(r, "size_bytes"), 1500);
	}
	json_t *t16 = find_row(j, 16384, "send", "TCP_STREAM");
	assert_close(jnum(t16, "measured_gbps"), 0.80242, 1e-12);
	/* 802.42 Mbit/s of goodput / (8 x 1448 B) = 69270 segments/s */
	assert_close(jnum(t16, "measured_mpps"), 0.80242e9 / (8 * 1448) / 1e6, 1e-12);
	cr_assert(evidence_has(j, "virtual NIC has no bus ceiling"));
	json_decref(j);
}

/*
 * pcie-bench sweeps: the per-size error of the measured DMA rate against the dma-* model, in
 * pcie-bench's own reading (--compat pcie-bench). Model values: pcie-model's printed tables
 * (doc/sources/pcie-model.md; MPS 256: MRd 44.10/50.06/53.69, MWr 42.10/48.75/52.92,
 * MRd+MWr 33.08/42.10/48.75/50.75; MPS 128: MRd 43.17/49.01, MWr 41.21/47.72, flat from 128 B); measured
 * values: the files' own rows.
 */
struct pb {
	double size, measured, model;
};

static void check_sweep(const char *file, const char *bus, const char *dir, const struct pb *v, int n)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", test_data(file), "--bus", bus, "--compat",
							"pcie-bench", "--json", NULL});
	int seen = 0;
	json_t *rows = json_object_get(j, "rows"), *r;
	size_t i;
	json_array_foreach(rows, i, r)
	{
		if (strcmp(jstr(r, "direction"), dir))
			continue;
		for (int k = 0; k < n; k++) {
			if (jnum(r, "size_bytes") != v[k].size)
				continue;
			seen++;
			assert_close(jnum(r, "measured_gbps"), v[k].measured, 0.0005);
			assert_close(jnum(r, "bus_gbps"), v[k].model, 0.005);
			/* error = measured / model - 1, to the precision of the two-decimal model values */
			assert_close(jnum(r, "model_error"), v[k].measured / v[k].model - 1, 2e-4);
			cr_assert(evidence_has(r, "against the model"));
		}
	}
	cr_assert_eq(seen, n, "%s %s: %d of %d sizes found", file, dir, seen, n);
	json_decref(j);
}

Test(real, pciebench_hsw_t630)
{
	const char *f = "bench/pciebench-nfp6000-hsw-e5-2620v3-dell-t630-dma-size-sweep.csv";
	const struct pb rd[] = {{64, 32.019, 44.10},  {128, 43.730, 50.06},  {256, 47.778, 53.69},
				{512, 55.040, 53.69}, {1024, 49.830, 53.69}, {2048, 55.276, 53.69}};
	const struct pb wr[] = {{64, 24.269, 42.10},  {128, 42.355, 48.75},  {256, 50.488, 52.92},
				{512, 53.013, 52.92}, {1024, 53.013, 52.92}, {2048, 53.013, 52.92}};
	const struct pb rw[] = {{64, 22.985, 33.08},  {128, 33.736, 42.10},  {256, 42.161, 48.75},
				{512, 42.671, 50.75}, {1024, 43.831, 50.75}, {2048, 49.142, 50.75}};
	check_sweep(f, "gen3x8,mps=256,mrrs=512", "dma-read", rd, 6);
	check_sweep(f, "gen3x8,mps=256,mrrs=512", "dma-write", wr, 6);
	check_sweep(f, "gen3x8,mps=256,mrrs=512", "dma-rw", rw, 6);
}

Test(real, pciebench_ivb_t620)
{
	const struct pb rd[] = {
	    {64, 31.928, 44.10}, {128, 43.316, 50.06}, {512, 55.355, 53.69}, {2048, 55.375, 53.69}};
	const struct pb wr[] = {{64, 24.269, 42.10}, {512, 54.446, 52.92}, {2048, 54.446, 52.92}};
	check_sweep("bench/pciebench-nfp6000-ivb-e5-2620v2-dell-t620-dma-size-sweep.csv", "gen3x8,mps=256",
		    "dma-read", rd, 4);
	check_sweep("bench/pciebench-nfp6000-ivb-e5-2620v2-dell-t620-dma-size-sweep.csv", "gen3x8,mps=256",
		    "dma-write", wr, 3);
}

/* MPS 128 host: reads 4.7-6.2 % above the model at 512 B and up (the file's BW_DMA_RD rows against
 * pcie-model's gen3 x8 MPS 128 MRd, doc/sources/pcie-model.md table B). */
Test(real, pciebench_fujitsu_mps128)
{
	const struct pb rd[] = {
	    {64, 22.990, 43.17}, {128, 42.408, 49.01}, {512, 51.299, 49.01}, {1024, 51.991, 49.01}};
	const struct pb wr[] = {{64, 10.713, 41.21}, {128, 18.026, 47.72}};
	check_sweep("bench/pciebench-nfp6000-hsw-e3-1226v3-fujitsu-tx1310-dma-size-sweep.csv",
		    "gen3x8,mps=128", "dma-read", rd, 4);
	check_sweep("bench/pciebench-nfp6000-hsw-e3-1226v3-fujitsu-tx1310-dma-size-sweep.csv",
		    "gen3x8,mps=128", "dma-write", wr, 2);
}

/* A real measurement above one of the model's estimates (the NIC profile's read-latency and
 * transaction limits, the root complex's whole-cache-line charge) refutes the estimate, not the
 * measurement: on the Haswell-EP sweep the NFP-6000 reads 16 B at 8.611 Gbit/s and 129 B at
 * 35.606 Gbit/s (the file's BW_DMA_RD rows), above both estimates, and no row is impossible. A
 * figure above the link itself still is: 70 Gbit/s of 64 B reads on gen3 x8, whose raw rate is
 * 8 GT/s x 8 lanes x 128/130 = 63.0 Gbit/s (PCIe Base 5.0 sec. 4.2.2) before any header. */
Test(real, pciebench_estimates_beaten_are_not_impossible)
{
	json_t *j = analyze_json(
	    NULL,
	    (const char *[]){"analyze",
			     test_data("bench/pciebench-nfp6000-hsw-e5-2620v3-dell-t630-dma-size-sweep.csv"),
			     "--bus", "gen3x8,mps=256", "--nic", "nfp6000-pciebench", "--json", NULL});
	json_t *rows = json_object_get(j, "rows"), *row;
	size_t i;
	json_array_foreach(rows, i, row)
	{
		cr_expect_str_neq(jstr(row, "verdict"), "impossible", "%s %g B: %s", jstr(row, "test"),
				  jnum(row, "size_bytes"), json_dumps(json_object_get(row, "evidence"), 0));
	}
	json_t *r16 = find_row(j, 16, NULL, "BW_DMA_RD");
	assert_close(jnum(r16, "measured_gbps"), 8.611, 0.0005);
	cr_expect(evidence_has(r16, "the NIC profile underestimates this device"), "16 B");
	cr_expect_gt(jnum(r16, "bus_gbps"), 8.611, "16 B: the link alone carries the measured rate");
	json_t *r129 = find_row(j, 129, NULL, "BW_DMA_RD");
	assert_close(jnum(r129, "measured_gbps"), 35.606, 0.0005);
	cr_expect(evidence_has(r129, "this host moves partial cache lines faster than modelled"), "129 B");
	json_decref(j);

	char path[] = "/tmp/pcibw-test-over-link-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	static const char csv[] = "size,gbps\n64,70\n";
	cr_assert_eq(write(fd, csv, sizeof csv - 1), (ssize_t)(sizeof csv - 1));
	close(fd);
	j = analyze_json(NULL, (const char *[]){"analyze", path, "--bus", "gen3x8,mps=256", "--nic",
						"nfp6000-pciebench", "--pattern", "dma-read", "--size-is",
						"dma", "--json", NULL});
	unlink(path);
	cr_expect_str_eq(jstr(find_row(j, 64, NULL, NULL), "verdict"), "impossible");
	json_decref(j);
}

/* The real cloud iperf3 capture: latency/loss-bound path, CPU idle: neither bus nor CPU. */
Test(real, iperf3_cloud_tcp)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze",
				   test_data("bench/iperf3-json-tcp-gcp-to-ibm-wdc-rtt77ms-266mbps-cpu.json"),
				   "--json", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "undetermined");
	json_t *s = find_row(j, 131072, "sender", NULL);
	assert_close(jnum(s, "measured_gbps"), 0.2663, 0.00005);
	assert_close(jnum(s, "core_max_utilisation"), 0.0268, 0.00005);
	json_t *in = json_array_get(json_object_get(j, "inputs"), 0);
	cr_assert_str_eq(jstr(in, "format"), "iperf3");
	json_decref(j);
}

/* --plot: an SVG with the measured points and the ceilings (drawn by the shared plotter). */
Test(real, plot)
{
	const char *svg = "/tmp/pcibw-test-analyze-plot.svg";
	unlink(svg);
	struct run_result r = run_pcibw(
	    NULL, (const char *[]){"analyze", test_data("bench/ostinato-40g-libpcap-txrx.csv"), "--bus",
				   "gen3x8", "--nic", "i40e", "--line-rate", "40G", "--plot", svg, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	size_t n;
	char *s = slurp(svg, &n);
	cr_assert(s && strstr(s, "<svg"), "no SVG written");
	free(s);
	unlink(svg);
	run_free(&r);
}

/* --format csv: a header naming the contract's row keys, one line per row, evidence quoted;
 * text: the table and the verdict in plain words. */
Test(real, csv_and_text_formats)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"analyze", test_data("bench/ostinato-40g-libpcap-txrx.csv"),
					     "--line-rate", "40G", "--format", "csv", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strncmp(r.out, "source,series,size_bytes,", 25), "%.80s", r.out);
	cr_assert(strstr(r.out, "measured_gbps,measured_mpps,bus_gbps,bus_utilisation,bus_gbps_low,"
				"bus_gbps_high,bus_utilisation_low,bus_utilisation_high,wire_gbps"));
	int lines = 0;
	for (const char *p = r.out; (p = strchr(p, '\n')); p++)
		lines++;
	cr_assert_eq(lines, 1 + 16, "header + 16 rows");
	cr_assert(strstr(r.out, "\"cpu-bound\",\"packet rate flat at"), "evidence quoted: %.300s", r.out);
	run_free(&r);
	/* the band columns hold the JSON row's band (field case C: one row) */
	r = run_pcibw(NULL,
		      (const char *[]){"analyze", test_data("analyze/synthetic-case-c-dge530t-pci33.csv"),
				       "--bus", "pci33/32", "--format", "csv", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("analyze/synthetic-case-c-dge530t-pci33.csv"),
				   "--bus", "pci33/32", "--json", NULL});
	json_t *row = json_array_get(json_object_get(j, "rows"), 0);
	const char *line = strchr(r.out, '\n') + 1;
	double cell[4];
	const char *keys[] = {"bus_gbps_low", "bus_gbps_high", "bus_utilisation_low", "bus_utilisation_high"};
	/* columns 12..15 (0-based: after bus_utilisation, the 12th); the source cell is quoted and
	 * holds no comma */
	const char *c = line;
	for (int k = 0; k < 12; k++)
		c = strchr(c, ',') + 1;
	for (int k = 0; k < 4; k++) {
		cell[k] = strtod(c, NULL);
		c = strchr(c, ',') + 1;
		double want = json_real_value(json_object_get(row, keys[k]));
		cr_assert(want > 0, "%s in JSON", keys[k]);
		cr_assert_float_eq(cell[k], want, want * 1e-9, "%s: csv %g, json %g", keys[k], cell[k], want);
	}
	cr_assert_lt(cell[0], cell[1], "PCI 33/32 has a band (prefetch)");
	json_decref(j);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"analyze", test_data("bench/ostinato-40g-libpcap-txrx.csv"),
					     "--line-rate", "40G", NULL});
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "verdict  cpu-bound") && strstr(r.out, "CPU-bound: the wire is"), "%s",
		  r.out);
	run_free(&r);
}

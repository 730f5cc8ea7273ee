/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Field cases that state numbers (each fixture's header names its thread), each as an input built from
 * those numbers (tests/data/analyze/synthetic-case-*.csv, whose headers cite the case and label
 * every assumption), and the motivating case shipped in data/examples, both ways. The expected
 * verdict is the case's own.
 */
#include "analyze_support.h"

static json_t *run_case(const char *file, const char *const *opts)
{
	const char *args[24] = {"analyze", test_data(file), "--json"};
	int n = 3;
	for (int i = 0; opts[i]; i++)
		args[n++] = opts[i];
	args[n] = NULL;
	return analyze_json(NULL, args);
}

static const char *example(void)
{
	static char path[1024];
	snprintf(path, sizeof path, "%s/examples/freebsd-2004-udp-echo-e1000.csv", getenv("PCIBW_DATA_DIR"));
	return path;
}

/*
 * The seed thread, 82546 on PCI-X 133/64: 1024 B UDP payload, 550 Mbit/s per direction, echo,
 * CPU 82 % of one 2.8 GHz CPU. Expected: cpu-bound, the bus under 25 % busy (doc/model-pci.md "Calibration");
 * the idle time is suspect (a user-level soaker misses interrupt time). Hand arithmetic: 550e6 / (8 x 1024) =
 * 67,138.7 packets/s; the wire holds 1024 + 28 + 18 + 20 = 1090 B per packet: 67,138.7 x 1090 x 8 = 585.4
 * Mbit/s = 0.5855 of 1 Gbit/s; cycles per packet 0.82 x 2.8e9 / 67,138.7 = 34,198.
 */
Test(cases, motivating_pcix_cpu_bound)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", example(), "--bus", "pcix133/64,mmrbc=512",
							"--nic", "e1000", "--line-rate", "1G", "--cpus", "1",
							"--cpu-ghz", "2.8", "--json", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "cpu-bound");
	json_t *r = find_row(j, 1024, NULL, NULL);
	double bus = jnum(r, "bus_utilisation");
	cr_assert(bus > 0 && bus < 0.25, "bus %g: expected under 25 %% busy", bus);
	assert_close(jnum(r, "measured_mpps"), 550e6 / (8 * 1024) / 1e6, 1e-9);
	assert_close(jnum(r, "wire_utilisation"), 550e6 / (8 * 1024) * 1090 * 8 / 1e9, 1e-9);
	assert_close(jnum(r, "cpu_utilisation"), 0.82, 1e-12);
	assert_close(jnum(r, "cycles_per_packet"), 0.82 * 2.8e9 / (550e6 / 8192), 1e-3);
	cr_assert_str_eq(jstr(r, "direction"), "both");
	const char *sum = json_string_value(json_array_get(json_object_get(j, "evidence"), 0));
	cr_assert(strstr(sum, "CPU-bound") && strstr(sum, "PCI-X 133/64") &&
		      strstr(sum, "only loaded resource") && strstr(sum, "idle time is mis-measured"),
		  "%s", sum);
	json_decref(j);
}

/* The same figure through the 82540 on PCI 32/33: it cannot have passed that bus. */
Test(cases, motivating_pci_impossible)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", example(), "--bus", "pci33/32", "--nic",
							"e1000", "--line-rate", "1G", "--cpus", "1",
							"--cpu-ghz", "2.8", "--json", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "impossible");
	json_t *r = find_row(j, 1024, NULL, NULL);
	cr_assert_gt(jnum(r, "bus_utilisation"), 1.10);
	cr_assert(evidence_has(r, "which card and which direction"));
	json_decref(j);
}

/* Case B: 82599 on Gen2 x4 at 3.3 Gbit/s, no CPU figure: not the bus; ask for the CPU. */
Test(cases, b_82599_not_bus)
{
	json_t *j = run_case("analyze/synthetic-case-b-82599-t4240-3.3g.csv",
			     (const char *[]){"--bus", "gen2x4", "--nic", "kernel-82599", "--pattern", "tx",
					      "--line-rate", "20G", "--rate-basis", "payload", NULL});
	json_t *r = find_row(j, 1518, NULL, NULL);
	cr_assert_str_neq(jstr(r, "verdict"), "io-bound");
	cr_assert_str_eq(jstr(r, "verdict"), "undetermined");
	cr_assert_lt(jnum(r, "bus_utilisation"), 0.5, "headroom ~4x: well under half the bus");
	cr_assert(evidence_has(r, "no CPU was measured"));
	json_decref(j);
}

/* Case C: DGE-530T behind 32/33 PCI, ~80 MiB/s out: the bus, at its practical ceiling. */
Test(cases, c_pci33_bus)
{
	json_t *j = run_case("analyze/synthetic-case-c-dge530t-pci33.csv",
			     (const char *[]){"--bus", "pci33/32", "--pattern", "tx", "--line-rate", "1G",
					      "--rate-basis", "payload", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "io-bound");
	/* 671.09e6 / (8 x 1472) packets/s of 1518 B frames */
	assert_close(jnum(find_row(j, 1518, NULL, NULL), "measured_mpps"), 671.09e6 / (8 * 1472) / 1e6, 1e-9);
	json_decref(j);
}

/* Case F: XL710 40G in a Gen2 x4 slot at ~11 Gbit/s: the bus. */
Test(cases, f_xl710_gen2x4_bus)
{
	json_t *j = run_case("analyze/synthetic-case-f-xl710-gen2x4.csv",
			     (const char *[]){"--bus", "gen2x4", "--nic", "i40e", "--pattern", "rx",
					      "--line-rate", "40G", "--rate-basis", "payload", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "io-bound");
	cr_assert_lt(jnum(find_row(j, 1518, NULL, NULL), "wire_utilisation"), 0.5, "far from the 40G wire");
	json_decref(j);
}

/* Case J via iperf PR #921: ~300 Mbit/s with the single iperf3 thread's core at ~100 %: CPU. */
Test(cases, j_pr921_cpu)
{
	json_t *j = run_case("analyze/synthetic-case-j-pr921-aqc107.csv",
			     (const char *[]){"--line-rate", "10G", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "cpu-bound");
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	cr_assert(evidence_has(r, "busiest core is 100 %"));
	json_decref(j);
}

/* Case J's own numbers (no CPU figure): not the wire (15 of 100 Gbit/s), and the CPU is named as
 * the missing measurement; the TCP row's writes are counted as segments. */
Test(cases, j_udp_100g_names_missing_cpu)
{
	json_t *j =
	    run_case("analyze/synthetic-case-j-udp-100g.csv", (const char *[]){"--line-rate", "100G", NULL});
	json_t *udp = find_row(j, 1448, NULL, "UDP");
	cr_assert_str_neq(jstr(udp, "verdict"), "wire-bound");
	/* 15e9 / (8 x 1448) packets/s x (1448 + 46 + 20) B x 8 / 100e9 */
	assert_close(jnum(udp, "wire_utilisation"), 15e9 / (8 * 1448) * 1514 * 8 / 100e9, 1e-9);
	cr_assert(evidence_has(udp, "no CPU was measured"));
	/* the TCP writes are counted as segments of 1500 - 52 = 1448 B */
	json_t *tcp = find_row(j, 131072, NULL, "TCP");
	cr_assert(evidence_has(tcp, "1448 B segments"));
	json_decref(j);
}

/* Case L: E810 with RSS=1, the bound core at 100 % at ~20 Mpps: CPU. */
Test(cases, l_e810_core)
{
	json_t *j = run_case("analyze/synthetic-case-l-e810-pfring.csv",
			     (const char *[]){"--line-rate", "100G", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "cpu-bound");
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	assert_close(jnum(r, "measured_mpps"), 20, 1e-12);
	json_decref(j);
}

/* Case M: ksoftirqd at 100 % at ~20 kpps on a 2.6 GHz Xeon: CPU, and suspiciously slow per packet:
 * 1.0 x 2.6e9 / 20,000 = 130,000 cycles per packet on the busiest core. */
Test(cases, m_x540_affinity)
{
	json_t *j =
	    run_case("analyze/synthetic-case-m-x540-ksoftirqd.csv",
		     (const char *[]){"--line-rate", "10G", "--cpus", "48", "--cpu-ghz", "2.6", NULL});
	json_t *r = find_row(j, 64, NULL, NULL);
	cr_assert_str_eq(jstr(r, "verdict"), "cpu-bound");
	assert_close(jnum(r, "cycles_per_packet"), 130000, 1e-6);
	cr_assert(evidence_has(r, "IRQ affinity"));
	json_decref(j);
}

/* Case O, stage 2: 3.2-3.4 Gbit/s of 9018 B frames on 10GbE, more CPUs do not help, no CPU figure:
 * neither bus nor CPU capacity -> undetermined. */
Test(cases, o_jetson_neither)
{
	json_t *j = run_case("analyze/synthetic-case-o-jetson-stage2.csv",
			     (const char *[]){"--line-rate", "10G", "--pattern", "rx", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "undetermined");
	json_t *r = find_row(j, 9018, NULL, NULL);
	cr_assert_lt(jnum(r, "wire_utilisation"), 0.6);
	json_decref(j);
}

/* Elasticity from the synthetic file's construction (its header): -1, +1, -0.5 and 0. */
Test(cases, elasticity_synthetic)
{
	json_t *j = run_case("analyze/synthetic-elasticity.csv", (const char *[]){NULL});
	json_t *rows = json_object_get(j, "rows"), *r;
	size_t i;
	int checked = 0;
	json_array_foreach(rows, i, r)
	{
		double size = jnum(r, "size_bytes"), e = jnum(r, "elasticity");
		bool cpu = !strcmp(jstr(r, "series"), "cpubound");
		double want = !cpu ? 0 : size == 64 ? -1 : size == 128 ? 1 : -0.5;
		assert_close(e, want, 1e-9);
		cr_assert_str_eq(jstr(r, "elasticity_of"), size == 128 ? "cpu_mhz" : "work");
		cr_assert_str_eq(jstr(r, "verdict"), cpu ? "cpu-bound" : "undetermined", "%g B %s", size,
				 jstr(r, "series"));
		if (cpu)
			cr_assert(evidence_has(r, "of the limit is CPU time"));
		checked++;
	}
	cr_assert_eq(checked, 20);
	json_decref(j);
}

/* The motivating measurement against a probed device: the 82545EM (the 82546's single-port sibling)
 * of a real lspci dump, on PCI-X 133/64. The bus and the e1000 profile come from the dump and the
 * device ids; the verdict is the PCI-X case's: cpu-bound, the bus under 25 % busy. */
Test(cases, motivating_probed_pcix_dump)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", example(), "--dump",
							test_data("pcix-ibm-eadsx-82545em-multidomain.lspci"),
							"-s", "0002:01:01.0", "--line-rate", "1G", "--cpus",
							"1", "--cpu-ghz", "2.8", "--json", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "cpu-bound");
	cr_assert(strncmp(jstr(j, "bus"), "pcix133/64", 10) == 0, "%s", jstr(j, "bus"));
	cr_assert_str_eq(jstr(j, "nic"), "e1000");
	double bus = jnum(find_row(j, 1024, NULL, NULL), "bus_utilisation");
	cr_assert(bus > 0 && bus < 0.25, "%g", bus);
	json_decref(j);
}

/* A paravirtual device probed from a dump has no bus ceiling, and the evidence says so. */
Test(cases, probed_virtio_has_no_bus)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/netperf-qemu-riscv-virtio-msgsize-sweep.csv"),
				   "--dump", test_data("synthetic-virtio-pci.lspci"), "--json", NULL});
	cr_assert(json_is_true(json_object_get(j, "virtual")));
	cr_assert(evidence_has(j, "virtual NIC has no bus ceiling"));
	cr_assert_str_eq(jstr(find_row(j, 64, "send", "UDP_STREAM"), "verdict"), "cpu-bound");
	json_decref(j);
}

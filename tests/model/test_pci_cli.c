/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw model` on PCI and PCI-X buses, end to end: the motivating box (freebsd-performance,
 * 21 Oct 2004, "CPU utilisation cap?"), bad PCI/PCI-X bus specs (doc/cli-contract.md "Bus spec": exit code 2
 * naming the bad part), and the 82545EM of a real lspci dump (tests/data/pcix-ibm-eadsx-82545em-multidomain
 * .lspci, pciutils test input) whose config space says MMRBC 2048 (PCI-X command word at 0xe6 =
 * 0x0008: bits 3:2 = 2 -> 512 << 2) on a 133 MHz PCI-X segment. Expected figures are the hand
 * sums of doc/model-pci.md (also derived step by step in test_pci_model.c).
 */
#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

static json_t *row0(const char *json, json_t **root)
{
	json_error_t je;
	*root = json_loads(json, 0, &je);
	cr_assert(*root, "not JSON (%s): %s", je.text, json);
	json_t *rows = json_object_get(*root, "rows");
	cr_assert(json_is_array(rows) && json_array_size(rows) == 1, "rows: %s", json);
	return json_array_get(rows, 0);
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	cr_assert(json_is_number(v), "%s missing or not a number", key);
	return json_number_value(v);
}

static struct run_result model(const char *bus)
{
	return run_pcibw(NULL, (const char *[]){"model", "--bus", bus, "--nic", "e1000", "--pattern", "both",
						"--size-is", "udp-payload", "--sizes", "1024", "--format",
						"json", NULL});
}

Test(pci_cli, pci33_ceiling_below_550)
{
	/* 735 clocks of 30 ns per echoed packet: 45,351 pps = 371.5 Mbit/s of payload per direction */
	struct run_result r = model("pci33/32");
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	json_t *root, *row = row0(r.out, &root);
	double gbps = num(row, "bus_gbps");
	cr_assert_lt(gbps, 0.550, "%g", gbps);
	cr_assert(fabs(gbps - 100e6 / 3 / 735 * 1024 * 8 / 1e9) < 1e-6, "%g", gbps);
	cr_assert(fabs(num(row, "bus_ns_per_packet") - 22050) < 0.01);
	json_decref(root);
	run_free(&r);
}

Test(pci_cli, pcix133_mmrbc512_under_a_quarter)
{
	/* 445 clocks of 7.5 ns: 67,139 pps (550 Mbit/s of 1024 B payload) use 22.4 % of the bus */
	struct run_result r = model("pcix133/64,mmrbc=512");
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	json_t *root, *row = row0(r.out, &root);
	double pps = num(row, "bus_mpps") * 1e6, want = 550e6 / (1024 * 8);
	cr_assert(fabs(pps - 400e6 / 3 / 445) < 0.5, "%g pps", pps);
	cr_assert_lt(want / pps, 0.25, "utilisation %g", want / pps);
	cr_assert(fabs(num(row, "cpu_stall_ns_per_packet") - 678) < 1e-6);
	json_decref(root);
	run_free(&r);
}

Test(pci_cli, bad_specs_name_the_bad_part)
{
	const char *specs[][2] = {
	    {"pcix150", "150"},
	    {"pci33/48", "48"},
	    {"pcix133/64,mmrbc=300", "mmrbc=300"},
	    {"pcix133/64,splits=5", "splits=5"},
	};
	for (int i = 0; i < 4; i++) {
		struct run_result r = model(specs[i][0]);
		cr_assert_eq(r.status, 2, "%s: exit %d", specs[i][0], r.status);
		cr_assert(strstr(r.err, specs[i][1]), "%s: stderr does not name '%s': %s", specs[i][0],
			  specs[i][1], r.err);
		cr_assert_eq(r.out[0], '\0', "%s printed a result: %s", specs[i][0], r.out);
		run_free(&r);
	}
}

Test(pci_cli, probed_82545em_brings_its_mmrbc_and_clock)
{
	/* 0002:01:01.0 is 8086:100f (82545EM copper): the e1000 profile by id; PCI-X command
	 * MMRBC field 2 -> 2048 B; the bridge 0002:00:02.0 runs its segment in PCI-X 133 mode.
	 * With MMRBC 2048 the 1066 B transmit read is one request: 445 - 2 x 7 = 431 clocks =
	 * 3,232.5 ns per echoed packet (MMRBC 512 would give 445). */
	struct run_result r = run_pcibw(
	    NULL, (const char *[]){"model", "-s", "0002:01:01.0", "--dump",
				   test_data("pcix-ibm-eadsx-82545em-multidomain.lspci"), "--pattern", "both",
				   "--size-is", "udp-payload", "--sizes", "1024", "--format", "json", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	json_t *root, *row = row0(r.out, &root);
	json_t *bus = json_object_get(root, "bus");
	cr_assert_str_eq(json_string_value(json_object_get(bus, "kind")), "pci-x");
	cr_assert_eq(json_integer_value(json_object_get(bus, "mmrbc_bytes")), 2048);
	cr_assert_eq(json_integer_value(json_object_get(bus, "clock_mhz")), 133);
	cr_assert_eq(json_integer_value(json_object_get(bus, "width_bits")), 64);
	cr_assert_str_eq(json_string_value(json_object_get(root, "nic")), "e1000");
	cr_assert(fabs(num(row, "bus_ns_per_packet") - 431 * 7.5) < 0.01, "%g",
		  num(row, "bus_ns_per_packet"));
	json_decref(root);
	run_free(&r);
}

Test(pci_cli, segment_devices_share_the_budget)
{
	/* --segment-devices 2: two e1000 receiving 1518 B frames on one PCI 33/32 segment: 491
	 * clocks per packet each (arbitration, latency-timer cuts), 982 per round: 33,944 pps per
	 * device, less than half the 73,910 of one device alone (451 clocks; test_pci_model.c). */
	const char *base[] = {"model", "--bus",	  "pci33/32", "--nic",	  "e1000", "--pattern",
			      "rx",    "--sizes", "1518",     "--format", "json",  "--segment-devices",
			      "2",     NULL};
	struct run_result r = run_pcibw(NULL, base);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	json_t *root, *row = row0(r.out, &root);
	cr_assert(fabs(num(row, "bus_mpps") * 1e6 - 100e6 / 3 / 982) < 0.5, "%g", num(row, "bus_mpps"));
	json_decref(root);
	run_free(&r);
}

/* From a real dump (tests/data/lkml-2006-via-pm133-82546eb-conventional-pci.lspci, header in the
 * file): the 82546EB at 00:12.0 on conventional PCI 33 MHz, config 0x0c Cache Line Size 0x08 =
 * 32 B (lspci: "Cache Line Size: 32 bytes"). The model takes the line from the device: the e1000
 * profile by id (8086:1010), 32-bit PCI, transmit of 1518 B frames = 709 clocks (hand sum in
 * delayed_reads_follow_the_register) = 21,270 ns, and the JSON says which line it used. */
Test(pci_cli, probed_device_brings_its_line)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "-s", "00:12.0", "--dump",
					     test_data("lkml-2006-via-pm133-82546eb-conventional-pci.lspci"),
					     "--pattern", "tx", "--sizes", "1518", "--format", "json", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "\"nic\": \"e1000\""), "%s", r.out);
	cr_expect(strstr(r.out, "\"spec\": \"pci33/32,latency_timer=64\""), "%s", r.out);
	cr_expect(strstr(r.out, "\"cacheline_bytes\": 32"), "%s", r.out);
	cr_expect(strstr(r.out, "\"bus_ns_per_packet\": 21270.0"), "%s", r.out);
	run_free(&r);
}

/* The [device] limits (max_dma_tps, read_tags with read_latency_ns, write_unit_*, write_burst_*)
 * are a PCIe DMA engine's: TLPs, tags and bursts on a link. A PCI/PCI-X segment is costed in its
 * clocks, so a profile that has them is told they were left out (warning code device-limits),
 * not silently modelled as if they counted; the ceiling is the segment's (the 445 clocks of
 * pcix133_mmrbc512_under_a_quarter, the same with or without them). */
Test(pci_cli, device_limits_are_pcie_only)
{
	struct run_result a = model("pcix133/64,mmrbc=512");
	struct run_result b = run_pcibw(
	    NULL, (const char *[]){"model", "--bus", "pcix133/64,mmrbc=512", "--nic", "e1000", "--nic-set",
				   "device.max_dma_tps=1e6", "--pattern", "both", "--size-is", "udp-payload",
				   "--sizes", "1024", "--format", "json", NULL});
	cr_assert_eq(b.status, 0, "exit %d: %s", b.status, b.err);
	cr_assert(strstr(b.err, "[device] limits") && strstr(b.err, "PCIe link only"), "%s", b.err);
	cr_assert_null(strstr(a.err, "[device] limits"), "%s", a.err);
	json_t *ra, *rb;
	double pa = num(row0(a.out, &ra), "bus_mpps"), pb = num(row0(b.out, &rb), "bus_mpps");
	cr_assert(fabs(pa - pb) < 1e-12, "%g vs %g", pa, pb);
	json_t *codes = json_object_get(rb, "warning_codes");
	bool found = false;
	for (size_t i = 0; i < json_array_size(codes); i++)
		found = found || !strcmp(json_string_value(json_array_get(codes, i)), "device-limits");
	cr_assert(found, "warning_codes lacks device-limits");
	/* the same what-if on a PCIe link models the limit and says nothing */
	struct run_result c =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8", "--nic", "e1000", "--nic-set",
					     "device.max_dma_tps=1e6", "--sizes", "1024", NULL});
	cr_assert_eq(c.status, 0, "exit %d: %s", c.status, c.err);
	cr_assert_null(strstr(c.err, "[device] limits"), "%s", c.err);
	json_decref(ra);
	json_decref(rb);
	run_free(&a);
	run_free(&b);
	run_free(&c);
}

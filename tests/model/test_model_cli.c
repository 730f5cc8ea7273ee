/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw model` as a user runs it: exit codes and messages for bad specs, sizes and profiles
 * (doc/cli-contract.md "Bus spec", "Exit codes"), the table / CSV / JSON outputs, the SVG plot
 * (parsed with expat), and the bus taken from a real lspci dump (tests/data, with its header).
 */
#include "support.h"
#include <criterion/criterion.h>
#include <expat.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void expect_fail(int code, const char *needle, const char *const *args)
{
	struct run_result r = run_pcibw(NULL, args);
	cr_expect_eq(r.status, code, "%s %s %s: exit %d, want %d; stderr: %s", args[1],
		     args[2] ? args[2] : "", args[3] ? args[3] : "", r.status, code, r.err);
	cr_expect(strstr(r.err, needle), "stderr should name '%s': %s", needle, r.err);
	cr_expect_eq(r.out[0], '\0', "nothing on stdout on error: %s", r.out);
	run_free(&r);
}

#define FAIL(code, needle, ...) expect_fail(code, needle, (const char *[]){"model", __VA_ARGS__, NULL})

Test(model_cli, bad_bus_specs)
{
	FAIL(2, "generation 9", "--bus", "gen9x8");
	FAIL(2, "width 3 is not a PCIe width (1,2,4,8,12,16,32)", "--bus", "gen3x3");
	FAIL(2, "width 3 is not a PCIe width", "--bus", "8gtx3");
	FAIL(2, "12 GT/s", "--bus", "12gtx4");
	FAIL(2, "mps=100", "--bus", "gen3x8,mps=100");
	FAIL(2, "rcb=256", "--bus", "gen3x8,rcb=256");
	FAIL(2, "mrrs=99999999999999999999", "--bus", "gen3x8,mrrs=99999999999999999999");
	FAIL(2, "pcix150", "--bus", "pcix150");
	FAIL(2, "pci33/48", "--bus", "pci33/48");
	FAIL(2, "mmrbc=300", "--bus", "pcix133,mmrbc=300");
	FAIL(2, "splits=5", "--bus", "pcix133/64,splits=5");
	FAIL(2, "latency_timer=256", "--bus", "pci33,latency_timer=256");
	FAIL(2, "'mps=256' applies to PCIe", "--bus", "pci33,mps=256");
	FAIL(2, "frob", "--bus", "gen3x8,frob");
	FAIL(2, "empty modifier", "--bus", "gen3x8,");
	FAIL(2, "hyperbus", "--bus", "hyperbus");
}

Test(model_cli, bad_sizes_and_options)
{
	FAIL(2, "size 0", "--bus", "gen3x8", "--sizes", "0");
	FAIL(2, "-64", "--bus", "gen3x8", "--sizes", "-64");
	FAIL(2, "'-5'", "--bus", "gen3x8", "--sizes", "64,-5");
	FAIL(2, "99999999999999999999", "--bus", "gen3x8", "--sizes", "99999999999999999999");
	FAIL(2, "65537", "--bus", "gen3x8", "--sizes", "65537");
	FAIL(2, "empty item", "--bus", "gen3x8", "--sizes", "64,,128");
	FAIL(2, "empty size list", "--bus", "gen3x8", "--sizes", "");
	FAIL(2, "weight", "--bus", "gen3x8", "--sizes", "64:");
	FAIL(2, "weight '0'", "--bus", "gen3x8", "--sizes", "64:0,128:1");
	FAIL(2, "every size a weight", "--bus", "gen3x8", "--sizes", "64:1,128");
	FAIL(2, "needs a step", "--bus", "gen3x8", "--sizes", "64-1518");
	FAIL(2, "ends before", "--bus", "gen3x8", "--sizes", "1518-64/64");
	FAIL(2, "--pattern 'sideways'", "--bus", "gen3x8", "--pattern", "sideways");
	FAIL(2, "--size-is 'bits'", "--bus", "gen3x8", "--size-is", "bits");
	FAIL(2, "--line-rate '10X'", "--bus", "gen3x8", "--line-rate", "10X");
	FAIL(2, "--compat 'dpdk'", "--bus", "gen3x8", "--compat", "dpdk");
	FAIL(2, "unknown NIC profile 'nosuch'", "--bus", "gen3x8", "--nic", "nosuch");
	FAIL(2, "unknown NIC profile '../simple'", "--bus", "gen3x8", "--nic", "../simple");
	FAIL(2, "x12", "--bus", "gen3x12", "--compat", "pcie-bench");
	FAIL(2, "give one", "--bus", "gen3x8", "--dump", "x.lspci");
}

Test(model_cli, bad_profiles_name_file_line_column)
{
	char arg[3][4096];
	snprintf(arg[0], sizeof arg[0], "%s", test_data("synthetic-bad-profile-unknown-key.ini"));
	snprintf(arg[1], sizeof arg[1], "%s", test_data("synthetic-bad-profile-bad-value.ini"));
	snprintf(arg[2], sizeof arg[2], "%s", test_data("synthetic-bad-profile-overflow.ini"));
	char want[3][4200];
	snprintf(want[0], sizeof want[0], "%s:10:1: unknown key 'desc_bites' in [tx]", arg[0]);
	snprintf(want[1], sizeof want[1], "%s:9:14: desc_bytes: expected an integer 1..4096", arg[1]);
	snprintf(want[2], sizeof want[2], "%s:8:13: irq_batch: expected an integer", arg[2]);
	for (int i = 0; i < 3; i++)
		FAIL(3, want[i], "--bus", "gen3x8", "--nic-file", arg[i]);
	FAIL(3, "/nonexistent.ini", "--bus", "gen3x8", "--nic-file", "/nonexistent.ini");
}

/* CSV: header + one line per size of "64-1518/64" (64, 128, ..., 1472 and the end 1518: 24). */
Test(model_cli, csv_rows)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8,mps=256", "--nic", "dpdk", "--sizes",
					     "64-1518/64", "--line-rate", "40G", "--format", "csv", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	int lines = 0;
	for (char *p = r.out; *p; p++)
		lines += *p == '\n';
	cr_assert_eq(lines, 25, "header + 24 sizes, got %d lines:\n%s", lines, r.out);
	static const char hdr[] = "size_bytes,label,bus_gbps,bus_mpps,wire_gbps,wire_mpps,limit,headroom_pct,"
				  "to_device_bytes,to_host_bytes,bus_share,bound_by,bus_ns_per_packet,"
				  "cpu_stall_ns_per_packet,bus_gbps_low,bus_gbps_high,bus_mpps_low,"
				  "bus_mpps_high\n";
	cr_assert(!strncmp(r.out, hdr, sizeof hdr - 1), "%s", r.out);
	cr_assert(strstr(r.out, "\n1518,"), "the range end is included");
	cr_assert(strstr(r.out, "\n1472,"));
	run_free(&r);
}

/* JSON: the contract's keys; wire ceiling for 40G at 1518 B frames = 40 x 1518/1538 Gbit/s. */
Test(model_cli, json_keys)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8,mps=256", "--nic", "kernel-82599",
					     "--sizes", "64,1518", "--line-rate", "40G", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_error_t je;
	json_t *j = json_loads(r.out, 0, &je);
	cr_assert(j, "not JSON: %s\n%s", je.text, r.out);
	cr_assert_str_eq(json_string_value(json_object_get(j, "nic")), "kernel-82599");
	cr_assert_str_eq(json_string_value(json_object_get(j, "pattern")), "both");
	cr_assert_str_eq(json_string_value(json_object_get(j, "size_is")), "frame");
	json_t *bus = json_object_get(j, "bus");
	cr_assert_str_eq(json_string_value(json_object_get(bus, "spec")), "gen3x8,mps=256,mrrs=512,rcb=64");
	json_t *rows = json_object_get(j, "rows");
	cr_assert_eq(json_array_size(rows), 2);
	static const char *keys[] = {"size_bytes", "bus_gbps",	      "bus_mpps",      "wire_gbps",
				     "limit",	   "to_device_bytes", "to_host_bytes", "bus_share"};
	for (size_t i = 0; i < 2; i++)
		for (int k = 0; k < 8; k++)
			cr_assert(json_object_get(json_array_get(rows, i), keys[k]), "row %zu lacks %s", i,
				  keys[k]);
	json_t *big = json_array_get(rows, 1);
	double wire = json_real_value(json_object_get(big, "wire_gbps"));
	cr_assert(fabs(wire - 40.0 * 1518 / 1538) < 1e-7, "wire %f (JSON keeps 10 digits)", wire);
	cr_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(rows, 0), "limit")), "bus",
	    "kernel-82599 cannot carry 40G of 64 B frames (pcie-model: last frame below 40G is 299)");
	/* without a line rate the wire is null */
	json_decref(j);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"model", "--bus", "gen2x1", "--sizes", "imix", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	j = json_loads(r.out, 0, &je);
	cr_assert(j);
	json_t *row = json_array_get(json_object_get(j, "rows"), 0);
	cr_assert(json_is_null(json_object_get(row, "wire_gbps")));
	cr_assert_str_eq(json_string_value(json_object_get(row, "label")), "imix");
	json_decref(j);
	run_free(&r);
}

/* The table: one line per size, the binding ceiling named. */
Test(model_cli, text_table)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen1x1", "--nic", "simple", "--sizes",
					     "64,1518", "--line-rate", "1G", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "bus Gbit/s") && strstr(r.out, "wire Gbit/s") && strstr(r.out, "headroom"),
		  "%s", r.out);
	/* Gen1 x1 at 64 B: pcie-model's table B (doc/sources/pcie-model.md) gives simple bi 0.43 Gbit/s < the
	 * 0.762 of 1G wire */
	char *l64 = strstr(r.out, "\n      64");
	cr_assert(l64 && strstr(l64, " bus "), "64 B bound by the bus: %s", r.out);
	run_free(&r);
}

struct svg_stats {
	int depth, elements, paths, svg_root;
	char strokes[16][32];
	int n_strokes;
};

static void XMLCALL on_start(void *u, const XML_Char *name, const XML_Char **attr)
{
	struct svg_stats *s = u;
	if (s->depth == 0 && !strcmp(name, "svg"))
		s->svg_root = 1;
	s->depth++;
	s->elements++;
	if (!strcmp(name, "path"))
		s->paths++;
	for (int i = 0; attr[i]; i += 2) {
		const char *st = strcmp(attr[i], "style") ? NULL : strstr(attr[i + 1], "stroke:rgb(");
		if (!st)
			continue;
		char col[32];
		snprintf(col, sizeof col, "%.*s", (int)strcspn(st, ";"), st);
		bool seen = false;
		for (int k = 0; k < s->n_strokes; k++)
			seen = seen || !strcmp(s->strokes[k], col);
		if (!seen && s->n_strokes < 16)
			snprintf(s->strokes[s->n_strokes++], 32, "%s", col);
	}
}

static void XMLCALL on_end(void *u, const XML_Char *name)
{
	(void)name;
	((struct svg_stats *)u)->depth--;
}

Test(model_cli, plot_svg_parses)
{
	char path[] = "/tmp/pcibw-model-plot-XXXXXX.svg";
	int fd = mkstemps(path, 4);
	cr_assert_geq(fd, 0);
	close(fd);
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8,mps=256", "--nic", "simple", "--sizes",
					     "64-1518/32", "--line-rate", "40G", "--plot", path, NULL});
	if (r.status == 5) { /* built without cairo: it must say so */
		cr_assert(strstr(r.err, "without cairo"), "%s", r.err);
		run_free(&r);
		unlink(path);
		return;
	}
	cr_assert_eq(r.status, 0, "%s", r.err);
	size_t len;
	char *svg = slurp(path, &len);
	cr_assert(svg && len > 100);
	struct svg_stats st = {0};
	XML_Parser p = XML_ParserCreate(NULL);
	XML_SetUserData(p, &st);
	XML_SetElementHandler(p, on_start, on_end);
	cr_assert_eq(XML_Parse(p, svg, (int)len, 1), XML_STATUS_OK, "SVG is not XML: %s at line %lu",
		     XML_ErrorString(XML_GetErrorCode(p)), (unsigned long)XML_GetCurrentLineNumber(p));
	XML_ParserFree(p);
	cr_assert(st.svg_root, "root element is <svg>");
	cr_assert_gt(st.paths, 10, "axes, ticks, two curves, legend: %d paths", st.paths);
	/* black axes, grey grid, and one colour per ceiling (bus, wire) */
	cr_assert_geq(st.n_strokes, 4, "%d stroke colours", st.n_strokes);
	free(svg);
	unlink(path);
	run_free(&r);
	/* an unwritable path is output not written (exit 1, with the reason), not a crash */
	r = run_pcibw(NULL,
		      (const char *[]){"model", "--bus", "gen3x8", "--plot", "/nonexistent-dir/x.svg", NULL});
	cr_assert(r.status == 1 || r.status == 5, "exit %d: %s", r.status, r.err);
	cr_assert(r.status == 5 ||
		      strstr(r.err, "cannot write output: --plot /nonexistent-dir/x.svg: No such file"),
		  "%s", r.err);
	run_free(&r);
}

/* The bus from a real dump: Intel 82576 (8086:10c9) at 2.5 GT/s x4 with MaxPayload 256 and
 * MaxReadReq 512 (the dump's header and its DevCtl/LnkSta lines) and "LnkCtl: ASPM L1 Enabled":
 * the model uses them, the spec carries them all, and the igb profile is picked by id. */
Test(model_cli, bus_from_dump)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--dump", test_data("pcie-intel-82576-x4-gen1.lspci"),
					     "--sizes", "64", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_error_t je;
	json_t *j = json_loads(r.out, 0, &je);
	cr_assert(j, "%s", r.out);
	json_t *bus = json_object_get(j, "bus");
	cr_assert_str_eq(json_string_value(json_object_get(bus, "spec")),
			 "gen1x4,mps=256,mrrs=512,rcb=64,aspm=l1");
	cr_assert_str_eq(json_string_value(json_object_get(j, "nic")), "igb");
	json_decref(j);
	run_free(&r);
	/* no such slot: exit 4 */
	expect_fail(4, "",
		    (const char *[]){"model", "--dump", test_data("pcie-intel-82576-x4-gen1.lspci"), "-s",
				     "05:00.0", NULL});
}

/* A paravirtual NIC (the KVM guest's virtio-net 1af4:1000 in a real dump, tests/data with its
 * header) has no bus: the model says so instead of inventing a ceiling, and picks virtio-net. */
Test(model_cli, virtual_device_has_no_bus_ceiling)
{
	struct run_result r = run_pcibw(
	    NULL, (const char *[]){"model", "--dump", test_data("hwloc-kvm-virtio-pcidomain32.lspci"),
				   "--sizes", "64", "--line-rate", "1G", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_error_t je;
	json_t *j = json_loads(r.out, 0, &je);
	cr_assert(j, "%s", r.out);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "bus"), "kind")), "virtual");
	cr_assert_str_eq(json_string_value(json_object_get(j, "nic")), "virtio-net");
	json_t *row = json_array_get(json_object_get(j, "rows"), 0);
	cr_assert(json_is_null(json_object_get(row, "bus_gbps")));
	cr_assert_str_eq(json_string_value(json_object_get(row, "limit")), "wire");
	cr_assert(strstr(r.err, "no bus ceiling"), "%s", r.err);
	json_decref(j);
	run_free(&r);
}

/* The table names the sizes the bus cannot carry, so the reader need not scan the limit column,
 * and explains "stall ns" and the bound_by names. Gen1 x1, simple NIC, 1 Gbit/s: at 64 B the bus holds
 * 0.43 Gbit/s (doc/sources/pcie-model.md table B, simple bi) < 0.762 of the wire; at 1518 B it holds ~1.38 >
 * 0.987. Expected: one line naming the sizes the bus cannot carry, and a note for "to-host". */
Test(model_cli, says_which_sizes_the_bus_cannot_carry)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen1x1", "--nic", "simple", "--sizes",
					     "64,1518", "--line-rate", "1G", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "the bus cannot carry 1 Gbit/s at 64 B.\n"), "%s", r.out);
	/* 60 B of data end mid-line: the root complex's whole lines bind */
	cr_expect(strstr(r.out, "\nroot-complex: "), "%s", r.out);
	/* the bus ns/pkt column is said in words (doc/json.md bus_ns_per_packet: PCIe counts the
	 * busier direction); the default pattern is both, whose rates are per direction */
	cr_expect(strstr(r.out, "\nbus ns/pkt: how long one packet's transactions hold the bus (its busier "
				"direction); pattern both: one packet each way.\n"),
		  "%s", r.out);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"model", "--bus", "pci33/32", "--nic", "e1000", "--pattern",
					     "rx", "--sizes", "64", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "\nbus ns/pkt: how long one packet's transactions hold the bus.\n"), "%s",
		  r.out);
	run_free(&r);
	/* a tiny line rate at the bound (1 Mbit/s) keeps the headroom column aligned: every data
	 * line as long as the header line */
	r = run_pcibw(NULL, (const char *[]){"model", "--bus", "gen5x16", "--nic", "simple", "--sizes",
					     "64,1518", "--line-rate", "1M", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	char *hdr = strstr(r.out, "    size");
	cr_assert(hdr, "%s", r.out);
	size_t hl = strcspn(hdr, "\n");
	char *l1 = hdr + hl + 1;
	size_t w1 = strcspn(l1, "\n");
	const char *bound = strstr(l1, "root-complex") ? strstr(l1, "root-complex") : strstr(l1, "to-");
	cr_expect_eq(strstr(hdr, "bus bound by") - hdr, bound - l1, "bound_by column aligned:\n%s", r.out);
	(void)w1;
	run_free(&r);
}

/* --compat pcie-bench on a PCI or PCI-X bus is refused (exit 2 saying so): pcie-model does not
 * model such a bus, so "pcie-bench compatible accounting" would be a false claim. */
Test(model_cli, compat_refused_on_pci)
{
	static const char *const buses[] = {"pci33/32", "pcix133/64"};
	for (int i = 0; i < 2; i++) {
		struct run_result r = run_pcibw(
		    NULL, (const char *[]){"model", "--bus", buses[i], "--compat", "pcie-bench", NULL});
		cr_expect_eq(r.status, 2, "%s: exit %d", buses[i], r.status);
		cr_expect(strstr(r.err, "--compat pcie-bench") && strstr(r.err, "drop --compat"), "%s",
			  r.err);
		cr_expect_eq(r.out[0], '\0', "%s", r.out);
		run_free(&r);
	}
}

/* A what-if MPS above the device's Max_Payload_Size Supported: the Intel 82576 dump's lspci text
 * says "DevCap: MaxPayload 512 bytes", so mps=4096 is a coded warning naming 512 (the ceilings
 * are still given: a what-if for a device that could), and mps=512 is not. */
Test(model_cli, bus_set_mps_above_devcap)
{
	const char *dump = test_data("pcie-intel-82576-x4-gen1.lspci");
	struct run_result r = run_pcibw(NULL, (const char *[]){"model", "--dump", dump, "--bus-set",
							       "mps=4096", "--sizes", "64", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_error_t je;
	json_t *j = json_loads(r.out, 0, &je);
	cr_assert(j, "%s", r.out);
	json_t *codes = json_object_get(j, "warning_codes"), *warnings = json_object_get(j, "warnings");
	cr_assert_eq(json_array_size(codes), json_array_size(warnings));
	int at = -1;
	for (size_t i = 0; i < json_array_size(codes); i++)
		if (!strcmp(json_string_value(json_array_get(codes, i)), "mps-above-devcap"))
			at = (int)i;
	cr_assert(at >= 0, "%s", r.out);
	cr_expect(strstr(json_string_value(json_array_get(warnings, (size_t)at)), "512 bytes"), "%s", r.out);
	cr_expect(strstr(r.err, "mps=4096") && strstr(r.err, "512 bytes the device supports"), "%s", r.err);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(j, "bus"), "spec")),
			 "gen1x4,mps=4096,mrrs=512,rcb=64,aspm=l1");
	json_decref(j);
	run_free(&r);
	r = run_pcibw(
	    NULL, (const char *[]){"model", "--dump", dump, "--bus-set", "mps=512", "--sizes", "64", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(!strstr(r.err, "supports (DevCap"), "%s", r.err);
	run_free(&r);
}

/* What a size convention can hold. An IPv4 packet is at most 65535 B (RFC 791 sec. 3.1: 16-bit
 * Total Length), so a UDP payload at most 65535 - 20 - 8 = 65507 B (RFC 768), a TCP payload with
 * the timestamp option 65535 - 20 - 32 = 65483 B, an l3 size 65535 B: one more is exit 2 naming
 * the most. A frame under Ethernet's 64 B minimum (IEEE 802.3 clause 4.4.2, minFrameSize) is
 * modelled padded, and said (warning code frame-padded): 60 B frames, 17 B UDP payloads
 * (17 + 28 + 18 = 63 B). A DMA size is moved as given and a DMA test has no frame: no warning. */
Test(model_cli, sizes_their_convention_can_hold)
{
	FAIL(2, "the most is 65507 B", "--bus", "gen3x8", "--size-is", "udp-payload", "--sizes", "65508");
	FAIL(2, "the most is 65483 B", "--bus", "gen3x8", "--size-is", "tcp-payload", "--sizes", "65484");
	FAIL(2, "the most is 65535 B", "--bus", "gen3x8", "--size-is", "l3", "--sizes", "64,65536");
	static const char *ok[][3] = {
	    {"udp-payload", "65507"}, {"tcp-payload", "65483"}, {"l3", "65535"}, {"frame", "65536"}};
	for (int i = 0; i < 4; i++) {
		struct run_result r =
		    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8", "--size-is", ok[i][0],
						     "--sizes", ok[i][1], NULL});
		cr_expect_eq(r.status, 0, "%s %s: exit %d: %s", ok[i][0], ok[i][1], r.status, r.err);
		run_free(&r);
	}
	static const char *pad[][4] = {{"frame", "60,64", "both", "1 size (from 60 B)"},
				       {"udp-payload", "17,18", "rx", "1 size (from 17 B)"},
				       {"frame", "1,63,64", "tx", "2 sizes (from 1 B)"},
				       {"dma", "16", "rx", NULL},
				       {"l3", "16", "dma-read", NULL},
				       {"udp-payload", "18", "rx", NULL}};
	for (int i = 0; i < 6; i++) {
		struct run_result r = run_pcibw(
		    NULL, (const char *[]){"model", "--bus", "gen3x8", "--size-is", pad[i][0], "--sizes",
					   pad[i][1], "--pattern", pad[i][2], "--json", NULL});
		cr_assert_eq(r.status, 0, "%s %s: exit %d: %s", pad[i][0], pad[i][1], r.status, r.err);
		json_error_t je;
		json_t *root = json_loads(r.out, 0, &je);
		cr_assert(root, "%s", je.text);
		json_t *codes = json_object_get(root, "warning_codes");
		bool found = false;
		for (size_t k = 0; k < json_array_size(codes); k++)
			found = found || !strcmp(json_string_value(json_array_get(codes, k)), "frame-padded");
		cr_expect_eq(found, pad[i][3] != NULL, "%s %s %s: frame-padded %d", pad[i][0], pad[i][1],
			     pad[i][2], found);
		if (pad[i][3])
			cr_expect(strstr(r.err, pad[i][3]) && strstr(r.err, "64 B minimum"), "%s", r.err);
		json_decref(root);
		run_free(&r);
	}
}

/* whether the JSON of a run lists warning code `code` */
static bool has_code(const char *const *args, const char *code)
{
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_error_t je;
	json_t *j = json_loads(r.out, 0, &je);
	cr_assert(j, "not JSON: %s", je.text);
	bool found = false;
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(j, "warning_codes"), i, c) found |=
	    !strcmp(json_string_value(c), code);
	json_decref(j);
	run_free(&r);
	return found;
}

/* A --bus PCIe spec without mps= runs at the 128 B default (Device Control's reset value, PCIe
 * Base sec. 7.5.3.4): said with warning mps-default where that sizes a TLP, a packet moving more
 * than 128 B of data (a 1518 B frame: 1514 B DMA'd); not for 64 and 128 B frames (60 and 124 B),
 * not when mps= is given (128 included), not for PCI-X, nor for a probed device's own register. */
Test(model_cli, mps_default_said_when_it_binds)
{
	cr_expect(has_code((const char *[]){"model", "--bus", "gen3x8", "--nic", "mlx5", "--sizes", "64,1518",
					    "--json", NULL},
			   "mps-default"));
	cr_expect(!has_code((const char *[]){"model", "--bus", "gen3x8", "--nic", "mlx5", "--sizes", "64,128",
					     "--json", NULL},
			    "mps-default"));
	cr_expect(!has_code((const char *[]){"model", "--bus", "gen3x8,mps=128", "--nic", "mlx5", "--sizes",
					     "1518", "--json", NULL},
			    "mps-default"));
	cr_expect(!has_code((const char *[]){"model", "--bus", "pcix133/64", "--nic", "e1000", "--sizes",
					     "1518", "--json", NULL},
			    "mps-default"));
	cr_expect(!has_code(
	    (const char *[]){"model", "--dump",
			     test_data("../../data/examples/pcie-connectx3pro-haswell-rootport.lspci"),
			     "--sizes", "1518", "--json", NULL},
	    "mps-default"));
	cr_expect(has_code((const char *[]){"analyze",
					    test_data("../../data/examples/freebsd-2004-udp-echo-e1000.csv"),
					    "--bus", "gen2x4", "--nic", "e1000", "--json", NULL},
			   "mps-default"));
	/* the text names the spec and the default */
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8", "--sizes", "1518", NULL});
	char *flat = squash_space(r.out);
	cr_expect(strstr(flat, "warning: --bus gen3x8 gives no mps=: MPS 128 B assumed"), "%s", r.out);
	free(flat);
	run_free(&r);
}

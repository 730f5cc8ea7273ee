/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ASPM in the model and in analyze: the bus-spec modifier aspm= (PCIe only; the ceilings stay the
 * same, a note says why), --bus-set on a probed device (the 82576 dump, whose own lspci -vv text
 * says "LnkCtl: ASPM L1 Enabled" and DevCtl MaxPayload 256), and analyze's evidence when a link
 * with ASPM on idles.
 */
#include "model_helpers.h"
#include "support.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

Test(aspm, modifier_changes_no_ceiling)
{
	struct pcibw_bus a = parse_bus("gen2x4,mps=256,aspm=l1"), b = parse_bus("gen2x4,mps=256");
	cr_expect_eq(a.aspm, 2);
	cr_expect_eq(b.aspm, -1);
	cr_expect_eq(parse_bus("gen2x4,aspm=l0s-l1").aspm, 3);
	cr_expect_eq(parse_bus("gen2x4,aspm=off").aspm, 0);
	struct pcibw_nic n = load_nic("igb");
	struct pcibw_model_row ra = eval(&a, &n, PCIBW_PAT_BOTH, PCIBW_SIZE_FRAME, 0, 64);
	struct pcibw_model_row rb = eval(&b, &n, PCIBW_PAT_BOTH, PCIBW_SIZE_FRAME, 0, 64);
	cr_expect_float_eq(ra.bus_mpps, rb.bus_mpps, 0);
	struct pcibw_bus x;
	struct pcibw_err e = {0};
	cr_expect_eq(pcibw_bus_parse("pci33,aspm=l1", &x, &e), PCIBW_EUSAGE);
	cr_expect(strstr(e.msg, "applies to PCIe"), "%s", e.msg);
	cr_expect_eq(pcibw_bus_parse("gen2x4,aspm=l2", &x, &e), PCIBW_EUSAGE);
	cr_expect(strstr(e.msg, "off, l0s, l1 or l0s-l1"), "%s", e.msg);
}

Test(aspm, model_json_and_note)
{
	struct run_result r = run_pcibw(
	    NULL, (const char *[]){"model", "--bus", "gen1x1,aspm=l1", "--sizes", "64", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_t *root = json_loads(r.out, 0, NULL);
	cr_assert(root);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(root, "bus"), "aspm")), "l1");
	cr_expect(strstr(r.err, "ASPM L1 is on for this link: the ceilings are the same"), "%s", r.err);
	json_decref(root);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"model", "--bus", "pcix133,aspm=off", NULL});
	cr_expect_eq(r.status, 2, "%s", r.err);
	run_free(&r);
}

/* The 82576 dump: its link has ASPM L1 (LnkCtl "ASPM L1 Enabled" on both ends in the dump's
 * lspci -vv text) and MPS 256; --bus-set mps=128,aspm=off changes both for the what-if. */
Test(aspm, bus_set_on_a_dump)
{
	const char *dump = test_data("pcie-intel-82576-x4-gen1.lspci");
	struct run_result r = run_pcibw(NULL, (const char *[]){"model", "--dump", dump, "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_t *root = json_loads(r.out, 0, NULL), *bus = json_object_get(root, "bus");
	cr_expect_eq(json_integer_value(json_object_get(bus, "mps_bytes")), 256);
	cr_expect_str_eq(json_string_value(json_object_get(bus, "aspm")), "l1");
	json_decref(root);
	run_free(&r);
	r = run_pcibw(
	    NULL, (const char *[]){"model", "--dump", dump, "--bus-set", "mps=128,aspm=off", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	root = json_loads(r.out, 0, NULL), bus = json_object_get(root, "bus");
	cr_expect_eq(json_integer_value(json_object_get(bus, "mps_bytes")), 128);
	cr_expect_str_eq(json_string_value(json_object_get(bus, "aspm")), "off");
	cr_expect(
	    strstr(json_string_value(json_object_get(root, "bus_from")), "with --bus-set mps=128,aspm=off"));
	json_decref(root);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"model", "--dump", dump, "--bus-set", "mps=100", NULL});
	cr_expect_eq(r.status, 2, "%s", r.err);
	cr_expect(strstr(r.err, "mps=100"), "%s", r.err);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"model", "--bus", "gen1x4", "--bus-set", "aspm=off", NULL});
	cr_expect_eq(r.status, 2, "%s", r.err);
	run_free(&r);
}

/* analyze: 100 kpps of 1518 B frames (1.2 Gbit/s of a 10G wire on a gen2 x4 link: both under
 * the 60 % idle threshold) with ASPM L1 on says so; the same with aspm=off does not. */
Test(aspm, analyze_evidence)
{
	char path[] = "/tmp/pcibw-aspm-XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs("frame_bytes,kpps,cpu_pct\n1518,100,20\n", f);
	fclose(f);
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"analyze", "--bus", "gen2x4,mps=256,aspm=l1", "--nic", "igb",
					     "--line-rate", "10G", path, NULL});
	cr_expect(strstr(r.out, "ASPM L1 is on for the NIC's link") && strstr(r.out, "pcie_aspm=off"),
		  "%s\n%s", r.out, r.err);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"analyze", "--bus", "gen2x4,mps=256,aspm=off", "--nic", "igb",
					     "--line-rate", "10G", path, NULL});
	cr_expect(!strstr(r.out, "ASPM"), "%s", r.out);
	run_free(&r);
	unlink(path);
}

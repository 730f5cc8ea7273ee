/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `port_fit` in `pcibw report`: the report must ask the model about the right bus, profile,
 * ports and line rate. Each test names where its inputs come from (the dump's lspci -vv text,
 * the synthetic file's header, data/nic-ports.txt's datasheet rows); the expected ratios are
 * pcibw_port_fit_eval's on exactly those inputs, so the test checks the wiring, and
 * tests/model/test_port_fit.c checks the evaluation.
 */
#include "pcibw/device.h"
#include "pcibw/model.h"
#include "pcibw/portfit.h"
#include "report_helpers.h"

static struct pcibw_port_fit expected(const char *spec, const char *nic_name, int ports, double gbps)
{
	struct pcibw_bus b;
	struct pcibw_nic n;
	struct pcibw_err e;
	cr_assert_eq(pcibw_bus_parse(spec, &b, &e), 0, "%s", e.msg);
	cr_assert_eq(pcibw_nic_load(nic_name, NULL, &n, &e), 0, "%s", e.msg);
	struct pcibw_port_fit f;
	cr_assert_eq(pcibw_port_fit_eval(&b, &n, ports, gbps, 1, &f, &e), 0, "%s", e.msg);
	return f;
}

static void fit_is(json_t *d, const struct pcibw_port_fit *want, bool assumed)
{
	json_t *f = json_object_get(d, "port_fit");
	cr_assert(json_is_object(f), "port_fit is not an object");
	cr_assert_eq(integer(f, "ports"), want->ports);
	near(real(f, "line_rate_gbps"), want->line_rate_gbps);
	cr_assert_eq(boolean(f, "line_rate_assumed"), assumed);
	near(real(f, "ratio_64"), want->ratio_64);
	near(real(f, "ratio_1518"), want->ratio_1518);
	near(real(f, "ratio_64_low"), want->ratio_64_low);
	near(real(f, "ratio_64_high"), want->ratio_64_high);
	near(real(f, "ratio_1518_low"), want->ratio_1518_low);
	near(real(f, "ratio_1518_high"), want->ratio_1518_high);
	if (want->min_line_rate_bytes == PCIBW_NULL)
		expect_null(f, "min_line_rate_bytes");
	else
		cr_assert_eq(integer(f, "min_line_rate_bytes"), want->min_line_rate_bytes);
}

/* synthetic-pcie-2x10g-behind-x4-gen2.lspci (see its header): two 82599 functions, 10G each per
 * the ports table (82599 datasheet), behind the x4 Gen2 hop; kernel-82599 is the profile whose
 * `match` lists 8086:10fb. */
Test(port_fit_report, two_ports_behind_a_narrower_hop)
{
	json_t *r = report_dump("synthetic-pcie-2x10g-behind-x4-gen2.lspci", NULL, NULL);
	struct pcibw_port_fit want = expected("gen2x4,mps=256,mrrs=512", "kernel-82599", 2, 20);
	cr_assert_eq(want.min_line_rate_bytes, PCIBW_NULL, "20 Gbit/s cannot fit a 16 Gbit/s link");
	fit_is(device(r, "0000:03:00.0"), &want, true);
	fit_is(device(r, "0000:03:00.1"), &want, true);
	json_decref(r);
	char *t = report_text("synthetic-pcie-2x10g-behind-x4-gen2.lspci", "03:00.0");
	cr_assert(
	    strstr(t, "port fit:    2 x 10G (assumed from the ports table) on this x4 Gen2 link: below line "
		      "rate at every frame size up to 1518 B"),
	    "%s", t);
	/* the ratios as shares of line rate, labelled: "(NN % of it at 1518 B)", "NN % of the ... line
	 * rate" */
	char want_text[160];
	snprintf(want_text, sizeof want_text,
		 "up to 1518 B (%.0f %% of it at 1518 B); at 64 B the bus carries ", want.ratio_1518 * 100);
	cr_assert(strstr(t, want_text), "%s in %s", want_text, t);
	snprintf(want_text, sizeof want_text, ", %.0f %% of the 29.8 Mpps line rate, profile kernel-82599",
		 want.ratio_64 * 100);
	cr_assert(strstr(t, want_text), "2 x 10^10 / (8 x 84) = 29.76 Mpps at 64 B: %s in %s", want_text, t);
	free(t);
}

/* pcie-intel-82576-x4-gen1.lspci: "LnkSta: Speed 2.5GT/s, Width x4", "MaxPayload 256 bytes,
 * MaxReadReq 512 bytes"; one function in the dump, one 1G port per function (82576 datasheet);
 * igb lists 8086:10c9. */
Test(port_fit_report, intel_82576_dump)
{
	json_t *r = report_dump("pcie-intel-82576-x4-gen1.lspci", NULL, NULL);
	struct pcibw_port_fit want = expected("gen1x4,mps=256,mrrs=512", "igb", 1, 1);
	json_t *d = device(r, "0000:01:00.0");
	fit_is(d, &want, true);
	/* the bus modelled, as the dump's text has it ("RCB 64 bytes", "ASPM L1 Enabled"): every
	 * register from the source, none assumed */
	json_t *f = json_object_get(d, "port_fit");
	cr_assert_str_eq(str(f, "bus_modelled"), "gen1x4,mps=256,mrrs=512,rcb=64,aspm=l1");
	expect_null(f, "bus_assumed");
	expect_null(d, "driver");
	expect_null(d, "interface_driver");
	expect_null(d, "firmware");
	json_decref(r);
}

/* sysfs/synthetic-aspm-nonroot (README.md): 2.5 GT/s x1 from sysfs, MPS/MRRS unknown (the
 * contract's defaults 128/512), eth0 at 1000 Mbit/s, driver link igb. */
Test(port_fit_report, sysfs_interface_speed_and_driver)
{
	const char *args[] = {"report", "--sysfs", test_data("sysfs/synthetic-aspm-nonroot"), NULL};
	json_t *r = report_json(0, args);
	json_t *d = device(r, "0000:01:00.0");
	struct pcibw_port_fit want = expected("gen1x1", "igb", 1, 1);
	fit_is(d, &want, false);
	cr_assert_str_eq(str(d, "driver"), "igb");
	cr_assert_str_eq(prov(d, "driver"), "sysfs");
	/* net/eth0 sits right under the function: its interface is the function's driver's */
	cr_assert_str_eq(str(d, "interface_driver"), "igb");
	expect_null(d, "firmware");
	json_decref(r);
}

/* null with the reason: no line rate (AR928X wireless, 168c:002a, is in no table row), no
 * profile (Myri-10G 14c1:0008 is in the table, in no profile), a paravirtual device */
Test(port_fit_report, null_with_a_reason)
{
	json_t *r = report_dump("tree-ich7-rtl8101e.lspci", NULL, NULL);
	json_t *d = device(r, "0000:02:00.0");
	expect_null(d, "port_fit");
	cr_assert(noted(d, "port-fit-unknown", "168c:002a is not in the ports table"));
	json_decref(r);
	r = report_dump("pcie-myri10g-x8-gen1.lspci", NULL, NULL);
	d = device(r, "0000:02:00.0");
	expect_null(d, "port_fit");
	cr_assert(noted(d, "port-fit-unknown", "no NIC profile lists 14c1:0008"));
	json_decref(r);
	r = report_dump("synthetic-virtio-pci.lspci", NULL, NULL);
	size_t i;
	json_array_foreach(json_object_get(r, "devices"), i, d)
	{
		expect_null(d, "port_fit");
		cr_assert(noted(d, "port-fit-unknown", "paravirtual"));
	}
	json_decref(r);
}

/* An hwloc export holds no config space (doc: --topology), so no bus kind: the port fit's reason
 * sits in the device's own block and says so once, without the slot the block already names and
 * without parentheses inside parentheses. */
Test(port_fit_report, unknown_bus_reason_names_no_slot_twice)
{
	const char *args[] = {"report", "--topology",
			      test_data("hwloc/hp-sl390s-g7-82576-connectx2-gpus.xml"), NULL};
	struct run_result t = run_pcibw(NULL, args);
	cr_assert_eq(t.status, 0, "%s", t.err);
	cr_assert(strstr(t.out, "0000:04:00.0  Intel Corporation 82576"), "%s", t.out);
	cr_assert(strstr(t.out, "  port fit:    unknown (the bus it runs on is unknown: the source does not "
				"show it)\n"),
		  "%s", t.out);
	cr_assert(!strstr(t.out, "unknown (0000:04:00.0:"), "%s", t.out);
	run_free(&t);
	json_t *r =
	    report_json(0, (const char *[]){"report", "--topology",
					    test_data("hwloc/hp-sl390s-g7-82576-connectx2-gpus.xml"), NULL});
	cr_assert(noted(device(r, "0000:04:00.0"), "port-fit-unknown",
			"port fit unknown: the bus it runs on is unknown: the source does not show it"));
	json_decref(r);
}

/* synthetic-pcie-82576-vf.lspci (see its header): a VF is no port */
Test(port_fit_report, virtual_function_is_no_port)
{
	json_t *r = report_dump("synthetic-pcie-82576-vf.lspci", NULL, NULL);
	json_t *vf = device(r, "0000:01:10.0");
	expect_null(vf, "port_fit");
	cr_assert(noted(vf, "port-fit-unknown", "virtual function"));
	json_t *pf = device(r, "0000:01:00.0");
	cr_assert_eq(integer(json_object_get(pf, "port_fit"), "ports"), 1);
	json_decref(r);
}

/* sysfs/skx-2s-cx4-x722, a real copy (tests/data/sysfs/README.md): the X722 60:00.0 is the LAN
 * inside the C620 chipset, its uplink 5d:02.0 at 8 GT/s x8 (current_link_*); enp96s0f0 "up,
 * speed 1000"; 60:00.1's enp96s0f1 is down with an empty speed file, so its 10G comes from the
 * ports table (C620 datasheet: 10GBASE-T). Non-root copy: MPS/MRRS unknown, the defaults. */
Test(port_fit_report, real_copy_onpackage_x722)
{
	const char *args[] = {"report", "--sysfs", test_data("sysfs/skx-2s-cx4-x722"), "-s", "60:00.0", NULL};
	json_t *r = report_json(0, args);
	json_t *d = device(r, "0000:60:00.0");
	struct pcibw_port_fit want = expected("gen3x8", "i40e", 2, 1 + 10);
	fit_is(d, &want, true);
	/* a copy without Device Control: the contract's MPS 128, MRRS 512, RCB 64, said so */
	cr_assert_str_eq(str(json_object_get(d, "port_fit"), "bus_assumed"), "MPS 128, MRRS 512, RCB 64");
	cr_assert_str_eq(str(d, "driver"), "i40e", "driver -> ../../bus/pci/drivers/i40e");
	json_decref(r);
	/* the text names the bus it modelled (not the 2.5 GT/s x1 link the card shows above it) and
	 * the two ports as they are, 1G and 10G, not two ports of their 5.5G mean */
	struct run_result t = run_pcibw(NULL, args);
	cr_assert_eq(t.status, 0, "%s", t.err);
	cr_assert(strstr(t.out, "port fit:    2 ports (1G to 10G, 11G in all) (assumed from the ports "
				"table) on the chipset's uplink 0000:5d:02.0, x8 Gen3 link: "),
		  "%s", t.out);
	cr_assert(!strstr(t.out, "5.5G"), "%s", t.out);
	/* a bus above line rate reads as a share over 100 %, not "38.1 of 16.4 Mpps": 11 Gbit/s of
	 * 64 B frames (84 B on the wire) is 11 x 10^9 / (8 x 84) = 16.37 Mpps */
	cr_assert_gt(want.ratio_64, 1);
	char share[96];
	snprintf(share, sizeof share, "%.0f %% of the 16.4 Mpps line rate, profile i40e",
		 want.ratio_64 * 100);
	cr_assert(strstr(t.out, share), "%s in %s", share, t.out);
	cr_assert(strstr(t.out, "profile i40e; MPS 128, MRRS 512, RCB 64 assumed (not in the source)\n"),
		  "%s", t.out);
	run_free(&t);
}

/* lkml-2006-via-pm133-82546eb-conventional-pci.lspci (its header and lspci -vv text): the two
 * functions of an 82546EB, "00:12.0/00:12.1 Ethernet controller", each "Latency: 64 ... Cache
 * Line Size: 32 bytes", on a conventional 33 MHz segment of unknown width (32 bits assumed), one
 * 1G port per function (82546EB datasheet, data/nic-ports.txt); e1000 lists 8086:1010. Both
 * functions master the one segment: the model's rate with segment_devices 2 is each one's share
 * (doc/model-pci.md: pps per device = clock / (segment_devices x clocks per packet)), so the
 * card's ceiling is the two shares together, set against both ports' need: at 64 B 2 x 10^9 /
 * (8 x 84) = 2.976 Mpps, at 1518 B 2 x 10^9 / (8 x 1538) = 0.1625 Mpps. One share alone against
 * both ports would count the card's bus twice. */
Test(port_fit_report, two_functions_on_one_pci_segment_add_their_shares)
{
	struct pcibw_bus b;
	struct pcibw_nic n;
	struct pcibw_err e;
	cr_assert_eq(pcibw_bus_parse("pci33/32,latency_timer=64", &b, &e), 0, "%s", e.msg);
	b.cacheline_bytes = 32;
	cr_assert_eq(pcibw_nic_load("e1000", NULL, &n, &e), 0, "%s", e.msg);
	struct pcibw_model_in in = {.bus = &b,
				    .nic = &n,
				    .pattern = PCIBW_PAT_BOTH,
				    .size_is = PCIBW_SIZE_FRAME,
				    .segment_devices = 2};
	struct pcibw_model_row r64, r1518;
	cr_assert_eq(pcibw_model_eval(&in, 64, &r64, &e), 0, "%s", e.msg);
	cr_assert_eq(pcibw_model_eval(&in, 1518, &r1518, &e), 0, "%s", e.msg);
	double need64 = 2e9 / (8.0 * 84) / 1e6, need1518 = 2e9 / (8.0 * 1538) / 1e6;

	json_t *r = report_dump("lkml-2006-via-pm133-82546eb-conventional-pci.lspci", NULL, NULL);
	for (int k = 0; k < 2; k++) {
		json_t *f = json_object_get(device(r, k ? "0000:00:12.1" : "0000:00:12.0"), "port_fit");
		cr_assert(json_is_object(f));
		cr_assert_eq(integer(f, "ports"), 2);
		near(real(f, "line_rate_gbps"), 2);
		near(real(f, "ratio_64"), 2 * r64.bus_mpps / need64);
		near(real(f, "ratio_1518"), 2 * r1518.bus_mpps / need1518);
	}
	json_decref(r);
	char *t = report_text("lkml-2006-via-pm133-82546eb-conventional-pci.lspci", "00:12.0");
	char want[96];
	snprintf(want, sizeof want, "at 64 B the bus carries %.3g Mpps, %.0f %% of the 2.98 Mpps line rate",
		 2 * r64.bus_mpps, 2 * r64.bus_mpps / need64 * 100);
	cr_assert(strstr(t, want), "%s: %s", want, t);
	free(t);
}

/* The ports table is read from the data directory: a FIFO there (no writer) would block open()
 * and read() for ever, a directory would read as an empty table. Both are named as what they
 * are, and the port fit is unknown for that reason; the report still comes (exit 0). */
Test(port_fit_report, a_ports_table_that_is_no_file_is_named_not_waited_on)
{
	static const char *const make[] = {"mkfifo", "mkdir"};
	static const char *const kind[] = {"nic-ports.txt: is a pipe or FIFO",
					   "nic-ports.txt: is a directory"};
	for (int i = 0; i < 2; i++) {
		char cmd[1200];
		snprintf(
		    cmd, sizeof cmd,
		    "d=$(mktemp -d) && cp -r \"$PCIBW_DATA_DIR/nic\" \"$d/\" && %s \"$d/nic-ports.txt\" && "
		    "PCIBW_DATA_DIR=\"$d\" timeout 20 \"$PCIBW_EXE\" report --json --dump "
		    "\"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\"; rc=$?; rm -rf \"$d\"; exit $rc",
		    make[i]);
		struct run_result r = run_cmd(NULL, (const char *[]){"sh", "-c", cmd, NULL});
		cr_assert_eq(r.status, 0, "%s: exit %d (124: it waited): %s", make[i], r.status, r.err);
		json_error_t je;
		json_t *j = json_loads(r.out, 0, &je);
		cr_assert(j, "%s", je.text);
		json_t *d = device(j, "0000:01:00.0");
		expect_null(d, "port_fit");
		cr_assert(noted(d, "port-fit-unknown", kind[i]), "%s: %s", make[i], r.out);
		json_decref(j);
		run_free(&r);
	}
}

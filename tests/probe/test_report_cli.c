/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw report` options and output shape: every contract key present, -s, exit codes, the
 * text layout (doc/cli-contract.md "report JSON", "Exit codes"). */
#include "report_helpers.h"

static const char *const device_keys[] = {
    "slot",	      "vendor_id",   "device_id",	"class",	   "name",
    "virtual",	      "bus_kind",    "pcix_capable",	"pcix_mode",	   "bus_mhz",
    "bus_width_bits", "mmrbc_bytes", "link_speed_gts",	"link_width",	   "max_link_speed_gts",
    "max_link_width", "downgraded",  "mps_bytes",	"mrrs_bytes",	   "numa_node",
    "interfaces",     "path",	     "bottleneck_slot", "bottleneck_gbps", "bottleneck_shared",
    "provenance"};

Test(report_cli, every_contract_key_present)
{
	const char *files[] = {"pcix-ibm-eadsx-82545em-multidomain.lspci",
			       "pcie-connectx3pro-haswell-rootport.lspci",
			       "hwloc-kvm-virtio-pcidomain32.lspci"};
	for (int f = 0; f < 3; f++) {
		json_t *root = report_dump(files[f], "--all", NULL);
		cr_assert(json_is_string(json_object_get(root, "source")));
		cr_assert(json_is_array(json_object_get(root, "warnings")));
		size_t i;
		json_t *d;
		json_array_foreach(json_object_get(root, "devices"), i, d)
		{
			for (size_t k = 0; k < sizeof device_keys / sizeof *device_keys; k++)
				cr_assert_not_null(json_object_get(d, device_keys[k]), "%s: %s missing",
						   files[f], device_keys[k]);
			cr_assert(json_is_array(json_object_get(d, "interfaces")));
			expect_null(d, "numa_node"); /* a dump holds no NUMA node: null, never 0 */
			size_t j;
			json_t *h;
			json_array_foreach(json_object_get(d, "path"), j, h)
			{
				const char *hk[] = {"slot", "bus_kind", "link_speed_gts", "link_width",
						    "gbps"};
				for (int k = 0; k < 5; k++)
					cr_assert_not_null(json_object_get(h, hk[k]));
			}
		}
		json_decref(root);
	}
}

Test(report_cli, slot_filter_and_no_match)
{
	json_t *root = report_dump("pcix-ibm-eadsx-82545em-multidomain.lspci", "-s", "0002:42:");
	cr_assert_eq(json_array_size(json_object_get(root, "devices")), 4);
	json_decref(root);
	const char *args[] = {"report", "--dump",	test_data("pcix-ibm-eadsx-82545em-multidomain.lspci"),
			      "-s",	"0005:00:01.0", NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 4);
	cr_assert(strstr(r.err, "0005:00:01.0"), "%s", r.err);
	run_free(&r);
	/* -s and -i together: the message says which one found nothing (0002:42: holds 4 devices,
	 * a dump names no interface) */
	const char *both[] = {"report", "--dump",   test_data("pcix-ibm-eadsx-82545em-multidomain.lspci"),
			      "-s",	"0002:42:", "-i",
			      "eth0",	NULL};
	r = run_pcibw(NULL, both);
	cr_assert_eq(r.status, 4);
	cr_assert(strstr(r.err, "-s 0002:42: matches, but no device there has interface eth0"), "%s", r.err);
	run_free(&r);
	const char *bad[] = {"report", "--dump",  test_data("pcix-ibm-eadsx-82545em-multidomain.lspci"),
			     "-s",     "zz:xx.9", NULL};
	r = run_pcibw(NULL, bad);
	cr_assert_eq(r.status, 2, "bad -s is a usage error, got %d", r.status);
	run_free(&r);
}

Test(report_cli, usage_errors)
{
	const char *two[] = {"report", "--dump", "a", "--topology", "b", NULL};
	struct run_result r = run_pcibw(NULL, two);
	cr_assert_eq(r.status, 2);
	run_free(&r);
	const char *fmt[] = {
	    "report", "--format", "xml", "--dump", test_data("pcie-intel-82576-x4-gen1.lspci"), NULL};
	r = run_pcibw(NULL, fmt);
	cr_assert_eq(r.status, 2);
	run_free(&r);
	const char *extra[] = {"report", "stray", NULL};
	r = run_pcibw(NULL, extra);
	cr_assert_eq(r.status, 2);
	run_free(&r);
}

Test(report_cli, default_command_takes_report_options)
{
	const char *args[] = {"--json", "--dump", test_data("pcie-intel-82576-x4-gen1.lspci"), NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"slot\": \"0000:01:00.0\""), "%s", r.out);
	run_free(&r);
}

Test(report_cli, text_one_block_per_nic_bus_first)
{
	const char *args[] = {"report", "--dump", test_data("pcix-ibm-eadsx-82545em-multidomain.lspci"),
			      NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0);
	int blocks = 0;
	for (const char *p = r.out; (p = strstr(p, "\n\n0")); p++)
		blocks++;
	cr_assert_eq(blocks, 9, "one block per network controller:\n%s", r.out);
	const char *blk = strstr(r.out, "0002:01:01.0");
	cr_assert_not_null(blk);
	const char *bus = strstr(blk, "bus:"), *bot = strstr(blk, "bottleneck:"),
		   *path = strstr(blk, "path:");
	cr_assert(bus && bot && path && bus < bot && bot < path, "%s", blk);
	cr_assert(strstr(blk, "PCI-X 133 MHz 64-bit"), "%s", blk);
	run_free(&r);
}

Test(report_cli, csv_one_row_per_device)
{
	/* header "Intel 82576 (8086:10c9) NIC, LnkCap/LnkSta 2.5GT/s x4"; nulls are empty fields */
	const char *args[] = {
	    "report", "--format", "csv", "--dump", test_data("pcie-intel-82576-x4-gen1.lspci"), NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strncmp(r.out, "slot,vendor_id,device_id,class,name,virtual,bus_kind,", 53), "%s", r.out);
	const char *row = strchr(r.out, '\n') + 1;
	cr_assert(!strncmp(row, "0000:01:00.0,0x8086,0x10c9,0x0200,", 34), "%s", row);
	cr_assert(strstr(row, ",pcie,false,,,,,2.5,4,2.5,4,false,256,512,,,,0000:01:00.0,8,false,"), "%s",
		  row);
	/* added columns: "LnkCtl: ASPM L1 Enabled", "LnkCap: ASPM L0s L1, Latency L0 <4us, L1 <64us",
	 * "ClockPM-", "DevCap: MaxPayload 512 bytes"; the upstream port is not in the dump */
	cr_assert(strstr(row, ",false,l1,,l0s-l1,4000,64000,false,512,,,\n"),
		  "%s (a dump: no driver, no interface driver, no firmware)", row);
	run_free(&r);
}

Test(report_cli, names_from_the_given_pci_ids)
{
	/* tests/data/synthetic-pci.ids names 8086:10c9 "Synthetic Vendor" / "Synthetic 82576 NIC" */
	json_t *root =
	    report_dump("pcie-intel-82576-x4-gen1.lspci", "--pci-ids", test_data("synthetic-pci.ids"));
	cr_assert_str_eq(str(device(root, "0000:01:00.0"), "name"), "Synthetic Vendor Synthetic 82576 NIC");
	json_decref(root);
	const char *args[] = {"report",
			      "--dump",
			      test_data("pcie-intel-82576-x4-gen1.lspci"),
			      "--pci-ids",
			      "/nonexistent/pci.ids",
			      NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 3);
	cr_assert(strstr(r.err, "/nonexistent/pci.ids"), "%s", r.err);
	run_free(&r);
}

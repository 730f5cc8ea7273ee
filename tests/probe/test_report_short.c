/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 64-byte config dumps (the hwloc-*.lspci files: "config files are 64 bytes long ... NO
 * LnkCap/LnkSta/PCI-X/MSI data here"): identity and tree from the header, and a clear
 * statement of what a 64-byte dump cannot show. Device lists and ids from each file's header.
 */
#include "report_helpers.h"

static void missing_stated(json_t *root, const char *slot)
{
	json_t *d = device(root, slot);
	cr_assert(warned(root, slot, "only 64 bytes of config space"), "%s: no warning", slot);
	cr_assert(warned(root, slot, "no link speed or width"));
	cr_assert(warned(root, slot, "no PCI-X"));
	cr_assert(warned(root, slot, "no MPS"));
	expect_null(d, "link_speed_gts");
	expect_null(d, "link_width");
	expect_null(d, "max_link_speed_gts");
	expect_null(d, "mps_bytes");
	expect_null(d, "mrrs_bytes");
	expect_null(d, "mmrbc_bytes");
	expect_null(d, "pcix_mode");
	cr_assert_str_eq(str(d, "bus_kind"), "unknown");
}

Test(report_short, dell_r910_bcm5709_and_qlogic_ib)
{
	json_t *root = report_dump("hwloc-dell-r910-4n-bcm5709-qib.lspci", NULL, NULL);
	const char *nics[] = {"0000:02:00.0", "0000:02:00.1", "0000:03:00.0", "0000:03:00.1"};
	const char *up[] = {"0000:00:05.0", "0000:00:05.0", "0000:00:06.0", "0000:00:06.0"};
	for (int i = 0; i < 4; i++) {
		json_t *d = device(root, nics[i]);
		cr_assert_str_eq(str(d, "vendor_id"), "0x14e4");
		cr_assert_str_eq(str(d, "device_id"), "0x1639");
		cr_assert_str_eq(str(d, "class"), "0x0200");
		path_is(d, &up[i], 1);
		missing_stated(root, nics[i]);
	}
	json_t *ib = device(root, "0000:43:00.0"); /* class 0x0c06 counts as network */
	cr_assert_str_eq(str(ib, "class"), "0x0c06");
	cr_assert_str_eq(str(ib, "vendor_id"), "0x1077");
	cr_assert_str_eq(str(ib, "device_id"), "0x7322");
	path_is(ib, (const char *[]){"0000:40:03.0"}, 1);
	missing_stated(root, "0000:43:00.0");
	cr_assert_eq(json_array_size(json_object_get(root, "devices")), 5);
	json_decref(root);
}

Test(report_short, dell_snb_i350_and_connectx3)
{
	json_t *root = report_dump("hwloc-dell-snb-2n-i350-cx3.lspci", NULL, NULL);
	const char *i350[] = {"0000:02:00.0", "0000:02:00.3"};
	for (int i = 0; i < 2; i++) {
		json_t *d = device(root, i350[i]);
		cr_assert_str_eq(str(d, "device_id"), "0x1521");
		path_is(d, (const char *[]){"0000:00:01.1"}, 1);
		missing_stated(root, i350[i]);
	}
	json_t *cx3 = device(root, "0000:82:00.0");
	cr_assert_str_eq(str(cx3, "class"), "0x0280");
	cr_assert_str_eq(str(cx3, "device_id"), "0x1003");
	path_is(cx3, (const char *[]){"0000:80:02.2"}, 1);
	missing_stated(root, "0000:82:00.0");
	json_decref(root);
}

Test(report_short, skx_paths_through_plx_switches)
{
	json_t *root = report_dump("hwloc-skx-2s-cx4-x722.lspci", NULL, NULL);
	path_is(device(root, "0000:1a:00.0"),
		(const char *[]){"0000:19:04.0", "0000:18:00.0", "0000:17:00.0"}, 3);
	path_is(device(root, "0000:3e:00.0"),
		(const char *[]){"0000:3c:08.0", "0000:3b:00.0", "0000:3a:00.0"}, 3);
	path_is(device(root, "0000:60:00.0"),
		(const char *[]){"0000:5f:03.0", "0000:5e:00.0", "0000:5d:02.0"}, 3);
	cr_assert_str_eq(str(device(root, "0000:1a:00.0"), "class"), "0x0207");
	missing_stated(root, "0000:60:00.1");
	/* no bandwidth is knowable: no bottleneck rather than a guess */
	expect_null(device(root, "0000:1a:00.0"), "bottleneck_gbps");
	json_decref(root);
}

Test(report_short, kvm_virtio_net_is_virtual_without_ceiling)
{
	json_t *root = report_dump("hwloc-kvm-virtio-pcidomain32.lspci", NULL, NULL);
	json_t *d = device(root, "0000:00:03.0");
	cr_assert_str_eq(str(d, "vendor_id"), "0x1af4");
	cr_assert_str_eq(str(d, "device_id"), "0x1000");
	cr_assert_str_eq(str(d, "name"), "Red Hat, Inc. Virtio network device");
	cr_assert(boolean(d, "virtual"));
	expect_null(d, "bus_mhz");
	expect_null(d, "bottleneck_gbps");
	expect_null(d, "bottleneck_slot");
	cr_assert(warned(root, "0000:00:03.0", "paravirtual"));
	cr_assert_eq(json_array_size(json_object_get(root, "devices")), 1);
	json_decref(root);
}

Test(report_short, kvm_domain_10000_stays_whole)
{
	json_t *root = report_dump("hwloc-kvm-virtio-pcidomain32.lspci", "--all", NULL);
	json_t *d = device(root, "10000:00:04.0"); /* contract: the domain keeps all its digits */
	cr_assert_str_eq(str(d, "device_id"), "0x1001");
	cr_assert(boolean(d, "virtual"));
	/* sorted by slot: domain 0 before domain 0x10000 */
	json_t *devs = json_object_get(root, "devices");
	cr_assert_str_eq(str(json_array_get(devs, json_array_size(devs) - 1), "slot"), "10000:00:04.0");
	json_decref(root);
}

Test(report_short, text_names_what_is_missing)
{
	const char *args[] = {"report", "--dump", test_data("hwloc-dell-snb-2n-i350-cx3.lspci"), NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0);
	/* the note sits in the device's own block, before the next device */
	const char *blk = strstr(r.out, "\n0000:02:00.0 ");
	cr_assert_not_null(blk, "%s", r.out);
	const char *next = strstr(blk + 1, "\n0000:02:00.3 ");
	const char *note = strstr(blk, "note:        only 64 bytes of config space");
	cr_assert(note && next && note < next, "%s", r.out);
	cr_assert(strstr(note, "no link speed or width, no PCI-X mode or MMRBC, no MPS or MRRS"));
	run_free(&r);
}

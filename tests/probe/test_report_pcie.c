/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCIe from real dumps (pciutils test-suite inputs; each file's header and lspci -vvv text
 * state the link): expected values from those headers and that text. Bandwidths by hand:
 * GT/s x lanes x encoding (8/10 at 2.5 GT/s, 128/130 at 8 GT/s; PCIe Base 6.0 sec. 4.2).
 */
#include "report_helpers.h"

Test(report_pcie, intel_82576_gen1_x4)
{
	/* header: "Intel 82576 (8086:10c9) NIC, LnkCap/LnkSta 2.5GT/s x4";
	 * lspci text: "MaxPayload 256 bytes, MaxReadReq 512 bytes" */
	json_t *root = report_dump("pcie-intel-82576-x4-gen1.lspci", NULL, NULL);
	json_t *d = device(root, "0000:01:00.0");
	cr_assert_str_eq(str(d, "device_id"), "0x10c9");
	cr_assert_str_eq(str(d, "bus_kind"), "pcie");
	near(real(d, "link_speed_gts"), 2.5);
	cr_assert_eq(integer(d, "link_width"), 4);
	near(real(d, "max_link_speed_gts"), 2.5);
	cr_assert_eq(integer(d, "max_link_width"), 4);
	cr_assert(!boolean(d, "downgraded"));
	cr_assert_eq(integer(d, "mps_bytes"), 256);
	cr_assert_eq(integer(d, "mrrs_bytes"), 512);
	cr_assert_eq(integer(d, "rcb_bytes"), 64); /* "RCB 64 bytes" */
	path_is(d, NULL, 0);
	cr_assert_str_eq(str(d, "bottleneck_slot"), "0000:01:00.0");
	near(real(d, "bottleneck_gbps"), 2.5 * 4 * 0.8);
	cr_assert(!boolean(d, "bottleneck_shared"));
	cr_assert(!boolean(d, "virtual"));
	json_decref(root);
}

Test(report_pcie, connectx3pro_tie_goes_to_root_port)
{
	/* header: "Haswell-E root port + Mellanox ConnectX-3 Pro, 8GT/s x8" */
	json_t *root = report_dump("pcie-connectx3pro-haswell-rootport.lspci", NULL, NULL);
	json_t *d = device(root, "0000:03:00.0");
	near(real(d, "link_speed_gts"), 8);
	cr_assert_eq(integer(d, "link_width"), 8);
	near(real(d, "max_link_speed_gts"), 8); /* LnkCap2 "Supported Link Speeds: 2.5-8GT/s" */
	path_is(d, (const char *[]){"0000:00:02.0"}, 1);
	json_t *hop = json_array_get(json_object_get(d, "path"), 0);
	cr_assert_str_eq(str(hop, "bus_kind"), "pcie");
	near(real(hop, "link_speed_gts"), 8);
	cr_assert_eq(integer(hop, "link_width"), 8);
	near(real(hop, "gbps"), 8.0 * 8 * 128 / 130);
	cr_assert_str_eq(str(d, "bottleneck_slot"), "0000:00:02.0");
	near(real(d, "bottleneck_gbps"), 8.0 * 8 * 128 / 130); /* 63.015, not the kernel's 63.008 */
	cr_assert_eq(integer(d, "mps_bytes"), 256);
	cr_assert_eq(integer(d, "mrrs_bytes"), 512);
	cr_assert(!boolean(d, "downgraded"));
	json_decref(root);
}

Test(report_pcie, myri10g_gen1_x8_mps128)
{
	/* header: "Myricom Myri-10G NIC, 2.5GT/s x8"; lspci text: MPS 128 */
	json_t *root = report_dump("pcie-myri10g-x8-gen1.lspci", NULL, NULL);
	json_t *d = device(root, "0000:02:00.0");
	near(real(d, "link_speed_gts"), 2.5);
	cr_assert_eq(integer(d, "link_width"), 8);
	cr_assert_eq(integer(d, "mps_bytes"), 128);
	near(real(d, "bottleneck_gbps"), 2.5 * 8 * 0.8);
	json_decref(root);
}

Test(report_pcie, root_port_trained_below_capability_is_exempt)
{
	/* header: "QuickPath IOH root port, LnkCap 5GT/s x4, LnkSta 2.5GT/s x4"; lspci exempts root
	 * ports from "downgraded" (ls-caps.c link_compare) */
	json_t *root = report_dump("pcie-rootport-5gt-x4-trained-2.5gt.lspci", "--all", NULL);
	json_t *d = device(root, "0000:00:01.0");
	cr_assert_str_eq(str(d, "class"), "0x0604");
	cr_assert_str_eq(str(d, "pcie_port_type"), "root-port");
	near(real(d, "link_speed_gts"), 2.5);
	cr_assert_eq(integer(d, "link_width"), 4);
	near(real(d, "max_link_speed_gts"), 5);
	cr_assert_eq(integer(d, "max_link_width"), 4);
	expect_null(d, "downgraded");
	json_decref(root);
}

Test(report_pcie, root_port_alone_is_not_a_nic)
{
	const char *args[] = {"report", "--dump", test_data("pcie-rootport-5gt-x4-trained-2.5gt.lspci"),
			      NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 4, "no network controller -> exit 4, got %d", r.status);
	cr_assert(strstr(r.err, "no network controller"), "stderr: %s", r.err);
	run_free(&r);
}

Test(report_pcie, asus_rtl8111_behind_ich10_port)
{
	/* the file's hex (no -vvv text), by hand: RTL8111 at 2.5 GT/s x1, below root port 0000:00:1c.2 */
	json_t *root = report_dump("tree-asus-p6t6-x58-rtl8111.lspci", "-s", "07:00.0");
	cr_assert_eq(json_array_size(json_object_get(root, "devices")), 1);
	json_t *d = device(root, "0000:07:00.0");
	cr_assert_str_eq(str(d, "vendor_id"), "0x10ec");
	cr_assert_str_eq(str(d, "device_id"), "0x8168");
	near(real(d, "link_speed_gts"), 2.5);
	cr_assert_eq(integer(d, "link_width"), 1);
	path_is(d, (const char *[]){"0000:00:1c.2"}, 1);
	json_decref(root);
}

Test(report_pcie, thunderx_soc_nic_has_no_link)
{
	/* header: "Cavium ThunderX on-chip NIC (... link Speed unknown, Width x0)" */
	json_t *root = report_dump("thunderx-soc-nic-ea.lspci", NULL, NULL);
	json_t *d = device(root, "0002:01:00.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pcie");
	expect_null(d, "link_speed_gts");
	expect_null(d, "link_width");
	expect_null(d, "bottleneck_gbps");
	cr_assert(warned(root, "0002:01:00.0", "link speed or width not reported"));
	json_decref(root);
}

Test(report_pcie, ich7_rtl8101e_and_ar928x_are_network)
{
	/* header: "ICH7-M, RTL8101E PCIe Fast Ethernet x1 + AR928X WLAN" (class 0x0280 counts) */
	json_t *root = report_dump("tree-ich7-rtl8101e.lspci", NULL, NULL);
	json_t *d = device(root, "0000:01:00.0");
	cr_assert_str_eq(str(d, "class"), "0x0200");
	cr_assert_eq(integer(d, "link_width"), 1);
	d = device(root, "0000:02:00.0");
	cr_assert_str_eq(str(d, "class"), "0x0280");
	cr_assert_eq(json_array_size(json_object_get(root, "devices")), 2);
	json_decref(root);
}

Test(report_pcie, fujitsu_tree_pcie_nic_and_cardbus_wlan)
{
	/* header: "Fujitsu P8010 (GM965/ICH8M), Marvell 88E8055 GbE + 4965 WLAN + CardBus";
	 * CardBus is a 32-bit 33 MHz bus (PC Card Standard 8.0), so the card behind 1c:03.0 gets
	 * 33 1/3 x 32 = 1.0667 Gbit/s shared */
	json_t *root = report_dump("tree-fujitsu-p8010-88e8055.lspci", NULL, NULL);
	json_t *d = device(root, "0000:04:00.0");
	cr_assert_str_eq(str(d, "device_id"), "0x4363");
	path_is(d, (const char *[]){"0000:00:1c.0"}, 1);
	d = device(root, "0000:1d:00.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	cr_assert_eq(integer(d, "bus_mhz"), 33);
	cr_assert_eq(integer(d, "bus_width_bits"), 32);
	/* from the CardBus spec, not from a register */
	cr_assert_str_eq(str(json_object_get(d, "provenance"), "bus_mhz"), "inferred");
	/* 00:1c.0 row 0x10 secondary bus 04; 00:1e.0 secondary 1c; CardBus 1c:03.0 CardBus bus 1d */
	path_is(d, (const char *[]){"0000:1c:03.0", "0000:00:1e.0"}, 2);
	near(real(d, "bottleneck_gbps"), 100.0 / 3 * 32 / 1000);
	json_decref(root);
}

/* A Root Complex integrated endpoint has no link: null registers read "?", never "RCB -1" or
 * "PCIe ? x? (capable of ? x?)". tree-ich7-rtl8101e.lspci, 00:1b.0: lspci -vvv says "Express
 * (v1) Root Complex Integrated Endpoint", "MaxPayload 128 bytes, MaxReadReq 128 bytes", and no
 * RCB in its LnkCtl line. */
Test(report_pcie, text_of_rc_integrated_endpoint)
{
	char *t = report_text("tree-ich7-rtl8101e.lspci", "00:1b.0");
	cr_assert_null(strstr(t, "-1"), "%s", t);
	cr_assert_null(strstr(t, "? x?"), "%s", t);
	cr_assert_not_null(strstr(t, "integrated in the root complex"), "%s", t);
	cr_assert_not_null(strstr(t, "MPS 128, MRRS 128"), "%s", t);
	free(t);
}

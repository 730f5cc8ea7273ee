/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What no real dump shows, from synthetic dumps (tests/data/synthetic-*.lspci). Each file's
 * header names the spec field it encodes and the values expected here; bandwidths by hand.
 */
#include "report_helpers.h"

Test(report_synthetic, lnkcap2_vector_wider_than_lnkcap)
{
	json_t *root = report_dump("synthetic-pcie-lnkcap2-wider.lspci", NULL, NULL);
	json_t *d = device(root, "0000:01:00.0");
	near(real(d, "max_link_speed_gts"), 16); /* LnkCap2 vector 0x0f: 2.5-16 GT/s */
	cr_assert_eq(integer(d, "max_link_width"), 8);
	near(real(d, "link_speed_gts"), 8);
	cr_assert_eq(integer(d, "link_width"), 8);
	cr_assert(!boolean(d, "downgraded")); /* lspci: LnkSta 8 vs LnkCap 8 */
	cr_assert_eq(integer(d, "mps_bytes"), 256);
	cr_assert_eq(integer(d, "mrrs_bytes"), 512);
	json_decref(root);
}

Test(report_synthetic, flit_mode_64gts)
{
	json_t *root = report_dump("synthetic-pcie-flit.lspci", NULL, NULL);
	json_t *d = device(root, "0000:01:00.0");
	cr_assert(boolean(d, "flit_mode"));
	near(real(d, "link_speed_gts"), 64);
	cr_assert_eq(integer(d, "link_width"), 16);
	near(real(d, "max_link_speed_gts"), 64);
	cr_assert(boolean(d, "tags_10bit"));
	cr_assert(boolean(d, "ext_tags"));
	cr_assert(boolean(d, "relaxed_ordering"));
	cr_assert_eq(integer(d, "rcb_bytes"), 128);
	near(real(d, "bottleneck_gbps"), 64.0 * 16 * 242 / 256); /* 968 */
	cr_assert_str_eq(str(d, "bottleneck_slot"), "0000:00:01.0");
	json_decref(root);
}

Test(report_synthetic, pcix_ecc_266_533_modes)
{
	json_t *root = report_dump("synthetic-pcix-modes.lspci", NULL, NULL);
	struct {
		const char *slot, *mode;
		int mhz;
		double gbps;
	} want[] = {
	    {"0000:01:01.0", "pci-x-ecc", 133, 400.0 / 3 * 64 / 1000},
	    {"0000:02:01.0", "pci-x-266", 133, 400.0 / 3 * 64 * 2 / 1000},
	    {"0000:03:01.0", "pci-x-533", 133, 400.0 / 3 * 64 * 4 / 1000},
	    {"0000:04:01.0", "pci-x-266", 66, 200.0 / 3 * 64 * 2 / 1000},
	};
	for (int i = 0; i < 4; i++) {
		json_t *d = device(root, want[i].slot);
		cr_assert_str_eq(str(d, "bus_kind"), "pci-x");
		cr_assert_str_eq(str(d, "pcix_mode"), want[i].mode, "%s", want[i].slot);
		cr_assert_eq(integer(d, "bus_mhz"), want[i].mhz);
		cr_assert_eq(integer(d, "bus_width_bits"), 64);
		near(real(d, "bottleneck_gbps"), want[i].gbps);
		cr_assert_eq(integer(d, "mmrbc_bytes"), 2048);
		cr_assert_eq(integer(d, "pcix_splits"), 3);
		cr_assert_eq(integer(d, "pcix_designed_mmrbc_bytes"), 4096);
		cr_assert_eq(integer(d, "pcix_designed_splits"), 16);
		cr_assert(boolean(d, "pcix_266_capable"));
		cr_assert(boolean(d, "pcix_533_capable"));
	}
	json_decref(root);
}

Test(report_synthetic, conventional_66_and_33_mhz_segments)
{
	json_t *root = report_dump("synthetic-pci-66mhz.lspci", NULL, NULL);
	json_t *d = device(root, "0000:05:00.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	cr_assert_eq(integer(d, "bus_mhz"), 66);
	expect_null(d, "bus_width_bits");
	near(real(d, "bottleneck_gbps"), 200.0 / 3 * 32 / 1000);
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(d, "segment_peers"), 0)),
			 "0000:05:01.0");
	d = device(root, "0000:06:00.0");
	cr_assert_eq(integer(d, "bus_mhz"), 33); /* 06:01.0 is 66MHz- */
	near(real(d, "bottleneck_gbps"), 100.0 / 3 * 32 / 1000);
	json_decref(root);
}

Test(report_synthetic, downgraded_endpoints)
{
	json_t *root = report_dump("synthetic-pcie-downgraded.lspci", "--all", NULL);
	json_t *d = device(root, "0000:01:00.0");
	cr_assert(boolean(d, "downgraded"));
	near(real(d, "link_speed_gts"), 2.5);
	near(real(d, "max_link_speed_gts"), 5);
	near(real(d, "bottleneck_gbps"), 8);
	d = device(root, "0000:02:00.0");
	cr_assert(boolean(d, "downgraded"));
	cr_assert_eq(integer(d, "link_width"), 1);
	cr_assert_eq(integer(d, "max_link_width"), 4);
	near(real(d, "bottleneck_gbps"), 4);
	expect_null(device(root, "0000:00:1c.0"), "downgraded");
	expect_null(device(root, "0000:00:1c.1"), "downgraded");
	json_decref(root);
}

Test(report_synthetic, per_hop_minimum_not_slowest_times_narrowest)
{
	json_t *root = report_dump("synthetic-pcie-perhop-min.lspci", NULL, NULL);
	json_t *d = device(root, "0000:03:00.0");
	path_is(d, (const char *[]){"0000:02:00.0", "0000:01:00.0", "0000:00:01.0"}, 3);
	json_t *p = json_object_get(d, "path");
	near(real(json_array_get(p, 0), "gbps"), 16.0 * 128 / 130);
	near(real(json_array_get(p, 1), "gbps"), 2.5 * 16 * 0.8);
	near(real(json_array_get(p, 2), "gbps"), 2.5 * 16 * 0.8);
	cr_assert_str_eq(str(d, "bottleneck_slot"), "0000:02:00.0");
	near(real(d, "bottleneck_gbps"), 16.0 * 128 / 130); /* 15.754, not 2.5 x 1 x 0.8 = 2 */
	json_decref(root);
}

Test(report_synthetic, virtio_with_full_config_is_never_pci_33)
{
	json_t *root = report_dump("synthetic-virtio-pci.lspci", NULL, NULL);
	json_t *d = device(root, "0000:00:03.0");
	cr_assert(boolean(d, "virtual"));
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	expect_null(d, "bus_mhz");
	expect_null(d, "bottleneck_gbps");
	json_decref(root);
	const char *args[] = {"report", "--dump", test_data("synthetic-virtio-pci.lspci"), NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0);
	cr_assert(!strstr(r.out, "33 MHz"), "%s", r.out);
	cr_assert(strstr(r.out, "VIRTUAL"), "%s", r.out);
	run_free(&r);
}

/* Reserved encodings (PCIe Base 6.0 sec. 7.5.3.4: MPS/MRRS codes 6-7; 7.5.3.8: width x3;
 * 7.5.3.18: LnkCap2 bit 7; see the file's header) decode to null with a warning, never to
 * 128 << 7 = 16384 bytes or a width of 3, and a reserved LnkCap2 bit leaves the maximum speed
 * known. */
Test(report_synthetic, reserved_encodings_are_null)
{
	json_t *root = report_dump("synthetic-pcie-reserved-encodings.lspci", NULL, NULL);
	json_t *d = device(root, "0000:01:00.0");
	expect_null(d, "mps_bytes");
	expect_null(d, "mrrs_bytes");
	expect_null(d, "link_width");
	expect_null(d, "downgraded");
	expect_null(d, "bottleneck_gbps");
	near(real(d, "link_speed_gts"), 2.5);
	cr_assert_eq(integer(d, "max_link_width"), 4);
	cr_assert(warned(root, "0000:01:00.0", "Max_Payload_Size code 6"));
	cr_assert(warned(root, "0000:01:00.0", "Max_Read_Request_Size code 7"));
	cr_assert(warned(root, "0000:01:00.0", "width x3 is a reserved encoding"));
	d = device(root, "0000:02:00.0");
	near(real(d, "max_link_speed_gts"), 8);
	cr_assert_eq(integer(d, "mps_bytes"), 256);
	cr_assert_eq(integer(d, "mrrs_bytes"), 512);
	json_decref(root);
}

/* A bridge the firmware never numbered (PCI-to-PCI Bridge 1.2 sec. 3.2.5: bus numbers reset to
 * 0; see the file's header): 03:00.0, secondary bus 0, is the parent of nothing on root bus 00,
 * and 00:1e.0 (on bus 00, leading to bus 03) is not its own grandparent. */
Test(report_synthetic, unconfigured_bridge_is_nobodys_parent)
{
	json_t *root = report_dump("synthetic-bridge-unconfigured.lspci", "--all", NULL);
	json_t *d = device(root, "0000:00:19.0");
	path_is(d, NULL, 0);
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	cr_assert_eq(integer(d, "bus_mhz"), 33);
	path_is(device(root, "0000:03:00.0"), (const char *[]){"0000:00:1e.0"}, 1);
	path_is(device(root, "0000:00:1e.0"), NULL, 0);
	json_decref(root);
}

/* A PCIe-to-PCI-X bridge (port type 7) counts the PCI-X segment it drives (where the second
 * bridge sits) as a hop of the path, besides its PCIe link; expected values: the file's header
 * (PCI-X 2.0a: 133 1/3 MHz x 64 bits = 8.533 Gbit/s; 33 1/3 x 32 = 1.067; 2.5 x 1 x 8/10 = 2). */
Test(report_synthetic, pcie_to_pcix_bridge_counts_its_segment)
{
	json_t *root = report_dump("synthetic-pcie-to-pcix-bridge-chain.lspci", NULL, NULL);
	json_t *d = device(root, "0000:03:00.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	cr_assert_eq(integer(d, "bus_mhz"), 33);
	cr_assert_eq(integer(d, "bus_width_bits"), 32);
	path_is(d, (const char *[]){"0000:02:01.0", "0000:01:00.0", "0000:00:1c.0"}, 3);
	json_t *p = json_object_get(d, "path");
	near(real(json_array_get(p, 0), "gbps"), 100.0 / 3 * 32 / 1000);
	cr_assert_str_eq(str(json_array_get(p, 1), "bus_kind"), "pci-x");
	near(real(json_array_get(p, 1), "gbps"), 400.0 / 3 * 64 / 1000);
	near(real(json_array_get(p, 2), "gbps"), 2.0);
	cr_assert_str_eq(str(d, "bottleneck_slot"), "0000:02:01.0");
	near(real(d, "bottleneck_gbps"), 100.0 / 3 * 32 / 1000);
	/* each PCI/PCI-X hop says the clock and width it drives (the header's Secondary Status
	 * values); a PCIe hop has none */
	cr_assert_eq(integer(json_array_get(p, 0), "bus_mhz"), 33);
	cr_assert_eq(integer(json_array_get(p, 0), "bus_width_bits"), 32);
	cr_assert_eq(integer(json_array_get(p, 1), "bus_mhz"), 133);
	cr_assert_eq(integer(json_array_get(p, 1), "bus_width_bits"), 64);
	expect_null(json_array_get(p, 2), "bus_mhz");
	expect_null(json_array_get(p, 2), "bus_width_bits");
	/* two hops drive PCI/PCI-X buses: the root-most (the PCIe-to-PCI-X bridge) fetches host
	 * memory for the chain, and the NIC's bridge is the master on the PCI-X 133/64 segment it
	 * drives: both segments are modelled, the NIC's own as the card's (card_bridge=), no
	 * further bridge between */
	json_t *f = json_object_get(d, "port_fit");
	cr_assert(!strncmp(str(f, "bus_modelled"), "pcix133/64,", 11), "%s", str(f, "bus_modelled"));
	cr_assert(strstr(str(f, "bus_modelled"), ",card_bridge=pci33/32"), "%s", str(f, "bus_modelled"));
	cr_assert(!strstr(str(f, "bus_modelled"), "bridges="), "%s", str(f, "bus_modelled"));
	json_decref(root);
}

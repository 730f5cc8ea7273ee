/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What no real dump shows, from synthetic dumps (tests/data/synthetic-*.lspci). Each file's
 * header names the spec field it encodes and the values expected here; bandwidths by hand.
 */
#include "report_helpers.h"

Test(report_synthetic, lnkcap2_vector_wider_than_lnkcap)
{
	json_t *root = report_json("synthetic-pcie-lnkcap2-wider.lspci", NULL, NULL);
	json_t *d = device(root, "0000:01:00.0");
	near(real(d, "max_link_speed_gts"), 16); /* LnkCap2 vector 0x0f: 2.5-16 GT/s */
	cr_assert_eq(num(d, "max_link_width"), 8);
	near(real(d, "link_speed_gts"), 8);
	cr_assert_eq(num(d, "link_width"), 8);
	cr_assert(!boolean(d, "downgraded")); /* lspci: LnkSta 8 vs LnkCap 8 */
	cr_assert_eq(num(d, "mps_bytes"), 256);
	cr_assert_eq(num(d, "mrrs_bytes"), 512);
	json_decref(root);
}

Test(report_synthetic, flit_mode_64gts)
{
	json_t *root = report_json("synthetic-pcie-flit.lspci", NULL, NULL);
	json_t *d = device(root, "0000:01:00.0");
	cr_assert(boolean(d, "flit_mode"));
	near(real(d, "link_speed_gts"), 64);
	cr_assert_eq(num(d, "link_width"), 16);
	near(real(d, "max_link_speed_gts"), 64);
	cr_assert(boolean(d, "tags_10bit"));
	cr_assert(boolean(d, "ext_tags"));
	cr_assert(boolean(d, "relaxed_ordering"));
	cr_assert_eq(num(d, "rcb_bytes"), 128);
	near(real(d, "bottleneck_gbps"), 64.0 * 16 * 242 / 256); /* 968 */
	cr_assert_str_eq(str(d, "bottleneck_slot"), "0000:00:01.0");
	json_decref(root);
}

Test(report_synthetic, pcix_ecc_266_533_modes)
{
	json_t *root = report_json("synthetic-pcix-modes.lspci", NULL, NULL);
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
		cr_assert_eq(num(d, "bus_mhz"), want[i].mhz);
		cr_assert_eq(num(d, "bus_width_bits"), 64);
		near(real(d, "bottleneck_gbps"), want[i].gbps);
		cr_assert_eq(num(d, "mmrbc_bytes"), 2048);
		cr_assert_eq(num(d, "pcix_splits"), 3);
		cr_assert_eq(num(d, "pcix_designed_mmrbc_bytes"), 4096);
		cr_assert_eq(num(d, "pcix_designed_splits"), 16);
		cr_assert(boolean(d, "pcix_266_capable"));
		cr_assert(boolean(d, "pcix_533_capable"));
	}
	json_decref(root);
}

Test(report_synthetic, conventional_66_and_33_mhz_segments)
{
	json_t *root = report_json("synthetic-pci-66mhz.lspci", NULL, NULL);
	json_t *d = device(root, "0000:05:00.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	cr_assert_eq(num(d, "bus_mhz"), 66);
	is_null(d, "bus_width_bits");
	near(real(d, "bottleneck_gbps"), 200.0 / 3 * 32 / 1000);
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(d, "segment_peers"), 0)),
			 "0000:05:01.0");
	d = device(root, "0000:06:00.0");
	cr_assert_eq(num(d, "bus_mhz"), 33); /* 06:01.0 is 66MHz- */
	near(real(d, "bottleneck_gbps"), 100.0 / 3 * 32 / 1000);
	json_decref(root);
}

Test(report_synthetic, downgraded_endpoints)
{
	json_t *root = report_json("synthetic-pcie-downgraded.lspci", "--all", NULL);
	json_t *d = device(root, "0000:01:00.0");
	cr_assert(boolean(d, "downgraded"));
	near(real(d, "link_speed_gts"), 2.5);
	near(real(d, "max_link_speed_gts"), 5);
	near(real(d, "bottleneck_gbps"), 8);
	d = device(root, "0000:02:00.0");
	cr_assert(boolean(d, "downgraded"));
	cr_assert_eq(num(d, "link_width"), 1);
	cr_assert_eq(num(d, "max_link_width"), 4);
	near(real(d, "bottleneck_gbps"), 4);
	is_null(device(root, "0000:00:1c.0"), "downgraded");
	is_null(device(root, "0000:00:1c.1"), "downgraded");
	json_decref(root);
}

Test(report_synthetic, per_hop_minimum_not_slowest_times_narrowest)
{
	json_t *root = report_json("synthetic-pcie-perhop-min.lspci", NULL, NULL);
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
	json_t *root = report_json("synthetic-virtio-pci.lspci", NULL, NULL);
	json_t *d = device(root, "0000:00:03.0");
	cr_assert(boolean(d, "virtual"));
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	is_null(d, "bus_mhz");
	is_null(d, "bottleneck_gbps");
	json_decref(root);
	const char *args[] = {"report", "--dump", test_data("synthetic-virtio-pci.lspci"), NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0);
	cr_assert(!strstr(r.out, "33 MHz"), "%s", r.out);
	cr_assert(strstr(r.out, "VIRTUAL"), "%s", r.out);
	run_free(&r);
}

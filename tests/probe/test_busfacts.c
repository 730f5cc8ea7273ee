/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/busfacts.h: the spec tables written once. Expected values: PCIe Base 6.0 sec. 4.2
 * (rates per generation, 8b/10b and 128b/130b, 242/256 Flit), sec. 4.2.1 (widths), sec. 7.5.3.2
 * and libpci's <pci/header.h> (Device/Port Types); PCI LB 3.0 sec. 4.2.3.1 (30 ns and 15 ns
 * clocks); PCI-X 2.0a sec. 1.1 (DDR and QDR data phases).
 */
#include "pcibw/bus.h"
#include "pcibw/busfacts.h"
#include "pcibw/device.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

Test(busfacts, generations_and_rates_round_trip)
{
	const double gts[] = {2.5, 5, 8, 16, 32, 64};
	for (int g = 1; g <= PCIBW_PCIE_GEN_MAX; g++) {
		cr_assert_float_eq(pcibw_pcie_gen_gts(g), gts[g - 1], 1e-12, "gen%d", g);
		cr_assert_eq(pcibw_pcie_gen_of_gts(gts[g - 1]), g);
	}
	cr_assert(isnan(pcibw_pcie_gen_gts(0)));
	cr_assert(isnan(pcibw_pcie_gen_gts(7)));
	cr_assert_eq(pcibw_pcie_gen_of_gts(4.0), 0, "4 GT/s is no PCIe rate");
	cr_assert_eq(pcibw_pcie_gen_of_gts(NAN), 0);
}

/* The model's bus and a probed device's bus agree on the generation: both go through
 * pcibw_pcie_gen_of_gts (once two different computations). */
Test(busfacts, spec_and_probed_device_agree_on_gen)
{
	for (int g = 1; g <= PCIBW_PCIE_GEN_MAX; g++) {
		char spec[16];
		snprintf(spec, sizeof spec, "gen%dx4", g);
		struct pcibw_bus parsed, probed;
		struct pcibw_err e;
		cr_assert_eq(pcibw_bus_parse(spec, &parsed, &e), 0, "%s", e.msg);
		struct pcibw_device d;
		pcibw_device_init(&d);
		snprintf(d.slot, sizeof d.slot, "0000:01:00.0");
		d.bus_kind = PCIBW_BUS_PCIE;
		d.link_speed_gts = pcibw_pcie_gen_gts(g);
		d.link_width = 4;
		cr_assert_eq(pcibw_bus_from_device(&d, &probed, &e), 0, "%s", e.msg);
		cr_assert_eq(parsed.gen, g);
		cr_assert_eq(probed.gen, g);
		cr_assert_eq(parsed.flit, probed.flit, "gen%d flit", g);
		cr_assert_float_eq(pcibw_bus_raw_gbps(&parsed), pcibw_bus_raw_gbps(&probed), 1e-9);
	}
}

Test(busfacts, widths)
{
	int n;
	const int *w = pcibw_pcie_widths(&n);
	const int want[] = {1, 2, 4, 8, 12, 16, 32};
	cr_assert_eq(n, 7);
	for (int i = 0; i < n; i++) {
		cr_assert_eq(w[i], want[i]);
		cr_assert(pcibw_pcie_width_ok(want[i]));
	}
	cr_assert(!pcibw_pcie_width_ok(0), "x0: no link trained");
	cr_assert(!pcibw_pcie_width_ok(3));
	cr_assert(!pcibw_pcie_width_ok(64));
}

Test(busfacts, encodings_and_flit)
{
	cr_assert_float_eq(pcibw_pcie_encoding(2.5, false), 0.8, 1e-12);
	cr_assert_float_eq(pcibw_pcie_encoding(5, false), 0.8, 1e-12);
	cr_assert_float_eq(pcibw_pcie_encoding(8, false), 128.0 / 130.0, 1e-12);
	cr_assert_float_eq(pcibw_pcie_encoding(32, false), 128.0 / 130.0, 1e-12);
	cr_assert_float_eq(pcibw_pcie_encoding(64, true), 242.0 / 256.0, 1e-12);
	cr_assert_float_eq(pcibw_pcie_encoding(16, true), 128.0 / 130.0 * 242.0 / 256.0, 1e-12);
	cr_assert(pcibw_pcie_flit_required(64));
	cr_assert(!pcibw_pcie_flit_required(32));
}

Test(busfacts, pci_clocks_and_pcix_transfers)
{
	cr_assert_float_eq(pcibw_pci_clock_hz(33), 1e9 / 30, 1e-3);
	cr_assert_float_eq(pcibw_pci_clock_hz(66), 1e9 / 15, 1e-3);
	cr_assert_float_eq(pcibw_pci_clock_hz(100), 100e6, 1e-3);
	cr_assert_float_eq(pcibw_pci_clock_hz(133), 1e9 / 7.5, 1e-3);
	cr_assert_eq(pcibw_pcix_transfers_per_clock(PCIBW_PCIX_MODE_PCIX), 1);
	cr_assert_eq(pcibw_pcix_transfers_per_clock(PCIBW_PCIX_MODE_PCIX_ECC), 1);
	cr_assert_eq(pcibw_pcix_transfers_per_clock(PCIBW_PCIX_MODE_PCIX_266), 2);
	cr_assert_eq(pcibw_pcix_transfers_per_clock(PCIBW_PCIX_MODE_PCIX_533), 4);
	cr_assert_eq(pcibw_pcix_transfers_per_clock(PCIBW_PCIX_MODE_NULL), 1);
}

Test(busfacts, port_types)
{
	cr_assert_str_eq(pcibw_pcie_type_name(PCI_EXP_TYPE_ENDPOINT), "endpoint");
	cr_assert_str_eq(pcibw_pcie_type_name(PCI_EXP_TYPE_ROOT_PORT), "root-port");
	cr_assert_str_eq(pcibw_pcie_type_name(PCI_EXP_TYPE_PCI_BRIDGE), "pcie-to-pci-bridge");
	cr_assert_str_eq(pcibw_pcie_type_name(PCI_EXP_TYPE_ROOT_EC), "rc-event-collector");
	cr_assert_null(pcibw_pcie_type_name(2), "2 is reserved");
	cr_assert_null(pcibw_pcie_type_name(11));
	cr_assert_null(pcibw_pcie_type_name(-1));
	cr_assert(pcibw_pcie_type_rc_integrated(PCI_EXP_TYPE_ROOT_INT_EP));
	cr_assert(!pcibw_pcie_type_rc_integrated(PCI_EXP_TYPE_ENDPOINT));
	cr_assert(pcibw_pcie_type_bridge(PCI_EXP_TYPE_UPSTREAM));
	cr_assert(!pcibw_pcie_type_bridge(PCI_EXP_TYPE_PCI_BRIDGE));
	cr_assert(pcibw_pcie_type_faces_downstream(PCI_EXP_TYPE_PCIE_BRIDGE));
	cr_assert(!pcibw_pcie_type_faces_downstream(PCI_EXP_TYPE_UPSTREAM));
}

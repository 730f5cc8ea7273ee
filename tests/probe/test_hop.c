/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hop bandwidth arithmetic and device -> model bus, against hand arithmetic from the formulas
 * cited in src/probe/hop.c (PCIe Base 6.0 sec. 4.2; PCI LB 3.0; PCI-X 2.0a). */
#include "pcibw/device.h"
#include "pcibw/probe.h"
#include "src/probe/probe_int.h"
#include <criterion/criterion.h>
#include <math.h>

static void near(double got, double want)
{
	cr_assert(fabs(got - want) <= 1e-9 * fabs(want), "got %.12g, expected %.12g", got, want);
}

Test(hop, pcie_encodings)
{
	near(probe_hop_gbps(PCIBW_BUS_PCIE, 2.5, 1, 0, 0, 0, 0), 2.0);
	near(probe_hop_gbps(PCIBW_BUS_PCIE, 5, 4, 0, 0, 0, 0), 16.0);
	near(probe_hop_gbps(PCIBW_BUS_PCIE, 8, 16, 0, 0, 0, 0), 8.0 * 16 * 128 / 130);
	near(probe_hop_gbps(PCIBW_BUS_PCIE, 32, 16, 0, 0, 0, 0), 32.0 * 16 * 128 / 130);
	near(probe_hop_gbps(PCIBW_BUS_PCIE, 64, 16, 1, 0, 0, 0), 968.0);
	near(probe_hop_gbps(PCIBW_BUS_PCIE, 64, 1, 0, 0, 0, 0), 64.0 * 242 / 256); /* flit mandatory */
	cr_assert(isnan(probe_hop_gbps(PCIBW_BUS_PCIE, NAN, 4, 0, 0, 0, 0)));
	cr_assert(isnan(probe_hop_gbps(PCIBW_BUS_PCIE, 8, PCIBW_NULL, 0, 0, 0, 0)));
}

Test(hop, pci_and_pcix_segments)
{
	near(probe_hop_gbps(PCIBW_BUS_PCI, NAN, 0, 0, 33, 32, PCIBW_PCIX_MODE_CONVENTIONAL), 1.0666666666667);
	near(probe_hop_gbps(PCIBW_BUS_PCI, NAN, 0, 0, 66, 64, PCIBW_PCIX_MODE_CONVENTIONAL), 4.2666666666667);
	near(probe_hop_gbps(PCIBW_BUS_PCIX, NAN, 0, 0, 100, 64, PCIBW_PCIX_MODE_PCIX), 6.4);
	near(probe_hop_gbps(PCIBW_BUS_PCIX, NAN, 0, 0, 133, 64, PCIBW_PCIX_MODE_PCIX_533), 34.133333333333);
	cr_assert(isnan(probe_hop_gbps(PCIBW_BUS_PCI, NAN, 0, 0, PCIBW_NULL, 32, 0)));
	cr_assert(isnan(probe_hop_gbps(PCIBW_BUS_UNKNOWN, 8, 8, 0, 0, 0, 0)));
}

Test(hop, bus_from_device)
{
	struct pcibw_device d;
	struct pcibw_bus b;
	struct pcibw_err e;
	pcibw_device_init(&d);
	cr_assert_eq(pcibw_bus_from_device(&d, &b, &e), PCIBW_ENOTHERE); /* unknown bus */
	d.bus_kind = PCIBW_BUS_PCIE;
	d.link_speed_gts = 8;
	d.link_width = 8;
	d.mps_bytes = 256;
	cr_assert_eq(pcibw_bus_from_device(&d, &b, &e), PCIBW_OK);
	cr_assert_eq(b.kind, PCIBW_BUS_PCIE);
	cr_assert_eq(b.gen, 3);
	cr_assert_eq(b.lanes, 8);
	cr_assert_eq(b.mps_bytes, 256);
	cr_assert(!b.mps_default);
	cr_assert_eq(b.mrrs_bytes, 512); /* contract default */
	cr_assert(b.mrrs_default);
	pcibw_device_init(&d);
	d.bus_kind = PCIBW_BUS_PCIX;
	d.bus_mhz = 133;
	d.bus_width_bits = 64;
	d.mmrbc_bytes = 2048;
	d.pcix_mode = PCIBW_PCIX_MODE_PCIX;
	cr_assert_eq(pcibw_bus_from_device(&d, &b, &e), PCIBW_OK);
	cr_assert_eq(b.clock_mhz, 133);
	cr_assert_eq(b.width_bits, 64);
	cr_assert_eq(b.mmrbc_bytes, 2048);
	cr_assert(b.splits_default);
	d.is_virtual = true;
	cr_assert_eq(pcibw_bus_from_device(&d, &b, &e), PCIBW_OK);
	cr_assert_eq(b.kind, PCIBW_BUS_VIRTUAL);
}

Test(hop, slots_and_classes)
{
	char buf[32];
	cr_assert_str_eq(pcibw_format_slot(buf, 0x10000, 0, 4, 0), "10000:00:04.0");
	cr_assert_str_eq(pcibw_format_slot(buf, 2, 0x42, 3, 0), "0002:42:03.0");
	cr_assert(pcibw_is_network_class(0x0200));
	cr_assert(pcibw_is_network_class(0x0280));
	cr_assert(pcibw_is_network_class(0x0c06));
	cr_assert(!pcibw_is_network_class(0x0c03));
	cr_assert(!pcibw_is_network_class(PCIBW_NULL));
	cr_assert(probe_is_paravirt(0x1af4, 0x1000));
	cr_assert(probe_is_paravirt(0x1af4, 0x1041));
	cr_assert(!probe_is_paravirt(0x1af4, 0x1100));
	cr_assert(probe_is_paravirt(0x15ad, 0x07b0));
	cr_assert(!probe_is_paravirt(0x8086, 0x10c9));
}

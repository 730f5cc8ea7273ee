/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conventional PCI and PCI-X from real dumps. Expected values:
 * - pcix-ibm-eadsx-82545em-multidomain.lspci (pciutils tests/PCI-X-bridges-and-domains),
 *   by hand from its hex: 0002:01:01.0 (82545EM) on PCI-X 133 MHz 64-bit, MMRBC 2048, path
 *   [0002:00:02.0]; 0001:21:01.0 (e100) conventional; the four functions on 0002:42 share the
 *   segment below 0002:41:01.0 -> 0002:00:02.4. By hand from the hex: bridge 0002:00:02.0 PCI-X
 *   cap at 0xa0, Secondary Status 0x00c3 (bits 9:6 = 3: PCI-X 133; bit 0: 64-bit); 82545EM
 *   PCI-X Command 0x0008 (bits 3:2 = 2: MMRBC 512 << 2 = 2048). 133 1/3 MHz x 64 bit = 8.533 Gbit/s.
 * - lkml-2006-via-pm133-82546eb-conventional-pci.lspci header: 82546EB (PCI-X capable) in a
 *   conventional 33 MHz slot; the lspci text shows the host bridge and VT82C686 "66MHz-".
 */
#include "pcibw/bus.h"
#include "pcibw/probe.h"
#include "report_helpers.h"

Test(report_pcix, ibm_82545em_runs_pcix_133_64bit)
{
	json_t *root = report_dump("pcix-ibm-eadsx-82545em-multidomain.lspci", NULL, NULL);
	json_t *d = device(root, "0002:01:01.0");
	cr_assert_str_eq(str(d, "vendor_id"), "0x8086");
	cr_assert_str_eq(str(d, "device_id"), "0x100f");
	cr_assert_str_eq(str(d, "class"), "0x0200");
	cr_assert_str_eq(str(d, "name"), "Intel Corporation 82545EM Gigabit Ethernet Controller (Copper)");
	cr_assert_str_eq(str(d, "bus_kind"), "pci-x");
	cr_assert_str_eq(str(d, "pcix_mode"), "pci-x");
	cr_assert(boolean(d, "pcix_capable"));
	cr_assert_eq(integer(d, "bus_mhz"), 133);
	cr_assert_eq(integer(d, "bus_width_bits"), 64);
	cr_assert_eq(integer(d, "mmrbc_bytes"), 2048);
	cr_assert_eq(integer(d, "pcix_designed_mmrbc_bytes"), 2048); /* status 0x04430108 bits 22:21 = 2 */
	path_is(d, (const char *[]){"0002:00:02.0"}, 1);
	cr_assert_str_eq(str(d, "bottleneck_slot"), "0002:00:02.0"); /* same segment: tie -> root side */
	near(real(d, "bottleneck_gbps"), 400.0 / 3 * 64 / 1000);
	cr_assert(boolean(d, "bottleneck_shared"));
	expect_null(d, "link_speed_gts");
	expect_null(d, "downgraded");
	cr_assert_str_eq(str(json_object_get(d, "provenance"), "bus_kind"), "config");
	json_decref(root);
}

Test(report_pcix, ibm_e100_on_conventional_segment)
{
	json_t *root = report_dump("pcix-ibm-eadsx-82545em-multidomain.lspci", NULL, NULL);
	json_t *d = device(root, "0001:21:01.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	/* bridge 0001:00:02.2 Secondary Status 0x0000: mode 0 (conventional), bit 0 clear: 32-bit */
	cr_assert_str_eq(str(d, "pcix_mode"), "conventional");
	cr_assert_eq(integer(d, "bus_width_bits"), 32);
	cr_assert(!boolean(d, "pcix_capable"));
	path_is(d, (const char *[]){"0001:00:02.2"}, 1);
	json_decref(root);
}

Test(report_pcix, ibm_four_functions_share_segment_0002_42)
{
	json_t *root = report_dump("pcix-ibm-eadsx-82545em-multidomain.lspci", NULL, NULL);
	const char *slots[] = {"0002:42:00.0", "0002:42:01.0", "0002:42:02.0", "0002:42:03.0"};
	for (int i = 0; i < 4; i++) {
		json_t *d = device(root, slots[i]);
		cr_assert_str_eq(str(d, "bus_kind"), "pci");
		path_is(d, (const char *[]){"0002:41:01.0", "0002:00:02.4"}, 2);
		/* 21154 Secondary Status 0x2280: bit 5 clear -> 33 MHz */
		cr_assert_eq(integer(d, "bus_mhz"), 33);
		expect_null(d, "bus_width_bits");
		cr_assert(warned(root, slots[i], "width unknown"));
		cr_assert(boolean(d, "bottleneck_shared"));
		json_t *peers = json_object_get(d, "segment_peers");
		cr_assert_eq(json_array_size(peers), 3);
		for (int j = 0, k = 0; j < 4; j++)
			if (j != i)
				cr_assert_str_eq(json_string_value(json_array_get(peers, (size_t)k++)),
						 slots[j]);
	}
	json_decref(root);
}

Test(report_pcix, ibm_devices_sorted_and_multidomain)
{
	json_t *root = report_dump("pcix-ibm-eadsx-82545em-multidomain.lspci", NULL, NULL);
	json_t *devs = json_object_get(root, "devices");
	/* network controllers in the file (class 0x0200): 0001:21:01.0, 0001:41:01.0,
	 * 0002:01:01.0, 0002:42:00.0-03.0, 0003:21:01.0, 0004:01:01.0 */
	const char *want[] = {"0001:21:01.0", "0001:41:01.0", "0002:01:01.0", "0002:42:00.0", "0002:42:01.0",
			      "0002:42:02.0", "0002:42:03.0", "0003:21:01.0", "0004:01:01.0"};
	cr_assert_eq(json_array_size(devs), 9);
	for (size_t i = 0; i < 9; i++)
		cr_assert_str_eq(str(json_array_get(devs, i), "slot"), want[i]);
	cr_assert(!strncmp(json_string_value(json_object_get(root, "source")), "dump:", 5));
	json_decref(root);
}

Test(report_pcix, via_82546eb_pcix_capable_on_33mhz_pci)
{
	json_t *root = report_dump("lkml-2006-via-pm133-82546eb-conventional-pci.lspci", NULL, NULL);
	json_t *d = device(root, "0000:00:12.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	cr_assert(boolean(d, "pcix_capable"));
	cr_assert_str_eq(str(d, "pcix_mode"), "conventional");
	cr_assert_eq(integer(d, "bus_mhz"), 33);
	expect_null(d, "bus_width_bits");
	cr_assert(warned(root, "0000:00:12.0", "REQ64#"), "the null width needs its reason");
	/* PCI-X Command 0x0002 ("RBC=512 OST=1" in the post), designed "DMMRBC=2048" */
	cr_assert_eq(integer(d, "mmrbc_bytes"), 512);
	cr_assert_eq(integer(d, "pcix_designed_mmrbc_bytes"), 2048);
	cr_assert(boolean(d, "pcix_64bit"));
	cr_assert(boolean(d, "pcix_133_capable"));
	cr_assert(!boolean(d, "pcix_266_capable"));
	path_is(d, NULL, 0);
	/* its own 33 MHz segment, 32 bits assumed: 33 1/3 x 32 = 1.0667 Gbit/s, inferred */
	near(real(d, "bottleneck_gbps"), 100.0 / 3 * 32 / 1000);
	cr_assert_str_eq(str(json_object_get(d, "provenance"), "bottleneck_gbps"), "inferred");
	json_decref(root);
}

Test(report_pcix, nforce3_missing_bridge_leaves_clock_unknown)
{
	/* header: RTL-8169 (66MHz-capable) on secondary bus 01; only that device was kept, so the
	 * bridge's own 66 MHz bit is not in the file */
	json_t *root = report_dump("lkml-2004-nforce3-rtl8169-conventional-pci.lspci", NULL, NULL);
	json_t *d = device(root, "0000:01:0b.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	expect_null(d, "bus_mhz");
	cr_assert(warned(root, "0000:01:0b.0", "bridge above bus 01 is not in the source"));
	json_decref(root);
}

static struct pcibw_report probe_one(const char *file, const char *slot)
{
	struct pcibw_probe_opts o = {.dump_file = test_data(file), .slot_filter = slot};
	struct pcibw_report rep = {0};
	struct pcibw_err err;
	cr_assert_eq(pcibw_probe(&o, &rep, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(rep.n_devices, 1);
	return rep;
}

/* The model takes the device's Latency Timer (0x0d) and Cache Line Size (0x0c), not the
 * defaults. 0002:01:01.0 (82545EM), row 00 of its hex dump:
 * "86 80 0f 10 47 01 30 02 01 00 00 02 20 90 00 00": Cache Line Size 0x20 = 32 DWORDs = 128
 * bytes, Latency Timer 0x90 = 144 clocks (PCI LB 3.0 sec. 6.2.4). The VIA dump's 00:12.0: its
 * lspci -vv text says "Latency: 64 (63750ns min), Cache Line Size: 32 bytes". */
Test(report_pcix, bus_from_device_carries_latency_timer_and_cacheline)
{
	struct pcibw_report rep = probe_one("pcix-ibm-eadsx-82545em-multidomain.lspci", "0002:01:01.0");
	struct pcibw_bus b;
	struct pcibw_err err;
	cr_assert_eq(pcibw_bus_from_device(&rep.devices[0], &b, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(b.kind, PCIBW_BUS_PCIX);
	cr_assert_eq(b.latency_timer, 144);
	cr_assert(!b.latency_timer_default);
	cr_assert_eq(b.cacheline_bytes, 128);
	cr_assert(!b.cacheline_default);
	pcibw_report_free(&rep);

	rep = probe_one("lkml-2006-via-pm133-82546eb-conventional-pci.lspci", "00:12.0");
	cr_assert_eq(pcibw_bus_from_device(&rep.devices[0], &b, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(b.kind, PCIBW_BUS_PCI);
	cr_assert_eq(b.latency_timer, 64); /* "Latency: 64" */
	cr_assert(!b.latency_timer_default);
	cr_assert_eq(b.cacheline_bytes, 32); /* "Cache Line Size: 32 bytes" */
	pcibw_report_free(&rep);

	/* PCIe ignores both registers (PCIe Base 6.0 sec. 7.5.1.1.7-8): the contract's defaults */
	rep = probe_one("pcie-intel-82576-x4-gen1.lspci", NULL);
	cr_assert_eq(pcibw_bus_from_device(&rep.devices[0], &b, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(b.latency_timer, 64);
	cr_assert(b.latency_timer_default);
	cr_assert_eq(b.cacheline_bytes, 64);
	cr_assert(b.cacheline_default);
	pcibw_report_free(&rep);
}

Test(report_pcix, json_shows_latency_timer_and_cacheline)
{
	json_t *root = report_dump("pcix-ibm-eadsx-82545em-multidomain.lspci", "-s", "0002:01:01.0");
	json_t *d = device(root, "0002:01:01.0");
	cr_assert_eq(integer(d, "latency_timer"), 144);
	cr_assert_eq(integer(d, "cacheline_bytes"), 128);
	json_decref(root);
}

/* The text of a PCI/PCI-X device shows its latency timer and cache line ("Latency: 64 ...,
 * Cache Line Size: 32 bytes" in the lspci -vv text of the VIA dump), each with its unit: the
 * Latency Timer counts PCI bus clocks (PCI Local Bus 3.0 sec. 6.2.4). */
Test(report_pcix, text_of_pci_registers)
{
	char *t = report_text("lkml-2006-via-pm133-82546eb-conventional-pci.lspci", "00:12.0");
	cr_assert_not_null(strstr(t, "latency timer 64 clocks, cache line 32 bytes"), "%s", t);
	free(t);
}

/* Bus 00 never sits below a bridge (a bridge's secondary bus is above its own): the note for a
 * device on root bus 00 without its host bridge in the source says "root bus 00", not "the
 * bridge above bus 00". */
Test(report_pcix, root_bus_note)
{
	json_t *root = report_dump("pcix-ibm-eadsx-82545em-multidomain.lspci", "--all", "-s0001:00:02.0");
	cr_assert(!warned(root, "0001:00:02.0", "the bridge above bus 00"));
	cr_assert(warned(root, "0001:00:02.0", "root bus 00"));
	json_decref(root);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Review of issue 2 (engineer F): decoding and rendering bugs, and the two gaps of
 * pcibw_bus_from_device (latency timer and cache line size). Expected values:
 * - synthetic-pcie-reserved-encodings.lspci: PCIe Base 6.0 sec. 7.5.3.4 (MPS/MRRS codes 6-7
 *   reserved), 7.5.3.8 (width x3 reserved), 7.5.3.18 (LnkCap2 bit 7 reserved); see its header.
 * - synthetic-bridge-unconfigured.lspci: PCI-to-PCI Bridge 1.2 sec. 3.2.5, bus numbers reset to 0;
 *   see its header.
 * - pcix-ibm-eadsx-82545em-multidomain.lspci, 0002:01:01.0 (82545EM), row 00 of its hex dump:
 *   "86 80 0f 10 47 01 30 02 01 00 00 02 20 90 00 00": Cache Line Size (0x0c) 0x20 = 32 DWORDs
 *   = 128 bytes, Latency Timer (0x0d) 0x90 = 144 clocks (PCI LB 3.0 sec. 6.2.4).
 * - lkml-2006-via-pm133-82546eb-conventional-pci.lspci, 00:12.0: its lspci -vv text says
 *   "Latency: 64 (63750ns min), Cache Line Size: 32 bytes".
 * - tree-ich7-rtl8101e.lspci, 00:1b.0: lspci -vvv says "Express (v1) Root Complex Integrated
 *   Endpoint", "MaxPayload 128 bytes, MaxReadReq 128 bytes", and no RCB in its LnkCtl line.
 */
#include "pcibw/bus.h"
#include "pcibw/probe.h"
#include "report_helpers.h"
#include <stdlib.h>

/* Before the fix: MPS 16384 and MRRS 16384 (128 << 7), width 3, and LnkCap2 bit 7 made the
 * maximum speed null. */
Test(review_decode, reserved_encodings_are_null)
{
	json_t *root = report_json("synthetic-pcie-reserved-encodings.lspci", NULL, NULL);
	json_t *d = device(root, "0000:01:00.0");
	is_null(d, "mps_bytes");
	is_null(d, "mrrs_bytes");
	is_null(d, "link_width");
	is_null(d, "downgraded");
	is_null(d, "bottleneck_gbps");
	near(real(d, "link_speed_gts"), 2.5);
	cr_assert_eq(num(d, "max_link_width"), 4);
	cr_assert(warned(root, "0000:01:00.0", "Max_Payload_Size code 6"));
	cr_assert(warned(root, "0000:01:00.0", "Max_Read_Request_Size code 7"));
	cr_assert(warned(root, "0000:01:00.0", "width x3 is a reserved encoding"));
	d = device(root, "0000:02:00.0");
	near(real(d, "max_link_speed_gts"), 8);
	cr_assert_eq(num(d, "mps_bytes"), 256);
	cr_assert_eq(num(d, "mrrs_bytes"), 512);
	json_decref(root);
}

/* Before the fix the unconfigured bridge 03:00.0 (secondary bus 0) became the parent of every
 * device on root bus 00, and 00:1e.0 (on bus 00, leading to bus 03) its own grandparent. */
Test(review_decode, unconfigured_bridge_is_nobodys_parent)
{
	json_t *root = report_json("synthetic-bridge-unconfigured.lspci", "--all", NULL);
	json_t *d = device(root, "0000:00:19.0");
	path_is(d, NULL, 0);
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	cr_assert_eq(num(d, "bus_mhz"), 33);
	path_is(device(root, "0000:03:00.0"), (const char *[]){"0000:00:1e.0"}, 1);
	path_is(device(root, "0000:00:1e.0"), NULL, 0);
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

/* Gap (a): the model got the default latency timer 64 instead of the device's 0x0d. Gap (b): the
 * cache line size (0x0c) did not reach the model at all. */
Test(review_decode, bus_from_device_carries_latency_timer_and_cacheline)
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

Test(review_decode, json_shows_latency_timer_and_cacheline)
{
	json_t *root = report_json("pcix-ibm-eadsx-82545em-multidomain.lspci", "-s", "0002:01:01.0");
	json_t *d = device(root, "0002:01:01.0");
	cr_assert_eq(num(d, "latency_timer"), 144);
	cr_assert_eq(num(d, "cacheline_bytes"), 128);
	json_decref(root);
}

static char *report_text(const char *file, const char *slot)
{
	const char *args[] = {"report", "--dump", test_data(file), "--all", "-s", slot, NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	char *out = r.out;
	r.out = NULL;
	run_free(&r);
	return out;
}

/* Before the fix a Root Complex integrated endpoint printed "RCB -1" and "PCIe ? x? (capable of
 * ? x?)": null registers must read "?", and it has no link at all. */
Test(review_decode, text_of_rc_integrated_endpoint)
{
	char *t = report_text("tree-ich7-rtl8101e.lspci", "00:1b.0");
	cr_assert_null(strstr(t, "-1"), "%s", t);
	cr_assert_null(strstr(t, "? x?"), "%s", t);
	cr_assert_not_null(strstr(t, "integrated in the root complex"), "%s", t);
	cr_assert_not_null(strstr(t, "MPS 128, MRRS 128"), "%s", t);
	free(t);
}

/* The text of a PCI/PCI-X device shows its latency timer and cache line ("Latency: 64 ...,
 * Cache Line Size: 32 bytes" in the lspci -vv text of the VIA dump). */
Test(review_decode, text_of_pci_registers)
{
	char *t = report_text("lkml-2006-via-pm133-82546eb-conventional-pci.lspci", "00:12.0");
	cr_assert_not_null(strstr(t, "latency timer 64, cache line 32 bytes"), "%s", t);
	free(t);
}

/* Bus 00 never sits below a bridge (a bridge's secondary bus is above its own): the note for a
 * device on root bus 00 without its host bridge in the source named "the bridge above bus 00". */
Test(review_decode, root_bus_note)
{
	json_t *root = report_json("pcix-ibm-eadsx-82545em-multidomain.lspci", "--all", "-s0001:00:02.0");
	cr_assert(!warned(root, "0001:00:02.0", "the bridge above bus 00"));
	cr_assert(warned(root, "0001:00:02.0", "root bus 00"));
	json_decref(root);
}

/* A PCIe-to-PCI-X bridge (port type 7) counted as its PCIe link, so the PCI-X segment it drives
 * (where the second bridge sits) was missing from the path; expected values: the file's header
 * (PCI-X 2.0a: 133 1/3 MHz x 64 bits = 8.533 Gbit/s; 33 1/3 x 32 = 1.067; 2.5 x 1 x 8/10 = 2). */
Test(review_decode, pcie_to_pcix_bridge_counts_its_segment)
{
	json_t *root = report_json("synthetic-pcie-to-pcix-bridge-chain.lspci", NULL, NULL);
	json_t *d = device(root, "0000:03:00.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	cr_assert_eq(num(d, "bus_mhz"), 33);
	cr_assert_eq(num(d, "bus_width_bits"), 32);
	path_is(d, (const char *[]){"0000:02:01.0", "0000:01:00.0", "0000:00:1c.0"}, 3);
	json_t *p = json_object_get(d, "path");
	near(real(json_array_get(p, 0), "gbps"), 100.0 / 3 * 32 / 1000);
	cr_assert_str_eq(str(json_array_get(p, 1), "bus_kind"), "pci-x");
	near(real(json_array_get(p, 1), "gbps"), 400.0 / 3 * 64 / 1000);
	near(real(json_array_get(p, 2), "gbps"), 2.0);
	cr_assert_str_eq(str(d, "bottleneck_slot"), "0000:02:01.0");
	near(real(d, "bottleneck_gbps"), 100.0 / 3 * 32 / 1000);
	json_decref(root);
}

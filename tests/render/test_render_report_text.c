/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw report` text against lspci's own text for the same dump (`lspci -F FILE -vv`): the
 * figures a person compares line by line. Expected values are lspci's, quoted beside each check.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static char *report_text(const char *dump, const char *slot)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"report", "--dump", test_data(dump), "-s", slot, NULL});
	cr_assert_eq(r.status, 0, "%s: exit %d: %s", dump, r.status, r.err);
	char *out = r.out;
	r.out = NULL;
	run_free(&r);
	return out;
}

/* The PCI-X Status bits 64bit, 133MHz, 266MHz and 533MHz say what the device can do, not what
 * its bus runs at (PCI-X 2.0 sec. 7.2.3): an 82546EB in a 33 MHz slot is "capable of 133 MHz",
 * never "133 MHz on". lspci -vv, 00:12.0: "Command: DPERE- ERO+ RBC=512 OST=1" and "Status:
 * Dev=00:00.0 64bit+ 133MHz+ ... DMMRBC=2048 DMOST=1 ... 266MHz- 533MHz-". */
Test(render_report_text, pcix_capability_bits_read_as_capabilities)
{
	char *t = report_text("lkml-2006-via-pm133-82546eb-conventional-pci.lspci", "00:12.0");
	cr_expect(strstr(t, "  PCI-X:       MMRBC 512 (designed 2048), splits 1 (designed 1); capable "
			    "of 64-bit yes, 133 MHz yes, 266 no, 533 no\n"),
		  "%s", t);
	cr_expect(!strstr(t, "133 MHz on"), "%s", t);
	cr_expect(strstr(t, "  bus:         PCI 33 MHz"), "%s", t);
	free(t);
	/* lspci -vv, 01:01.0: "RBC=2048 OST=3", "DMMRBC=4096 DMOST=16 ... 266MHz+ 533MHz+" */
	t = report_text("synthetic-pcix-modes.lspci", "01:01.0");
	cr_expect(strstr(t, "MMRBC 2048 (designed 4096), splits 3 (designed 16); capable of 64-bit "
			    "yes, 133 MHz yes, 266 yes, 533 yes\n"),
		  "%s", t);
	free(t);
}

/* PCIe: lspci -vv, 01:00.0: "LnkSta: Speed 2.5GT/s, Width x4", "LnkCap: ... Speed 2.5GT/s,
 * Width x4, ASPM L0s L1, Exit Latency L0s <4us, L1 <64us", "RlxdOrd+ ExtTag-", "MaxPayload 256
 * bytes, MaxReadReq 512 bytes", DevCap "MaxPayload 512 bytes", "LnkCtl: ASPM L1 Enabled; RCB 64
 * bytes". */
Test(render_report_text, pcie_registers_as_lspci_reads_them)
{
	char *t = report_text("pcie-intel-82576-x4-gen1.lspci", "01:00.0");
	cr_expect(strstr(t, "  bus:         PCIe 2.5 GT/s x4 (capable of 2.5 GT/s x4)\n"), "%s", t);
	cr_expect(strstr(t, "  registers:   MPS 256, MRRS 512, RCB 64, relaxed ordering on, ext tags "
			    "off,"),
		  "%s", t);
	cr_expect(strstr(t, "  payload:     MPS 256 of 512 supported\n"), "%s", t);
	cr_expect(strstr(t, "ASPM l1 (link ?, supported l0s-l1, L0s exit <4us, L1 exit <64us)"), "%s", t);
	free(t);
}

/* A copy made without root holds 64 bytes of config space per device (this tree's config files
 * are 64 bytes): no capability list, so a paravirtual NIC's bus kind is unknown. The text says
 * the bus is emulated without naming a kind, never "unknown as the guest sees it". */
Test(render_report_text, virtual_nic_of_unknown_bus_kind)
{
	struct run_result r = run_pcibw(
	    NULL, (const char *[]){"report", "--sysfs", test_data("sysfs/kvm-virtio-pcidomain32"), NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "  VIRTUAL:     paravirtual device, no bus ceiling of its own\n"
				"  bus:         emulated, of a kind the source does not show (no clock, no "
				"ceiling)\n"),
		  "%s", r.out);
	cr_expect(!strstr(r.out, "unknown as the guest"), "%s", r.out);
	run_free(&r);
}

/* A bottleneck of unknown bus kind (an hwloc export: a stored speed, no config space) says what is
 * known, neither "per direction" (duplex) nor "its own bus" (shared): the XML's pci_link_speed
 * 0.200000 GB/s of 0000:04:00.0 is 1.60 Gbit/s, its own and the least on its path (its bridge
 * 0000:00:01.0 stores 0.400000); 0000:05:00.0's and its bridge 0000:00:05.0's are both 2.000000
 * (16.00 Gbit/s), the tie going to the bridge. */
Test(render_report_text, a_bottleneck_of_unknown_kind_says_only_what_is_known)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"report", "--topology",
					     test_data("hwloc/hp-sl390s-g7-82576-connectx2-gpus.xml"), NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "bottleneck:  1.60 Gbit/s at 0000:04:00.0 (itself; bus kind unknown: the "
				"link speed hwloc stored, no bus ceiling)\n"),
		  "%s", r.out);
	cr_assert(strstr(r.out, "bottleneck:  16.00 Gbit/s at 0000:00:05.0 (bus kind unknown: the link "
				"speed hwloc stored, no bus ceiling)\n"),
		  "%s", r.out);
	cr_assert(!strstr(r.out, "per direction"), "%s", r.out);
	cr_assert(!strstr(r.out, "its own bus"), "%s", r.out);
	run_free(&r);
	/* a known kind keeps its words: the 82576's own x4 Gen1 link (the dump's LnkSta) */
	char *t = report_text("pcie-intel-82576-x4-gen1.lspci", "01:00.0");
	cr_assert(strstr(t, "per direction at 0000:01:00.0 (its own link)"), "%s", t);
	free(t);
}

/* A bus the source does not show points at where the reason is written: an hwloc export
 * (hp-sl390s-g7-82576-connectx2-gpus.xml) holds no config space, which is a warning about the
 * whole source, so its devices have no note of their own to "see"; a dump of 64-byte config
 * spaces (hwloc-dell-snb-2n-i350-cx3.lspci, its header) gives each device its own note. */
Test(render_report_text, an_unknown_bus_points_at_the_reason_that_is_there)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"report", "--topology",
					     test_data("hwloc/hp-sl390s-g7-82576-connectx2-gpus.xml"), NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "bus:         unknown (the source does not show it: see the warnings)\n"),
		  "%s", r.out);
	cr_assert(strstr(r.out, "holds no config space"), "%s", r.out);
	cr_assert(!strstr(r.out, "see the notes"), "%s", r.out);
	run_free(&r);
	char *t = report_text("hwloc-dell-snb-2n-i350-cx3.lspci", "02:00.0");
	cr_assert(strstr(t, "bus:         unknown (see the notes)\n") &&
		      strstr(t, "note:        only 64 bytes of config space"),
		  "%s", t);
	free(t);
}

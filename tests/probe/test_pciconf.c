/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --pciconf FILE: FreeBSD pciconf -lvbc text (with pciconf -r dumps). Expected values are the
 * text's own, read by hand from each file (tests/data/pciconf/, sources in their headers), and
 * pciconf's printf formats (usr.sbin/pciconf/cap.c cap_express: "max data MPS(MPS supported)",
 * "max read MRRS", "link xWIDTH(xMAX)", "speed GTS(MAX)", "ASPM CONTROL(SUPPORT)"; cap_pcix:
 * "N burst read, M split transactions" from PCI-X Status).
 */
#include "report_helpers.h"
#include <stdio.h>
#include <unistd.h>

static const char *const T520 = "pciconf/real-freebsd16-5018a-ftn4-t520-lvbc.pciconf";
static const char *const X306 = "pciconf/real-freebsd10-ibm-x306m-82546gb-lvb.pciconf";
static const char *const RCC = "pciconf/real-freebsd-rcc-ve-4860-i211-lvbc.pciconf";
static const char *const BOX = "pciconf/synthetic-freebsd-2004-e7501-82546eb-pcix133-82540em-pci33.pciconf";

static json_t *pciconf(const char *file)
{
	return report_json(0, (const char *[]){"report", "--all", "--pciconf", test_data(file), NULL});
}

static bool has_code(json_t *root, const char *code)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(root, "warning_codes"), i, c) if (str_is(c, code)) return true;
	return false;
}

Test(pciconf, new_format_t520_link_and_registers)
{
	json_t *root = pciconf(T520);
	char src[600];
	snprintf(src, sizeof src, "pciconf:%s", test_data(T520));
	cr_assert_str_eq(str(root, "source"), src);
	/* t5iov0@pci0:4:0:0: class=0x020000 rev=0x00 hdr=0x00 vendor=0x1425 device=0x5007 */
	json_t *d = device(root, "0000:04:00.0");
	cr_assert_str_eq(str(d, "vendor_id"), "0x1425");
	cr_assert_str_eq(str(d, "device_id"), "0x5007");
	cr_assert_str_eq(str(d, "class"), "0x0200");
	cr_assert_str_eq(str(d, "revision"), "0x00");
	cr_assert_str_eq(str(d, "name"),
			 "Chelsio Communications Inc T520-SO Unified Wire Ethernet Controller");
	cr_assert_str_eq(str(d, "driver"), "t5iov");
	/* "PCI-Express 2 endpoint max data 256(2048) FLR NS / max read 512 / link x8(x8) speed 5.0(8.0)" */
	cr_assert_str_eq(str(d, "bus_kind"), "pcie");
	cr_assert_str_eq(str(d, "pcie_port_type"), "endpoint");
	cr_assert_eq(integer(d, "mps_bytes"), 256);
	cr_assert_eq(integer(d, "mps_supported_bytes"), 2048);
	cr_assert_eq(integer(d, "mrrs_bytes"), 512);
	cr_assert(!boolean(d, "relaxed_ordering")); /* no "RO" */
	near(real(d, "link_speed_gts"), 5.0);
	cr_assert_eq(integer(d, "link_width"), 8);
	near(real(d, "max_link_speed_gts"), 8.0);
	cr_assert_eq(integer(d, "max_link_width"), 8);
	cr_assert(boolean(d, "downgraded")); /* an endpoint at 5.0 of 8.0 GT/s */
	expect_null(d, "aspm");		     /* no ASPM words: LnkCap ASPM Support 0 or not printed */
	expect_null(d, "rcb_bytes");	     /* pciconf prints no RCB */
	near(real(d, "bottleneck_gbps"), 5.0 * 8 * 0.8);
	cr_assert_str_eq(str(json_object_get(d, "provenance"), "bus_kind"), "pciconf");
	/* pcib1: "root port max data 128(256) ... max read 128 / link x1(x4) speed 2.5(5.0) ASPM
	 * disabled(L1)" */
	d = device(root, "0000:00:01.0");
	cr_assert_str_eq(str(d, "pcie_port_type"), "root-port");
	cr_assert_eq(integer(d, "mps_bytes"), 128);
	cr_assert_eq(integer(d, "mps_supported_bytes"), 256);
	cr_assert_eq(integer(d, "mrrs_bytes"), 128);
	near(real(d, "link_speed_gts"), 2.5);
	cr_assert_eq(integer(d, "link_width"), 1);
	near(real(d, "max_link_speed_gts"), 5.0);
	cr_assert_eq(integer(d, "max_link_width"), 4);
	expect_null(d, "downgraded"); /* a root port faces downstream (lspci's rule) */
	cr_assert_str_eq(str(d, "aspm"), "off");
	cr_assert_str_eq(str(d, "aspm_supported"), "l1");
	cr_assert_str_eq(str(d, "driver"), "pcib");
	/* xhci0: "ASPM disabled(L0s/L1) ClockPM disabled" */
	d = device(root, "0000:03:00.0");
	cr_assert_str_eq(str(d, "aspm_supported"), "l0s-l1");
	cr_assert(!boolean(d, "clock_pm"));
	cr_assert_str_eq(str(d, "name"), "Renesas Electronics Corp. uPD720201 USB 3.0 Host Controller");
	/* igb0: "PCI-Express 2 root endpoint max data 512(512) FLR NS / max read 512", no link line */
	d = device(root, "0000:00:14.0");
	cr_assert_str_eq(str(d, "pcie_port_type"), "rc-integrated-endpoint");
	cr_assert_eq(integer(d, "mps_bytes"), 512);
	cr_assert_eq(integer(d, "mrrs_bytes"), 512);
	expect_null(d, "link_speed_gts");
	expect_null(d, "link_width");
	/* pcib2: "PCI-Express 1 PCI bridge ... link x1(x1) speed 2.5(2.5)"; the VGA behind it has
	 * no PCI Express capability: a conventional segment */
	d = device(root, "0000:01:00.0");
	cr_assert_str_eq(str(d, "pcie_port_type"), "pcie-to-pci-bridge");
	cr_assert_str_eq(str(device(root, "0000:02:00.0"), "bus_kind"), "pci");
	/* hostb0: class=0x060000 hdr=0x00 */
	cr_assert_str_eq(str(device(root, "0000:00:00.0"), "class"), "0x0600");
	/* no bridge's bus numbers in -lvbc: said once */
	cr_assert(has_code(root, "pciconf-partial"));
	cr_assert(warned(root, "bus numbers behind 3 bridges", NULL));
	json_decref(root);
}

Test(pciconf, old_format_without_caps_says_bus_unknown)
{
	json_t *root = pciconf(X306);
	/* em0@pci0:3:3:0: class=0x020000 card=0x118a8086 chip=0x10798086 rev=0x03 hdr=0x00 */
	json_t *d = device(root, "0000:03:03.0");
	cr_assert_str_eq(str(d, "vendor_id"), "0x8086");
	cr_assert_str_eq(str(d, "device_id"), "0x1079");
	cr_assert_str_eq(str(d, "revision"), "0x03");
	cr_assert_str_eq(str(d, "name"), "Intel Corporation 82546GB Gigabit Ethernet Controller");
	cr_assert_str_eq(str(d, "driver"), "em");
	cr_assert_str_eq(str(d, "bus_kind"), "unknown"); /* pciconf -lvb: no capability lines */
	cr_assert(noted(d, "bus-unknown", NULL));
	d = device(root, "0000:05:00.0"); /* bge1, chip=0x165914e4 */
	cr_assert_str_eq(str(d, "vendor_id"), "0x14e4");
	cr_assert_str_eq(str(d, "device_id"), "0x1659");
	cr_assert_str_eq(str(d, "revision"), "0x11");
	/* pcib3: class=0x060400 hdr=0x01 */
	cr_assert_str_eq(str(device(root, "0000:02:00.0"), "class"), "0x0604");
	cr_assert(warned(root, "no capability lines", NULL));
	cr_assert(!has_code(root, "config-short"));
	json_decref(root);
}

Test(pciconf, older_cap_layout_link_then_speed)
{
	json_t *root = pciconf(RCC);
	/* igb0: "PCI-Express 2 endpoint max data 128(512) FLR link x1(x1) / speed 2.5(2.5) ASPM
	 * disabled(L0s/L1)"; no "max read" line: MRRS unknown */
	json_t *d = device(root, "0000:03:00.0");
	cr_assert_str_eq(str(d, "device_id"), "0x1539");
	cr_assert_eq(integer(d, "mps_bytes"), 128);
	cr_assert_eq(integer(d, "mps_supported_bytes"), 512);
	expect_null(d, "mrrs_bytes");
	near(real(d, "link_speed_gts"), 2.5);
	cr_assert_eq(integer(d, "link_width"), 1);
	near(real(d, "max_link_speed_gts"), 2.5);
	cr_assert(!boolean(d, "downgraded"));
	cr_assert_str_eq(str(d, "aspm"), "off");
	cr_assert_str_eq(str(d, "aspm_supported"), "l0s-l1");
	/* igb5: "root endpoint max data 128(512) FLR link x0(x0)": width 0, no speed */
	d = device(root, "0000:00:14.3");
	cr_assert_str_eq(str(d, "pcie_port_type"), "rc-integrated-endpoint");
	cr_assert_str_eq(str(d, "device_id"), "0x1f41");
	expect_null(d, "link_width");
	expect_null(d, "link_speed_gts");
	json_decref(root);
}

Test(pciconf, registers_give_pcix_segment_and_conventional_clock)
{
	json_t *root = pciconf(BOX);
	/* em0: bridge pcib2 Secondary Status 0x00c3 (mode 1, 133 MHz, 64-bit); PCI-X Command 0x0000 */
	json_t *d = device(root, "0000:02:01.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pci-x");
	cr_assert_str_eq(str(d, "pcix_mode"), "pci-x");
	cr_assert_eq(integer(d, "bus_mhz"), 133);
	cr_assert_eq(integer(d, "bus_width_bits"), 64);
	cr_assert_eq(integer(d, "mmrbc_bytes"), 512);
	cr_assert_eq(integer(d, "pcix_splits"), 1);
	/* "PCI-X 64-bit supports 133MHz, 2048 burst read, 1 split transaction" */
	cr_assert_eq(integer(d, "pcix_designed_mmrbc_bytes"), 2048);
	cr_assert_eq(integer(d, "pcix_designed_splits"), 1);
	cr_assert(boolean(d, "pcix_64bit"));
	cr_assert(boolean(d, "pcix_133_capable"));
	cr_assert(!boolean(d, "pcix_266_capable"));
	/* 0x0c dword 00004010: cache line 0x10 dwords, latency timer 0x40 */
	cr_assert_eq(integer(d, "latency_timer"), 64);
	cr_assert_eq(integer(d, "cacheline_bytes"), 64);
	path_is(d, (const char *[]){"0000:01:1d.0", "0000:00:03.0"}, 2);
	cr_assert_str_eq(str(d, "bottleneck_slot"), "0000:01:1d.0");
	near(real(d, "bottleneck_gbps"), 400.0 / 3 * 64 / 1000);
	cr_assert_str_eq(str(json_object_get(d, "provenance"), "mmrbc_bytes"), "config");
	/* em2 (82540EM): pcib3 Secondary Status 0x0280, bit 5 clear: 33 MHz; width not in config */
	d = device(root, "0000:03:02.0");
	cr_assert_str_eq(str(d, "bus_kind"), "pci");
	cr_assert_eq(integer(d, "bus_mhz"), 33);
	expect_null(d, "bus_width_bits");
	path_is(d, (const char *[]){"0000:00:1e.0"}, 1);
	json_decref(root);
}

/* analyze's verdict and bus share through --pciconf -s SLOT, against the same run with --bus */
static json_t *analyze(const char *const *bus_args)
{
	const char *args[20] = {"analyze", test_data("../../data/examples/freebsd-2004-udp-echo-e1000.csv")};
	int n = 2;
	while (*bus_args)
		args[n++] = *bus_args++;
	const char *rest[] = {"--nic", "e1000", "--line-rate", "1G", "--cpus", "1", "--cpu-ghz", "2.8", NULL};
	for (int k = 0; rest[k]; k++)
		args[n++] = rest[k];
	args[n] = NULL;
	return report_json(0, args);
}

static void same_verdict(const char *slot, const char *bus, const char *want)
{
	json_t *a = analyze((const char *[]){"--pciconf", test_data(BOX), "-s", slot, NULL});
	json_t *b = analyze((const char *[]){"--bus", bus, NULL});
	cr_assert_str_eq(str(a, "verdict"), want);
	cr_assert_str_eq(str(b, "verdict"), want);
	json_t *ra = json_array_get(json_object_get(a, "rows"), 0),
	       *rb = json_array_get(json_object_get(b, "rows"), 0);
	cr_assert_not_null(ra);
	cr_assert_not_null(rb);
	cr_assert_str_eq(str(ra, "verdict"), str(rb, "verdict"));
	cr_assert(json_equal(json_object_get(ra, "bus_utilisation"), json_object_get(rb, "bus_utilisation")));
	cr_assert(json_equal(json_object_get(ra, "bus_gbps"), json_object_get(rb, "bus_gbps")));
	json_decref(a);
	json_decref(b);
}

/* README and scripts/demo.sh: the 82546 on PCI-X 133/64 is cpu-bound, the 82540 on PCI 33/32
 * cannot carry 550 Mbit/s each way (impossible) */
Test(pciconf, motivating_box_verdicts_match_bus_specs)
{
	same_verdict("02:01.0", "pcix133/64,mmrbc=512", "cpu-bound");
	same_verdict("03:02.0", "pci33/32", "impossible");
}

Test(pciconf, standard_input)
{
	struct run_result r =
	    run_pcibw(test_data(BOX), (const char *[]){"report", "--json", "--pciconf", "-", NULL});
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_assert(strstr(r.out, "\"source\": \"pciconf:-\""), "%.300s", r.out);
	run_free(&r);
}

/* A bad line: exit 3, file:line:column and what was expected. */
static void bad(const char *text, const char *want)
{
	char path[] = "/tmp/pcibw-pciconf-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--pciconf", path, NULL});
	unlink(path);
	cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	char where[64];
	snprintf(where, sizeof where, "%s:", path);
	cr_assert(strstr(r.err, where), "%s", r.err);
	cr_assert(strstr(r.err, want), "want '%s' in: %s", want, r.err);
	run_free(&r);
}

#define DEV "em0@pci0:2:1:0:\tclass=0x020000 card=0x10128086 chip=0x10108086 rev=0x01 hdr=0x00\n"

Test(pciconf, bad_input_named_at_line_and_column)
{
	bad("em0@pci0:2:1:0:\tclass=0x020000 chip=0x10108086 rev=0x01\n",
	    ":1:17: expected class=, rev=, hdr=");
	bad("em0@pci0:2:1:0:\tclass=0x0200 chip=0x10108086 rev=0x01 hdr=0x00\n", ":1:23: found '0x0200");
	bad(DEV "    cap 10[a0] = PCI-Express 2 endpoint max data 100(512)\n", ":2: cap 10[a0]");
	bad(DEV "    cap 07[e4] = PCI-X 64-bit supports 133MHz, 3000 burst read, 1 split transaction\n",
	    "burst read of 512");
	bad(DEV "    bogus line\n", ":2:5: found 'bogus line'");
	bad(DEV "# pciconf -r em9 0x04\n02300117\n", "pciconf -r em9: no device");
	bad(DEV "# pciconf -r em0 0x04:0x0c\n02300117 02000001\n",
	    ":3:18: the line ends after 2 values, 1 more");
	bad(DEV "# pciconf -r em0 0x04:0x14\n02300117 02000001 00004010 00000000\n",
	    "ends after 4 of the 5 values");
	bad(DEV "# pciconf -r em0 0x04\n0230011\n",
	    ":3:1: found '0230011': expected a value of 8 hex digits");
	bad(DEV DEV, "a second device line for pci0:2:1:0");
	bad("\n", "no pciconf -l device line");
}

/* Forms the real files do not show: FreeBSD 6's domain-less pciB:D:F, -B's "bus range" lines,
 * "RO", a 4096-byte "max read", a device pciconf's database did not name (-v printed only its
 * vendor): the name then comes from pci.ids (here the synthetic one: 8086:10c9). */
Test(pciconf, domainless_slot_bus_range_and_pci_ids_name)
{
	const char *text =
	    "igb0@pci1:0:0:\tclass=0x020000 card=0x00008086 chip=0x10c98086 rev=0x01 hdr=0x00\n"
	    "    vendor     = 'Intel Corporation'\n"
	    "    cap 10[a0] = PCI-Express 2 endpoint max data 256(512) RO\n"
	    "                 max read 4096\n"
	    "                 link x4(x4) speed 2.5(2.5)\n"
	    "pcib1@pci0:0:1:0:\tclass=0x060400 card=0x00000000 chip=0x01018086 rev=0x01 hdr=0x01\n"
	    "    bus range  = 1-1\n"
	    "    cap 10[40] = PCI-Express 2 root port max data 256(256)\n"
	    "                 max read 128\n"
	    "                 link x4(x8) speed 2.5(5.0)\n";
	char path[] = "/tmp/pcibw-pciconf-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	json_t *root = report_json(0, (const char *[]){"report", "--pciconf", path, "--pci-ids",
						       test_data("synthetic-pci.ids"), NULL});
	unlink(path);
	json_t *d = device(root, "0000:01:00.0");
	cr_assert_str_eq(str(d, "name"), "Synthetic Vendor Synthetic 82576 NIC");
	cr_assert(boolean(d, "relaxed_ordering"));
	cr_assert_eq(integer(d, "mrrs_bytes"), 4096);
	path_is(d, (const char *[]){"0000:00:01.0"}, 1);
	/* both hops x4 at 2.5 GT/s, 8b/10b: 8 Gbit/s; the tie goes to the root side */
	cr_assert_str_eq(str(d, "bottleneck_slot"), "0000:00:01.0");
	near(real(d, "bottleneck_gbps"), 8.0);
	json_decref(root);
}

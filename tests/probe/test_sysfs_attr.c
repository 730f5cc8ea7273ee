/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The world-readable sysfs attributes (src/probe/sysfs_attr_linux.c).
 * Speed strings: Linux drivers/pci/probe.c pci_speed_string() since 5.7 ("2.5 GT/s PCIe",
 * "5.0 GT/s PCIe", "8.0 GT/s PCIe" ... "64.0 GT/s PCIe", "Unknown"); before that
 * drivers/pci/pci-sysfs.c current_link_speed_show() ("2.5 GT/s", "5 GT/s", "8 GT/s", "16 GT/s",
 * "Unknown speed"). Values read from the snapshots are those their README tables state
 * (tests/data/sysfs/README.md).
 */
#include "src/probe/sysfs_attr.h"
#include "tests/support.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static double speed(const char *s)
{
	double g = -1;
	int col = 0;
	cr_assert_eq(pcibw_sysfs_parse_speed(s, &g, &col), 0, "'%s' refused at column %d", s, col);
	return g;
}

Test(sysfs_speed, new_kernel_strings)
{
	cr_expect_eq(speed("2.5 GT/s PCIe\n"), 2.5);
	cr_expect_eq(speed("8.0 GT/s PCIe\n"), 8.0);
	cr_expect_eq(speed("16.0 GT/s PCIe\n"), 16.0);
	cr_expect_eq(speed("32.0 GT/s PCIe\n"), 32.0);
	cr_expect_eq(speed("64.0 GT/s PCIe\n"), 64.0);
}

/* hwloc's own parser turns "5.0 GT/s PCIe" into 4.92 Gbit/s per lane (atof x 128/130). It is a
 * Gen2 rate: 5 GT/s, and the encoding is applied later, not here. */
Test(sysfs_speed, gen2_is_5_not_4_92)
{
	cr_expect_eq(speed("5.0 GT/s PCIe\n"), 5.0);
	cr_expect_eq(speed("5 GT/s\n"), 5.0);
}

Test(sysfs_speed, old_kernel_strings)
{
	cr_expect_eq(speed("2.5 GT/s\n"), 2.5);
	cr_expect_eq(speed("8 GT/s\n"), 8.0);
	cr_expect_eq(speed("16 GT/s\n"), 16.0);
}

Test(sysfs_speed, unknown_is_null)
{
	cr_expect(isnan(speed("Unknown\n")));
	cr_expect(isnan(speed("Unknown speed\n")));
}

Test(sysfs_speed, garbage_refused_with_column)
{
	double g;
	int col = 0;
	cr_expect_eq(pcibw_sysfs_parse_speed("8.0 GT/z PCIe\n", &g, &col), -1);
	cr_expect_eq(col, 8, "column of the 'z' (got %d)", col);
	cr_expect_eq(pcibw_sysfs_parse_speed("fast\n", &g, &col), -1);
	cr_expect_eq(col, 1);
	cr_expect_eq(pcibw_sysfs_parse_speed("8.0 GT/s PCIe x\n", &g, &col), -1);
	cr_expect_eq(col, 15);
	/* 4 GT/s is no PCIe rate (PCIe Base 6.0 sec. 4.2) */
	cr_expect_eq(pcibw_sysfs_parse_speed("4 GT/s\n", &g, &col), -1);
	cr_expect_eq(pcibw_sysfs_parse_speed("", &g, &col), -1);
}

Test(sysfs_width, values)
{
	int w, col;
	cr_expect_eq(pcibw_sysfs_parse_width("16\n", &w, &col), 0);
	cr_expect_eq(w, 16);
	cr_expect_eq(pcibw_sysfs_parse_width("1\n", &w, &col), 0);
	cr_expect_eq(w, 1);
	cr_expect_eq(pcibw_sysfs_parse_width("0\n", &w, &col), 0); /* x0: link down */
	cr_expect_eq(w, -1);
	cr_expect_eq(pcibw_sysfs_parse_width("3\n", &w, &col), -1); /* no PCIe width */
	cr_expect_eq(pcibw_sysfs_parse_width("x8\n", &w, &col), -1);
	cr_expect_eq(col, 1);
}

static struct pcibw_sysfs_attrs read_attrs(const char *snapshot, const char *slot)
{
	struct pcibw_sysfs_attrs a;
	struct pcibw_err err = {0};
	char root[4096];
	snprintf(root, sizeof root, "%s/sys", test_data(snapshot));
	int rc = pcibw_sysfs_read_attrs(root, slot, &a, &err);
	cr_assert_eq(rc, 0, "%s %s: %s", snapshot, slot, err.msg);
	return a;
}

/* README, skx table: 60:00.0 X722 "2.5 GT/s x1 / 8 GT/s x1", numa 0, netdev enp96s0f0. */
Test(sysfs_snapshot, x722_link_and_name)
{
	struct pcibw_sysfs_attrs a = read_attrs("sysfs/skx-2s-cx4-x722", "0000:60:00.0");
	cr_expect(a.has_cur_speed && a.has_max_speed && a.has_cur_width && a.has_max_width);
	cr_expect_eq(a.cur_gts, 2.5);
	cr_expect_eq(a.cur_width, 1);
	cr_expect_eq(a.max_gts, 8.0);
	cr_expect_eq(a.max_width, 1);
	cr_expect_eq(a.numa_node, 0);
	cr_expect_eq(a.n_ifaces, 1);
	cr_expect_str_eq(a.ifaces[0], "enp96s0f0");
	cr_expect_str_eq(a.local_cpulist, "0-7,16-23");
}

/* README, dell-snb: I350 node 0 (eth0), ConnectX-3 node 1 (ib0; HCA mlx4_0 under infiniband/),
 * and "no sysfs link files". */
Test(sysfs_snapshot, numa_nodes_differ)
{
	struct pcibw_sysfs_attrs a = read_attrs("sysfs/dell-snb-2n-i350-cx3", "0000:02:00.0");
	cr_expect_eq(a.numa_node, 0);
	cr_expect_eq(a.n_ifaces, 1);
	cr_expect_str_eq(a.ifaces[0], "eth0");
	cr_expect(!a.has_cur_speed && !a.has_max_speed && !a.has_cur_width && !a.has_max_width);
	struct pcibw_sysfs_attrs b = read_attrs("sysfs/dell-snb-2n-i350-cx3", "0000:82:00.0");
	cr_expect_eq(b.numa_node, 1);
	cr_expect_eq(b.n_ifaces, 2);
	cr_expect_str_eq(b.ifaces[0], "ib0");
	cr_expect_str_eq(b.ifaces[1], "mlx4_0");
}

/* README, R910: numa_node -1 is unknown (null, never 0); QLogic 43:00.0 on node 2 with ib0 and
 * qib0, hand-added current link 8 GT/s x4 and no max_link_* files. */
Test(sysfs_snapshot, numa_minus_one_is_null_and_partial_link)
{
	struct pcibw_sysfs_attrs a = read_attrs("sysfs/dell-r910-4n-bcm5709-qib", "0000:02:00.0");
	cr_expect(a.has_numa);
	cr_expect_eq(a.numa_node, -1);
	struct pcibw_sysfs_attrs q = read_attrs("sysfs/dell-r910-4n-bcm5709-qib", "0000:43:00.0");
	cr_expect_eq(q.numa_node, 2);
	cr_expect(q.has_cur_speed && q.has_cur_width);
	cr_expect(!q.has_max_speed && !q.has_max_width);
	cr_expect_eq(q.cur_gts, 8.0);
	cr_expect_eq(q.cur_width, 4);
	cr_expect_eq(q.n_ifaces, 2);
	cr_expect_str_eq(q.ifaces[0], "ib0");
	cr_expect_str_eq(q.ifaces[1], "qib0");
}

/* README, KVM guest: the netdev is <pci dev>/virtio0/net/ens3, one level deeper than net/. */
Test(sysfs_snapshot, virtio_name_one_level_deeper)
{
	struct pcibw_sysfs_attrs a = read_attrs("sysfs/kvm-virtio-pcidomain32", "0000:00:03.0");
	cr_expect_eq(a.n_ifaces, 1);
	cr_expect_str_eq(a.ifaces[0], "ens3");
	cr_expect_eq(a.numa_node, -1);
	cr_expect(!a.has_cur_speed);
}

/* tests/data/sysfs/synthetic-bad-link-speed: one device whose current_link_speed holds a
 * string no kernel writes; the error names file:1:column. */
Test(sysfs_snapshot, malformed_attribute_names_file_line_column)
{
	struct pcibw_sysfs_attrs a;
	struct pcibw_err err = {0};
	char root[4096];
	snprintf(root, sizeof root, "%s/sys", test_data("sysfs/synthetic-bad-link-speed"));
	int rc = pcibw_sysfs_read_attrs(root, "0000:00:01.0", &a, &err);
	cr_expect_eq(rc, PCIBW_EINPUT);
	cr_expect(strstr(err.msg, "0000:00:01.0/current_link_speed:1:8:"), "%s", err.msg);
	cr_expect(strstr(err.msg, "expected a PCIe link speed"), "%s", err.msg);
}

/* aer_dev_correctable as Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats shows it (names
 * with spaces, older kernels) and as drivers/pci/pcie/aer.c writes it now (one word each): the
 * TOTAL_ERR_COR line's count either way. */
Test(sysfs_aer, both_name_styles_give_the_total)
{
	long long n = -1;
	int line, col;
	cr_assert_eq(pcibw_sysfs_parse_aer("Receiver Error 2\nBad TLP 0\nBad DLLP 0\nRELAY_NUM Rollover 0\n"
					   "Replay Timer Timeout 0\nAdvisory Non-Fatal 0\nCorrected Internal "
					   "Error 0\nHeader Log Overflow 0\nTOTAL_ERR_COR 2\n",
					   "ERR_COR", &n, &line, &col),
		     0);
	cr_assert_eq(n, 2);
	cr_assert_eq(
	    pcibw_sysfs_parse_aer("RxErr 7\nBadTLP 1\nTOTAL_ERR_COR 8\n", "ERR_COR", &n, &line, &col), 0);
	cr_assert_eq(n, 8);
	cr_assert_eq(pcibw_sysfs_parse_aer("DLP 0\nTOTAL_ERR_FATAL 0\n", "ERR_FATAL", &n, &line, &col), 0);
	cr_assert_eq(n, 0);
}

Test(sysfs_aer, bad_text_names_line_and_column)
{
	long long n = -1;
	int line, col;
	cr_assert_eq(
	    pcibw_sysfs_parse_aer("RxErr 7\nBadTLP x1\nTOTAL_ERR_COR 8\n", "ERR_COR", &n, &line, &col), -1);
	cr_assert_eq(line, 2);
	cr_assert_eq(col, 8);
	cr_assert_eq(pcibw_sysfs_parse_aer("RxErr 7\n", "ERR_COR", &n, &line, &col), -1, "no TOTAL line");
	cr_assert_eq(pcibw_sysfs_parse_aer("TOTAL_ERR_COR\n", "ERR_COR", &n, &line, &col), -1);
	cr_assert_eq(line, 1);
}

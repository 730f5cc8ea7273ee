/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw report --topology FILE` on the five real hwloc XML exports of tests/data/hwloc (each
 * names its source, hwloc's tests/hwloc/xml/, in a comment after
 * </topology>). Expected values are the export's own text: a PCIDev's pci_busid and pci_type
 * ("class [vendor:device] ..."), its OSDev children's names, the os_index of the single NUMA
 * node under its nearest non-I/O ancestor (Package or Group; its nodeset), and pci_link_speed
 * (GB/s, one direction; 0.000000 = unknown). Gbit/s = GB/s x 8 (hand arithmetic).
 * An export has no config space: link GT/s, width and downgraded stay null, and a warning says
 * a downgrade cannot be shown.
 */
#include "report_helpers.h"
#include <stdio.h>

static json_t *topo(const char *name, bool all)
{
	const char *f = test_data(name);
	if (all)
		return report_json(0, (const char *[]){"report", "--topology", f, "--all", NULL});
	return report_json(0, (const char *[]){"report", "--topology", f, NULL});
}

static void expect_no_config_facts(json_t *d)
{
	cr_expect(is_null(d, "link_speed_gts"));
	cr_expect(is_null(d, "link_width"));
	cr_expect(is_null(d, "max_link_speed_gts"));
	cr_expect(is_null(d, "downgraded"));
	cr_expect(is_null(d, "mps_bytes"));
}

static void expect_path(json_t *d, const char *const *slots, int n)
{
	json_t *p = json_object_get(d, "path");
	cr_assert_eq(json_array_size(p), (size_t)n, "%s: path length %zu, want %d", str_or_null(d, "slot"),
		     json_array_size(p), n);
	for (int i = 0; i < n; i++)
		cr_expect_str_eq(str_or_null(json_array_get(p, (size_t)i), "slot"), slots[i]);
}

/* hp-sl390s-g7 (24em64t-2n6c2t-pci.xml): 82576 04:00.0 (0200 [8086:10c9]) link 0.2 GB/s under
 * root port 00:01.0 at 0.4 GB/s, eth0, Package 0 / NUMA node 0; ConnectX-2 05:00.0 is class
 * 0c06 ([15b3:6746]) with OS devices eth2, ib0, mlx4_0, 2.0 GB/s under 00:05.0 at 2.0 GB/s.
 * 0.2 x 8 = 1.6 < 0.4 x 8 = 3.2: the device's own link; 2.0 x 8 = 16 ties: the root side. */
Test(hwloc_xml, hp_82576_connectx2_link_speeds)
{
	json_t *r = topo("hwloc/hp-sl390s-g7-82576-connectx2-gpus.xml", false);
	cr_expect(!strncmp(str_or_null(r, "source"), "hwloc-xml:", 10));
	cr_expect_eq(json_array_size(json_object_get(r, "devices")), 3);
	json_t *a = device(r, "0000:04:00.0");
	cr_expect_str_eq(str_or_null(a, "class"), "0x0200");
	cr_expect_str_eq(str_or_null(a, "device_id"), "0x10c9");
	cr_expect(has_iface(a, "eth0"));
	cr_expect_eq(num_or_nan(a, "numa_node"), 0);
	expect_path(a, (const char *[]){"0000:00:01.0"}, 1);
	cr_expect_float_eq(num_or_nan(json_array_get(json_object_get(a, "path"), 0), "gbps"), 3.2, 1e-9);
	cr_expect_str_eq(str_or_null(a, "bottleneck_slot"), "0000:04:00.0");
	cr_expect_float_eq(num_or_nan(a, "bottleneck_gbps"), 1.6, 1e-9);
	expect_no_config_facts(a);
	json_t *c = device(r, "0000:05:00.0");
	cr_expect_str_eq(str_or_null(c, "class"), "0x0c06");
	cr_expect(has_iface(c, "eth2") && has_iface(c, "ib0") && has_iface(c, "mlx4_0"));
	cr_expect_str_eq(str_or_null(c, "bottleneck_slot"), "0000:00:05.0");
	cr_expect_float_eq(num_or_nan(c, "bottleneck_gbps"), 16.0, 1e-9);
	cr_expect_str_eq(prov(c, "interfaces"), "hwloc");
	cr_expect_str_eq(prov(c, "numa_node"), "hwloc");
	cr_expect_eq(warnings_with(r, (const char *[]){"downgrade", NULL}), 1);
	cr_expect_eq(warnings_with(r, (const char *[]){"0 there means unknown", NULL}), 1);
	json_decref(r);
}

/* Never mixed with this machine (a KVM guest whose NIC is virtio 1af4): with --all every
 * device comes from the export, none has vendor 0x1af4, and no link fact is invented. */
Test(hwloc_xml, not_mixed_with_this_machine)
{
	json_t *r = topo("hwloc/hp-sl390s-g7-82576-connectx2-gpus.xml", true);
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(r, "devices"), i, d)
	{
		cr_expect_str_neq(str_or_null(d, "vendor_id"), "0x1af4");
		expect_no_config_facts(d);
	}
	/* the GPU at 0000:06:00.0 (0302 [10de:06d2]) is in the export, under root port 00:07.0 */
	expect_path(device(r, "0000:06:00.0"), (const char *[]){"0000:00:07.0"}, 1);
	json_decref(r);
}

/* ibm-4node (96em64t-4n4d3ca2co-pci.xml): 8 BCM5709 functions, 2 per node: 02:00.x eth0/eth1
 * node 0, 32:00.x eth2/eth3 node 1, 62:00.x eth4/eth5 node 2, 92:00.x eth6/eth7 node 3; every
 * pci_link_speed is 0.000000 (unknown, not zero): no bottleneck. */
Test(hwloc_xml, ibm_4node_bcm5709_numa)
{
	json_t *r = topo("hwloc/ibm-4node-bcm5709x8.xml", false);
	cr_expect_eq(json_array_size(json_object_get(r, "devices")), 8);
	const char *slots[] = {"0000:02:00.0", "0000:32:00.1", "0000:62:00.0", "0000:92:00.1"};
	const char *ifs[] = {"eth0", "eth3", "eth4", "eth7"};
	for (int i = 0; i < 4; i++) {
		json_t *d = device(r, slots[i]);
		cr_expect_eq(num_or_nan(d, "numa_node"), i, "%s", slots[i]);
		cr_expect(has_iface(d, ifs[i]), "%s", slots[i]);
		cr_expect_str_eq(str_or_null(d, "device_id"), "0x1639");
		cr_expect(is_null(d, "bottleneck_gbps"));
		json_t *h = json_array_get(json_object_get(d, "path"), 0);
		cr_expect(json_is_null(json_object_get(h, "gbps")), "0.000000 is unknown, not zero");
	}
	expect_path(device(r, "0000:92:00.1"), (const char *[]){"0000:90:1c.0"}, 1);
	/* node 0's cpuset="0x00ffffff": PUs 0-23 */
	cr_expect_str_eq(str_or_null(device(r, "0000:02:00.0"), "local_cpus"), "0-23");
	cr_expect_eq(warnings_with(r, (const char *[]){"no link speed", NULL}), 1);
	json_decref(r);
}

/* sgi-uv2000 (192em64t-12gr2n8c2t.xml): I350 0000:01:00.0 eth0 on node 0 below 00:03.0; BCM5709
 * 0002:03:00.0 eth2 on node 4 below 0002:02:01.0 -> PLX 0002:01:00.0 -> 0002:00:03.0;
 * ConnectX-3 0003:01:00.0 (0280 [15b3:1003]) ib0 + mlx4_0 on node 6. */
Test(hwloc_xml, sgi_uv_domains_and_nodes)
{
	json_t *r = topo("hwloc/sgi-uv2000-bcm5709-connectx3-i350.xml", false);
	json_t *a = device(r, "0000:01:00.0");
	cr_expect_eq(num_or_nan(a, "numa_node"), 0);
	cr_expect(has_iface(a, "eth0"));
	json_t *b = device(r, "0002:03:00.0");
	cr_expect_eq(num_or_nan(b, "numa_node"), 4);
	cr_expect(has_iface(b, "eth2"));
	expect_path(b, (const char *[]){"0002:02:01.0", "0002:01:00.0", "0002:00:03.0"}, 3);
	json_t *c = device(r, "0003:01:00.0");
	cr_expect_str_eq(str_or_null(c, "class"), "0x0280");
	cr_expect_eq(num_or_nan(c, "numa_node"), 6);
	cr_expect(has_iface(c, "ib0") && has_iface(c, "mlx4_0"));
	json_decref(r);
}

/* supermicro-x9drg whole-IO (32em64t-2n8c2t-pci-wholeio.xml): I350 81:00.0 eth0 node 1 below
 * 80:01.0; the ConnectX-4 (0207 [15b3:1013], ib0 + mlx5_0) is stored as 0000:04:00.0 inside
 * bridge 80:03.0 (bus range [84-84]) on node 1, while a SATA controller 0000:04:00.0
 * (0107 [8086:1d6b]) sits below 00:11.0: the export's tree is followed, not the bus numbers. */
Test(hwloc_xml, supermicro_export_tree_wins)
{
	json_t *r = topo("hwloc/supermicro-x9drg-i350-connectx4-wholeio.xml", false);
	json_t *a = device(r, "0000:81:00.0");
	cr_expect_eq(num_or_nan(a, "numa_node"), 1);
	cr_expect(has_iface(a, "eth0"));
	expect_path(a, (const char *[]){"0000:80:01.0"}, 1);
	json_t *c = device(r, "0000:04:00.0");
	cr_expect_str_eq(str_or_null(c, "class"), "0x0207");
	cr_expect(has_iface(c, "ib0") && has_iface(c, "mlx5_0"));
	cr_expect_eq(num_or_nan(c, "numa_node"), 1);
	expect_path(c, (const char *[]){"0000:80:03.0"}, 1);
	json_decref(r);
}

/* cisco (16intel64-manyVFs.xml): VIC 0b:00.0 (1137:0043) with eth4 and usnic_0 (an OpenFabrics
 * OS device, osdev_type 3) five bridges deep; its VFs 0b:00.1-3 have no OS device; 88:00.0
 * (eth6, usnic_2) on node 1. */
Test(hwloc_xml, cisco_vic_deep_path_and_vfs)
{
	json_t *r = topo("hwloc/cisco-vic-i350-many-vfs.xml", false);
	json_t *v = device(r, "0000:0b:00.0");
	cr_expect(has_iface(v, "eth4") && has_iface(v, "usnic_0"));
	cr_expect_eq(num_or_nan(v, "numa_node"), 0);
	expect_path(
	    v,
	    (const char *[]){"0000:0a:00.0", "0000:09:00.0", "0000:07:01.0", "0000:06:00.0", "0000:00:03.0"},
	    5);
	cr_expect_eq(json_array_size(json_object_get(device(r, "0000:0b:00.1"), "interfaces")), 0);
	json_t *w = device(r, "0000:88:00.0");
	cr_expect_eq(num_or_nan(w, "numa_node"), 1);
	cr_expect(has_iface(w, "eth6") && has_iface(w, "usnic_2"));
	json_decref(r);
}

/* -i picks the device behind an OS name from the export. */
Test(hwloc_xml, iface_filter)
{
	const char *f = test_data("hwloc/sgi-uv2000-bcm5709-connectx3-i350.xml");
	json_t *r = report_json(0, (const char *[]){"report", "--topology", f, "-i", "mlx4_0", NULL});
	cr_expect_eq(json_array_size(json_object_get(r, "devices")), 1);
	cr_expect(has_dev(r, "0003:01:00.0"));
	json_decref(r);
}

/* Not an export: exit 3 naming file:line:column. A sysfs README is text, not XML: its first
 * line "# Linux sysfs..." fails at column 2 (expat: text before the root element). */
Test(hwloc_xml, bad_file_exit_3)
{
	const char *f = test_data("sysfs/README.md");
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--topology", f, NULL});
	cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "README.md:1:"), "%s", r.err);
	run_free(&r);
	/* tests/data/hwloc/synthetic-truncated.xml: its comment says line 8, column 5 */
	f = test_data("hwloc/synthetic-truncated.xml");
	r = run_pcibw(NULL, (const char *[]){"report", "--topology", f, NULL});
	cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "synthetic-truncated.xml:8:5:"), "%s", r.err);
	run_free(&r);
	/* tests/data/hwloc/synthetic-version-3.xml: line 6, column 1, version 3.0 */
	f = test_data("hwloc/synthetic-version-3.xml");
	r = run_pcibw(NULL, (const char *[]){"report", "--topology", f, NULL});
	cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "synthetic-version-3.xml:6:1:"), "%s", r.err);
	cr_expect(strstr(r.err, "3.0"), "%s", r.err);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"report", "--topology", "/nonexistent.xml", NULL});
	cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "/nonexistent.xml"), "%s", r.err);
	run_free(&r);
}

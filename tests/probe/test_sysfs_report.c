/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw report --sysfs DIR` on the four real snapshots of tests/data/sysfs (with their
 * README; symlinks restored, see COPY-NOTES.md).
 * Every expected fact is a line of that README ("what it should show" tables and notes); the
 * bandwidths are hand arithmetic from the contract's rule GT/s x lanes x encoding
 * (PCIe Base 6.0 sec. 4.2: 8b/10b at 2.5 and 5 GT/s, 128b/130b at 8 GT/s):
 *   8 GT/s x16 = 8 x 16 x 128/130 = 126.0307692 Gbit/s
 *   8 GT/s x8  = 8 x 8 x 128/130  =  63.0153846 Gbit/s
 *   2.5 GT/s x1 = 2.5 x 1 x 0.8    =   2.0 Gbit/s
 * The snapshots' config files are 64 bytes (gathered without root), so link facts can only
 * come from the sysfs attribute files: provenance must say "sysfs".
 */
#include "report_helpers.h"
#include <stdio.h>
#include <stdlib.h>

#define X16_8GT (8.0 * 16 * 128 / 130)
#define X8_8GT (8.0 * 8 * 128 / 130)

static json_t *snap(const char *name, bool all)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", test_data(name));
	if (all)
		return report_json(0, (const char *[]){"report", "--sysfs", dir, "--all", NULL});
	return report_json(0, (const char *[]){"report", "--sysfs", dir, NULL});
}

static void expect_path(json_t *d, const char *const *slots, int n, double gbps_each)
{
	json_t *path = json_object_get(d, "path");
	cr_assert_eq(json_array_size(path), (size_t)n, "path length %zu, want %d", json_array_size(path), n);
	for (int i = 0; i < n; i++) {
		json_t *h = json_array_get(path, (size_t)i);
		cr_expect_str_eq(str_or_null(h, "slot"), slots[i]);
		if (!isnan(gbps_each))
			cr_expect_float_eq(num_or_nan(h, "gbps"), gbps_each, 1e-6, "hop %s", slots[i]);
	}
}

/* README skx table: 1a:00.0 ConnectX-4, path 17:00.0 -> PLX 18:00.0 -> 19:04.0, sysfs link
 * 8 GT/s x16 / 8 GT/s x16, numa 0, no netdev; "the shared uplink is the real ceiling". All hops
 * are equal, so the tie goes to the root port 17:00.0 (contract). */
Test(sysfs_skx, connectx4_link_and_plx_uplink_bottleneck)
{
	json_t *r = snap("sysfs/skx-2s-cx4-x722", false);
	json_t *d = device(r, "0000:1a:00.0");
	cr_expect_str_eq(str_or_null(d, "class"), "0x0207");
	cr_expect_eq(num_or_nan(d, "link_speed_gts"), 8.0);
	cr_expect_eq(num_or_nan(d, "link_width"), 16);
	cr_expect_eq(num_or_nan(d, "max_link_speed_gts"), 8.0);
	cr_expect_eq(num_or_nan(d, "max_link_width"), 16);
	cr_expect(json_is_false(json_object_get(d, "downgraded")));
	cr_expect_eq(num_or_nan(d, "numa_node"), 0);
	cr_expect_eq(json_array_size(json_object_get(d, "interfaces")), 0);
	cr_expect_str_eq(str_or_null(d, "bus_kind"), "pcie");
	cr_expect_str_eq(prov(d, "link_speed_gts"), "sysfs");
	cr_expect_str_eq(prov(d, "link_width"), "sysfs");
	expect_path(d, (const char *[]){"0000:19:04.0", "0000:18:00.0", "0000:17:00.0"}, 3, X16_8GT);
	cr_expect_str_eq(str_or_null(d, "bottleneck_slot"), "0000:17:00.0");
	cr_expect_float_eq(num_or_nan(d, "bottleneck_gbps"), X16_8GT, 1e-6);

	json_t *e = device(r, "0000:3e:00.0");
	expect_path(e, (const char *[]){"0000:3c:08.0", "0000:3b:00.0", "0000:3a:00.0"}, 3, X16_8GT);
	cr_expect_str_eq(str_or_null(e, "bottleneck_slot"), "0000:3a:00.0");
	json_decref(r);
}

/* README skx: X722 60:00.0 sysfs link 2.5 GT/s x1, max 8 GT/s x1, below PCH port 5f:03.0
 * (2.5 GT/s x1), PCH 5e:00.0 (8 GT/s x8), root port 5d:02.0 (8 GT/s x8); netdev enp96s0f0.
 * Current below max: downgraded (from the sysfs link files). The device and 5f:03.0 tie at
 * 2 Gbit/s: the tie goes to 5f:03.0. The README: "an internal/virtual link" - say so. */
Test(sysfs_skx, x722_downgraded_on_package_link)
{
	json_t *r = snap("sysfs/skx-2s-cx4-x722", false);
	json_t *d = device(r, "0000:60:00.0");
	cr_expect_eq(num_or_nan(d, "link_speed_gts"), 2.5);
	cr_expect_eq(num_or_nan(d, "link_width"), 1);
	cr_expect_eq(num_or_nan(d, "max_link_speed_gts"), 8.0);
	cr_expect_eq(num_or_nan(d, "max_link_width"), 1);
	cr_expect(json_is_true(json_object_get(d, "downgraded")));
	cr_expect_str_eq(prov(d, "downgraded"), "sysfs");
	cr_expect(has_iface(d, "enp96s0f0"));
	cr_expect(has_iface(device(r, "0000:60:00.1"), "enp96s0f1"));
	cr_expect_eq(num_or_nan(d, "numa_node"), 0);
	cr_expect_str_eq(str_or_null(d, "local_cpus"), "0-7,16-23"); /* README: local_cpulist 0-7,16-23 */
	json_t *path = json_object_get(d, "path");
	cr_assert_eq(json_array_size(path), 3);
	cr_expect_str_eq(str_or_null(json_array_get(path, 0), "slot"), "0000:5f:03.0");
	cr_expect_float_eq(num_or_nan(json_array_get(path, 0), "gbps"), 2.0, 1e-9);
	cr_expect_float_eq(num_or_nan(json_array_get(path, 2), "gbps"), X8_8GT, 1e-6);
	cr_expect_str_eq(str_or_null(d, "bottleneck_slot"), "0000:5f:03.0");
	cr_expect_float_eq(num_or_nan(d, "bottleneck_gbps"), 2.0, 1e-9);
	cr_expect_eq(warnings_with(r, (const char *[]){"0000:60:00.0", "on-package",
						       "may not be a physical ceiling", NULL}),
		     1);
	json_decref(r);
	/* the text headline says so too, beside the port fit modelled on the uplink 5d:02.0 */
	struct run_result t =
	    run_pcibw(NULL, (const char *[]){"report", "--sysfs", test_data("sysfs/skx-2s-cx4-x722"), "-s",
					     "60:00.0", NULL});
	cr_assert_eq(t.status, 0, "%s", t.err);
	cr_expect(strstr(t.out,
			 "  bottleneck:  2.00 Gbit/s per direction at 0000:5f:03.0 (its on-package link, "
			 "which may not be a physical ceiling: see the warnings)\n"),
		  "%s", t.out);
	cr_expect(strstr(t.out, "on the chipset's uplink 0000:5d:02.0"), "%s", t.out);
	run_free(&t);
	/* a ConnectX-4 on the same machine is no chipset MAC: its headline stays plain */
	t = run_pcibw(NULL, (const char *[]){"report", "--sysfs", test_data("sysfs/skx-2s-cx4-x722"), "-s",
					     "1a:00.0", NULL});
	cr_assert_eq(t.status, 0, "%s", t.err);
	cr_expect(strstr(t.out, "  bottleneck:  126.03 Gbit/s per direction at 0000:17:00.0\n"), "%s", t.out);
	run_free(&t);
}

/* README: "every config file is 64 bytes long": one warning, once, saying what a copy gathered
 * as root would add; four network functions (2 ConnectX-4, 2 X722 ports). */
Test(sysfs_skx, one_warning_for_hidden_config)
{
	json_t *r = snap("sysfs/skx-2s-cx4-x722", false);
	cr_expect_eq(json_array_size(json_object_get(r, "devices")), 4);
	cr_expect_eq(warnings_with(r, (const char *[]){"64 bytes", NULL}), 1);
	cr_expect_eq(warnings_with(r, (const char *[]){"as root", "MPS", NULL}), 1);
	/* README: "The only link information is in the sysfs attributes current_link_speed,
	 * current_link_width, max_link_speed, max_link_width": the warning names them, since text
	 * output shows no provenance key to "see" */
	cr_expect_eq(
	    warnings_with(r, (const char *[]){"current_link_speed, current_link_width, max_link_speed, "
					      "max_link_width",
					      "--json names each fact's source under provenance", NULL}),
	    1);
	cr_expect(!strncmp(str_or_null(r, "source"), "sysfs:", 6), "source %s", str_or_null(r, "source"));
	json_decref(r);
}

/* The copy's sys/ directory is accepted as well as its root (contract: DIR/bus/pci/devices). */
Test(sysfs_skx, sys_dir_accepted)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/sys", test_data("sysfs/skx-2s-cx4-x722"));
	json_t *r = report_json(0, (const char *[]){"report", "--sysfs", dir, NULL});
	cr_expect_eq(num_or_nan(device(r, "0000:60:00.0"), "link_speed_gts"), 2.5);
	json_decref(r);
}

/* README dell-snb: I350 02:00.0 (eth0) and 02:00.3 (eth1) on node 0 below root port 00:01.1;
 * ConnectX-3 82:00.0 (ib0; HCA mlx4_0) on node 1 below 80:02.2; no link files, so link speed
 * and width unknown ("the tool must say unknown, not guess"). */
Test(sysfs_snb, numa_nodes_and_unknown_links)
{
	json_t *r = snap("sysfs/dell-snb-2n-i350-cx3", false);
	json_t *a = device(r, "0000:02:00.0");
	cr_expect_eq(num_or_nan(a, "numa_node"), 0);
	cr_expect_str_eq(prov(a, "numa_node"), "sysfs");
	cr_expect(has_iface(a, "eth0"));
	cr_expect(is_null(a, "link_speed_gts"));
	cr_expect(is_null(a, "link_width"));
	cr_expect(is_null(a, "bottleneck_gbps"));
	expect_path(a, (const char *[]){"0000:00:01.1"}, 1, NAN);
	json_t *b = device(r, "0000:02:00.3");
	cr_expect_eq(num_or_nan(b, "numa_node"), 0);
	cr_expect(has_iface(b, "eth1"));
	json_t *c = device(r, "0000:82:00.0");
	cr_expect_str_eq(str_or_null(c, "class"), "0x0280");
	cr_expect_eq(num_or_nan(c, "numa_node"), 1);
	cr_expect(has_iface(c, "ib0"));
	cr_expect(has_iface(c, "mlx4_0"));
	cr_expect(is_null(c, "link_speed_gts"));
	expect_path(c, (const char *[]){"0000:80:02.2"}, 1, NAN);
	json_decref(r);
}

/* README R910: QLogic IBA7322 43:00.0 is class 0x0c06 (InfiniBand) and must be listed; node 2,
 * ib0 (and HCA qib0); hand-added current link 8 GT/s x4 with no max_link_* files, so max and
 * downgraded unknown. BCM5709 numa_node -1: null, never 0. */
Test(sysfs_r910, qlogic_infiniband_listed_numa_unknown_is_null)
{
	json_t *r = snap("sysfs/dell-r910-4n-bcm5709-qib", false);
	cr_expect_eq(json_array_size(json_object_get(r, "devices")), 5);
	json_t *q = device(r, "0000:43:00.0");
	cr_expect_str_eq(str_or_null(q, "class"), "0x0c06");
	cr_expect_eq(num_or_nan(q, "numa_node"), 2);
	cr_expect(has_iface(q, "ib0"));
	cr_expect(has_iface(q, "qib0"));
	cr_expect_eq(num_or_nan(q, "link_speed_gts"), 8.0);
	cr_expect_eq(num_or_nan(q, "link_width"), 4);
	cr_expect(is_null(q, "max_link_speed_gts"));
	cr_expect(is_null(q, "downgraded"));
	expect_path(q, (const char *[]){"0000:40:03.0"}, 1, NAN);
	json_t *b = device(r, "0000:02:00.0");
	cr_expect(is_null(b, "numa_node"));
	cr_expect(is_null(b, "local_cpus")); /* "covers all 40 PUs": locality unknown */
	cr_expect(has_iface(b, "eth0"));
	expect_path(b, (const char *[]){"0000:00:05.0"}, 1, NAN);
	json_t *b3 = device(r, "0000:03:00.1");
	cr_expect_eq(num_or_nan(b3, "link_speed_gts"), 2.5);
	cr_expect(is_null(b3, "max_link_width"));
	json_decref(r);
}

/* README KVM guest: virtio-net 0000:00:03.0 (1af4:1000) on conventional PCI, numa_node -1, netdev
 * ens3 under virtio0/net/; "not apply a 33/66 MHz ceiling to a paravirtual NIC". The copy's
 * proc/cpuinfo carries the 'hypervisor' flag. 10000:00:04.0 keeps its 5-digit domain. */
Test(sysfs_kvm, virtio_virtual_name_one_level_deeper)
{
	json_t *r = snap("sysfs/kvm-virtio-pcidomain32", false);
	json_t *d = device(r, "0000:00:03.0");
	cr_expect(json_is_true(json_object_get(d, "virtual")));
	cr_expect(has_iface(d, "ens3"));
	cr_expect(is_null(d, "numa_node"));
	cr_expect(is_null(d, "bus_mhz"));
	cr_expect(is_null(d, "bottleneck_gbps"));
	cr_expect(is_null(d, "bottleneck_slot"));
	cr_expect_eq(warnings_with(r, (const char *[]){"hypervisor", NULL}), 1);
	/* both drivers, from the copy's links: 0000:00:03.0/driver -> .../pci/drivers/virtio-pci,
	 * 0000:00:03.0/virtio0/driver -> .../virtio/drivers/virtio_net (ethtool -i's name) */
	cr_expect_str_eq(json_string_value(json_object_get(d, "driver")), "virtio-pci");
	cr_expect_str_eq(json_string_value(json_object_get(d, "interface_driver")), "virtio_net");
	json_decref(r);
	struct run_result t = run_pcibw(
	    NULL, (const char *[]){"report", "--sysfs", test_data("sysfs/kvm-virtio-pcidomain32"), NULL});
	cr_expect(strstr(t.out, "driver:      virtio-pci (PCI), virtio_net (interfaces)"), "%s", t.out);
	run_free(&t);
	r = snap("sysfs/kvm-virtio-pcidomain32", true);
	cr_expect(has_dev(r, "10000:00:04.0"));
	json_decref(r);
}

/* the end of the CSV field at p (RFC 4180: a quoted field may hold commas, "" is a quote) */
static const char *field_end(const char *p)
{
	if (*p != '"')
		return p + strcspn(p, ",\n");
	for (p++; *p; p++)
		if (*p == '"' && *++p != '"')
			return p;
	return p;
}

/* The field of CSV row `row` (1: the first after the header) under column `name`, as written
 * (quotes kept), "" for an empty one. */
static void csv_field(const char *csv, int row, const char *name, char *out, size_t n)
{
	int col = -1, k = 0;
	const char *p = csv;
	for (;; k++) {
		const char *e = field_end(p);
		if ((size_t)(e - p) == strlen(name) && !strncmp(p, name, strlen(name)))
			col = k;
		p = e + 1;
		if (*e != ',')
			break;
	}
	cr_assert_geq(col, 0, "no column %s: %.200s", name, csv);
	for (int i = 1; i < row; i++)
		p = strchr(p, '\n') + 1;
	for (int i = 0; i < col; i++)
		p = field_end(p) + 1;
	snprintf(out, n, "%.*s", (int)(field_end(p) - p), p);
}

/* The same copy's two drivers in the CSV (driver, interface_driver) and the interface's in
 * Prometheus' pcibw_interface_info (label driver): 0000:00:03.0/virtio0/driver -> virtio_net. */
Test(sysfs_kvm, interface_driver_in_csv_and_prometheus)
{
	struct run_result t =
	    run_pcibw(NULL, (const char *[]){"report", "--sysfs", test_data("sysfs/kvm-virtio-pcidomain32"),
					     "--format", "csv", NULL});
	cr_assert_eq(t.status, 0, "%s", t.err);
	cr_assert(!strncmp(strchr(t.out, '\n') + 1, "0000:00:03.0,", 13), "%s", t.out);
	char f[64];
	csv_field(t.out, 1, "driver", f, sizeof f);
	cr_expect_str_eq(f, "virtio-pci");
	csv_field(t.out, 1, "interface_driver", f, sizeof f);
	cr_expect_str_eq(f, "virtio_net");
	run_free(&t);
	t = run_pcibw(NULL, (const char *[]){"report", "--sysfs", test_data("sysfs/kvm-virtio-pcidomain32"),
					     "--format", "prometheus", NULL});
	cr_assert_eq(t.status, 0, "%s", t.err);
	cr_expect(
	    strstr(t.out,
		   "\npcibw_interface_info{device=\"ens3\",slot=\"0000:00:03.0\",driver=\"virtio_net\"} 1\n"),
	    "%s", t.out);
	run_free(&t);
}

/* sysfs/synthetic-vm-0d57-virtio (README): a guest's host bridge 8086:0d57, subsystem 0000:0000,
 * beside virtio 1.0 functions; its emulated 64-byte header implies a 33 MHz conventional segment,
 * which is no ceiling: the bridge is virtual, with no bottleneck, like the virtio functions. */
Test(sysfs_vm, guest_host_bridge_has_no_ceiling)
{
	json_t *r = snap("sysfs/synthetic-vm-0d57-virtio", true);
	json_t *hb = device(r, "0000:00:00.0");
	cr_expect(json_is_true(json_object_get(hb, "virtual")));
	cr_expect(is_null(hb, "bottleneck_gbps"));
	cr_expect(is_null(hb, "bus_mhz"));
	json_t *net = device(r, "0000:00:03.0");
	cr_expect(json_is_true(json_object_get(net, "virtual")));
	cr_expect(is_null(net, "bottleneck_gbps"));
	json_decref(r);
	/* the text names no made-up clock or ceiling for it */
	struct run_result t = run_pcibw(NULL, (const char *[]){"report", "--all", "--sysfs",
							       test_data("sysfs/synthetic-vm-0d57-virtio"),
							       "-s", "00:00.0", NULL});
	cr_expect_eq(t.status, 0, "%s", t.err);
	cr_expect_null(strstr(t.out, "33 MHz"), "%s", t.out);
	cr_expect_null(strstr(t.out, "bottleneck:"), "%s", t.out);
	run_free(&t);
}

/* tests/data/sysfs/synthetic-bad-link-speed/README.md: exit 3 naming file:1:8. */
Test(sysfs_bad, malformed_link_speed_exit_3)
{
	const char *dir = test_data("sysfs/synthetic-bad-link-speed");
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--sysfs", dir, NULL});
	cr_expect_eq(r.status, 3, "exit %d, stderr %s", r.status, r.err);
	cr_expect(strstr(r.err, "0000:00:01.0/current_link_speed:1:8:"), "stderr: %s", r.err);
	run_free(&r);
}

Test(sysfs_bad, not_a_tree_exit_3)
{
	const char *dir = test_data("hwloc");
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--sysfs", dir, NULL});
	cr_expect_eq(r.status, 3, "exit %d, stderr %s", r.status, r.err);
	cr_expect(strstr(r.err, "bus/pci/devices"), "stderr: %s", r.err);
	run_free(&r);
}

/* The same facts read by an unprivileged user (nobody): the copy is world-readable. */
Test(sysfs_skx, same_facts_as_nobody)
{
	const char *dir = test_data("sysfs/skx-2s-cx4-x722");
	struct run_result r =
	    run_pcibw_as_nobody(dir, (const char *[]){"report", "--sysfs", dir, "--json", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	json_t *j = json_loads(r.out, 0, NULL);
	cr_assert(j);
	json_t *d = device(j, "0000:60:00.0");
	cr_expect_eq(num_or_nan(d, "link_speed_gts"), 2.5);
	cr_expect(json_is_true(json_object_get(d, "downgraded")));
	json_decref(j);
	run_free(&r);
}

/* tests/data/sysfs/synthetic-missing-config/README.md: a device without its config file. */
Test(sysfs_bad, missing_config_exit_3)
{
	const char *dir = test_data("sysfs/synthetic-missing-config");
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--sysfs", dir, NULL});
	cr_expect_eq(r.status, 3, "exit %d, stderr %s", r.status, r.err);
	cr_expect(strstr(r.err, "0000:00:02.0/config: missing"), "stderr: %s", r.err);
	run_free(&r);
}

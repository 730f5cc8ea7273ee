/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe_hwloc_may_add on a made-up sysroot: class/net and class/infiniband entries are links into
 * devices/, as the kernel makes them (Documentation/ABI/testing/sysfs-class-net: "/sys/class/net/
 * <iface>" links to the device's directory), e.g. on a KVM guest "eth0 ->
 * ../../devices/pci0000:00/0000:00:03.0/virtio2/net/eth0" and "lo -> ../../devices/virtual/net/lo".
 * hwloc names a PCI function by the last PCI address after the /pciDDDD:BB/ root in that link.
 */
#include "src/probe/live.h"
#include "support.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static void setup(void)
{
	snprintf(root, sizeof root, "/tmp/pcibw-hwloc-need-XXXXXX");
	cr_assert(mkdtemp(root));
	char p[128];
	snprintf(p, sizeof p, "%s/class", root);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/class/net", root);
	cr_assert_eq(mkdir(p, 0755), 0);
}

static void teardown(void)
{
	struct run_result r = run_cmd(NULL, (const char *[]){"rm", "-rf", root, NULL});
	run_free(&r);
}

static void entry(const char *cls, const char *name, const char *target)
{
	char p[256];
	snprintf(p, sizeof p, "%s/class/%s", root, cls);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/class/%s/%s", root, cls, name);
	cr_assert_eq(symlink(target, p), 0, "%s", p);
}

/* A function read from sysfs: numa_node file present (-1 or a node), n_names names under it. */
static void add(struct probe_set *s, int bus, int dev, int fn, int n_names, bool numa_file)
{
	struct probe_node *n = probe_set_add(s);
	cr_assert(n);
	n->d.domain = 0;
	n->d.bus = bus;
	n->d.dev = dev;
	n->d.fn = fn;
	if (numa_file)
		pcibw_device_set_prov(&n->d, "numa_node", "sysfs");
	for (int i = 0; i < n_names; i++)
		snprintf(n->d.interfaces[i], sizeof n->d.interfaces[i], "eth%d", i);
	n->d.n_interfaces = n_names;
}

TestSuite(hwloc_need, .init = setup, .fini = teardown);

Test(hwloc_need, names_sysfs_already_gave_leave_nothing)
{
	struct probe_set s = {0};
	add(&s, 0, 0, 0, 0, true);
	add(&s, 0, 3, 0, 1, true);
	entry("net", "eth0", "../../devices/pci0000:00/0000:00:03.0/virtio2/net/eth0");
	entry("net", "lo", "../../devices/virtual/net/lo");
	entry("net", "ifb0", "../../devices/virtual/net/ifb0");
	cr_assert(!probe_hwloc_may_add(root, &s));
	probe_set_free(&s);
}

Test(hwloc_need, no_numa_node_file)
{
	struct probe_set s = {0};
	add(&s, 0, 3, 0, 1, false);
	cr_assert(probe_hwloc_may_add(root, &s));
	probe_set_free(&s);
}

/* An auxiliary device's netdev (mlx5_core.eth.0/net/...) behind a root port: the last address
 * is the NIC's, which sysfs's net/ gave no name. */
Test(hwloc_need, netdev_below_an_auxiliary_device)
{
	struct probe_set s = {0};
	add(&s, 0, 1, 0, 0, true);
	add(&s, 1, 0, 0, 0, true);
	entry("net", "enp1s0f0np0",
	      "../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/mlx5_core.eth.0/net/enp1s0f0np0");
	cr_assert(probe_hwloc_may_add(root, &s));
	probe_set_free(&s);
}

/* A USB adapter hangs under its host controller's function (hwloc keeps USB devices when every
 * I/O object is kept). */
Test(hwloc_need, usb_netdev_under_its_host_controller)
{
	struct probe_set s = {0};
	add(&s, 0, 0x14, 0, 0, true);
	entry("net", "enx001122334455",
	      "../../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/net/enx001122334455");
	cr_assert(probe_hwloc_may_add(root, &s));
	probe_set_free(&s);
}

Test(hwloc_need, infiniband_device_of_a_named_function_and_scif)
{
	struct probe_set s = {0};
	add(&s, 0x82, 0, 0, 1, true);
	entry("infiniband", "mlx4_0", "../../devices/pci0000:80/0000:80:02.0/0000:82:00.0/infiniband/mlx4_0");
	entry("infiniband", "scif0", "../../devices/pci0000:80/0000:80:02.0/0000:83:00.0/infiniband/scif0");
	cr_assert(!probe_hwloc_may_add(root, &s)); /* scif: hwloc skips these fake devices */
	entry("infiniband", "qib0", "../../devices/pci0000:80/0000:80:03.0/0000:84:00.0/infiniband/qib0");
	cr_assert(probe_hwloc_may_add(root, &s)); /* 84:00.0 is not in the set */
	probe_set_free(&s);
}

/* Not below a PCI root (a platform device): hwloc hangs it near a NUMA node, on no function. */
Test(hwloc_need, platform_netdev)
{
	struct probe_set s = {0};
	add(&s, 0, 3, 0, 1, true);
	entry("net", "end0", "../../devices/platform/soc/fe300000.ethernet/net/end0");
	cr_assert(!probe_hwloc_may_add(root, &s));
	probe_set_free(&s);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwloc as a source of OS names and NUMA nodes (src/probe/hwloc_topo.c), loaded on a copied Linux
 * tree through its file-system root, on an XML export, and on this machine. Expected names are
 * those of tests/data/sysfs/README.md (dell-snb: eth0 at 02:00.0, ib0 at 82:00.0) and of the
 * XML text (hp-sl390s: 05:00.0 has OSDevs eth2, ib0, mlx4_0 and pci_link_speed="2.000000").
 */
#include "src/probe/hwloc_int.h"
#include "tests/support.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static bool has(const struct probe_hwloc_facts *f, const char *name)
{
	for (int i = 0; i < f->n_ifaces; i++)
		if (!strcmp(f->ifaces[i], name))
			return true;
	return false;
}

/* The copy's devices and names, and nothing of this machine (whose NIC is virtio 1af4:1041):
 * hwloc's CPUID and libpciaccess components are kept out of a copy. hwloc cannot see the copy's
 * CPUs (not gathered), so it attaches I/O to the whole machine: NUMA unknown, not node 0. */
Test(hwloc_topo, fsroot_copy_names_only_from_the_copy)
{
	hwloc_topology_t t;
	struct pcibw_err err = {0};
	int rc = probe_hwloc_load(&t, test_data("sysfs/dell-snb-2n-i350-cx3"), NULL, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	struct probe_hwloc_facts f;
	probe_hwloc_facts(t, 0, 0x02, 0, 0, &f);
	cr_expect(f.found);
	cr_expect(has(&f, "eth0"));
	probe_hwloc_facts(t, 0, 0x82, 0, 0, &f);
	cr_expect(f.found);
	cr_expect(has(&f, "ib0"));
	cr_expect_eq(f.numa_node, -1);
	for (hwloc_obj_t o = NULL; (o = hwloc_get_next_pcidev(t, o));)
		cr_expect(!(o->attr->pcidev.vendor_id == 0x1af4 && o->attr->pcidev.device_id == 0x1041),
			  "this machine's virtio NIC leaked into the copy's topology");
	hwloc_topology_destroy(t);
}

Test(hwloc_topo, xml_facts)
{
	hwloc_topology_t t;
	struct pcibw_err err = {0};
	int rc = probe_hwloc_load(&t, NULL, test_data("hwloc/hp-sl390s-g7-82576-connectx2-gpus.xml"), &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	struct probe_hwloc_facts f;
	probe_hwloc_facts(t, 0, 0x05, 0, 0, &f);
	cr_expect(f.found);
	cr_expect(has(&f, "eth2") && has(&f, "ib0") && has(&f, "mlx4_0"));
	cr_expect_eq(f.numa_node, 0);
	cr_expect_float_eq(f.link_gbps, 16.0, 1e-9); /* 2.000000 GB/s x 8 */
	probe_hwloc_facts(t, 0, 0x77, 0, 0, &f);     /* no such bus in the export */
	cr_expect(!f.found);
	cr_expect(isnan(f.link_gbps));
	hwloc_topology_destroy(t);
}

/* hwloc on this machine with the I/O filter on: it sees the network controllers lspci sees
 * (the default filter would load none). */
Test(hwloc_topo, live_sees_pci)
{
	hwloc_topology_t t;
	struct pcibw_err err = {0};
	int rc = probe_hwloc_load(&t, NULL, NULL, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	struct run_result r = run_cmd(NULL, (const char *[]){"lspci", "-Dn", NULL});
	cr_assert_eq(r.status, 0);
	int n_lspci = 0, n_found = 0;
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned dom, bus, dev, fn, cls;
		if (sscanf(line, "%x:%x:%x.%x %4x:", &dom, &bus, &dev, &fn, &cls) != 5)
			continue;
		if ((cls >> 8) != 0x02 || dom > 0xffff)
			continue;
		n_lspci++;
		struct probe_hwloc_facts f;
		probe_hwloc_facts(t, (int)dom, (int)bus, (int)dev, (int)fn, &f);
		n_found += f.found;
	}
	cr_expect_eq(n_found, n_lspci);
	run_free(&r);
	hwloc_topology_destroy(t);
}

Test(hwloc_topo, bad_xml_is_input_error)
{
	hwloc_topology_t t;
	struct pcibw_err err = {0};
	int rc = probe_hwloc_load(&t, NULL, test_data("sysfs/README.md"), &err);
	cr_expect_eq(rc, PCIBW_EINPUT);
	cr_expect(strstr(err.msg, "README.md"), "%s", err.msg);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwloc_int.h - hwloc (2.x) as a source of the facts config space does not hold: NUMA node,
 * local CPUs and OS device names of a PCI function, on this machine, on a copied Linux tree
 * (hwloc's file-system root) or from an XML export (hwloc_xml.c).
 *
 * hwloc loads no PCI or OS device unless the I/O type filter is set (hwloc.h,
 * hwloc_topology_set_io_types_filter: the default for I/O types is KEEP_NONE); every load here
 * sets it to KEEP_ALL, so bridges without children stay too (the path needs them).
 */
#ifndef PCIBW_PROBE_HWLOC_INT_H
#define PCIBW_PROBE_HWLOC_INT_H

#include "pcibw/device.h"
#include "pcibw/error.h"
#include "pcibw/probe.h"
#include <hwloc.h>

/* What hwloc knows about one PCI function. */
struct probe_hwloc_facts {
	int found;			   /* the function is in the topology */
	int numa_node;			   /* os_index of the single NUMA node it is local to, PCIBW_NULL
					    * when hwloc attached it to the whole machine (locality unknown) */
	char cpus[1024];		   /* local CPUs as a list ("0-7,16-23"), "" when unknown */
	char ifaces[PCIBW_MAX_IFACES][32]; /* network and OpenFabrics OS devices: eth0, ib0, mlx5_0 */
	int n_ifaces;
	double link_gbps; /* hwloc's linkspeed (GB/s) x 8; NAN when hwloc stored 0 (unknown) */
};

/*
 * probe_hwloc_load - load a topology with every I/O object.
 *   fsroot: NULL for this machine, or the root of a copied Linux tree (holding sys/ and proc/,
 *           as hwloc-gather-topology makes them), passed through HWLOC_FSROOT. On such a copy
 *           the CPU-side discovery of this machine (x86 CPUID) is turned off, so nothing of this
 *           host leaks into another machine's topology.
 *   xml:    NULL, or an hwloc XML export to load instead (fsroot must then be NULL).
 * hwloc's own messages are hidden (HWLOC_HIDE_ERRORS): failures come back as err.
 * Not thread-safe: it sets and restores environment variables around the load.
 * Returns PCIBW_OK; PCIBW_EINPUT (xml unreadable or not an hwloc 2.x export, message names the
 * file); PCIBW_ENOTHERE (hwloc cannot describe this machine).
 */
int probe_hwloc_load(hwloc_topology_t *t, const char *fsroot, const char *xml, struct pcibw_err *err);

/* probe_hwloc_load_xml - the one loader of an hwloc XML export (report's devices, analyze's CPU
 * count): expat checks that it is well-formed XML with a <topology> root of version 2.x, so a
 * broken file is refused at FILE:LINE:COLUMN, then probe_hwloc_load reads it. Returns as
 * probe_hwloc_load, plus PCIBW_EINPUT for an unopenable or malformed file. */
int probe_hwloc_load_xml(hwloc_topology_t *t, const char *file, struct pcibw_err *err);

/* probe_hwloc_facts - facts of the function domain:bus:dev.fn in t (found = 0 if absent). */
void probe_hwloc_facts(hwloc_topology_t t, int domain, int bus, int dev, int fn, struct probe_hwloc_facts *f);

/* probe_hwloc_obj_facts - the same for an object of t (a PCI device or a PCI-side bridge). */
void probe_hwloc_obj_facts(hwloc_topology_t t, hwloc_obj_t o, struct probe_hwloc_facts *f);

/*
 * probe_hwloc_apply - put f's NUMA node and names into d (provenance "hwloc") where d does not
 * know them yet; sysfs (read first) wins where both know.
 */
void probe_hwloc_apply(struct pcibw_device *d, const struct probe_hwloc_facts *f);

/*
 * probe_hwloc_xml - the devices of an hwloc XML export (`--topology FILE`), never mixed with
 * this machine: identity, names, NUMA node, OS names and hwloc's stored link bandwidth per hop
 * (0 = unknown). XML holds no config space: no LnkCap/LnkSta, so no GT/s, width or downgrade.
 * Returns as pcibw_probe().
 */
int probe_hwloc_xml(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err);

#endif

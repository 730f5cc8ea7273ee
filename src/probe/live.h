/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live.h - this machine (`pcibw` with no source) and a copied Linux sysfs tree (`--sysfs DIR`),
 * both read through libpci's sysfs access method, then completed from the world-readable
 * sysfs attributes, hwloc and /proc/cpuinfo.
 */
#ifndef PCIBW_PROBE_LIVE_H
#define PCIBW_PROBE_LIVE_H

#include "pcibw/device.h"
#include "pcibw/probe.h"
#include "probe_int.h"

/*
 * probe_live - the devices of this machine (opts->sysfs_dir NULL) or of a copied tree.
 * DIR may be the copy's root (holding sys/ and proc/, as hwloc-gather-topology makes it) or its
 * sys/ directory (holding bus/pci/devices). Returns as pcibw_probe(); PCIBW_EINPUT when DIR
 * holds no bus/pci/devices, PCIBW_ENOTHERE when this machine offers no PCI access.
 */
int probe_live(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err);

/*
 * probe_hwloc_may_add - whether hwloc could add to the devices of set, read from this machine
 * (sysroot "/sys") and completed from its sysfs attributes, anything they lack: a NUMA node
 * where the kernel wrote no numa_node file (provenance of numa_node unset: a kernel without
 * NUMA), or names of network and InfiniBand devices that sit deeper below their PCI function
 * than its net/, virtioN/net/ and infiniband/ directories (an auxiliary device's netdev, a USB
 * adapter's under its host controller) for a function that has no name yet. hwloc walks
 * sysroot/class/net and class/infiniband, follows each link and hangs the device under the
 * last PCI address after the /pciDDDD:BB/ root in it, skipping virtual devices (hwloc 2.x
 * topology-linux.c, hwloc_linuxfs_find_osdev_parent); a link this cannot read the same way
 * counts as yes. When false, loading hwloc (which reads every device's config space again)
 * would leave the report as it is (were hwloc to fail, its warning "hwloc-failed" would say no
 * more than that the facts come from sysfs, which they then do anyway).
 */
bool probe_hwloc_may_add(const char *sysroot, struct probe_set *set);

/*
 * probe_nonroot_hidden - config space of n stops at byte 64 although the device has a
 * capability list (Status bit 4) or is a PCIe device per sysfs: Linux hides bytes past 64 from
 * non-root readers (drivers/pci/pci-sysfs.c, pci_read_config: "if (!capable(CAP_SYS_ADMIN))
 * size = 64"), and a tree copied by a non-root user holds the same 64 bytes.
 */
bool probe_nonroot_hidden(const struct probe_node *n);

/*
 * probe_nonroot_warn - say once what reading config space as root would add, naming how many
 * devices were affected. live: this machine (advice: run as root) or a copy (advice: gather
 * the copy as root).
 */
void probe_nonroot_warn(struct pcibw_report *r, bool live, int n_hidden);

/*
 * probe_onpackage_warn - for devices out->devices[first..] that are MACs inside a chipset
 * (Intel C620 "Lewisburg" PCH's X722: C620 Series Chipset PCH Datasheet, integrated LAN), say
 * that their link figures describe an internal link that may not be a physical ceiling.
 */
void probe_onpackage_warn(struct pcibw_report *out, int first);

#endif

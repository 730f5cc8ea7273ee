/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs_attr.h - the world-readable PCI attributes Linux keeps beside each device's config file
 * (Documentation/ABI/testing/sysfs-bus-pci, drivers/pci/pci-sysfs.c): link speed and width,
 * NUMA node, local CPUs, and the OS names of the device (net/, virtioN/net/, infiniband/).
 * They are what a non-root user still sees when config space past byte 64 is hidden.
 */
#ifndef PCIBW_PROBE_SYSFS_ATTR_H
#define PCIBW_PROBE_SYSFS_ATTR_H

#include "pcibw/device.h"
#include "pcibw/error.h"
#include <stdbool.h>

struct pcibw_sysfs_attrs {
	bool has_cur_speed, has_cur_width, has_max_speed, has_max_width, has_numa;
	double cur_gts, max_gts;	   /* NAN when the file says "Unknown" (no link) */
	int cur_width, max_width;	   /* PCIBW_NULL for x0 (link down) */
	int numa_node;			   /* PCIBW_NULL for -1 (firmware gave none) */
	char local_cpulist[1024];	   /* "0-7,16-23", "" when absent */
	char ifaces[PCIBW_MAX_IFACES][32]; /* net/ (or virtioN/net/) names, then infiniband/ names */
	int n_ifaces;
	int speed_mbps[PCIBW_MAX_IFACES]; /* net/IF/speed per name (Mbit/s), PCIBW_NULL: absent,
					   * unreadable or -1 (link down: ethtool's SPEED_UNKNOWN) */
	char driver[64];		  /* last component of the driver link, "" none */
	char iface_driver[64];		  /* the driver link of the device holding net/: the
					   * function's own, or virtioN's under virtio-pci; "" none */
	bool is_vf;			  /* a physfn link: an SR-IOV virtual function */
	/* link/ power states of the link above the device (drivers/pci/pcie/aspm.c, Linux 5.5+:
	 * l0s_aspm, l1_aspm, l1_1_aspm, l1_2_aspm, l1_1_pcipm, l1_2_pcipm, clkpm; "0" or "1") */
	int aspm_link;	  /* PCIBW_ASPM_* bits from l0s_aspm and l1_aspm; PCIBW_NULL absent */
	int l1_substates; /* PCIBW_L1SS_* bits from the l1_* files; PCIBW_NULL absent */
	int clock_pm;	  /* clkpm, PCIBW_NULL absent */
	/* aer_dev_correctable, aer_dev_nonfatal, aer_dev_fatal (Linux 4.19+,
	 * Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats): the TOTAL_ERR_COR,
	 * TOTAL_ERR_NONFATAL, TOTAL_ERR_FATAL counts; PCIBW_NULL absent */
	long long aer_correctable, aer_nonfatal, aer_fatal;
};

/*
 * pcibw_sysfs_parse_speed - one line of current_link_speed / max_link_speed as the kernel wrote
 * it. Kernels up to ~5.6 print "2.5 GT/s", "5 GT/s", "8 GT/s"; later ones pci_speed_string():
 * "2.5 GT/s PCIe", "5.0 GT/s PCIe", "8.0 GT/s PCIe", ... "64.0 GT/s PCIe"; both print "Unknown"
 * (older: "Unknown speed") when the link is down. The number is snapped to the PCIe rate it
 * names (2.5, 5, 8, 16, 32, 64 GT/s; PCIe Base 6.0 sec. 4.2), never scaled by an encoding.
 * Sets *gts (NAN for "Unknown"). Returns 0, or -1 (with *col the 1-based column of the first
 * character not understood) when the text is none of those forms.
 */
int pcibw_sysfs_parse_speed(const char *text, double *gts, int *col);

/*
 * pcibw_sysfs_parse_width - current_link_width / max_link_width: a decimal lane count. 0 (link
 * down) gives PCIBW_NULL. Widths other than 1, 2, 4, 8, 12, 16, 32 (PCIe Base 6.0 sec. 7.5.3.6)
 * are refused. Returns 0, or -1 with *col set as for pcibw_sysfs_parse_speed.
 */
int pcibw_sysfs_parse_width(const char *text, int *width, int *col);

/*
 * pcibw_sysfs_read_attrs - read the attributes of slot ("DDDD:BB:DD.F") under sysroot (a
 * directory holding bus/pci/devices, "/sys" on this machine). Missing files leave has_* false.
 * Each file is read whole; a blank one is an error, never 0. A FIFO, device or directory in
 * place of a file is refused without blocking. On FreeBSD (sysfs_attr_freebsd.c) there is no
 * sysfs: PCIBW_EUSAGE saying that a Linux tree is read by the Linux build (so is
 * pcibw_sysfs_aspm_policy). The parsers and the apply functions are OS-neutral (sysfs_attr.c).
 * Returns PCIBW_OK, or PCIBW_EINPUT naming FILE:1:COLUMN and what was expected when a file
 * holds something the kernel never writes.
 */
int pcibw_sysfs_read_attrs(const char *sysroot, const char *slot, struct pcibw_sysfs_attrs *a,
			   struct pcibw_err *err);

/*
 * pcibw_sysfs_check_tree - refuse a copied tree (a sys/ or proc/ copy under root) that holds a
 * FIFO, socket or device node, or a link to one: no real sysfs file is one, and opening a FIFO
 * with no writer blocks. The kernel's own sysfs or procfs at root is not walked. Not
 * thread-safe (nftw). Returns PCIBW_OK, or PCIBW_EINPUT naming the entry.
 */
int pcibw_sysfs_check_tree(const char *root, struct pcibw_err *err);
/* (The kernel's own tree is told from a copy by the OS: statfs f_type on Linux,
 * sysfs_tree_linux.c; f_fstypename linsysfs, linprocfs or procfs on FreeBSD, _freebsd.c.) */

/* pcibw_sysfs_walk_copy - the walk of pcibw_sysfs_check_tree over a tree known to be a copy
 * (sysfs_tree.c, POSIX nftw). Returns as pcibw_sysfs_check_tree. */
int pcibw_sysfs_walk_copy(const char *root, struct pcibw_err *err);

/*
 * pcibw_sysfs_apply_ids - copy numa_node and interface names into d (provenance "sysfs")
 * where d does not know them yet. They are not in config space, so root or not this is the
 * only place (with hwloc) they come from.
 */
void pcibw_sysfs_apply_ids(struct pcibw_device *d, const struct pcibw_sysfs_attrs *a);
/* (pcibw_sysfs_apply_ids also copies each interface's speed, the driver name and the VF mark.) */

/*
 * pcibw_sysfs_apply_link - fill d's link speed/width (current and max) from a (provenance
 * "sysfs") and, for an endpoint (not a bridge), downgraded = current below max in speed or
 * width, as lspci does from LnkSta/LnkCap. Bridges keep downgraded null: without config space
 * the port type (root, downstream or upstream port) that decides lspci's exemption is unknown.
 * Used only when config space does not hold the PCIe capability (non-root, 64-byte copies).
 */
void pcibw_sysfs_apply_link(struct pcibw_device *d, const struct pcibw_sysfs_attrs *a);

/*
 * pcibw_sysfs_apply_pm - the kernel's link/ power states into d (provenance "sysfs") where
 * config space did not give them: aspm_link (the kernel's state of the link, both ends
 * considered), l1_substates and clock_pm.
 */
void pcibw_sysfs_apply_pm(struct pcibw_device *d, const struct pcibw_sysfs_attrs *a);

/*
 * pcibw_sysfs_parse_aer - one aer_dev_* file as drivers/pci/pcie/aer.c writes it: lines "NAME
 * COUNT" (NAME may hold spaces: "Bad TLP 0" on older kernels, "BadTLP 0" on later ones), the
 * last one "TOTAL_<total> COUNT" (total "ERR_COR", "ERR_NONFATAL" or "ERR_FATAL"). Sets *count
 * to the TOTAL line's decimal count. Returns 0, or -1 with *line and *col (1-based) at the first
 * thing not understood (a line without a decimal count, no TOTAL line).
 */
int pcibw_sysfs_parse_aer(const char *text, const char *total, long long *count, int *line, int *col);
/*
 * pcibw_sysfs_apply_aer - the kernel's AER counts into d->aer (provenance "sysfs", field "aer").
 */
void pcibw_sysfs_apply_aer(struct pcibw_device *d, const struct pcibw_sysfs_attrs *a);
/*
 * pcibw_sysfs_aspm_policy - the bracketed word of FSROOT/sys/module/pcie_aspm/parameters/policy
 * ("[default] performance powersave powersupersave" -> "default") into buf; sysroot is the
 * directory holding bus/pci ("/sys", or a copy's sys/). "" when the file is absent (a kernel
 * without CONFIG_PCIEASPM, or a copy that did not gather it). Returns PCIBW_OK, or PCIBW_EINPUT
 * naming FILE:1:COLUMN when the file holds no bracketed word.
 */
int pcibw_sysfs_aspm_policy(const char *sysroot, char *buf, unsigned len, struct pcibw_err *err);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/probe.h - gather device facts from one source: this machine (libpci's default access
 * method; sysfs on Linux), an lspci -x/-xxx/-xxxx dump, a copied sysfs tree, or an hwloc XML
 * export. pcibw never writes to config space.
 */
#ifndef PCIBW_PROBE_H
#define PCIBW_PROBE_H

#include "pcibw/device.h"
#include "pcibw/error.h"
#include <stdbool.h>

struct pcibw_probe_opts {
	const char *dump_file;	   /* --dump FILE, or NULL */
	const char *pciconf_file;  /* --pciconf FILE (FreeBSD pciconf -lvbc text), or NULL */
	const char *sysfs_dir;	   /* --sysfs DIR, or NULL */
	const char *topology_file; /* --topology FILE, or NULL */
	const char *slot_filter;   /* -s [[DOMAIN:]BUS:]DEV.FN as lspci, or NULL */
	const char *iface;	   /* -i IFACE: the device behind an OS interface name, or NULL */
	bool all;		   /* every device, not only network controllers */
	const char *pci_ids;	   /* pci.ids path override (tests), or NULL for libpci's default */
};

/*
 * pcibw_probe - fill out with the devices of the chosen source (at most one of dump_file,
 * pciconf_file, sysfs_dir, topology_file; none = this machine), network controllers only unless opts->all,
 * filtered by slot_filter/iface (with -s or -i, any class matches, as lspci -s). out must be
 * zeroed by the caller; free with pcibw_report_free. out->source names the source ("dump:FILE",
 * ...); out->warnings say, per device, what the source could not show (a 64-byte config has no
 * capabilities: no link, no PCI-X, no MPS) and why a fact is null. A dump is checked line by
 * line before libpci reads it (see src/probe/dump_scan.h).
 * Returns PCIBW_OK; PCIBW_EINPUT (unreadable or malformed input, an unreadable pci_ids file: the
 * message names file:line:column and what was expected where there is a line); PCIBW_EUSAGE
 * (more than one source, an empty --sysfs, bad -s syntax); PCIBW_ENOMATCH (no device matched -s,
 * -i, or the network-class filter); PCIBW_ENOTHERE (this machine has no PCI access at all, or
 * hwloc cannot describe the topology); PCIBW_EINTERNAL (out of memory, a libpci fault).
 * On error out may hold a partial report: free it all the same.
 */
int pcibw_probe(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err);

/* pcibw_is_network_class - class 0x02xx (network controller), or InfiniBand 0x0c06 (a serial
 * bus controller by class, but it moves packets like a NIC). class_id is the 16-bit
 * class+subclass (no prog-if); PCIBW_NULL or any negative gives false. */
bool pcibw_is_network_class(int class_id);

/* CPU count and clock of the machine the measurement ran on (`--cpus`, `--cpu-ghz`, hwloc, /proc). */
struct pcibw_cpuinfo {
	int cpus;	 /* logical CPUs; PCIBW_NULL (-1) unknown */
	double mhz;	 /* nominal clock, MHz; NAN unknown */
	char origin[64]; /* "options", "hwloc-xml" (callers append ":FILE"), "/proc/cpuinfo" */
};

/*
 * pcibw_cpuinfo_live - this machine: online CPUs (sysconf) and the highest "cpu MHz" in
 * /proc/cpuinfo in MHz (Linux; on FreeBSD the hw.clockrate sysctl, else dev.cpu.0.freq, origin
 * "sysctl hw.clockrate" or "sysctl dev.cpu.0.freq"): the highest core clock stands for the
 * machine, as idle cores may report a lowered one. Never fails; unknowns stay
 * null; origin is "/proc/cpuinfo" whether or not the file was readable.
 */
void pcibw_cpuinfo_live(struct pcibw_cpuinfo *ci);

/* pcibw_cpuinfo_hwloc_xml - the PU count of an hwloc XML export, read by the same loader as
 * `report --topology` (mhz stays NAN: the export holds no clock; cpus PCIBW_NULL if it lists no
 * PU; origin "hwloc-xml", the caller adds ":FILE"). Returns PCIBW_OK; PCIBW_EINPUT for an
 * unreadable file, XML that is not well-formed (FILE:LINE:COLUMN), or not an hwloc 2.x export;
 * PCIBW_EINTERNAL if hwloc cannot start a topology. */
int pcibw_cpuinfo_hwloc_xml(const char *path, struct pcibw_cpuinfo *ci, struct pcibw_err *err);

#endif

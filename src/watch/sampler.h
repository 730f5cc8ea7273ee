/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sampler interface of `pcibw watch`: something that, each time it is asked, fills a sample
 * (pcibw/watch.h) with the raw text of the kernel files at that moment. Two kinds: the OS's
 * (sampler_linux.c: files kept open and re-read with pread, the ethtool ioctl; sampler_freebsd.c:
 * sysctl kern.cp_times, getifaddrs' if_data and the driver's sysctls into the same blobs) and a recording's
 * (replay.c). Everything after the sample is OS-neutral.
 */
#ifndef PCIBW_WATCH_SAMPLER_H
#define PCIBW_WATCH_SAMPLER_H

#include "pcibw/watch.h"
#include <stdbool.h>

/* What the sampler found about one interface when it opened it. */
struct watch_iface {
	char name[PCIBW_WATCH_IFNAME];
	char slot[32];	  /* PCI slot of its device ("0000:00:03.0"; a virtio device's parent), "" */
	char dev[64];	  /* its device's sysfs name ("virtio2", "0000:03:00.0"), "" for none */
	char driver[32];  /* "virtio_net", "mlx5_core", "" */
	bool virtual_nic; /* paravirtual (virtio, vmxnet3, netvsc, xen) or no device (lo, veth) */
	bool has_pci;	  /* a PCI function is behind it (own or parent) */
	bool own_link;	  /* the PCI function's own link attributes are read each interval */
};

struct watch_sampler {
	/* read - fill out with one sample (t from the monotonic clock, or the recording's).
	 * Returns PCIBW_OK; 1 at the end of a recording; PCIBW_EINPUT for a bad recording
	 * ("DIR/samples:offset: expected ..."); PCIBW_EINTERNAL (out of memory). */
	int (*read)(struct watch_sampler *s, struct pcibw_watch_sample *out, struct pcibw_err *err);
	void (*close)(struct watch_sampler *s);
	int n;
	struct watch_iface ifs[PCIBW_WATCH_MAX_IFACES];
};

/*
 * watch_sampler_open - this OS's sampler for the n interfaces named (each must exist: PCIBW_ENOMATCH
 * "no such interface 'X'" otherwise), as the build's host system is (meson picks one file).
 * Linux (sampler_linux.c): the kernel files, kept open; needs no root: ethtool statistics that
 * cannot be read are left out; PCIBW_ENOTHERE when /proc/stat cannot be opened (no /proc).
 * FreeBSD (sampler_freebsd.c): kern.cp_times, hw.intrcnt, getifaddrs(3) if_data and the driver's
 * dev.DRIVER.UNIT statistics, each interface needing a link-level entry; PCIBW_ENOTHERE when
 * getifaddrs fails. Returns PCIBW_OK with *out set, those, PCIBW_EINTERNAL.
 */
int watch_sampler_open(const char *const *names, int n, struct watch_sampler **out, struct pcibw_err *err);

/*
 * watch_list_pci_ifaces - the interfaces of this machine that have a PCI device (Linux: sysfs;
 * FreeBSD: a device in the sysctl tree whose %parent is a pciN bus) (names into
 * names[max][PCIBW_WATCH_IFNAME]); returns how many. notes (max_notes strings of 200 bytes)
 * gets one line per network PCI function with no interface because a user-space driver owns it
 * (vfio-pci, uio_pci_generic, igb_uio: DPDK or a VM; nic_uio on FreeBSD), *n_notes their count.
 */
int watch_list_pci_ifaces(char (*names)[PCIBW_WATCH_IFNAME], int max, char (*notes)[200], int max_notes,
			  int *n_notes);

/* watch_monotonic - CLOCK_MONOTONIC in seconds (never jumps with the wall clock). */
double watch_monotonic(void);

/* watch_sleep_until - sleep until monotonic time t (returns early on a signal). */
void watch_sleep_until(double t);

/* watch_ethtool_wanted - whether an ethtool statistic's name is one watch reads (the NIC's PCIe
 * counters, per-queue packet counters). Pure. */
bool watch_ethtool_wanted(const char *name);

#endif

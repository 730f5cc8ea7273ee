/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netif.h - what a network interface is when no PCI function carries it: the loopback device, a
 * software device (veth, bridge, bond, VLAN, tun), or a device on another bus (USB, platform).
 * Read from the interface's sysfs entry, as the kernel writes it (Documentation/ABI/testing/
 * sysfs-class-net): the `device` link exists only for an interface with a parent device, and a
 * software one lives under devices/virtual/net.
 */
#ifndef PCIBW_PROBE_NETIF_H
#define PCIBW_PROBE_NETIF_H

#include <stdbool.h>
#include <stddef.h>

/*
 * probe_netif_why_no_pci - why interface name has no PCI device, from sysroot/class/net/NAME
 * (sysroot "/sys" or a copy's sys/): no such entry; the loopback interface (`flags` holds
 * IFF_LOOPBACK 0x8 or `type` is ARPHRD_LOOPBACK 772: include/uapi/linux/if.h, if_arp.h); a
 * software interface with no `device` link (its `uevent` DEVTYPE, its peer or lower device by
 * `iflink`, and the `lower_*` links of the interfaces it sits on, named); or a `device` whose
 * `subsystem` is not pci. Then what to do instead (model a what-if with --bus and --nic, or a
 * NIC below it with -i). Writes the words into buf (cut to n - 1 characters) and returns true;
 * false (buf "") when the entry leads to a PCI function, or name is not a plain name.
 */
bool probe_netif_why_no_pci(const char *sysroot, const char *name, char *buf, size_t n);
/* (On FreeBSD, netif_freebsd.c: sysroot is not read; this machine's getifaddrs(3) entry and the
 * dev.DRIVER.UNIT.%parent sysctl answer, in the words of probe_netif_fbsd_words.) */

/*
 * probe_netif_advice - append to buf (n bytes, o already written) what to do instead of a bus
 * model of interface name: a what-if with --bus and --nic, or the NIC below it (below, "" for
 * none) with -i; live: watch still measures it. Pure.
 */
void probe_netif_advice(char *buf, size_t n, size_t o, const char *name, const char *below, bool live);

/*
 * probe_netif_fbsd_words - why FreeBSD interface name has no PCI device, from what getifaddrs(3)
 * and sysctl(3) said: found (a link-level entry exists), loopback (IFF_LOOPBACK in ifa_flags),
 * ifi_type (its if_data type, <net/if_types.h>), parent (the dev.DRIVER.UNIT.%parent sysctl of
 * the device of that name, NULL when there is no such device: "pci3" for a PCI function,
 * "uhub0" for USB). Returns false (buf "") when parent is a PCI bus ("pciN"): the probe's own
 * business; else true with the words and probe_netif_advice in buf. Pure.
 */
bool probe_netif_fbsd_words(const char *name, bool found, bool loopback, int ifi_type, const char *parent,
			    char *buf, size_t n);

#endif

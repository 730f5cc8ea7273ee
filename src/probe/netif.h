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

#endif

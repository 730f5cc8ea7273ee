/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * virt.h - is this a virtual machine, and which of its devices are emulated rather than real?
 * A guest's PCI bus is the hypervisor's invention: a virtio NIC "on 33 MHz PCI" has no 33 MHz
 * ceiling, and an emulated e1000 moves no bytes over a real bus either. Paravirtual ids
 * themselves are probe_is_paravirt() (probe_int.h).
 */
#ifndef PCIBW_PROBE_VIRT_H
#define PCIBW_PROBE_VIRT_H

#include <stdbool.h>

/*
 * probe_virt_hypervisor - 1 if the `flags` line of cpuinfo_path (Linux /proc/cpuinfo format)
 * holds the x86 `hypervisor` flag (CPUID.1:ECX bit 31, "reserved for use by hypervisors to
 * indicate guest status", Intel SDM vol. 2A, CPUID), 0 if a flags line lacks it, -1 when the
 * file cannot be read or has no flags line (not x86, or not Linux).
 */
int probe_virt_hypervisor(const char *cpuinfo_path);

/*
 * probe_virt_emulated - in a guest, a device whose subsystem vendor is a hypervisor's (QEMU/KVM
 * 0x1af4 and 0x1b36 Red Hat, VMware 0x15ad, Microsoft Hyper-V 0x1414, Xen 0x5853; e.g. QEMU's
 * e1000 is 8086:100e with subsystem 1af4:1100) is emulated, not passed through: a passed-through
 * card keeps its own board's subsystem ids. Returns the hypervisor's name or NULL.
 */
const char *probe_virt_emulated(int subsys_vendor_id);

#endif

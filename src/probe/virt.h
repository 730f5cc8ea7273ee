/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * virt.h - is this a virtual machine, and which of its devices are emulated rather than real?
 * A guest's PCI bus is the hypervisor's invention: a virtio NIC "on 33 MHz PCI" has no 33 MHz
 * ceiling, and an emulated e1000 moves no bytes over a real bus either. Paravirtual ids
 * themselves are probe_is_paravirt() (probe_int.h). The OS part (virt_linux.c, virt_freebsd.c)
 * says whether the machine is a guest; the rest (virt.c) is pure.
 */
#ifndef PCIBW_PROBE_VIRT_H
#define PCIBW_PROBE_VIRT_H

#include "probe_int.h"
#include <stdbool.h>
#include <stddef.h>

/*
 * probe_virt_hypervisor - whether the machine is a guest. Linux (virt_linux.c): 1 if the
 * `flags` line of cpuinfo_path (Linux /proc/cpuinfo format) holds the x86 `hypervisor` flag
 * (CPUID.1:ECX bit 31, "reserved for use by hypervisors to indicate guest status", Intel SDM
 * vol. 2A, CPUID), 0 if a flags line lacks it, -1 when the file cannot be read or has no flags
 * line (not x86, or not Linux). FreeBSD (virt_freebsd.c): cpuinfo_path is not read; the
 * kern.vm_guest sysctl, as probe_virt_vm_guest reads it, answers for this machine.
 * evidence (n bytes) receives the words a warning quotes: "the CPU flag 'hypervisor' in PATH",
 * "sysctl kern.vm_guest=kvm".
 */
int probe_virt_hypervisor(const char *cpuinfo_path, char *evidence, size_t n);

/*
 * probe_virt_vm_guest - FreeBSD's kern.vm_guest value (sys/kern/subr_param.c vm_guest_sysctl_names:
 * "none", "generic", "xen", "hv", "vmware", "kvm", "bhyve", "vbox", "parallels", "nvmm"): 0 for
 * "none", 1 for any other of those names, -1 for text it is not (an unknown future name
 * included: not guessed). Pure.
 */
int probe_virt_vm_guest(const char *value);

/*
 * probe_virt_emulated - in a guest, a device whose subsystem vendor is a hypervisor's (QEMU/KVM
 * 0x1af4 and 0x1b36 Red Hat, VMware 0x15ad, Microsoft Hyper-V 0x1414, Xen 0x5853; e.g. QEMU's
 * e1000 is 8086:100e with subsystem 1af4:1100) is emulated, not passed through: a passed-through
 * card keeps its own board's subsystem ids. Returns the hypervisor's name or NULL.
 */
const char *probe_virt_emulated(int subsys_vendor_id);

/*
 * probe_virt_mark - in a guest (evidence: what said so, for the warning), mark each device of
 * set whose subsystem vendor is a hypervisor's, and the host bridge, as virtual (provenance
 * "inferred") and warn "virtual-machine" once, naming this machine (live) or the copied one. Returns how many
 * devices it marked.
 */
int probe_virt_mark(struct probe_set *set, struct pcibw_report *r, bool live, const char *evidence);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The OS-neutral part of virtual-machine handling; see virt.h. */
#include "virt.h"
#include "cfg_access.h"
#include <pci/pci.h>
#include <string.h>

int probe_virt_vm_guest(const char *value)
{
	static const char *const guests[] = {"generic", "xen",	"hv",	     "vmware", "kvm",
					     "bhyve",	"vbox", "parallels", "nvmm"};
	if (!strcmp(value, "none"))
		return 0;
	for (size_t i = 0; i < sizeof guests / sizeof guests[0]; i++)
		if (!strcmp(value, guests[i]))
			return 1;
	return -1;
}

const char *probe_virt_emulated(int subsys_vendor_id)
{
	switch (subsys_vendor_id) {
	case 0x1af4:
	case 0x1b36:
		return "QEMU/KVM";
	case 0x15ad:
		return "VMware";
	case 0x1414:
		return "Hyper-V";
	case 0x5853:
		return "Xen";
	default:
		return NULL;
	}
}

int probe_virt_mark(struct probe_set *set, struct pcibw_report *r, bool live, const char *evidence)
{
	int marked = 0;
	for (int i = 0; i < set->n; i++) {
		struct probe_node *n = &set->v[i];
		if (n->d.is_virtual || n->d.is_bridge)
			continue;
		/* a guest's host bridge is the hypervisor's chipset model whatever its ids: a VMM passes
		 * endpoint functions through (VFIO assigns devices, never the host's root complex), so
		 * the PCI segment its emulated config space implies is no ceiling */
		bool host_bridge = n->d.class_id == PCI_CLASS_BRIDGE_HOST;
		if (!host_bridge && !cfg_has(&n->cfg, PCI_SUBSYSTEM_VENDOR_ID, 2))
			continue;
		const char *hv = host_bridge
				     ? "the hypervisor"
				     : probe_virt_emulated((int)cfg16(&n->cfg, PCI_SUBSYSTEM_VENDOR_ID));
		if (hv) {
			n->d.is_virtual = true;
			pcibw_device_set_prov(&n->d, "virtual", "inferred");
			marked++;
		}
	}
	pcibw_report_warn(
	    r, NULL, "virtual-machine",
	    "%s a virtual machine (%s): the PCI bus "
	    "and links a guest sees are the hypervisor's; paravirtual devices (virtio, "
	    "vmxnet3, Hyper-V, Xen), emulated ones (subsystem vendor of the "
	    "hypervisor) and the host bridge are reported `virtual`, with no bus ceiling; a passed-through "
	    "device's real link is visible only on the host",
	    live ? "this machine is" : "the copied machine was", evidence);
	return marked;
}

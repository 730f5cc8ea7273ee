/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The OS-neutral words of netif.h: the advice, FreeBSD's interface names and kinds. Pure. */
#include "netif.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

void probe_netif_advice(char *buf, size_t n, size_t o, const char *name, const char *below, bool live)
{
	if (o >= n)
		return;
	o += (size_t)snprintf(buf + o, n - o,
			      "; model a what-if instead with --bus and --nic (pcibw model --bus gen3x8 "
			      "--nic ixgbe; pcibw help model lists both)");
	if (below[0] && o < n)
		o += (size_t)snprintf(buf + o, n - o, ", or a NIC below it with -i (pcibw model -i %s)",
				      below);
	else if (o < n)
		o += (size_t)snprintf(buf + o, n - o, ", or the NIC its traffic leaves by with -i");
	if (live && o < n)
		snprintf(buf + o, n - o, "; pcibw watch %s still gives its packet rates and the CPU side",
			 name);
}

/* <net/if_types.h>: the ifi_type values a software interface carries */
static const char *fbsd_kind(int type)
{
	switch (type) {
	case 0x18:
		return "loopback (IFT_LOOP)";
	case 0x35:
		return "virtual (IFT_PROPVIRTUAL)";
	case 0x83:
		return "tunnel (IFT_TUNNEL)";
	case 0x87:
		return "VLAN (IFT_L2VLAN)";
	case 0xa1:
		return "link aggregation (IFT_IEEE8023ADLAG)";
	case 0xd1:
		return "bridge (IFT_BRIDGE)";
	case 0xd7:
		return "6to4 tunnel (IFT_STF)";
	case 0xf0:
		return "generic tunnel (IFT_GIF)";
	case 0xf4:
		return "IPsec (IFT_ENC)";
	case 0xf6:
		return "pflog (IFT_PFLOG)";
	case 0xf7:
		return "pfsync (IFT_PFSYNC)";
	case 0xf8:
		return "CARP (IFT_CARP)";
	default:
		return NULL;
	}
}

bool probe_netif_fbsd_words(const char *name, bool found, bool loopback, int ifi_type, const char *parent,
			    char *buf, size_t n)
{
	size_t o;
	buf[0] = '\0';
	if (!found) {
		o = (size_t)snprintf(buf, n,
				     "no interface %s on this machine (getifaddrs(3) lists no link-level "
				     "entry of that name; ifconfig -l lists them)",
				     name);
		probe_netif_advice(buf, n, o, name, "", false);
		return true;
	}
	if (loopback || ifi_type == 0x18) {
		o = (size_t)snprintf(buf, n,
				     "%s is the loopback interface (%s): its packets are copied in "
				     "memory and cross no bus, so there is no bus to model",
				     name, loopback ? "IFF_LOOPBACK set" : "type IFT_LOOP");
		probe_netif_advice(buf, n, o, name, "", true);
		return true;
	}
	if (parent && !strncmp(parent, "pci", 3) && isdigit((unsigned char)parent[3]))
		return false; /* its device is a PCI function: the probe's own business */
	if (parent && parent[0]) {
		o = (size_t)snprintf(buf, n,
				     "%s's device sits on %s (its %%parent sysctl), not on a PCI bus, so "
				     "there is no PCI bus to model",
				     name, parent);
		probe_netif_advice(buf, n, o, name, "", true);
		return true;
	}
	const char *kind = fbsd_kind(ifi_type);
	if (kind)
		o = (size_t)snprintf(buf, n,
				     "%s is a %s interface with no device of its own (no dev.DRIVER.UNIT "
				     "sysctl tree), so there is no bus to model",
				     name, kind);
	else
		o = (size_t)snprintf(buf, n,
				     "%s has no device in the sysctl dev tree (interface type %d): a "
				     "software interface with no PCI function of its own, so there is no "
				     "bus to model",
				     name, ifi_type);
	probe_netif_advice(buf, n, o, name, "", true);
	return true;
}

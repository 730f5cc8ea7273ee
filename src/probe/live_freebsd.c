/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * This machine on FreeBSD (live.h): config space through libpci's FreeBSD method (/dev/pci,
 * PCI_ACCESS_FBSD_DEVICE; reading it needs root, as pciconf -lc does: nonroot_freebsd.c says
 * why), then each device's driver name and unit from the PCIOCGETCONF ioctl of pci(4), its NUMA
 * domain from the dev.DRIVER.UNIT.%domain sysctl (sysctl(3); set where the bus has a domain),
 * the network interface named after it with its speed from getifaddrs(3) (the AF_LINK entry's
 * if_data ifi_baudrate), firmware from dev.DRIVER.UNIT.fw_version (ethtool_freebsd.c), and
 * whether the machine is a guest from kern.vm_guest (virt_freebsd.c). --sysfs names a Linux
 * sysfs copy: refused here.
 */
#include "ethtool.h"
#include "live.h"
#include "netif.h"
#include "virt.h"
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <pci/pci.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pciio.h>
#include <sys/sysctl.h>
#include <unistd.h>

/* the link-level entry of interface name: its if_data speed (Mbit/s, PCIBW_NULL unknown) */
static bool iface_of(const struct ifaddrs *ifa, const char *name, int *mbps)
{
	for (const struct ifaddrs *a = ifa; a; a = a->ifa_next) {
		if (!a->ifa_addr || a->ifa_addr->sa_family != AF_LINK || strcmp(a->ifa_name, name))
			continue;
		*mbps = PCIBW_NULL;
		if (a->ifa_data) {
			const struct if_data *d = a->ifa_data;
			if (d->ifi_link_state == LINK_STATE_UP && d->ifi_baudrate >= 1000000)
				*mbps = (int)(d->ifi_baudrate / 1000000);
		}
		return true;
	}
	return false;
}

/* driver, unit, NUMA domain and interface of every device pci(4) lists */
static void add_names(struct probe_set *set)
{
	int fd = open("/dev/pci", O_RDONLY); /* PCIOCGETCONF needs no write access */
	if (fd < 0)
		return;
	struct ifaddrs *ifa = NULL;
	if (getifaddrs(&ifa) != 0)
		ifa = NULL;
	struct pci_conf conf[64];
	struct pci_conf_io pc;
	memset(&pc, 0, sizeof pc);
	pc.match_buf_len = sizeof conf;
	pc.matches = conf;
	do {
		if (ioctl(fd, PCIOCGETCONF, &pc) == -1 || pc.status == PCI_GETCONF_LIST_CHANGED ||
		    pc.status == PCI_GETCONF_ERROR)
			break;
		for (unsigned k = 0; k < pc.num_matches; k++) {
			const struct pci_conf *p = &conf[k];
			if (!p->pd_name[0])
				continue;
			for (int i = 0; i < set->n; i++) {
				struct pcibw_device *d = &set->v[i].d;
				if (d->domain != (int)p->pc_sel.pc_domain || d->bus != p->pc_sel.pc_bus ||
				    d->dev != p->pc_sel.pc_dev || d->fn != p->pc_sel.pc_func)
					continue;
				snprintf(d->driver, sizeof d->driver, "%s", p->pd_name);
				pcibw_device_set_prov(d, "driver", "sysctl");
				char name[96];
				int domain = -1;
				size_t len = sizeof domain;
				snprintf(name, sizeof name, "dev.%s.%lu.%%domain", p->pd_name,
					 (unsigned long)p->pd_unit);
				if (sysctlbyname(name, &domain, &len, NULL, 0) == 0 && len == sizeof domain &&
				    domain >= 0) {
					d->numa_node = domain;
					pcibw_device_set_prov(d, "numa_node", "sysctl");
				}
				/* a NIC driver names its interface after its device (if_initname) */
				char ifname[32];
				int mbps;
				snprintf(ifname, sizeof ifname, "%s%lu", p->pd_name,
					 (unsigned long)p->pd_unit);
				if (ifa && !d->n_interfaces && iface_of(ifa, ifname, &mbps)) {
					snprintf(d->interfaces[0], sizeof d->interfaces[0], "%s", ifname);
					d->iface_speed_mbps[0] = mbps;
					d->n_interfaces = 1;
					pcibw_device_set_prov(d, "interfaces", "getifaddrs");
					snprintf(d->iface_driver, sizeof d->iface_driver, "%s", p->pd_name);
					pcibw_device_set_prov(d, "interface_driver", "sysctl");
				}
			}
		}
	} while (pc.status == PCI_GETCONF_MORE_DEVS);
	if (ifa)
		freeifaddrs(ifa);
	close(fd);
}

int probe_live(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err)
{
	if (opts->sysfs_dir)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--sysfs %s: a copied Linux sysfs tree is read on Linux; on FreeBSD give "
				  "--pciconf FILE for another machine",
				  opts->sysfs_dir);
	/* pci(4) serves config registers (PCIOCREAD) only to a descriptor opened for writing,
	 * which /dev/pci grants root alone; say so rather than libpci's bare open failure */
	if (access("/dev/pci", W_OK) != 0)
		return pcibw_fail(err, PCIBW_ENOTHERE,
				  "/dev/pci: config space is read through pci(4)'s PCIOCREAD, which needs "
				  "/dev/pci open for writing: only root can (pcibw never writes config "
				  "space); run as root, or give --pciconf FILE (pciconf -lvbc output)");
	struct probe_set set = {0};
	snprintf(out->source, sizeof out->source, "live");
	int rc =
	    probe_libpci_read(PCI_ACCESS_FBSD_DEVICE, NULL, opts->pci_ids, "config", NULL, &set, out, err);
	if (rc)
		goto out;
	add_names(&set);
	char evidence[96];
	if (probe_virt_hypervisor(NULL, evidence, sizeof evidence) == 1)
		probe_virt_mark(&set, out, true, evidence);
	for (int i = 0; i < set.n; i++)
		probe_ethtool_apply(&set.v[i].d);
	int first = out->n_devices;
	rc = probe_finish(&set, opts, out, err);
	if (rc == PCIBW_ENOMATCH && opts->iface) {
		/* an interface no PCI device carries (lo0, a bridge, a USB adapter): say what it is */
		char why[768];
		if (probe_netif_why_no_pci(NULL, opts->iface, why, sizeof why)) {
			char msg[sizeof err->msg];
			snprintf(msg, sizeof msg, "%s", err->msg);
			pcibw_fail(err, PCIBW_ENOMATCH, "%s: %s", msg, why);
		}
	}
	if (!rc)
		probe_onpackage_warn(out, first);
out:
	probe_set_free(&set);
	return rc;
}

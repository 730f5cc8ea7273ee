/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * This machine on FreeBSD (live.h): config space through libpci's FreeBSD method (/dev/pci,
 * PCI_ACCESS_FBSD_DEVICE; reading it needs root, as pciconf -lc does), then each device's
 * driver name and unit from the PCIOCGETCONF ioctl of pci(4) and its NUMA domain from the
 * dev.DRIVER.UNIT.%domain sysctl (sysctl(3); set where the bus has a domain). --sysfs names a
 * Linux sysfs copy: refused here.
 */
#include "live.h"
#include <fcntl.h>
#include <pci/pci.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pciio.h>
#include <sys/sysctl.h>
#include <unistd.h>

/* driver, unit and NUMA domain of every device pci(4) lists */
static void add_names(struct probe_set *set)
{
	int fd = open("/dev/pci", O_RDONLY);
	if (fd < 0)
		return;
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
			}
		}
	} while (pc.status == PCI_GETCONF_MORE_DEVS);
	close(fd);
}

int probe_live(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err)
{
	if (opts->sysfs_dir)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--sysfs %s: a copied Linux sysfs tree is read on Linux; on FreeBSD give "
				  "--pciconf FILE for another machine",
				  opts->sysfs_dir);
	struct probe_set set = {0};
	snprintf(out->source, sizeof out->source, "live");
	int rc =
	    probe_libpci_read(PCI_ACCESS_FBSD_DEVICE, NULL, opts->pci_ids, "config", NULL, &set, out, err);
	if (!rc) {
		add_names(&set);
		rc = probe_finish(&set, opts, out, err);
	}
	probe_set_free(&set);
	return rc;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether hwloc can add anything to a report of this machine; see live.h. */
#include "live.h"
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct probe_node *find_node(struct probe_set *set, unsigned domain, unsigned bus, unsigned dev,
				    unsigned fn)
{
	for (int i = 0; i < set->n; i++) {
		const struct pcibw_device *d = &set->v[i].d;
		if ((unsigned)d->domain == domain && (unsigned)d->bus == bus && (unsigned)d->dev == dev &&
		    (unsigned)d->fn == fn)
			return &set->v[i];
	}
	return NULL;
}

/* Whether hwloc would hang an OS device of class dir (sysroot/class/net or class/infiniband)
 * under a PCI function that sysfs gave no name: hwloc follows each entry's link and takes the
 * last of the PCI addresses that follow the /pciDDDD:BB/ root in it, skipping virtual devices
 * (topology-linux.c, hwloc_linuxfs_find_osdev_parent). Anything not understood counts as yes. */
static bool names_left(const char *dir, bool infiniband, struct probe_set *set)
{
	DIR *d = opendir(dir);
	if (!d)
		return false; /* no such class: hwloc finds nothing there either */
	bool left = false;
	struct dirent *e;
	while (!left && (e = readdir(d))) {
		if (e->d_name[0] == '.' || (infiniband && !strncmp(e->d_name, "scif", 4)))
			continue;
		char path[PATH_MAX + 300], link[256];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		ssize_t n = readlink(path, link, sizeof link);
		if (n < 0) { /* old kernels: a directory whose device link leads to the device */
			snprintf(path, sizeof path, "%s/%s/device", dir, e->d_name);
			n = readlink(path, link, sizeof link);
		}
		if (n < 0)
			continue;
		if (n >= (ssize_t)sizeof link) {
			left = true; /* longer than hwloc reads */
			break;
		}
		link[n] = '\0';
		if (strstr(link, "/virtual/"))
			continue;
		const char *t = strstr(link, "/pci");
		if (!t || !(t = strchr(t + 4, '/')))
			continue; /* not below a PCI root: hwloc hangs it near a NUMA node */
		t++;
		unsigned dom, bus, dev, fn, a, b, c, f;
		bool found = false;
		int used;
		while (sscanf(t, "%x:%x:%x.%x%n", &a, &b, &c, &f, &used) == 4) {
			dom = a, bus = b, dev = c, fn = f, found = true;
			t += used;
			if (*t++ != '/')
				break;
		}
		if (!found) {
			left = sscanf(t, "%x:%x.%x", &b, &c, &f) == 3; /* an address without domain */
			continue;
		}
		const struct probe_node *owner = find_node(set, dom, bus, dev, fn);
		left = !owner || !owner->d.n_interfaces;
	}
	closedir(d);
	return left;
}

bool probe_hwloc_may_add(const char *sysroot, struct probe_set *set)
{
	char dir[PATH_MAX + 32];
	for (int i = 0; i < set->n; i++)
		if (!pcibw_device_prov(&set->v[i].d, "numa_node"))
			return true;
	snprintf(dir, sizeof dir, "%s/class/net", sysroot);
	if (names_left(dir, false, set))
		return true;
	snprintf(dir, sizeof dir, "%s/class/infiniband", sysroot);
	return names_left(dir, true, set);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwloc as a source of NUMA node, local CPUs and OS names; see hwloc_int.h. */
#include "hwloc_int.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An environment variable set for the duration of one hwloc load, then put back: hwloc 2.x
 * reads its file-system root and component list only from the environment. */
struct env_save {
	const char *name;
	char *old; /* heap copy, NULL when it was unset */
};

static void env_push(struct env_save *s, const char *name, const char *value)
{
	const char *old = getenv(name);
	s->name = name;
	s->old = old ? strdup(old) : NULL;
	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
}

static void env_pop(struct env_save *s)
{
	if (s->old)
		setenv(s->name, s->old, 1);
	else
		unsetenv(s->name);
	free(s->old);
}

int probe_hwloc_load(hwloc_topology_t *t, const char *fsroot, const char *xml, struct pcibw_err *err)
{
	struct env_save env[5];
	int rc = PCIBW_OK;
	/* hwloc 2.x takes its file-system root and component choice only from the environment,
	 * read when the topology is created and loaded. Components left out: "pci" (libpciaccess:
	 * on a copy it would scan this machine, and it leaks its name database; hwloc's "linux"
	 * component reads PCI from sysfs itself), "gl" and "opencl" (GPU libraries, no NIC facts);
	 * on a copy also "x86" (CPUID would describe this machine's processors). */
	env_push(&env[0], "HWLOC_HIDE_ERRORS", "2");
	env_push(&env[1], "HWLOC_FSROOT", fsroot);
	env_push(&env[2], "HWLOC_COMPONENTS", fsroot ? "-x86,-pci,-gl,-opencl" : "-pci,-gl,-opencl");
	env_push(&env[3], "HWLOC_PLUGINS_BLACKLIST", "hwloc_pci,hwloc_gl,hwloc_opencl");
	env_push(&env[4], "HWLOC_XMLFILE", NULL);
	if (hwloc_topology_init(t)) {
		rc = pcibw_fail(err, PCIBW_EINTERNAL, "hwloc: cannot initialise a topology");
		*t = NULL;
		goto out;
	}
	/* Without this hwloc loads no PCI device and no OS device at all. */
	hwloc_topology_set_io_types_filter(*t, HWLOC_TYPE_FILTER_KEEP_ALL);
	if (xml && hwloc_topology_set_xml(*t, xml)) {
		rc = pcibw_fail(err, PCIBW_EINPUT, "%s: cannot read as an hwloc XML export", xml);
		goto out;
	}
	if (hwloc_topology_load(*t)) {
		if (xml)
			rc = pcibw_fail(err, PCIBW_EINPUT,
					"%s: not a topology hwloc %s can load (expected an hwloc 2.x XML "
					"export, as `lstopo FILE.xml` writes)",
					xml, HWLOC_VERSION);
		else
			rc = pcibw_fail(err, PCIBW_ENOTHERE, "hwloc cannot describe %s",
					fsroot ? fsroot : "this machine");
	}
out:
	for (int i = 4; i >= 0; i--)
		env_pop(&env[i]);
	if (rc && *t) {
		hwloc_topology_destroy(*t);
		*t = NULL;
	}
	return rc;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

void probe_hwloc_facts(hwloc_topology_t t, int domain, int bus, int dev, int fn, struct probe_hwloc_facts *f)
{
	memset(f, 0, sizeof *f);
	f->numa_node = PCIBW_NULL;
	f->link_gbps = NAN;
	if (domain < 0 || domain > 0xffff) /* hwloc 2.x keeps 16-bit domains only */
		return;
	hwloc_obj_t o =
	    hwloc_get_pcidev_by_busid(t, (unsigned)domain, (unsigned)bus, (unsigned)dev, (unsigned)fn);
	if (o)
		probe_hwloc_obj_facts(t, o, f);
}

void probe_hwloc_obj_facts(hwloc_topology_t t, hwloc_obj_t o, struct probe_hwloc_facts *f)
{
	memset(f, 0, sizeof *f);
	f->numa_node = PCIBW_NULL;
	f->link_gbps = NAN;
	f->found = 1;
	/* hwloc stores GB/s per direction after encoding; 0 means it did not know. */
	const struct hwloc_pcidev_attr_s *p =
	    o->type == HWLOC_OBJ_BRIDGE ? &o->attr->bridge.upstream.pci : &o->attr->pcidev;
	/* A float in hwloc, written with 6 decimals to XML ("0.400000"): round there, so 0.4 GB/s
	 * is 3.2 Gbit/s and not the float's 3.2000000477. */
	if (p->linkspeed > 0)
		f->link_gbps = round(p->linkspeed * 1e6) / 1e6 * 8.0;

	hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t, o);
	/* Locality unknown (firmware gave none) hangs I/O under the whole machine: that is not
	 * "node 0", even when the machine has a single node. */
	if (anc && anc != hwloc_get_root_obj(t) && anc->nodeset && hwloc_bitmap_weight(anc->nodeset) == 1)
		f->numa_node = hwloc_bitmap_first(anc->nodeset);
	if (anc && anc != hwloc_get_root_obj(t) && anc->cpuset)
		hwloc_bitmap_list_snprintf(f->cpus, sizeof f->cpus, anc->cpuset);

	for (hwloc_obj_t c = o->io_first_child; c; c = c->next_sibling) {
		if (c->type != HWLOC_OBJ_OS_DEVICE || !c->name)
			continue;
		if (c->attr->osdev.type != HWLOC_OBJ_OSDEV_NETWORK &&
		    c->attr->osdev.type != HWLOC_OBJ_OSDEV_OPENFABRICS)
			continue;
		if (f->n_ifaces < PCIBW_MAX_IFACES && strlen(c->name) < sizeof f->ifaces[0])
			strcpy(f->ifaces[f->n_ifaces++], c->name);
	}
	qsort(f->ifaces, (size_t)f->n_ifaces, sizeof f->ifaces[0], cmp_name);
}

void probe_hwloc_apply(struct pcibw_device *d, const struct probe_hwloc_facts *f)
{
	if (!f->found)
		return;
	if (d->numa_node == PCIBW_NULL && f->numa_node != PCIBW_NULL) {
		d->numa_node = f->numa_node;
		pcibw_device_set_prov(d, "numa_node", "hwloc");
		if (f->cpus[0] && !d->local_cpus[0]) {
			snprintf(d->local_cpus, sizeof d->local_cpus, "%s", f->cpus);
			pcibw_device_set_prov(d, "local_cpus", "hwloc");
		}
	}
	if (!d->n_interfaces && f->n_ifaces) {
		for (int i = 0; i < f->n_ifaces; i++)
			memcpy(d->interfaces[i], f->ifaces[i], sizeof d->interfaces[i]);
		d->n_interfaces = f->n_ifaces;
		pcibw_device_set_prov(d, "interfaces", "hwloc");
	}
}

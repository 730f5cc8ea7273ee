/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwloc as a source of NUMA node, local CPUs and OS names; see hwloc_int.h. */
#include "hwloc_int.h"
#include "src/util/input.h"
#include "src/util/isolate.h"
#include <expat.h>
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

/* Root element check of the syntax pass: an hwloc export's root is <topology version="2.x">
 * (hwloc 2.x refuses 3.0 exports; 1.x ones have no version attribute). */
struct xml_check {
	XML_Parser p;
	const char *file;
	struct pcibw_err *err;
	int seen_root, rc;
};

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **attrs)
{
	struct xml_check *c = ud;
	if (c->seen_root++)
		return;
	const char *version = NULL;
	for (int i = 0; attrs[i]; i += 2)
		if (!strcmp(attrs[i], "version"))
			version = attrs[i + 1];
	unsigned line = (unsigned)XML_GetCurrentLineNumber(c->p);
	unsigned col = (unsigned)XML_GetCurrentColumnNumber(c->p) + 1;
	if (strcmp(name, "topology"))
		c->rc = pcibw_fail(c->err, PCIBW_EINPUT,
				   "%s:%u:%u: root element <%s>: expected "
				   "<topology> (an hwloc XML export)",
				   c->file, line, col, name);
	else if (version && strncmp(version, "2.", 2))
		c->rc = pcibw_fail(c->err, PCIBW_EINPUT,
				   "%s:%u:%u: hwloc XML version %s: expected "
				   "2.x (hwloc %s reads 2.x exports only)",
				   c->file, line, col, version, HWLOC_VERSION);
	if (c->rc)
		XML_StopParser(c->p, XML_FALSE);
}

/* Well-formedness first, with expat, so a broken export is refused at its line and column
 * (hwloc's own loader only says that it failed). */
static int check_syntax(const char *file, const char *data, size_t len, struct pcibw_err *err)
{
	struct xml_check c = {XML_ParserCreate(NULL), file, err, 0, PCIBW_OK};
	if (!c.p)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	XML_SetUserData(c.p, &c);
	XML_SetStartElementHandler(c.p, on_start);
	/* in pieces: XML_Parse takes an int length */
	size_t off = 0;
	do {
		size_t n = len - off > (1u << 30) ? (1u << 30) : len - off;
		int last = off + n == len;
		if (XML_Parse(c.p, data + off, (int)n, last) == XML_STATUS_ERROR && !c.rc)
			c.rc = pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%lu:%lu: %s: expected a well-formed "
					  "hwloc XML export",
					  file, (unsigned long)XML_GetCurrentLineNumber(c.p),
					  (unsigned long)XML_GetCurrentColumnNumber(c.p) + 1,
					  XML_ErrorString(XML_GetErrorCode(c.p)));
		off += n;
	} while (off < len && !c.rc);
	XML_ParserFree(c.p);
	return c.rc;
}

/* What the child loads before the parent does (see probe_hwloc_load). */
struct trial {
	const char *xml; /* NUL-terminated */
	size_t len;
};

static int trial_load(void *ctx)
{
	const struct trial *tr = ctx;
	hwloc_topology_t t;
	if (hwloc_topology_init(&t))
		return 1;
	hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL);
	int r =
	    (tr->xml && hwloc_topology_set_xmlbuffer(t, tr->xml, (int)tr->len + 1)) || hwloc_topology_load(t);
	hwloc_topology_destroy(t);
	return r;
}

int probe_hwloc_load(hwloc_topology_t *t, const char *fsroot, const char *xml, struct pcibw_err *err)
{
	struct env_save env[5];
	struct trial tr = {NULL, 0};
	char *data = NULL;
	char detail[128];
	int rc = PCIBW_OK;
	*t = NULL;
	if (xml) {
		/* read once: expat checks these bytes, then the child and this process load them */
		if ((rc = pcibw_input_read(xml, "an hwloc XML export (lstopo FILE.xml)", 0, PCIBW_INPUT_MAX,
					   &data, &tr.len, err)) ||
		    (rc = check_syntax(xml, data, tr.len, err))) {
			free(data);
			return rc;
		}
		tr.xml = data;
	}
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
	/* An export or a copied tree is untrusted, and hwloc 2.9.0 crashes on some well-formed
	 * but wrong XML (a misspelled cpuset attribute): a child loads it first, and only a load
	 * that the child survived and that succeeded is repeated here. */
	if (xml || fsroot) {
		const char *what = xml ? xml : fsroot;
		switch (pcibw_isolated(trial_load, &tr, 60, detail, sizeof detail)) {
		case PCIBW_ISOLATED_OK:
			break;
		case PCIBW_ISOLATED_CRASHED:
			rc = pcibw_fail(err, PCIBW_EINPUT,
					"%s: hwloc %s died loading this %s (%s): expected %s hwloc can load "
					"(hwloc checks too little of it)",
					what, HWLOC_VERSION, xml ? "export" : "copied tree", detail,
					xml ? "an export that `lstopo FILE.xml` writes and" : "a tree");
			goto out;
		case PCIBW_ISOLATED_TIMEOUT:
			rc = pcibw_fail(err, PCIBW_EINPUT, "%s: hwloc %s did not finish loading it (%s)",
					what, HWLOC_VERSION, detail);
			goto out;
		case PCIBW_ISOLATED_FAILED:
			rc = xml ? pcibw_fail(
				       err, PCIBW_EINPUT,
				       "%s: not a topology hwloc %s can load (expected an hwloc 2.x XML "
				       "export, as `lstopo FILE.xml` writes)",
				       xml, HWLOC_VERSION)
				 : pcibw_fail(err, PCIBW_ENOTHERE, "hwloc cannot describe %s", fsroot);
			goto out;
		default:
			rc = pcibw_fail(err, PCIBW_EINTERNAL, "hwloc: cannot load in a child process: %s",
					detail);
			goto out;
		}
	}
	if (hwloc_topology_init(t)) {
		rc = pcibw_fail(err, PCIBW_EINTERNAL, "hwloc: cannot initialise a topology");
		*t = NULL;
		goto out;
	}
	/* Without this hwloc loads no PCI device and no OS device at all. */
	hwloc_topology_set_io_types_filter(*t, HWLOC_TYPE_FILTER_KEEP_ALL);
	if (xml && hwloc_topology_set_xmlbuffer(*t, tr.xml, (int)tr.len + 1)) {
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
	free(data);
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

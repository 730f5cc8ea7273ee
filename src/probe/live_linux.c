/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * This machine, or a copied Linux sysfs tree, through libpci's sysfs method; then what config
 * space cannot give (or what a non-root reader cannot see) from the sysfs attributes, hwloc
 * and /proc/cpuinfo. Linux only: a FreeBSD backend (/dev/pci, libpci's "fbsd-device") would sit
 * beside this file. See live.h.
 */
#include "cfg_access.h"
#include "ethtool.h"
#include "hwloc_int.h"
#include "live.h"
#include "netif.h"
#include "sysfs_attr.h"
#include "virt.h"
#include <limits.h>
#include <pci/pci.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct live_ctx {
	char sysroot[PATH_MAX]; /* holds bus/pci/devices: "/sys" or the copy's sys/ */
	char fsroot[PATH_MAX];	/* holds sys/ and proc/: "" for this machine or when unknown */
	bool live;
};

static bool is_dir(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Accept the copy's root (DIR/sys/bus/pci/devices) or its sys/ (DIR/bus/pci/devices). */
static int resolve_copy(const char *given, struct live_ctx *c, struct pcibw_err *err)
{
	char p[PATH_MAX + 32], dir[PATH_MAX];
	/* "DIR/" and "/" join without a doubled slash */
	snprintf(dir, sizeof dir, "%s", given);
	for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = '\0';
	if (!dir[0])
		return pcibw_fail(err, PCIBW_EUSAGE, "--sysfs '': expected a directory");
	const char *pre = strcmp(dir, "/") ? dir : ""; /* "/" + "/sys" = "/sys" */
	snprintf(p, sizeof p, "%s/sys/bus/pci/devices", pre);
	if (is_dir(p)) {
		snprintf(c->sysroot, sizeof c->sysroot, "%s/sys", pre);
		snprintf(c->fsroot, sizeof c->fsroot, "%s", dir);
		return PCIBW_OK;
	}
	snprintf(p, sizeof p, "%s/bus/pci/devices", pre);
	if (!is_dir(p))
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s: expected a copied sysfs tree holding bus/pci/devices (or "
				  "sys/bus/pci/devices, as hwloc-gather-topology makes it)",
				  dir);
	snprintf(c->sysroot, sizeof c->sysroot, "%s", dir);
	/* DIR is sys/ itself: its parent is the file-system root hwloc and proc/ need. */
	const char *base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	if (!strcmp(base, "sys"))
		snprintf(c->fsroot, sizeof c->fsroot, "%s/..", pre);
	return PCIBW_OK;
}

static void where(const void *ctx, int domain, int bus, int dev, int fn, int offset, char *buf, size_t len)
{
	const struct live_ctx *c = ctx;
	char slot[32];
	snprintf(buf, len, "%s/bus/pci/devices/%s/config offset 0x%x", c->sysroot,
		 pcibw_format_slot(slot, domain, bus, dev, fn), offset);
}

/* What this machine's (or the copy's) CPUs say about a hypervisor, and which devices a
 * hypervisor invented. Returns the number of devices newly marked virtual. */
static int mark_virtual(const struct live_ctx *c, struct probe_set *set, struct pcibw_report *r)
{
	char path[PATH_MAX + 32], evidence[PATH_MAX + 64];
	if (c->live)
		snprintf(path, sizeof path, "/proc/cpuinfo");
	else if (c->fsroot[0])
		snprintf(path, sizeof path, "%s/proc/cpuinfo", strcmp(c->fsroot, "/") ? c->fsroot : "");
	else
		return 0;
	if (probe_virt_hypervisor(path, evidence, sizeof evidence) != 1)
		return 0;
	return probe_virt_mark(set, r, c->live, evidence);
}

/* hwloc on this machine or on the copy's file-system root: fills NUMA node and OS names where
 * sysfs gave none. A failure is a warning: hwloc adds, the report stands without it. */
static void add_hwloc(const struct live_ctx *c, struct probe_set *set, struct pcibw_report *r)
{
	hwloc_topology_t t;
	struct pcibw_err e;
	if (!c->live && !c->fsroot[0])
		return; /* a bare sys/ copy: hwloc needs the root above it */
	if (c->live && !probe_hwloc_may_add(c->sysroot, set))
		return;
	if (probe_hwloc_load(&t, c->live ? NULL : c->fsroot, NULL, &e)) {
		pcibw_report_warn(r, NULL, "hwloc-failed",
				  "hwloc: %s; NUMA node and interface names come from sysfs only", e.msg);
		return;
	}
	for (int i = 0; i < set->n; i++) {
		struct probe_hwloc_facts f;
		struct pcibw_device *d = &set->v[i].d;
		probe_hwloc_facts(t, d->domain, d->bus, d->dev, d->fn, &f);
		/* The kernel's numa_node (-1 included: "firmware gave none") is the answer where it
		 * exists; hwloc's guess from local_cpus only stands in where the file is missing,
		 * and never on a copy, where hwloc cannot see the copy's CPUs. */
		if (pcibw_device_prov(d, "numa_node") || !c->live)
			f.numa_node = PCIBW_NULL;
		probe_hwloc_apply(d, &f);
	}
	hwloc_topology_destroy(t);
}

/* The generic per-device note of probe_finish() about a short config (code "config-short") is
 * replaced here by one warning for the whole machine that says where the link facts came from
 * instead and what root would add. */
int probe_live(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err)
{
	struct live_ctx c = {.live = !opts->sysfs_dir};
	struct probe_set set = {0};
	char pcipath[PATH_MAX + 16];
	int rc;

	if (c.live) {
		snprintf(c.sysroot, sizeof c.sysroot, "/sys");
		snprintf(out->source, sizeof out->source, "live");
	} else {
		rc = resolve_copy(opts->sysfs_dir, &c, err);
		if (rc)
			return rc;
		char proc[PATH_MAX + 8];
		snprintf(proc, sizeof proc, "%s/proc", c.fsroot);
		if ((rc = pcibw_sysfs_check_tree(c.sysroot, err)) ||
		    (c.fsroot[0] && (rc = pcibw_sysfs_check_tree(proc, err))))
			return rc;
		snprintf(out->source, sizeof out->source, "sysfs:%s", opts->sysfs_dir);
	}
	snprintf(pcipath, sizeof pcipath, "%s/bus/pci", c.sysroot);
	const char *params[] = {"sysfs.path", pcipath, NULL};
	const struct probe_locator loc = {where, &c};
	/* This machine: libpci's default method (sysfs on Linux, /proc/bus/pci or direct access
	 * where sysfs is missing). A copy: the sysfs method pointed at it, nothing else. */
	rc = probe_libpci_read(c.live ? PCI_ACCESS_AUTO : PCI_ACCESS_SYS_BUS_PCI, c.live ? NULL : params,
			       opts->pci_ids, "config", &loc, &set, out, err);
	if (rc == PCIBW_ENOTHERE && !c.live) {
		/* On a copy, what libpci cannot scan is a malformed tree, not a missing feature. */
		char msg[sizeof err->msg];
		snprintf(msg, sizeof msg, "%s", err->msg);
		rc = pcibw_fail(err, PCIBW_EINPUT,
				"%s/bus/pci/devices: %s (expected entries named "
				"DDDD:BB:DD.F, each a device directory with a config file)",
				c.sysroot, msg);
	}
	if (rc)
		goto out;

	int n_hidden = 0;
	for (int i = 0; i < set.n; i++) {
		struct probe_node *n = &set.v[i];
		struct pcibw_sysfs_attrs a;
		if (!c.live && n->cfg.len == 0) {
			/* a copy made without keeping symlinks (cp -r of a tree whose devices/ entries
			 * are links) holds each link's target as a small text file */
			char ent[4200];
			struct stat est;
			snprintf(ent, sizeof ent, "%s/bus/pci/devices/%s", c.sysroot, n->d.slot);
			if (!lstat(ent, &est) && S_ISREG(est.st_mode)) {
				rc = pcibw_fail(
				    err, PCIBW_EINPUT,
				    "%s: a regular file, not a symlink or a directory: expected "
				    "the device's directory (this copy lost its symlinks: copy the "
				    "tree with cp -a or tar)",
				    ent);
				goto out;
			}
			rc = pcibw_fail(err, PCIBW_EINPUT,
					"%s/bus/pci/devices/%s/config: missing or "
					"unreadable: expected the device's config space (64 bytes or "
					"more)",
					c.sysroot, n->d.slot);
			goto out;
		}
		rc = pcibw_sysfs_read_attrs(c.sysroot, n->d.slot, &a, err);
		if (rc)
			goto out;
		pcibw_sysfs_apply_ids(&n->d, &a);
		pcibw_sysfs_apply_pm(&n->d, &a);
		pcibw_sysfs_apply_aer(&n->d, &a);
		if (probe_nonroot_hidden(n)) {
			pcibw_sysfs_apply_link(&n->d, &a);
			n_hidden++;
		}
	}
	rc = pcibw_sysfs_aspm_policy(c.sysroot, out->aspm_policy, sizeof out->aspm_policy, err);
	if (rc)
		goto out;
	mark_virtual(&c, &set, out);
	add_hwloc(&c, &set, out);
	for (int i = 0; c.live && i < set.n; i++)
		probe_ethtool_apply(&set.v[i].d);

	int first = out->n_devices, first_warning = out->n_warnings;
	rc = probe_finish(&set, opts, out, err);
	if (rc == PCIBW_ENOMATCH && opts->iface) {
		/* an interface no PCI device carries (loopback, veth, bridge, a USB adapter): say what
		 * it is, from its own sysfs entry, rather than only that nothing matched */
		char why[768];
		if (probe_netif_why_no_pci(c.sysroot, opts->iface, why, sizeof why)) {
			char msg[sizeof err->msg];
			snprintf(msg, sizeof msg, "%s", err->msg);
			pcibw_fail(err, PCIBW_ENOMATCH, "%s: %s", msg, why);
		}
	}
	if (rc)
		goto out;
	if (n_hidden)
		pcibw_report_drop(out, first_warning, "config-short", NULL);
	probe_nonroot_warn(out, c.live, n_hidden);
	probe_onpackage_warn(out, first);
out:
	probe_set_free(&set);
	return rc;
}

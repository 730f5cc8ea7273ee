/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --pciconf FILE: FreeBSD's pciconf -lvbc text (with pciconf -r dumps where given) read whole
 * (src/util/input.h), scanned by pciconf_scan.c into the probe's nodes, then the same
 * probe_finish as a dump. What pciconf -lvbc does not print is said once for the source.
 */
#include "pciconf_scan.h"
#include "probe_int.h"
#include "src/util/input.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the text leaves unknown, counted over the devices it lists. */
static int partial_warning(const struct pciconf_file *f, const struct probe_set *set,
			   struct pcibw_report *out)
{
	int no_bus = 0, pcix_bridge = 0, pcix_dev = 0, conv = 0;
	for (int i = 0; i < set->n; i++) {
		const struct probe_node *n = &set->v[i];
		if ((n->header_type == 1 || n->header_type == 2) && n->sec_bus == PCIBW_NULL)
			no_bus++;
		if (n->pcix_bridge && n->pcix_sec_status == PCIBW_NULL)
			pcix_bridge++;
		if (n->d.pcix_capable && n->d.mmrbc_bytes == PCIBW_NULL)
			pcix_dev++;
		if (n->d.bus_kind != PCIBW_BUS_PCIE && n->status_66mhz == PCIBW_NULL)
			conv++;
	}
	char what[900] = "";
	size_t w = 0;
	if (!f->caps_listed)
		w += (size_t)snprintf(what + w, sizeof what - w,
				      "; no capability lines (pciconf -l without -c): no PCIe link, PCI-X "
				      "mode, MPS or MRRS");
	if (no_bus)
		w += (size_t)snprintf(
		    what + w, sizeof what - w,
		    "; the bus numbers behind %d bridge%s (pciconf -lB, or pciconf -r BRIDGE "
		    "0x18, shows them): the devices below are not placed under their bridge",
		    no_bus, no_bus == 1 ? "" : "s");
	if (pcix_bridge && w < sizeof what)
		w +=
		    (size_t)snprintf(what + w, sizeof what - w,
				     "; the secondary mode and clock of %d PCI-X bridge%s (pciconf -r of the "
				     "capability's Secondary Status, cap+2)",
				     pcix_bridge, pcix_bridge == 1 ? "" : "s");
	if (pcix_dev && w < sizeof what)
		w += (size_t)snprintf(
		    what + w, sizeof what - w,
		    "; the programmed MMRBC and splits of %d PCI-X device%s (pciconf -r of "
		    "the capability's Command, cap+2; -c prints only what they were designed for)",
		    pcix_dev, pcix_dev == 1 ? "" : "s");
	if (conv && w < sizeof what)
		w += (size_t)snprintf(
		    what + w, sizeof what - w,
		    "; the 66 MHz bits of %d conventional or PCI-X device%s (pciconf -r DEVICE "
		    "0x04, Status bit 5; a bridge's Secondary Status at 0x1c)",
		    conv, conv == 1 ? "" : "s");
	if (!w)
		return PCIBW_OK;
	return pcibw_report_warn(out, NULL, "pciconf-partial",
				 "not in this pciconf text (it holds no config-space image): %s", what + 2);
}

int probe_pciconf(const struct pcibw_probe_opts *o, struct pcibw_report *out, struct pcibw_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc =
	    pcibw_input_read(o->pciconf_file, "pciconf -lvbc text", 0, PCIBW_INPUT_MAX, &text, &len, err);
	if (rc)
		return rc;
	struct probe_set set = {0};
	struct pciconf_file f = {.path = o->pciconf_file};
	struct probe_locator loc = {probe_pciconf_where, &f};
	rc = probe_pciconf_scan(text, len, &f, &set, err);
	if (rc)
		goto out;
	snprintf(out->source, sizeof out->source, "pciconf:%s", o->pciconf_file);
	/* names: pciconf -v's where its database knew the device, else pci.ids as for a dump */
	bool named = true;
	for (int i = 0; i < set.n; i++)
		named &= f.dev[i].named;
	if (!named) {
		char(*keep)[sizeof set.v[0].d.name] = malloc((size_t)set.n * sizeof *keep);
		if (!keep) {
			rc = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			goto out;
		}
		for (int i = 0; i < set.n; i++)
			memcpy(keep[i], set.v[i].d.name, sizeof keep[i]);
		rc = probe_libpci_names(&set, -1, o->pci_ids, err);
		for (int i = 0; i < set.n; i++)
			if (f.dev[i].named || !set.v[i].d.name[0])
				memcpy(set.v[i].d.name, keep[i], sizeof keep[i]);
		free(keep);
		if (rc)
			goto out;
	}
	set.loc = &loc;
	int first = out->n_warnings;
	rc = partial_warning(&f, &set, out);
	if (rc)
		goto out;
	rc = probe_finish(&set, o, out, err);
	if (rc)
		goto out;
	/* the generic 64-byte note does not fit a text source: partial_warning says it */
	pcibw_report_drop(out, first, "config-short", NULL);
out:
	probe_pciconf_file_free(&f);
	probe_set_free(&set);
	free(text);
	return rc;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw_probe: pick the source, run the pipeline of probe_int.h. */
#include "dump_scan.h"
#include "hwloc_int.h"
#include "live.h"
#include "probe_int.h"
#include "src/util/input.h"
#include <pci/pci.h>
#include <stdio.h>
#include <unistd.h>

/* --dump FILE: our strict scanner first, then libpci's dump method reads the bytes it checked
 * (a sealed memory copy: the file may change or vanish after the scan). */
static int probe_dump(const struct pcibw_probe_opts *o, struct pcibw_report *out, struct pcibw_err *err)
{
	struct dump_index idx;
	int r = dump_scan(o->dump_file, &idx, err);
	if (r)
		return r;
	snprintf(out->source, sizeof out->source, "dump:%s", o->dump_file);
	struct probe_set set = {0};
	struct probe_locator loc = {dump_where, &idx};
	char copy[64];
	int fd;
	r = pcibw_input_memfd(idx.data, idx.len, &fd, copy, sizeof copy, err);
	if (r) {
		dump_index_free(&idx);
		return r;
	}
	const char *params[] = {"dump.name", copy, NULL};
	r = probe_libpci_read(PCI_ACCESS_DUMP, params, o->pci_ids, "config", &loc, &set, out, err);
	close(fd);
	if (!r)
		r = probe_finish(&set, o, out, err);
	probe_set_free(&set);
	dump_index_free(&idx);
	return r;
}

int pcibw_probe(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err)
{
	int n = !!opts->dump_file + !!opts->sysfs_dir + !!opts->topology_file;
	if (n > 1)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--dump, --sysfs and --topology name different "
				  "machines: give at most one");
	if (opts->dump_file)
		return probe_dump(opts, out, err);
	if (opts->topology_file)
		return probe_hwloc_xml(opts, out, err); /* hwloc_xml.c */
	return probe_live(opts, out, err);		/* this machine or --sysfs DIR: live_linux.c */
}

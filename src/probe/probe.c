/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw_probe: pick the source, run the pipeline of probe_int.h. */
#include "hwloc_int.h"
#include "live.h"
#include "probe_int.h"

int pcibw_probe(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err)
{
	int n = !!opts->dump_file + !!opts->pciconf_file + !!opts->sysfs_dir + !!opts->topology_file;
	if (n > 1)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--dump, --pciconf, --sysfs and --topology name "
				  "different machines: give at most one");
	if (opts->dump_file)
		return probe_dump(opts, out, err); /* dump_read.c */
	if (opts->pciconf_file)
		return probe_pciconf(opts, out, err); /* pciconf_read.c */
	if (opts->topology_file)
		return probe_hwloc_xml(opts, out, err); /* hwloc_xml.c */
	return probe_live(opts, out, err);		/* this machine or --sysfs DIR: live_linux.c */
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How many CPUs, at what clock, the measurement ran on: needed to turn a CPU share into cycles
 * per packet and service demand. From this machine (sysconf, /proc/cpuinfo) or from an hwloc
 * XML export of another (its PU objects; the export holds no clock).
 */
#include "pcibw/device.h"
#include "pcibw/ingest.h"
#include "src/probe/hwloc_int.h"
#include <hwloc.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void pcibw_cpuinfo_live(struct pcibw_cpuinfo *ci)
{
	ci->cpus = PCIBW_NULL;
	ci->mhz = NAN;
	snprintf(ci->origin, sizeof ci->origin, "/proc/cpuinfo");
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n > 0)
		ci->cpus = (int)n;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		double mhz;
		/* "cpu MHz\t\t: 2800.000" (x86); the highest core clock stands for the machine */
		if (!strncmp(line, "cpu MHz", 7) &&
		    sscanf(strchr(line, ':') ? strchr(line, ':') + 1 : "", "%lf", &mhz) == 1 && mhz > 0 &&
		    (isnan(ci->mhz) || mhz > ci->mhz))
			ci->mhz = mhz;
	}
	fclose(f);
}

int pcibw_cpuinfo_hwloc_xml(const char *path, struct pcibw_cpuinfo *ci, struct pcibw_err *err)
{
	hwloc_topology_t t;
	ci->cpus = PCIBW_NULL;
	ci->mhz = NAN;
	/* the one loader of untrusted exports: syntax checked, loaded in a child first */
	int rc = probe_hwloc_load(&t, NULL, path, err);
	if (rc)
		return rc;
	int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
	if (n > 0)
		ci->cpus = n;
	snprintf(ci->origin, sizeof ci->origin, "hwloc-xml");
	hwloc_topology_destroy(t);
	return PCIBW_OK;
}

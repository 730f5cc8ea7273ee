/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How many CPUs, at what clock, this machine has (sysconf, /proc/cpuinfo): what turns a CPU
 * share measured here into cycles per packet. Another machine's come from its hwloc export
 * (hwloc_xml.c).
 */
#include "pcibw/probe.h"
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How many CPUs, at what clock, this machine has on FreeBSD: sysconf(3) _SC_NPROCESSORS_ONLN and
 * the hw.clockrate sysctl (sysctl(3); an int, MHz: the clock the kernel measured at boot on x86,
 * sys/x86/x86/identcpu.c), else dev.cpu.0.freq (cpufreq(4): the current clock of CPU 0, MHz).
 * There is no /proc/cpuinfo to read.
 */
#include "pcibw/probe.h"
#include <math.h>
#include <stdio.h>
#include <sys/sysctl.h>
#include <unistd.h>

void pcibw_cpuinfo_live(struct pcibw_cpuinfo *ci)
{
	ci->cpus = PCIBW_NULL;
	ci->mhz = NAN;
	snprintf(ci->origin, sizeof ci->origin, "sysctl hw.clockrate");
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n > 0)
		ci->cpus = (int)n;
	int mhz = 0;
	size_t len = sizeof mhz;
	if (sysctlbyname("hw.clockrate", &mhz, &len, NULL, 0) == 0 && len == sizeof mhz && mhz > 0) {
		ci->mhz = mhz;
		return;
	}
	len = sizeof mhz;
	if (sysctlbyname("dev.cpu.0.freq", &mhz, &len, NULL, 0) == 0 && len == sizeof mhz && mhz > 0) {
		ci->mhz = mhz;
		snprintf(ci->origin, sizeof ci->origin, "sysctl dev.cpu.0.freq");
	}
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Virtual-machine detection on FreeBSD: the kern.vm_guest sysctl (sysctl(3); a string the kernel
 * sets at boot from CPUID's hypervisor bit and the hypervisor's signature, sys/x86/x86/identcpu.c
 * identify_hypervisor); see virt.h. There is no /proc/cpuinfo to read. */
#include "virt.h"
#include <stdio.h>
#include <sys/sysctl.h>

int probe_virt_hypervisor(const char *cpuinfo_path, char *evidence, size_t n)
{
	(void)cpuinfo_path;
	char guest[32];
	size_t len = sizeof guest - 1;
	if (sysctlbyname("kern.vm_guest", guest, &len, NULL, 0) != 0) {
		snprintf(evidence, n, "sysctl kern.vm_guest unreadable");
		return -1;
	}
	guest[len < sizeof guest ? len : sizeof guest - 1] = '\0';
	snprintf(evidence, n, "sysctl kern.vm_guest=%s", guest);
	return probe_virt_vm_guest(guest);
}

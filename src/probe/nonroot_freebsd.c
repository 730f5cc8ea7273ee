/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Config space and a non-root reader on FreeBSD; see live.h. pci(4) cuts nothing short: its
 * PCIOCREAD ioctl serves any register to a /dev/pci descriptor opened for writing and refuses
 * every register (EPERM) to one opened read-only (sys/dev/pci/pci_user.c, pci_ioctl: without
 * FWRITE only PCIOCGETCONF, PCIOCGETBAR and PCIOCLISTVPD pass). /dev/pci is root's to write, so
 * a non-root reader gets no config space at all rather than its first 64 bytes: live_freebsd.c
 * says so before libpci opens the device, and no device is ever partly read.
 */
#include "live.h"
#include <stdio.h>

bool probe_nonroot_hidden(const struct probe_node *n)
{
	(void)n; /* every device read through /dev/pci is read whole (or not at all) */
	return false;
}

void probe_nonroot_warn(struct pcibw_report *r, bool live, int n_hidden)
{
	if (!n_hidden)
		return;
	/* not reached through /dev/pci (no partial reads); kept for a reader that could cut */
	pcibw_report_warn(r, NULL, "non-root",
			  "%d device%s gave only part of config space%s; reading /dev/pci as root "
			  "gives all of it",
			  n_hidden, n_hidden == 1 ? "" : "s", live ? "" : " in this copy");
}

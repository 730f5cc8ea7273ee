/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An SR-IOV VF's PF on FreeBSD (shared_hop.h): iov(4) creates a PF's VFs as children of the
 * PF's own pci bus, and neither pci(4)'s PCIOCGETCONF nor the VF's dev.DRIVER.UNIT sysctls
 * (%parent is that bus, %location the VF's own address) name the PF. So no PF is found here,
 * and watch_shared_probe takes the hop of the VF's own device, as for any function without a PF.
 */
#include "shared_hop.h"

bool watch_physfn(const char *slot, char pf[32])
{
	(void)slot;
	pf[0] = '\0';
	return false;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ifname.h - a FreeBSD network interface name as the device it is named after. Pure. */
#ifndef PCIBW_UTIL_IFNAME_H
#define PCIBW_UTIL_IFNAME_H

#include <stdbool.h>
#include <stddef.h>

/*
 * pcibw_ifname_split - a FreeBSD interface name as the driver's name and unit that NIC drivers
 * give their ifnet (if_initname(ifp, device_get_name(dev), device_get_unit(dev)): "em0" -> "em",
 * 0; "ixl12" -> "ixl", 12): the dev.DRIVER.UNIT sysctl tree of its device. False for a name
 * without a trailing unit, a unit with a leading zero or of more than 9 digits, or a driver part
 * longer than n - 1 or holding other than letters, digits and '_'.
 */
bool pcibw_ifname_split(const char *name, char *driver, size_t n, unsigned *unit);

#endif

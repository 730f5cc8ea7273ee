/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool.h - driver, firmware and supported speed of a network interface of this machine
 * (Linux SIOCETHTOOL in ethtool_linux.c; FreeBSD's dev.DRIVER.UNIT sysctls in ethtool_freebsd.c;
 * no root needed). Only for the live source: a copied tree has no sockets. */
#ifndef PCIBW_PROBE_ETHTOOL_H
#define PCIBW_PROBE_ETHTOOL_H

#include "pcibw/device.h"
#include <stddef.h>

/* probe_ethtool_drvinfo - ETHTOOL_GDRVINFO of ifname: the driver's name and its firmware
 * version ("" when the driver reports none or "N/A"). Returns 0, or -1 (no such interface, no
 * ethtool support) leaving both untouched. */
int probe_ethtool_drvinfo(const char *ifname, char *driver, size_t dlen, char *firmware, size_t flen);

/* probe_ethtool_max_mbps - the highest speed, Mbit/s, among the link modes ifname supports
 * (ETHTOOL_GLINKSETTINGS supported mask); -1 when unknown (no modes, no support; always on
 * FreeBSD, where the supported media of SIOCGIFMEDIA carry no speed outside the kernel). */
int probe_ethtool_max_mbps(const char *ifname);

/* probe_ethtool_apply - for each interface of d: firmware (and the driver where sysfs gave
 * none; provenance "ethtool"), and the highest supported speed of an interface whose current
 * speed is unknown. */
void probe_ethtool_apply(struct pcibw_device *d);

#endif

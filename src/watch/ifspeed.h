/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An interface's link speed as the OS reports it, for the wire ceiling of `pcibw watch` when no
 * --line-rate is given. One file per OS: ifspeed_linux.c (sysfs /sys/class/net/IFACE/speed, which
 * the kernel gives in Mbit/s, -1 or an error while the link is down: Documentation/ABI/testing/
 * sysfs-class-net) and ifspeed_freebsd.c (getifaddrs(3) if_data.ifi_baudrate of a link that is up).
 */
#ifndef PCIBW_WATCH_IFSPEED_H
#define PCIBW_WATCH_IFSPEED_H

/* watch_iface_speed_gbps - interface name's link speed in Gbit/s; 0 when unknown (no such
 * interface, the link down, a virtual interface that reports none, not readable). */
double watch_iface_speed_gbps(const char *name);

#endif

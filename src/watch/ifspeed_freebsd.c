/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An interface's link speed on FreeBSD (ifspeed.h): the ifi_baudrate (bit/s) of its link-level
 * getifaddrs(3) entry's if_data, while the link is up (ifi_link_state LINK_STATE_UP). */
#include "ifspeed.h"
#include <ifaddrs.h>
#include <net/if.h>
#include <string.h>

double watch_iface_speed_gbps(const char *name)
{
	struct ifaddrs *ifa = NULL;
	double g = 0;
	if (getifaddrs(&ifa) != 0)
		return 0;
	for (struct ifaddrs *a = ifa; a; a = a->ifa_next)
		if (a->ifa_addr && a->ifa_addr->sa_family == AF_LINK && a->ifa_data &&
		    !strcmp(a->ifa_name, name)) {
			const struct if_data *d = a->ifa_data;
			if (d->ifi_link_state == LINK_STATE_UP)
				g = (double)d->ifi_baudrate / 1e9;
		}
	freeifaddrs(ifa);
	return g;
}

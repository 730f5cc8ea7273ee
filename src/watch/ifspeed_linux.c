/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An interface's link speed from sysfs (ifspeed.h). */
#include "ifspeed.h"
#include <stdio.h>

double watch_iface_speed_gbps(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "/sys/class/net/%s/speed", name);
	FILE *f = fopen(path, "re");
	long v = -1;
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v > 0 ? (double)v / 1000 : 0;
}

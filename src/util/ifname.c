/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FreeBSD interface names as DRIVER + UNIT; see ifname.h. */
#include "ifname.h"
#include <ctype.h>
#include <string.h>

bool pcibw_ifname_split(const char *name, char *driver, size_t n, unsigned *unit)
{
	size_t len = strlen(name), d = len;
	while (d > 0 && isdigit((unsigned char)name[d - 1]))
		d--;
	/* a driver name, then a unit without leading zeros (device_get_nameunit: "%s%d") */
	if (d == 0 || d == len || len - d > 9 || d >= n || (name[d] == '0' && len - d > 1))
		return false;
	for (size_t i = 0; i < d; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_')
			return false;
	memcpy(driver, name, d);
	driver[d] = '\0';
	unsigned u = 0;
	for (size_t i = d; i < len; i++)
		u = u * 10 + (unsigned)(name[i] - '0');
	*unit = u;
	return true;
}

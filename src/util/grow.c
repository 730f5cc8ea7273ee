/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "grow.h"
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int pcibw_grow(void *v, int *cap, int need, size_t elem)
{
	if (need <= *cap)
		return 0;
	if (need < 0 || elem == 0)
		return -1;
	long nc = *cap < 16 ? 16 : (long)*cap * 2;
	if (nc < need)
		nc = need;
	if (nc > INT_MAX)
		nc = INT_MAX;
	if ((size_t)nc > SIZE_MAX / elem)
		return -1;
	void *old;
	memcpy(&old, v, sizeof old);
	void *nv = realloc(old, (size_t)nc * elem);
	if (!nv)
		return -1;
	memcpy(v, &nv, sizeof nv);
	*cap = (int)nc;
	return 0;
}

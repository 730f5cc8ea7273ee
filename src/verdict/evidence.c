/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "evidence.h"
#include <stdio.h>

void evidence_vadd(char **v, int *n, int max, const char *fmt, va_list ap)
{
	char *s = NULL;
	if (*n < max && vasprintf(&s, fmt, ap) >= 0)
		v[(*n)++] = s;
}

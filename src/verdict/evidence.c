/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include "evidence.h"

void evidence_vadd(char **v, int *n, int max, const char *fmt, va_list ap)
{
	char *s = NULL;
	if (*n < max && vasprintf(&s, fmt, ap) >= 0)
		v[(*n)++] = s;
}

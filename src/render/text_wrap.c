/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text output's long lines, broken at blanks to fit 100 columns. */
#include "text_wrap.h"
#include <stdbool.h>
#include <string.h>

void pcibw_text_wrapped(FILE *out, const char *prefix, const char *text)
{
	int indent = (int)strlen(prefix), col = fprintf(out, "%s", prefix);
	const char *p = text;
	bool first = true;
	while (*p) {
		const char *e = strchr(p, ' ');
		int n = e ? (int)(e - p) : (int)strlen(p);
		if (!first && col + 1 + n > 100) {
			col = fprintf(out, "\n%*s", indent + 2, "") - 1;
			first = true;
		}
		col += fprintf(out, "%s%.*s", first ? "" : " ", n, p);
		first = false;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

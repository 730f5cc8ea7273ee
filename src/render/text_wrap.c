/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text output's long lines, broken at blanks to fit 100 columns. */
#include "text_wrap.h"
#include <stdbool.h>
#include <string.h>

/* A unit after a number stays on the number's line: "100 %", "64 B", "9.6 Gbit/s". The unit may
 * end in punctuation ("%;", "B)"). */
static bool is_unit(const char *w, int n)
{
	static const char *const units[] = {"%",    "B",   "Gbit/s", "Mbit/s", "kbit/s", "GB/s",
					    "MB/s", "pps", "kpps",   "Mpps",   "ns",	 "us",
					    "ms",   "s",   "GT/s",   "MHz",    "GHz",	 "cycles"};
	while (n > 0 && strchr(",;:.)]", w[n - 1]))
		n--;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if ((int)strlen(units[i]) == n && !strncmp(w, units[i], (size_t)n))
			return true;
	return false;
}

/* The length of the word at p, a trailing unit included ("100 %" is one word). */
static int word_len(const char *p)
{
	const char *e = strchr(p, ' ');
	int n = e ? (int)(e - p) : (int)strlen(p);
	if (e && n > 0 && p[n - 1] >= '0' && p[n - 1] <= '9' && e[1] && e[1] != ' ') {
		const char *u = e + 1, *ue = strchr(u, ' ');
		int un = ue ? (int)(ue - u) : (int)strlen(u);
		if (is_unit(u, un))
			n += 1 + un;
	}
	return n;
}

void pcibw_text_wrapped(FILE *out, const char *prefix, const char *text)
{
	int indent = (int)strlen(prefix), col = fprintf(out, "%s", prefix);
	const char *p = text;
	bool first = true;
	while (*p) {
		int n = word_len(p);
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

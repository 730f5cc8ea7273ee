/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text output's long lines, broken at blanks to fit 100 columns. */
#include "text_wrap.h"
#include <stdbool.h>
#include <stdlib.h>
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

const char *pcibw_text_visible(const char *s, char *out, size_t n)
{
	size_t o = 0;
	if (!n)
		return out;
	for (; *s && o + 1 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c != 0x7f) {
			out[o++] = (char)c;
		} else if (o + 5 < n) {
			o += (size_t)snprintf(out + o, n - o, "\\x%02x", c);
		} else {
			break;
		}
	}
	out[o] = '\0';
	return out;
}

void pcibw_text_put_visible(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c != 0x7f)
			putc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
}

void pcibw_text_wrapped(FILE *out, const char *prefix, const char *text)
{
	int indent = (int)strlen(prefix), col = fprintf(out, "%s", prefix);
	/* a name inside text (an interface's, from a crafted copy) holding a newline would split
	 * the line: every control byte is shown as \xHH */
	size_t cap = strlen(text) * 4 + 1;
	char *shown = strpbrk(text, "\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11"
				    "\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f")
			  ? malloc(cap)
			  : NULL;
	const char *p = shown ? pcibw_text_visible(text, shown, cap) : text;
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
	free(shown);
}

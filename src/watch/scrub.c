/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Remove what identifies a host from a recording's text, keeping every length and offset. */
#include "pcibw/watch.h"
#include <ctype.h>
#include <string.h>

static void blank(char *p, size_t n)
{
	memset(p, 'x', n);
}

/* six pairs of hex digits joined by ':' or '-' (EUI-48, as ip link and ifconfig print it) */
static size_t mac_at(const char *s, size_t n)
{
	if (n < 17)
		return 0;
	for (int i = 0; i < 6; i++) {
		const char *g = s + 3 * i;
		if (!isxdigit((unsigned char)g[0]) || !isxdigit((unsigned char)g[1]))
			return 0;
		if (i < 5 && g[2] != ':' && g[2] != '-')
			return 0;
	}
	if (n > 17 && isxdigit((unsigned char)s[17]))
		return 0;
	return 17;
}

/* a.b.c.d with each part 0..255, not part of a longer dotted run (a version number) */
static size_t ipv4_at(const char *s, size_t n)
{
	size_t i = 0;
	for (int part = 0; part < 4; part++) {
		size_t d = 0;
		int v = 0;
		while (i < n && isdigit((unsigned char)s[i]) && d < 4) {
			v = v * 10 + (s[i] - '0');
			i++;
			d++;
		}
		if (d == 0 || d > 3 || v > 255)
			return 0;
		if (part < 3) {
			if (i >= n || s[i] != '.')
				return 0;
			i++;
		}
	}
	if (i < n &&
	    (isdigit((unsigned char)s[i]) || (s[i] == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))))
		return 0;
	return i;
}

/* hex groups joined by ':' with "::" somewhere or 7 colons: an IPv6 address. A PCI slot
 * (0000:03:00.0) has two colons and no "::", so it stays. */
static size_t ipv6_at(const char *s, size_t n)
{
	size_t i = 0;
	int colons = 0, group = 0;
	bool dbl = false;
	while (i < n && (isxdigit((unsigned char)s[i]) || s[i] == ':')) {
		if (s[i] == ':') {
			colons++;
			if (i + 1 < n && s[i + 1] == ':')
				dbl = true;
			group = 0;
		} else if (++group > 4) {
			return 0;
		}
		i++;
	}
	if (colons >= 7 || (dbl && colons >= 2))
		return i;
	return 0;
}

int pcibw_watch_scrub(char *text, size_t len, const char *const *names, int n)
{
	int count = 0;
	for (size_t i = 0; i < len;) {
		/* an address starts a word: not inside a dotted or colon-joined run (1.2.3.4.5) */
		bool start = i == 0 || (!isalnum((unsigned char)text[i - 1]) && text[i - 1] != '.' &&
					text[i - 1] != ':');
		size_t m = 0;
		if (start && (m = mac_at(text + i, len - i)) == 0 && (m = ipv6_at(text + i, len - i)) == 0)
			m = ipv4_at(text + i, len - i);
		for (int k = 0; start && !m && k < n; k++) {
			size_t w = strlen(names[k]);
			if (w && w <= len - i && !memcmp(text + i, names[k], w) &&
			    (i + w == len || !isalnum((unsigned char)text[i + w])))
				m = w;
		}
		if (m) {
			blank(text + i, m);
			count++;
			i += m;
		} else {
			i++;
		}
	}
	return count;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A JSON document whose long arrays go out element by element: jansson dumps the head with the
 * arrays empty, and the elements are written where their brackets stand, so the bytes are those
 * of dumping the whole tree.
 */
#include "json_stream.h"
#include <stdlib.h>
#include <string.h>

#define MAX_INDENT 28
static const char spaces[MAX_INDENT + 1] = "                            ";

/* s[0, len) with `indent` spaces after each newline */
static int put_indented(FILE *out, const char *s, size_t len, int indent)
{
	while (len) {
		const char *nl = memchr(s, '\n', len);
		size_t k = nl ? (size_t)(nl - s) + 1 : len;
		if (fwrite(s, 1, k, out) != k ||
		    (nl && fwrite(spaces, 1, (size_t)indent, out) != (size_t)indent))
			return -1;
		s += k;
		len -= k;
	}
	return 0;
}

int pcibw_json_stream_at(FILE *out, const json_t *head, size_t flags, int depth,
			 const struct pcibw_json_slot *slots, int n_slots)
{
	if (depth < 0 || 2 * depth + 4 > MAX_INDENT)
		return -1;
	char *text = json_dumps(head, flags);
	if (!text)
		return -1;
	int base = 2 * depth, rc = 0;
	const char *from = text;
	for (int s = 0; s < n_slots && !rc; s++) {
		if (slots[s].n <= 0)
			continue;
		/* a newline or quote inside a string is escaped, and a nested key stands deeper, so
		 * "\n  \"KEY\": [" occurs once: at the head's own key */
		char slot[128];
		snprintf(slot, sizeof slot, "\n  \"%s\": [", slots[s].key);
		char *at = strstr(from, slot);
		if (!at)
			continue;
		at += strlen(slot); /* just after the '[' of the empty array */
		rc = put_indented(out, from, (size_t)(at - from), base);
		for (int i = 0; i < slots[s].n && !rc; i++)
			rc = fputs(i ? "," : "", out) < 0 || put_indented(out, "\n", 1, base + 4) ||
			     slots[s].put(out, i, slots[s].ctx);
		/* the empty array's ']' follows: close it on its own line */
		rc = rc || put_indented(out, "\n", 1, base + 2);
		from = at;
	}
	rc = rc || put_indented(out, from, strlen(from), base);
	free(text);
	return rc ? -1 : 0;
}

int pcibw_json_put_value(FILE *out, const json_t *v, size_t flags, int depth)
{
	if (depth < 0 || 2 * depth > MAX_INDENT)
		return -1;
	char *text = json_dumps(v, flags | JSON_ENCODE_ANY);
	if (!text)
		return -1;
	int rc = put_indented(out, text, strlen(text), 2 * depth);
	free(text);
	return rc;
}

int pcibw_json_stream(FILE *out, const json_t *root, size_t flags, const char *key, int n,
		      pcibw_json_put_fn put, void *ctx)
{
	struct pcibw_json_slot s = {key, n, put, ctx};
	int rc = pcibw_json_stream_at(out, root, flags, 0, &s, 1);
	return rc || fputc('\n', out) == EOF ? -1 : 0;
}

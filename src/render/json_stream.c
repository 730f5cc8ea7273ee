/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A JSON document whose one long array goes out element by element: jansson dumps the head with
 * the array empty, and the elements are written where its brackets stand, so the bytes are those
 * of dumping the whole tree.
 */
#include "json_stream.h"
#include <stdlib.h>
#include <string.h>

int pcibw_json_stream(FILE *out, const json_t *root, size_t flags, const char *key, int n,
		      pcibw_json_put_fn put, void *ctx)
{
	char *head = json_dumps(root, flags);
	if (!head)
		return -1;
	/* a newline or quote inside a string is escaped, so "\n  \"KEY\": [" occurs once: at the
	 * top-level key itself */
	char slot[128];
	snprintf(slot, sizeof slot, "\n  \"%s\": [", key);
	char *at = strstr(head, slot);
	int rc = 0;
	if (!at || n == 0) {
		rc = fputs(head, out) < 0;
	} else {
		at += strlen(slot); /* just after the '[' of the empty array */
		rc = fwrite(head, 1, (size_t)(at - head), out) != (size_t)(at - head);
		for (int i = 0; i < n && !rc; i++)
			rc = fputs(i ? ",\n    " : "\n    ", out) < 0 || put(out, i, ctx);
		/* the empty array's ']' follows: close it on its own line */
		rc = rc || fputs("\n  ", out) < 0 || fputs(at, out) < 0;
	}
	free(head);
	return rc || fputc('\n', out) == EOF ? -1 : 0;
}

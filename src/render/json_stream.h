/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef PCIBW_RENDER_JSON_STREAM_H
#define PCIBW_RENDER_JSON_STREAM_H

#include <jansson.h>
#include <stdio.h>

/* put - write element i of the array at depth 2 (its first line unindented, every later line
 * indented as json_dumps(JSON_INDENT(2)) would indent it there); nonzero on a failed write. */
typedef int (*pcibw_json_put_fn)(FILE *out, int i, void *ctx);

/*
 * pcibw_json_stream - write root as json_dumps(root, flags) would, with the array under key
 * (its last top-level key, set to an empty array) filled by put(out, i, ctx) for i in [0, n),
 * one element at a time: memory holds the head and one element, however long the array.
 * flags must include JSON_INDENT(2) and JSON_PRESERVE_ORDER. A newline ends the document.
 * Returns 0, or -1 when the head cannot be dumped or a write (put's included) fails.
 */
int pcibw_json_stream(FILE *out, const json_t *root, size_t flags, const char *key, int n,
		      pcibw_json_put_fn put, void *ctx);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef PCIBW_RENDER_JSON_STREAM_H
#define PCIBW_RENDER_JSON_STREAM_H

#include <jansson.h>
#include <stdio.h>

/* put - write element i of a streamed array (its first line unindented, every later line
 * indented as json_dumps(JSON_INDENT(2)) would indent it at the array's element depth: 2 for
 * an array under a top-level key of the document); nonzero on a failed write. */
typedef int (*pcibw_json_put_fn)(FILE *out, int i, void *ctx);

/* One array of a head that goes out element by element: key is a key of the head's own object
 * (not a nested one) whose value is an empty array; n elements are written by put. */
struct pcibw_json_slot {
	const char *key;
	int n;
	pcibw_json_put_fn put;
	void *ctx;
};

/*
 * pcibw_json_stream_at - write head as json_dumps(head, flags) would write it at depth `depth`
 * of a larger document (0: the document itself; 2: an element of an array under a top-level
 * key; its first line unindented, each later line indented by 2 x depth more spaces), with the
 * arrays of slots[0..n_slots) (in the order their keys stand in head) filled one element at a
 * time by their put at depth depth + 2: memory holds the head and one element, however long the
 * arrays. flags must include JSON_INDENT(2) and JSON_PRESERVE_ORDER; depth is at most 12. No
 * newline is written after the head. Returns 0, or -1 when the head cannot be dumped or a
 * write (a put's included) fails.
 */
int pcibw_json_stream_at(FILE *out, const json_t *head, size_t flags, int depth,
			 const struct pcibw_json_slot *slots, int n_slots);

/* pcibw_json_put_value - write v as json_dumps(v, flags) would write it at depth `depth` (its
 * first line unindented, later lines 2 x depth spaces further in); depth at most 14. 0, or -1 on
 * a failed dump or write. */
int pcibw_json_put_value(FILE *out, const json_t *v, size_t flags, int depth);

/*
 * pcibw_json_stream - write root as json_dumps(root, flags) would, with the array under key (a
 * top-level key, set to an empty array) filled by put(out, i, ctx) for i in [0, n), one element
 * at a time (pcibw_json_stream_at at depth 0). A newline ends the document.
 * Returns 0, or -1 when the head cannot be dumped or a write (put's included) fails.
 */
int pcibw_json_stream(FILE *out, const json_t *root, size_t flags, const char *key, int n,
		      pcibw_json_put_fn put, void *ctx);

#endif

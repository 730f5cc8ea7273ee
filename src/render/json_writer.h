/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A JSON value written into a buffer in the layout json_dumps(JSON_INDENT(2) |
 * JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) gives it, members in the order they are put:
 * the structure is written here, the scalars are encoded by jansson (one reused real and string),
 * so a long array of objects costs no tree, hash or key sort per element. Keys are fixed ASCII
 * names (no escaping); strings that are not UTF-8 have their non-ASCII bytes written as '?'.
 */
#ifndef PCIBW_RENDER_JSON_WRITER_H
#define PCIBW_RENDER_JSON_WRITER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#define PCIBW_JW_DEPTH 14

struct pcibw_jw {
	char *p;
	size_t len, cap;
	json_t *real, *str; /* reused scalars */
	int depth;	    /* of the value being written (0: the document) */
	int open;	    /* containers open */
	bool first[PCIBW_JW_DEPTH];
	int err; /* a failed allocation or encoding: the buffer is not to be written */
};

/* pcibw_jw_reset - empty the buffer for a new value at depth `depth` (2: an element of an array
 * under a top-level key). */
void pcibw_jw_reset(struct pcibw_jw *w, int depth);
/* pcibw_jw_key - the next member of the open object: its key; a value follows */
void pcibw_jw_key(struct pcibw_jw *w, const char *key);
/* pcibw_jw_item - the next element of the open array; a value follows */
void pcibw_jw_item(struct pcibw_jw *w);
/* pcibw_jw_open, pcibw_jw_close - an object ('{', '}') or array ('[', ']'); empty ones are {}, [] */
void pcibw_jw_open(struct pcibw_jw *w, char c);
void pcibw_jw_close(struct pcibw_jw *w, char c);
/* values: a number (null unless finite), an integer, a string (null for NULL), a
 * boolean, null, or any jansson value (laid out at the current depth) */
void pcibw_jw_num(struct pcibw_jw *w, double v);
void pcibw_jw_int(struct pcibw_jw *w, long long v);
void pcibw_jw_str(struct pcibw_jw *w, const char *s);
void pcibw_jw_bool(struct pcibw_jw *w, bool v);
void pcibw_jw_null(struct pcibw_jw *w);
void pcibw_jw_json(struct pcibw_jw *w, const json_t *v);
/* pcibw_jw_write - the buffer to out: 0, or -1 on a failed write or an earlier error */
int pcibw_jw_write(struct pcibw_jw *w, FILE *out);
/* pcibw_jw_drain - what the buffer holds so far to out, emptied; the value goes on where it
 * stood (a long array written as it grows). 0, or -1 on a failed write or an earlier error. */
int pcibw_jw_drain(struct pcibw_jw *w, FILE *out);
void pcibw_jw_free(struct pcibw_jw *w);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The raw sample: named text blobs whose buffers are kept and only grow, so sampling in a loop
 * stops allocating once every file has been seen at its largest. */
#include "pcibw/watch.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pcibw_watch_blob_set(struct pcibw_watch_sample *s, const char *key, const char *text, size_t len,
			 struct pcibw_err *err)
{
	struct pcibw_watch_blob *b = (struct pcibw_watch_blob *)pcibw_watch_blob_get(s, key);
	if (!b) {
		if (s->n >= PCIBW_WATCH_MAX_BLOBS)
			return pcibw_fail(err, PCIBW_EINTERNAL, "more than %d files in one sample",
					  PCIBW_WATCH_MAX_BLOBS);
		b = &s->b[s->n++];
		snprintf(b->key, sizeof b->key, "%s", key);
		b->len = 0;
	}
	if (len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < len + 1)
			cap *= 2;
		char *p = realloc(b->text, cap);
		if (!p)
			return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		b->text = p;
		b->cap = cap;
	}
	if (len)
		memcpy(b->text, text, len);
	b->text[len] = '\0';
	b->len = len;
	return PCIBW_OK;
}

const struct pcibw_watch_blob *pcibw_watch_blob_get(const struct pcibw_watch_sample *s, const char *key)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->b[i].key, key))
			return &s->b[i];
	return NULL;
}

void pcibw_watch_sample_free(struct pcibw_watch_sample *s)
{
	for (int i = 0; i < PCIBW_WATCH_MAX_BLOBS; i++)
		free(s->b[i].text);
	memset(s, 0, sizeof *s);
}

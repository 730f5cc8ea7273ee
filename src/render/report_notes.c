/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report's warnings grouped by slot; see report_notes.h. */
#include "report_notes.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct notes_slot {
	const char *slot; /* NULL: empty entry */
	int first, count; /* its run in order[] */
	bool device;
};

static size_t slot_hash(const char *s, int cap)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (size_t)(h ^ h >> 31) & (size_t)(cap - 1);
}

static struct notes_slot *find(const struct report_notes *n, const char *slot, bool add)
{
	if (!n->cap)
		return NULL;
	size_t h = slot_hash(slot, n->cap);
	for (; n->slots[h].slot; h = (h + 1) & (size_t)(n->cap - 1))
		if (!strcmp(n->slots[h].slot, slot))
			return &n->slots[h];
	if (!add)
		return NULL;
	n->slots[h].slot = slot;
	return &n->slots[h];
}

int render_report_notes_build(struct report_notes *n, const struct pcibw_report *r)
{
	memset(n, 0, sizeof *n);
	n->r = r;
	int cap = 16;
	while (cap < 2 * (r->n_devices + r->n_warnings) + 2)
		cap *= 2;
	n->slots = calloc((size_t)cap, sizeof *n->slots);
	n->order = malloc((size_t)(r->n_warnings ? r->n_warnings : 1) * sizeof *n->order);
	if (!n->slots || !n->order) {
		render_report_notes_free(n);
		return -1;
	}
	n->cap = cap;
	for (int i = 0; i < r->n_devices; i++)
		find(n, r->devices[i].slot, true)->device = true;
	for (int i = 0; i < r->n_warnings; i++)
		find(n, r->warnings[i].slot, true)->count++;
	int at = 0;
	for (int h = 0; h < cap; h++)
		if (n->slots[h].slot) {
			n->slots[h].first = at;
			at += n->slots[h].count;
			n->slots[h].count = 0;
		}
	for (int i = 0; i < r->n_warnings; i++) {
		struct notes_slot *s = find(n, r->warnings[i].slot, false);
		n->order[s->first + s->count++] = i;
	}
	return 0;
}

const int *render_report_notes_of(const struct report_notes *n, const char *slot, int *count)
{
	const struct notes_slot *s = find(n, slot, false);
	*count = s ? s->count : 0;
	return *count ? n->order + s->first : NULL;
}

bool render_report_notes_is_device(const struct report_notes *n, const char *slot)
{
	const struct notes_slot *s = find(n, slot, false);
	return s && s->device;
}

void render_report_notes_free(struct report_notes *n)
{
	free(n->slots);
	free(n->order);
	n->slots = NULL;
	n->order = NULL;
	n->cap = 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_notes.h - a report's warnings grouped by the slot they are about, built once per
 * rendering, so that each device's notes are found without a pass over every warning (a dump of
 * thousands of devices carries thousands of warnings).
 */
#ifndef PCIBW_REPORT_NOTES_H
#define PCIBW_REPORT_NOTES_H

#include "pcibw/device.h"
#include <stdbool.h>

struct report_notes {
	const struct pcibw_report *r;
	struct notes_slot *slots; /* open-addressing table of the distinct slots (heap) */
	int cap;		  /* a power of two */
	int *order;		  /* warning indices, grouped by slot, in the report's order (heap) */
};

/* render_report_notes_build - index r's warnings (r must outlive n and stay unchanged). Returns 0, or
 * -1 when out of memory (n is then empty and safe to free). */
int render_report_notes_build(struct report_notes *n, const struct pcibw_report *r);

/* render_report_notes_of - the indices into r->warnings of the warnings about slot, in the report's
 * order; *count of them (0: none, the pointer then NULL). */
const int *render_report_notes_of(const struct report_notes *n, const char *slot, int *count);

/* render_report_notes_is_device - some device of the report has this slot (its warnings are printed in
 * that device's block). */
bool render_report_notes_is_device(const struct report_notes *n, const char *slot);

void render_report_notes_free(struct report_notes *n);

#endif

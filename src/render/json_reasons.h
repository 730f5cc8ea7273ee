/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef PCIBW_RENDER_JSON_REASONS_H
#define PCIBW_RENDER_JSON_REASONS_H

#include "json_writer.h"
#include "pcibw/reason.h"
#include <jansson.h>

/* pcibw_json_reasons - the `reasons` array beside an `evidence` array (doc/json.md "Reason
 * codes"): each {code, resource, value, ceiling, share, threshold, unit, row | group,
 * evidence_index, name}, null where a reason has no such figure; `group` where the reason
 * speaks of a group, else `row` (null for the whole input). */
json_t *pcibw_json_reasons(const struct pcibw_reason *v, int n);

/* pcibw_jw_reasons - the same array through a writer (a long document's rows), the same keys in
 * the same order */
void pcibw_jw_reasons(struct pcibw_jw *w, const struct pcibw_reason *v, int n);

#endif

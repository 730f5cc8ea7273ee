/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Groups of rows and the verdict rule over a set of rows: see groups.c. Internal to src/verdict. */
#ifndef PCIBW_VERDICT_GROUPS_H
#define PCIBW_VERDICT_GROUPS_H

#include "pcibw/verdict.h"
#include <stdbool.h>
#include <stddef.h>

/* verdict_of_counts - impossible if any; else the most common verdict that is not undetermined
 * (ties io, wire, cpu); undetermined only when every row is (or there are none). */
enum pcibw_verdict verdict_of_counts(const int counts[PCIBW_V_N]);

/* verdict_groups_build - s->groups and s->n_groups from the judged rows. -1 on out of memory. */
int verdict_groups_build(const struct pcibw_rows *rs, struct pcibw_summary *s);

/* verdict_same_key - do two rows share (source, series, test, interface, pattern, stated machine)? */
bool verdict_same_key(const struct pcibw_row *a, const struct pcibw_row *b);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one table of verdict thresholds: names, defaults (doc/cli-contract.md "Verdicts and
 * default thresholds"; the last four are this engine's own) and the ranges `--threshold` takes. */
#include "pcibw/number.h"
#include "pcibw/verdict.h"
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	size_t off;
	double def, lo, hi;
} table[] = {
    {"impossible", offsetof(struct pcibw_thresholds, impossible), 1.10, 1e-9, 10},
    {"wire", offsetof(struct pcibw_thresholds, wire), 0.95, 1e-9, 10},
    {"bus", offsetof(struct pcibw_thresholds, bus), 0.85, 1e-9, 10},
    {"cpu", offsetof(struct pcibw_thresholds, cpu), 0.90, 1e-9, 1},
    {"core", offsetof(struct pcibw_thresholds, core), 0.95, 1e-9, 1},
    {"elasticity", offsetof(struct pcibw_thresholds, elasticity), 0.5, 1e-9, 10},
    {"flat", offsetof(struct pcibw_thresholds, flat), 0.05, 1e-9, 1},
    {"flat_sizes", offsetof(struct pcibw_thresholds, flat_sizes), 3, 2, 1000},
    {"cpu_only", offsetof(struct pcibw_thresholds, cpu_only), 0.75, 1e-9, 1},
    {"idle", offsetof(struct pcibw_thresholds, idle), 0.60, 1e-9, 10},
    {"cycles_high", offsetof(struct pcibw_thresholds, cycles_high), 50000, 1, 1e12},
};
#define N_TABLE (sizeof table / sizeof table[0])

void pcibw_thresholds_default(struct pcibw_thresholds *t)
{
	for (size_t i = 0; i < N_TABLE; i++)
		*(double *)((char *)t + table[i].off) = table[i].def;
}

int pcibw_threshold_set(struct pcibw_thresholds *t, const char *arg, struct pcibw_err *err)
{
	char names[256];
	size_t o = 0;
	for (size_t i = 0; i < N_TABLE; i++)
		o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "", table[i].name);
	const char *eq = strchr(arg, '=');
	if (!eq)
		return pcibw_fail(err, PCIBW_EUSAGE, "--threshold '%s': expected NAME=VALUE (NAME one of %s)",
				  arg, names);
	for (size_t i = 0; i < N_TABLE; i++) {
		if (strlen(table[i].name) != (size_t)(eq - arg) ||
		    strncmp(arg, table[i].name, (size_t)(eq - arg)))
			continue;
		double v;
		const char *val = eq + 1;
		if (pcibw_number_scan(val, strlen(val), 0, &v) != PCIBW_NUM_OK || v < table[i].lo ||
		    v > table[i].hi || (!strcmp(table[i].name, "flat_sizes") && v != floor(v)))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--threshold %s: '%s' is not a value between %g and %g%s",
					  table[i].name, eq + 1, table[i].lo, table[i].hi,
					  !strcmp(table[i].name, "flat_sizes") ? " (a whole number)" : "");
		*(double *)((char *)t + table[i].off) = v;
		return PCIBW_OK;
	}
	return pcibw_fail(err, PCIBW_EUSAGE, "--threshold '%.*s': no such threshold (expected one of %s)",
			  (int)(eq - arg), arg, names);
}

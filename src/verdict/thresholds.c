/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one table of verdict thresholds: names, defaults (doc/cli-contract.md "Verdicts and
 * default thresholds") and the ranges `--threshold` takes. */
#include "pcibw/number.h"
#include "pcibw/verdict.h"
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ranges: a share of a ceiling or of the CPU lies in (0, 1] (above 1 no row could reach it);
 * impossible is a multiple of a ceiling, [1, 10] (below 1 every busy row would be impossible);
 * flat and cores_flat are spreads in (0, 1); elasticities (0, 10]. lo_open: lo itself refused. */
static const struct {
	const char *name;
	size_t off;
	double def, lo, hi;
	bool lo_open, hi_open;
} table[] = {
    {"impossible", offsetof(struct pcibw_thresholds, impossible), 1.10, 1, 10, false, false},
    {"wire", offsetof(struct pcibw_thresholds, wire), 0.95, 0, 1, true, false},
    {"bus", offsetof(struct pcibw_thresholds, bus), 0.85, 0, 1, true, false},
    {"cpu", offsetof(struct pcibw_thresholds, cpu), 0.90, 0, 1, true, false},
    {"core", offsetof(struct pcibw_thresholds, core), 0.95, 0, 1, true, false},
    {"elasticity", offsetof(struct pcibw_thresholds, elasticity), 0.5, 0, 10, true, false},
    {"flat", offsetof(struct pcibw_thresholds, flat), 0.05, 0, 1, true, true},
    {"flat_sizes", offsetof(struct pcibw_thresholds, flat_sizes), 3, 2, 1000, false, false},
    {"cpu_only", offsetof(struct pcibw_thresholds, cpu_only), 0.75, 0, 1, true, false},
    {"idle", offsetof(struct pcibw_thresholds, idle), 0.60, 0, 1, true, false},
    {"cycles_high", offsetof(struct pcibw_thresholds, cycles_high), 50000, 1, 1e12, false, false},
    {"notable", offsetof(struct pcibw_thresholds, notable), 0.75, 0, 1, true, false},
    {"cores_elasticity", offsetof(struct pcibw_thresholds, cores_elasticity), 0.5, 0, 10, true, false},
    {"cores_flat", offsetof(struct pcibw_thresholds, cores_flat), 0.05, 0, 1, true, true},
    {"tcp_window", offsetof(struct pcibw_thresholds, tcp_window), 0.70, 0, 1, true, false},
};
#define N_TABLE (sizeof table / sizeof table[0])

void pcibw_thresholds_default(struct pcibw_thresholds *t)
{
	for (size_t i = 0; i < N_TABLE; i++)
		*(double *)((char *)t + table[i].off) = table[i].def;
}

int pcibw_threshold_set(struct pcibw_thresholds *t, const char *arg, struct pcibw_err *err)
{
	char names[400];
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
		    v > table[i].hi || (table[i].lo_open && v == table[i].lo) ||
		    (table[i].hi_open && v == table[i].hi) ||
		    (!strcmp(table[i].name, "flat_sizes") && v != floor(v)))
			return pcibw_fail(
			    err, PCIBW_EUSAGE, "--threshold %s: '%s' is not a value in %c%g, %g%c%s",
			    table[i].name, eq + 1, table[i].lo_open ? '(' : '[', table[i].lo, table[i].hi,
			    table[i].hi_open ? ')' : ']',
			    !strcmp(table[i].name, "flat_sizes") ? " (a whole number)"
			    : !strcmp(table[i].name, "impossible")
				? " (a multiple of a ceiling: below 1 every loaded row would be impossible)"
			    : table[i].hi == 1 && !table[i].hi_open
				? " (a share of a ceiling or of the CPU: above 1 no row reaches it)"
				: "");
		*(double *)((char *)t + table[i].off) = v;
		return PCIBW_OK;
	}
	return pcibw_fail(err, PCIBW_EUSAGE, "--threshold '%.*s': no such threshold (expected one of %s)",
			  (int)(eq - arg), arg, names);
}

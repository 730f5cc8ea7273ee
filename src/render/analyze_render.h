/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output of `pcibw analyze`: a table with a plain-words summary, CSV, JSON (keys:
 * doc/cli-contract.md "analyze JSON", doc/json.md) and an SVG plot of the measured points over
 * the bus and wire ceilings. Each returns PCIBW_OK, or PCIBW_EINTERNAL on a write error.
 */
#ifndef PCIBW_ANALYZE_RENDER_H
#define PCIBW_ANALYZE_RENDER_H

#include "pcibw/ingest.h"
#include "pcibw/request.h"
#include "pcibw/verdict.h"
#include <stdio.h>

struct pcibw_analyze_view {
	const struct pcibw_rows *rows;
	const struct pcibw_summary *summary;
	const struct pcibw_machine *machine;
	const struct pcibw_thresholds *thresholds;
	const char *bus_spec;	/* canonical spec, "virtual", or NULL without a bus */
	const char *bus_from;	/* "--bus", "SLOT (source)" */
	const char *nic;	/* profile name */
	const char *pattern;	/* --pattern as resolved */
	const char *size_is;	/* --size-is as resolved */
	const char *cpu_origin; /* where cpus/cpu_mhz came from, "" */
	const struct pcibw_analyze_input *inputs;
	int n_inputs;
	long skipped;		     /* lines skipped over all inputs */
	const char *const *warnings; /* what the resolution warned of (no NIC profile for the ids) */
	int n_warnings;
	const char *const *warning_codes; /* the code of each warning, same order; NULL: none */
	bool wide;			  /* --wide: every column of the text table, whatever the width */
	const struct pcibw_cpu_sample *cpu_from;   /* --cpu-from as read, NULL when not given */
	const struct pcibw_series_machine *series; /* interfaces with a machine of their own */
	int n_series;
};

/* pcibw_analyze_pattern_name - a row's pattern ("rx", ..., "dma-rw") or "?" */
const char *pcibw_analyze_pattern_name(int pattern);

int pcibw_analyze_render_text(FILE *out, const struct pcibw_analyze_view *v);
int pcibw_analyze_render_json(FILE *out, const struct pcibw_analyze_view *v);
int pcibw_analyze_render_csv(FILE *out, const struct pcibw_analyze_view *v);

/* pcibw_analyze_render_plot - measured Gbit/s points over the bus and wire ceilings against
 * packet size (log axis), roofline style. PCIBW_ENOTHERE without cairo, PCIBW_EINPUT when the
 * file cannot be written, PCIBW_EUSAGE when no row has a size. */
int pcibw_analyze_render_plot(const char *path, const struct pcibw_analyze_view *v, struct pcibw_err *err);

#endif

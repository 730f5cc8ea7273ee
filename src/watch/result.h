/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building the results the watch loop hands its renderers (pcibw/watch_result.h). */
#ifndef PCIBW_WATCH_RESULT_INT_H
#define PCIBW_WATCH_RESULT_INT_H

#include "context.h"
#include "pcibw/watch_result.h"

/* watch_setup_fill - ctx->setup from the resolved context (pointers into ctx: valid while it is);
 * keeps setup.listed_all as the caller set it. */
void watch_setup_fill(struct watch_ctx *ctx);

/* watch_iv_result - interval iv's result: its rows (judged and worded) and sum as given, per
 * interface its rows, utilisations, CSV values, own verdict (watch_iface_verdict), modelled bus and
 * link state. r's index, flags and hops are the caller's. */
void watch_iv_result(const struct watch_ctx *ctx, const struct pcibw_watch_interval *iv,
		     const struct pcibw_rows *rows, const struct pcibw_summary *sum,
		     struct pcibw_watch_iv_result *r);

/* watch_interval_len - the interval the run asked for (the recording's, live the option's), else
 * the mean of the intervals seen; seconds, NAN with none. */
double watch_interval_len(const struct watch_ctx *ctx, long intervals, double seconds);

/* watch_summary_result - the summary's per-row buses and per-interface verdicts (after the rows
 * are worded: the verdicts point at their evidence; r's intervals and interval_s set first). PCIBW_OK or
 * PCIBW_EINTERNAL (out of memory). */
int watch_summary_result(const struct watch_ctx *ctx, const struct pcibw_rows *rows,
			 struct pcibw_watch_summary_result *r);

/* watch_summary_result_free - what watch_summary_result allocated. */
void watch_summary_result_free(struct pcibw_watch_summary_result *r);

#endif

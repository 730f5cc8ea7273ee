/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output of `pcibw watch`: text (one line per interface and interval, at most 100 columns, the
 * header again every 20 lines), JSON lines ("type": "interval" | "summary"), and CSV that
 * `pcibw analyze` reads back (doc/cli-contract.md "watch"). Each function returns PCIBW_OK or
 * PCIBW_EINTERNAL when the stream reports a write error.
 */
#ifndef PCIBW_RENDER_WATCH_H
#define PCIBW_RENDER_WATCH_H

#include "pcibw/verdict.h"
#include "pcibw/watch.h"
#include "src/watch/context.h"
#include <stdio.h>

/* One interval as rendered: the interval, its rows' verdict and the rows (for utilisations). */
struct watch_view {
	const struct pcibw_watch_interval *iv;
	const struct pcibw_rows *rows;
	const struct pcibw_summary *sum;
	const struct watch_ctx *ctx;
	long index;	     /* 1-based interval number */
	unsigned new_flags;  /* flags not raised in the interval before: their notes are printed */
	unsigned prev_flags; /* the flags of the interval before (text spells a changed set out) */
	long *lines;	     /* text lines printed so far (the header repeats every 20) */
	const struct watch_shared_ivs *shared; /* interfaces behind one hop, summed; NULL none */
	unsigned shared_new; /* groups (a bit each) whose hop started to limit: note printed */
};

/* The run's summary. */
struct watch_summary_view {
	const struct pcibw_rows *rows;
	const struct pcibw_summary *sum;
	const struct watch_ctx *ctx;
	long intervals;
	double seconds;
	/* the interval with the most packets, rx + tx summed over all its interfaces (the table is
	 * per interface and direction, so the summary says which sum it is) */
	double peak_t, peak_pps, peak_gbps;
	double peak_rx_pps, peak_tx_pps;     /* peak_pps's two directions */
	int peak_ifaces;		     /* interfaces in that interval */
	char peak_iface[PCIBW_WATCH_IFNAME]; /* the busiest of them */
	int busiest_cpu;		     /* over the run; -1 */
	double busiest_busy, busiest_t;
	unsigned flags;				/* every flag raised */
	char notes[PCIBW_WATCH_MAX_NOTES][200]; /* the first note of each flag */
	int n_notes;
	bool recording_full;
	const char *recording;		       /* --record DIR, or NULL */
	const char *stopped_by;		       /* "SIGINT", "SIGTERM", or NULL */
	const struct watch_shared_run *shared; /* each group's run figures (ctx->shared); NULL */
};

/* watch_interval_s - the interval the run asked for (the recording's, live the option's), else
 * the mean of the intervals seen; seconds. */
double watch_interval_s(const struct watch_ctx *ctx, const struct watch_summary_view *sv);

int watch_render_start_text(FILE *out, const struct watch_ctx *ctx);
int watch_render_text(FILE *out, const struct watch_view *v);
int watch_render_summary_text(FILE *out, const struct watch_summary_view *s);

int watch_render_json(FILE *out, const struct watch_view *v);
int watch_render_summary_json(FILE *out, const struct watch_summary_view *s);

/* The "# bus: ... nic: ... line_rate: ..." lines and the header row. */
int watch_render_start_csv(FILE *out, const struct watch_ctx *ctx);
int watch_render_csv(FILE *out, const struct watch_view *v);
int watch_render_summary_csv(FILE *out, const struct watch_summary_view *s);

/* One interval as a Prometheus exposition (watch_prom.c): per interface (device=IFACE) and
 * direction, packets and bits per second, bus, wire and CPU utilisation, the verdict. */
int watch_render_prometheus(FILE *out, const struct watch_view *v);

/* watch_row_of - the row of rows for interface iface and direction (pcibw_pattern), or NULL. */
const struct pcibw_row *watch_row_of(const struct pcibw_rows *rows, const char *iface, int direction);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `pcibw watch` loop: sample, parse, interval, verdict, render; record on the side. */
#ifndef PCIBW_WATCH_RUN_H
#define PCIBW_WATCH_RUN_H

#include "context.h"
#include <signal.h>
#include <stdio.h>

enum watch_format { WATCH_TEXT, WATCH_JSON, WATCH_CSV, WATCH_PROMETHEUS };

struct watch_run_opts {
	double interval; /* seconds between samples (live); a replay ignores it */
	long count;	 /* intervals to give, 0 = until the source ends or a signal */
	bool live;	 /* sleep between samples */
	enum watch_format format;
	FILE *out;
	const char *textfile;	/* WATCH_PROMETHEUS: replace this file each interval; NULL = out */
	const char *record_dir; /* NULL: no recording */
	unsigned long long record_max;
	const char *source; /* rows' source name ("live", the recording's DIR) */
	const char *where;  /* prefix of parse errors (the replay's DIR/samples), NULL live */
	struct pcibw_thresholds t;
	volatile sig_atomic_t *stop; /* set by a signal handler: the signal number */
};

/*
 * watch_run - the loop over s until count intervals, the end of a recording, or *stop; then the
 * summary (whole-run verdict by the shared engine over every interval's rows). Returns
 * PCIBW_OK; PCIBW_EINPUT for a bad recording or sample; PCIBW_EINTERNAL when the output or the
 * recording could not be written (err names which).
 */
int watch_run(struct watch_sampler *s, struct watch_ctx *ctx, const struct watch_run_opts *o,
	      struct pcibw_err *err);

#endif

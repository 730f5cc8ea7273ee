/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `pcibw watch` loop: sample, parse, interval, verdict, hand the result to a sink (the
 * command's renderer); record on the side. */
#ifndef PCIBW_WATCH_RUN_H
#define PCIBW_WATCH_RUN_H

#include "context.h"
#include "pcibw/watch_result.h"
#include <signal.h>

struct watch_run_opts {
	double interval;	/* seconds between samples (live); a replay ignores it */
	long count;		/* intervals to give, 0 = until the source ends or a signal */
	bool live;		/* sleep between samples */
	const char *record_dir; /* NULL: no recording */
	unsigned long long record_max;
	const char *source; /* rows' source name ("live", the recording's DIR) */
	const char *where;  /* prefix of parse errors (the replay's DIR/samples), NULL live */
	struct pcibw_thresholds t;
	volatile sig_atomic_t *stop; /* set by a signal handler: the signal number */
	bool recording_full;	     /* out: the recording stopped at record_max */
};

/*
 * watch_run - the loop over s until count intervals, the end of a recording, or *stop; then the
 * summary (whole-run verdict by the shared engine over every interval's rows), each handed to
 * sink as it is finished. Returns PCIBW_OK; PCIBW_EINPUT for a bad recording or sample;
 * PCIBW_EINTERNAL when the recording could not be written; a sink's error as it gave it.
 */
int watch_run(struct watch_sampler *s, struct watch_ctx *ctx, struct watch_run_opts *o,
	      const struct pcibw_watch_sink *sink, struct pcibw_err *err);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output of `pcibw watch`: text (one line per interface and interval, at most 100 columns, the
 * header again every 20 lines), JSON lines ("type": "interval" | "summary"), CSV that
 * `pcibw analyze` reads back, and a Prometheus exposition (doc/cli-contract.md "watch"). Each
 * prints what the watch loop hands it (pcibw/watch_result.h) and decides nothing; the command
 * (src/cli/cmd_watch.c) chooses one. Each returns PCIBW_OK or PCIBW_EINTERNAL when the stream
 * reports a write error.
 */
#ifndef PCIBW_RENDER_WATCH_H
#define PCIBW_RENDER_WATCH_H

#include "pcibw/watch_result.h"
#include <stdio.h>

/* The header lines: "watching ..." when every interface was listed, each interface's bus and
 * profile, the shared hops, the warnings, the flag letters. */
int render_watch_start_text(FILE *out, const struct pcibw_watch_setup *s);
/* One interval; *lines counts the table lines printed so far (the header repeats every 20). */
int render_watch_text(FILE *out, const struct pcibw_watch_iv_result *r, long *lines);
int render_watch_summary_text(FILE *out, const struct pcibw_watch_summary_result *s);

int render_watch_json(FILE *out, const struct pcibw_watch_iv_result *r);
int render_watch_summary_json(FILE *out, const struct pcibw_watch_summary_result *s);

/* The "# bus: ... nic: ... line_rate: ..." lines and the header row. */
int render_watch_start_csv(FILE *out, const struct pcibw_watch_setup *s);
int render_watch_csv(FILE *out, const struct pcibw_watch_iv_result *r);
int render_watch_summary_csv(FILE *out, const struct pcibw_watch_summary_result *s);

/* One interval as a Prometheus exposition (watch_prom.c): per interface (device=IFACE) and
 * direction, packets and bits per second, bus, wire and CPU utilisation, the verdict. r is a
 * struct pcibw_watch_iv_result (void: the signature pcibw_textfile_write takes). */
int render_watch_prometheus(FILE *out, const void *r);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/words.h - the one place that words verdicts (src/render/reason_words.c) and formats the
 * figures they print (src/render/figures.c). The verdict rules return reasons (pcibw/reason.h);
 * these functions turn them into the evidence sentences that text output prints and JSON
 * `evidence` carries, so the same figure reads the same in the table, the evidence, the headline
 * and the watch line.
 */
#ifndef PCIBW_WORDS_H
#define PCIBW_WORDS_H

#include "pcibw/verdict.h"
#include <stddef.h>

/*
 * pcibw_fmt_pct - a share (1.0 = 100 %) as a percent without the sign: rounded to the nearest
 * whole percent ("13" for 0.1264); where the share is compared with a threshold it has not
 * reached (below: that threshold as a share; NAN when the figure is compared with none) and its
 * whole percent would read as reaching the threshold's, one decimal cut towards zero instead
 * ("94.6" for 0.946 against 0.95), so it never reads as reaching it. "?" for NAN. buf holds n
 * bytes (n >= 8). Returns buf.
 */
const char *pcibw_fmt_pct(char *buf, size_t n, double share, double below);

/* pcibw_fmt_gbps - a bit rate in Gbit/s to 3 significant digits in the unit that reads best:
 * "550 Mbit/s", "8.92 Gbit/s", "1600 Gbit/s"; "?" for NAN. Returns buf. */
const char *pcibw_fmt_gbps(char *buf, size_t n, double gbps);

/* pcibw_fmt_pps - a packet rate in packets/s: "920 pps", "14.7 kpps", "1.3 Mpps"; "?" for NAN.
 * Returns buf. */
const char *pcibw_fmt_pps(char *buf, size_t n, double pps);

/* pcibw_fmt_bytes - "3.73 MB", "64 KB", "900 B" (10^3 multiples, as iperf3 prints Bytes). */
const char *pcibw_fmt_bytes(char *buf, size_t n, double bytes);

/* pcibw_fmt_us - a time in microseconds: "389 us", "77.2 ms". */
const char *pcibw_fmt_us(char *buf, size_t n, double us);

/*
 * pcibw_verdict_words - after pcibw_verdict_run (and any reasons a caller added to the summary):
 * each row's, group's and the summary's evidence, one sentence per evidence line of their reasons
 * (old evidence strings are freed first, so it may run again; s may be NULL: rows only). mach is the run's
 * machine as given to pcibw_verdict_run (a row with a machine of its own is worded with that). Out of memory,
 * a sentence is dropped (no error: the reasons stay complete).
 */
void pcibw_verdict_words(struct pcibw_rows *rs, const struct pcibw_machine *mach, struct pcibw_summary *s);

/* pcibw_summary_words - the same for the groups and the summary only (s not NULL): after a caller
 * changed the summary's reasons. */
void pcibw_summary_words(const struct pcibw_rows *rs, const struct pcibw_machine *mach,
			 struct pcibw_summary *s);

/*
 * pcibw_iface_idle_words - the evidence line of one interface's own verdict when it moved no packet
 * (x: an iface-idle reason): "idle: no packets on NAME during N intervals of S s", or "idle: no
 * packets" when the span is unknown (NAN: one interval of a run). buf holds n bytes. Returns buf.
 */
const char *pcibw_iface_idle_words(const struct pcibw_reason *x, char *buf, size_t n);

struct pcibw_watch_hop;
struct pcibw_watch_hop_iv;

/*
 * pcibw_hop_note_words - the note of a shared hop (pcibw/watch_result.h) in one interval: when it
 * is limiting, that its members together load it to its utilisation on the resource that binds it
 * while each is at most own_max of its own bus (the hop, not a NIC's own link, is the limit), and
 * the link it now reads at where it relinked; when it only relinked, that it is costed at the link
 * as it reads now. Shares by pcibw_fmt_pct. buf holds n bytes. Returns buf.
 */
const char *pcibw_hop_note_words(const struct pcibw_watch_hop *gr, const struct pcibw_watch_hop_iv *o,
				 char *buf, size_t n);

#endif

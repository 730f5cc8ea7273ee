/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `pcibw watch` knows of the machine beside the counters: per interface its bus (probed as
 * `report` does, or given), NIC profile and line rate, and the CPUs; and turning an interval
 * into measured rows for the shared verdict engine (pcibw/verdict.h).
 */
#ifndef PCIBW_WATCH_CONTEXT_H
#define PCIBW_WATCH_CONTEXT_H

#include "pcibw/model.h"
#include "pcibw/nic.h"
#include "pcibw/request.h"
#include "pcibw/verdict.h"
#include "pcibw/watch_result.h"
#include "recording.h"
#include "shared_hop.h"

/* One link state other than the resolved one: its own resolution, as a recording of that bus
 * would give (the profile's knobs settled for it), and its rows' machine. */
struct watch_link {
	int gen, lanes;
	unsigned no; /* its rows' machine_no: the context's link states numbered as first seen */
	struct pcibw_resolved res; /* in.bus points into it: never copied */
	struct pcibw_machine mach;
};

struct watch_if_model {
	bool have_bus;		   /* a bus with a ceiling (not virtual, not unknown) */
	bool virtual_nic;	   /* paravirtual or no device: no bus ceiling exists */
	struct pcibw_resolved res; /* the request layer's resolution of this interface (its in.bus
				    * points into it: never copied) */
	struct pcibw_machine mach; /* what the verdict knows of it (its rows' machine) */
	char why[256];		   /* why there is no bus ceiling, "" */
	/* the states seen besides the resolved one (gen and width as current_link_speed/_width read
	 * them), each modelled on its own however many: heap, n_links of cap_links, at most
	 * PCIBW_WATCH_MAX_LINK_STATES */
	struct watch_link **links;
	int n_links, cap_links;
	unsigned link_now;   /* the state of the interval being judged: 0 as resolved, else the no of
			      * one of links */
	bool link_changed;   /* ... which is not the one of the interval before (the first: of 0) */
	long link_changes;   /* intervals so far whose link_changed: each at least one retrain */
	long link_intervals; /* intervals so far */
	unsigned link_seen[PCIBW_WATCH_MAX_LINK_STATES + 1]; /* the states in the order first seen,
							      * 0 (as resolved) first */
	int n_link_seen;
};

struct watch_ctx {
	struct watch_meta meta;
	struct watch_if_model m[PCIBW_WATCH_MAX_IFACES];
	struct pcibw_watch_ifinfo info[PCIBW_WATCH_MAX_IFACES];
	struct pcibw_machine mach; /* the run's (pcibw_machine_merge of the interfaces') */
	struct pcibw_watch_warning warnings[PCIBW_WATCH_MAX_WARNINGS];
	int n_warnings;
	/* the link states numbered so far, over all interfaces: in the order the CSV states them,
	 * as analyze numbers the machines a file states again */
	unsigned link_nos;
	struct watch_shared shared;	 /* interfaces behind one bottleneck hop (shared_hop.h) */
	const struct pcibw_request *req; /* the options (watch_ctx_setup's): link states resolve with them */
	struct pcibw_watch_setup setup;	 /* what the renderers are handed (watch_ctx_setup) */
};

/*
 * watch_probe_meta - fill meta for the sampler's interfaces with what this machine says of them
 * before any resolution: each one's link speed (sysfs speed; --line-rate wins) and the CPUs
 * (pcibw_cpuinfo_live). The bus and the profile are the request layer's (watch_ctx_setup).
 */
void watch_probe_meta(const struct watch_sampler *s, double line_rate_gbps, double interval,
		      struct watch_meta *meta);

/*
 * watch_ctx_setup - each interface of ctx->meta resolved through the request layer
 * (pcibw_request_resolve_iface with req's options): live (probe true) its PCI device probed as
 * `-i IFACE` does, from a recording its recorded bus spec and profile. meta's bus, profile and
 * ids are then the resolution's (what a recording saves). The resolution's warnings go to
 * ctx->warnings. Returns PCIBW_OK; the request layer's error, PCIBW_EINPUT prefixed with
 * `where` (a recording's meta) for a recorded spec or profile that does not load.
 */
int watch_ctx_setup(struct watch_ctx *ctx, const struct pcibw_request *req, bool probe, const char *where,
		    struct pcibw_err *err);

/* watch_ctx_free - free what the resolutions hold. */
void watch_ctx_free(struct watch_ctx *ctx);

/*
 * watch_interval_rows - add the interval's measured rows (one per interface and direction that
 * moved packets: frame_bytes = bytes/packets + 4, pps, CPU and busiest core) to rs, as the CSV
 * output writes them (values rounded as printed, so `analyze` on that CSV groups and averages
 * the very same numbers), each keyed by the link state it was measured on (machine_no =
 * ctx->m[i].link_now, as analyze keys the rows after a "# bus:" line stated again). Returns
 * PCIBW_OK or PCIBW_EINTERNAL.
 */
int watch_interval_rows(const struct watch_ctx *ctx, const struct pcibw_watch_interval *iv,
			const char *source, struct pcibw_rows *rs, struct pcibw_err *err);

/*
 * watch_links_update - each interface's link state in interval iv (link_now, link_changed): 0
 * as resolved, else the state its current_link_speed/_width read (watch_current_link), resolved
 * on first sight through the request layer on that bus (ctx->req's options, a --bus among them
 * excepted: the link read is the bus; the interface's profile, line rate and CPUs). Returns
 * PCIBW_OK, or the request layer's error.
 */
int watch_links_update(struct watch_ctx *ctx, const struct pcibw_watch_interval *iv, struct pcibw_err *err);

/* watch_link_state - link state no of interface i (0: as resolved) as GT/s per lane and lanes;
 * false when it has no PCIe link. */
bool watch_link_state(const struct watch_ctx *ctx, int i, unsigned no, double *gts, int *width);

/* watch_link_res - interface i's resolution and machine in link state no (0: as resolved). */
const struct pcibw_resolved *watch_link_res(const struct watch_ctx *ctx, int i, unsigned no,
					    const struct pcibw_machine **mach);

/* watch_csv_values - the printed values of one row: frame bytes, pps, cpu %, busiest core %
 * (the text the CSV holds and the numbers the rows carry). false when the direction moved no
 * packet. */
bool watch_csv_values(const struct pcibw_watch_interval *iv, int i, bool rx, char frame[32], char pps[32],
		      char cpu[32], char core[32]);

/* watch_ceilings - each row's ceilings from its interface's resolution in the row's link state
 * (machine_no, watch_link_res; pcibw_row_ceilings: the bus model at its frame size and
 * direction, the wire at the line rate), and that state's machine. */
void watch_ceilings(struct pcibw_rows *rs, const struct watch_ctx *ctx);

/* watch_current_link - interface i's bus as its link is in interval iv when that differs from
 * the resolved one: a PCIe link of its own function whose current_link_speed or
 * current_link_width (re-read each sample) is not the probed or recorded gen and width; *b is
 * the resolved bus with that gen and width. false otherwise (iv NULL: the run's summary). */
bool watch_current_link(const struct watch_ctx *ctx, int i, const struct pcibw_watch_interval *iv,
			struct pcibw_bus *b);

/* watch_link_notes - for each interface whose link differs in iv from the resolved one
 * (watch_current_link), the LINK flag and a note saying the ceiling is that link's. */
void watch_link_notes(const struct watch_ctx *ctx, struct pcibw_watch_interval *iv);

/* watch_verdict - rows finished, ceilings (each row's link state's), the shared engine: fills
 * sum with verdicts and reasons (no words: the caller words them, pcibw_verdict_words, once every
 * reason is in). PCIBW_OK/EINTERNAL. */
int watch_verdict(struct pcibw_rows *rs, const struct watch_ctx *ctx, const struct pcibw_thresholds *t,
		  struct pcibw_summary *sum, struct pcibw_err *err);

/* watch_row_of - the row of rows for interface iface and direction (pcibw_pattern), or NULL. */
const struct pcibw_row *watch_row_of(const struct pcibw_rows *rows, const char *iface, int direction);

/*
 * watch_iface_verdict - interface name's verdict over the rows of rs (an interval's or the run's):
 * the whole-input rule over its rows, with the evidence and reasons of its busiest row holding that
 * verdict; one with no row moved no packet and is idle (undetermined, the reason iface-idle over
 * `intervals` intervals of interval_s, NAN unknown) when intervals > 0. v->word is the text
 * column's word ("gone" when present is false, "-" when valid is false).
 */
void watch_iface_verdict(const struct pcibw_rows *rs, const char *name, bool present, bool valid,
			 long intervals, double interval_s, struct pcibw_watch_if_verdict *v);

/*
 * watch_idle_reasons - the summary's reasons for interfaces that moved no packet over the run
 * (before the summary is worded): each idle interface is named as left out of the verdict
 * (iface-idle); with no row at all, the summary is built here, undetermined, its one line the
 * no-packets reason naming every interface (the engine is not run on nothing).
 */
void watch_idle_reasons(struct pcibw_summary *sum, const struct watch_ctx *ctx, const struct pcibw_rows *all,
			long intervals, double interval_s);

#endif

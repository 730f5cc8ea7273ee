/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/watch_result.h - what the `pcibw watch` loop (src/watch) hands a renderer: the run's setup
 * (each interface's bus, NIC profile and line rate, the shared hops, the warnings), each interval's
 * finished result (rows, verdicts with their reasons and words, per interface and per hop) and the
 * summary. Everything here is decided before a renderer sees it: a renderer prints these fields and
 * computes no verdict (doc/hacking.md "One-way data flow").
 *
 * The loop calls a struct pcibw_watch_sink, which the command (src/cli/cmd_watch.c) fills with the
 * renderer of the chosen format.
 */
#ifndef PCIBW_WATCH_RESULT_H
#define PCIBW_WATCH_RESULT_H

#include "pcibw/error.h"
#include "pcibw/reason.h"
#include "pcibw/verdict.h"
#include "pcibw/watch.h"
#include <stdbool.h>

#define PCIBW_WATCH_MAX_HOPS PCIBW_WATCH_MAX_IFACES
#define PCIBW_WATCH_HOP_REASONS 16
#define PCIBW_WATCH_MAX_WARNINGS 16

/* Interfaces behind one bottleneck hop (a switch uplink, a multi-port NIC's slot, a PCI/PCI-X
 * segment, an SR-IOV PF's link), added up against it. */
struct pcibw_watch_hop {
	char hop[32];			    /* the hop's slot; inferred: a device ("0000:03:00") or a
					     * segment ("0000:05") prefix */
	bool inferred;			    /* no hop was recorded: grouped by device or segment */
	bool segment;			    /* a shared PCI/PCI-X segment (half duplex: both
					     * directions on one budget) */
	char hop_bus[128];		    /* the hop as its first member's bus spec */
	int n;				    /* members, >= 1 */
	int member[PCIBW_WATCH_MAX_IFACES]; /* indices into the setup's interfaces, in order */
	bool vf[PCIBW_WATCH_MAX_IFACES];    /* that member is an SR-IOV VF */
	int n_vf;			    /* VFs among the members */
	char pf[32];			    /* the PF of its VFs, "" when none */
	bool pf_watched;		    /* that PF is a member */
	bool costed;			    /* every member has a bus on the hop and a NIC profile */
	char names[PCIBW_WATCH_MAX_IFACES * PCIBW_WATCH_IFNAME]; /* "eth0, eth1" */
	char why[256];						 /* why not costed, "" */
	char note[320]; /* about its VFs: grouped with the PF, or the PF unwatched */
};

/* One direction's sum over a hop's members in one interval. */
struct pcibw_watch_hop_dir {
	double pps, gbps;    /* summed; gbps counts the kernel's bytes (no FCS), as each member's */
	double frame_bytes;  /* summed bytes / summed packets + 4 (FCS); NAN with no packets */
	double util;	     /* this direction's traffic alone on the hop's most loaded resource, 0-1+ */
	double ceiling_mpps; /* summed packets/s the hop sustains at this mix, this direction alone */
};

/* A hop in one interval. */
struct pcibw_watch_hop_iv {
	bool valid;			   /* costed and some member moved packets */
	struct pcibw_watch_hop_dir rx, tx; /* NAN where unknown */
	double util;			   /* both directions together on the most loaded resource */
	const char *bound_by;		   /* that resource (pcibw_model_loads name), NULL */
	double own_max;			   /* the highest member utilisation of its own bus; NAN */
	bool relinked;			   /* a member's own link, the hop, reads other than modelled:
					    * costed at its current speed and width */
	char link[32];			   /* that link as it reads now ("8 GT/s x4"), "" */
	enum pcibw_verdict verdict;	   /* the shared engine's on the summed row */
	char evidence[4][2048];		   /* the first lines of that verdict's words, whole (a worded
					    * line is at most 2047 bytes) */
	int n_evidence;
	struct pcibw_reason reasons[PCIBW_WATCH_HOP_REASONS]; /* those of the evidence kept */
	int n_reasons;
	bool limiting;	/* the hop is io-bound or impossible while no member's own bus is */
	char note[320]; /* says so, "" */
};

struct pcibw_watch_hop_ivs {
	int n;
	struct pcibw_watch_hop_iv g[PCIBW_WATCH_MAX_HOPS];
};

/* A hop over the run. */
struct pcibw_watch_hop_summary {
	double peak_util[PCIBW_WATCH_MAX_HOPS], peak_t[PCIBW_WATCH_MAX_HOPS]; /* 0 / NAN none */
	long limiting[PCIBW_WATCH_MAX_HOPS];				      /* intervals it was limiting */
	struct pcibw_summary sum[PCIBW_WATCH_MAX_HOPS];
	bool have_sum[PCIBW_WATCH_MAX_HOPS]; /* sum was judged (the hop carried costed traffic) */
};

/* A warning of the resolution, as report's: the device it is about, a stable code
 * (doc/json.md "Warning codes"), the text. */
struct pcibw_watch_warning {
	char slot[32]; /* the interface's PCI slot, "" */
	const char *code;
	char text[400];
};

/* One watched interface as the run resolved it. Strings are "" when unknown. */
struct pcibw_watch_setup_if {
	const char *name, *slot, *dev, *driver;
	const char *bus;       /* the bus spec modelled (pcibw_bus_format), "" unknown */
	const char *bus_from;  /* where it came from ("0000:03:00.0 (live)") */
	const char *nic;       /* the NIC profile's name */
	double line_rate_gbps; /* 0 unknown */
	bool virtual_nic;      /* paravirtual or no device: no bus ceiling */
	bool have_bus;	       /* a bus with a ceiling */
};

/* The run before its first interval. */
struct pcibw_watch_setup {
	int n;
	struct pcibw_watch_setup_if ifs[PCIBW_WATCH_MAX_IFACES];
	bool listed_all; /* no interface was named: these are every one with a PCI device */
	int cpus;	 /* -1 unknown */
	double cpu_mhz;	 /* NAN unknown */
	int n_hops;
	const struct pcibw_watch_hop *hops; /* n_hops */
	int n_warnings;
	const struct pcibw_watch_warning *warnings; /* n_warnings */
};

/* One direction's figures as watch prints them in CSV and builds its rows from (frame bytes,
 * packets/s, all CPUs' busy %, the busiest core's %), so `analyze` on that CSV reaches the same
 * verdict. */
struct pcibw_watch_values {
	bool moved; /* the direction moved packets: a row exists */
	char frame[32], pps[32], cpu[32], core[32];
};

/* One interface's verdict over some rows (an interval's, or the run's). */
struct pcibw_watch_if_verdict {
	bool judged;		    /* it has rows; else it moved no packet (idle) */
	enum pcibw_verdict verdict; /* the whole-input rule over its rows; undetermined when idle */
	const char *word;	    /* the text column: the verdict's name, "idle", "gone" (vanished),
				     * "-" (no valid interval) */
	/* the evidence and reasons: those of its busiest row with that verdict, or the idle line */
	const char *const *evidence;
	int n_evidence;
	const struct pcibw_reason *reasons;
	int n_reasons;
	/* the idle line's storage */
	char idle_text[256];
	const char *idle_line[1];
	struct pcibw_reason idle_reason[1];
};

/* One interface in one interval. */
struct pcibw_watch_if_result {
	const struct pcibw_row *rx, *tx;     /* its rows (NULL: that direction moved no packet) */
	double bus_util, wire_util;	     /* the larger of the two directions'; NAN none */
	struct pcibw_watch_values values[2]; /* rx, tx */
	struct pcibw_watch_if_verdict v;
	char bus_modelled[128]; /* the bus this interval's ceiling was modelled on, "" none */
	bool link_changed;	/* its link state is not the interval before's */
	const char *link_bus;	/* ... and the bus spec of the state it is in now */
	long link_changes;	/* intervals so far, this one included, whose link changed: at least
				 * that many retrains (JSON link_changes, pcibw_link_retrains_total) */
};

/* An interface's link over the run: how often its speed or width changed between re-reads. */
struct pcibw_watch_link_run {
	long changes;	/* intervals whose link state was not the interval before's */
	long intervals; /* intervals its link was followed in */
	double gts[10]; /* the PCIe states seen (GT/s per lane, lanes), in the order first seen,
			 * the resolved one first; at most 10 */
	int width[10];
	int n_states;
};

/* One interval, finished. */
struct pcibw_watch_iv_result {
	const struct pcibw_watch_setup *setup;
	const struct pcibw_watch_interval *iv;
	const struct pcibw_rows *rows;	 /* the interval's rows, judged and worded */
	const struct pcibw_summary *sum; /* their verdict over all interfaces */
	long index;			 /* 1-based interval number */
	unsigned new_flags;		 /* flags not raised in the interval before: notes printed */
	unsigned prev_flags;		 /* the flags of the interval before */
	struct pcibw_watch_if_result ifs[PCIBW_WATCH_MAX_IFACES]; /* iv->n_ifs */
	const struct pcibw_watch_hop_ivs *hops;			  /* the hops this interval; NULL none */
	unsigned hops_new; /* hops (a bit each) that started to limit: their note is printed */
};

/* The run, finished. */
struct pcibw_watch_summary_result {
	const struct pcibw_watch_setup *setup;
	const struct pcibw_rows *rows;	 /* every interval's rows by (interface, direction, size) */
	const struct pcibw_summary *sum; /* their verdict; NULL when no interval was seen */
	const char **row_bus;		 /* per row of rows: the bus spec it was set against, NULL */
	long intervals;
	double seconds;
	double interval_s; /* the interval asked for, else the mean of those seen; NAN */
	/* the interval with the most packets, rx + tx summed over all its interfaces */
	double peak_t, peak_pps, peak_gbps;
	double peak_rx_pps, peak_tx_pps;     /* peak_pps's two directions */
	int peak_ifaces;		     /* interfaces in that interval */
	char peak_iface[PCIBW_WATCH_IFNAME]; /* the busiest of them */
	int busiest_cpu;		     /* over the run; -1 */
	double busiest_busy, busiest_t;
	unsigned flags;				/* every flag raised */
	char notes[PCIBW_WATCH_MAX_NOTES][200]; /* the first note of each flag */
	int n_notes;
	struct pcibw_watch_if_verdict ifs[PCIBW_WATCH_MAX_IFACES]; /* per setup interface */
	bool recording_full;
	const char *recording;			    /* --record DIR, or NULL */
	const char *stopped_by;			    /* "SIGINT", "SIGTERM", "SIGHUP", or NULL */
	const struct pcibw_watch_hop_summary *hops; /* per setup hop; NULL */
	struct pcibw_watch_link_run links[PCIBW_WATCH_MAX_IFACES]; /* per setup interface */
};

/*
 * What the loop calls, in order: start once, interval after each interval, summary at the end.
 * Each returns PCIBW_OK, or an error with err filled (PCIBW_EINTERNAL "cannot write output: ...":
 * the loop stops and returns it).
 */
struct pcibw_watch_sink {
	void *self;
	int (*start)(void *self, const struct pcibw_watch_setup *s, struct pcibw_err *err);
	int (*interval)(void *self, const struct pcibw_watch_iv_result *r, struct pcibw_err *err);
	int (*summary)(void *self, const struct pcibw_watch_summary_result *r, struct pcibw_err *err);
};

#endif

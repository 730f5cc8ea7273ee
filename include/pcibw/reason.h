/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/reason.h - why a verdict is what it is, as data. Every verdict rule (src/verdict) returns,
 * beside the verdict, a list of reasons: a stable code, the resource it speaks of and the figures it
 * used. No rule writes words: pcibw/words.h turns reasons into the evidence sentences of text and
 * JSON output, and JSON gives the reasons themselves (doc/json.md "Reason codes").
 *
 * To add a code: append it to enum pcibw_reason_code (before PCIBW_R_N), give its name in
 * src/verdict/reason.c (kebab-case, stable: scripts match it), its words in
 * src/render/reason_words.c, and its meaning and figures in doc/json.md.
 */
#ifndef PCIBW_REASON_H
#define PCIBW_REASON_H

#include <stddef.h>

enum pcibw_reason_code {
	/* the verdict rules of doc/cli-contract.md "Verdicts and default thresholds" */
	PCIBW_R_BEYOND_CEILING,	       /* measured > impossible x the bus or wire ceiling */
	PCIBW_R_WIRE_AT_THRESHOLD,     /* the wire at or above `wire` of the line rate */
	PCIBW_R_BUS_AT_THRESHOLD,      /* the bus at or above `bus` of its ceiling */
	PCIBW_R_CPUS_SATURATED,	       /* all CPUs at or above `cpu` */
	PCIBW_R_CORE_SATURATED,	       /* the busiest core at or above `core` */
	PCIBW_R_CPU_ONLY_LOADED,       /* the CPU at or above `cpu_only` while bus and wire idle */
	PCIBW_R_RATE_GROWS_WITH_CORES, /* d ln pps / d ln cores at or above `cores_elasticity` */
	PCIBW_R_RATE_FLAT_OVER_CORES,  /* packet rate within `cores_flat` while cores are added */
	PCIBW_R_RATE_ELASTIC_TO_WORK,  /* throughput falls with per-packet work (`elasticity`) */
	PCIBW_R_RATE_ELASTIC_TO_CLOCK, /* throughput rises with the CPU clock (`elasticity`) */
	PCIBW_R_RATE_FLAT_OVER_SIZES,  /* packet rate flat over >= flat_sizes sizes: per-packet limit */
	PCIBW_R_TRANSFER_RATE_FLAT,    /* the same for DMA transfers: the DMA engine or read latency */
	PCIBW_R_CYCLES_HIGH,	       /* cycles per packet above `cycles_high` */
	PCIBW_R_BELOW_THRESHOLD,       /* one known load below its threshold (listed on undetermined) */
	PCIBW_R_NONE_AT_THRESHOLD,     /* undetermined: no load reached its threshold; what to check */
	PCIBW_R_NIC_PER_PACKET,	       /* undetermined, rate flat over cores: the NIC's per-packet limit */
	PCIBW_R_TCP_WINDOW,	       /* undetermined: the TCP window bound holds the row (`tcp_window`) */
	PCIBW_R_ALSO_LOADED,	       /* a load at or above `notable` the verdict did not name */
	PCIBW_R_ASPM_IDLE_LINK,	       /* ASPM on while bus and wire are below `idle` */
	PCIBW_R_COUNTERS_INCONSISTENT, /* packet and bit rate disagree beyond what any header set allows */
	PCIBW_R_GOODPUT_ABOVE_WIRE,    /* TCP goodput above the most the line carries at that segment */
	PCIBW_R_LINK_DOWNGRADED,       /* the NIC's link runs below its capability (name: the cause) */
	PCIBW_R_SHARED_HOP,	       /* the bus share is near: the device's bottleneck hop (name) is
					* shared with other devices (value: how many, this one included;
					* ceiling: the hop's raw Gbit/s) */
	PCIBW_R_POLL_MODE,	       /* the row polls: its cores are busy by design (cycles per packet
					* per polling core where known) */
	/* what is missing */
	PCIBW_R_CPU_NOT_MEASURED,
	PCIBW_R_BUS_NOT_GIVEN,
	PCIBW_R_BUS_VIRTUAL,	/* a virtual NIC: no bus ceiling exists */
	PCIBW_R_NO_BUS_CEILING, /* the model gave no ceiling at this size (the row's model_note) */
	PCIBW_R_LINE_RATE_NOT_GIVEN,
	PCIBW_R_WRITE_SIZE,		  /* a TCP write size: no packet rate */
	PCIBW_R_CORES_SWEEP_NOT_MEASURED, /* a poll-mode row without a cores sweep: what to measure */
	/* figures of the row that are not a rule */
	PCIBW_R_DMA_AGAINST_MODEL,	 /* a DMA row's measured rate against the model's */
	PCIBW_R_TCP_SEGMENTS,		 /* the packet rate of a TCP row rests on its segment size */
	PCIBW_R_UDP_FRAGMENTS,		 /* a UDP datagram above the MTU goes as IP fragments */
	PCIBW_R_TCP_WINDOW_SHARE,	 /* the TCP window bound and the measured share of it */
	PCIBW_R_CPU_FROM_REPORT,	 /* the CPU came from an mpstat/sar report */
	PCIBW_R_CPU_PROCESS_LOWER_BOUND, /* iperf3's own process CPU (share), overridden by the host's */
	PCIBW_R_CPU_REPORT_UNUSED, /* a host report (share: its all CPUs) the row's own host figure beat */
	PCIBW_R_RATES_DISAGREE,	   /* the bit-rate column and the packet rate disagree by > 10 % */
	PCIBW_R_ESTIMATE_EXCEEDED, /* measured above an estimated limit: set against the link alone */
	PCIBW_R_CPU_SHARED,	   /* a concurrent row: the other direction's stream (row) shared its CPU */
	PCIBW_R_LOOPBACK,	   /* the test ran over loopback: bus and wire do not apply */
	/* the whole input */
	PCIBW_R_NO_ROWS,	    /* nothing was measured */
	PCIBW_R_VERDICT,	    /* the headline: the representative row's verdict (row) */
	PCIBW_R_ROWS_AGREE,	    /* how many rows hold the verdict (value) of all (ceiling) */
	PCIBW_R_SERIES_BANDS,	    /* one series' verdicts by size band (group: its first) */
	PCIBW_R_MORE_SERIES,	    /* series left out of the headline (value) */
	PCIBW_R_BUS_NOTE,	    /* why the modelled bus is not the device's own link */
	PCIBW_R_IFACE_IDLE,	    /* watch: an interface (name) moved no packet in value intervals */
	PCIBW_R_NO_PACKETS,	    /* watch: no interface moved a packet (name: the first) */
	PCIBW_R_BUS_IN_BAND,	    /* io-bound: where the row sits in its ceiling's band */
	PCIBW_R_BUS_ABOVE_EXPECTED, /* io-bound above the expected ceiling, within the band's high end */
	PCIBW_R_N,
};

/* What a reason speaks of. */
enum pcibw_resource {
	PCIBW_RES_NONE,
	PCIBW_RES_BUS,
	PCIBW_RES_WIRE,
	PCIBW_RES_CPU,	/* all CPUs */
	PCIBW_RES_CORE, /* the busiest core */
	PCIBW_RES_TCP_WINDOW,
	PCIBW_RES_ROOT_COMPLEX,
	PCIBW_RES_NIC,
	PCIBW_RES_N,
};

/*
 * One reason. Figures are NAN where the reason has none; which ones each code fills is in
 * doc/json.md. Shares are fractions (1.0 = the ceiling or all of the CPU), so are thresholds
 * that are shares; value and ceiling are in unit (shared-hop: value counts devices, ceiling is
 * the hop's Gbit/s, doc/json.md).
 */
struct pcibw_reason {
	enum pcibw_reason_code code;
	enum pcibw_resource resource;
	double value;	    /* the measured figure, in unit */
	double ceiling;	    /* what it is set against, in unit */
	double share;	    /* value / ceiling, or a load as a fraction */
	double threshold;   /* the threshold the rule compared with */
	const char *unit;   /* "Gbit/s", "pps", "cycles", "rows", ... (static); NULL */
	int row;	    /* the row (index into pcibw_rows.v) it speaks of; -1 */
	int group;	    /* the group (index into pcibw_summary.groups); -1 */
	int evidence_index; /* the evidence line it is worded in (several reasons may share one) */
	double span_s;	    /* a time span it speaks of, s (watch: the interval length); NAN */
	char name[32];	    /* a name the reason gives: an interface (watch idle), a model limit
			     * (estimate-exceeded); "" */
};

/* at most this many reasons per row or group (a row has at most PCIBW_MAX_EVIDENCE lines) */
#define PCIBW_MAX_REASONS 20
/* ... and per summary */
#define PCIBW_MAX_SUMMARY_REASONS 32

/* pcibw_reason_code_name - the stable code ("bus-at-threshold"); "?" out of range. */
const char *pcibw_reason_code_name(enum pcibw_reason_code c);

/* pcibw_resource_name - "bus", "wire", "cpu", "core", "tcp-window", "root-complex", "nic"; NULL
 * for PCIBW_RES_NONE or out of range. */
const char *pcibw_resource_name(enum pcibw_resource r);

/*
 * pcibw_reason_push - append a reason with every figure NAN, row and group -1, on evidence line
 * `line` (the caller counts its lines), to v (n entries, max room). Returns the new reason, or
 * NULL when v is full (the reason is dropped: the first reasons explain the verdict).
 */
struct pcibw_reason *pcibw_reason_push(struct pcibw_reason *v, int *n, int max, enum pcibw_reason_code code,
				       enum pcibw_resource res, int line);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/verdict.h - set measured rows against the bus ceiling (the model), the wire and the CPU,
 * and say which limits the host: impossible, wire-bound, io-bound, cpu-bound or undetermined.
 * Rules, their order and the default thresholds: doc/cli-contract.md, "Verdicts and default
 * thresholds". The engine takes ceilings as plain numbers in each row (filled by the caller from
 * pcibw_model_eval), so it needs no model to be tested.
 *
 * Units: rates in packets/s and Gbit/s (10^9 bit/s) counting the bytes of the row's size
 * convention; utilisations as fractions (1.0 = the ceiling); CPU shares as fractions 0-1.
 */
#ifndef PCIBW_VERDICT_H
#define PCIBW_VERDICT_H

#include "pcibw/error.h"
#include "pcibw/measure.h"
#include "pcibw/reason.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Verdicts in the contract's tie-break order after impossible: io, wire, cpu, undetermined. */
enum pcibw_verdict {
	PCIBW_V_IMPOSSIBLE,
	PCIBW_V_IO,
	PCIBW_V_WIRE,
	PCIBW_V_CPU,
	PCIBW_V_UNDETERMINED,
	PCIBW_V_N,
};

/* pcibw_verdict_name - "impossible", "io-bound", "wire-bound", "cpu-bound", "undetermined"; "?"
 * for PCIBW_V_N or any other value. */
const char *pcibw_verdict_name(enum pcibw_verdict v);

/* The thresholds of the contract (`--threshold NAME=VALUE`). Ratios are fractions of a ceiling or
 * of the CPU (1.0 = all of it); each default follows its colon. */
struct pcibw_thresholds {
	double impossible;	 /* measured > this x the bus or wire ceiling: 1.10 */
	double wire;		 /* measured >= this x the wire ceiling: 0.95 */
	double bus;		 /* measured >= this x the bus ceiling: 0.85 */
	double cpu;		 /* all CPUs busy at least this share: 0.90 */
	double core;		 /* busiest core at least this share: 0.95 */
	double elasticity;	 /* |elasticity| of throughput to work or cpu_mhz: 0.5 */
	double flat;		 /* packet rates within this spread (max-min)/max count as flat: 0.05 */
	double flat_sizes;	 /* ... over at least this many sizes: 3 */
	double cpu_only;	 /* CPU at least this share ... : 0.75 */
	double idle;		 /* ... while bus and wire are both below this: 0.60 */
	double cycles_high;	 /* cycles per packet above which a CPU-bound row is suspiciously slow
				  * (case M: 20 kpps on a 2.6 GHz core is 130,000): 50000 */
	double notable;		 /* a resource at least this share of its ceiling is named on every row,
				  * whatever the verdict: 0.75 */
	double cores_elasticity; /* packet rate growing with cores at least this elasticity
				  * (d ln pps / d ln cores): a per-core CPU limit: 0.5 */
	double cores_flat;	 /* packet rate within this spread while cores are added: not the
				  * CPU: 0.05 */
	double tcp_window;	 /* a TCP row measured at least this share of what its window allows per
				  * round trip (window / RTT) is held by the TCP path: 0.70 */
};

/* pcibw_thresholds_default - the contract's defaults. */
void pcibw_thresholds_default(struct pcibw_thresholds *t);

/*
 * pcibw_threshold_set - apply one `NAME=VALUE` (names as the fields above, exact; VALUE in plain
 * decimal). Ranges: impossible [1, 10] (a multiple of a ceiling); wire, bus, cpu, core, cpu_only,
 * idle and notable (0, 1] (shares); flat and cores_flat (0, 1) (spreads); elasticity and
 * cores_elasticity (0, 10]; flat_sizes a whole number 2..1000; cycles_high 1..10^12. Returns
 * PCIBW_OK or PCIBW_EUSAGE naming the bad part and the range (or listing the names); t is
 * untouched on error.
 */
int pcibw_threshold_set(struct pcibw_thresholds *t, const char *name_eq_value, struct pcibw_err *err);

#define PCIBW_MAX_EVIDENCE 12

/*
 * One output row: the input lines that share every key (source, series, test, iface, size, size
 * convention, direction, work, cpu_mhz, cores, queues, threads, streams, machine_no), averaged (NAN keys
 * match each other: "not given" is one value; a line without a size is its own row). The caller fills the
 * "ceilings" part between pcibw_rows_finish() and pcibw_verdict_run().
 */
struct pcibw_row {
	/* key */
	char source[512];
	char series[PCIBW_MEASURE_TEXT];
	double size_bytes; /* NAN when the input gave none */
	enum pcibw_size_is size_conv;
	int direction;				/* pcibw_pattern or PCIBW_DIR_UNSET */
	double work, cpu_mhz;			/* NAN when not given */
	double cores, queues, threads, streams; /* NAN when not given */
	char test[PCIBW_MEASURE_TEXT];
	char iface[PCIBW_MEASURE_TEXT];
	bool tcp;
	bool concurrent;		/* pcibw_measured.concurrent: a stream the other way shared its CPU */
	int poll_mode;			/* pcibw_measured.poll_mode: 1, 0, PCIBW_NULL */
	bool loopback;			/* pcibw_measured.loopback: bus and wire do not apply */
	double mss;			/* the benchmark's TCP MSS (first line's), bytes; NAN */
	struct pcibw_tcp_path tcp_path; /* the first line's TCP path figures (pcibw/measure.h) */
	bool ipv6;
	unsigned machine_no; /* the stated machine it was measured on (pcibw_measured.machine_no) */
	unsigned first_line; /* line of the group's first input row (0: whole file) */
	long count;	     /* input lines in the group */

	/* running sums (pcibw_rows_add) of the measured fields that were not NAN, in their input
	 * units (pps, Gbit/s, CPU percent 0-100, µs/KB), and how many lines gave each */
	double s_pps, s_gbps, s_cpu, s_core, s_rcpu, s_sd;
	long n_pps, n_gbps, n_cpu, n_core, n_rcpu, n_sd;
	enum pcibw_rate_basis gbps_basis; /* the group's first line's */
	int n_cores;			  /* the most per-core columns any line of the group had */

	/* packets the input's size stood for (pcibw_rows_packets): a TCP row's write or segment size
	 * became segments of segment_bytes (size_bytes is then their IP packet), a UDP datagram
	 * larger than the MTU became `fragments` IP fragments (size_bytes their mean IP packet) */
	double input_size_bytes;  /* the size as the input gave it; NAN when unchanged */
	double segment_bytes;	  /* TCP payload per segment; NAN */
	const char *segment_from; /* "iperf3", "--mtu", "the size column"; NULL */
	int fragments;		  /* IP fragments per datagram; 0 when not fragmented */
	double mtu;		  /* the MTU used, bytes */

	/* the CPU from a sysstat report (pcibw_rows_cpu): NULL when the row's own */
	const struct pcibw_cpu_sample *cpu_from;
	/* a host report the row did not take because its own columns measured the host (the
	 * row's own wins): NULL */
	const struct pcibw_cpu_sample *cpu_from_unused;
	bool core_is_process;	  /* core_max_pct is one process's share (iperf3): a lower bound */
	double process_core_util; /* that process figure where a host report overrode it, 0-1; NAN */

	/* measured (pcibw_rows_finish, then pcibw_row_rates) */
	double pps;  /* packets/s; NAN unknown */
	double gbps; /* Gbit/s in the size convention (as given for write sizes); NAN */
	double cpu_util, core_util, remote_util; /* 0-1; NAN */
	double sd_us_per_kb;	  /* µs of CPU per KB (1024 B) moved; stated or computed; NAN */
	double cycles_per_packet; /* CPU cycles per packet; NAN */
	double rate_mismatch;	  /* both rates given: the bit rate as given / the one the packet
				   * rate implies at basis_bytes, minus 1 (0.31 = 31 % higher); NAN */

	/* ceilings: filled by the caller (NAN = unknown) */
	int pattern;		   /* the pattern the model was asked for (pcibw_rows_finish
				    * presets it to direction) */
	double packet_bytes;	   /* bytes of one packet in the row's size convention (= size) */
	double basis_bytes;	   /* bytes one packet counts in gbps_basis (to turn Gbit/s into pps) */
	double bus_mpps, bus_gbps; /* bus ceiling at this size: Mpps, Gbit/s (pcibw_model_row) */
	double bus_mpps_low, bus_mpps_high, bus_gbps_low, bus_gbps_high; /* its band (pcibw_model_row);
									  * NAN unknown */
	double wire_mpps, wire_gbps; /* wire ceiling at this size: Mpps, Gbit/s */
	const char *bound_by;	     /* model's reason, static string, or NULL */
	/* the machine of this row when it is not the run's: a series with a bus of its own (one
	 * interface among several); NULL = the run's (pcibw_verdict_run's mach). It must outlive
	 * the rows' use. */
	const struct pcibw_machine *machine;
	char model_note[256]; /* why the model gave no ceiling, "" */

	/* results (pcibw_verdict_run) */
	double bus_util, wire_util;	    /* measured / ceiling; NAN unknown */
	double bus_util_low, bus_util_high; /* measured / the band's high and low ceilings (so low <=
					     * bus_util <= high); NAN unknown */
	bool wire_lower_bound;		    /* wire_util counts no per-packet overhead (no packet size: TCP
					     * writes, or no size column) and so is a lower bound */
	double elasticity;		    /* NAN unless work or cpu_mhz varied at this size */
	const char *elasticity_of;	    /* "work" or "cpu_mhz" */
	bool per_packet;		    /* in a run of >= flat_sizes sizes with flat pps */
	double cores_elasticity;	    /* d ln pps / d ln cores over rows that differ only in cores
					     * (or, without a cores column, queues or threads); NAN */
	const char *cores_of;		    /* "cores", "queues" or "threads"; NULL */
	double cores_lo, cores_hi, cores_pps_lo, cores_pps_hi;	     /* that sweep's cores and its lowest
								      * and highest packet rate; NAN */
	double flat_pps_lo, flat_pps_hi, flat_size_lo, flat_size_hi; /* that run's packets/s and
								      * sizes (bytes); NAN when none */
	double tcp_window_share; /* measured bit rate / the TCP window bound (tcp_path.window_gbps, else
				  * max_window_gbps); NAN without one */
	bool tcp_limit;		 /* that share reached the `tcp_window` threshold: the TCP path (window,
				  * RTT, loss) is the likely limit of an undetermined row */
	bool polls;		 /* the row polls (its poll_mode, else the machine's profile): its CPU
				  * share is busy by design and decides nothing */
	int partner;	 /* a concurrent row: the row of the other direction that shared its CPU; -1 */
	unsigned limits; /* every resource at or above its threshold: bits 1 << enum pcibw_resource
			  * (pcibw_limits_names); 0 for impossible and undetermined rows without one */
	enum pcibw_verdict verdict;
	struct pcibw_reason reasons[PCIBW_MAX_REASONS]; /* why (pcibw_verdict_run; pcibw/reason.h) */
	int n_reasons;
	char *evidence[PCIBW_MAX_EVIDENCE]; /* the reasons in words, heap strings (pcibw_verdict_words,
					     * pcibw/words.h) */
	int n_evidence;
};

struct pcibw_rows {
	struct pcibw_row *v;
	int n, cap;
	int *hash; /* open addressing over v, hcap slots (a power of 2, at most half full) */
	int hcap;  /* 0 before the first pcibw_rows_add: zero the whole struct to start */
	/* the hash of the last line's key strings (source, series, test, interface), and the row
	 * that line went to (to check the next line still has them) */
	uint64_t last_src_hash;
	int last_src_row; /* -1 none */
	int *rep;	  /* per row (cap entries): a row with the same key strings; rows of one rep
			   * share them (a row is its own rep where none was known) */
};

/*
 * pcibw_rows_add - add one measured row to its group (created on first sight). Memory grows with
 * the number of distinct groups, never with the number of lines. rs starts zeroed. Strings longer
 * than the row's buffers are truncated.
 * Returns PCIBW_OK or PCIBW_EINTERNAL (out of memory).
 */
int pcibw_rows_add(struct pcibw_rows *rs, const struct pcibw_measured *m, struct pcibw_err *err);

/* pcibw_rows_finish - turn each group's sums into means (pps, gbps as given, CPU percentages into
 * shares 0-1; NAN where no line gave the figure), and set every ceiling and result field to NAN
 * (verdict undetermined) for the caller to fill. */
void pcibw_rows_finish(struct pcibw_rows *rs);

/*
 * pcibw_row_rates - once the caller set packet_bytes and basis_bytes: the packet rate from a bit
 * rate where only that was measured (pps = Gbit/s x 10^9 / (8 x basis_bytes)), and the bit rate
 * in the size convention from the packet rate (Gbit/s = pps x packet_bytes x 8 / 10^9). The
 * contract: a pps column wins over a bit-rate column; where both were given, rate_mismatch says
 * how far the bit rate was from the packet rate's (pcibw_verdict_run states it above 10 %).
 * Rows of TCP write sizes (PCIBW_SIZE_WRITE) keep their bit rate and get no packet rate; rows
 * pcibw_rows_packets gave segments or fragments keep both rates (the bit rate is the payload's).
 */
void pcibw_row_rates(struct pcibw_row *r);

/*
 * pcibw_rows_packets - after pcibw_rows_finish, before the ceilings: give rows whose size is no
 * packet size a packet rate (mtu: the IP MTU in bytes, 68..65536; option: what a `size` column
 * counts, the --size-is convention as a pcibw_size_conv).
 * - TCP (a write size, a TCP row without a size, or a tcp-payload size): packets = goodput /
 *   segment payload, the segment being the MSS the benchmark reported, else mtu - 52 (IPv4 20 B +
 *   TCP 20 B + the 12 B timestamp option, RFC 7323, on by Linux's default) or mtu - 72 over
 *   IPv6, or the size itself for tcp-payload. Full segments are assumed (Nagle and TSO/GSO
 *   coalesce small writes), so the packet rate is a lower bound. The row becomes an IP packet
 *   (PCIBW_SIZE_L3) of segment + headers with that packet rate.
 * - UDP: a datagram whose IP packet (payload + 28) exceeds mtu goes as ceil((payload + 8) /
 *   floor8(mtu - 20)) IP fragments (RFC 791 sec. 3.2: fragment data in multiples of 8 B): the
 *   packet rate is datagrams x fragments, the size their mean IP packet.
 * Rows of another kind are untouched.
 */
void pcibw_rows_packets(struct pcibw_rows *rs, double mtu, enum pcibw_size_is option);

/*
 * pcibw_rows_cpu - after pcibw_rows_finish: the CPU of the run from an mpstat/sar report (c, which
 * must outlive rs), a figure of the whole host, for every row that measured no host CPU of its
 * own: cpu_util from its "all" busy share, core_util the larger of its busiest CPU and the row's
 * own per-process figure (iperf3's cpu_utilization_percent, core_is_process: a lower bound on one
 * core, kept in process_core_util). A row whose own columns measured the host (CSV cpu_pct,
 * cpuN_pct, core_max_pct) keeps them, and cpu_from_unused names the report for a note; a row
 * already filled from an earlier report keeps that one. The verdict then names irq+softirq time,
 * which a user-space soaker cannot see.
 */
void pcibw_rows_cpu(struct pcibw_rows *rs, const struct pcibw_cpu_sample *c);

/* pcibw_rows_free - free the rows, their evidence strings and the hash; rs is zeroed, reusable. */
void pcibw_rows_free(struct pcibw_rows *rs);

/* What the engine knows of the machine beyond each row's ceilings. */
struct pcibw_machine {
	bool have_bus;	       /* a bus spec or a probed device gave ceilings */
	bool bus_virtual;      /* a paravirtual NIC: no bus ceiling exists */
	char bus_name[96];     /* "PCI-X 133/64", "PCIe gen3 x8"; "" */
	double line_rate_gbps; /* 0 = no wire ceiling given */
	int cpus;	       /* PCIBW_NULL (-1) unknown */
	double cpu_mhz;	       /* NAN unknown */
	int aspm;	       /* the NIC link's ASPM state, PCIBW_ASPM_* bits; 0 off, -1 unknown */
	/* the NIC's link runs below its capability for a cause with a fix (the report's link_cause,
	 * pcibw/device.h, other than partner-limited): its code (static), NULL when not; the link now
	 * and its capability; what to do */
	const char *link_cause;
	double link_gts, link_cap_gts;
	int link_width, link_cap_width;
	char link_fix[400];
	/* the device's bottleneck hop (the report's bottleneck_slot) when other devices use it too:
	 * a PCI/PCI-X segment with segment_peers, or a PCIe hop (a switch or chipset uplink, a
	 * multi-function link) other endpoints lie below; "" when not shared or unknown. Its raw
	 * Gbit/s (bottleneck_gbps) and the devices that use it, this one included (>= 2). */
	char shared_hop[32];
	double shared_hop_gbps;
	int shared_hop_devices;
	bool shared_hop_segment; /* that hop is the PCI/PCI-X segment the modelled bus is: a row's
				  * bus share is its share of the hop; else (a PCIe hop) its frames'
				  * Gbit/s over the hop's is a lower bound of it */
	bool poll_mode;		 /* the NIC profile polls (`[host] irq_batch = 0`: dpdk, dpdk-*): rows
				  * that do not say otherwise (poll_mode column) poll */
	char
	    bus_note[320]; /* why the modelled bus is not the device's own link (struct pcibw_bus note), "" */
};

/*
 * A group of rows: the rows of one (source, series, test, interface, direction, stated machine)
 * whose sizes lie in one band
 * where the row verdicts do not change (a size band ends where the verdict changes). Its verdict
 * follows the whole-input rule over its rows; its evidence is the representative row's (the
 * fastest row with the group's verdict).
 */
struct pcibw_group {
	int key_row;		   /* a row holding the key (source, series, test, iface, pattern) */
	double size_min, size_max; /* bytes as the input gave them (input_size_bytes where set); NAN
				    * for rows without a size */
	int *rows;		   /* indices into pcibw_rows.v, by size */
	int n_rows;
	enum pcibw_verdict verdict;
	int representative;				/* the row whose reasons the group gives */
	struct pcibw_reason reasons[PCIBW_MAX_REASONS]; /* its reasons, group set */
	int n_reasons;
	char *evidence[PCIBW_MAX_EVIDENCE]; /* its words, heap copies (pcibw_verdict_words) */
	int n_evidence;
};

/* The whole input's answer. */
struct pcibw_summary {
	enum pcibw_verdict verdict;
	int counts[PCIBW_V_N];	    /* rows per verdict */
	struct pcibw_group *groups; /* heap; by source, series, test, direction, size */
	int n_groups;
	/* the reasons of the answer: line 0 is the headline, a copy of the representative row's
	 * deciding reasons (row set); then the rows that agree, each series' bands, machine facts */
	struct pcibw_reason reasons[PCIBW_MAX_SUMMARY_REASONS];
	int n_reasons;
	char *evidence[PCIBW_MAX_EVIDENCE]; /* their words (pcibw_verdict_words); [0] the headline */
	int n_evidence;
	int representative; /* index of the row the summary speaks of, -1 if none */
};

/*
 * pcibw_verdict_run - cycles per packet and service demand, elasticity, per-packet and per-core
 * limits across rows, each row's verdict and reasons, the groups (struct pcibw_group), then the
 * whole input's verdict (impossible if any row is; else the most common verdict among the rows
 * that are not undetermined, ties broken io, wire, cpu; undetermined only when every row is) and
 * its summary, which names each group's verdict.
 * A row whose bit rate and packet rate disagree by more than 10 % (rate_mismatch) gets a reason
 * saying so. No words: pcibw_verdict_words (pcibw/words.h) fills the evidence from the reasons. With no rows
 * the verdict is undetermined (nothing was measured). out is overwritten (not freed first). Returns PCIBW_OK
 * or PCIBW_EINTERNAL (out of memory).
 */
int pcibw_verdict_run(struct pcibw_rows *rs, const struct pcibw_thresholds *t,
		      const struct pcibw_machine *mach, struct pcibw_summary *out, struct pcibw_err *err);

/* pcibw_verdict_of_counts - the whole-input rule over rows counted per verdict: impossible if
 * any; else the most common verdict that is not undetermined (ties io, wire, cpu); undetermined
 * only when every row is, or there are none. */
enum pcibw_verdict pcibw_verdict_of_counts(const int counts[PCIBW_V_N]);

/*
 * pcibw_group_label - the words a group is named by in text: "[FILE] [IFACE] [TEST] SERIES|DIR [on
 * BUS]" ("eth1 rx", "UDP_STREAM send", "eth0 tx on PCIe gen1 x4 link"): the file's base name only
 * with with_source (several inputs), the interface whenever the rows have one, the bus only for
 * rows on a machine stated mid-input. "rows" when none of these is known. buf holds at most n - 1
 * characters (cut, never overrun); n >= 1.
 */
void pcibw_group_label(const struct pcibw_rows *rs, const struct pcibw_group *g, bool with_source, char *buf,
		       size_t n);

/*
 * pcibw_limits_names - the names of the resources in a row's or group's limits mask, in the
 * contract's verdict order (wire, bus, root-complex, cpu, core, tcp-window), into names (at most
 * max). Returns how many were written.
 */
int pcibw_limits_names(unsigned limits, const char **names, int max);

/* pcibw_summary_free - free the evidence strings and the groups (counts back to 0); s itself is
 * not freed. */
void pcibw_summary_free(struct pcibw_summary *s);

/*
 * pcibw_row_reason - append a reason to a row (pcibw/reason.h): on a new evidence line, or with
 * same_line on the line of the row's last reason (a list worded as one sentence). Figures NAN
 * where the code has none; unit static or NULL. Dropped when the row holds PCIBW_MAX_REASONS or
 * its lines PCIBW_MAX_EVIDENCE (the first reasons explain the verdict). Returns the reason or
 * NULL when dropped.
 */
struct pcibw_reason *pcibw_row_reason(struct pcibw_row *r, bool same_line, enum pcibw_reason_code code,
				      enum pcibw_resource res, double value, double ceiling, double share,
				      double threshold, const char *unit);

#endif

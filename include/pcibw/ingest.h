/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/ingest.h - read benchmark results into measured rows (pcibw/measure.h), one format per
 * file in src/ingest/: generic CSV (libcsv), iperf3 -J JSON (jansson), netperf classic text and
 * omni -o CSV / -O columns, and pcie-bench's bw_dma_sz_sweep.csv. Input conventions:
 * doc/cli-contract.md, "analyze input".
 *
 * Rows are handed to a callback as they are read, so CSV and text inputs stream in constant
 * memory (a record or line at a time, at most 64 KiB each, whatever the file size). JSON is read
 * whole, at most 256 MiB (iperf3 files are small). Text inputs are refused (exit 3) at the first
 * NUL byte, so binary files and /dev/zero stop at once.
 */
#ifndef PCIBW_INGEST_H
#define PCIBW_INGEST_H

#include "pcibw/error.h"
#include "pcibw/measure.h"
#include <stdbool.h>
#include <stdio.h>

enum pcibw_format {
	PCIBW_FMT_AUTO = 0,
	PCIBW_FMT_CSV,		/* generic CSV with recognised headers */
	PCIBW_FMT_IPERF3,	/* iperf3 -J */
	PCIBW_FMT_NETPERF,	/* netperf classic (banner + column block) */
	PCIBW_FMT_NETPERF_OMNI, /* netperf omni -o (CSV with netperf's output names) */
	PCIBW_FMT_PCIEBENCH,	/* pcie-bench bw_dma_sz_sweep.csv */
	PCIBW_FMT_CPUSTAT,	/* mpstat -P ALL, sar -P ALL or sar -u ALL text: a CPU source, no rows */
	PCIBW_FMT_IPERF3_TEXT,	/* iperf3's default text output, client or server */
	PCIBW_FMT_LAST = PCIBW_FMT_IPERF3_TEXT,
};

#define PCIBW_MAX_COLMAP 16

/* `--col ROLE=HEADER`: read column HEADER as ROLE (a role name of the contract, e.g. "gbps",
 * "send_kpps", "frame_bytes", "cpu_pct"). */
struct pcibw_colmap {
	char role[48];
	char header[128];
};

/* `--cpu-scale`: how CPU columns are written. AUTO reads percent and warns when every value of a
 * CPU column is at most 1.0 (fractions, most likely). */
enum pcibw_cpu_scale {
	PCIBW_CPU_SCALE_AUTO = 0,
	PCIBW_CPU_SCALE_PERCENT,
	PCIBW_CPU_SCALE_FRACTION,
};

struct pcibw_ingest_opts {
	enum pcibw_format format;	  /* AUTO: detect from the content */
	enum pcibw_cpu_scale cpu_scale;	  /* `--cpu-scale`; AUTO when not given */
	enum pcibw_rate_basis rate_basis; /* `--rate-basis`; PCIBW_BASIS_SIZE when not given */
	bool rate_basis_given;
	struct pcibw_colmap colmap[PCIBW_MAX_COLMAP];
	int n_colmap;
	/* CSV inputs: called for each comment line that starts "# bus:" (a machine the file states,
	 * pcibw_ingest_defaults_line), in file order between the rows around it; leading: no record
	 * (header or data) came before it. NULL: not wanted. A non-zero return stops the read with
	 * that status (err filled by the callback). */
	int (*on_bus_line)(const char *source, unsigned line, bool leading, const char *text, size_t len,
			   void *ctx, struct pcibw_err *err);
	void *on_bus_ctx;
};

#define PCIBW_MAX_COLUMNS 64

/* One column of a CSV header and what pcibw read it as ("size (frame)", "rate Gbit/s", "cpu_pct");
 * use "" = not read (a warning then says so). */
struct pcibw_ingest_column {
	char header[64];
	char use[64];
};

/* What an ingest call saw besides the rows it emitted. */
struct pcibw_ingest_stats {
	long rows;		  /* rows emitted (handed to the callback) */
	long lines;		  /* data lines read (comments and header excluded) */
	long skipped;		  /* data lines skipped (wrong field count, no rate value, RR tests) */
	char first_skip[256];	  /* "file:line: why" of the first skipped line ("file: why" in
				   * JSON, which has no lines once loaded), "" */
	unsigned header_line;	  /* CSV formats: the line of the header record; 0 if none */
	enum pcibw_format format; /* the format read */
	char notes[8][400];	  /* facts worth stating (omitted iperf3 intervals, TCP write sizes) */
	int n_notes;
	/* CSV formats: every header column (the first PCIBW_MAX_COLUMNS) and its use */
	struct pcibw_ingest_column columns[PCIBW_MAX_COLUMNS];
	int n_columns;
	/* things the reader could not use or had to assume: an unread column (with the nearest
	 * known name), CPU values that look like fractions */
	char warnings[8][320];
	int n_warnings;
	struct pcibw_cpu_sample cpu; /* PCIBW_FMT_CPUSTAT: the CPU it measured */
};

/* What a file says about the machine it measured (pcibw_ingest_defaults). */
struct pcibw_input_defaults {
	bool found;	       /* a "# bus: ..." line was there */
	char bus[128];	       /* bus spec or "virtual"; "" not stated */
	char nic[64];	       /* NIC profile name; "" */
	double line_rate_gbps; /* 0 not stated */
	int cpus;	       /* -1 not stated */
	double cpu_mhz;	       /* NAN not stated */
	char iface[64];	       /* "iface: NAME": the line is about the rows of that interface only;
				* "" about the whole file */
	char origin[1100];     /* "FILE:LINE" of that line */
};

/*
 * pcibw_ingest_defaults - the machine facts in a file's leading '#' lines, written by
 * `pcibw watch --format csv` as "# bus: SPEC nic: NAME line_rate: RATE cpus: N cpu_mhz: F" (each
 * pair optional; "-" or "unknown" states nothing; RATE as --line-rate). `analyze` takes them
 * where no option says otherwise. Pipes, FIFOs, unreadable files and a standard input ("-") that is
 * not a regular file give nothing (the reader reports those; pcibw_input_spool_stdin turns a
 * piped standard input into a file first). Returns PCIBW_OK, or PCIBW_EINPUT "FILE:LINE:COLUMN: ..." for a
 * value that does not parse.
 */
int pcibw_ingest_defaults(const char *path, struct pcibw_input_defaults *d, struct pcibw_err *err);

/*
 * pcibw_ingest_defaults_line - one "# bus: V nic: V ..." line (text, NUL-terminated, no line
 * end; "# bus:" first) into *d (cleared first; origin "name:ln"). Returns PCIBW_OK, or
 * PCIBW_EINPUT "name:ln:column: ..." for a value that does not parse or a key without a value.
 */
int pcibw_ingest_defaults_line(const char *name, unsigned ln, const char *text,
			       struct pcibw_input_defaults *d, struct pcibw_err *err);

/*
 * pcibw_ingest_defaults_all - every "# bus: ..." line of the file's leading '#' lines, in order,
 * at most max into d (*n of them): `pcibw watch --format csv` writes one for the file, then one
 * per interface with "iface: NAME" (that interface's rows: its own bus, profile and line rate).
 * Standard input is read where it stands when it is a regular file (pcibw_input_spool_stdin),
 * and left there. Returns as pcibw_ingest_defaults.
 */
int pcibw_ingest_defaults_all(const char *path, struct pcibw_input_defaults *d, int max, int *n,
			      struct pcibw_err *err);

/*
 * Called once per measured row. Return PCIBW_OK to go on, anything else to stop the read (the
 * value is returned by pcibw_ingest_file, err already filled by the callback).
 */
typedef int (*pcibw_row_cb)(const struct pcibw_measured *row, void *ctx, struct pcibw_err *err);

/*
 * pcibw_ingest_file - read path ("-" = standard input) and call cb for each row. opts NULL = all
 * defaults (format detected); stats NULL = not wanted, else zeroed first.
 * Returns PCIBW_OK; PCIBW_EUSAGE (opts->format is not a pcibw_format value); PCIBW_EINPUT with
 * "file:line:column: ... expected ..." for an unreadable or malformed file, an unknown unit, a
 * NaN/negative/absurd value, or a --col HEADER the file has no column of; PCIBW_EINTERNAL (out of memory); or
 * whatever non-zero cb returned. A --col role that does not exist is refused earlier, by pcibw_colmap_add.
 * Rows already handed to cb stay handed. Not reentrant (a static read-ahead buffer). Limits on values
 * ("absurd"): see pcibw_check_value().
 */
int pcibw_ingest_file(const char *path, const struct pcibw_ingest_opts *opts, pcibw_row_cb cb, void *ctx,
		      struct pcibw_ingest_stats *stats, struct pcibw_err *err);

/*
 * pcibw_ingest_detect - the format of an input from its first bytes (BOM and '#' lines skipped):
 * '{' -> iperf3; iperf3's own text ("Connecting to host ", "Server listening on ", a line of
 * dashes before that, "[ ID] Interval", "[  5] local ... connected to", "iperf 3") -> iperf3-text; a header
 * starting "Test,PAT,Cache" -> pcie-bench; a CSV header naming "Throughput" and "Throughput Units", or a
 * comma-free first line naming "Throughput " (omni -O columns), with or without a netperf banner before it ->
 * netperf omni; a netperf banner or column block ("Recv   Send", "Socket  Message") -> netperf; anything else
 * -> CSV (whose delimiter, ',' ';' or tab, its header line decides). Only the first line that is neither
 * blank nor a '#' comment is looked at (and the one after a banner); head need not end in a NUL; nothing to
 * look at -> CSV. Never fails.
 */
enum pcibw_format pcibw_ingest_detect(const char *head, size_t len);

/*
 * pcibw_cpustat_read - the CPU of a run from mpstat -P ALL, sar -P ALL or sar -u ALL text (sysstat,
 * any locale that writes '.' decimals; 12- or 24-hour times): the "Average:" block when there is
 * one, else the mean of every interval. Returns PCIBW_OK with *out valid, or PCIBW_EINPUT naming
 * file:line when the file is not such output (no "CPU ... %idle" header, a row whose field count
 * is not the header's, a value that is not a percentage).
 */
int pcibw_cpustat_read(const char *path, struct pcibw_cpu_sample *out, struct pcibw_err *err);

/* pcibw_format_name - "csv", "iperf3", "netperf", "netperf-omni", "pcie-bench", "cpustat",
 * "iperf3-text"; "auto" for
 * PCIBW_FMT_AUTO or any other value. */
const char *pcibw_format_name(enum pcibw_format f);

/* pcibw_cpu_scale_parse - "percent" or "fraction" (`--cpu-scale`; exact). Returns PCIBW_OK or
 * PCIBW_EUSAGE (*out untouched). */
int pcibw_cpu_scale_parse(const char *text, enum pcibw_cpu_scale *out, struct pcibw_err *err);

/* pcibw_colmap_add - parse one `--col ROLE=HEADER` (split at the first '='; ROLE non-empty, at
 * most 47 bytes kept, HEADER non-empty, at most 127 bytes kept, matched exactly). Returns
 * PCIBW_OK, or PCIBW_EUSAGE naming the bad part: no '=', an unknown role (the message lists the
 * roles), more than PCIBW_MAX_COLMAP mappings, a role already mapped (compared as parsed:
 * kind, series prefix and packet or bit rate, so size and frame_bytes are one role and gbps
 * and mpps two; cpuN_pct by its N) or a
 * header already given a role (both named). */
int pcibw_colmap_add(struct pcibw_ingest_opts *o, const char *arg, struct pcibw_err *err);

/*
 * Value limits, checked on every number read (a value outside them is refused with exit 3, never
 * clamped): sizes 1 B .. 16 MiB; pps <= 10^10 (above 800GbE's 1.19 Gpps of 64 B frames by 8x);
 * Gbit/s <= 10^5; CPU percentages 0..100 (cpu_pct is a share of all CPUs); cpu_mhz 1..10^5;
 * work 0..10^12; service demand <= 10^9 µs/KB; durations (0, 10^7] s; counts 0..10^18; cores, queues,
 * threads and streams 1..10^6. NaN,
 * infinities and negatives are refused.
 */
enum pcibw_value_kind {
	PCIBW_VAL_SIZE,
	PCIBW_VAL_PPS,
	PCIBW_VAL_GBPS,
	PCIBW_VAL_PCT,
	PCIBW_VAL_MHZ,
	PCIBW_VAL_WORK,
	PCIBW_VAL_SD,
	PCIBW_VAL_SECONDS,
	PCIBW_VAL_COUNT,
	PCIBW_VAL_PARALLEL,
	PCIBW_VAL_TIME, /* a point in time, seconds since a run's start: 0 to 10^10 */
};

/*
 * pcibw_check_value - parse text as a decimal number of kind k ("12", "-3.5", "1e6", blanks
 * around; a PCIBW_VAL_PCT may end in '%') and check it against the limits above. Hexadecimal,
 * "inf", "nan", a decimal comma and thousands separators are refused, never read as a number
 * nobody meant. where is the "file:line:column" prefix of the message. Returns PCIBW_OK with *out
 * set, or PCIBW_EINPUT ("FILE:L:C: 'abc' is not a number (expected a bit rate ..., written in
 * decimal)").
 */
int pcibw_check_value(const char *text, enum pcibw_value_kind k, const char *where, double *out,
		      struct pcibw_err *err);

#endif

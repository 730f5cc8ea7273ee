/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/request.h - one request: what the user asked a command for, filled from the command
 * line through the option table (pcibw/options.h), whatever the command. The request layer sits
 * above the probe, the model, the ingest readers and the verdict engine and below the command
 * line: every command parses into this struct, so an option means the same in each.
 */
#ifndef PCIBW_REQUEST_H
#define PCIBW_REQUEST_H

#include "pcibw/error.h"
#include "pcibw/ingest.h"
#include "pcibw/model.h"
#include "pcibw/probe.h"
#include "pcibw/verdict.h"
#include <stdbool.h>

/* The commands, as bits: an option row of the table names the commands that take it. */
enum pcibw_command {
	PCIBW_CMD_REPORT = 1 << 0,
	PCIBW_CMD_MODEL = 1 << 1,
	PCIBW_CMD_ANALYZE = 1 << 2,
	PCIBW_CMD_WATCH = 1 << 3,
};
#define PCIBW_CMD_ALL (PCIBW_CMD_REPORT | PCIBW_CMD_MODEL | PCIBW_CMD_ANALYZE | PCIBW_CMD_WATCH)

/* --format */
/* --format; PROMETHEUS (report, watch): the text exposition format for node_exporter's textfile
 * collector */
enum pcibw_output { PCIBW_OUT_TEXT, PCIBW_OUT_JSON, PCIBW_OUT_CSV, PCIBW_OUT_PROMETHEUS };

/*
 * The options as parsed. Strings point into argv (not copied); numbers are range-checked already
 * (the option table's ranges). Defaults: pcibw_request_init.
 */
struct pcibw_request {
	enum pcibw_command command;
	bool help; /* -h/--help: print the command's help, nothing else */

	/* output */
	enum pcibw_output format;
	const char *plot;     /* --plot FILE.svg, NULL */
	bool wide;	      /* --wide: every column of analyze's text table */
	const char *textfile; /* --textfile FILE (report, watch; with --format prometheus): written
			       * whole to a temporary file in FILE's directory, then renamed over
			       * FILE; NULL = standard output */

	/* the machine: a source (--dump, --sysfs, --topology; none = this machine) and a device */
	struct pcibw_probe_opts probe;

	/* the bus and the traffic (model, analyze) */
	const char *bus;	  /* --bus SPEC, NULL */
	const char *bus_set;	  /* --bus-set KEY=VALUE,...: the probed device's registers changed, NULL */
	const char *nic;	  /* --nic NAME[,KNOB=VALUE,...], NULL: by vendor:device when probed, else
				   * simple */
	const char *nic_sets[16]; /* --nic-set KNOB=VALUE, repeatable, in order */
	int n_nic_sets;
	bool explain;	      /* --explain (model): each row's recipe */
	const char *nic_file; /* --nic-file FILE, NULL */
	const char *sizes;    /* --sizes LIST, NULL: the command's default */
	enum pcibw_pattern pattern;
	enum pcibw_size_is size_is;
	double line_rate_gbps; /* --line-rate, Gbit/s per direction; 0 = none */
	int mtu;	       /* --mtu, the IP MTU in bytes (analyze: TCP segments, UDP fragments); 1500 */
	enum pcibw_compat compat;
	int segment_devices; /* 1..32 */

	/* the CPU of the measured machine (analyze) */
	int cpus;	/* --cpus, 1..2^20; PCIBW_NULL not given */
	double cpu_mhz; /* --cpu-ghz x 1000, MHz; NAN not given */

	/* the measurements (analyze) */
	struct pcibw_ingest_opts ingest; /* --input-format, --rate-basis, --col */
	struct pcibw_thresholds thresholds;
	const char **files; /* FILE... in order ("-" = standard input); heap, see pcibw_request_free;
			     * watch's IFACE... operands */
	int n_files;

	/* watch */
	double interval_s;	 /* --interval SECONDS, 0.1..3600; default 1 */
	int count;		 /* --count N intervals, 1..10^9; 0 = until SIGINT/SIGTERM */
	const char *record_dir;	 /* --record DIR, NULL */
	double record_max_bytes; /* --record-max SIZE, bytes, 4 KiB..1 TiB; default 64 MiB */
	bool record_max_given;
	const char *replay_dir; /* --replay DIR, NULL */
};

/* pcibw_request_init - an empty request for cmd with every default: text output, pattern both,
 * size convention frame, one segment device, no line rate, CPU unknown, default thresholds;
 * watch: 1 s interval, no count, a 64 MiB recording cap. */
void pcibw_request_init(struct pcibw_request *req, enum pcibw_command cmd);

/* pcibw_request_free - free what pcibw_request_parse allocated (files); req may be reused after
 * pcibw_request_init. Safe on an initialised, unparsed request. */
void pcibw_request_free(struct pcibw_request *req);

#endif

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
	PCIBW_CMD_SLOTS = 1 << 4,
};
#define PCIBW_CMD_ALL                                                                                        \
	(PCIBW_CMD_REPORT | PCIBW_CMD_MODEL | PCIBW_CMD_ANALYZE | PCIBW_CMD_WATCH | PCIBW_CMD_SLOTS)

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
	const char *format_opt; /* the --format value given, "--json" for --json, NULL: none yet; a
				 * second one is a usage error (--json beside json is not) */
	const char *plot;	/* --plot FILE.svg, NULL */
	bool wide;		/* --wide: every column of analyze's text table */
	const char *textfile;	/* --textfile FILE (report, watch; with --format prometheus): written
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
	double line_rate_gbps;	 /* --line-rate, Gbit/s per direction; 0 = none */
	int line_rate_ports;	 /* the N of --line-rate NxRATE, 0 when given without one */
	int ports;		 /* --ports N (slots): the card's ports, each at --line-rate; 0 none */
	const char *smbios_file; /* --smbios FILE (slots): dmidecode -t 9 text, NULL */
	int mtu;		 /* --mtu, the IP MTU in bytes (analyze: TCP segments, UDP fragments); 1500 */
	enum pcibw_compat compat;
	int segment_devices; /* 1..32 */

	/* the CPU of the measured machine (analyze) */
	int cpus;	      /* --cpus, 1..2^20; PCIBW_NULL not given */
	double cpu_mhz;	      /* --cpu-ghz x 1000, MHz; NAN not given */
	const char *cpu_from; /* --cpu-from FILE: mpstat -P ALL / sar -P ALL / sar -u ALL output, NULL */

	/* the measurements (analyze) */
	struct pcibw_ingest_opts ingest; /* --input-format, --rate-basis, --col */
	struct pcibw_thresholds thresholds;
	const char *threshold_args[32]; /* each --threshold NAME=VALUE as given: a NAME given twice
					 * is a usage error */
	int n_threshold_args;
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

/* pcibw_request_check_sources - at most one of --dump, --sysfs, --topology: they name different
 * machines; and the outputs as pcibw_request_check_outputs. Returns PCIBW_OK or PCIBW_EUSAGE. */
int pcibw_request_check_sources(const struct pcibw_request *req, struct pcibw_err *err);

/* pcibw_request_check_outputs - a file pcibw writes (--plot, --textfile) has a name, and is none
 * of the files the run reads (--dump, --topology, --pci-ids, --cpu-from, --nic-file, analyze's
 * inputs, --replay's DIR/meta and DIR/samples; compared as files, so a link or another spelling
 * of the path counts): writing it would destroy the input, for the plot before it is even read
 * back. Returns PCIBW_OK or PCIBW_EUSAGE naming both. */
int pcibw_request_check_outputs(const struct pcibw_request *req, struct pcibw_err *err);

#define PCIBW_MAX_REQUEST_WARNINGS 8

/* A warning of the resolution: a stable code and the text users read. */
struct pcibw_request_warning {
	const char *code; /* static: "no-nic-profile", "bus-note", "virtual-bus" */
	char text[400];
};

/*
 * A request resolved against the world: the bus (from --bus, a probed device or a paravirtual
 * NIC), the NIC profile, the model's input, the CPU of the measured machine and the warnings on
 * the way. in.bus and in.nic point into the struct itself: never copy it, pass its address.
 */
/* Where a resolution's bus came from. */
enum pcibw_bus_origin {
	PCIBW_BUS_FROM_NONE,   /* no bus (analyze with none named), or a paravirtual profile's */
	PCIBW_BUS_FROM_OPTION, /* --bus, as the user gave it */
	PCIBW_BUS_FROM_PROBE,  /* a probed device (-s, -i, --dump, --pciconf, --sysfs) */
	PCIBW_BUS_FROM_STATED, /* what an input states: a "# bus:" line, a recording, a link as read */
};

struct pcibw_resolved {
	bool have_bus; /* false only for analyze with no bus named: no bus ceiling */
	enum pcibw_bus_origin bus_origin;
	struct pcibw_bus bus;
	char bus_spec[128];	    /* canonical spec (pcibw_bus_format), "virtual" */
	char bus_from[1200];	    /* "--bus", "SLOT (SOURCE)", "--nic NAME (paravirtual)" */
	char bus_words[96];	    /* "PCIe gen3 x8 link", "PCI-X 133/64 bus", "virtual NIC" */
	int vendor_id, device_id;   /* the probed device's ids; PCIBW_NULL when none was probed */
	char driver[64];	    /* the probed device's kernel driver (sysfs), "" when unknown */
	bool have_device;	    /* a device was probed: */
	struct pcibw_device device; /* it, as the probe reported it (its path, bottleneck, ids) */
	int hop_devices;	    /* devices that use its bottleneck hop, it included: its segment's
				     * (segment_peers + 1) or, for a PCIe hop, the endpoints whose path
				     * holds that hop (the other functions of its own link included);
				     * 0 unknown */
	struct pcibw_nic nic;
	char nic_name[64];
	struct pcibw_model_in in; /* pattern, size convention, line rate, compat, segment devices */
	struct pcibw_sizes sizes; /* model: --sizes or the default list; heap (pcibw_resolved_free) */
	int cpus;		  /* analyze: --cpus, else --topology's PU count, else this machine's
				   * when the device was probed live; PCIBW_NULL unknown */
	double cpu_mhz;		  /* --cpu-ghz, else this machine's when probed live; NAN unknown */
	char cpu_origin[1200];	  /* "options", "hwloc-xml:FILE", "/proc/cpuinfo", joined by ", " */
	struct pcibw_request_warning warnings[PCIBW_MAX_REQUEST_WARNINGS];
	int n_warnings;
};

/*
 * pcibw_request_resolve - the one resolution model, analyze and watch share:
 *  - the bus: --bus SPEC ("virtual": a paravirtual NIC, no bus ceiling), or the one device -s, -i,
 *    --dump or --sysfs selects; model without either probes this machine; a paravirtual NIC
 *    profile (virtio-net) with no bus named has the virtual bus. --bus together with a probed
 *    device, and model with --topology (no config space), are usage errors;
 *  - the NIC: --nic NAME or --nic-file FILE (not both); else the probed device's default profile
 *    (pcibw_nic_default_name), else simple, with the warning "no NIC profile lists VVVV:DDDD"
 *    when a device was probed; then its knobs settled for the bus and the line rate, the
 *    --nic NAME,KNOB=VALUE ones first and each --nic-set after (pcibw_nic_configure);
 *  - --compat pcie-bench on a PCI or PCI-X bus is a usage error (pcie-model has no model of them);
 *  - model: the size list (--sizes, default 64,128,256,512,1024,1518);
 *  - analyze: the CPU count and clock (see the fields).
 * Returns PCIBW_OK; PCIBW_EUSAGE (bad spec, profile name, size list, combination); PCIBW_EINPUT
 * (bad dump, sysfs copy, profile file, hwloc export: FILE:LINE:COLUMN); PCIBW_ENOMATCH (no such
 * device); PCIBW_ENOTHERE; PCIBW_EINTERNAL. out is zeroed first; free with pcibw_resolved_free
 * whatever the result.
 */
int pcibw_request_resolve(const struct pcibw_request *req, struct pcibw_resolved *out, struct pcibw_err *err);

/*
 * pcibw_request_resolve_defaults - pcibw_request_resolve with a results file's stated machine
 * (def: a "# bus: ..." line, pcibw_ingest_defaults_all) filling what no option gave: its bus
 * (unless a device is probed), profile, line rate and CPU; bus_from and cpu_origin then name
 * the line ("FILE:LINE"). Returns as pcibw_request_resolve.
 */
int pcibw_request_resolve_defaults(const struct pcibw_request *req, const struct pcibw_input_defaults *def,
				   struct pcibw_resolved *r, struct pcibw_err *err);

/* pcibw_resolved_free - free out's size list. */
void pcibw_resolved_free(struct pcibw_resolved *r);

/*
 * pcibw_request_model_rows - the model at each size of r->sizes (one weighted row for a mix):
 * *rows and *labels (per row "imix", "mix" or NULL) are heap arrays of *n rows for the caller to
 * free. Returns PCIBW_OK or the model's error (pcibw_model_eval); nothing to free then.
 */
int pcibw_request_model_rows(const struct pcibw_resolved *r, struct pcibw_model_row **rows,
			     const char ***labels, int *n, struct pcibw_err *err);

/*
 * pcibw_request_model_explain - --explain: the recipe of one packet at each size of r->sizes
 * (pcibw_model_explain), row i's operations at (*recipe)[i * PCIBW_MAX_OPS ...], (*recipe_n)[i]
 * of them; a mix has none (n 0). Heap arrays for the caller to free. Returns PCIBW_OK or the
 * model's error (nothing to free then).
 */
int pcibw_request_model_explain(const struct pcibw_resolved *r, struct pcibw_explain_op **recipe,
				int **recipe_n, struct pcibw_err *err);

/*
 * pcibw_request_model_band_terms - --explain: the terms that widen the band at each size of
 * r->sizes (pcibw_model_band_terms), row i's at (*terms)[i * PCIBW_TERM_COUNT ...], (*terms_n)[i]
 * of them; a mix has none. Heap arrays for the caller to free. Returns PCIBW_OK or the model's
 * error (nothing to free then).
 */
int pcibw_request_model_band_terms(const struct pcibw_resolved *r, struct pcibw_band_term **terms,
				   int **terms_n, struct pcibw_err *err);

/* pcibw_machine_of - what the verdict engine knows of the machine, from a resolution. */
void pcibw_machine_of(const struct pcibw_resolved *r, struct pcibw_machine *m);

/*
 * pcibw_machine_merge - the run's machine when each of n series (interfaces) has its own: a bus
 * when any has one (the first such names it), virtual only when every one is, the first line
 * rate and CPU known. The rows then carry their series' machine (pcibw_row.machine); the run's
 * speaks for the whole. n 0 leaves *run zeroed.
 */
void pcibw_machine_merge(const struct pcibw_machine *series, int n, struct pcibw_machine *run);

/* What is known of one network interface before it is resolved (watch: sampled live, or read
 * from a recording). */
struct pcibw_iface_facts {
	const char *name;		    /* OS interface name */
	bool probe;			    /* it has a PCI device on this machine: probe it (-i NAME) */
	bool virtual_nic;		    /* paravirtual, or no device at all: no bus ceiling */
	const char *bus;		    /* a recorded bus spec ("virtual"), NULL or "" none */
	const char *bus_from;		    /* where that spec was recorded ("the recording"), NULL */
	const struct pcibw_bus *bus_parsed; /* a bus already parsed (a link as read), used as it is
					     * instead of bus (never formatted and parsed again) */
	const char *nic;		    /* a recorded profile name, NULL or "" none */
	int vendor_id, device_id;	    /* recorded ids (no probe): the profile by id where none is named;
					     * PCIBW_NULL unknown */
	const char *driver;		    /* recorded kernel driver, NULL */
	double line_rate_gbps;		    /* its link speed as read or recorded, Gbit/s; 0 unknown */
	int cpus;			    /* the CPUs of its machine; PCIBW_NULL unknown */
	double cpu_mhz;			    /* their clock; NAN unknown */
};

/*
 * pcibw_request_resolve_iface - the resolution of one of the interfaces a request names (watch):
 * pcibw_request_resolve with, where no option says otherwise (--bus, --nic, --nic-file,
 * --line-rate, --cpus, --cpu-ghz win), the recorded bus spec and profile, else the interface's
 * PCI device probed as -i NAME does (its bus, its default profile by vendor:device and driver,
 * the "no-nic-profile" warning when none lists it), else the virtual bus for a paravirtual
 * interface or one without a device; the line rate and CPU from f. A device that cannot be
 * probed (the probe's error) gives no bus and a "no-bus" warning naming the interface and why,
 * not an error. Returns as pcibw_request_resolve (a bad option, recorded spec or profile is
 * PCIBW_EUSAGE, or PCIBW_EINPUT when it came from a recording: the caller names where).
 */
int pcibw_request_resolve_iface(const struct pcibw_request *req, const struct pcibw_iface_facts *f,
				struct pcibw_resolved *out, struct pcibw_err *err);

/*
 * pcibw_row_ceilings - one measured row's ceilings against r, as pcibw_rows_ceilings does for
 * every row (for rows of several series, each with its own resolution).
 */
void pcibw_row_ceilings(struct pcibw_row *row, const struct pcibw_resolved *r);

/*
 * pcibw_rows_ceilings - the bus and wire ceilings of each measured row (after pcibw_rows_finish):
 * the row's pattern (its direction column, else --pattern); its size convention (its header's,
 * else --size-is); the bytes one packet counts in the row's rate basis (pcibw_size_bytes_as,
 * pcibw_wire_bytes); the packet and bit rates (pcibw_row_rates); the wire ceiling
 * (pcibw_wire_ceiling: none for dma-* patterns, the line rate itself without a packet size);
 * the bus ceiling from the model when there is a bus, or the model's reason in model_note.
 * A row measured above a ceiling that one of the model's estimates sets (a NIC profile's
 * read-latency or device-tps limit, the root complex's whole-cache-line charge:
 * pcibw_model_loads) is set against the physical resources alone (link directions, a PCI/PCI-X
 * segment), bound_by naming the one that binds, with evidence saying which estimate it beat
 * (doc/model.md sec. 3): a measurement refutes an estimate, never the other way round.
 */
void pcibw_rows_ceilings(struct pcibw_rows *rs, const struct pcibw_resolved *r);

/* One input of analyze as read. */
struct pcibw_analyze_input {
	const char *path;
	struct pcibw_ingest_stats stats;
};

/* The rows of one interface of one input that states its own machine ("# bus: ... iface: NAME"),
 * or of the rows after a machine stated again mid-file (a link that retrained). */
struct pcibw_series_machine {
	const char *path;    /* the input (req->files[k]) */
	char iface[64];	     /* the rows' iface; "" every interface's (a mid-file line without iface) */
	unsigned machine_no; /* the rows' machine_no: 0 the leading line's, k > 0 a mid-file one's */
	struct pcibw_resolved res;
	struct pcibw_machine machine;
};

/* What analyze found: rows with their ceilings and verdicts, the summary, the inputs. */
struct pcibw_analysis {
	struct pcibw_series_machine *series; /* heap, n_series: interfaces with a machine of their own */
	int n_series;
	struct pcibw_rows rows;
	struct pcibw_summary summary;
	struct pcibw_machine machine;
	struct pcibw_analyze_input *inputs; /* heap, one per req->files */
	int n_inputs;
	long skipped;			  /* lines skipped over all inputs */
	struct pcibw_cpu_sample cpu_from; /* --cpu-from FILE as read (rows point into it: keep a in place) */
};

/*
 * pcibw_request_analyze - read every input of req (req->ingest), group the rows, set them
 * against r's ceilings (pcibw_rows_ceilings) and run the verdict (req->thresholds). Rows of an
 * interface whose input states its own machine ("# bus: ... iface: NAME", pcibw watch's CSV of
 * several interfaces) are set against that machine (pcibw_request_resolve_defaults, options
 * still winning) and judged on it; a "# bus:" line after the rows began (watch: a link that
 * retrained) does so for the rows after it, which are keyed apart (machine_no) from the rows
 * before; the run's machine is then pcibw_machine_merge of those. Returns
 * PCIBW_OK; PCIBW_EINPUT for a bad input or when no input gave a row (naming the first skipped
 * line); PCIBW_EUSAGE; PCIBW_EINTERNAL. Free out with pcibw_analysis_free whatever the result.
 */
int pcibw_request_analyze(const struct pcibw_request *req, const struct pcibw_resolved *r,
			  struct pcibw_analysis *out, struct pcibw_err *err);
void pcibw_analysis_free(struct pcibw_analysis *a);

#endif

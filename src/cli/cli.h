/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Argument parsing shared by the subcommands; each subcommand lives in its own cmd_*.c file. */
#ifndef PCIBW_CLI_H
#define PCIBW_CLI_H

#include "pcibw/error.h"
#include "pcibw/probe.h"
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

enum cli_format { CLI_FMT_TEXT, CLI_FMT_JSON, CLI_FMT_CSV };

/* Long-option ids above the ASCII range, shared by all commands. */
enum {
	OPT_FORMAT = 1000,
	OPT_JSON,
	OPT_DUMP,
	OPT_SYSFS,
	OPT_TOPOLOGY,
	OPT_ALL,
	OPT_HELP,
	OPT_PCI_IDS,
	/* the model options `model` and `analyze` share (doc/cli-contract.md "Model options") */
	OPT_BUS = 1050,
	OPT_NIC,
	OPT_PATTERN,
	OPT_SIZE_IS,
	OPT_LINE_RATE,
	OPT_COMPAT,
	OPT_PLOT,
	OPT_SEGMENT,
	OPT_CMD_BASE = 1100, /* each command numbers its own options from here */
};

#define CLI_COMMON_LONGOPTS                                                                                  \
	{"format", required_argument, 0, OPT_FORMAT}, {"json", no_argument, 0, OPT_JSON},                    \
	    {"dump", required_argument, 0, OPT_DUMP}, {"sysfs", required_argument, 0, OPT_SYSFS},            \
	    {"topology", required_argument, 0, OPT_TOPOLOGY}, {"all", no_argument, 0, OPT_ALL},              \
	    {"pci-ids", required_argument, 0, OPT_PCI_IDS},                                                  \
	{                                                                                                    \
		"help", no_argument, 0, 'h'                                                                  \
	}

/* short options every command takes: -s SLOT, -i IFACE, -h */
#define CLI_COMMON_SHORTOPTS "s:i:h"

#define CLI_MODEL_LONGOPTS                                                                                   \
	{"bus", required_argument, 0, OPT_BUS}, {"nic", required_argument, 0, OPT_NIC},                      \
	    {"pattern", required_argument, 0, OPT_PATTERN}, {"size-is", required_argument, 0, OPT_SIZE_IS},  \
	    {"line-rate", required_argument, 0, OPT_LINE_RATE},                                              \
	    {"compat", required_argument, 0, OPT_COMPAT}, {"plot", required_argument, 0, OPT_PLOT},          \
	{                                                                                                    \
		"segment-devices", required_argument, 0, OPT_SEGMENT                                         \
	}

/* The model options as given (parsed later, where the command knows what it needs). */
struct cli_model {
	const char *bus, *nic, *pattern, *size_is, *line_rate, *compat, *plot, *segment;
};

/* cli_model_opt - store one of the shared model options; 1 if opt was one, else 0. */
int cli_model_opt(int opt, const char *arg, struct cli_model *m);

struct cli_common {
	enum cli_format format;
	struct pcibw_probe_opts probe;
	bool help;
};

/*
 * cli_common_opt - handle one option shared by all commands. Returns 1 if it was one (and
 * stored it), 0 if it is not a common option, or -PCIBW_EUSAGE with err set on a bad value.
 */
int cli_common_opt(int opt, const char *arg, struct cli_common *c, struct pcibw_err *err);

/* cli_check_sources - at most one of --dump, --sysfs, --topology. PCIBW_EUSAGE otherwise. */
int cli_check_sources(const struct cli_common *c, struct pcibw_err *err);

/*
 * cli_probed_bus - the model bus of the one device that c->probe selects (-s, -i, --dump, --sysfs,
 * live): its vendor:device ids, "SLOT (SOURCE)" in from, and in bus->note anything the user must
 * know (an on-package link replaced by its uplink; MPS/MRRS not readable, so defaults assumed).
 * Returns PCIBW_OK; PCIBW_ENOMATCH (no device); PCIBW_EUSAGE (several: the message lists them);
 * or the probe's own error.
 */
struct pcibw_bus;
int cli_probed_bus(const struct cli_common *c, struct pcibw_bus *bus, int *vendor, int *device, char *from,
		   size_t from_len, struct pcibw_err *err);

/* cli_error - print "pcibw: MESSAGE" to stderr and return err->code (the exit code). */
int cli_error(const struct pcibw_err *err);

/* cli_usage_error - print "pcibw CMD: MESSAGE\nTry 'pcibw CMD --help'." and return 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Subcommands: argc/argv start at the command name. Return the process exit code. */
int cmd_report(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_watch(int argc, char **argv);

/* Help texts, printed by `pcibw help CMD` and `pcibw CMD --help`. */
extern const char cmd_report_help[];
extern const char cmd_model_help[];
extern const char cmd_analyze_help[];
extern const char cmd_watch_help[];

#endif

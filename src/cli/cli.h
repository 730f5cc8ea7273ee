/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wiring shared by the subcommands; each subcommand lives in its own cmd_*.c file. */
#ifndef PCIBW_CLI_H
#define PCIBW_CLI_H

#include "pcibw/error.h"
#include "pcibw/options.h"
#include "pcibw/request.h"
#include <stdio.h>

/*
 * cli_parse - parse argv for cmd into req (pcibw_request_parse) and answer --help. Returns -1 when
 * the command should run, else the exit code (0 after printing the help, 2 after a usage error
 * printed as cli_usage_error does). req must be freed with pcibw_request_free either way.
 */
int cli_parse(enum pcibw_command cmd, int argc, char **argv, struct pcibw_request *req);

/* cli_check_sources - at most one of --dump, --sysfs, --topology. PCIBW_EUSAGE otherwise. */
int cli_check_sources(const struct pcibw_request *req, struct pcibw_err *err);

/*
 * cli_probed_bus - the model bus of the one device that req->probe selects (-s, -i, --dump, --sysfs,
 * live): its vendor:device ids, "SLOT (SOURCE)" in from, and in bus->note anything the user must
 * know (an on-package link replaced by its uplink; MPS/MRRS not readable, so defaults assumed).
 * Returns PCIBW_OK; PCIBW_ENOMATCH (no device); PCIBW_EUSAGE (several: the message lists them);
 * or the probe's own error.
 */
struct pcibw_bus;
int cli_probed_bus(const struct pcibw_request *req, struct pcibw_bus *bus, int *vendor, int *device,
		   char *from, size_t from_len, struct pcibw_err *err);

/*
 * cli_nic_setup - the NIC profile req names: --nic NAME[,KNOB=VALUE,...], or --nic-file, or the
 * one the probed ids choose (vendor >= 0; driver: its sysfs driver, NULL = unknown), else `simple`
 * (with a warning in warn; else warn[0] = 0); then its knobs settled for bus and the line rate
 * (pcibw_nic_configure), the --nic values first and the --nic-set ones after.
 * PCIBW_OK; PCIBW_EUSAGE (unknown profile, knob or key, bad value, --nic with --nic-file);
 * PCIBW_EINPUT (a bad profile file).
 */
struct pcibw_nic;
int cli_nic_setup(const struct pcibw_request *req, int vendor, int device, const char *driver,
		  const struct pcibw_bus *bus, struct pcibw_nic *nic, char *warn, size_t warn_len,
		  struct pcibw_err *err);

/* cli_error - print "pcibw: MESSAGE" to stderr and return err->code (the exit code). */
int cli_error(const struct pcibw_err *err);

/* cli_usage_error - print "pcibw CMD: MESSAGE\nTry 'pcibw CMD --help'." and return 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cli_help - print command name's --help to stdout; 0, or 1 when it cannot be written. */
int cli_help(const char *name);

/* Subcommands: argc/argv start at the command name. Return the process exit code. */
int cmd_report(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_watch(int argc, char **argv);

#endif

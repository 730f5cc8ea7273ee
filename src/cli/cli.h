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

/* cli_warnings - with --format json or csv, each warning as "pcibw: warning: TEXT" on standard
 * error (the text output prints them itself). */
void cli_warnings(const struct pcibw_request *req, const char *const *warnings, int n);

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
int cmd_slots(int argc, char **argv);

#endif

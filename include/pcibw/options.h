/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/options.h - the option table: every command-line option of every command, once, with its
 * type, the request field it sets, its range and its help. The getopt long options, each
 * command's --help and the checks that the man page lists the same options all come from it.
 *
 * To add an option: one row in src/request/options.c (and its field in struct pcibw_request),
 * one entry in doc/pcibw.1.scd; tests/request fail until the man page has it.
 */
#ifndef PCIBW_OPTIONS_H
#define PCIBW_OPTIONS_H

#include "pcibw/error.h"
#include "pcibw/request.h"
#include <stddef.h>

enum pcibw_opt_type {
	PCIBW_OPT_FLAG,	  /* no value: sets the bool at target */
	PCIBW_OPT_STRING, /* const char * at target: the value as given */
	PCIBW_OPT_INT,	  /* int at target: a whole decimal number lo..hi (pcibw_parse_long) */
	PCIBW_OPT_REAL,	  /* double at target: a decimal number lo..hi (pcibw_parse_real), times scale */
	PCIBW_OPT_CALL,	  /* parse(req, value, err); value NULL for an option without one */
};

/* Where an option shows in --help, in this order. */
enum pcibw_opt_group {
	PCIBW_GRP_INPUT,   /* how analyze reads its files */
	PCIBW_GRP_DEVICE,  /* which device */
	PCIBW_GRP_SOURCE,  /* which machine: this one, a dump, a sysfs copy, an hwloc export */
	PCIBW_GRP_SAMPLE,  /* watch: sampling, recording and replaying */
	PCIBW_GRP_BUS,	   /* the bus to model */
	PCIBW_GRP_TRAFFIC, /* NIC profile, pattern, sizes, wire */
	PCIBW_GRP_CPU,	   /* the CPU of the measured machine */
	PCIBW_GRP_VERDICT, /* thresholds */
	PCIBW_GRP_OUTPUT,
	PCIBW_GRP_N,
};

struct pcibw_option {
	const char *name;    /* long name without "--", or NULL for a short-only option */
	char short_name;     /* 's', or 0 */
	const char *metavar; /* the value in --help ("FILE", "text|json|csv"); NULL = takes none */
	enum pcibw_opt_type type;
	size_t target;	    /* offsetof(struct pcibw_request, ...) for FLAG, STRING, INT, REAL */
	double lo, hi;	    /* INT, REAL: the accepted range, inclusive */
	double scale;	    /* REAL: stored value = given x scale (0 counts as 1) */
	const char *expect; /* INT, REAL: what the error message says was expected; NULL = the range */
	int (*parse)(struct pcibw_request *req, const char *value, struct pcibw_err *err); /* CALL */
	unsigned commands; /* the enum pcibw_command bits that take it */
	enum pcibw_opt_group group;
	const char *help; /* --help text; '\n' starts a continuation line */
};

/* The table; a name may have several rows when commands describe it differently, never two for
 * one command (tests/request checks). */
extern const struct pcibw_option pcibw_options[];
extern const int pcibw_n_options;

/* A command: its name, its bit and the words around its options in --help. */
struct pcibw_command_info {
	const char *name;
	enum pcibw_command bit;
	bool takes_files;   /* FILE... operands (analyze); others refuse any operand */
	const char *usage;  /* "Usage: ..." lines */
	const char *about;  /* what it does, before the options */
	const char *footer; /* after the options: exit codes, notes */
};
extern const struct pcibw_command_info pcibw_commands[];
extern const int pcibw_n_commands;

/* pcibw_command_find - the command called name, or NULL. */
const struct pcibw_command_info *pcibw_command_find(const char *name);

/* pcibw_option_label - "--name" or "-s" (static buffer per row: valid for the table's life). */
const char *pcibw_option_label(const struct pcibw_option *o);

/*
 * pcibw_request_parse - parse argv[1..argc) (argv[0] is the command name) for command cmd with
 * the table's rows for cmd, into req (initialised with pcibw_request_init). Operands become
 * req->files for a command that takes files, and after "--" everything is an operand. Values are
 * applied in command-line order, the last one winning, once no option is unknown; with -h/--help
 * values are not checked. Returns PCIBW_OK; PCIBW_EUSAGE with the message (no "pcibw CMD:"
 * prefix) for an unknown option, a missing or bad value, an operand where none is taken;
 * PCIBW_EINTERNAL (out of memory). Uses getopt_long: not reentrant.
 */
int pcibw_request_parse(struct pcibw_request *req, enum pcibw_command cmd, int argc, char **argv,
			struct pcibw_err *err);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* argv -> struct pcibw_request through the option table, with getopt_long. */
#include "pcibw/number.h"
#include "pcibw/options.h"
#include "src/util/nearest.h"
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* getopt_long's value for a long-only row: above every char */
#define LONG_BASE 1000

void pcibw_request_init(struct pcibw_request *req, enum pcibw_command cmd)
{
	memset(req, 0, sizeof *req);
	req->command = cmd;
	req->format = PCIBW_OUT_TEXT;
	req->pattern = PCIBW_PAT_BOTH;
	req->size_is = PCIBW_SIZE_FRAME;
	req->segment_devices = 1;
	req->mtu = 1500;
	req->cpus = PCIBW_NULL;
	req->cpu_mhz = NAN;
	req->interval_s = 1;
	req->record_max_bytes = 64.0 * 1024 * 1024;
	pcibw_thresholds_default(&req->thresholds);
}

void pcibw_request_free(struct pcibw_request *req)
{
	free(req->files);
	req->files = NULL;
	req->n_files = 0;
}

static const struct pcibw_option *row_of(enum pcibw_command cmd, int val)
{
	for (int i = 0; i < pcibw_n_options; i++) {
		const struct pcibw_option *o = &pcibw_options[i];
		if (!(o->commands & cmd))
			continue;
		if (val >= LONG_BASE ? val - LONG_BASE == i : o->short_name == val)
			return o;
	}
	return NULL;
}

static int apply(struct pcibw_request *req, const struct pcibw_option *o, const char *v,
		 struct pcibw_err *err)
{
	char *field = (char *)req + o->target;
	long n;
	double x;
	int st;
	switch (o->type) {
	case PCIBW_OPT_FLAG:
		*(bool *)field = true;
		return PCIBW_OK;
	case PCIBW_OPT_STRING:
		/* the last one winning silently would hide a typo or a pasted command line */
		if (*(const char **)field)
			return pcibw_fail(err, PCIBW_EUSAGE, "%s given twice ('%s' and '%s'): give it once",
					  pcibw_option_label(o), *(const char **)field, v);
		*(const char **)field = v;
		return PCIBW_OK;
	case PCIBW_OPT_INT:
		if ((st = pcibw_parse_long(pcibw_option_label(o), v, (long)o->lo, (long)o->hi, o->expect, &n,
					   err)))
			return st;
		*(int *)field = (int)n;
		return PCIBW_OK;
	case PCIBW_OPT_REAL:
		if ((st = pcibw_parse_real(pcibw_option_label(o), v, o->lo, o->hi, o->expect, &x, err)))
			return st;
		*(double *)field = x * (o->scale ? o->scale : 1);
		return PCIBW_OK;
	case PCIBW_OPT_CALL:
		return o->parse(req, v, err);
	}
	return pcibw_fail(err, PCIBW_EINTERNAL, "option table: %s has no type", pcibw_option_label(o));
}

/* An option of one value given twice is a usage error, never the last one winning silently (a
 * pasted command line with --ports 2 ... --ports 4 would place a different card than either
 * reader thinks). Flags may repeat; the repeatable NAME=VALUE options check each NAME themselves,
 * and a string option, --format/--json and --plot say so in their own words. */
static int given_once(const struct pcibw_option **rows, const char **vals, int i, struct pcibw_err *err)
{
	static const char *const own[] = {"nic-set", "col", "threshold", "format", "json", "plot"};
	const struct pcibw_option *o = rows[i];
	if (o->type == PCIBW_OPT_FLAG || o->type == PCIBW_OPT_STRING)
		return PCIBW_OK;
	for (size_t k = 0; o->name && k < sizeof own / sizeof own[0]; k++)
		if (!strcmp(o->name, own[k]))
			return PCIBW_OK;
	for (int j = 0; j < i; j++)
		if (rows[j] == o)
			return pcibw_fail(err, PCIBW_EUSAGE, "%s given twice ('%s' and '%s'): give it once",
					  pcibw_option_label(o), vals[j], vals[i]);
	return PCIBW_OK;
}

/* " (did you mean --json?)" for a long option near one that cmd takes, else "" */
static const char *did_you_mean(const char *bad, enum pcibw_command cmd, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!bad || strncmp(bad, "--", 2) || !bad[2])
		return buf;
	const char *names[256];
	size_t n = 0;
	for (int i = 0; i < pcibw_n_options && n < sizeof names / sizeof names[0]; i++)
		if ((pcibw_options[i].commands & cmd) && pcibw_options[i].name)
			names[n++] = pcibw_options[i].name;
	const char *typed = bad + 2;
	const char *near = pcibw_nearest_name(typed, strcspn(typed, "="), names, n);
	if (near)
		snprintf(buf, len, " (did you mean --%s?)", near);
	return buf;
}

/* The message for getopt's '?' or ':' on argv[optind - 1]. */
static int bad_option(int opt, char **argv, enum pcibw_command cmd, struct pcibw_err *err)
{
	const char *bad = argv[optind - 1];
	if (opt == ':')
		return pcibw_fail(err, PCIBW_EUSAGE, "option '%s' needs a value",
				  optopt && optopt < 256 ? (char[]){'-', (char)optopt, 0} : bad);
	/* "-x" inside a cluster ("-sx" is -s x, but "-hx" is -h then an unknown -x) */
	if (optopt && optopt < 256 && (!bad || bad[0] != '-' || bad[1] == '-' || !bad[1]))
		return pcibw_fail(err, PCIBW_EUSAGE, "option -%c: missing or unknown", optopt);
	char hint[96];
	return pcibw_fail(err, PCIBW_EUSAGE, "unknown option '%s'%s", bad ? bad : "?",
			  did_you_mean(bad, cmd, hint, sizeof hint));
}

int pcibw_request_parse(struct pcibw_request *req, enum pcibw_command cmd, int argc, char **argv,
			struct pcibw_err *err)
{
	const struct pcibw_command_info *ci = NULL;
	for (int i = 0; i < pcibw_n_commands; i++)
		if (pcibw_commands[i].bit == cmd)
			ci = &pcibw_commands[i];
	struct option *longopts = calloc((size_t)pcibw_n_options + 1, sizeof *longopts);
	/* (row, value) in command-line order, applied once every option is known; one argument may
	 * hold several options ("-hh"), at most one per character */
	size_t max_opts = (size_t)argc + 1;
	for (int i = 1; i < argc; i++)
		max_opts += strlen(argv[i]);
	const struct pcibw_option **rows = calloc(max_opts, sizeof *rows);
	const char **vals = calloc(max_opts, sizeof *vals);
	req->files = calloc((size_t)argc + 1, sizeof *req->files);
	char shortopts[3 + 3 * 32] = "-:";
	int st = PCIBW_OK, n = 0, nl = 0;
	const char *operand = NULL;
	if (!ci || !longopts || !rows || !vals || !req->files) {
		st = ci ? pcibw_fail(err, PCIBW_EINTERNAL, "out of memory")
			: pcibw_fail(err, PCIBW_EINTERNAL, "no such command (%d)", (int)cmd);
		goto out;
	}
	for (int i = 0; i < pcibw_n_options; i++) {
		const struct pcibw_option *o = &pcibw_options[i];
		if (!(o->commands & cmd))
			continue;
		if (o->name)
			longopts[nl++] =
			    (struct option){o->name, o->metavar ? required_argument : no_argument, NULL,
					    o->short_name ? o->short_name : LONG_BASE + i};
		if (o->short_name && strlen(shortopts) + 2 < sizeof shortopts) {
			size_t l = strlen(shortopts);
			shortopts[l] = o->short_name;
			shortopts[l + 1] = o->metavar ? ':' : '\0';
			shortopts[l + 2] = '\0';
		}
	}
	/* 0, not 1: glibc then forgets its place inside a cluster of short options ("-xs") where
	 * a previous parse stopped, which would point into that parse's argv */
	optind = 0;
	opterr = 0;
	int opt;
	/* leading '-': operands come back as 1, in order; ':' tells a missing value from an unknown option */
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (opt == '?' || opt == ':') {
			st = bad_option(opt, argv, cmd, err);
			goto out;
		}
		if (opt == 1) {
			if (ci->takes_files)
				req->files[req->n_files++] = optarg;
			else if (!operand)
				operand = optarg;
			continue;
		}
		const struct pcibw_option *o = row_of(cmd, opt);
		if (!o) {
			st =
			    pcibw_fail(err, PCIBW_EINTERNAL, "option table: no row for getopt value %d", opt);
			goto out;
		}
		rows[n] = o;
		vals[n++] = optarg;
	}
	/* after "--": operands only */
	for (int i = optind; i < argc; i++) {
		if (ci->takes_files)
			req->files[req->n_files++] = argv[i];
		else if (!operand)
			operand = argv[i];
	}
	for (int i = 0; i < n; i++)
		if (rows[i]->type == PCIBW_OPT_FLAG &&
		    rows[i]->target == offsetof(struct pcibw_request, help))
			req->help = true;
	if (req->help)
		goto out;
	if (operand) {
		st = pcibw_fail(err, PCIBW_EUSAGE, "unexpected argument '%s'", operand);
		goto out;
	}
	for (int i = 0; i < n && !st; i++)
		if (!(st = given_once(rows, vals, i, err)))
			st = apply(req, rows[i], vals[i], err);
out:
	free(longopts);
	free(rows);
	free(vals);
	return st;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysstat's CPU reports as a CPU source for a run: mpstat -P ALL, sar -P ALL and sar -u ALL
 * (sysstat 12: a "Linux VERSION (HOST) DATE ARCH (N CPU)" banner, then blocks of a header line
 * "TIME CPU %usr ... %idle" and one line per CPU, "all" first; an "Average:" block at the end).
 * Columns are found by name in each header (%usr or %user, %sys or %system, %irq, %soft, %idle,
 * %iowait), so any column order and the 12-hour "AM"/"PM" times read alike: values are counted
 * from the end of the line, where the header's names are.
 */
#include "ingest_int.h"
#include "src/util/input.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS 4096
#define MAX_TOK 32

struct acc {
	double busy, irq;
	long n;
	long block;    /* the interval that last listed it (1..): a CPU twice in one is refused */
	unsigned line; /* that line */
};

struct cpustat {
	int idle, iowait, irq, soft; /* indices among the header's names after CPU; -1 */
	int nvals;		     /* names after CPU */
	bool have_header;
	bool in_average; /* the current block is the Average: one */
	struct acc all, cpu[MAX_CPUS];
	struct acc avg_all, avg_cpu[MAX_CPUS];
	bool any_avg;
	int max_cpu;
	long block;	  /* intervals begun: a header line, or a row of a time other than the last's */
	char when[64];	  /* that time ("10:59:35", "10:00:02 AM", "Average:") */
	long banner_cpus; /* "(N CPU)" of the banner; 0 unknown */
};

static int split(char *line, char **tok)
{
	int n = 0;
	for (char *p = strtok(line, " \t"); p && n < MAX_TOK; p = strtok(NULL, " \t"))
		tok[n++] = p;
	return n;
}

static int header(struct cpustat *c, char **tok, int n)
{
	int cpu = -1;
	for (int i = 0; i < n; i++)
		if (!strcmp(tok[i], "CPU"))
			cpu = i;
	if (cpu < 0)
		return 0;
	c->idle = c->iowait = c->irq = c->soft = -1;
	c->nvals = n - cpu - 1;
	for (int i = cpu + 1; i < n; i++) {
		int k = i - cpu - 1;
		if (!strcmp(tok[i], "%idle"))
			c->idle = k;
		else if (!strcmp(tok[i], "%iowait"))
			c->iowait = k;
		else if (!strcmp(tok[i], "%irq"))
			c->irq = k;
		else if (!strcmp(tok[i], "%soft"))
			c->soft = k;
	}
	if (c->idle < 0)
		return 0;
	c->have_header = true;
	c->in_average = !strcmp(tok[0], "Average:");
	c->block++;
	return 1;
}

static int value(const char *file, unsigned line, const char *text, double *v, struct pcibw_err *err)
{
	char where[600];
	snprintf(where, sizeof where, "%s:%u", file, line);
	return pcibw_check_value(text, PCIBW_VAL_PCT, where, v, err);
}

static int parse(const struct ingest_src *src, struct pcibw_cpu_sample *out, struct pcibw_err *err)
{
	const char *path = src->name;
	memset(out, 0, sizeof *out);
	struct cpustat *c = calloc(1, sizeof *c);
	if (!c)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	c->max_cpu = -1;
	struct linereader lr;
	ingest_lr_init(&lr, src);
	const char *l;
	size_t len;
	char buf[1024];
	bool banner = false;
	int st = PCIBW_OK;
	while ((l = ingest_lr_next(&lr, &len, err))) {
		if (len >= sizeof buf) {
			if (!c->have_header)
				continue;
			/* a row of a block cut short would drop a CPU unseen */
			st = pcibw_fail(
			    err, PCIBW_EINPUT,
			    "%s:%u: a line of %zu bytes in a block of CPU rows (expected a line of "
			    "mpstat -P ALL or sar -P ALL output, at most %zu bytes)",
			    path, lr.line, len, sizeof buf - 1);
			break;
		}
		memcpy(buf, l, len + 1);
		char *tok[MAX_TOK];
		if (!strncmp(buf, "Linux ", 6)) {
			banner = true;
			snprintf(out->tool, sizeof out->tool, "sysstat");
			/* sysstat's "(N CPU)": the CPUs a row may name */
			const char *p = strrchr(buf, '(');
			long ncpu;
			char close;
			if (p && sscanf(p, "(%ld CPU%c", &ncpu, &close) == 2 && close == ')' && ncpu > 0)
				c->banner_cpus = ncpu;
			continue;
		}
		int n = split(buf, tok);
		if (n == 0) {
			c->have_header = false; /* a blank line ends a block */
			continue;
		}
		if (!c->have_header) {
			header(c, tok, n);
			continue;
		}
		if (n < c->nvals + 1) {
			st = pcibw_fail(
			    err, PCIBW_EINPUT,
			    "%s:%u: %d fields where the header names %d values after CPU (expected "
			    "a line of mpstat -P ALL or sar -P ALL output)",
			    path, lr.line, n, c->nvals);
			break;
		}
		const char *id = tok[n - c->nvals - 1];
		/* sar -u ALL lists one interval per line under one header: the time tells them apart */
		char when[sizeof c->when] = "";
		for (int k = 0; k < n - c->nvals - 1; k++)
			snprintf(when + strlen(when), sizeof when - strlen(when), "%s%s", k ? " " : "",
				 tok[k]);
		if (strcmp(when, c->when)) {
			c->block++;
			snprintf(c->when, sizeof c->when, "%s", when);
		}
		double vals[MAX_TOK];
		for (int k = 0; k < c->nvals && st == PCIBW_OK; k++)
			st = value(path, lr.line, tok[n - c->nvals + k], &vals[k], err);
		if (st)
			break;
		double busy = 100 - vals[c->idle] - (c->iowait >= 0 ? vals[c->iowait] : 0);
		double irq = (c->irq >= 0 ? vals[c->irq] : NAN) + (c->soft >= 0 ? vals[c->soft] : 0);
		if (busy < 0)
			busy = 0;
		struct acc *a = NULL;
		bool avg = c->in_average;
		if (!strcmp(id, "all")) {
			a = avg ? &c->avg_all : &c->all;
		} else {
			char *e;
			long k = strtol(id, &e, 10);
			if (*e || k < 0 || k >= MAX_CPUS) {
				st = pcibw_fail(err, PCIBW_EINPUT,
						"%s:%u: CPU '%s' (expected all or a CPU number 0..%d)", path,
						lr.line, id, MAX_CPUS - 1);
				break;
			}
			if (c->banner_cpus && k >= c->banner_cpus) {
				st = pcibw_fail(
				    err, PCIBW_EINPUT,
				    "%s:%u: CPU %ld, but the banner says %ld CPU (expected CPU numbers "
				    "0..%ld)",
				    path, lr.line, k, c->banner_cpus, c->banner_cpus - 1);
				break;
			}
			a = avg ? &c->avg_cpu[k] : &c->cpu[k];
			if (k > c->max_cpu)
				c->max_cpu = (int)k;
		}
		if (a->block == c->block) {
			/* two rows of one CPU in one interval would be averaged into a CPU that never was */
			st = pcibw_fail(err, PCIBW_EINPUT,
					"%s:%u: CPU %s a second time in one interval (first at line %u): "
					"expected each CPU once per interval",
					path, lr.line, id, a->line);
			break;
		}
		a->block = c->block;
		a->line = lr.line;
		c->any_avg |= avg;
		a->busy += busy;
		a->irq += irq;
		a->n++;
	}
	if (st == PCIBW_OK && len == (size_t)-1)
		st = err->code;
	ingest_lr_free(&lr);
	if (st == PCIBW_OK && (!banner || (c->all.n == 0 && c->avg_all.n == 0)))
		st = pcibw_fail(err, PCIBW_EINPUT,
				"%s:1: not mpstat or sar CPU output (expected a 'Linux ...' banner and lines "
				"'TIME CPU %%usr ... %%idle' with an 'all' row)",
				path);
	if (st == PCIBW_OK) {
		/* the tool's own averages when it printed them, else the mean of the intervals */
		struct acc *all = c->any_avg ? &c->avg_all : &c->all, *cpu = c->any_avg ? c->avg_cpu : c->cpu;
		out->valid = true;
		snprintf(out->source, sizeof out->source, "%s", path);
		out->all_busy = all->busy / (double)all->n;
		out->all_irq = all->irq / (double)all->n;
		out->core_busy = out->core_irq = out->core_irq_max = NAN;
		out->core_id = out->core_irq_id = -1;
		for (int k = 0; k <= c->max_cpu; k++) {
			if (!cpu[k].n)
				continue;
			out->n_cpus++;
			double b = cpu[k].busy / (double)cpu[k].n, q = cpu[k].irq / (double)cpu[k].n;
			if (isnan(out->core_busy) || b > out->core_busy) {
				out->core_busy = b;
				out->core_irq = q;
				out->core_id = k;
			}
			if (!isnan(q) && (isnan(out->core_irq_max) || q > out->core_irq_max)) {
				out->core_irq_max = q;
				out->core_irq_id = k;
			}
		}
	}
	free(c);
	return st;
}

int pcibw_cpustat_read(const char *path, struct pcibw_cpu_sample *out, struct pcibw_err *err)
{
	FILE *fp;
	int rc = pcibw_input_open(path, "mpstat -P ALL or sar -P ALL / -u ALL output", 0, &fp, err);
	if (rc)
		return rc;
	struct ingest_src src = {.name = strcmp(path, "-") ? path : "-", .fp = fp};
	rc = parse(&src, out, err);
	fclose(fp);
	return rc;
}

int ingest_cpustat(const struct ingest_src *src, const struct pcibw_ingest_opts *opts, pcibw_row_cb cb,
		   void *ctx, struct pcibw_ingest_stats *st, struct pcibw_err *err)
{
	(void)opts, (void)cb, (void)ctx;
	return parse(src, &st->cpu, err);
}

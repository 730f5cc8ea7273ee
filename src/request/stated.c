/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Machines a results file states mid-file (stated.h). */
#include "stated.h"
#include "src/util/grow.h"
#include "src/util/input.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void request_stated_next_file(struct stated *s, int file)
{
	s->file = file;
	s->any = false;
	s->n_lead_file = s->n_cur = 0;
	s->cur_all = 0;
}

static unsigned number(struct stated *s, const char *text, const struct pcibw_input_defaults *d, int *st,
		       struct pcibw_err *err)
{
	for (int k = 0; k < s->n_lead; k++)
		if (s->lead[k].file == s->file && !strcmp(s->lead[k].d.iface, d->iface) &&
		    !strcmp(s->lead[k].text, text))
			return 0; /* the leading machine again: a link back to what it was */
	for (int k = 0; k < s->n; k++)
		if (s->v[k].file == s->file && !strcmp(s->v[k].d.iface, d->iface) &&
		    !strcmp(s->v[k].text, text))
			return s->v[k].no;
	if (s->n >= PCIBW_MAX_STATED) {
		*st = pcibw_fail(
		    err, PCIBW_EINPUT,
		    "%s: a machine stated again with a '# bus:' line: more than %d distinct ones "
		    "(expected one per link state a run saw: %d interfaces by %d link states, "
		    "the most pcibw watch writes)",
		    d->origin, PCIBW_MAX_STATED, PCIBW_WATCH_MAX_IFACES, PCIBW_WATCH_MAX_LINK_STATES);
		return 0;
	}
	if (pcibw_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v)) {
		*st = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		return 0;
	}
	struct stated_machine *m = &s->v[s->n++];
	memset(m, 0, sizeof *m);
	m->file = s->file;
	m->no = (unsigned)s->n;
	snprintf(m->text, sizeof m->text, "%s", text);
	m->d = *d;
	return m->no;
}

int request_stated_line(const char *source, unsigned line, bool leading, const char *text, size_t len,
			void *ctx, struct pcibw_err *err)
{
	struct stated *s = ctx;
	char buf[1024];
	const char *name = strcmp(source, "-") ? source : "standard input";
	if (len >= sizeof buf)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:%u:1: '# bus:' line of %zu bytes: expected at most %zu", name, line,
				  len, sizeof buf - 1);
	memcpy(buf, text, len);
	buf[len] = '\0';
	struct pcibw_input_defaults d;
	int st = pcibw_ingest_defaults_line(name, line, buf, &d, err);
	if (st)
		return st;
	if (leading) {
		/* the file's own machines: its interfaces' rows are set against theirs */
		/* the run's machine is resolved from the first input's head before its rows are read
		 * (pcibw_ingest_defaults): all of a file's head, but of a piped standard input only
		 * the whole lines of its bounded read-ahead; a line past them would be ignored */
		unsigned seen = !strcmp(source, "-") ? pcibw_input_stdin_head_lines() : UINT_MAX;
		if (!d.iface[0] && s->file == 0 && line > seen)
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:1: the file's '# bus:' line comes after the first %zu bytes "
					  "(%u whole lines) a piped input is read ahead by to find the run's "
					  "machine: expected it within them (or save the input to a file, "
					  "whose whole head is read, and name the file)",
					  name, line, PCIBW_INPUT_STDIN_HEAD, seen);
		if (s->n_lead_file >= PCIBW_MAX_LEADING)
			return pcibw_fail(
			    err, PCIBW_EINPUT,
			    "%s:%u:1: more than %d leading '# bus:' lines: expected one for the "
			    "file and one per interface, at most %d interfaces",
			    name, line, PCIBW_MAX_LEADING, PCIBW_WATCH_MAX_IFACES);
		if (!(s->n_lead % PCIBW_MAX_LEADING)) {
			struct stated_machine *g =
			    realloc(s->lead, (size_t)(s->n_lead + PCIBW_MAX_LEADING) * sizeof *g);
			if (!g)
				return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			s->lead = g;
		}
		struct stated_machine *m = &s->lead[s->n_lead++];
		memset(m, 0, sizeof *m);
		m->file = s->file;
		snprintf(m->text, sizeof m->text, "%s", buf);
		m->d = d;
		s->n_lead_file++;
		return PCIBW_OK;
	}
	unsigned no = number(s, buf, &d, &st, err);
	if (st)
		return st;
	s->any = true;
	if (!d.iface[0]) {
		/* every interface from here on, whatever each was stated before */
		s->cur_all = no;
		s->n_cur = 0;
		return PCIBW_OK;
	}
	int k = 0;
	while (k < s->n_cur && strcmp(s->cur[k].iface, d.iface))
		k++;
	if (k == s->n_cur) {
		if (k == (int)(sizeof s->cur / sizeof s->cur[0]))
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s: '# bus:' lines for more than %d interfaces (expected one per "
					  "interface watched)",
					  d.origin, k);
		snprintf(s->cur[k].iface, sizeof s->cur[k].iface, "%s", d.iface);
		s->n_cur++;
	}
	s->cur[k].no = no;
	return PCIBW_OK;
}

unsigned request_stated_no(const struct stated *s, const char *iface)
{
	if (!s->any)
		return 0;
	for (int k = 0; k < s->n_cur; k++)
		if (!strcmp(s->cur[k].iface, iface))
			return s->cur[k].no;
	return s->cur_all;
}

void request_stated_free(struct stated *s)
{
	free(s->v);
	free(s->lead);
	memset(s, 0, sizeof *s);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Machines a results file states mid-file (stated.h). */
#include "stated.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stated_next_file(struct stated *s, int file)
{
	s->file = file;
	s->any = false;
	s->n_lead = s->n_cur = 0;
	s->cur_all = 0;
}

static unsigned number(struct stated *s, const char *text, const struct pcibw_input_defaults *d, int *st,
		       struct pcibw_err *err)
{
	for (int k = 0; k < s->n_lead; k++)
		if (!strcmp(s->lead[k].iface, d->iface) && !strcmp(s->lead[k].text, text))
			return 0; /* the leading machine again: a link back to what it was */
	for (int k = 0; k < s->n; k++)
		if (s->v[k].file == s->file && !strcmp(s->v[k].d.iface, d->iface) &&
		    !strcmp(s->v[k].text, text))
			return s->v[k].no;
	if (s->n >= PCIBW_MAX_STATED) {
		*st =
		    pcibw_fail(err, PCIBW_EINPUT,
			       "%s: a machine stated again with a '# bus:' line: more than %d distinct ones "
			       "(expected one per link state a run saw)",
			       d->origin, PCIBW_MAX_STATED);
		return 0;
	}
	if (!s->v && !(s->v = calloc(PCIBW_MAX_STATED, sizeof *s->v))) {
		*st = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		return 0;
	}
	struct stated_machine *m = &s->v[s->n++];
	m->file = s->file;
	m->no = (unsigned)s->n;
	snprintf(m->text, sizeof m->text, "%s", text);
	m->d = *d;
	return m->no;
}

int stated_line(const char *source, unsigned line, bool leading, const char *text, size_t len, void *ctx,
		struct pcibw_err *err)
{
	struct stated *s = ctx;
	char buf[1024];
	if (len >= sizeof buf)
		return PCIBW_OK;
	memcpy(buf, text, len);
	buf[len] = '\0';
	struct pcibw_input_defaults d;
	int st =
	    pcibw_ingest_defaults_line(strcmp(source, "-") ? source : "standard input", line, buf, &d, err);
	if (st)
		return st;
	if (leading) {
		/* the leading lines are the file's own machines (pcibw_ingest_defaults_all) */
		if (s->n_lead < (int)(sizeof s->lead / sizeof s->lead[0])) {
			snprintf(s->lead[s->n_lead].iface, sizeof s->lead[0].iface, "%s", d.iface);
			snprintf(s->lead[s->n_lead].text, sizeof s->lead[0].text, "%s", buf);
			s->n_lead++;
		}
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

unsigned stated_no(const struct stated *s, const char *iface)
{
	if (!s->any)
		return 0;
	for (int k = 0; k < s->n_cur; k++)
		if (!strcmp(s->cur[k].iface, iface))
			return s->cur[k].no;
	return s->cur_all;
}

void stated_free(struct stated *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

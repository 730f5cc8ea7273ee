/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON laid out as jansson lays it out, written member by member (json_writer.h). */
#include "json_writer.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10) | JSON_ENCODE_ANY)

static int reserve(struct pcibw_jw *w, size_t more)
{
	if (w->len + more <= w->cap)
		return 0;
	size_t cap = w->cap ? w->cap : 4096;
	while (cap < w->len + more)
		cap *= 2;
	char *np = realloc(w->p, cap);
	if (!np)
		return w->err = -1;
	w->p = np;
	w->cap = cap;
	return 0;
}

static void append(struct pcibw_jw *w, const char *s, size_t n)
{
	if (w->err || reserve(w, n))
		return;
	memcpy(w->p + w->len, s, n);
	w->len += n;
}

static void newline(struct pcibw_jw *w, int depth)
{
	if (w->err || reserve(w, 1 + 2 * (size_t)depth))
		return;
	w->p[w->len++] = '\n';
	memset(w->p + w->len, ' ', 2 * (size_t)depth);
	w->len += 2 * (size_t)depth;
}

void pcibw_jw_reset(struct pcibw_jw *w, int depth)
{
	w->len = 0;
	w->depth = depth;
	w->open = 0;
	w->err = 0;
}

static void next(struct pcibw_jw *w)
{
	if (!w->open) {
		w->err = -1;
		return;
	}
	if (!w->first[w->open - 1])
		append(w, ",", 1);
	w->first[w->open - 1] = false;
	newline(w, w->depth);
}

void pcibw_jw_key(struct pcibw_jw *w, const char *key)
{
	next(w);
	append(w, "\"", 1);
	append(w, key, strlen(key));
	append(w, "\": ", 3);
}

void pcibw_jw_item(struct pcibw_jw *w)
{
	next(w);
}

void pcibw_jw_open(struct pcibw_jw *w, char c)
{
	if (w->open == PCIBW_JW_DEPTH) {
		w->err = -1;
		return;
	}
	append(w, &c, 1);
	w->first[w->open++] = true;
	w->depth++;
}

void pcibw_jw_close(struct pcibw_jw *w, char c)
{
	if (!w->open) {
		w->err = -1;
		return;
	}
	w->depth--;
	if (!w->first[--w->open])
		newline(w, w->depth);
	append(w, &c, 1);
}

/* a scalar through jansson, straight into the buffer */
static void scalar(struct pcibw_jw *w, const json_t *v)
{
	for (;;) {
		if (w->err)
			return;
		size_t room = w->cap - w->len, n = json_dumpb(v, w->p + w->len, room, FLAGS);
		if (!n) {
			w->err = -1;
			return;
		}
		if (n <= room) {
			w->len += n;
			return;
		}
		reserve(w, n);
	}
}

void pcibw_jw_num(struct pcibw_jw *w, double v)
{
	if (!isfinite(v)) {
		pcibw_jw_null(w);
		return;
	}
	if (!w->real)
		w->real = json_real(v);
	else
		json_real_set(w->real, v);
	if (!w->real)
		w->err = -1;
	else
		scalar(w, w->real);
}

void pcibw_jw_int(struct pcibw_jw *w, long long v)
{
	char s[32];
	int n = snprintf(s, sizeof s, "%lld", v);
	append(w, s, (size_t)n);
}

void pcibw_jw_str(struct pcibw_jw *w, const char *s)
{
	if (!s) {
		pcibw_jw_null(w);
		return;
	}
	if (!w->str && !(w->str = json_string(""))) {
		w->err = -1;
		return;
	}
	if (json_string_set(w->str, s)) {
		/* not UTF-8: a string still, its non-ASCII bytes as '?' */
		size_t n = strlen(s);
		char *c = malloc(n + 1);
		if (!c) {
			w->err = -1;
			return;
		}
		for (size_t i = 0; i <= n; i++)
			c[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
		int bad = json_string_set(w->str, c);
		free(c);
		if (bad) {
			w->err = -1;
			return;
		}
	}
	scalar(w, w->str);
}

void pcibw_jw_bool(struct pcibw_jw *w, bool v)
{
	append(w, v ? "true" : "false", v ? 4 : 5);
}

void pcibw_jw_null(struct pcibw_jw *w)
{
	append(w, "null", 4);
}

void pcibw_jw_json(struct pcibw_jw *w, const json_t *v)
{
	if (!v) {
		w->err = -1;
		return;
	}
	if (!json_is_object(v) && !json_is_array(v)) {
		scalar(w, v);
		return;
	}
	char *text = json_dumps(v, FLAGS);
	if (!text) {
		w->err = -1;
		return;
	}
	for (const char *p = text, *nl;; p = nl + 1) {
		nl = strchr(p, '\n');
		append(w, p, nl ? (size_t)(nl - p) : strlen(p));
		if (!nl)
			break;
		newline(w, w->depth);
	}
	free(text);
}

int pcibw_jw_write(struct pcibw_jw *w, FILE *out)
{
	if (w->err || w->open)
		return -1;
	return fwrite(w->p, 1, w->len, out) != w->len ? -1 : 0;
}

int pcibw_jw_drain(struct pcibw_jw *w, FILE *out)
{
	int rc = w->err || fwrite(w->p, 1, w->len, out) != w->len ? -1 : 0;
	w->len = 0;
	return rc;
}

void pcibw_jw_free(struct pcibw_jw *w)
{
	free(w->p);
	json_decref(w->real);
	json_decref(w->str);
	*w = (struct pcibw_jw){0};
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Streaming CSV over libcsv. libcsv does the RFC 4180 work (quoting, doubled quotes, CR/LF/CRLF);
 * this file adds what libcsv lacks and an error message needs: '#' comment lines, a UTF-8 BOM,
 * and the line and column of every record, field and parse error. Bytes are handed to
 * csv_parse() one line at a time, so a record's callback runs before the next line is read and
 * the line number it sees is its own.
 * Also refused here: NUL bytes (binary input; libcsv would keep them and a field would end at the
 * first one) and records over CSVR_MAX_RECORD bytes, counted as they arrive so that input without
 * line ends (/dev/zero, a binary file) stops at once instead of growing libcsv's buffer forever.
 * The delimiter is ',' unless the first content line has none outside quotes and has ';' (the
 * CSV of spreadsheets in locales with a decimal comma) or a tab (TSV).
 */
#include "ingest_int.h"
#include <csv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct csvr {
	const struct ingest_src *src;
	struct csv_parser p;
	csvr_cb cb;
	void *ctx;
	struct pcibw_err *err;
	int status;

	/* scanner */
	unsigned line, col; /* position of the byte being scanned */
	bool at_line_start, in_quote, in_comment, first_byte;
	unsigned quote_line, quote_col;
	unsigned feed_line, feed_col; /* position of the first byte not yet given to libcsv */
	unsigned field_cols[CSVR_MAX_FIELDS];
	int n_field_cols;
	size_t rec_bytes; /* bytes of the record being scanned */
	unsigned char delim;

	/* the record libcsv is building */
	struct csvr_record rec;
	char store[CSVR_MAX_RECORD];
	size_t used;
	bool overflow;
};

static void on_field(void *s, size_t len, void *data)
{
	struct csvr *r = data;
	if (r->rec.n >= CSVR_MAX_FIELDS || r->used + len + 1 > sizeof r->store) {
		r->overflow = true;
		return;
	}
	char *dst = r->store + r->used;
	if (len)
		memcpy(dst, s, len);
	dst[len] = '\0';
	r->rec.f[r->rec.n] = dst;
	r->rec.col[r->rec.n] = r->rec.n < r->n_field_cols ? r->field_cols[r->rec.n] : 0;
	r->rec.n++;
	r->used += len + 1;
}

static void on_record(int term, void *data)
{
	(void)term;
	struct csvr *r = data;
	if (r->status == PCIBW_OK) {
		if (r->overflow) {
			r->status =
			    pcibw_fail(r->err, PCIBW_EINPUT,
				       "%s:%u:1: record too long (expected at most %d fields and %d bytes)",
				       r->src->name, r->rec.line, CSVR_MAX_FIELDS, CSVR_MAX_RECORD);
		} else {
			bool empty = true;
			for (int i = 0; i < r->rec.n && empty; i++)
				empty = blank(r->rec.f[i]);
			if (!empty)
				r->status = r->cb(&r->rec, r->ctx, r->err);
		}
	}
	r->rec.n = 0;
	r->used = 0;
	r->overflow = false;
}

/* Position of byte k of a run that started at (line, col). */
static void advance(const unsigned char *s, size_t k, unsigned *line, unsigned *col)
{
	for (size_t i = 0; i < k; i++) {
		if (s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int feed(struct csvr *r, const unsigned char *s, size_t n)
{
	if (n == 0)
		return r->status;
	size_t done = csv_parse(&r->p, s, n, on_field, on_record, r);
	if (r->status != PCIBW_OK)
		return r->status;
	if (done < n) {
		unsigned line = r->feed_line, col = r->feed_col;
		advance(s, done, &line, &col);
		return r->status =
			   pcibw_fail(r->err, PCIBW_EINPUT,
				      "%s:%u:%u: malformed CSV (%s): expected a quote only at the start "
				      "of a field, doubled inside a quoted field, and closing it",
				      r->src->name, line, col, csv_strerror(csv_error(&r->p)));
	}
	advance(s, n, &r->feed_line, &r->feed_col);
	return PCIBW_OK;
}

static int scan(struct csvr *r, const unsigned char *s, size_t n)
{
	size_t start = 0, i = 0;
	if (r->first_byte && n) {
		r->first_byte = false;
		if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
			start = i = 3; /* the BOM is not data; columns count from after it */
	}
	for (; i < n; i++) {
		unsigned char c = s[i];
		if (r->in_comment) {
			r->col++;
			if (c == '\0') /* a comment never ends in binary input (printf '#'; cat /dev/zero) */
				return r->status = pcibw_fail(r->err, PCIBW_EINPUT,
							      "%s:%u:%u: NUL byte (expected "
							      "text: CSV holds no binary data)",
							      r->src->name, r->line, r->col);
			start = i + 1; /* comment bytes are never data, even when a read ends in one */
			if (c == '\n') {
				r->in_comment = false;
				r->at_line_start = true;
				r->line++;
				r->col = 0;
				r->feed_line = r->line;
				r->feed_col = 1;
			}
			continue;
		}
		if (r->at_line_start && !r->in_quote) {
			if (c == '#') {
				if (feed(r, s + start, i - start))
					return r->status;
				start = i + 1;
				r->in_comment = true;
				r->col = 1; /* the '#' */
				continue;
			}
			r->rec.line = r->line;
			r->n_field_cols = 1;
			r->field_cols[0] = 1;
		}
		r->at_line_start = false;
		r->col++;
		if (c == '\0')
			return r->status = pcibw_fail(r->err, PCIBW_EINPUT,
						      "%s:%u:%u: NUL byte (expected text: "
						      "CSV holds no binary data)",
						      r->src->name, r->line, r->col);
		if (++r->rec_bytes > CSVR_MAX_RECORD)
			return r->status = pcibw_fail(r->err, PCIBW_EINPUT,
						      "%s:%u:1: record too long (expected "
						      "at most %d bytes per record)",
						      r->src->name, r->rec.line, CSVR_MAX_RECORD);
		if (c == '"') {
			if (!r->in_quote) {
				r->quote_line = r->line;
				r->quote_col = r->col;
			}
			r->in_quote = !r->in_quote;
		} else if (c == r->delim && !r->in_quote) {
			if (r->n_field_cols < CSVR_MAX_FIELDS)
				r->field_cols[r->n_field_cols++] = r->col + 1;
		} else if (c == '\n') {
			r->line++;
			r->col = 0;
			if (!r->in_quote) {
				if (feed(r, s + start, i + 1 - start))
					return r->status;
				start = i + 1;
				r->at_line_start = true;
				r->rec_bytes = 0;
			}
		}
	}
	return feed(r, s + start, n - start);
}

/* libcsv skips blanks at the start and end of fields; with a tab delimiter only spaces are blanks. */
static int space_only(unsigned char c)
{
	return c == ' ';
}

/* The delimiter of the first content line of head (BOM, '#' comments and blank lines skipped). */
static unsigned char delimiter(const char *head, size_t len)
{
	size_t p = len >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3) ? 3 : 0;
	while (p < len) {
		size_t e = p;
		while (e < len && head[e] != '\n')
			e++;
		size_t k = p;
		while (k < e && (head[k] == ' ' || head[k] == '\r'))
			k++;
		if (k < e && head[k] != '#') {
			bool q = false, comma = false, semi = false, tab = false;
			for (size_t i = k; i < e; i++) {
				if (head[i] == '"')
					q = !q;
				else if (!q)
					comma |= head[i] == ',', semi |= head[i] == ';',
					    tab |= head[i] == '\t';
			}
			return comma ? ',' : semi ? ';' : tab ? '\t' : ',';
		}
		p = e + 1;
	}
	return ',';
}

int csvr_run(const struct ingest_src *src, csvr_cb cb, void *ctx, struct pcibw_err *err)
{
	struct csvr *r = calloc(1, sizeof *r);
	if (!r)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	r->src = src;
	r->rec.file = src->name;
	r->cb = cb;
	r->ctx = ctx;
	r->err = err;
	r->line = r->feed_line = 1;
	r->feed_col = 1;
	r->at_line_start = r->first_byte = true;
	if (csv_init(&r->p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		free(r);
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	}
	r->delim = delimiter(src->head, src->head_len);
	csv_set_delim(&r->p, r->delim);
	if (r->delim == '\t')
		csv_set_space_func(&r->p, space_only);
	int st = scan(r, (const unsigned char *)src->head, src->head_len);
	unsigned char *buf = malloc(64 * 1024);
	if (!buf && st == PCIBW_OK)
		st = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	while (st == PCIBW_OK && src->fp) {
		size_t got = fread(buf, 1, 64 * 1024, src->fp);
		if (got == 0) {
			if (ferror(src->fp))
				st = pcibw_fail(err, PCIBW_EINPUT, "%s: read error", src->name);
			break;
		}
		st = scan(r, buf, got);
	}
	if (st == PCIBW_OK) {
		if (csv_fini(&r->p, on_field, on_record, r) != 0 && r->status == PCIBW_OK)
			st = pcibw_fail(
			    err, PCIBW_EINPUT,
			    "%s:%u:%u: quoted field opened here is never closed (expected a closing '\"')",
			    src->name, r->quote_line, r->quote_col);
		else
			st = r->status;
	}
	free(buf);
	csv_free(&r->p);
	free(r);
	return st;
}

int csvr_column(const struct csvr_record *rec, const char *name)
{
	for (int i = 0; i < rec->n; i++)
		if (!strcasecmp(rec->f[i], name))
			return i;
	return -1;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Streaming CSV over libcsv. libcsv does the RFC 4180 work (quoting, doubled quotes, CR/LF/CRLF);
 * this file adds what libcsv lacks and an error message needs: '#' comment lines, a UTF-8 BOM,
 * and the line and column of every record, field and parse error.
 * libcsv walks the bytes, in large runs: every run handed to csv_parse() ends at a line end, and
 * a run is cut only where a '#' starts a line outside a quoted field (a comment, skipped). Lines
 * are counted from libcsv's callbacks (CSV_REPALL_NL reports every unquoted line end; a line end
 * inside a quoted field is in the field's bytes). Columns are wanted only for messages: the raw
 * bytes of the record being read stay in the buffer, and ingest_csvr_col() finds them there when asked.
 * Also refused here: NUL bytes (binary input; libcsv would keep them and a field would end at the
 * first one) and records over CSVR_MAX_RECORD bytes, so that input without line ends stops at
 * once instead of growing libcsv's buffer forever.
 * The delimiter is ',' unless the first content line has none outside quotes and has ';' (the
 * CSV of spreadsheets in locales with a decimal comma) or a tab (TSV).
 */
#include "ingest_int.h"
#include <csv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* libcsv's state between records (csv.h documents the struct, not the names of its states) */
#define CSV_ROW_NOT_BEGUN 0
#define READ_BYTES (64 * 1024)
/* what is kept of a record (at most CSVR_MAX_RECORD) plus one read */
#define BUF_BYTES (CSVR_MAX_RECORD + READ_BYTES)

struct csvr {
	const struct ingest_src *src;
	struct csv_parser p;
	csvr_cb cb;
	void *ctx;
	struct pcibw_err *err;
	int status;
	unsigned char delim;

	/* lines, from the callbacks: line is that of the next byte libcsv reports on */
	unsigned line, rec_line; /* rec_line: where the record being built starts */

	/*
	 * buf[0..fill): buf[keep] starts the record being built or, between records, the next
	 * line (at keep_line, keep_col); buf[keep..fed) was parsed, buf[fed..fill) was not.
	 */
	unsigned char *buf;
	size_t fill, fed, keep;
	unsigned keep_line, keep_col;
	bool in_comment;
	bool any_record; /* a record (header or data) was handed over: a "# bus:" line is no longer leading */
	/* the run being parsed holds a quote or starts inside a quoted field: only then may a field
	 * hold a line end (a field is handed over in the run that holds its closing quote) */
	bool quoted_run;

	/* the record libcsv is building */
	struct csvr_record rec;
	char store[CSVR_MAX_RECORD];
	size_t used;
	bool overflow;
};

static unsigned count_lf(const char *s, size_t n)
{
	unsigned k = 0;
	if (!n)
		return 0;
	for (const char *e = s + n; (s = memchr(s, '\n', (size_t)(e - s))); s++)
		k++;
	return k;
}

/* Field bytes into the record: the long, the quoted and the refused ones. */
static void __attribute__((noinline)) field_rare(struct csvr *r, const char *s, size_t len)
{
	if (r->quoted_run)
		r->line += count_lf(s, len); /* a line end inside a quoted field */
	if (r->rec.n >= CSVR_MAX_FIELDS || r->used + len + 1 > sizeof r->store) {
		r->overflow = true;
		return;
	}
	char *dst = r->store + r->used;
	memcpy(dst, s, len);
	dst[len] = '\0';
	r->rec.f[r->rec.n] = dst;
	r->rec.len[r->rec.n++] = (unsigned)len;
	r->used += len + 1;
}

/*
 * A field of up to 16 bytes (nearly every one) is copied without a call: two overlapping words
 * cover any length from one word to two.
 */
static void on_field(void *s, size_t len, void *data)
{
	struct csvr *r = data;
	if (len > 16 || r->quoted_run || r->rec.n >= CSVR_MAX_FIELDS || r->used > sizeof r->store - 17) {
		field_rare(r, s, len);
		return;
	}
	const char *src = s;
	char *dst = r->store + r->used;
	if (len >= 8) {
		uint64_t a, b;
		memcpy(&a, src, 8);
		memcpy(&b, src + len - 8, 8);
		memcpy(dst, &a, 8);
		memcpy(dst + len - 8, &b, 8);
	} else if (len >= 4) {
		uint32_t a, b;
		memcpy(&a, src, 4);
		memcpy(&b, src + len - 4, 4);
		memcpy(dst, &a, 4);
		memcpy(dst + len - 4, &b, 4);
	} else {
		for (size_t i = 0; i < len; i++)
			dst[i] = src[i];
	}
	dst[len] = '\0';
	r->rec.f[r->rec.n] = dst;
	r->rec.len[r->rec.n++] = (unsigned)len;
	r->used += len + 1;
}

/* A field that starts with its text is not blank: the common case without a call. */
static bool field_blank(const struct csvr_record *rec, int i)
{
	unsigned char c = (unsigned char)rec->f[i][0];
	return rec->len[i] == 0 || ((c <= ' ' || c >= 0x7f) && ingest_blank(rec->f[i]));
}

static void on_record(int term, void *data)
{
	struct csvr *r = data;
	r->rec.line = r->rec_line;
	if (r->status == PCIBW_OK && (r->rec.n || r->overflow)) {
		if (r->overflow && r->rec.n < CSVR_MAX_FIELDS) {
			r->status =
			    pcibw_fail(r->err, PCIBW_EINPUT,
				       "%s:%u:1: record too long (expected at most %d bytes per record)",
				       r->src->name, r->rec.line, CSVR_MAX_RECORD);
		} else if (r->overflow) {
			r->status =
			    pcibw_fail(r->err, PCIBW_EINPUT,
				       "%s:%u:1: record too long (expected at most %d fields and %d bytes)",
				       r->src->name, r->rec.line, CSVR_MAX_FIELDS, CSVR_MAX_RECORD);
		} else {
			bool empty = true;
			for (int i = 0; i < r->rec.n && empty; i++)
				empty = field_blank(&r->rec, i);
			if (!empty) {
				r->any_record = true;
				r->status = r->cb(&r->rec, r->ctx, r->err);
			}
		}
	}
	if (term == '\n')
		r->line++;
	r->rec_line = r->line;
	r->rec.n = 0;
	r->rec.cols_known = false;
	r->used = 0;
	r->overflow = false;
}

/* Line and column of byte at of buf, counted from keep (only for messages). */
static void position(const struct csvr *r, size_t at, unsigned *line, unsigned *col)
{
	*line = r->keep_line;
	*col = r->keep_col;
	for (size_t i = r->keep; i < at; i++) {
		if (r->buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* Offset of the start of line `line` at or after keep (keep itself if it is not found). */
static size_t line_start(const struct csvr *r, unsigned line)
{
	size_t o = r->keep;
	for (unsigned l = r->keep_line; l < line && o < r->fill; o++)
		if (r->buf[o] == '\n')
			l++;
	return o;
}

/*
 * The raw record that starts at buf[o], scanned as libcsv reads it: the column of each field
 * start (cols, up to CSVR_MAX_FIELDS) and where the last quoted field opened (*qline, *qcol).
 */
static void scan_record(const struct csvr *r, size_t o, unsigned line, unsigned cols[], int *ncols,
			unsigned *qline, unsigned *qcol)
{
	unsigned col = 0;
	bool in_quote = false;
	*ncols = 1;
	cols[0] = 1;
	for (; o < r->fill; o++) {
		unsigned char c = r->buf[o];
		col++;
		if (c == '"') {
			if (!in_quote) {
				*qline = line;
				*qcol = col;
			}
			in_quote = !in_quote;
		} else if (c == r->delim && !in_quote) {
			if (*ncols < CSVR_MAX_FIELDS)
				cols[(*ncols)++] = col + 1;
		} else if (c == '\n') {
			if (!in_quote)
				return;
			line++;
			col = 0;
		}
	}
}

unsigned ingest_csvr_col(const struct csvr_record *rec, int i)
{
	if (i < 0 || i >= rec->n)
		return 0;
	if (rec->reader && !rec->cols_known) {
		const struct csvr *r = rec->reader;
		struct csvr_record *w = (struct csvr_record *)rec; /* the cache of a record in the reader */
		int n = 0;
		unsigned ql = 0, qc = 0;
		scan_record(r, line_start(r, rec->line), rec->line, w->col, &n, &ql, &qc);
		for (int k = n; k < rec->n; k++)
			w->col[k] = 0;
		w->cols_known = true;
	}
	return rec->col[i];
}

static int fail_at(struct csvr *r, size_t at, const char *what)
{
	unsigned line, col;
	position(r, at, &line, &col);
	return r->status = pcibw_fail(r->err, PCIBW_EINPUT, "%s:%u:%u: %s", r->src->name, line, col, what);
}

#define BUS_LINE_MAX 1024

/* a comment at buf[at..end) (its line end or the input's) that states a machine: to the hook */
static int bus_line(struct csvr *r, size_t at, size_t end)
{
	const struct pcibw_ingest_opts *o = r->src->opts;
	if (!o || !o->on_bus_line || end - at < 6 || memcmp(r->buf + at, "# bus:", 6))
		return PCIBW_OK;
	const unsigned char *lf = memchr(r->buf + at, '\n', end - at);
	size_t len = (lf ? (size_t)(lf - r->buf) : end) - at;
	while (len && r->buf[at + len - 1] == '\r')
		len--;
	if (len >= BUS_LINE_MAX)
		/* its rows would otherwise be judged on the machine stated before it */
		return r->status = pcibw_fail(r->err, PCIBW_EINPUT,
					      "%s:%u:1: '# bus:' line of %zu bytes: expected at most %d",
					      r->src->name, r->line, len, BUS_LINE_MAX - 1);
	return r->status = o->on_bus_line(r->src->name, r->line, !r->any_record, (const char *)r->buf + at,
					  len, o->on_bus_ctx, r->err);
}

/* a comment begun at buf[at..fill) whose line end has not been read, which may be a "# bus:" line
 * for the hook: kept for the next read rather than skipped */
static bool bus_line_pending(const struct csvr *r, size_t at)
{
	const struct pcibw_ingest_opts *o = r->src->opts;
	size_t n = r->fill - at;
	return o && o->on_bus_line && !memcmp(r->buf + at, "# bus:", n < 6 ? n : 6);
}

/* a "# bus:" line still pending that is already too long for one: refused, never skipped */
static int bus_line_long(struct csvr *r, size_t at)
{
	if (r->fill - at < BUS_LINE_MAX || !bus_line_pending(r, at))
		return PCIBW_OK;
	return r->status = pcibw_fail(r->err, PCIBW_EINPUT,
				      "%s:%u:1: '# bus:' line of more than %d bytes: expected at most %d",
				      r->src->name, r->line, BUS_LINE_MAX - 1, BUS_LINE_MAX - 1);
}

/* Parse buf[fed..end), which ends at a line end or at the end of the input. */
static int feed(struct csvr *r, size_t end)
{
	size_t n = end - r->fed;
	if (n == 0)
		return r->status;
	r->quoted_run = r->p.pstate != CSV_ROW_NOT_BEGUN || memchr(r->buf + r->fed, '"', n);
	size_t done = csv_parse(&r->p, r->buf + r->fed, n, on_field, on_record, r);
	if (r->status != PCIBW_OK)
		return r->status;
	if (done < n) {
		char what[256];
		snprintf(what, sizeof what,
			 "malformed CSV (%s): expected a quote only at the start of a field, doubled "
			 "inside a quoted field, and closing it",
			 csv_strerror(csv_error(&r->p)));
		return fail_at(r, r->fed + done, what);
	}
	r->fed = end;
	if (r->p.pstate == CSV_ROW_NOT_BEGUN) {
		r->keep = end;
		r->keep_line = r->line;
		r->keep_col = 1;
	} else if (r->rec_line != r->keep_line) { /* a quoted field runs on: keep its record */
		r->keep = line_start(r, r->rec_line);
		r->keep_line = r->rec_line;
		r->keep_col = 1;
	}
	return PCIBW_OK;
}

/* Parse what buf holds up to its last line end (to its end when the input has ended). */
static int parse(struct csvr *r, bool at_end)
{
	size_t upto = r->fill;
	if (!at_end) {
		const unsigned char *lf = memrchr(r->buf + r->fed, '\n', r->fill - r->fed);
		upto = lf ? (size_t)(lf - r->buf) + 1 : r->fed;
	}
	while (r->fed < upto) {
		if (r->in_comment) {
			const unsigned char *lf = memchr(r->buf + r->fed, '\n', upto - r->fed);
			size_t e = lf ? (size_t)(lf - r->buf) + 1 : upto;
			r->keep_col += (unsigned)(e - r->fed);
			r->fed = r->keep = e;
			if (lf) {
				r->in_comment = false;
				r->rec_line = ++r->line;
				r->keep_line = r->line;
				r->keep_col = 1;
			}
			continue;
		}
		/* the next '#' that starts a line */
		size_t seg = upto;
		for (size_t k = r->fed; k < upto;) {
			const unsigned char *h = memchr(r->buf + k, '#', upto - k);
			if (!h)
				break;
			k = (size_t)(h - r->buf);
			if (k == 0 || r->buf[k - 1] == '\n') {
				seg = k;
				break;
			}
			k++;
		}
		if (feed(r, seg))
			return r->status;
		if (seg < upto) {
			if (r->p.pstate == CSV_ROW_NOT_BEGUN) {
				r->in_comment = true; /* the comment's bytes are never data */
				if (bus_line(r, seg, upto))
					return r->status;
			} else if (feed(r, seg + 1))
				return r->status; /* a '#' inside a quoted field */
		}
	}
	/* a comment line not ended yet */
	if (!r->in_comment && r->fed < r->fill && r->buf[r->fed] == '#' && r->p.pstate == CSV_ROW_NOT_BEGUN &&
	    (r->fed == 0 || r->buf[r->fed - 1] == '\n') && bus_line_long(r, r->fed))
		return r->status;
	if (!r->in_comment && r->fed < r->fill && r->buf[r->fed] == '#' && r->p.pstate == CSV_ROW_NOT_BEGUN &&
	    (r->fed == 0 || r->buf[r->fed - 1] == '\n') && !bus_line_pending(r, r->fed))
		r->in_comment = true;
	/* what is kept is one record (or one line) so far: it may not grow beyond the limit */
	if (r->fill - r->keep > CSVR_MAX_RECORD && !r->in_comment)
		return r->status = pcibw_fail(r->err, PCIBW_EINPUT,
					      "%s:%u:1: record too long (expected "
					      "at most %d bytes per record)",
					      r->src->name, r->keep_line, CSVR_MAX_RECORD);
	if (r->in_comment) { /* a comment without its line end yet: nothing of it is kept */
		r->keep_col += (unsigned)(r->fill - r->fed);
		r->fed = r->keep = r->fill;
	}
	return PCIBW_OK;
}

/* Append n bytes to buf (room made by dropping what is parsed and not kept); a NUL ends them. */
static int append(struct csvr *r, const char *s, size_t n, bool *nul)
{
	if (r->keep) {
		memmove(r->buf, r->buf + r->keep, r->fill - r->keep);
		r->fill -= r->keep;
		r->fed -= r->keep;
		r->keep = 0;
	}
	const char *z = memchr(s, '\0', n);
	if (z) {
		*nul = true;
		n = (size_t)(z - s);
	}
	memcpy(r->buf + r->fill, s, n);
	r->fill += n;
	return PCIBW_OK;
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

int ingest_csvr_run(const struct ingest_src *src, csvr_cb cb, void *ctx, struct pcibw_err *err)
{
	struct csvr *r = calloc(1, sizeof *r);
	unsigned char *buf = malloc(BUF_BYTES);
	if (!r || !buf) {
		free(r);
		free(buf);
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	}
	r->src = src;
	r->buf = buf;
	r->rec.file = src->name;
	r->rec.reader = r;
	r->cb = cb;
	r->ctx = ctx;
	r->err = err;
	r->line = r->rec_line = r->keep_line = r->keep_col = 1;
	if (csv_init(&r->p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL | CSV_REPALL_NL) != 0) {
		free(buf);
		free(r);
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	}
	r->delim = delimiter(src->head, src->head_len);
	csv_set_delim(&r->p, r->delim);
	if (r->delim == '\t')
		csv_set_space_func(&r->p, space_only);
	const char *head = src->head;
	size_t head_len = src->head_len;
	if (head_len >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3)) {
		head += 3; /* the BOM is not data; columns count from after it */
		head_len -= 3;
	}
	bool nul = false, at_end = !src->fp;
	int st = PCIBW_OK;
	/* the detection head first, in pieces that fit beside what is kept */
	for (size_t o = 0; st == PCIBW_OK && !nul && o < head_len;) {
		size_t n = head_len - o < READ_BYTES ? head_len - o : READ_BYTES;
		append(r, head + o, n, &nul);
		o += n;
		st = parse(r, at_end && o == head_len && !nul);
	}
	while (st == PCIBW_OK && !nul && !at_end) {
		append(r, "", 0, &nul); /* room first */
		size_t got = fread(r->buf + r->fill, 1, READ_BYTES, src->fp);
		if (got == 0) {
			if (ferror(src->fp))
				st = pcibw_fail(err, PCIBW_EINPUT, "%s: read error", src->name);
			at_end = true;
		} else {
			const unsigned char *z = memchr(r->buf + r->fill, '\0', got);
			if (z) {
				nul = true;
				got = (size_t)(z - (r->buf + r->fill));
			}
			r->fill += got;
		}
		if (st == PCIBW_OK)
			st = parse(r, at_end);
	}
	if (st == PCIBW_OK && nul) { /* what came before it is read; then the NUL is said */
		st = parse(r, true);
		if (st == PCIBW_OK)
			st = fail_at(r, r->fill, "NUL byte (expected text: CSV holds no binary data)");
	}
	if (st == PCIBW_OK) {
		r->quoted_run = true;
		if (csv_fini(&r->p, on_field, on_record, r) != 0 && r->status == PCIBW_OK) {
			int n = 0;
			unsigned ql = r->keep_line, qc = 1;
			scan_record(r, r->keep, r->keep_line, r->rec.col, &n, &ql, &qc);
			st = pcibw_fail(
			    err, PCIBW_EINPUT,
			    "%s:%u:%u: quoted field opened here is never closed (expected a closing '\"')",
			    src->name, ql, qc);
		} else {
			st = r->status;
		}
	}
	free(buf);
	csv_free(&r->p);
	free(r);
	return st;
}

int ingest_csvr_column(const struct csvr_record *rec, const char *name)
{
	for (int i = 0; i < rec->n; i++)
		if (!strcasecmp(rec->f[i], name))
			return i;
	return -1;
}

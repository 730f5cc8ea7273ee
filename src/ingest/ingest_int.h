/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the ingest formats: the opened input, a streaming CSV reader over libcsv, a line
 * reader for text formats, and the small helpers every format uses. Not a public API. */
#ifndef PCIBW_INGEST_INT_H
#define PCIBW_INGEST_INT_H

#include "pcibw/ingest.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* An opened input: the bytes already read for format detection (head) come first, then fp. */
struct ingest_src {
	const char *name;
	FILE *fp;
	const char *head;
	size_t head_len;
	const struct pcibw_ingest_opts *opts; /* its on_bus_line hook: csvr_run calls it */
};

/* ---- streaming CSV (csvread.c) ---- */
#define CSVR_MAX_FIELDS 256
#define CSVR_MAX_RECORD (64 * 1024)

struct csvr;
struct csvr_record {
	const char *file;
	unsigned line;			/* line the record starts on */
	int n;				/* fields */
	const char *f[CSVR_MAX_FIELDS]; /* NUL-terminated, unquoted, surrounding blanks trimmed */
	unsigned len[CSVR_MAX_FIELDS];	/* strlen(f[i]) unless a field holds a NUL (never from csvr_run) */
	/* 1-based column where each field starts: read it with ingest_csvr_col(). A record csvr_run
	 * hands over (reader set) finds its columns only when a message asks; a record built
	 * elsewhere (reader NULL) fills col itself. */
	unsigned col[CSVR_MAX_FIELDS];
	const struct csvr *reader;
	bool cols_known;
};

/* Called per record (comment lines, a leading BOM and blank lines never reach it). */
typedef int (*csvr_cb)(const struct csvr_record *rec, void *ctx, struct pcibw_err *err);

/*
 * ingest_csvr_run - parse src as RFC 4180 CSV with libcsv in strict mode (CR, LF or CRLF line ends; a
 * UTF-8 BOM; lines whose first character is '#' outside a quoted field are comments, of which
 * "# bus:" lines go to src->opts->on_bus_line when it is set). Reads in
 * 64 KiB chunks: memory does not grow with the file (one record is kept, at most CSVR_MAX_RECORD). Returns
 * PCIBW_OK, the callback's status, or PCIBW_EINPUT "file:line:column: ..." for malformed quoting or an
 * over-long record.
 */
int ingest_csvr_run(const struct ingest_src *src, csvr_cb cb, void *ctx, struct pcibw_err *err);

/* ingest_csvr_col - the 1-based column where field i of rec starts (0 if there is no field i). Valid
 * inside the csvr_run callback that was handed rec. */
unsigned ingest_csvr_col(const struct csvr_record *rec, int i);

/* ingest_csvr_column - index of the field equal to name (ASCII case ignored) in a header record, or -1. */
int ingest_csvr_column(const struct csvr_record *rec, const char *name);

/* ---- lines (lines.c) ---- */
#define LR_MAX_LINE (64 * 1024)
struct linereader {
	const struct ingest_src *src;
	size_t head_off;
	char *buf;
	size_t cap;
	unsigned line;
};
void ingest_lr_init(struct linereader *lr, const struct ingest_src *src);
/*
 * ingest_lr_next - next line without its line end (CR stripped; a UTF-8 BOM opening the first line
 * dropped, columns counting from after it), or NULL at EOF or on error. On error
 * *len is (size_t)-1 and err holds PCIBW_EINPUT "file:line:column: ..." for a NUL byte (binary
 * input) or a line over LR_MAX_LINE bytes, or PCIBW_EINTERNAL for out of memory.
 */
const char *ingest_lr_next(struct linereader *lr, size_t *len, struct pcibw_err *err);
void ingest_lr_free(struct linereader *lr);

/* ingest_read_all - head + the rest of fp into one heap buffer (NUL-terminated), at most max bytes.
 * Returns PCIBW_OK or PCIBW_EINPUT (too large, read error, or a NUL byte: "file:line:col"). */
int ingest_read_all(const struct ingest_src *src, size_t max, char **out, size_t *len, struct pcibw_err *err);

/* ---- helpers (detect.c) ---- */
void ingest_stats_skip(struct pcibw_ingest_stats *st, const char *file, unsigned line, const char *why);
void ingest_stats_note(struct pcibw_ingest_stats *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void ingest_stats_warn(struct pcibw_ingest_stats *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Copy at most PCIBW_MEASURE_TEXT-1 bytes. */
void ingest_copy_text(char *dst, const char *src);
/* Is the text empty or only blanks? */
bool ingest_blank(const char *s);

/* The values pcibw_check_value() accepts for a kind: lo..hi, lo itself excluded when lo_open. */
struct value_range {
	double lo, hi;
	bool lo_open;
};
struct value_range ingest_value_range(enum pcibw_value_kind k);

/* ingest_check_number - the limits of pcibw_check_value() for a value already converted (a kpps column
 * times 1000); text is the field as written, for the message. */
int ingest_check_number(const char *text, double v, enum pcibw_value_kind k, const char *where,
			struct pcibw_err *err);
/* ingest_check_value_at - pcibw_check_value() for text at file:line:col, times scale (a kpps column's
 * 1000) before the limits apply; formats the location only when refusing. */
int ingest_check_value_at(const char *text, enum pcibw_value_kind k, const char *file, unsigned line,
			  unsigned col, double scale, double *out, struct pcibw_err *err);
/* ingest_check_field - ingest_check_value_at() for field i of a CSV record; its column is found only when the
 * value is refused. */
int ingest_check_field(const struct csvr_record *rec, int i, enum pcibw_value_kind k, double scale,
		       double *out, struct pcibw_err *err);
/* ingest_field_num - field i of a CSV record as a number of kind k (check_value_at); a missing column
 * (i < 0) or a blank field gives NAN. */
int ingest_field_num(const struct csvr_record *rec, int i, enum pcibw_value_kind k, double *out,
		     struct pcibw_err *err);
/* ingest_direction_parse - rx, tx, both, dma-read, dma-write, dma-rw -> pcibw_pattern. 1 if known. */
int ingest_direction_parse(const char *text, int *dir);

/* ingest_iperf3_tcp_path - the TCP path figures of an iperf3 -J run (root: the whole document) into *p
 * (pcibw_tcp_path_init first): the counted intervals' window samples, end.streams[].sender and
 * end.sum_sent; with bidir only the streams the local side sent. mss: the segment size for the
 * retransmit share, NAN unknown. A figure that is not one is left out with a warning in st;
 * never fails. */
struct json_t;
void ingest_iperf3_tcp_path(const struct ingest_src *src, struct json_t *root, double mss, bool bidir,
			    struct pcibw_tcp_path *p, struct pcibw_ingest_stats *st);

/* ---- the formats ---- */
typedef int (*ingest_fn)(const struct ingest_src *src, const struct pcibw_ingest_opts *opts, pcibw_row_cb cb,
			 void *ctx, struct pcibw_ingest_stats *st, struct pcibw_err *err);
int ingest_csv(const struct ingest_src *, const struct pcibw_ingest_opts *, pcibw_row_cb, void *,
	       struct pcibw_ingest_stats *, struct pcibw_err *);
int ingest_iperf3(const struct ingest_src *, const struct pcibw_ingest_opts *, pcibw_row_cb, void *,
		  struct pcibw_ingest_stats *, struct pcibw_err *);
int ingest_netperf(const struct ingest_src *, const struct pcibw_ingest_opts *, pcibw_row_cb, void *,
		   struct pcibw_ingest_stats *, struct pcibw_err *);
int ingest_netperf_omni(const struct ingest_src *, const struct pcibw_ingest_opts *, pcibw_row_cb, void *,
			struct pcibw_ingest_stats *, struct pcibw_err *);
int ingest_cpustat(const struct ingest_src *, const struct pcibw_ingest_opts *, pcibw_row_cb, void *,
		   struct pcibw_ingest_stats *, struct pcibw_err *);
int ingest_iperf3_text(const struct ingest_src *, const struct pcibw_ingest_opts *, pcibw_row_cb, void *,
		       struct pcibw_ingest_stats *, struct pcibw_err *);
int ingest_pciebench(const struct ingest_src *, const struct pcibw_ingest_opts *, pcibw_row_cb, void *,
		     struct pcibw_ingest_stats *, struct pcibw_err *);

#endif

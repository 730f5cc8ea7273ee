/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_scan.h - strict reader of lspci -x/-xxx/-xxxx dumps, run before libpci's lenient dump
 * method sees the file (libpci skips malformed lines, stops at odd digit counts, accepts
 * offsets out of order and duplicate slots). It also remembers where every config byte sits in
 * the file, so later checks (capability lists, 0xffff ids) can name file:line:column.
 */
#ifndef PCIBW_DUMP_SCAN_H
#define PCIBW_DUMP_SCAN_H

#include "pcibw/error.h"
#include <stddef.h>

struct dump_dev {
	int domain, bus, dev, fn;
	int line;	   /* line of the slot line */
	int len;	   /* config bytes dumped: 64, 128 (CardBus), 256 or 4096 */
	int header_type;   /* config byte 0x0e bits 6:0 */
	int row_line[256]; /* per 16-byte row: file line ... */
	int row_col[256];  /* ... and column of the row's first byte */
};

struct dump_index {
	const char *path; /* as given (not owned) */
	struct dump_dev *v;
	int n, cap;
	char *data; /* the bytes checked, as read (heap; what libpci is handed) */
	size_t len;
};

/*
 * dump_scan - check that path is a well-formed lspci hex dump and index it. Accepted lines:
 * '#' comments, blank lines (end a device), indented lspci -v text, slot lines
 * "[DDDD[D]:]BB:DD.F description" and hex lines "OO: XX XX ... (16 bytes)" with offsets
 * 0x00, 0x10, ... in order (at most one space after the 16th byte); each device must dump 64,
 * 128 (CardBus), 256 or 4096 bytes. Lines hold at most 253 characters before the newline and the
 * last line must end with one (libpci's limits). path is read once (src/util/input.h: a
 * directory or device is refused, a pipe or FIFO read whole) and its bytes kept in idx->data.
 * Returns PCIBW_OK, or PCIBW_EINPUT with "path:line:column: what was found: what was expected"
 * ("path: what is wrong" when the file cannot be opened or is not a regular file).
 */
int dump_scan(const char *path, struct dump_index *idx, struct pcibw_err *err);
void dump_index_free(struct dump_index *idx);

/* dump_where - probe_locator callback: "path:line:column" of a config byte (ctx = dump_index). */
void dump_where(const void *ctx, int domain, int bus, int dev, int fn, int offset, char *buf, size_t len);

#endif

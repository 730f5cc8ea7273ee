/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_scan.h - strict reader of lspci -x/-xxx/-xxxx dumps. It checks every line as libpci's
 * lenient dump method would not (libpci skips malformed lines, stops at odd digit counts,
 * accepts offsets out of order and duplicate slots) and decodes the hex itself, so the file is
 * read once, as a stream, and what the probe decodes is exactly what was checked. It remembers
 * where config bytes sit in the file, so later checks (capability lists, bus numbers) can name
 * file:line:column.
 */
#ifndef PCIBW_DUMP_SCAN_H
#define PCIBW_DUMP_SCAN_H

#include "pcibw/error.h"
#include <stddef.h>
#include <stdint.h>

/* One device of the dump, kept for the whole run. */
struct dump_dev {
	int domain, bus, dev, fn;
	int line;	  /* line of the slot line */
	int len;	  /* config bytes dumped: 64, 128 (CardBus), 256 or 4096 */
	int header_type;  /* config byte 0x0e bits 6:0 */
	int row_line[16]; /* rows of the first 256 bytes: file line ... */
	int row_col[16];  /* ... and column of the row's first byte */
};

struct dump_index {
	const char *path; /* as given (not owned) */
	struct dump_dev *v;
	int n, cap;
	uint64_t *slots; /* open-addressing set of the slots seen: key + 1, 0 empty (heap) */
	int *slot_at;	 /* index in v of each slots[] entry */
	int slot_cap;	 /* a power of two, > 2 n */
	/* the device being read, while it is read and while the on_device callback runs */
	int cur; /* its index in v, or -1 */
	uint8_t cfg[4096];
	int cur_row_line[256], cur_row_col[256];
};

/*
 * Called once per device when its block is complete and well formed, in file order: i is its
 * index in idx->v, cfg its idx->v[i].len config bytes (valid during the call). A nonzero return
 * stops the scan and is dump_scan's result (the callback has filled err).
 */
typedef int (*dump_device_fn)(void *ctx, struct dump_index *idx, int i, const uint8_t *cfg);

/*
 * probe_dump_scan - check that path is a well-formed lspci hex dump, index it and hand each device to
 * on_device. Accepted lines: '#' comments, blank lines (end a device), indented lspci -v text,
 * slot lines "[DDDD[D]:]BB:DD.F description" and hex lines "OO: XX XX ... (16 bytes)" with
 * offsets 0x00, 0x10, ... in order (at most one space after the 16th byte); each device must
 * dump 64, 128 (CardBus), 256 or 4096 bytes. Lines hold at most 253 characters before the newline
 * and the last line must end with one (libpci's limits, kept so that the same file still reads
 * with lspci -F). path is opened once (src/util/input.h: a directory or device is refused, a
 * pipe or FIFO read as it comes) and read once, front to back, in bounded memory.
 * Returns PCIBW_OK, PCIBW_EINPUT with "path:line:column: what was found: what was expected"
 * ("path: what is wrong" when the file cannot be opened or read), or on_device's result.
 * idx is valid after any return until dump_index_free.
 */
int probe_dump_scan(const char *path, dump_device_fn on_device, void *ctx, struct dump_index *idx,
		    struct pcibw_err *err);
void probe_dump_index_free(struct dump_index *idx);

/* probe_dump_where - probe_locator callback: "path:line:column" of a config byte (ctx = dump_index):
 * any byte of the device being read, the first 256 bytes of the others. */
void probe_dump_where(const void *ctx, int domain, int bus, int dev, int fn, int offset, char *buf,
		      size_t len);

#endif

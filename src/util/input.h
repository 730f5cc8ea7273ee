/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input.h - how every pcibw reader opens a file it was given: once, read-only, without ever
 * blocking in open(). A path is opened with O_RDONLY|O_NONBLOCK (a FIFO with no writer would
 * otherwise hang open(); O_NONBLOCK is cleared right after) and checked with fstat on that same
 * descriptor (no second lookup of the name):
 *   - a directory or a device where a file is expected is refused at once;
 *   - a pipe or FIFO (`-` fed by a pipe, `<(cat x)`, mkfifo) is read once: as a stream by
 *     pcibw_input_open (constant memory), whole into memory by pcibw_input_read for a reader
 *     that needs two passes or a library that opens by name (pcibw_input_memfd); one with no
 *     writer reads as empty at once; inside a tree (a sysfs copy, PCIBW_INPUT_FILE_ONLY) it is
 *     refused without reading;
 *   - `-` is standard input, used as inherited (its flags are never changed).
 * Messages are "PATH: what it is: expected WHAT" with exit code PCIBW_EINPUT.
 */
#ifndef PCIBW_UTIL_INPUT_H
#define PCIBW_UTIL_INPUT_H

#include "pcibw/error.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum pcibw_input_flags {
	PCIBW_INPUT_FILE_ONLY = 1u << 0, /* a file of a copied tree: refuse a pipe or FIFO */
	PCIBW_INPUT_NO_STDIN = 1u << 1,	 /* "-" is a file name here, not standard input */
	PCIBW_INPUT_OPTIONAL = 1u << 2,	 /* a missing or unreadable file is PCIBW_OK with *data NULL */
};

/* Inputs held in memory (pipes, whole-file reads) stop here unless the caller says less. */
#define PCIBW_INPUT_MAX ((size_t)1 << 30)

/*
 * pcibw_input_open - open path for reading as described above. expected says what the file
 * should hold ("an lspci -xxx dump"), for messages. On success *fp reads the file or the pipe
 * from where it stands (the first byte of a file). The caller fcloses *fp (standard input
 * itself stays open).
 * With PCIBW_INPUT_OPTIONAL a missing or unreadable path gives PCIBW_OK and *fp NULL.
 * Returns PCIBW_OK, PCIBW_EINPUT (cannot open, directory, device, FIFO refused) or
 * PCIBW_EINTERNAL (out of memory). An empty input is the reader's to report.
 */
int pcibw_input_open(const char *path, const char *expected, unsigned flags, FILE **fp,
		     struct pcibw_err *err);

/*
 * pcibw_input_read - the whole content of path, opened as pcibw_input_open does, in a heap
 * buffer *data of *len bytes plus a terminating NUL (not counted); at most max bytes (more is
 * PCIBW_EINPUT: a regular file by its fstat size before a byte is read, "PATH: a file of N
 * bytes: expected ... of at most MAX bytes (not read)"; a pipe "larger than ..." once it passes
 * max). The caller frees *data. Returns as pcibw_input_open, and
 * PCIBW_EINPUT for a pipe that held nothing (no writer) or a read error.
 */
int pcibw_input_read(const char *path, const char *expected, unsigned flags, size_t max, char **data,
		     size_t *len, struct pcibw_err *err);

/*
 * pcibw_input_memfd - a sealed in-memory file holding exactly data[0..len), for a library that
 * opens its input by name (libpci's dump reader, its pci.ids): *fd is the file (close it when
 * the library is done) and path receives "/proc/self/fd/N" (plen >= 32). The library then reads
 * the very bytes pcibw checked, whatever happens to the original file meanwhile.
 * Returns PCIBW_OK or PCIBW_EINTERNAL (no memfd, /proc not mounted, out of memory).
 */
int pcibw_input_memfd(const char *data, size_t len, int *fd, char *path, size_t plen, struct pcibw_err *err);

/* How much of a piped standard input is read ahead for a peek at its leading lines. */
#define PCIBW_INPUT_STDIN_HEAD ((size_t)64 * 1024)

/*
 * pcibw_input_spool_stdin - when standard input is a pipe, FIFO or socket, read its first
 * PCIBW_INPUT_STDIN_HEAD bytes (or all of it, if shorter) ahead and keep them, so that they can
 * be looked at (pcibw_input_stdin_head: the "# bus:" lines of pcibw_ingest_defaults_all) and
 * still be read: the first pcibw_input_open of "-" serves the kept bytes, then the rest of the
 * pipe as it comes, so memory stays bounded however long the stream. A regular file is left as
 * it is (it is read twice as it is). Idempotent. Returns PCIBW_OK, or PCIBW_EINPUT for a read
 * error.
 */
int pcibw_input_spool_stdin(struct pcibw_err *err);

/* pcibw_input_stdin_head - the bytes pcibw_input_spool_stdin kept: true with *data, *len (not
 * NUL-terminated), false when standard input was not read ahead (not a pipe, or not asked). */
bool pcibw_input_stdin_head(const char **data, size_t *len);

/* pcibw_input_stdin_head_lines - how many whole lines (ended by '\n') the read-ahead of a piped
 * standard input holds: the lines a look at its head can see. UINT_MAX when the read-ahead holds
 * all of the input (the pipe ended within it), or when standard input was not read ahead. */
unsigned pcibw_input_stdin_head_lines(void);

#endif

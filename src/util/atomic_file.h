/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A file replaced whole or not at all: written to a temporary file in the same directory (so
 * the rename stays on one file system), flushed to disk, then renamed over the target (rename(2)
 * is atomic: a reader such as node_exporter's textfile collector sees the old file or the new
 * one, never half of one). The temporary name starts with '.' and does not end in the target's
 * extension, so a collector reading DIR/\*.prom never picks it up.
 */
#ifndef PCIBW_UTIL_ATOMIC_FILE_H
#define PCIBW_UTIL_ATOMIC_FILE_H

#include "pcibw/error.h"
#include <limits.h>
#include <stdio.h>

struct pcibw_atomic_file {
	FILE *f; /* write here between open and commit */
	char path[PATH_MAX], tmp[PATH_MAX];
};

/* pcibw_atomic_check - whether path may be replaced: PCIBW_OK when it does not exist or is a
 * regular file; PCIBW_EUSAGE naming it and its kind otherwise. pcibw_atomic_open checks too;
 * a command that writes later (every interval) checks first, before any work. */
int pcibw_atomic_check(const char *path, struct pcibw_err *err);

/* pcibw_atomic_open - start replacing path. PCIBW_OK; PCIBW_EUSAGE when path exists and is not
 * a regular file (a directory, device, FIFO or socket is never replaced) or is too long;
 * PCIBW_EINTERNAL ("cannot write output: FILE: ...") when its directory cannot take a new file
 * (missing, read-only, full): the output could not be written. */
int pcibw_atomic_open(struct pcibw_atomic_file *a, const char *path, struct pcibw_err *err);

/* pcibw_atomic_commit - flush, sync, make it readable by all (mode 0644: the collector runs as
 * another user), close and rename over the target. PCIBW_OK, or PCIBW_EINTERNAL naming what
 * failed ("cannot write output: FILE: No space left on device"); the temporary file is removed then. */
int pcibw_atomic_commit(struct pcibw_atomic_file *a, struct pcibw_err *err);

/* pcibw_atomic_abort - drop the temporary file; the target is untouched. */
void pcibw_atomic_abort(struct pcibw_atomic_file *a);

/*
 * pcibw_textfile_write - path replaced whole by what render writes to its stream (render(f, arg)
 * returns PCIBW_OK, or non-zero when a write failed: errno says why): open, render, commit; on a
 * failed render the temporary file is dropped and the target left as it was. The one writer of
 * `--textfile` (report and watch). PCIBW_OK; PCIBW_EUSAGE or PCIBW_EINTERNAL as pcibw_atomic_open;
 * PCIBW_EINTERNAL "cannot write output: FILE: REASON" when the render or the commit fails.
 */
int pcibw_textfile_write(const char *path, int (*render)(FILE *f, const void *arg), const void *arg,
			 struct pcibw_err *err);

#endif

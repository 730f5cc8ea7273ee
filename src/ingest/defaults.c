/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine a results file states about itself, in its leading '#' lines: "# bus: SPEC nic:
 * NAME line_rate: RATE cpus: N cpu_mhz: F" (what `pcibw watch --format csv` writes). Only the
 * comment and blank lines before the first other line are read; each KEY: VALUE pair is
 * optional, "-" and "unknown" say nothing.
 */
#include "pcibw/ingest.h"
#include "pcibw/model.h"
#include "pcibw/nic.h"
#include "src/util/input.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int pair(const char *path, unsigned ln, unsigned col, const char *key, const char *val,
		struct pcibw_input_defaults *d, struct pcibw_err *err)
{
	struct pcibw_err e = {0};
	char *end;
	if (!strcmp(val, "-") || !strcmp(val, "unknown"))
		return PCIBW_OK;
	if (!strcmp(key, "bus")) {
		/* checked here, where the file and line are known: later it reads as an option
		 * ("virtual", a paravirtual device, as --bus takes it) */
		struct pcibw_bus b;
		if (strlen(val) >= sizeof d->bus)
			return pcibw_fail(
			    err, PCIBW_EINPUT,
			    "%s:%u:%u: bus '%.40s...': expected a bus spec of at most %zu bytes", path, ln,
			    col, val, sizeof d->bus - 1);
		if (strcmp(val, "virtual") && pcibw_bus_parse(val, &b, &e))
			return pcibw_fail(err, PCIBW_EINPUT, "%s:%u:%u: bus '%s': %s", path, ln, col, val,
					  e.msg);
		snprintf(d->bus, sizeof d->bus, "%s", val);
	} else if (!strcmp(key, "nic")) {
		struct pcibw_nic *n = malloc(sizeof *n);
		if (!n)
			return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		int st = strlen(val) >= sizeof d->nic ? PCIBW_EUSAGE : pcibw_nic_load(val, NULL, n, &e);
		free(n);
		if (st == PCIBW_EUSAGE || st == PCIBW_EINPUT)
			return pcibw_fail(err, PCIBW_EINPUT, "%s:%u:%u: nic '%s': %s", path, ln, col, val,
					  strlen(val) >= sizeof d->nic ? "expected a NIC profile name"
								       : e.msg);
		if (st)
			return pcibw_fail(err, st, "%s", e.msg);
		snprintf(d->nic, sizeof d->nic, "%s", val);
	} else if (!strcmp(key, "line_rate")) {
		if (pcibw_line_rate_parse(val, &d->line_rate_gbps, &e))
			return pcibw_fail(err, PCIBW_EINPUT, "%s:%u:%u: line_rate '%s': %s", path, ln, col,
					  val, e.msg);
	} else if (!strcmp(key, "iface")) {
		/* the rows of this interface only */
		snprintf(d->iface, sizeof d->iface, "%s", val);
		return PCIBW_OK;
	} else if (!strcmp(key, "cpus")) {
		long n = strtol(val, &end, 10);
		if (*end || end == val || n < 1 || n > 1 << 20)
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:%u: cpus '%s': expected a whole number of CPUs", path, ln,
					  col, val);
		d->cpus = (int)n;
	} else if (!strcmp(key, "cpu_mhz")) {
		double v = strtod(val, &end);
		if (*end || end == val || !(v >= 1 && v <= 1e5))
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:%u: cpu_mhz '%s': expected MHz, 1 to 100000", path, ln, col,
					  val);
		d->cpu_mhz = v;
	} else {
		return PCIBW_OK; /* a key of a newer writer */
	}
	d->found = true;
	return PCIBW_OK;
}

static void clear(struct pcibw_input_defaults *d)
{
	memset(d, 0, sizeof *d);
	d->cpus = -1;
	d->cpu_mhz = NAN;
}

static int defaults_line(const char *name, unsigned ln, const char *text, unsigned col0,
			 struct pcibw_input_defaults *d, struct pcibw_err *err);

/*
 * The lines of a file's head, one at a time, from a regular file (read at an offset, which is
 * left where it was) or from bytes in memory (a piped standard input's read-ahead). A line of
 * LINE_MAX_BYTES or more is handed over cut, flagged long, its rest skipped: the head is read
 * to its end however long it is, in one buffer's room.
 */
#define LINE_MAX_BYTES 1024
struct head {
	int fd; /* -1: mem */
	off_t off;
	const char *mem;
	size_t mem_len;
	size_t len, pos;
	bool eof;
	char buf[64 * 1024]; /* last: a new read clears what comes before it */
};

static void fill(struct head *h)
{
	if (h->pos) {
		memmove(h->buf, h->buf + h->pos, h->len - h->pos);
		h->len -= h->pos;
		h->pos = 0;
	}
	while (!h->eof && h->len < sizeof h->buf) {
		size_t room = sizeof h->buf - h->len;
		ssize_t got;
		if (h->fd < 0) {
			size_t left = h->mem_len - (size_t)h->off;
			got = (ssize_t)(left < room ? left : room);
			memcpy(h->buf + h->len, h->mem + h->off, (size_t)got);
		} else {
			got = pread(h->fd, h->buf + h->len, room, h->off);
			if (got < 0 && errno == EINTR)
				continue;
		}
		if (got <= 0) {
			h->eof = true;
			break;
		}
		h->off += got;
		h->len += (size_t)got;
	}
}

/* Whether a line that begins with text (NUL-terminated, a BOM before it on line 1) is a comment
 * whose rest must be skipped to reach the next line: any other line ends the head. */
static bool skip_rest(const char *text, unsigned ln)
{
	if (ln == 1 && !strncmp(text, "\xef\xbb\xbf", 3))
		text += 3;
	return text[0] == '#' && strncmp(text, "# bus:", 6);
}

/* the next line (without its '\n') into line (NUL-terminated, cut to LINE_MAX_BYTES - 1):
 * false at the end; *long_line when it was cut; *nul when it holds a NUL byte. A line that
 * holds a NUL, or is cut and is no comment the head goes past (skip_rest: ln is its number),
 * ends the head: it is not read on (a newline-free file of gigabytes is the reader's to
 * refuse, at its first bytes). */
static bool next_line(struct head *h, unsigned ln, char line[LINE_MAX_BYTES], bool *long_line, bool *nul)
{
	*long_line = *nul = false;
	size_t out = 0;
	for (;;) {
		if (*nul || (*long_line && (line[out] = '\0', !skip_rest(line, ln))))
			return true;
		if (h->pos == h->len)
			fill(h);
		if (h->pos == h->len)
			break;
		const char *at = h->buf + h->pos;
		size_t avail = h->len - h->pos;
		const char *nl = memchr(at, '\n', avail);
		size_t take = nl ? (size_t)(nl - at) : avail;
		*nul |= memchr(at, '\0', take) != NULL;
		size_t keep = take < LINE_MAX_BYTES - 1 - out ? take : LINE_MAX_BYTES - 1 - out;
		memcpy(line + out, at, keep);
		out += keep;
		*long_line |= keep < take;
		h->pos += take + (nl != NULL);
		if (nl) {
			line[out] = '\0';
			return true;
		}
	}
	line[out] = '\0';
	return out > 0 || *long_line;
}

int pcibw_ingest_defaults_all(const char *path, struct pcibw_input_defaults *d, int max, int *n,
			      struct pcibw_err *err)
{
	*n = 0;
	for (int i = 0; i < max; i++)
		clear(&d[i]);
	bool is_stdin = !strcmp(path, "-");
	/* Only a regular file, or the head of a piped standard input that
	 * pcibw_input_spool_stdin read ahead, is peeked at: a pipe or FIFO is otherwise read once,
	 * by the reader (a second reader here would take its bytes), and a device or a directory is
	 * the reader's to refuse. O_NONBLOCK keeps open() from waiting for a FIFO's writer. Standard
	 * input is read at its offset and left there, for the reader. */
	static struct head h;
	memset(&h, 0, offsetof(struct head, buf));
	h.fd = -1;
	const char *kept;
	size_t kept_len;
	if (is_stdin && pcibw_input_stdin_head(&kept, &kept_len)) {
		h.mem = kept;
		h.mem_len = kept_len;
		/* a read-ahead cut short of the input's end: its last, unended line is not whole */
		if (pcibw_input_stdin_head_lines() != UINT_MAX) {
			const char *nl = memrchr(kept, '\n', kept_len);
			h.mem_len = nl ? (size_t)(nl - kept) + 1 : 0;
		}
	} else {
		int fd = is_stdin ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
				  : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			return PCIBW_OK; /* the reader reports it, with its own message */
		struct stat sb;
		off_t at = is_stdin ? lseek(fd, 0, SEEK_CUR) : 0;
		if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || at < 0) {
			close(fd);
			return PCIBW_OK;
		}
		h.fd = fd;
		h.off = at;
	}
	const char *name = is_stdin ? "standard input" : path;
	unsigned ln = 0;
	int st = PCIBW_OK;
	char line[LINE_MAX_BYTES];
	bool long_line, nul;
	/* the whole head, to the first line that is neither blank nor a comment: the reader takes a
	 * "# bus:" line anywhere in it as the file's, so this must see it wherever it lies */
	while (!st && *n < max && next_line(&h, ln + 1, line, &long_line, &nul)) {
		ln++;
		if (nul)
			break; /* not one of watch's lines (the reader judges the file) */
		char *p = line;
		if (ln == 1 && !strncmp(p, "\xef\xbb\xbf", 3))
			p += 3;
		p[strcspn(p, "\r")] = '\0';
		if (!p[0] && !long_line)
			continue;
		if (p[0] != '#')
			break;
		if (strncmp(p, "# bus:", 6))
			continue; /* any other comment, however long */
		if (long_line)
			break; /* a '# bus:' line too long for one: the reader refuses it, naming it */
		if (!(st = defaults_line(name, ln, p, (unsigned)(p - line), &d[*n], err)))
			(*n)++;
	}
	if (h.fd >= 0)
		close(h.fd);
	return st;
}

/* col0: the columns before text on its line (a BOM) */
static int defaults_line(const char *name, unsigned ln, const char *text, unsigned col0,
			 struct pcibw_input_defaults *d, struct pcibw_err *err)
{
	clear(d);
	char line[1024];
	snprintf(line, sizeof line, "%s", text);
	int st = PCIBW_OK;
	/* "# bus: V nic: V ...": words ending in ':' are keys, the next word their value. A key
	 * given twice is refused, as the command line refuses an option given twice: the last
	 * one would win silently ("line_rate: 10G line_rate: 1G"). */
	char *save = NULL;
	const char *keys[64];
	int n_keys = 0;
	for (char *w = strtok_r(line + 1, " \t", &save); w && !st; w = strtok_r(NULL, " \t", &save)) {
		size_t wn = strlen(w);
		if (wn < 2 || w[wn - 1] != ':')
			continue;
		w[wn - 1] = '\0';
		for (int k = 0; k < n_keys && !st; k++)
			if (!strcmp(keys[k], w))
				st = pcibw_fail(err, PCIBW_EINPUT,
						"%s:%u:%u: '%s:' given twice on one '# bus:' line (expected "
						"each key once)",
						name, ln, col0 + (unsigned)(w - line) + 1, w);
		if (st)
			break;
		if (n_keys < (int)(sizeof keys / sizeof keys[0]))
			keys[n_keys++] = w;
		char *v = strtok_r(NULL, " \t", &save);
		if (!v)
			st = pcibw_fail(err, PCIBW_EINPUT, "%s:%u: '%s:' has no value", name, ln, w);
		else
			st = pair(name, ln, col0 + (unsigned)(v - line) + 1, w, v, d, err);
	}
	if (!st) {
		d->found = true;
		snprintf(d->origin, sizeof d->origin, "%.1000s:%u", name, ln);
	}
	return st;
}

int pcibw_ingest_defaults_line(const char *name, unsigned ln, const char *text,
			       struct pcibw_input_defaults *d, struct pcibw_err *err)
{
	return defaults_line(name, ln, text, 0, d, err);
}

int pcibw_ingest_defaults(const char *path, struct pcibw_input_defaults *d, struct pcibw_err *err)
{
	int n;
	return pcibw_ingest_defaults_all(path, d, 1, &n, err);
}

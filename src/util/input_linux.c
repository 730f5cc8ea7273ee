/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening inputs once and read-only, never blocking in open(); see input.h. Linux: memfd. */
#include "input.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "is a directory";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "is a device";
	if (S_ISFIFO(m))
		return "is a pipe or FIFO";
	if (S_ISSOCK(m))
		return "is a socket";
	return "is not a regular file";
}

/* Open and classify. *fd is ours to close unless *is_stdin. *pipe_like: read it whole now.
 * Returns -1 (nothing recorded) for an optional file that is not there. */
static int open_checked(const char *path, const char *expected, unsigned flags, int *fd, int *is_stdin,
			int *pipe_like, struct pcibw_err *err)
{
	struct stat st;
	*is_stdin = !(flags & PCIBW_INPUT_NO_STDIN) && !strcmp(path, "-");
	if (!*path)
		return pcibw_fail(err, PCIBW_EINPUT, "'': empty file name: expected %s", expected);
	if (*is_stdin) {
		*fd = STDIN_FILENO; /* inherited: its flags belong to whoever shares it */
	} else {
		*fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		if (*fd < 0 && (flags & PCIBW_INPUT_OPTIONAL) &&
		    (errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == EPERM))
			return -1;
		if (*fd < 0)
			return pcibw_fail(err, PCIBW_EINPUT, "%s: cannot open: %s", path, strerror(errno));
	}
	const char *name = *is_stdin ? "standard input" : path;
	int rc = PCIBW_OK;
	if (fstat(*fd, &st)) {
		rc = pcibw_fail(err, PCIBW_EINPUT, "%s: cannot read: %s", name, strerror(errno));
	} else if (S_ISREG(st.st_mode)) {
		*pipe_like = 0;
	} else if (S_ISDIR(st.st_mode) || (!*is_stdin && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))) {
		rc =
		    pcibw_fail(err, PCIBW_EINPUT, "%s: %s: expected %s", name, kind_of(st.st_mode), expected);
	} else if (flags & PCIBW_INPUT_FILE_ONLY) {
		rc = pcibw_fail(err, PCIBW_EINPUT, "%s: %s: expected a regular file holding %s", name,
				kind_of(st.st_mode), expected);
	} else {
		*pipe_like = 1; /* pipe, FIFO, socket, or a terminal/device as standard input */
	}
	/* Our own descriptor only: reads block normally from here on (a FIFO whose writer has
	 * gone reads as end of file at once either way). */
	if (!rc && !*is_stdin) {
		int fl = fcntl(*fd, F_GETFL);
		if (fl < 0 || fcntl(*fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
			rc = pcibw_fail(err, PCIBW_EINPUT, "%s: cannot read: %s", name, strerror(errno));
	}
	if (rc && !*is_stdin)
		close(*fd);
	return rc;
}

/* Everything fd holds, into a heap buffer (+ NUL). A regular file larger than max is refused by
 * its size, before a byte is read (a sparse file of terabytes costs nothing to make); one within
 * it is read into a buffer of its size (a file that grows meanwhile is still held to max). */
static int slurp(int fd, const char *name, const char *expected, size_t max, char **data, size_t *len,
		 struct pcibw_err *err)
{
	size_t cap = 4096, n = 0;
	struct stat sb;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode)) {
		if ((uintmax_t)sb.st_size > max)
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s: a file of %jd bytes: expected %s of at most %zu bytes (not "
					  "read)",
					  name, (intmax_t)sb.st_size, expected, max);
		if ((size_t)sb.st_size + 1 > cap)
			cap = (size_t)sb.st_size + 1; /* one more: the end is seen without a regrowth */
	}
	char *b = malloc(cap + 1);
	if (!b)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	for (;;) {
		if (n == cap) {
			if (cap > max) {
				free(b);
				return pcibw_fail(err, PCIBW_EINPUT,
						  "%s: larger than %zu bytes: expected a smaller file", name,
						  max);
			}
			size_t nc = cap * 2;
			char *nb = realloc(b, nc + 1);
			if (!nb) {
				free(b);
				return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			}
			b = nb;
			cap = nc;
		}
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(b);
			return pcibw_fail(err, PCIBW_EINPUT, "%s: read error: %s", name, strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		free(b);
		return pcibw_fail(err, PCIBW_EINPUT, "%s: larger than %zu bytes: expected a smaller file",
				  name, max);
	}
	b[n] = '\0';
	*data = b;
	*len = n;
	return PCIBW_OK;
}

int pcibw_input_read(const char *path, const char *expected, unsigned flags, size_t max, char **data,
		     size_t *len, struct pcibw_err *err)
{
	int fd = -1, is_stdin = 0, pipe_like = 0;
	*data = NULL;
	*len = 0;
	int rc = open_checked(path, expected, flags, &fd, &is_stdin, &pipe_like, err);
	if (rc < 0)
		return PCIBW_OK; /* optional and absent */
	if (rc)
		return rc;
	const char *name = is_stdin ? "standard input" : path;
	rc = slurp(fd, name, expected, max, data, len, err);
	if (!is_stdin)
		close(fd);
	if (!rc && pipe_like && *len == 0) {
		free(*data);
		*data = NULL;
		rc = pcibw_fail(err, PCIBW_EINPUT,
				"%s: empty pipe or FIFO (no writer, or nothing written): expected %s", name,
				expected);
	}
	return rc;
}

static int memfd_of(const char *data, size_t len, int *fd, struct pcibw_err *err)
{
	*fd = memfd_create("pcibw-input", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (*fd < 0)
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot hold an input in memory (memfd): %s",
				  strerror(errno));
	for (size_t o = 0; o < len;) {
		ssize_t w = write(*fd, data + o, len - o);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : ENOSPC;
			close(*fd);
			return pcibw_fail(err, PCIBW_EINTERNAL, "cannot hold an input in memory (memfd): %s",
					  strerror(e));
		}
		o += (size_t)w;
	}
	/* sealed: nothing, not even a library handed its name, can change the bytes checked */
	fcntl(*fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	if (lseek(*fd, 0, SEEK_SET) < 0) {
		int e = errno;
		close(*fd);
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot hold an input in memory (memfd): %s",
				  strerror(e));
	}
	return PCIBW_OK;
}

int pcibw_input_memfd(const char *data, size_t len, int *fd, char *path, size_t plen, struct pcibw_err *err)
{
	int rc = memfd_of(data, len, fd, err);
	if (rc)
		return rc;
	snprintf(path, plen, "/proc/self/fd/%d", *fd);
	if (access(path, R_OK)) {
		int e = errno;
		close(*fd);
		return pcibw_fail(err, PCIBW_EINTERNAL,
				  "%s: %s: /proc must be mounted to hand an input to libpci", path,
				  strerror(e));
	}
	return PCIBW_OK;
}

/* The head of a piped standard input, read ahead by pcibw_input_spool_stdin; the first
 * pcibw_input_open of "-" serves it before the rest of the pipe. */
static struct {
	char buf[PCIBW_INPUT_STDIN_HEAD];
	size_t len, pos;
	bool kept, served;
	bool all; /* the pipe ended within the read-ahead: the head is the whole input */
} head;

int pcibw_input_spool_stdin(struct pcibw_err *err)
{
	struct stat sb;
	if (head.kept || fstat(STDIN_FILENO, &sb) || !(S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)))
		return PCIBW_OK; /* a file is read twice as it is; a device is the reader's */
	while (head.len < sizeof head.buf) {
		ssize_t n = read(STDIN_FILENO, head.buf + head.len, sizeof head.buf - head.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pcibw_fail(err, PCIBW_EINPUT, "standard input: read error: %s",
					  strerror(errno));
		if (n == 0) {
			head.all = true;
			break;
		}
		head.len += (size_t)n;
	}
	head.kept = true;
	return PCIBW_OK;
}

bool pcibw_input_stdin_head(const char **data, size_t *len)
{
	*data = head.buf;
	*len = head.len;
	return head.kept;
}

unsigned pcibw_input_stdin_head_lines(void)
{
	if (!head.kept || head.all)
		return UINT_MAX;
	unsigned n = 0;
	for (const char *p = head.buf, *e = head.buf + head.len; (p = memchr(p, '\n', (size_t)(e - p))); p++)
		n++;
	return n;
}

/* fopencookie: the kept head, then the pipe itself */
static ssize_t head_then_pipe(void *cookie, char *buf, size_t size)
{
	int fd = (int)(intptr_t)cookie;
	if (head.pos < head.len) {
		size_t n = head.len - head.pos < size ? head.len - head.pos : size;
		memcpy(buf, head.buf + head.pos, n);
		head.pos += n;
		return (ssize_t)n;
	}
	for (;;) {
		ssize_t n = read(fd, buf, size);
		if (n < 0 && errno == EINTR)
			continue;
		return n;
	}
}

static int head_close(void *cookie)
{
	return close((int)(intptr_t)cookie);
}

static FILE *open_with_head(int fd)
{
	head.served = true;
	cookie_io_functions_t io = {.read = head_then_pipe, .close = head_close};
	return fopencookie((void *)(intptr_t)fd, "rb", io);
}

int pcibw_input_open(const char *path, const char *expected, unsigned flags, FILE **fp, struct pcibw_err *err)
{
	int fd = -1, is_stdin = 0, pipe_like = 0;
	*fp = NULL;
	int rc = open_checked(path, expected, flags, &fd, &is_stdin, &pipe_like, err);
	if (rc < 0)
		return PCIBW_OK; /* optional and absent */
	if (rc)
		return rc;
	const char *name = is_stdin ? "standard input" : path;
	(void)pipe_like; /* a stream is read once either way: a pipe is read as it comes */
	if (is_stdin) {
		fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3); /* fclose must not close standard input */
		if (fd < 0)
			return pcibw_fail(err, PCIBW_EINPUT, "standard input: %s", strerror(errno));
	}
	*fp = is_stdin && head.kept && !head.served ? open_with_head(fd) : fdopen(fd, "rb");
	if (!*fp) {
		int e = errno;
		close(fd);
		return pcibw_fail(err, PCIBW_EINTERNAL, "%s: %s", name, strerror(e));
	}
	return PCIBW_OK;
}

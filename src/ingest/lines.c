/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Line and whole-file reading over an opened input whose first bytes were already read for
 * format detection. */
#include "ingest_int.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void ingest_lr_init(struct linereader *lr, const struct ingest_src *src)
{
	memset(lr, 0, sizeof *lr);
	lr->src = src;
}

const char *ingest_lr_next(struct linereader *lr, size_t *len, struct pcibw_err *err)
{
	size_t n = 0;
	bool any = false;
	for (;;) {
		int c;
		if (lr->head_off < lr->src->head_len)
			c = (unsigned char)lr->src->head[lr->head_off++];
		else
			c = lr->src->fp ? getc(lr->src->fp) : EOF;
		if (c == EOF)
			break;
		any = true;
		if (c == '\n')
			break;
		if (c == '\0' || n >= LR_MAX_LINE) {
			*len = (size_t)-1;
			if (c == '\0')
				pcibw_fail(err, PCIBW_EINPUT,
					   "%s:%u:%zu: NUL byte (expected text: is this a binary "
					   "file?)",
					   lr->src->name, lr->line + 1, n + 1);
			else
				pcibw_fail(err, PCIBW_EINPUT,
					   "%s:%u:1: line longer than %d bytes (expected a "
					   "benchmark's text output)",
					   lr->src->name, lr->line + 1, LR_MAX_LINE);
			return NULL;
		}
		if (n + 2 > lr->cap) {
			size_t nc = lr->cap ? lr->cap * 2 : 256;
			char *nb = realloc(lr->buf, nc);
			if (!nb) {
				*len = (size_t)-1;
				pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
				return NULL;
			}
			lr->buf = nb;
			lr->cap = nc;
		}
		lr->buf[n++] = (char)c;
		/* a UTF-8 byte-order mark before the first line is not text: as in the CSV reader,
		 * columns count from after it */
		if (n == 3 && lr->line == 0 && !memcmp(lr->buf, "\xEF\xBB\xBF", 3))
			n = 0;
	}
	if (!any)
		return NULL;
	if (n && lr->buf && lr->buf[n - 1] == '\r')
		n--;
	if (!lr->buf) {
		lr->buf = malloc(1);
		lr->cap = 1;
		if (!lr->buf) {
			*len = (size_t)-1;
			pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			return NULL;
		}
	}
	lr->buf[n] = '\0';
	lr->line++;
	*len = n;
	return lr->buf;
}

void ingest_lr_free(struct linereader *lr)
{
	free(lr->buf);
	lr->buf = NULL;
}

int ingest_read_all(const struct ingest_src *src, size_t max, char **out, size_t *len, struct pcibw_err *err)
{
	size_t cap = src->head_len + 65536, n = src->head_len;
	struct stat sb;
	/* a regular file larger than max is refused by its size, before it is read on */
	if (src->fp && !fstat(fileno(src->fp), &sb) && S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > max)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s: a file of %jd bytes: expected a single benchmark report of at most "
				  "%zu MiB (not read)",
				  src->name, (intmax_t)sb.st_size, max >> 20);
	char *buf = malloc(cap + 1);
	if (!buf)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	memcpy(buf, src->head, src->head_len);
	while (src->fp && !memchr(buf, '\0', n)) {
		if (n == cap) {
			if (cap >= max) {
				free(buf);
				return pcibw_fail(err, PCIBW_EINPUT,
						  "%s: larger than %zu MiB (expected a single "
						  "benchmark report)",
						  src->name, max >> 20);
			}
			cap *= 2;
			char *nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n, src->fp);
		if (got == 0) {
			if (ferror(src->fp)) {
				free(buf);
				return pcibw_fail(err, PCIBW_EINPUT, "%s: read error", src->name);
			}
			break;
		}
		n += got; /* a NUL stops the loop: said below, without reading on (it may be /dev/zero) */
	}
	const char *nul = memchr(buf, '\0', n);
	if (nul) {
		unsigned line = 1, col = 1;
		for (const char *p = buf; p < nul; p++, col++)
			if (*p == '\n')
				line++, col = 0;
		free(buf);
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:%u:%u: NUL byte (expected text: JSON holds no binary "
				  "data)",
				  src->name, line, col);
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict line scanner for lspci hex dumps; see dump_scan.h. Formats follow what lspci prints
 * (pciutils lspci.c show_hex_dump: "%02x:" then " %02x" x16 per row; slot "%04x:%02x:%02x.%d")
 * and what libpci's dump method can read back (lib/dump.c: lines shorter than 255 bytes,
 * domains of 4 or 5 hex digits, at most 4096 bytes). The bytes are decoded here, as libpci's
 * dump_init() stores them, so libpci itself never reads the file. */
#include "dump_scan.h"
#include "src/util/grow.h"
#include "src/util/input.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* lib/dump.c reads with fgets(buf, 255): at most 254 characters, the newline included, so a line
 * may hold 253 characters before its newline (a '\r' before the newline counts as one of them);
 * a longer one makes libpci fail with "line too long" and no position. */
#define LIBPCI_MAX_LINE 253

/* Bytes read from the file per call: large enough that a dump of thousands of devices costs a
 * few hundred reads, small enough to stay out of the peak memory. */
#define CHUNK ((size_t)1 << 18)

struct scan {
	const char *path;
	struct dump_index *idx;
	int last_line, last_col; /* end of the last hex row of the open device */
	dump_device_fn on_device;
	void *ctx;
	struct pcibw_err *err;
};

static inline int hexval(int c)
{
	unsigned d = (unsigned)c - '0';
	if (d < 10)
		return (int)d;
	unsigned x = ((unsigned)c | 0x20) - 'a'; /* 'A'-'F' and 'a'-'f' alone land on 0-5 */
	return x < 6 ? (int)x + 10 : -1;
}

static int fail(struct scan *s, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(struct scan *s, int line, int col, const char *fmt, ...)
{
	char msg[800];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return pcibw_fail(s->err, PCIBW_EINPUT, "%s:%d:%d: %s", s->path, line, col, msg);
}

static void slot_str(const struct dump_dev *d, char *buf)
{
	snprintf(buf, 32, "%04x:%02x:%02x.%x", (unsigned)d->domain, (unsigned)d->bus, (unsigned)d->dev,
		 (unsigned)d->fn);
}

static uint64_t slot_key(int domain, int bus, int dev, int fn)
{
	return ((uint64_t)(unsigned)domain << 16 | (unsigned)bus << 8 | (unsigned)dev << 3 | (unsigned)fn) +
	       1;
}

static size_t slot_hash(uint64_t k, int cap)
{
	k *= 0x9e3779b97f4a7c15ull;
	return (size_t)(k >> 32) & (size_t)(cap - 1);
}

/* Index in v of the device at this slot, or -1. */
static int slot_find(const struct dump_index *x, uint64_t k)
{
	if (!x->slot_cap)
		return -1;
	for (size_t h = slot_hash(k, x->slot_cap);; h = (h + 1) & (size_t)(x->slot_cap - 1)) {
		if (!x->slots[h])
			return -1;
		if (x->slots[h] == k)
			return x->slot_at[h];
	}
}

static int slot_insert(struct dump_index *x, uint64_t k, int i)
{
	if (2 * (x->n + 1) > x->slot_cap) {
		int cap = x->slot_cap ? 2 * x->slot_cap : 64;
		uint64_t *ks = calloc((size_t)cap, sizeof *ks);
		int *at = malloc((size_t)cap * sizeof *at);
		if (!ks || !at) {
			free(ks);
			free(at);
			return -1;
		}
		for (int j = 0; j < x->slot_cap; j++) {
			if (!x->slots[j])
				continue;
			size_t h = slot_hash(x->slots[j], cap);
			while (ks[h])
				h = (h + 1) & (size_t)(cap - 1);
			ks[h] = x->slots[j];
			at[h] = x->slot_at[j];
		}
		free(x->slots);
		free(x->slot_at);
		x->slots = ks;
		x->slot_at = at;
		x->slot_cap = cap;
	}
	size_t h = slot_hash(k, x->slot_cap);
	while (x->slots[h])
		h = (h + 1) & (size_t)(x->slot_cap - 1);
	x->slots[h] = k;
	x->slot_at[h] = i;
	return 0;
}

/* A device block ends: lspci prints 64 (-x), 128 (-x of a CardBus bridge), 256 (-xxx) or
 * 4096 (-xxxx) bytes, so any other length means the dump was cut. A complete block goes to
 * the caller. */
static int close_block(struct scan *s)
{
	struct dump_index *x = s->idx;
	if (x->cur < 0)
		return 0;
	const struct dump_dev *d = &x->v[x->cur];
	char slot[32];
	slot_str(d, slot);
	int r = 0;
	if (d->len == 0)
		r = fail(s, d->line, 1,
			 "%s has no hex dump: expected lines such as '00: 86 80 ...' "
			 "(lspci -x, -xxx or -xxxx)",
			 slot);
	else if (d->len != 64 && !(d->len == 128 && d->header_type == 2) && d->len != 256 && d->len != 4096)
		r = fail(s, s->last_line, s->last_col,
			 "config dump of %s stops after %d bytes: expected 64, 256 or 4096 "
			 "(lspci -x, -xxx, -xxxx; 128 for a CardBus bridge); the dump looks "
			 "truncated",
			 slot, d->len);
	else if (s->on_device)
		r = s->on_device(s->ctx, x, x->cur, x->cfg);
	x->cur = -1;
	return r;
}

/* "[DDDD[D]:]BB:DD.F " -> 1 and fields, 0 if not a slot line. */
static int parse_slot(const char *l, int *dom, int *bus, int *dev, int *fn, int *end)
{
	int n = 0;
	while (hexval((unsigned char)l[n]) >= 0)
		n++;
	int ndom;
	const char *p;
	if (n == 2 && l[2] == ':') {
		ndom = 0;
		p = l;
	} else if ((n == 4 || n == 5) && l[n] == ':') {
		ndom = n;
		p = l + n + 1;
	} else {
		return 0;
	}
	/* p -> "BB:DD.F" */
	for (int i = 0; i < 2; i++)
		if (hexval((unsigned char)p[i]) < 0)
			return 0;
	if (p[2] != ':' || hexval((unsigned char)p[3]) < 0 || hexval((unsigned char)p[4]) < 0 ||
	    p[5] != '.' || !isdigit((unsigned char)p[6]))
		return 0;
	int d = 0;
	for (int i = 0; i < ndom; i++)
		d = d * 16 + hexval((unsigned char)l[i]);
	*dom = d;
	*bus = hexval((unsigned char)p[0]) * 16 + hexval((unsigned char)p[1]);
	*dev = hexval((unsigned char)p[3]) * 16 + hexval((unsigned char)p[4]);
	*fn = p[6] - '0';
	*end = (int)(p + 7 - l);
	return 1;
}

static int slot_line(struct scan *s, const char *l, int line)
{
	int dom, bus, dev, fn, end;
	parse_slot(l, &dom, &bus, &dev, &fn, &end);
	if (dev > 0x1f)
		return fail(s, line, end - 3, "device number 0x%02x: expected 00-1f", dev);
	if (fn > 7)
		return fail(s, line, end, "function %d: expected 0-7", fn);
	if (l[end] != ' ')
		return fail(s, line, end + 1,
			    "expected a space and the device description after the "
			    "slot (libpci ignores a bare slot)");
	int r = close_block(s);
	if (r)
		return r;
	struct dump_index *x = s->idx;
	uint64_t key = slot_key(dom, bus, dev, fn);
	int first = slot_find(x, key);
	if (first >= 0)
		return fail(s, line, 1,
			    "duplicate slot %.*s (first at line %d): expected "
			    "each device once",
			    end, l, x->v[first].line);
	if (pcibw_grow(&x->v, &x->cap, x->n + 1, sizeof *x->v) || slot_insert(x, key, x->n))
		return pcibw_fail(s->err, PCIBW_EINTERNAL, "out of memory");
	x->cur = x->n++;
	struct dump_dev *d = &x->v[x->cur];
	memset(d, 0, sizeof *d);
	d->domain = dom;
	d->bus = bus;
	d->dev = dev;
	d->fn = fn;
	d->line = line;
	/* what libpci's dump_alloc_data() leaves in bytes a dump does not give */
	memset(x->cfg, 0xff, sizeof x->cfg);
	return 0;
}

static int hex_line(struct scan *s, const char *l, int line)
{
	int n = 0;
	unsigned off = 0;
	while (hexval((unsigned char)l[n]) >= 0 && n < 9)
		off = off * 16 + (unsigned)hexval((unsigned char)l[n++]);
	struct dump_index *x = s->idx;
	if (x->cur < 0)
		return fail(s, line, 1,
			    "hex line outside a device: expected a slot line such as "
			    "'00:1f.0 Ethernet controller: ...' first");
	struct dump_dev *d = &x->v[x->cur];
	if (n > 4 || off >= 4096)
		return fail(s, line, 1, "offset 0x%.*s is past the 4096 bytes of config space", n, l);
	if (n < 2)
		return fail(s, line, 1, "offset '%.*s': expected two or three hex digits and ':'", n + 1, l);
	if (off != (unsigned)d->len)
		return fail(s, line, 1, "offset 0x%x out of order: expected 0x%02x", off, (unsigned)d->len);
	const char *p = l + n + 1;
	uint8_t *out = x->cfg + off;
	int col0 = 0;
	for (int k = 0; k < 16; k++) {
		int col = (int)(p - l) + 1;
		if (*p == '\0')
			return fail(s, line, col, "%d bytes on this row: expected 16 (truncated line)", k);
		if (*p != ' ')
			return fail(s, line, col, "'%c': expected a space before each byte", *p);
		p++;
		col++;
		int hi = hexval((unsigned char)p[0]), lo = hi < 0 ? -1 : hexval((unsigned char)p[1]);
		if (lo < 0 || (p[2] && p[2] != ' ')) { /* not two hex digits: say what it is */
			int digits = 0;
			while (p[digits] && p[digits] != ' ') {
				if (hexval((unsigned char)p[digits]) < 0)
					return fail(s, line, col + digits,
						    "'%c' is not a hex digit: expected two "
						    "hex digits per byte",
						    p[digits]);
				digits++;
			}
			if (digits == 0)
				return fail(s, line, col, "empty byte: expected two hex digits");
			return fail(s, line, col, "'%.*s' has %d hex digit%s: expected two per byte", digits,
				    p, digits, digits == 1 ? "" : "s");
		}
		if (k == 0)
			col0 = col;
		out[k] = (uint8_t)(hi << 4 | lo);
		p += 2;
	}
	/* libpci takes at most one character after a byte, and only a space: a second trailing
	 * space or a tab makes it fail with "Malformed line" and no position */
	if (*p == ' ')
		p++;
	if (*p == ' ' || *p == '\t')
		return fail(s, line, (int)(p - l) + 1,
			    "trailing %s after the 16th byte: expected at "
			    "most one space (libpci's dump reader refuses more)",
			    *p == ' ' ? "spaces" : "tab");
	if (*p)
		return fail(s, line, (int)(p - l) + 1, "more than 16 bytes on this row: expected 16");
	if (off == 0) /* header type: lspci -x shows 128 bytes of a CardBus bridge */
		d->header_type = out[14] & 0x7f;
	int row = d->len / 16;
	x->cur_row_line[row] = line;
	x->cur_row_col[row] = col0;
	if (row < 16) {
		d->row_line[row] = line;
		d->row_col[row] = col0;
	}
	d->len += 16;
	s->last_line = line;
	s->last_col = (int)(p - l);
	return 0;
}

/* One line, NUL-terminated in place (len bytes before the NUL). */
static int scan_line(struct scan *s, char *l, size_t len, int line)
{
	if (len && l[len - 1] == '\r')
		l[--len] = '\0';
	/* A UTF-8 byte order mark, which some editors put before a saved dump (libpci's reader
	 * skips that first line instead, dropping its device); columns count from after it, as
	 * editors show them. */
	if (line == 1 && len >= 3 && !memcmp(l, "\xef\xbb\xbf", 3)) {
		l += 3;
		len -= 3;
	}
	if (len == 0)
		return close_block(s);
	if (l[0] == '#' || l[0] == ' ' || l[0] == '\t')
		return 0; /* comment, or lspci -v decoding (libpci skips it too) */
	int a, b, c, e, f;
	if (parse_slot(l, &a, &b, &c, &e, &f))
		return slot_line(s, l, line);
	if (hexval((unsigned char)l[0]) >= 0) {
		int n = 0;
		while (hexval((unsigned char)l[n]) >= 0)
			n++;
		if (l[n] == ':')
			return hex_line(s, l, line);
	}
	if (s->idx->cur >= 0)
		return fail(s, line, 1,
			    "unexpected text: expected a hex row ('00: 86 80 ...'), an "
			    "indented lspci -v line, a blank line or a slot line");
	return fail(s, line, 1,
		    "unexpected text: expected a slot line such as '00:1f.0 Ethernet "
		    "controller: ...' or a '#' comment");
}

static bool binary_byte(unsigned char c)
{
	return c == '\0' || (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f;
}

/* Index of the first byte of l[0..n) that no text line holds, or n. */
static size_t first_binary(const char *l, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (binary_byte((unsigned char)l[k]))
			return k;
	return n;
}

static int binary_fail(struct scan *s, int line, size_t k, char c)
{
	return fail(s, line, (int)k + 1,
		    "binary byte 0x%02x: expected the text of an lspci "
		    "-x/-xxx/-xxxx dump",
		    (unsigned char)c);
}

/* The lines of buf[0..have): complete ones are scanned; *used says how many bytes they took
 * (the rest is a line still being read). At eof the last bytes must end a line. */
static int scan_buffer(struct scan *s, char *buf, size_t have, bool eof, size_t *used, int *line)
{
	size_t pos = 0;
	while (pos < have) {
		char *l = buf + pos;
		size_t avail = have - pos;
		size_t lim = avail < LIBPCI_MAX_LINE + 1 ? avail : LIBPCI_MAX_LINE + 1;
		char *nl = memchr(l, '\n', lim);
		if (!nl && avail <= LIBPCI_MAX_LINE && !eof)
			break; /* the rest of this line comes with the next read */
		++*line;
		size_t len = nl ? (size_t)(nl - l) : lim;
		size_t k = first_binary(l, len);
		if (k < len)
			return binary_fail(s, *line, k, l[k]);
		if (!nl && avail > LIBPCI_MAX_LINE)
			return fail(s, *line, LIBPCI_MAX_LINE + 1,
				    "line longer than %d characters: expected an lspci "
				    "line (libpci's dump reader stops there)",
				    LIBPCI_MAX_LINE);
		if (!nl)
			return fail(s, *line, (int)len + 1,
				    "last line has no newline: the file looks truncated "
				    "(expected a complete lspci dump)");
		*nl = '\0';
		int r = scan_line(s, l, len, *line);
		if (r)
			return r;
		pos += len + 1;
	}
	*used = pos;
	return 0;
}

int probe_dump_scan(const char *path, dump_device_fn on_device, void *ctx, struct dump_index *idx,
		    struct pcibw_err *err)
{
	memset(idx, 0, sizeof *idx);
	idx->path = path;
	idx->cur = -1;
	const char *expected = "an lspci -x/-xxx/-xxxx dump file";
	FILE *fp;
	int r = pcibw_input_open(path, expected, 0, &fp, err);
	if (r)
		return r;
	bool is_stdin = !strcmp(path, "-");
	/* "-": `lspci -xxx | pcibw --dump -` */
	const char *name = is_stdin ? "standard input" : path;
	struct stat st; /* a stream without a descriptor is standard input's kept head: a pipe */
	bool pipe_like = fileno(fp) < 0 || fstat(fileno(fp), &st) || !S_ISREG(st.st_mode);
	struct scan s = {.path = name, .idx = idx, .on_device = on_device, .ctx = ctx, .err = err};
	char *buf = malloc(CHUNK + LIBPCI_MAX_LINE + 1);
	if (!buf) {
		r = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		goto out;
	}
	size_t have = 0, total = 0;
	int line = 0;
	for (bool eof = false; !eof;) {
		size_t got = fread(buf + have, 1, CHUNK, fp);
		if (got == 0 && ferror(fp)) {
			r = pcibw_fail(err, PCIBW_EINPUT, "%s: read error: %s", name, strerror(errno));
			goto out;
		}
		eof = got == 0;
		have += got;
		total += got;
		size_t used = 0;
		if ((r = scan_buffer(&s, buf, have, eof, &used, &line)))
			goto out;
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	if (total == 0 && pipe_like) {
		r = pcibw_fail(err, PCIBW_EINPUT,
			       "%s: empty pipe or FIFO (no writer, or nothing written): expected %s", name,
			       expected);
		goto out;
	}
	if (total == 0) {
		r = fail(&s, 1, 1, "empty file: expected an lspci -x, -xxx or -xxxx dump");
		goto out;
	}
	if ((r = close_block(&s)))
		goto out;
	if (idx->n == 0)
		r = fail(&s, line, 1,
			 "no device in the file: expected an lspci -x, -xxx or -xxxx "
			 "dump (slot lines followed by hex rows)");
out:
	free(buf);
	fclose(fp); /* a duplicate for standard input: stdin itself stays open */
	return r;
}

void probe_dump_index_free(struct dump_index *idx)
{
	free(idx->v);
	free(idx->slots);
	free(idx->slot_at);
	idx->v = NULL;
	idx->slots = NULL;
	idx->slot_at = NULL;
	idx->n = idx->cap = idx->slot_cap = 0;
	idx->cur = -1;
}

void probe_dump_where(const void *ctx, int domain, int bus, int dev, int fn, int offset, char *buf,
		      size_t len)
{
	const struct dump_index *x = ctx;
	int i = slot_find(x, slot_key(domain, bus, dev, fn));
	if (i < 0) {
		snprintf(buf, len, "%s", x->path);
		return;
	}
	const struct dump_dev *d = &x->v[i];
	if (offset >= 0 && offset < d->len && i == x->cur)
		snprintf(buf, len, "%s:%d:%d", x->path, x->cur_row_line[offset / 16],
			 x->cur_row_col[offset / 16] + 3 * (offset % 16));
	else if (offset >= 0 && offset < d->len && offset < 256)
		snprintf(buf, len, "%s:%d:%d", x->path, d->row_line[offset / 16],
			 d->row_col[offset / 16] + 3 * (offset % 16));
	else
		snprintf(buf, len, "%s:%d:1", x->path, d->line);
}

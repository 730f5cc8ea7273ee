/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict line scanner for lspci hex dumps; see dump_scan.h. Formats follow what lspci prints
 * (pciutils lspci.c show_hex_dump: "%02x:" then " %02x" x16 per row; slot "%04x:%02x:%02x.%d")
 * and what libpci's dump method can read back (lib/dump.c: lines shorter than 255 bytes,
 * domains of 4 or 5 hex digits, at most 4096 bytes). */
#include "dump_scan.h"
#include "src/util/grow.h"
#include "src/util/input.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* lib/dump.c reads with fgets(buf, 255): at most 254 characters, the newline included, so a line
 * may hold 253 characters before its newline (a '\r' before the newline counts as one of them);
 * a longer one makes libpci fail with "line too long" and no position. */
#define LIBPCI_MAX_LINE 253

struct scan {
	const char *path;
	struct dump_index *idx;
	struct dump_dev *cur;	 /* open device block, or NULL */
	int last_line, last_col; /* end of the last hex row of cur */
	struct pcibw_err *err;
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
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

/* A device block ends: lspci prints 64 (-x), 128 (-x of a CardBus bridge), 256 (-xxx) or
 * 4096 (-xxxx) bytes, so any other length means the dump was cut. */
static int close_block(struct scan *s)
{
	struct dump_dev *d = s->cur;
	s->cur = NULL;
	if (!d)
		return 0;
	char slot[32];
	slot_str(d, slot);
	if (d->len == 0)
		return fail(s, d->line, 1,
			    "%s has no hex dump: expected lines such as '00: 86 80 ...' "
			    "(lspci -x, -xxx or -xxxx)",
			    slot);
	if (d->len != 64 && !(d->len == 128 && d->header_type == 2) && d->len != 256 && d->len != 4096)
		return fail(s, s->last_line, s->last_col,
			    "config dump of %s stops after %d bytes: expected 64, 256 or 4096 "
			    "(lspci -x, -xxx, -xxxx; 128 for a CardBus bridge); the dump looks "
			    "truncated",
			    slot, d->len);
	return 0;
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
	for (int i = 0; i < x->n; i++)
		if (x->v[i].domain == dom && x->v[i].bus == bus && x->v[i].dev == dev && x->v[i].fn == fn)
			return fail(s, line, 1,
				    "duplicate slot %.*s (first at line %d): expected "
				    "each device once",
				    end, l, x->v[i].line);
	if (pcibw_grow(&x->v, &x->cap, x->n + 1, sizeof *x->v))
		return pcibw_fail(s->err, PCIBW_EINTERNAL, "out of memory");
	s->cur = &x->v[x->n++];
	memset(s->cur, 0, sizeof *s->cur);
	s->cur->domain = dom;
	s->cur->bus = bus;
	s->cur->dev = dev;
	s->cur->fn = fn;
	s->cur->line = line;
	return 0;
}

static int hex_line(struct scan *s, const char *l, int line)
{
	int n = 0;
	unsigned off = 0;
	while (hexval((unsigned char)l[n]) >= 0 && n < 9)
		off = off * 16 + (unsigned)hexval((unsigned char)l[n++]);
	if (!s->cur)
		return fail(s, line, 1,
			    "hex line outside a device: expected a slot line such as "
			    "'00:1f.0 Ethernet controller: ...' first");
	struct dump_dev *d = s->cur;
	if (n > 4 || off >= 4096)
		return fail(s, line, 1, "offset 0x%.*s is past the 4096 bytes of config space", n, l);
	if (n < 2)
		return fail(s, line, 1, "offset '%.*s': expected two or three hex digits and ':'", n + 1, l);
	if (off != (unsigned)d->len)
		return fail(s, line, 1, "offset 0x%x out of order: expected 0x%02x", off, (unsigned)d->len);
	const char *p = l + n + 1;
	int col0 = 0;
	for (int k = 0; k < 16; k++) {
		int col = (int)(p - l) + 1;
		if (*p == '\0')
			return fail(s, line, col, "%d bytes on this row: expected 16 (truncated line)", k);
		if (*p != ' ')
			return fail(s, line, col, "'%c': expected a space before each byte", *p);
		p++;
		col++;
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
		if (digits != 2)
			return fail(s, line, col, "'%.*s' has %d hex digit%s: expected two per byte", digits,
				    p, digits, digits == 1 ? "" : "s");
		if (k == 0)
			col0 = col;
		if (off == 0 && k == 14) /* header type: lspci -x shows 128 bytes of a CardBus bridge */
			d->header_type =
			    (hexval((unsigned char)p[0]) << 4 | hexval((unsigned char)p[1])) & 0x7f;
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
	d->row_line[d->len / 16] = line;
	d->row_col[d->len / 16] = col0;
	d->len += 16;
	s->last_line = line;
	s->last_col = (int)(p - l);
	return 0;
}

static int scan_line(struct scan *s, char *l, int line)
{
	size_t len = strlen(l);
	if (len && l[len - 1] == '\r')
		l[--len] = '\0';
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
	if (s->cur)
		return fail(s, line, 1,
			    "unexpected text: expected a hex row ('00: 86 80 ...'), an "
			    "indented lspci -v line, a blank line or a slot line");
	return fail(s, line, 1,
		    "unexpected text: expected a slot line such as '00:1f.0 Ethernet "
		    "controller: ...' or a '#' comment");
}

int dump_scan(const char *path, struct dump_index *idx, struct pcibw_err *err)
{
	memset(idx, 0, sizeof *idx);
	idx->path = path;
	/* Read once, whole: libpci is later handed these very bytes (a sealed memory copy), never
	 * the file again, so what it decodes is what was checked here. */
	int r = pcibw_input_read(path, "an lspci -x/-xxx/-xxxx dump file", 0, PCIBW_INPUT_MAX, &idx->data,
				 &idx->len, err);
	if (r)
		return r;
	/* "-": `lspci -xxx | pcibw --dump -` */
	struct scan s = {.path = strcmp(path, "-") ? path : "standard input", .idx = idx, .err = err};
	char buf[LIBPCI_MAX_LINE + 2];
	int line = 0, col = 0;
	for (size_t i = 0; i < idx->len; i++) {
		int c = (unsigned char)idx->data[i];
		if (col == 0)
			line++;
		if (c == '\n') {
			buf[col] = '\0';
			col = 0;
			if ((r = scan_line(&s, buf, line)))
				goto bad;
			continue;
		}
		if (c == '\0' || (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
			r = fail(&s, line, col + 1,
				 "binary byte 0x%02x: expected the text of an lspci "
				 "-x/-xxx/-xxxx dump",
				 c);
			goto bad;
		}
		if (col >= LIBPCI_MAX_LINE) {
			r = fail(&s, line, col + 1,
				 "line longer than %d characters: expected an lspci "
				 "line (libpci's dump reader stops there)",
				 LIBPCI_MAX_LINE);
			goto bad;
		}
		buf[col++] = (char)c;
	}
	if (col > 0) {
		r = fail(&s, line, col + 1,
			 "last line has no newline: the file looks truncated "
			 "(expected a complete lspci dump)");
		goto bad;
	}
	if (idx->len == 0) {
		r = fail(&s, 1, 1, "empty file: expected an lspci -x, -xxx or -xxxx dump");
		goto bad;
	}
	if ((r = close_block(&s)))
		goto bad;
	if (idx->n == 0) {
		r = fail(&s, line, 1,
			 "no device in the file: expected an lspci -x, -xxx or -xxxx "
			 "dump (slot lines followed by hex rows)");
		goto bad;
	}
	return PCIBW_OK;
bad:
	dump_index_free(idx);
	return r;
}

void dump_index_free(struct dump_index *idx)
{
	free(idx->v);
	free(idx->data);
	idx->v = NULL;
	idx->data = NULL;
	idx->n = idx->cap = 0;
	idx->len = 0;
}

void dump_where(const void *ctx, int domain, int bus, int dev, int fn, int offset, char *buf, size_t len)
{
	const struct dump_index *x = ctx;
	for (int i = 0; i < x->n; i++) {
		const struct dump_dev *d = &x->v[i];
		if (d->domain != domain || d->bus != bus || d->dev != dev || d->fn != fn)
			continue;
		if (offset >= 0 && offset < d->len)
			snprintf(buf, len, "%s:%d:%d", x->path, d->row_line[offset / 16],
				 d->row_col[offset / 16] + 3 * (offset % 16));
		else
			snprintf(buf, len, "%s:%d:1", x->path, d->line);
		return;
	}
	snprintf(buf, len, "%s", x->path);
}

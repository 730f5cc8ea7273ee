/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pciconf(8) text to probe nodes (pciconf_scan.h). The formats are those printed by
 * usr.sbin/pciconf/pciconf.c (list_devs, list_bars, readit) and cap.c (cap_pcix, cap_express)
 * of the FreeBSD source; each field read here is named after the printf that writes it.
 */
#include "pciconf_scan.h"
#include "src/util/grow.h"
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORIGIN "pciconf"

struct scan {
	struct pciconf_file *f;
	struct probe_set *set;
	struct pcibw_err *err;
	const char *line; /* the current line (not NUL-terminated at its end) */
	size_t len;	  /* its length without the newline */
	int lineno;
	int cur; /* index of the device the indented lines belong to, -1 none */
	/* the capability being continued over several lines: its joined words */
	int cap_id, cap_at, cap_dev;
	char cap_text[1024];
	size_t cap_len;
	int cap_line; /* line of its "cap" line, for messages */
	/* the pciconf -r dump being read */
	bool in_reg;
	int reg_width, reg_next, reg_end, reg_dev;
	char reg_sel[64];
	int reg_line;
};

/* A register dump whose selector is a device name is resolved when the listing is complete:
 * a dump may come before the -l lines. */
struct pending_reg {
	char sel[64];
	int width, start, line;
	uint32_t *vals;
	int *cols, *lines;
	int n;
};

static int fail_at(struct scan *s, size_t col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(struct scan *s, size_t col, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return pcibw_fail(s->err, PCIBW_EINPUT, "%s:%d:%zu: %s", s->f->path, s->lineno, col + 1, msg);
}

/* The text at p (up to 40 characters or the end of the line), for "found '...'". */
static const char *found(const struct scan *s, size_t at, char *buf, size_t n)
{
	size_t k = 0;
	while (at + k < s->len && k < 40 && k + 1 < n && s->line[at + k] != '\n') {
		unsigned char c = (unsigned char)s->line[at + k];
		buf[k] = isprint(c) ? (char)c : '?';
		k++;
	}
	buf[k] = '\0';
	return buf;
}

static size_t skip_blanks(const struct scan *s, size_t i)
{
	while (i < s->len && (s->line[i] == ' ' || s->line[i] == '\t'))
		i++;
	return i;
}

static bool starts(const struct scan *s, size_t i, const char *word)
{
	size_t n = strlen(word);
	return i + n <= s->len && !memcmp(s->line + i, word, n);
}

/* Hex digits "0x..." at i (the 0x is required where pciconf prints %#x or 0x%0Nx): value in
 * *v, returns the index after them, or 0 when there are none (or more than 16). */
static size_t hex_at(const struct scan *s, size_t i, bool prefix, uint64_t *v)
{
	if (prefix) {
		if (!starts(s, i, "0x"))
			return 0;
		i += 2;
	}
	size_t from = i;
	uint64_t x = 0;
	while (i < s->len && isxdigit((unsigned char)s->line[i]) && i - from < 16) {
		char c = (char)tolower((unsigned char)s->line[i]);
		x = x << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
		i++;
	}
	if (i == from || (i < s->len && isxdigit((unsigned char)s->line[i])))
		return 0;
	*v = x;
	return i;
}

static size_t dec_at(const struct scan *s, size_t i, long *v)
{
	size_t from = i;
	long x = 0;
	while (i < s->len && isdigit((unsigned char)s->line[i]) && i - from < 9)
		x = x * 10 + (s->line[i++] - '0');
	if (i == from || (i < s->len && isdigit((unsigned char)s->line[i])))
		return 0;
	*v = x;
	return i;
}

static struct probe_node *node(struct scan *s, int i)
{
	return &s->set->v[i];
}

/* ---- device lines ------------------------------------------------------------------------ */

static int find_slot(const struct probe_set *set, int domain, int bus, int dev, int fn)
{
	for (int i = 0; i < set->n; i++) {
		const struct pcibw_device *d = &set->v[i].d;
		if (d->domain == domain && d->bus == bus && d->dev == dev && d->fn == fn)
			return i;
	}
	return -1;
}

static int find_name(const struct pciconf_file *f, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(f->dev[i].name, name))
			return i;
	return -1;
}

/* "pci" then 2..4 decimal numbers joined by ':' (or '.' as getsel allows), as getsel reads them:
 * B:D, B:D:F or D:B:D:F. Returns the index after them, 0 on a malformed selector. */
static size_t selector_numbers(const struct scan *s, size_t i, int v[4], int *n)
{
	if (!starts(s, i, "pci"))
		return 0;
	i += 3;
	*n = 0;
	for (;;) {
		long x;
		size_t j = dec_at(s, i, &x);
		if (!j || *n == 4)
			return 0;
		v[(*n)++] = (int)x;
		i = j;
		if (i < s->len && (s->line[i] == ':' || s->line[i] == '.') && i + 1 < s->len &&
		    isdigit((unsigned char)s->line[i + 1])) {
			i++;
			continue;
		}
		break;
	}
	return *n >= 2 ? i : 0;
}

static void sel_to_slot(const int v[4], int n, int *dom, int *bus, int *dev, int *fn)
{
	/* getsel: the last number is the function when there are more than two */
	int k = n;
	*fn = n > 2 ? v[--k] : 0;
	*dev = v[--k];
	*bus = v[--k];
	*dom = k > 0 ? v[--k] : 0;
}

static int check_slot(struct scan *s, size_t col, int dom, int bus, int dev, int fn)
{
	if (dom < 0 || bus > 255 || dev > 31 || fn > 7)
		return fail_at(s, col,
			       "selector pci%d:%d:%d:%d: expected bus 0-255, device 0-31, function 0-7", dom,
			       bus, dev, fn);
	return 0;
}

struct kv {
	const char *key;
	int digits; /* hex digits pciconf prints (0x%0Nx) */
	uint64_t v;
	bool seen;
};

static int device_line(struct scan *s)
{
	char buf[48];
	size_t i = 0;
	/* NAMEUNIT: the driver name (or "none") and its unit number */
	while (i < s->len && (isalnum((unsigned char)s->line[i]) || s->line[i] == '_' || s->line[i] == '.' ||
			      s->line[i] == '-'))
		i++;
	size_t name_end = i;
	if (!name_end || name_end >= sizeof((struct pciconf_dev){0}.name) ||
	    !isdigit((unsigned char)s->line[name_end - 1]) || !starts(s, i, "@"))
		return fail_at(
		    s, 0,
		    "found '%s': expected a pciconf -l device line 'NAMEUNIT@pciD:B:D:F:' (em0@pci0:2:1:0:)",
		    found(s, 0, buf, sizeof buf));
	i++;
	int v[4], n;
	size_t j = selector_numbers(s, i, v, &n);
	if (!j || n < 3 || !starts(s, j, ":"))
		return fail_at(s, i, "found '%s': expected 'pciD:B:D:F:' (or 'pciB:D:F:' of FreeBSD 6)",
			       found(s, i, buf, sizeof buf));
	int dom, bus, dev, fn;
	sel_to_slot(v, n, &dom, &bus, &dev, &fn);
	if (n == 3) { /* pciB:D:F of releases before domains: the function is the third number */
		dom = 0;
		bus = v[0];
		dev = v[1];
		fn = v[2];
	}
	if (check_slot(s, i, dom, bus, dev, fn))
		return PCIBW_EINPUT;
	i = j + 1;
	struct kv kv[] = {{"class", 6, 0, false},  {"card", 8, 0, false},      {"chip", 8, 0, false},
			  {"rev", 2, 0, false},	   {"hdr", 2, 0, false},       {"vendor", 4, 0, false},
			  {"device", 4, 0, false}, {"subvendor", 4, 0, false}, {"subdevice", 4, 0, false}};
	const size_t nkv = sizeof kv / sizeof kv[0];
	for (;;) {
		size_t k = skip_blanks(s, i);
		if (k == s->len)
			break;
		if (k == i)
			return fail_at(s, i, "found '%s': expected a blank before the next key=value",
				       found(s, i, buf, sizeof buf));
		i = k;
		size_t e = i;
		while (e < s->len && s->line[e] != '=' && s->line[e] != ' ' && s->line[e] != '\t')
			e++;
		struct kv *x = NULL;
		for (size_t q = 0; q < nkv; q++)
			if (e - i == strlen(kv[q].key) && !memcmp(s->line + i, kv[q].key, e - i))
				x = &kv[q];
		if (!x || e >= s->len || s->line[e] != '=')
			return fail_at(s, i,
				       "found '%s': expected class=, card=, chip=, rev=, hdr=, vendor=, "
				       "device=, subvendor= or subdevice= (pciconf -l)",
				       found(s, i, buf, sizeof buf));
		if (x->seen)
			return fail_at(s, i, "%s= given twice on one device line", x->key);
		uint64_t val;
		size_t h = hex_at(s, e + 1, true, &val);
		if (!h || h - (e + 3) != (size_t)x->digits)
			return fail_at(s, e + 1, "found '%s': expected %s=0x and %d hex digits",
				       found(s, e + 1, buf, sizeof buf), x->key, x->digits);
		x->v = val;
		x->seen = true;
		i = h;
	}
	/* kv: 0 class, 1 card, 2 chip, 3 rev, 4 hdr, 5 vendor, 6 device, 7 subvendor, 8 subdevice */
	bool old = kv[2].seen, new = kv[5].seen &&kv[6].seen;
	if (!kv[0].seen || !kv[3].seen || !kv[4].seen || old == new)
		return fail_at(s, skip_blanks(s, j + 1),
			       "expected class=, rev=, hdr= and either chip= (older pciconf) or vendor= "
			       "and device= (FreeBSD 13 and later), not both");
	if (find_slot(s->set, dom, bus, dev, fn) >= 0)
		return fail_at(s, i - 1 > j ? j : 0, "a second device line for pci%d:%d:%d:%d", dom, bus, dev,
			       fn);
	unsigned hdr = (unsigned)kv[4].v & 0x7f;
	if (hdr > 2)
		return fail_at(s, j + 1,
			       "hdr=0x%02x: header type %u: expected 0 (normal), 1 (PCI-to-PCI bridge) or 2 "
			       "(CardBus bridge) in bits 6:0",
			       (unsigned)kv[4].v, hdr);
	if (pcibw_grow(&s->f->dev, &s->f->cap, s->set->n + 1, sizeof *s->f->dev))
		return pcibw_fail(s->err, PCIBW_EINTERNAL, "out of memory");
	struct probe_node *nd = probe_set_add(s->set);
	if (!nd)
		return pcibw_fail(s->err, PCIBW_EINTERNAL, "out of memory");
	struct pciconf_dev *pd = &s->f->dev[s->set->n - 1];
	memset(pd, 0, sizeof *pd);
	s->f->n = s->set->n;
	pd->line = s->lineno;
	memcpy(pd->name, s->line, name_end);
	pd->name[name_end] = '\0';
	pd->pcix_at = pd->pcie_at = -1;
	struct pcibw_device *d = &nd->d;
	d->domain = dom;
	d->bus = bus;
	d->dev = dev;
	d->fn = fn;
	pcibw_format_slot(d->slot, dom, bus, dev, fn);
	d->vendor_id = (int)(old ? kv[2].v & 0xffff : kv[5].v);
	d->device_id = (int)(old ? kv[2].v >> 16 : kv[6].v);
	d->class_id = (int)(kv[0].v >> 8);
	d->revision = (int)kv[3].v;
	d->is_virtual = probe_is_paravirt(d->vendor_id, d->device_id);
	pcibw_device_set_prov(d, "vendor_id", ORIGIN);
	pcibw_device_set_prov(d, "class", ORIGIN);
	if (d->is_virtual)
		pcibw_device_set_prov(d, "virtual", "inferred");
	/* the driver bound: the name without its unit ("none": no driver attached) */
	size_t u = name_end;
	while (u > 0 && isdigit((unsigned char)pd->name[u - 1]))
		u--;
	if (u && !(u == 4 && !memcmp(pd->name, "none", 4)) && u < sizeof d->driver) {
		memcpy(d->driver, pd->name, u);
		d->driver[u] = '\0';
		pcibw_device_set_prov(d, "driver", ORIGIN);
	}
	nd->header_type = (int)hdr;
	nd->status_66mhz = nd->sec_status_66mhz = nd->has_caps = PCIBW_NULL;
	nd->pcix_sec_status = PCIBW_NULL;
	nd->sec_bus = nd->sub_bus = PCIBW_NULL;
	nd->parent = -1;
	nd->cfg.len = 64; /* the header's facts are known; nothing is read from cfg.b */
	if (hdr == 1 || hdr == 2)
		d->is_bridge = true;
	s->cur = s->set->n - 1;
	return 0;
}

/* ---- -v and -b lines ---------------------------------------------------------------------- */

/* "vendor     = 'Intel Corporation'": the quoted name into out (appended after a blank). */
static int quoted(struct scan *s, size_t i, char *out, size_t n)
{
	char buf[48];
	if (i >= s->len || s->line[i] != '\'')
		return fail_at(s, i, "found '%s': expected a quoted name (pciconf -v)",
			       found(s, i, buf, sizeof buf));
	size_t e = s->len;
	while (e > i + 1 && (s->line[e - 1] == ' ' || s->line[e - 1] == '\t'))
		e--;
	if (e <= i + 1 || s->line[e - 1] != '\'')
		return fail_at(s, e, "expected the name to end with a quote (pciconf -v)");
	size_t have = strlen(out), add = e - i - 2;
	if (have && have + 1 < n)
		out[have++] = ' ';
	if (have + add >= n)
		add = n - have - 1;
	memcpy(out + have, s->line + i + 1, add);
	out[have + add] = '\0';
	return 0;
}

/* "bar   [10] = type Memory, range 64, base 0xdd960000, size 131072, enabled" (list_bars):
 * checked, kept nowhere (a BAR says nothing about the bus). */
static int bar_line(struct scan *s, size_t i)
{
	char buf[48];
	uint64_t reg, base;
	long range, size;
	size_t k = skip_blanks(s, i + 3);
	size_t h;
	if (!starts(s, k, "[") || !(h = hex_at(s, k + 1, false, &reg)) || !starts(s, h, "] = type "))
		return fail_at(s, k, "found '%s': expected 'bar   [RR] = type ...' (pciconf -b)",
			       found(s, k, buf, sizeof buf));
	k = h + 9;
	static const char *const types[] = {"Prefetchable Memory, ", "Memory, ", "I/O Port, "};
	size_t t = 0;
	while (t < 3 && !starts(s, k, types[t]))
		t++;
	if (t == 3)
		return fail_at(s, k, "found '%s': expected Memory, Prefetchable Memory or I/O Port",
			       found(s, k, buf, sizeof buf));
	k += strlen(types[t]);
	if (!starts(s, k, "range "))
		return fail_at(s, k, "expected 'range N, '");
	k = skip_blanks(s, k + 6);
	bool neg = starts(s, k, "-"); /* an unknown memory type prints range -1 */
	if (!(h = dec_at(s, k + neg, &range)) || !starts(s, h, ", base "))
		return fail_at(s, k, "found '%s': expected 'range N, base 0x...'",
			       found(s, k, buf, sizeof buf));
	k = h + 7;
	if (!(h = hex_at(s, k, true, &base)) && !starts(s, k, "0,")) /* %#jx prints 0 as "0" */
		return fail_at(s, k, "found '%s': expected a base address 0x...",
			       found(s, k, buf, sizeof buf));
	k = h ? h : k + 1;
	if (!starts(s, k, ", size "))
		return fail_at(s, k, "expected ', size N, enabled|disabled'");
	k = skip_blanks(s, k + 7);
	if (!(h = dec_at(s, k, &size)) || !(starts(s, h, ", enabled") || starts(s, h, ", disabled")))
		return fail_at(s, k, "found '%s': expected 'size N, enabled' or 'disabled'",
			       found(s, k, buf, sizeof buf));
	h += starts(s, h, ", enabled") ? 9 : 10;
	if (skip_blanks(s, h) != s->len)
		return fail_at(s, h, "found '%s' after the BAR: expected the end of the line",
			       found(s, h, buf, sizeof buf));
	return 0;
}

/* ---- capabilities ------------------------------------------------------------------------ */

/* Words of the capability text with their positions, as cap.c printed them over its lines. */
struct words {
	const char *w[128];
	int len[128];
	int n;
};

static void split(const char *t, struct words *w)
{
	w->n = 0;
	for (const char *p = t; *p && w->n < 128;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		const char *e = p;
		while (*e && *e != ' ')
			e++;
		w->w[w->n] = p;
		w->len[w->n++] = (int)(e - p);
		p = e;
	}
}

static bool is(const struct words *w, int k, const char *word)
{
	return k < w->n && w->len[k] == (int)strlen(word) && !memcmp(w->w[k], word, (size_t)w->len[k]);
}

/* "A(B)" of two decimal numbers, or of two speed strings. */
static bool pair(const struct words *w, int k, const char *pre, char *a, char *b, size_t n)
{
	if (k >= w->n)
		return false;
	size_t pl = strlen(pre), L = (size_t)w->len[k];
	const char *p = w->w[k];
	if (L < pl + 4 || memcmp(p, pre, pl) || p[L - 1] != ')')
		return false;
	const char *o = memchr(p + pl, '(', L - pl);
	if (!o || (size_t)(o - p - (long)pl) >= n || (size_t)(p + L - 1 - o - 1) >= n || o == p + pl ||
	    o + 1 == p + L - 1)
		return false;
	memcpy(a, p + pl, (size_t)(o - p) - pl);
	a[(size_t)(o - p) - pl] = '\0';
	memcpy(b, o + 1, (size_t)(p + L - 1 - o - 1));
	b[p + L - 1 - o - 1] = '\0';
	return true;
}

static int payload(const char *t)
{
	/* MAX_PAYLOAD(field) = 128 << field, field 0..7 (cap.c) */
	char *e;
	long v = strtol(t, &e, 10);
	if (*e || v < 128)
		return -2;
	for (int k = 0; k < 8; k++)
		if (v == 128L << k)
			return k <= 5 ? (int)v : PCIBW_NULL; /* 6, 7 reserved */
	return -2;
}

/* link_speed_string: 1 "2.5", 2 "5.0", 3 "8.0", 4 "16.0" (newer releases go on: "32.0",
 * "64.0"), anything else "undef"; "0.0" where the link is down (width 0). */
static int speed(const char *t, double *gts)
{
	static const char *const s[] = {"2.5", "5.0", "8.0", "16.0", "32.0", "64.0"};
	for (int k = 0; k < 6; k++)
		if (!strcmp(t, s[k])) {
			*gts = pcibw_pcie_gen_gts(k + 1);
			return 0;
		}
	if (!strcmp(t, "undef") || !strcmp(t, "0.0")) {
		*gts = NAN;
		return 0;
	}
	return -1;
}

/* aspm_string: 1 "L0s", 2 "L1", 3 "L0s/L1", else "disabled" */
static int aspm_bits(const char *t)
{
	return !strcmp(t, "disabled") ? 0
	       : !strcmp(t, "L0s")    ? PCIBW_ASPM_L0S
	       : !strcmp(t, "L1")     ? PCIBW_ASPM_L1
	       : !strcmp(t, "L0s/L1") ? PCIBW_ASPM_L0S | PCIBW_ASPM_L1
				      : -1;
}

static int cap_fail(struct scan *s, const char *what)
{
	return pcibw_fail(s->err, PCIBW_EINPUT, "%s:%d: cap %02x[%02x] = %.*s: %s", s->f->path, s->cap_line,
			  (unsigned)s->cap_id, (unsigned)s->cap_at, 200, s->cap_text, what);
}

/* cap_express: "PCI-Express V TYPE[ MSI N] max data A(B)[ FLR][ RO][ NS][ ARI ...]", then
 * "max read N" (newer releases), "link xW(xC)[ speed S(C)][ ASPM A(B)][ ClockPM ...]" (where
 * Link Capabilities or Status is non-zero; older releases print "link" on the first line and
 * "speed" on the next), "slot ...". */
static int cap_pcie(struct scan *s)
{
	struct probe_node *n = node(s, s->cap_dev);
	struct pcibw_device *d = &n->d;
	struct words w;
	split(s->cap_text, &w);
	static const struct {
		const char *name[2];
		int type;
	} types[] = {{{"endpoint", NULL}, PCI_EXP_TYPE_ENDPOINT},
		     {{"legacy", "endpoint"}, PCI_EXP_TYPE_LEG_END},
		     {{"root", "port"}, PCI_EXP_TYPE_ROOT_PORT},
		     {{"upstream", "port"}, PCI_EXP_TYPE_UPSTREAM},
		     {{"downstream", "port"}, PCI_EXP_TYPE_DOWNSTREAM},
		     {{"root", "endpoint"}, PCI_EXP_TYPE_ROOT_INT_EP},
		     {{"event", "collector"}, PCI_EXP_TYPE_ROOT_EC}};
	if (!is(&w, 0, "PCI-Express") || w.n < 3)
		return cap_fail(s, "expected 'PCI-Express VERSION TYPE' (cap.c cap_express)");
	int k = 2, type = -1;
	if (is(&w, 2, "PCI") && is(&w, 3, "bridge")) {
		type = PCI_EXP_TYPE_PCI_BRIDGE;
		k = 4;
	} else if (is(&w, 2, "PCI") && is(&w, 3, "to") && is(&w, 4, "PCIe") && is(&w, 5, "bridge")) {
		type = PCI_EXP_TYPE_PCIE_BRIDGE;
		k = 6;
	} else if (is(&w, 2, "type") && w.n > 3) {
		char t[8];
		snprintf(t, sizeof t, "%.*s", w.len[3], w.w[3]);
		char *e;
		long v = strtol(t, &e, 10);
		if (*e || v < 0 || v > 15)
			return cap_fail(s, "expected 'type N' with N 0-15");
		type = (int)v;
		k = 4;
	} else
		for (size_t q = 0; q < sizeof types / sizeof types[0] && type < 0; q++) {
			if (!is(&w, 2, types[q].name[0]))
				continue;
			if (types[q].name[1] && !is(&w, 3, types[q].name[1]))
				continue;
			if (!types[q].name[1] && (is(&w, 3, "port") || is(&w, 3, "endpoint")))
				continue;
			type = types[q].type;
			k = types[q].name[1] ? 4 : 3;
		}
	if (type < 0)
		return cap_fail(s,
				"unknown port type: expected endpoint, legacy endpoint, root port, upstream "
				"port, downstream port, PCI bridge, PCI to PCIe bridge, root endpoint, event "
				"collector or type N");
	d->pcie_port_type = type;
	d->bus_kind = PCIBW_BUS_PCIE;
	pcibw_device_set_prov(d, "bus_kind", ORIGIN);
	if (pcibw_pcie_type_bridge(type))
		d->is_bridge = true;
	bool mps_seen = false, read_seen = false, link_seen = false;
	int sta_w = -1, cap_w = -1;
	double sta_s = NAN, cap_s = NAN;
	char a[16], b[16];
	for (; k < w.n; k++) {
		if (is(&w, k, "max") && is(&w, k + 1, "data")) {
			if (!pair(&w, k + 2, "", a, b, sizeof a) || payload(a) == -2 || payload(b) == -2)
				return cap_fail(s, "expected 'max data A(B)' with payload sizes 128 << n");
			d->mps_bytes = payload(a);
			d->mps_supported_bytes = payload(b);
			/* RO is printed only where Device Control enables it */
			d->relaxed_ordering = 0;
			mps_seen = true;
			k += 2;
		} else if (is(&w, k, "max") && is(&w, k + 1, "read")) {
			char t[16];
			if (k + 2 >= w.n || w.len[k + 2] >= (int)sizeof t)
				return cap_fail(s, "expected 'max read N'");
			snprintf(t, sizeof t, "%.*s", w.len[k + 2], w.w[k + 2]);
			/* max_read_string: 128..4096, "undef" for the reserved codes 6-7 */
			int v = strcmp(t, "undef") ? payload(t) : PCIBW_NULL;
			if (v == -2 || v > 4096)
				return cap_fail(s, "expected 'max read' 128..4096 or undef");
			d->mrrs_bytes = v;
			read_seen = true;
			k += 2;
		} else if (is(&w, k, "link")) {
			char t[16], u[16];
			if (!pair(&w, k + 1, "x", t, u, sizeof t) || u[0] != 'x')
				return cap_fail(s, "expected 'link xW(xC)'");
			char *e1, *e2;
			long sw = strtol(t, &e1, 10), cw = strtol(u + 1, &e2, 10);
			if (*e1 || *e2 || sw < 0 || sw > 63 || cw < 0 || cw > 63)
				return cap_fail(s, "expected link widths 0-63");
			sta_w = (int)sw;
			cap_w = (int)cw;
			link_seen = true;
			k += 1;
		} else if (is(&w, k, "speed")) {
			if (!link_seen || !pair(&w, k + 1, "", a, b, sizeof a) || speed(a, &sta_s) ||
			    speed(b, &cap_s))
				return cap_fail(
				    s, "expected 'speed S(C)' after 'link', S and C one of 2.5, 5.0, "
				       "8.0, 16.0, 32.0, 64.0, undef (or 0.0 for a link down)");
			k += 1;
		} else if (is(&w, k, "ASPM")) {
			if (!pair(&w, k + 1, "", a, b, sizeof a) || aspm_bits(a) < 0 || aspm_bits(b) < 0)
				return cap_fail(s, "expected 'ASPM A(B)' of disabled, L0s, L1, L0s/L1");
			d->aspm = aspm_bits(a);
			d->aspm_supported = aspm_bits(b);
			pcibw_device_set_prov(d, "aspm", ORIGIN);
			k += 1;
		} else if (is(&w, k, "ClockPM")) {
			if (!is(&w, k + 1, "enabled") && !is(&w, k + 1, "disabled"))
				return cap_fail(s, "expected 'ClockPM enabled' or 'disabled'");
			d->clock_pm = is(&w, k + 1, "enabled");
			k += 1;
		} else if (is(&w, k, "RO")) {
			d->relaxed_ordering = 1;
		} else if (is(&w, k, "slot"))
			break; /* the slot line: power and hot-plug, nothing of the link */
	}
	if (!mps_seen)
		return cap_fail(s,
				"expected 'max data A(B)' (cap.c prints it on every PCI Express capability)");
	pcibw_device_set_prov(d, "mps_bytes", ORIGIN);
	if (read_seen)
		pcibw_device_set_prov(d, "mrrs_bytes", ORIGIN);
	if (link_seen) {
		d->link_width = sta_w > 0 ? sta_w : PCIBW_NULL;
		d->max_link_width = cap_w > 0 ? cap_w : PCIBW_NULL;
		/* cap.c prints the speed only where LnkCap's width is non-zero, "0.0" for width 0 */
		d->link_speed_gts = sta_w > 0 ? sta_s : NAN;
		d->max_link_speed_gts = cap_s;
		pcibw_device_set_prov(d, "link_speed_gts", ORIGIN);
		if (!pcibw_pcie_type_faces_downstream(type) && !isnan(sta_s) && !isnan(cap_s) && sta_w > 0 &&
		    cap_w > 0)
			d->downgraded = sta_s < cap_s || sta_w < cap_w;
	}
	return 0;
}

/* cap_pcix: "PCI-X [64-bit ][bridge ][supports[ 133MHz][, 266MHz][, 533MHz]]" then, for a
 * device, "[,] N burst read, M split transaction[s]" (PCI-X Status: designed MMRBC, splits). */
static int cap_pcix(struct scan *s)
{
	struct probe_node *n = node(s, s->cap_dev);
	struct pcibw_device *d = &n->d;
	struct words w;
	split(s->cap_text, &w);
	if (!is(&w, 0, "PCI-X"))
		return cap_fail(s, "expected 'PCI-X ...' (cap.c cap_pcix)");
	int k = 1, bits64 = 0, f133 = 0, f266 = 0, f533 = 0;
	if (is(&w, k, "64-bit")) {
		bits64 = 1;
		k++;
	}
	bool bridge = is(&w, k, "bridge");
	if (bridge != (n->header_type == 1))
		return cap_fail(s, bridge ? "'bridge' on a device whose hdr is not 0x01"
					  : "expected 'bridge' on a device with hdr 0x01");
	if (bridge)
		k++;
	if (is(&w, k, "supports"))
		k++;
	for (; k < w.n; k++) {
		char t[16];
		snprintf(t, sizeof t, "%.*s", w.len[k], w.w[k]);
		size_t L = strlen(t);
		if (L && t[L - 1] == ',')
			t[--L] = '\0';
		if (!strcmp(t, "133MHz"))
			f133 = 1;
		else if (!strcmp(t, "266MHz"))
			f266 = 1;
		else if (!strcmp(t, "533MHz"))
			f533 = 1;
		else
			break;
	}
	if (bridge) {
		if (k != w.n)
			return cap_fail(s, "expected only the bridge's speeds after 'supports'");
		n->pcix_bridge = 1; /* its Secondary Status comes from pciconf -r, if given */
		return 0;
	}
	long mmrbc, splits;
	char *e;
	if (k + 4 >= w.n || !is(&w, k + 1, "burst") || !is(&w, k + 2, "read,") || (!is(&w, k + 4, "split")) ||
	    k + 5 >= w.n || !(is(&w, k + 5, "transaction") || is(&w, k + 5, "transactions")) || k + 6 != w.n)
		return cap_fail(s, "expected 'N burst read, M split transaction[s]'");
	char t[16];
	snprintf(t, sizeof t, "%.*s", w.len[k], w.w[k]);
	mmrbc = strtol(t, &e, 10);
	if (*e || (mmrbc != 512 && mmrbc != 1024 && mmrbc != 2048 && mmrbc != 4096))
		return cap_fail(s, "expected a burst read of 512, 1024, 2048 or 4096");
	snprintf(t, sizeof t, "%.*s", w.len[k + 3], w.w[k + 3]);
	splits = strtol(t, &e, 10);
	static const int codes[] = {1, 2, 3, 4, 8, 12, 16, 32};
	bool ok = false;
	for (int q = 0; q < 8; q++)
		ok |= splits == codes[q];
	if (*e || !ok)
		return cap_fail(s, "expected split transactions 1, 2, 3, 4, 8, 12, 16 or 32");
	d->pcix_capable = true;
	d->pcix_64bit = bits64;
	d->pcix_133 = f133;
	d->pcix_266 = f266;
	d->pcix_533 = f533;
	d->pcix_designed_mmrbc_bytes = (int)mmrbc;
	d->pcix_designed_splits = (int)splits;
	pcibw_device_set_prov(d, "pcix_capable", ORIGIN);
	return 0;
}

static int end_cap(struct scan *s)
{
	if (s->cap_id < 0)
		return 0;
	int rc = 0;
	if (s->cap_id == PCI_CAP_ID_EXP)
		rc = cap_pcie(s);
	else if (s->cap_id == PCI_CAP_ID_PCIX)
		rc = cap_pcix(s);
	s->cap_id = -1;
	return rc;
}

static void cap_add_text(struct scan *s, size_t from)
{
	size_t e = s->len;
	while (e > from && (s->line[e - 1] == ' ' || s->line[e - 1] == '\t'))
		e--;
	from = skip_blanks(s, from);
	if (e <= from)
		return;
	if (s->cap_len + 2 >= sizeof s->cap_text)
		return; /* full: the blank and the NUL need two bytes, or add below would wrap */
	size_t add = e - from;
	if (s->cap_len + add + 2 >= sizeof s->cap_text)
		add = sizeof s->cap_text - s->cap_len - 2;
	if (s->cap_len)
		s->cap_text[s->cap_len++] = ' ';
	for (size_t k = 0; k < add; k++) /* tabs inside cap.c's lines read as blanks */
		s->cap_text[s->cap_len++] = s->line[from + k] == '\t' ? ' ' : s->line[from + k];
	s->cap_text[s->cap_len] = '\0';
}

/* "cap II[PP] = TEXT" and "ecap IIII[PPP] = TEXT" */
static int cap_line(struct scan *s, size_t i, bool ext)
{
	char buf[48];
	uint64_t id, at;
	size_t k = i + (ext ? 5 : 4), h;
	struct probe_node *n = node(s, s->cur);
	if (!(h = hex_at(s, k, false, &id)) || h - k != (ext ? 4u : 2u) || !starts(s, h, "[") ||
	    !(k = hex_at(s, h + 1, false, &at)) || !starts(s, k, "] = "))
		return fail_at(s, i, "found '%s': expected '%s' (pciconf -c)", found(s, i, buf, sizeof buf),
			       ext ? "ecap IIII[PPP] = ..." : "cap II[PP] = ...");
	if (!ext && (at < 0x40 || at > 0xfc))
		return fail_at(s, h + 1, "capability at 0x%02x: expected 0x40-0xfc (PCI LB 3.0 sec. 6.7)",
			       (unsigned)at);
	if (ext)
		return 0; /* extended capabilities: nothing pciconf prints of them bounds the bus */
	s->f->caps_listed = true;
	n->has_caps = 1;
	struct pciconf_dev *pd = &s->f->dev[s->cur];
	if (id == PCI_CAP_ID_EXP || id == PCI_CAP_ID_PCIX) {
		int *slot = id == PCI_CAP_ID_EXP ? &pd->pcie_at : &pd->pcix_at;
		if (*slot >= 0)
			return fail_at(s, i, "a second %s capability on this device",
				       id == PCI_CAP_ID_EXP ? "PCI Express" : "PCI-X");
		*slot = (int)at;
	}
	s->cap_id = (int)id;
	s->cap_at = (int)at;
	s->cap_dev = s->cur;
	s->cap_line = s->lineno;
	s->cap_len = 0;
	s->cap_text[0] = '\0';
	cap_add_text(s, k + 4);
	return 0;
}

/* ---- pciconf -r ---------------------------------------------------------------------------- */

static int reg_command(struct scan *s, size_t at, struct pending_reg **pend, int *npend, int *cappend)
{
	char buf[48];
	size_t i = skip_blanks(s, at + 7);
	int width = 4;
	bool r = false;
	/* options as getopt takes them: "-r", "-rb", "-r -h" ... */
	while (i < s->len && s->line[i] == '-') {
		size_t k = i + 1;
		if (k >= s->len || s->line[k] == ' ')
			break;
		for (; k < s->len && s->line[k] != ' ' && s->line[k] != '\t'; k++) {
			char c = s->line[k];
			if (c == 'r')
				r = true;
			else if (c == 'b')
				width = 1;
			else if (c == 'h')
				width = width == 1 ? 1 : 2;
			else
				return fail_at(s, k, "pciconf -r option '%c': expected -b or -h", c);
		}
		i = skip_blanks(s, k);
	}
	if (!r)
		return fail_at(s, at, "expected 'pciconf -r [-b|-h] SELECTOR ADDR[:ADDR2]'");
	size_t se = i;
	while (se < s->len && s->line[se] != ' ' && s->line[se] != '\t')
		se++;
	if (se == i || se - i >= 64)
		return fail_at(s, i, "found '%s': expected a selector (pci0:2:1:0 or a device name)",
			       found(s, i, buf, sizeof buf));
	size_t a = skip_blanks(s, se);
	long start, end;
	uint64_t x;
	size_t h = starts(s, a, "0x") ? hex_at(s, a, true, &x) : dec_at(s, a, (long *)&start);
	if (!h)
		return fail_at(s, a, "found '%s': expected ADDR[:ADDR2] (0x40 or 0x40:0x4f)",
			       found(s, a, buf, sizeof buf));
	if (starts(s, a, "0x"))
		start = (long)x;
	end = start;
	if (starts(s, h, ":")) {
		size_t b = h + 1;
		h = starts(s, b, "0x") ? hex_at(s, b, true, &x) : dec_at(s, b, &end);
		if (!h)
			return fail_at(s, b, "found '%s': expected ADDR2", found(s, b, buf, sizeof buf));
		if (starts(s, b, "0x"))
			end = (long)x;
	}
	if (skip_blanks(s, h) != s->len)
		return fail_at(s, h, "found '%s' after the address: expected the end of the command",
			       found(s, h, buf, sizeof buf));
	if (start < 0 || end < start || end > 0xfff || start % width)
		return fail_at(s, a,
			       "register range 0x%lx:0x%lx: expected 0 <= ADDR <= ADDR2 <= 0xfff, ADDR a "
			       "multiple of the width (%d)",
			       start, end, width);
	if (pcibw_grow(pend, cappend, *npend + 1, sizeof **pend))
		return pcibw_fail(s->err, PCIBW_EINTERNAL, "out of memory");
	struct pending_reg *p = &(*pend)[(*npend)++];
	memset(p, 0, sizeof *p);
	memcpy(p->sel, s->line + i, se - i);
	p->width = width;
	p->start = (int)start;
	p->line = s->lineno;
	int count = (int)((end - start) / width) + 1;
	p->vals = calloc((size_t)count, sizeof *p->vals);
	p->cols = calloc((size_t)count, sizeof *p->cols);
	p->lines = calloc((size_t)count, sizeof *p->lines);
	if (!p->vals || !p->cols || !p->lines)
		return pcibw_fail(s->err, PCIBW_EINTERNAL, "out of memory");
	s->in_reg = true;
	s->reg_width = width;
	s->reg_next = 0;
	s->reg_end = count;
	return 0;
}

/* One output line of readit: up to four values of 2W hex digits, one space between them. */
static int reg_values(struct scan *s, struct pending_reg *p)
{
	char buf[48];
	size_t i = 0;
	int on_line = 0;
	while (i < s->len) {
		uint64_t v;
		size_t h = hex_at(s, i, false, &v);
		if (!h || h - i != (size_t)(2 * p->width))
			return fail_at(s, i, "found '%s': expected a value of %d hex digits (pciconf -r%s)",
				       found(s, i, buf, sizeof buf), 2 * p->width,
				       p->width == 1   ? " -b"
				       : p->width == 2 ? " -h"
						       : "");
		if (s->reg_next >= s->reg_end)
			return fail_at(s, i,
				       "one value more than the range of the pciconf -r command at line %d",
				       p->line);
		p->vals[s->reg_next] = (uint32_t)v;
		p->cols[s->reg_next] = (int)i + 1;
		p->lines[s->reg_next] = s->lineno;
		s->reg_next++;
		on_line++;
		i = h;
		if (i < s->len && s->line[i] == ' ' && i + 1 < s->len && s->line[i + 1] != ' ')
			i++;
		else
			break;
	}
	if (skip_blanks(s, i) != s->len || on_line > 4)
		return fail_at(s, i, "found '%s': expected at most four values, one space apart",
			       found(s, i, buf, sizeof buf));
	p->n = s->reg_next;
	if (on_line < 4 && s->reg_next < s->reg_end)
		return fail_at(s, i, "the line ends after %d values, %d more expected", on_line,
			       s->reg_end - s->reg_next);
	if (s->reg_next == s->reg_end)
		s->in_reg = false;
	return 0;
}

static int apply_reg(struct scan *s, const struct pending_reg *p)
{
	/* the selector: [NAME@]pciSEL, or a device name */
	const char *at = strchr(p->sel, '@');
	const char *sel = at ? at + 1 : p->sel;
	int idx = -1;
	if (!strncmp(sel, "pci", 3) && isdigit((unsigned char)sel[3])) {
		struct scan t = *s;
		t.line = sel;
		t.len = strlen(sel);
		int v[4], n, dom, bus, dev, fn;
		size_t e = selector_numbers(&t, 0, v, &n);
		if (!e || e != t.len)
			return pcibw_fail(s->err, PCIBW_EINPUT,
					  "%s:%d: selector '%s': expected pci[D:]B:D[:F] as pciconf reads it",
					  s->f->path, p->line, p->sel);
		sel_to_slot(v, n, &dom, &bus, &dev, &fn);
		idx = find_slot(s->set, dom, bus, dev, fn);
	} else
		idx = find_name(s->f, s->set->n, p->sel);
	if (idx < 0)
		return pcibw_fail(
		    s->err, PCIBW_EINPUT,
		    "%s:%d: pciconf -r %s: no device of the listing has this selector: expected "
		    "the pciconf -l lines of the device read",
		    s->f->path, p->line, p->sel);
	struct pciconf_dev *pd = &s->f->dev[idx];
	if (!pd->reg) {
		pd->reg = calloc(4096, 1);
		pd->reg_have = calloc(4096 / 32, sizeof *pd->reg_have);
		pd->reg_line = calloc(2 * 4096, sizeof *pd->reg_line);
		if (!pd->reg || !pd->reg_have || !pd->reg_line)
			return pcibw_fail(s->err, PCIBW_EINTERNAL, "out of memory");
	}
	for (int k = 0; k < p->n; k++)
		for (int b = 0; b < p->width; b++) {
			int o = p->start + k * p->width + b;
			pd->reg[o] = (uint8_t)(p->vals[k] >> (8 * b)); /* little-endian, as PCIOCREAD */
			pd->reg_have[o / 32] |= 1u << (o % 32);
			pd->reg_line[2 * o] = p->lines[k];
			pd->reg_line[2 * o + 1] = p->cols[k] + 2 * (p->width - 1 - b);
		}
	s->f->n_regs++;
	return 0;
}

static bool have(const struct pciconf_dev *pd, int at, int n)
{
	if (!pd->reg || at < 0 || at + n > 4096)
		return false;
	for (int o = at; o < at + n; o++)
		if (!(pd->reg_have[o / 32] >> (o % 32) & 1))
			return false;
	return true;
}

static unsigned reg16(const struct pciconf_dev *pd, int at)
{
	return pd->reg[at] | (unsigned)pd->reg[at + 1] << 8;
}

/* The registers pciconf -lvbc does not print, from the -r dumps (PCI LB 3.0 sec. 6.2; PCI-to-PCI
 * Bridge 1.2 sec. 3.2; PCI-X 2.0a sec. 7.2.3, 8.6.2.2; PCIe Base 6.0 sec. 7.5.3.4). */
static void apply_registers(struct pciconf_file *f, struct probe_set *set)
{
	static const int splits_code[8] = {1, 2, 3, 4, 8, 12, 16, 32};
	for (int i = 0; i < set->n; i++) {
		struct pciconf_dev *pd = &f->dev[i];
		struct probe_node *n = &set->v[i];
		struct pcibw_device *d = &n->d;
		if (!pd->reg)
			continue;
		if (have(pd, PCI_STATUS, 2)) {
			unsigned st = reg16(pd, PCI_STATUS);
			n->status_66mhz = !!(st & PCI_STATUS_66MHZ);
			if (!f->caps_listed)
				n->has_caps = !!(st & PCI_STATUS_CAP_LIST);
		}
		if (have(pd, PCI_CACHE_LINE_SIZE, 1)) {
			unsigned cls = pd->reg[PCI_CACHE_LINE_SIZE];
			d->cacheline_bytes = cls ? (int)cls * 4 : PCIBW_NULL;
			if (cls)
				pcibw_device_set_prov(d, "cacheline_bytes", "config");
		}
		if (have(pd, PCI_LATENCY_TIMER, 1)) {
			d->latency_timer = pd->reg[PCI_LATENCY_TIMER];
			pcibw_device_set_prov(d, "latency_timer", "config");
		}
		if (n->header_type == 1 || n->header_type == 2) {
			if (have(pd, PCI_SECONDARY_BUS, 2) && !pd->bus_range) {
				n->sec_bus = pd->reg[PCI_SECONDARY_BUS];
				n->sub_bus = pd->reg[PCI_SUBORDINATE_BUS];
			}
			if (n->header_type == 1 && have(pd, PCI_SEC_STATUS, 2))
				n->sec_status_66mhz = !!(reg16(pd, PCI_SEC_STATUS) & PCI_STATUS_66MHZ);
		}
		if (pd->pcix_at >= 0 && n->pcix_bridge &&
		    have(pd, pd->pcix_at + PCI_PCIX_BRIDGE_SEC_STATUS, 2))
			n->pcix_sec_status = (int)reg16(pd, pd->pcix_at + PCI_PCIX_BRIDGE_SEC_STATUS);
		if (pd->pcix_at >= 0 && d->pcix_capable && have(pd, pd->pcix_at + PCI_PCIX_COMMAND, 2)) {
			unsigned cmd = reg16(pd, pd->pcix_at + PCI_PCIX_COMMAND);
			d->mmrbc_bytes = 512 << ((cmd >> 2) & 3);     /* command bits 3:2 */
			d->pcix_splits = splits_code[(cmd >> 4) & 7]; /* command bits 6:4 */
			pcibw_device_set_prov(d, "mmrbc_bytes", "config");
		}
		if (pd->pcie_at >= 0 && d->mrrs_bytes == PCIBW_NULL &&
		    have(pd, pd->pcie_at + PCI_EXP_DEVCTL, 2)) {
			unsigned mrrs =
			    (reg16(pd, pd->pcie_at + PCI_EXP_DEVCTL) & PCI_EXP_DEVCTL_READRQ) >> 12;
			if (mrrs <= 5) {
				d->mrrs_bytes = 128 << mrrs;
				pcibw_device_set_prov(d, "mrrs_bytes", "config");
			}
		}
	}
}

/* ---- lines --------------------------------------------------------------------------------- */

/* "bus range  = S-E" of pciconf -B */
static int bus_range(struct scan *s, size_t i)
{
	char buf[48];
	size_t k = skip_blanks(s, i + 9);
	long a, b;
	size_t h;
	if (!starts(s, k, "=") || !(h = dec_at(s, skip_blanks(s, k + 1), &a)) || !starts(s, h, "-") ||
	    !(k = dec_at(s, h + 1, &b)) || skip_blanks(s, k) != s->len || a > 255 || b > 255)
		return fail_at(s, i, "found '%s': expected 'bus range = S-E' (pciconf -B)",
			       found(s, i, buf, sizeof buf));
	struct probe_node *n = node(s, s->cur);
	n->sec_bus = (int)a;
	n->sub_bus = (int)b;
	s->f->dev[s->cur].bus_range = true;
	return 0;
}

static int indented(struct scan *s)
{
	char buf[48];
	size_t i = skip_blanks(s, 0);
	struct probe_node *n = s->cur >= 0 ? node(s, s->cur) : NULL;
	if (!n)
		return fail_at(s, i, "found '%s': expected a device line before its indented lines",
			       found(s, i, buf, sizeof buf));
	static const char *const keys[] = {"vendor", "device", "class", "subclass"};
	for (size_t q = 0; q < 4; q++) {
		size_t L = strlen(keys[q]);
		if (!starts(s, i, keys[q]) || i + L >= s->len ||
		    (s->line[i + L] != ' ' && s->line[i + L] != '\t'))
			continue;
		size_t k = skip_blanks(s, i + L);
		if (!starts(s, k, "="))
			continue;
		int rc = end_cap(s);
		if (rc)
			return rc;
		s->f->verbose = true;
		k = skip_blanks(s, k + 1);
		if (q < 2) {
			struct pcibw_device *d = &n->d;
			if (q == 1)
				s->f->dev[s->cur].named = true;
			return quoted(s, k, d->name, sizeof d->name);
		}
		return 0; /* class and subclass words: the class= code says it already */
	}
	if (starts(s, i, "bar ") || starts(s, i, "bar\t")) {
		int rc = end_cap(s);
		return rc ? rc : bar_line(s, i);
	}
	if (starts(s, i, "cap ") || starts(s, i, "ecap ")) {
		int rc = end_cap(s);
		return rc ? rc : cap_line(s, i, starts(s, i, "ecap "));
	}
	if (starts(s, i, "bus range")) {
		int rc = end_cap(s);
		return rc ? rc : bus_range(s, i);
	}
	if (starts(s, i, "window[")) {
		int rc = end_cap(s);
		return rc;
	}
	if (s->cap_id >= 0 && s->cap_dev == s->cur) {
		cap_add_text(s, i);
		return 0;
	}
	if (s->cap_line > 0 && s->cap_dev == s->cur)
		return 0; /* the continuation of a capability pcibw does not decode (MSI-X, SR-IOV, ACS) */
	return fail_at(s, i,
		       "found '%s': expected vendor =, device =, class =, subclass = (-v), bar [RR] = (-b), "
		       "cap or ecap (-c), or the continuation of a capability",
		       found(s, i, buf, sizeof buf));
}

/* Where "pciconf" starts as a word on this line, or -1. */
static long pciconf_word(const struct scan *s)
{
	for (size_t i = 0; i + 7 <= s->len; i++)
		if (!memcmp(s->line + i, "pciconf", 7) &&
		    (i == 0 || s->line[i - 1] == ' ' || s->line[i - 1] == '\t') &&
		    (i + 7 == s->len || s->line[i + 7] == ' '))
			return (long)i;
	return -1;
}

static void pending_free(struct pending_reg *p, int n)
{
	for (int k = 0; k < n; k++) {
		free(p[k].vals);
		free(p[k].cols);
		free(p[k].lines);
	}
	free(p);
}

int probe_pciconf_scan(const char *text, size_t len, struct pciconf_file *f, struct probe_set *set,
		       struct pcibw_err *err)
{
	struct scan s = {.f = f, .set = set, .err = err, .cur = -1, .cap_id = -1, .cap_dev = -1};
	struct pending_reg *pend = NULL;
	int npend = 0, cappend = 0, rc = 0;
	f->set = set;
	for (size_t at = 0; at < len && !rc;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t e = nl ? (size_t)(nl - text) : len;
		s.line = text + at;
		s.len = e - at;
		s.lineno++;
		at = e + 1;
		if (memchr(s.line, '\0', s.len)) {
			rc = fail_at(&s, (size_t)((const char *)memchr(s.line, '\0', s.len) - s.line),
				     "a NUL byte: expected text");
			break;
		}
		if (s.len && s.line[s.len - 1] == '\r')
			s.len--;
		size_t first = skip_blanks(&s, 0);
		if (s.in_reg) {
			if (first == s.len || s.line[0] == ' ' || s.line[0] == '\t' || s.line[0] == '#') {
				rc = fail_at(&s, first,
					     "the pciconf -r command at line %d printed %d of its %d values: "
					     "expected the rest",
					     pend[npend - 1].line, s.reg_next, s.reg_end);
				break;
			}
			rc = reg_values(&s, &pend[npend - 1]);
			continue;
		}
		if (first == s.len) {
			rc = end_cap(&s);
			s.cur = -1;
			continue;
		}
		/* a command line: a '#' (root's prompt) then the command, or any unindented line naming
		 * pciconf (a longer prompt, "$ sudo pciconf -lvbc"); other '#' lines are comments */
		long pw = first == 0 ? pciconf_word(&s) : -1;
		if (pw >= 0 && s.line[0] == '#') {
			size_t k = skip_blanks(&s, 1);
			if (starts(&s, k, "sudo "))
				k = skip_blanks(&s, k + 5);
			if ((long)k != pw)
				pw = -1;
		}
		if (pw >= 0) {
			rc = end_cap(&s);
			s.cur = -1;
			size_t k = skip_blanks(&s, (size_t)pw + 7);
			bool r = false;
			for (; k < s.len && s.line[k] == '-'; k = skip_blanks(&s, k)) {
				for (k++; k < s.len && s.line[k] != ' '; k++)
					r |= s.line[k] == 'r';
			}
			if (!rc && r)
				rc = reg_command(&s, (size_t)pw, &pend, &npend, &cappend);
			continue; /* the -l command line itself */
		}
		if (s.line[0] == '#')
			continue;
		if (first > 0) {
			rc = indented(&s);
			continue;
		}
		if (!(rc = end_cap(&s)))
			rc = device_line(&s);
	}
	if (!rc && s.in_reg)
		rc =
		    pcibw_fail(err, PCIBW_EINPUT,
			       "%s:%d: the input ends after %d of the %d values of the pciconf -r command at "
			       "line %d: expected the rest",
			       f->path, s.lineno, s.reg_next, s.reg_end, pend[npend - 1].line);
	if (!rc)
		rc = end_cap(&s);
	if (!rc && set->n == 0)
		rc = pcibw_fail(
		    err, PCIBW_EINPUT,
		    "%s: no pciconf -l device line (NAMEUNIT@pciD:B:D:F: class=...): expected the output "
		    "of pciconf -lvbc",
		    f->path);
	for (int k = 0; k < npend && !rc; k++)
		rc = apply_reg(&s, &pend[k]);
	pending_free(pend, npend);
	if (rc)
		return rc;
	for (int i = 0; i < set->n; i++) {
		struct probe_node *n = &set->v[i];
		if (f->caps_listed) {
			/* -c lists every capability of a device that has a list: none listed, none held */
			if (n->has_caps == PCIBW_NULL)
				n->has_caps = 0;
			n->caps_read = true;
			n->cfg.len = 256;
		}
	}
	apply_registers(f, set);
	return 0;
}

void probe_pciconf_file_free(struct pciconf_file *f)
{
	for (int i = 0; i < f->n && f->dev; i++) {
		free(f->dev[i].reg);
		free(f->dev[i].reg_have);
		free(f->dev[i].reg_line);
	}
	free(f->dev);
	f->dev = NULL;
	f->cap = 0;
}

void probe_pciconf_where(const void *ctx, int domain, int bus, int dev, int fn, int offset, char *buf,
			 size_t len)
{
	const struct pciconf_file *f = ctx;
	int i = f->set ? find_slot(f->set, domain, bus, dev, fn) : -1;
	if (i < 0) {
		snprintf(buf, len, "%s", f->path);
		return;
	}
	const struct pciconf_dev *pd = &f->dev[i];
	if (offset >= 0 && have(pd, offset, 1))
		snprintf(buf, len, "%s:%d:%d", f->path, pd->reg_line[2 * offset],
			 pd->reg_line[2 * offset + 1]);
	else
		snprintf(buf, len, "%s:%d", f->path, pd->line);
}

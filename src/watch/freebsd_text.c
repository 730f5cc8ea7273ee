/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FreeBSD's kern.cp_times, hw.intrnames/hw.intrcnt and if_data as blob texts (freebsd_text.h). */
#include "freebsd_text.h"
#include "pcibw/watch.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool put(char *out, size_t cap, size_t *o, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool put(char *out, size_t cap, size_t *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(out + *o, cap - *o, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= cap - *o)
		return false;
	*o += (size_t)w;
	return true;
}

int watch_fbsd_stat_text(const long *cp, size_t n_long, uint64_t intr_total, char *out, size_t cap,
			 size_t *len, struct pcibw_err *err)
{
	if (n_long == 0 || n_long % WATCH_FBSD_CPUSTATES)
		return pcibw_fail(
		    err, PCIBW_EINPUT,
		    "kern.cp_times: %zu counters: expected %d per CPU (CPUSTATES of <sys/resource.h>)",
		    n_long, WATCH_FBSD_CPUSTATES);
	size_t ncpu = n_long / WATCH_FBSD_CPUSTATES;
	if (ncpu > PCIBW_WATCH_MAX_CPUS)
		return pcibw_fail(err, PCIBW_EINPUT, "kern.cp_times: %zu CPUs: expected at most %d", ncpu,
				  PCIBW_WATCH_MAX_CPUS);
	size_t o = 0;
	if (!cap)
		return pcibw_fail(err, PCIBW_EINTERNAL, "kern.cp_times: no room for the text");
	out[0] = '\0';
	for (size_t c = 0; c < ncpu; c++) {
		const long *t = cp + c * WATCH_FBSD_CPUSTATES;
		for (int k = 0; k < WATCH_FBSD_CPUSTATES; k++)
			if (t[k] < 0)
				return pcibw_fail(
				    err, PCIBW_EINPUT,
				    "kern.cp_times: CPU %zu state %d reads %ld: expected ticks >= 0", c, k,
				    t[k]);
		/* proc(5) order: user nice system idle iowait irq softirq */
		if (!put(out, cap, &o, "cpu%zu %ld %ld %ld %ld 0 %ld 0\n", c, t[WATCH_FBSD_CP_USER],
			 t[WATCH_FBSD_CP_NICE], t[WATCH_FBSD_CP_SYS], t[WATCH_FBSD_CP_IDLE],
			 t[WATCH_FBSD_CP_INTR]))
			return pcibw_fail(err, PCIBW_EINTERNAL,
					  "kern.cp_times: the text does not fit %zu bytes", cap);
	}
	if (!put(out, cap, &o, "intr %llu\n", (unsigned long long)intr_total))
		return pcibw_fail(err, PCIBW_EINTERNAL, "kern.cp_times: the text does not fit %zu bytes",
				  cap);
	*len = o;
	return PCIBW_OK;
}

int watch_fbsd_intr_parse(const char *names, size_t names_len, const unsigned long *cnt, size_t n_cnt,
			  struct watch_fbsd_intr *out, int max, int *n, struct pcibw_err *err)
{
	*n = 0;
	size_t at = 0;
	for (size_t i = 0; i < n_cnt; i++) {
		const char *nul = at < names_len ? memchr(names + at, '\0', names_len - at) : NULL;
		if (!nul)
			return pcibw_fail(
			    err, PCIBW_EINPUT,
			    "hw.intrnames: %zu names for %zu counters (or a name without its NUL at byte "
			    "%zu): expected one NUL-terminated name per hw.intrcnt counter",
			    i, n_cnt, at);
		size_t L = (size_t)(nul - (names + at));
		const char *name = names + at;
		at += L + 1;
		while (L && name[L - 1] == ' ')
			L--;
		if (!L || *n >= max)
			continue;
		struct watch_fbsd_intr *e = &out[(*n)++];
		snprintf(e->name, sizeof e->name, "%.*s", (int)(L < sizeof e->name ? L : sizeof e->name - 1),
			 name);
		e->count = cnt[i];
	}
	return PCIBW_OK;
}

size_t watch_fbsd_net_text(const struct watch_fbsd_ifdata *d, char *out, size_t cap)
{
	size_t o = 0;
	if (!cap)
		return 0;
	out[0] = '\0';
	bool ok = put(out, cap, &o, "state present\n");
	if (ok && d->ifindex)
		ok = put(out, cap, &o, "ifindex %u\n", d->ifindex);
	if (ok && d->name && d->name[0])
		ok = put(out, cap, &o, "name %s\n", d->name);
	if (ok && d->dev && d->dev[0])
		ok = put(out, cap, &o, "dev %s\n", d->dev);
	if (ok && d->slot && d->slot[0])
		ok = put(out, cap, &o, "slot %s\n", d->slot);
	ok = ok && put(out, cap, &o,
		       "rx_packets %llu\ntx_packets %llu\nrx_bytes %llu\ntx_bytes %llu\nrx_errors %llu\n"
		       "tx_errors %llu\nrx_dropped %llu\ntx_dropped %llu\n",
		       (unsigned long long)d->ipackets, (unsigned long long)d->opackets,
		       (unsigned long long)d->ibytes, (unsigned long long)d->obytes,
		       (unsigned long long)d->ierrors, (unsigned long long)d->oerrors,
		       (unsigned long long)d->iqdrops, (unsigned long long)d->oqdrops);
	if (ok && d->have_missed)
		ok = put(out, cap, &o, "rx_missed_errors %llu\n", (unsigned long long)d->missed);
	if (ok && d->baudrate)
		ok = put(out, cap, &o, "speed %llu\n", (unsigned long long)(d->baudrate / 1000000));
	if (ok)
		ok = put(out, cap, &o, "operstate %s\n",
			 d->link_up == 1   ? "up"
			 : d->link_up == 0 ? "down"
					   : "unknown");
	return ok ? o : 0;
}

/* 1 to 9 decimal digits at s: their value, *rest after them; false when none */
static bool digits(const char *s, unsigned *v, const char **rest)
{
	unsigned n = 0, k = 0;
	while (isdigit((unsigned char)s[k]) && k < 9)
		n = n * 10 + (unsigned)(s[k++] - '0');
	if (!k || isdigit((unsigned char)s[k]))
		return false;
	*v = n;
	*rest = s + k;
	return true;
}

/* A per-queue packet counter's queue (dir 'r' or 't'), -1 for another name. */
static int queue_leaf(const char *leaf, char *dir)
{
	unsigned q;
	const char *rest, *s = leaf;
	if (!strncmp(s, "queue", 5) && digits(s + 5, &q, &rest) &&
	    (!strcmp(rest, ".rx_packets") || !strcmp(rest, ".tx_packets"))) {
		*dir = rest[1];
		return (int)q;
	}
	if (!strncmp(s, "pf.", 3))
		s += 3;
	else if (!strncmp(s, "vf", 2) && digits(s + 2, &q, &rest) && *rest == '.')
		s = rest + 1;
	if ((s[0] == 'r' || s[0] == 't') && !strncmp(s + 1, "xq", 2) && digits(s + 3, &q, &rest) &&
	    !strcmp(rest, ".packets")) {
		*dir = s[0];
		return (int)q;
	}
	return -1;
}

/* Where a wanted mac_stats counter goes, NULL for another name. */
static uint64_t *mac_leaf(const char *leaf, struct watch_fbsd_devstat *st, bool **have)
{
	if (strncmp(leaf, "mac_stats.", 10))
		return NULL;
	const char *m = leaf + 10;
	if (!strcmp(m, "missed_packets"))
		return *have = &st->have_missed, &st->missed;
	if (!strcmp(m, "recv_no_buff"))
		return *have = &st->have_no_buff, &st->no_buff;
	if (!strcmp(m, "good_pkts_recvd") || !strcmp(m, "good_pkts_rcvd"))
		return *have = &st->have_good_rx, &st->good_rx;
	if (!strcmp(m, "good_pkts_txd"))
		return *have = &st->have_good_tx, &st->good_tx;
	return NULL;
}

int watch_fbsd_devstat_parse(const char *text, size_t len, const char *dev, const char *what,
			     struct watch_fbsd_devstat *st, struct pcibw_err *err)
{
	memset(st, 0, sizeof *st);
	char prefix[64];
	const char *dot = strchr(dev, '.');
	unsigned unit;
	const char *rest;
	if (!dot || dot == dev || (size_t)(dot - dev) > 32 || !digits(dot + 1, &unit, &rest) || *rest)
		return pcibw_fail(err, PCIBW_EUSAGE, "'%s': expected a device as DRIVER.UNIT (em.0)", dev);
	for (const char *c = dev; c < dot; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s': expected a device as DRIVER.UNIT (em.0)",
					  dev);
	size_t plen = (size_t)snprintf(prefix, sizeof prefix, "dev.%s.", dev);
	const char *p = text, *end = text + len;
	for (unsigned line = 1; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t L = eol ? (size_t)(eol - p) : (size_t)(end - p);
		const char *next = eol ? eol + 1 : end;
		while (L && (p[L - 1] == '\r' || p[L - 1] == ' '))
			L--;
		if (L < plen || memcmp(p, prefix, plen)) {
			p = next;
			continue;
		}
		st->n_lines++;
		const char *name = p + plen, *le = p + L;
		const char *colon = memchr(name, ':', (size_t)(le - name));
		const char *bad = NULL;
		if (!colon || colon == name || (colon + 1 < le && colon[1] != ' '))
			bad = colon ? colon : le;
		for (const char *c = name; !bad && c < colon; c++)
			if (!isgraph((unsigned char)*c))
				bad = c;
		if (bad)
			return pcibw_fail(
			    err, PCIBW_EINPUT,
			    "%s:%u:%zu: expected 'NAME: VALUE' as sysctl(8) prints a node of %.*s", what,
			    line, (size_t)(bad - p) + 1, (int)(plen - 1), prefix);
		char leaf[128];
		size_t nl = (size_t)(colon - name);
		if (nl >= sizeof leaf) {
			p = next;
			continue; /* longer than any name read here */
		}
		memcpy(leaf, name, nl);
		leaf[nl] = '\0';
		char dir = 0;
		bool *have = NULL;
		int q = queue_leaf(leaf, &dir);
		uint64_t *slot = q >= 0 ? NULL : mac_leaf(leaf, st, &have);
		if (q < 0 && !slot) {
			p = next;
			continue;
		}
		const char *v = colon + 1 < le ? colon + 2 : le, *vs = v;
		uint64_t n = 0;
		for (; v < le && isdigit((unsigned char)*v); v++) {
			unsigned d = (unsigned)(*v - '0');
			if (n > (UINT64_MAX - d) / 10)
				return pcibw_fail(err, PCIBW_EINPUT,
						  "%s:%u:%zu: %s: expected a count that fits 64 bits", what,
						  line, (size_t)(vs - p) + 1, leaf);
			n = n * 10 + d;
		}
		if (v == vs || v < le)
			return pcibw_fail(err, PCIBW_EINPUT, "%s:%u:%zu: %s: expected a decimal count", what,
					  line, (size_t)(v - p) + 1, leaf);
		if (slot) {
			/* a paste of two runs, or a driver's two names for one count: the later would
			 * win silently */
			if (*have)
				return pcibw_fail(
				    err, PCIBW_EINPUT,
				    "%s:%u:%zu: %s: a second value for this counter (also named "
				    "earlier in the text): expected each counter once",
				    what, line, (size_t)(name - p) + 1, leaf);
			*slot = n;
			*have = true;
		} else if (q < PCIBW_WATCH_MAX_QUEUES) {
			uint64_t *arr = dir == 'r' ? st->q_rx : st->q_tx;
			int *nq = dir == 'r' ? &st->n_q_rx : &st->n_q_tx;
			arr[q] = n;
			if (q + 1 > *nq)
				*nq = q + 1;
		}
		p = next;
	}
	return PCIBW_OK;
}

size_t watch_fbsd_devstat_ethtool(const struct watch_fbsd_devstat *st, char *out, size_t cap)
{
	size_t o = 0;
	if (!cap)
		return 0;
	out[0] = '\0';
	for (int q = 0; q < st->n_q_rx; q++)
		if (!put(out, cap, &o, "rx_queue_%d_packets %llu\n", q, (unsigned long long)st->q_rx[q]))
			return 0;
	for (int q = 0; q < st->n_q_tx; q++)
		if (!put(out, cap, &o, "tx_queue_%d_packets %llu\n", q, (unsigned long long)st->q_tx[q]))
			return 0;
	return o;
}

bool watch_fbsd_location_slot(const char *location, char *slot, size_t n)
{
	for (const char *w = location; w && *w;) {
		while (*w == ' ')
			w++;
		unsigned v[4];
		const char *r = w + 8;
		if (!strncmp(w, "dbsf=pci", 8)) {
			int k = 0;
			for (; k < 4; k++) {
				if (!digits(r, &v[k], &r) || (k < 3 && *r++ != ':'))
					break;
			}
			if (k == 4 && (*r == ' ' || !*r) && v[1] < 256 && v[2] < 32 && v[3] < 8 &&
			    v[0] <= 0xffff) {
				snprintf(slot, n, "%04x:%02x:%02x.%x", v[0], v[1], v[2], v[3]);
				return true;
			}
			return false;
		}
		w = strchr(w, ' ');
	}
	return false;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FreeBSD's kern.cp_times, hw.intrnames/hw.intrcnt and if_data as blob texts (freebsd_text.h). */
#include "freebsd_text.h"
#include "pcibw/watch.h"
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
	bool ok = put(out, cap, &o,
		      "rx_packets %llu\ntx_packets %llu\nrx_bytes %llu\ntx_bytes %llu\nrx_errors %llu\n"
		      "tx_errors %llu\nrx_dropped %llu\ntx_dropped %llu\n",
		      (unsigned long long)d->ipackets, (unsigned long long)d->opackets,
		      (unsigned long long)d->ibytes, (unsigned long long)d->obytes,
		      (unsigned long long)d->ierrors, (unsigned long long)d->oerrors,
		      (unsigned long long)d->iqdrops, (unsigned long long)d->oqdrops);
	if (ok && d->baudrate)
		ok = put(out, cap, &o, "speed %llu\n", (unsigned long long)(d->baudrate / 1000000));
	if (ok)
		ok = put(out, cap, &o, "operstate %s\n",
			 d->link_up == 1   ? "up"
			 : d->link_up == 0 ? "down"
					   : "unknown");
	return ok ? o : 0;
}

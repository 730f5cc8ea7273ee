/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parse a sample's text into counters. Formats: proc(5) for /proc/stat and /proc/interrupts;
 * /proc/net/softnet_stat as net/core/net-procfs.c softnet_seq_show() writes it (hex columns:
 * processed, dropped, time_squeeze, ..., and from Linux 5.10 the CPU id in column 13; before,
 * rows are the online CPUs in order); the "net/IFACE" and "ethtool/IFACE" blobs are the
 * sampler's "name value" lines (doc/watch-recording.md).
 */
#include "pcibw/watch.h"
#include "sampler.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pcibw_watch_snap_init(struct pcibw_watch_snap *s, struct pcibw_err *err)
{
	memset(s, 0, sizeof *s);
	s->cpu = calloc(PCIBW_WATCH_MAX_CPUS, sizeof *s->cpu);
	s->irq_cpu = calloc(PCIBW_WATCH_MAX_CPUS, sizeof *s->irq_cpu);
	if (!s->cpu || !s->irq_cpu) {
		pcibw_watch_snap_free(s);
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	}
	return PCIBW_OK;
}

void pcibw_watch_snap_free(struct pcibw_watch_snap *s)
{
	free(s->cpu);
	free(s->irq_cpu);
	s->cpu = NULL;
	s->irq_cpu = NULL;
}

/* A cursor over one blob's lines. */
struct lines {
	const char *p, *end;
	unsigned line;
};

static bool next_line(struct lines *l, const char **s, size_t *n)
{
	if (l->p >= l->end)
		return false;
	const char *e = memchr(l->p, '\n', (size_t)(l->end - l->p));
	if (!e)
		e = l->end;
	*s = l->p;
	*n = (size_t)(e - l->p);
	l->p = e < l->end ? e + 1 : e;
	l->line++;
	return true;
}

/* Unsigned decimal (or hex with base 16) at *p; false when there is no digit. */
static bool read_u64(const char **p, const char *end, int base, uint64_t *out)
{
	const char *s = *p;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	uint64_t v = 0;
	const char *d = s;
	for (; s < end; s++) {
		int c = (unsigned char)*s, x;
		if (c >= '0' && c <= '9')
			x = c - '0';
		else if (base == 16 && isxdigit(c))
			x = tolower(c) - 'a' + 10;
		else
			break;
		v = v * (uint64_t)base + (uint64_t)x; /* wraps past 2^64: no kernel counter is wider */
	}
	if (s == d)
		return false;
	*p = s;
	*out = v;
	return true;
}

static int bad(struct pcibw_err *err, const char *where, const char *key, unsigned line, const char *what)
{
	return pcibw_fail(err, PCIBW_EINPUT, "%s: %s line %u: expected %s", where, key, line, what);
}

static int parse_stat(const struct pcibw_watch_blob *b, const char *where, struct pcibw_watch_snap *s,
		      struct pcibw_err *err)
{
	struct lines l = {b->text, b->text + b->len, 0};
	const char *t;
	size_t n;
	s->n_cpus = 0;
	for (int i = 0; i < PCIBW_WATCH_MAX_CPUS; i++)
		s->cpu[i].present = false;
	while (next_line(&l, &t, &n)) {
		const char *end = t + n;
		if (n > 5 && !memcmp(t, "intr ", 5)) {
			const char *p = t + 4;
			if (!read_u64(&p, end, 10, &s->intr_total))
				return bad(err, where, b->key, l.line, "a number after 'intr'");
			continue;
		}
		if (n < 4 || memcmp(t, "cpu", 3) || !isdigit((unsigned char)t[3]))
			continue; /* the "cpu " total line and the others */
		const char *p = t + 3;
		uint64_t id = 0;
		if (!read_u64(&p, end, 10, &id) || id >= PCIBW_WATCH_MAX_CPUS)
			return bad(err, where, b->key, l.line, "a CPU id below 1024");
		struct pcibw_watch_cpu *c = &s->cpu[id];
		int k = 0;
		memset(c->t, 0, sizeof c->t);
		while (k < PCIBW_CPU_NFIELDS && read_u64(&p, end, 10, &c->t[k]))
			k++;
		/* iowait, irq, softirq since Linux 2.6.0, steal since 2.6.11 (proc(5)) */
		if (k < PCIBW_CPU_STEAL)
			return bad(err, where, b->key, l.line,
				   "at least 7 CPU time fields (user nice system idle iowait irq softirq)");
		c->present = true;
		if ((int)id + 1 > s->n_cpus)
			s->n_cpus = (int)id + 1;
	}
	if (s->n_cpus == 0)
		return bad(err, where, b->key, l.line, "'cpuN' lines");
	return PCIBW_OK;
}

static int parse_softnet(const struct pcibw_watch_blob *b, const char *where, struct pcibw_watch_snap *s,
			 struct pcibw_err *err)
{
	struct lines l = {b->text, b->text + b->len, 0};
	const char *t;
	size_t n;
	int next_online = 0;
	while (next_line(&l, &t, &n)) {
		if (n == 0)
			continue;
		uint64_t v[16];
		int k = 0;
		const char *p = t;
		while (k < 16 && read_u64(&p, t + n, 16, &v[k]))
			k++;
		if (k < 3)
			return bad(err, where, b->key, l.line, "at least 3 hex columns");
		int cpu;
		if (k >= 13) {
			cpu = (int)v[12];
		} else {
			/* rows are the online CPUs in order */
			while (next_online < PCIBW_WATCH_MAX_CPUS && !s->cpu[next_online].present)
				next_online++;
			cpu = next_online++;
		}
		if (cpu < 0 || cpu >= PCIBW_WATCH_MAX_CPUS)
			return bad(err, where, b->key, l.line, "a CPU id below 1024 in column 13");
		s->cpu[cpu].sn_processed = v[0];
		s->cpu[cpu].sn_dropped = v[1];
		s->cpu[cpu].sn_squeeze = v[2];
		s->cpu[cpu].have_softnet = true;
	}
	return PCIBW_OK;
}

/* word occurs in s[0..n) with no letter or digit either side */
static bool has_word(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);
	if (!w || w > n)
		return false;
	for (size_t i = 0; i + w <= n; i++) {
		if (memcmp(s + i, word, w))
			continue;
		bool before = i == 0 || !isalnum((unsigned char)s[i - 1]);
		bool after = i + w == n || !isalnum((unsigned char)s[i + w]);
		if (before && after)
			return true;
	}
	return false;
}

struct if_match {
	const char *name;
	char dev[64], slot[32];
};

static int parse_interrupts(const struct pcibw_watch_blob *b, const char *where, struct pcibw_watch_snap *s,
			    const struct if_match *m, struct pcibw_err *err)
{
	struct lines l = {b->text, b->text + b->len, 0};
	const char *t;
	size_t n;
	int col_cpu[PCIBW_WATCH_MAX_CPUS];
	int ncol = 0;
	memset(s->irq_cpu, 0, PCIBW_WATCH_MAX_CPUS * sizeof *s->irq_cpu);
	if (!next_line(&l, &t, &n))
		return PCIBW_OK;
	for (const char *p = t, *end = t + n; p < end;) {
		while (p < end && *p == ' ')
			p++;
		if (end - p >= 4 && !memcmp(p, "CPU", 3)) {
			p += 3;
			uint64_t id;
			if (!read_u64(&p, end, 10, &id) || id >= PCIBW_WATCH_MAX_CPUS)
				return bad(err, where, b->key, l.line, "CPU column names CPU0 .. CPU1023");
			if (ncol < PCIBW_WATCH_MAX_CPUS)
				col_cpu[ncol++] = (int)id;
		} else if (p < end) {
			return bad(err, where, b->key, l.line, "a header of CPUn column names");
		}
	}
	while (next_line(&l, &t, &n)) {
		const char *p = t, *end = t + n;
		while (p < end && *p == ' ')
			p++;
		if (p >= end || !isdigit((unsigned char)*p))
			continue; /* NMI:, LOC:, ERR: ... are not device vectors */
		uint64_t irq;
		read_u64(&p, end, 10, &irq);
		if (p >= end || *p != ':')
			return bad(err, where, b->key, l.line, "'IRQ:' then one count per CPU column");
		p++;
		uint64_t v[PCIBW_WATCH_MAX_CPUS];
		int k = 0;
		while (k < ncol && read_u64(&p, end, 10, &v[k]))
			k++;
		int who = -1;
		for (int i = 0; i < s->n_ifs && who < 0; i++)
			if (has_word(p, (size_t)(end - p), m[i].name) ||
			    (m[i].dev[0] && has_word(p, (size_t)(end - p), m[i].dev)) ||
			    (m[i].slot[0] && has_word(p, (size_t)(end - p), m[i].slot)))
				who = i;
		if (who < 0)
			continue;
		struct pcibw_watch_if *f = &s->ifs[who];
		uint64_t sum = 0;
		for (int i = 0; i < k; i++) {
			sum += v[i];
			s->irq_cpu[col_cpu[i]] += v[i];
		}
		f->irq_total += sum;
		if (f->n_vec < PCIBW_WATCH_MAX_QUEUES)
			f->irq_vec[f->n_vec++] = sum;
	}
	return PCIBW_OK;
}

static const char *const counter_names[PCIBW_IF_NCOUNTERS] = {
    "rx_bytes",	 "rx_packets", "rx_dropped", "rx_missed_errors", "rx_fifo_errors",
    "rx_errors", "tx_bytes",   "tx_packets", "tx_dropped",	 "tx_errors",
};

static const char *const ns_names[PCIBW_NS_N] = {
    "outbound_pci_stalled_rd", "outbound_pci_stalled_wr", "outbound_pci_buffer_overflow",
    "rx_pci_signal_integrity", "tx_pci_signal_integrity",
};

/* "name value" -> name (NUL-terminated copy) and the rest of the line */
static bool split_nv(const char *t, size_t n, char *name, size_t nn, const char **val)
{
	const char *sp = memchr(t, ' ', n);
	if (!sp || (size_t)(sp - t) >= nn)
		return false;
	memcpy(name, t, (size_t)(sp - t));
	name[sp - t] = '\0';
	*val = sp + 1;
	return true;
}

/* Per-queue packet counters: mlx5 rxN_packets / txN_packets; ixgbe, igb, virtio_net
 * rx_queue_N_packets; i40e/ice rx-N.packets (each driver's ethtool get_strings). */
static int queue_of(const char *name, char *dir)
{
	int q = -1, used = 0;
	if ((sscanf(name, "rx%d_packets%n", &q, &used) == 1 ||
	     sscanf(name, "tx%d_packets%n", &q, &used) == 1 ||
	     sscanf(name, "rx_queue_%d_packets%n", &q, &used) == 1 ||
	     sscanf(name, "tx_queue_%d_packets%n", &q, &used) == 1 ||
	     sscanf(name, "rx-%d.packets%n", &q, &used) == 1 ||
	     sscanf(name, "tx-%d.packets%n", &q, &used) == 1) &&
	    name[used] == '\0' && q >= 0 && q < PCIBW_WATCH_MAX_QUEUES) {
		*dir = name[0];
		return q;
	}
	return -1;
}

static int parse_ethtool(const struct pcibw_watch_blob *b, const char *where, struct pcibw_watch_if *f,
			 struct pcibw_err *err)
{
	struct lines l = {b->text, b->text + b->len, 0};
	const char *t, *val;
	size_t n;
	char name[96];
	f->have_ethtool = true;
	while (next_line(&l, &t, &n)) {
		if (n == 0)
			continue;
		if (!split_nv(t, n, name, sizeof name, &val))
			return bad(err, where, b->key, l.line, "'NAME VALUE'");
		if (!strcmp(name, "driver") || !strcmp(name, "bus_info"))
			continue;
		uint64_t v;
		const char *p = val;
		if (!read_u64(&p, t + n, 10, &v))
			return bad(err, where, b->key, l.line, "a decimal counter value");
		for (int i = 0; i < PCIBW_NS_N; i++)
			if (!strcmp(name, ns_names[i])) {
				f->ns[i] = v;
				f->have_ns[i] = true;
			}
		char dir;
		int q = queue_of(name, &dir);
		if (q >= 0) {
			uint64_t *arr = dir == 'r' ? f->q_rx : f->q_tx;
			int *nq = dir == 'r' ? &f->n_q_rx : &f->n_q_tx;
			arr[q] = v;
			if (q + 1 > *nq)
				*nq = q + 1;
		}
	}
	return PCIBW_OK;
}

static int parse_net(const struct pcibw_watch_blob *b, const char *where, struct pcibw_watch_if *f,
		     struct if_match *m, struct pcibw_err *err)
{
	struct lines l = {b->text, b->text + b->len, 0};
	const char *t, *val;
	size_t n;
	char name[64];
	while (next_line(&l, &t, &n)) {
		if (n == 0)
			continue;
		if (!split_nv(t, n, name, sizeof name, &val))
			return bad(err, where, b->key, l.line, "'NAME VALUE'");
		size_t vn = (size_t)(t + n - val);
		char text[64];
		snprintf(text, sizeof text, "%.*s", (int)(vn < 63 ? vn : 63), val);
		if (!strcmp(name, "state")) {
			f->present = !strcmp(text, "present");
			continue;
		}
		if (!strcmp(name, "name")) {
			if (strcmp(text, f->name))
				snprintf(f->renamed, sizeof f->renamed, "%.31s", text);
			continue;
		}
		if (!strcmp(name, "operstate")) {
			snprintf(f->operstate, sizeof f->operstate, "%.15s", text);
			continue;
		}
		if (!strcmp(name, "dev")) {
			snprintf(m->dev, sizeof m->dev, "%s", text);
			continue;
		}
		if (!strcmp(name, "slot")) {
			snprintf(m->slot, sizeof m->slot, "%.31s", text);
			continue;
		}
		if (!strcmp(name, "speed")) {
			/* sysfs speed: Mbit/s, -1 (SPEED_UNKNOWN) when down or virtual */
			char *e;
			double v = strtod(text, &e);
			f->speed_mbps = (e != text && v > 0) ? v : NAN;
			continue;
		}
		if (!strcmp(name, "link_speed")) {
			/* current_link_speed: "8.0 GT/s PCIe", "Unknown" */
			char *e;
			double v = strtod(text, &e);
			f->link_gts = (e != text && v > 0) ? v : NAN;
			continue;
		}
		if (!strcmp(name, "link_width")) {
			char *e;
			long v = strtol(text, &e, 10);
			f->link_width = (e != text && v > 0) ? (int)v : -1;
			continue;
		}
		uint64_t v;
		const char *p = val;
		bool num = read_u64(&p, t + n, 10, &v);
		if (!strcmp(name, "ifindex")) {
			if (!num)
				return bad(err, where, b->key, l.line, "a decimal ifindex");
			f->ifindex = (int)v;
			continue;
		}
		for (int i = 0; i < PCIBW_IF_NCOUNTERS; i++)
			if (!strcmp(name, counter_names[i])) {
				if (!num)
					return bad(err, where, b->key, l.line, "a decimal counter value");
				f->c[i] = v;
				f->have[i] = true;
			}
	}
	return PCIBW_OK;
}

int pcibw_watch_parse(const struct pcibw_watch_sample *sample, const char *const *names, int n,
		      const char *where, struct pcibw_watch_snap *snap, struct pcibw_err *err)
{
	int st;
	struct if_match m[PCIBW_WATCH_MAX_IFACES];
	if (n > PCIBW_WATCH_MAX_IFACES)
		return pcibw_fail(err, PCIBW_EUSAGE, "at most %d interfaces", PCIBW_WATCH_MAX_IFACES);
	snap->t = sample->t;
	const struct pcibw_watch_blob *b = pcibw_watch_blob_get(sample, "proc/stat");
	if (!b)
		return pcibw_fail(err, PCIBW_EINPUT, "%s: no proc/stat in the sample", where);
	if ((st = parse_stat(b, where, snap, err)))
		return st;
	for (int i = 0; i < PCIBW_WATCH_MAX_CPUS; i++)
		snap->cpu[i].have_softnet = false;
	if ((b = pcibw_watch_blob_get(sample, "proc/net/softnet_stat")) &&
	    (st = parse_softnet(b, where, snap, err)))
		return st;
	snap->n_ifs = n;
	for (int i = 0; i < n; i++) {
		struct pcibw_watch_if *f = &snap->ifs[i];
		memset(f, 0, sizeof *f);
		snprintf(f->name, sizeof f->name, "%s", names[i]);
		f->ifindex = -1;
		f->speed_mbps = f->link_gts = NAN;
		f->link_width = -1;
		memset(&m[i], 0, sizeof m[i]);
		m[i].name = names[i];
		char key[96];
		snprintf(key, sizeof key, "net/%s", names[i]);
		if ((b = pcibw_watch_blob_get(sample, key)) && (st = parse_net(b, where, f, &m[i], err)))
			return st;
		snprintf(key, sizeof key, "ethtool/%s", names[i]);
		if (f->present && (b = pcibw_watch_blob_get(sample, key)) &&
		    (st = parse_ethtool(b, where, f, err)))
			return st;
	}
	if ((b = pcibw_watch_blob_get(sample, "proc/interrupts")) &&
	    (st = parse_interrupts(b, where, snap, m, err)))
		return st;
	return PCIBW_OK;
}

bool watch_ethtool_wanted(const char *name)
{
	char dir;
	for (int i = 0; i < PCIBW_NS_N; i++)
		if (!strcmp(name, ns_names[i]))
			return true;
	return queue_of(name, &dir) >= 0;
}

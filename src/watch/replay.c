/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a recording back as a sampler (format: doc/watch-recording.md). Streams the samples
 * file a record at a time, so a long recording replays in constant memory. */
#include "pcibw/bus.h"
#include "recording.h"
#include "src/util/input.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOB (64ULL << 20)

/* A sample's time is CLOCK_MONOTONIC (seconds since boot, never negative); 10^10 s is over
 * three centuries of uptime, so a time past it is a corrupt record, not a long run. */
#define MAX_SAMPLE_T 1e10

/* What a recording's two files are, for the messages of pcibw_input_open. */
#define META_EXPECTED "a pcibw watch recording's meta file (doc/watch-recording.md)"
#define SAMPLES_EXPECTED "a pcibw watch recording's samples file (doc/watch-recording.md)"

struct replay {
	struct watch_sampler base;
	FILE *f;
	char path[4200];
	char *buf;
	size_t cap;
	long long samples;
	double last_t;
};

static int fail_at(struct replay *r, long off, const char *what, struct pcibw_err *err)
{
	return pcibw_fail(err, PCIBW_EINPUT, "%s:%ld: expected %s", r->path, off, what);
}

static int replay_read(struct watch_sampler *s, struct pcibw_watch_sample *out, struct pcibw_err *err)
{
	struct replay *r = (struct replay *)s;
	char line[256];
	long off = ftell(r->f);
	if (!fgets(line, sizeof line, r->f)) {
		if (ferror(r->f))
			return pcibw_fail(err, PCIBW_EINPUT, "%s:%ld: %s", r->path, off, strerror(errno));
		/* an interval is the difference of two samples: fewer gives nothing to say */
		if (r->samples < 2)
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s: the recording holds %s: expected at least two 'sample TIME "
					  "BLOBS' records (an interval is the difference of two samples)",
					  r->path, r->samples ? "one sample" : "no sample");
		return 1;
	}
	double t;
	int n, used = 0;
	if (sscanf(line, "sample %lf %d%n", &t, &n, &used) != 2 || line[used] != '\n' || !(t >= 0) ||
	    t > MAX_SAMPLE_T || n < 1 || n > PCIBW_WATCH_MAX_BLOBS)
		return fail_at(r, off,
			       "'sample TIME BLOBS' (TIME in seconds of the monotonic clock, 0 to 1e10; "
			       "1..52 blobs)",
			       err);
	if (r->samples && t < r->last_t)
		return fail_at(r, off, "sample times that never go back (monotonic clock)", err);
	out->t = t;
	r->last_t = t;
	bool seen[PCIBW_WATCH_MAX_BLOBS] = {false};
	for (int i = 0; i < n; i++) {
		off = ftell(r->f);
		char key[64];
		unsigned long long len;
		int at = 0;
		if (!fgets(line, sizeof line, r->f) || sscanf(line, "blob %63s %n", key, &at) != 1 || !at)
			return fail_at(r, off, "'blob KEY LENGTH'", err);
		/* scanf's %llu takes "-5" as 2^64 - 5: a sign is said for what it is */
		if (line[at] == '-' || line[at] == '+')
			return pcibw_fail(
			    err, PCIBW_EINPUT,
			    "%s:%ld: blob length '%.*s' has a sign: expected 'blob KEY "
			    "LENGTH' with LENGTH 0 to 64 MiB, in decimal digits",
			    r->path, off,
			    (int)(strcspn(line + at, "\n") < 20 ? strcspn(line + at, "\n") : 20), line + at);
		if (!isdigit((unsigned char)line[at]) || sscanf(line + at, "%llu%n", &len, &used) != 1 ||
		    line[at + used] != '\n')
			return fail_at(r, off, "'blob KEY LENGTH'", err);
		if (len > MAX_BLOB)
			return fail_at(r, off, "a blob of at most 64 MiB", err);
		if (len + 2 > r->cap) {
			char *p = realloc(r->buf, len + 2);
			if (!p)
				return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			r->buf = p;
			r->cap = len + 2;
		}
		long body = ftell(r->f);
		if (fread(r->buf, 1, len + 1, r->f) != len + 1 || r->buf[len] != '\n')
			return fail_at(r, body,
				       "the blob's LENGTH bytes, then a newline (truncated recording?)", err);
		if (memchr(r->buf, '\0', len))
			return fail_at(r, body, "text (a NUL byte in a blob)", err);
		int st = pcibw_watch_blob_set(out, key, r->buf, (size_t)len, err);
		if (st)
			return fail_at(r, off, "at most 52 distinct blob keys", err);
		for (int k = 0; k < out->n; k++)
			if (!strcmp(out->b[k].key, key))
				seen[k] = true;
	}
	/* blobs of an earlier sample that this one lacks (a vanished file) go; buffers are kept */
	for (int k = 0; k < out->n;) {
		if (seen[k]) {
			k++;
			continue;
		}
		struct pcibw_watch_blob tmp = out->b[k];
		out->b[k] = out->b[out->n - 1];
		seen[k] = seen[out->n - 1];
		out->b[out->n - 1] = tmp;
		out->n--;
	}
	r->samples++;
	return PCIBW_OK;
}

static void replay_close(struct watch_sampler *s)
{
	struct replay *r = (struct replay *)s;
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	free(r->buf);
	free(r);
}

/* "DDDD:BB:DD.F" (hex, a domain of 4 or more digits), as pcibw_format_slot writes it */
static bool is_slot(const char *v)
{
	unsigned dom, bus, dev, fn;
	int used = 0;
	return strlen(v) < 32 && sscanf(v, "%x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &used) == 4 &&
	       v[used] == '\0' && dev < 32 && fn < 8;
}

static int meta_if(const char *path, unsigned ln, char *line, struct watch_meta_if *m, struct pcibw_err *err)
{
	char *save = NULL, *tok = strtok_r(line, " \n", &save);
	if (!tok || strlen(tok) >= sizeof m->wi.name)
		return pcibw_fail(err, PCIBW_EINPUT, "%s:%u: expected 'iface NAME KEY=VALUE...'", path, ln);
	snprintf(m->wi.name, sizeof m->wi.name, "%s", tok);
	m->vendor_id = m->device_id = -1;
	while ((tok = strtok_r(NULL, " \n", &save))) {
		char *eq = strchr(tok, '=');
		if (!eq)
			return pcibw_fail(err, PCIBW_EINPUT, "%s:%u: '%s': expected KEY=VALUE", path, ln,
					  tok);
		*eq = '\0';
		const char *k = tok, *v = eq + 1;
		if (!strcmp(v, "-"))
			v = "";
		char *e;
		if ((!strcmp(k, "virtual") || !strcmp(k, "pci") || !strcmp(k, "own_link")) &&
		    strcmp(v, "0") && strcmp(v, "1"))
			return pcibw_fail(err, PCIBW_EINPUT, "%s:%u: %s '%s': expected 0 or 1", path, ln, k,
					  v);
		if (!strcmp(k, "slot"))
			snprintf(m->wi.slot, sizeof m->wi.slot, "%s", v);
		else if (!strcmp(k, "dev"))
			snprintf(m->wi.dev, sizeof m->wi.dev, "%s", v);
		else if (!strcmp(k, "driver"))
			snprintf(m->wi.driver, sizeof m->wi.driver, "%s", v);
		else if (!strcmp(k, "virtual"))
			m->wi.virtual_nic = !strcmp(v, "1");
		else if (!strcmp(k, "pci"))
			m->wi.has_pci = !strcmp(v, "1");
		else if (!strcmp(k, "own_link"))
			m->wi.own_link = !strcmp(v, "1");
		else if (!strcmp(k, "bus"))
			snprintf(m->bus, sizeof m->bus, "%s", v);
		else if (!strcmp(k, "nic"))
			snprintf(m->nic, sizeof m->nic, "%s", v);
		else if (!strcmp(k, "hop") || !strcmp(k, "pf")) {
			if (v[0] && !is_slot(v))
				return pcibw_fail(err, PCIBW_EINPUT,
						  "%s:%u: %s '%s': expected a PCI slot DDDD:BB:DD.F", path,
						  ln, k, v);
			snprintf(k[0] == 'h' ? m->hop : m->pf, sizeof m->hop, "%s", v);
		} else if (!strcmp(k, "hop_bus")) {
			struct pcibw_bus b;
			struct pcibw_err why = {0}; /* not err: it is the message being written */
			if (v[0] && (strlen(v) >= sizeof m->hop_bus || pcibw_bus_parse(v, &b, &why)))
				return pcibw_fail(err, PCIBW_EINPUT, "%s:%u: hop_bus '%s': %s", path, ln, v,
						  strlen(v) >= sizeof m->hop_bus ? "too long" : why.msg);
			snprintf(m->hop_bus, sizeof m->hop_bus, "%s", v);
		} else if (!strcmp(k, "line_rate_gbps")) {
			m->line_rate_gbps = strtod(v, &e);
			if (*e || !(m->line_rate_gbps >= 0) || m->line_rate_gbps > 1e5)
				return pcibw_fail(err, PCIBW_EINPUT,
						  "%s:%u: line_rate_gbps '%s': expected Gbit/s, 0 to 100000",
						  path, ln, v);
		} else if (!strcmp(k, "vendor") || !strcmp(k, "device")) {
			errno = 0;
			long id = v[0] ? strtol(v, &e, 10) : -1;
			if ((v[0] && (*e || errno)) || id < -1 || id > 0xffff)
				return pcibw_fail(
				    err, PCIBW_EINPUT,
				    "%s:%u: %s '%s': expected a decimal PCI id, 0..65535, or -1 "
				    "(unknown)",
				    path, ln, k, v);
			*(k[0] == 'v' ? &m->vendor_id : &m->device_id) = (int)id;
		}
		/* other keys: written by a newer pcibw, ignored */
	}
	return PCIBW_OK;
}

/* One line of meta, its '\n' kept, into line (at most cap - 1 bytes): false at the end. *nul:
 * the column of its first NUL byte (0: none); *cut: the line goes on past what line holds. */
static bool meta_line(FILE *f, char *line, size_t cap, unsigned *nul, bool *cut)
{
	size_t n = 0;
	int c = EOF;
	*nul = 0;
	*cut = false;
	while (n < cap - 1 && (c = getc(f)) != EOF) {
		line[n++] = (char)c;
		if (c == '\0' && !*nul)
			*nul = (unsigned)n;
		if (c == '\n')
			break;
	}
	line[n] = '\0';
	if (n == 0)
		return false;
	if (n == cap - 1 && line[n - 1] != '\n' && (c = getc(f)) != EOF) {
		ungetc(c, f);
		*cut = true;
	}
	return true;
}

static int read_meta(const char *dir, struct watch_meta *meta, struct pcibw_err *err)
{
	char path[4200], line[1024];
	snprintf(path, sizeof path, "%s/meta", dir);
	FILE *f;
	int st = pcibw_input_open(path, META_EXPECTED, PCIBW_INPUT_FILE_ONLY | PCIBW_INPUT_NO_STDIN, &f, err);
	if (st)
		return st;
	memset(meta, 0, sizeof *meta);
	meta->cpus = -1;
	meta->cpu_mhz = NAN;
	unsigned ln = 0, nul;
	bool cut;
	while (!st && meta_line(f, line, sizeof line, &nul, &cut)) {
		ln++;
		char *e;
		if (nul) {
			st = pcibw_fail(err, PCIBW_EINPUT,
					"%s:%u:%u: NUL byte: expected text ('KEY VALUE' lines)", path, ln,
					nul);
		} else if (cut) {
			/* the rest would read as a line of its own */
			st = pcibw_fail(err, PCIBW_EINPUT, "%s:%u: expected a line of at most %zu bytes",
					path, ln, sizeof line - 2);
		} else if (ln == 1) {
			if (strcmp(line, "pcibw-watch-recording 1\n"))
				st = pcibw_fail(
				    err, PCIBW_EINPUT,
				    "%s:1: expected 'pcibw-watch-recording 1' (not a recording, or "
				    "a newer format)",
				    path);
		} else if (!strncmp(line, "interval ", 9)) {
			/* --interval's range: a recording is written with one of those */
			meta->interval = strtod(line + 9, &e);
			if (e == line + 9 || (*e != '\n' && *e) || !(meta->interval >= 0.1) ||
			    meta->interval > 3600)
				st = pcibw_fail(err, PCIBW_EINPUT,
						"%s:%u: expected 'interval SECONDS', 0.1..3600", path, ln);
		} else if (!strncmp(line, "cpus ", 5)) {
			long v = strtol(line + 5, &e, 10);
			if (v < 1 || v > PCIBW_WATCH_MAX_CPUS || (*e != '\n' && *e))
				st = pcibw_fail(err, PCIBW_EINPUT, "%s:%u: expected 'cpus N' with N 1..1024",
						path, ln);
			meta->cpus = (int)v;
		} else if (!strncmp(line, "cpu_mhz ", 8)) {
			meta->cpu_mhz = strtod(line + 8, &e);
			if (!(meta->cpu_mhz >= 1 && meta->cpu_mhz <= 1e5))
				st = pcibw_fail(err, PCIBW_EINPUT, "%s:%u: expected 'cpu_mhz MHZ', 1..100000",
						path, ln);
		} else if (!strncmp(line, "iface ", 6)) {
			if (meta->n >= PCIBW_WATCH_MAX_IFACES)
				st = pcibw_fail(err, PCIBW_EINPUT, "%s:%u: more than %d interfaces", path, ln,
						PCIBW_WATCH_MAX_IFACES);
			else
				st = meta_if(path, ln, line + 6, &meta->ifs[meta->n++], err);
			for (int i = 0; !st && i < meta->n - 1; i++)
				if (!strcmp(meta->ifs[i].wi.name, meta->ifs[meta->n - 1].wi.name))
					st = pcibw_fail(err, PCIBW_EINPUT,
							"%s:%u: interface %s a second time: expected each "
							"interface once",
							path, ln, meta->ifs[i].wi.name);
		} else if (line[0] != '#' && line[0] != '\n' && !strchr(line, ' ')) {
			st = pcibw_fail(err, PCIBW_EINPUT, "%s:%u: expected 'KEY VALUE'", path, ln);
		}
	}
	fclose(f);
	if (!st && ln == 0)
		st = pcibw_fail(err, PCIBW_EINPUT, "%s: empty (not a pcibw watch recording)", path);
	if (!st && meta->n == 0)
		st = pcibw_fail(err, PCIBW_EINPUT, "%s: no 'iface' line", path);
	return st;
}

int watch_replay_open(const char *dir, struct watch_meta *meta, struct watch_sampler **out,
		      struct pcibw_err *err)
{
	int st = read_meta(dir, meta, err);
	if (st)
		return st;
	struct replay *r = calloc(1, sizeof *r);
	if (!r)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	r->base.read = replay_read;
	r->base.close = replay_close;
	snprintf(r->path, sizeof r->path, "%s/samples", dir);
	st = pcibw_input_open(r->path, SAMPLES_EXPECTED, PCIBW_INPUT_FILE_ONLY | PCIBW_INPUT_NO_STDIN, &r->f,
			      err);
	if (st) {
		r->f = NULL;
		replay_close(&r->base);
		return st;
	}
	r->base.n = meta->n;
	for (int i = 0; i < meta->n; i++)
		r->base.ifs[i] = meta->ifs[i].wi;
	*out = &r->base;
	return PCIBW_OK;
}

int watch_meta_select(struct watch_meta *meta, struct watch_sampler *s, const char *const *names, int n,
		      struct pcibw_err *err)
{
	struct watch_meta out = *meta;
	if (n > PCIBW_WATCH_MAX_IFACES)
		return pcibw_fail(err, PCIBW_EUSAGE, "at most %d interfaces", PCIBW_WATCH_MAX_IFACES);
	out.n = 0;
	for (int i = 0; i < n; i++) {
		int k = 0;
		while (k < meta->n && strcmp(meta->ifs[k].wi.name, names[i]))
			k++;
		if (k == meta->n) {
			char have[512] = "";
			size_t o = 0;
			for (int j = 0; j < meta->n && o < sizeof have; j++)
				o += (size_t)snprintf(have + o, sizeof have - o, "%s%s", j ? ", " : "",
						      meta->ifs[j].wi.name);
			return pcibw_fail(err, PCIBW_ENOMATCH,
					  "no interface '%s' in the recording (it has %s)", names[i], have);
		}
		out.ifs[out.n++] = meta->ifs[k];
	}
	*meta = out;
	s->n = out.n;
	for (int i = 0; i < out.n; i++)
		s->ifs[i] = out.ifs[i].wi;
	return PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing a recording (format: doc/watch-recording.md). */
#include "recording.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	struct dirent *e;
	bool empty = true;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

int watch_record_open(const char *dir, unsigned long long max, const struct watch_meta *meta,
		      struct watch_recorder *rec, struct pcibw_err *err)
{
	memset(rec, 0, sizeof *rec);
	struct stat st;
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return pcibw_fail(err, PCIBW_EUSAGE, "--record %s: not a directory", dir);
		if (!dir_empty(dir))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--record %s: the directory is not empty (a recording never "
					  "writes over other files)",
					  dir);
	} else if (mkdir(dir, 0755)) {
		return pcibw_fail(err, PCIBW_EINTERNAL, "--record %s: cannot create it: %s", dir,
				  strerror(errno));
	}
	char path[4200];
	snprintf(path, sizeof path, "%s/meta", dir);
	FILE *f = fopen(path, "we");
	if (!f)
		return pcibw_fail(err, PCIBW_EINTERNAL, "%s: %s", path, strerror(errno));
	fprintf(f, "pcibw-watch-recording 1\n");
	fprintf(f, "interval %.6g\n", meta->interval);
	if (meta->cpus > 0)
		fprintf(f, "cpus %d\n", meta->cpus);
	if (!isnan(meta->cpu_mhz))
		fprintf(f, "cpu_mhz %.1f\n", meta->cpu_mhz);
	for (int i = 0; i < meta->n; i++) {
		const struct watch_meta_if *m = &meta->ifs[i];
		fprintf(f,
			"iface %s slot=%s dev=%s driver=%s virtual=%d pci=%d own_link=%d bus=%s nic=%s "
			"line_rate_gbps=%.6g vendor=%d device=%d hop=%s hop_bus=%s pf=%s\n",
			m->wi.name, or_dash(m->wi.slot), or_dash(m->wi.dev), or_dash(m->wi.driver),
			m->wi.virtual_nic, m->wi.has_pci, m->wi.own_link, or_dash(m->bus), or_dash(m->nic),
			m->line_rate_gbps, m->vendor_id, m->device_id, or_dash(m->hop), or_dash(m->hop_bus),
			or_dash(m->pf));
	}
	if (fclose(f))
		return pcibw_fail(err, PCIBW_EINTERNAL, "%s: %s", path, strerror(errno));
	snprintf(rec->path, sizeof rec->path, "%s/samples", dir);
	rec->f = fopen(rec->path, "we");
	if (!rec->f)
		return pcibw_fail(err, PCIBW_EINTERNAL, "%s: %s", rec->path, strerror(errno));
	rec->max = max;
	if (gethostname(rec->host, sizeof rec->host))
		rec->host[0] = '\0';
	rec->host[sizeof rec->host - 1] = '\0';
	return PCIBW_OK;
}

int watch_record_sample(struct watch_recorder *rec, const struct pcibw_watch_sample *s, struct pcibw_err *err)
{
	if (!rec->f || rec->full)
		return PCIBW_OK;
	unsigned long long need = 64;
	for (int i = 0; i < s->n; i++)
		need += s->b[i].len + 96;
	if (rec->written + need > rec->max) {
		rec->full = true;
		if (rec->samples < 2)
			return pcibw_fail(
			    err, PCIBW_EINTERNAL,
			    "%s: --record-max %llu bytes holds %ld sample(s) of about %llu bytes: "
			    "a replay needs at least two; give a larger --record-max",
			    rec->path, rec->max, rec->samples, need);
		return PCIBW_OK;
	}
	long start = ftell(rec->f);
	fprintf(rec->f, "sample %.9f %d\n", s->t, s->n);
	const char *names[1] = {rec->host};
	for (int i = 0; i < s->n; i++) {
		const struct pcibw_watch_blob *b = &s->b[i];
		if (b->len + 1 > rec->scap) {
			char *p = realloc(rec->scratch, b->len + 1);
			if (!p)
				return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			rec->scratch = p;
			rec->scap = b->len + 1;
		}
		memcpy(rec->scratch, b->text, b->len);
		pcibw_watch_scrub(rec->scratch, b->len, names, rec->host[0] ? 1 : 0);
		fprintf(rec->f, "blob %s %zu\n", b->key, b->len);
		fwrite(rec->scratch, 1, b->len, rec->f);
		fputc('\n', rec->f);
	}
	if (fflush(rec->f) || ferror(rec->f))
		return pcibw_fail(err, PCIBW_EINTERNAL, "%s: cannot write: %s", rec->path, strerror(errno));
	long end = ftell(rec->f);
	rec->written += (unsigned long long)(end - start);
	rec->samples++;
	return PCIBW_OK;
}

int watch_record_close(struct watch_recorder *rec, struct pcibw_err *err)
{
	int st = PCIBW_OK;
	if (rec->f && fclose(rec->f))
		st = pcibw_fail(err, PCIBW_EINTERNAL, "%s: cannot write: %s", rec->path, strerror(errno));
	rec->f = NULL;
	free(rec->scratch);
	rec->scratch = NULL;
	return st;
}

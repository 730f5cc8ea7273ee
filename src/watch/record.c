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

/* The least --record-max that holds bytes, rounded up to 4 KiB (the least --record-max taken) */
static unsigned long long least_max(unsigned long long bytes)
{
	return (bytes + 4095) / 4096 * 4096;
}

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

/* An existing --record DIR is taken only as an empty directory: a recording never writes over
 * other files. */
static int existing_dir_ok(const char *dir, const struct stat *st, struct pcibw_err *err)
{
	if (!S_ISDIR(st->st_mode))
		return pcibw_fail(err, PCIBW_EUSAGE, "--record %s: not a directory", dir);
	if (!dir_empty(dir))
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--record %s: the directory is not empty (a recording never "
				  "writes over other files)",
				  dir);
	return PCIBW_OK;
}

int watch_record_check(const char *dir, struct pcibw_err *err)
{
	struct stat st;
	if (stat(dir, &st) == 0)
		return existing_dir_ok(dir, &st, err);
	if (errno != ENOENT)
		return pcibw_fail(err, PCIBW_EINTERNAL, "--record %s: cannot create it: %s", dir,
				  strerror(errno));
	/* the directory it would be made in: a missing or read-only one fails mkdir, as it will */
	char parent[4096];
	snprintf(parent, sizeof parent, "%s", dir);
	size_t n = strlen(parent);
	while (n > 1 && parent[n - 1] == '/')
		parent[--n] = '\0';
	char *slash = strrchr(parent, '/');
	if (!slash)
		snprintf(parent, sizeof parent, ".");
	else
		slash[slash == parent ? 1 : 0] = '\0';
	int e = 0;
	if (stat(parent, &st))
		e = errno;
	else if (!S_ISDIR(st.st_mode))
		e = ENOTDIR;
	else if (access(parent, W_OK | X_OK))
		e = errno;
	if (e)
		return pcibw_fail(err, PCIBW_EINTERNAL, "--record %s: cannot create it: %s", dir,
				  strerror(e));
	return PCIBW_OK;
}

/* Whether the recording's two files are still the ones written: a removed file (rm -r DIR) takes
 * writes and keeps none of them. */
static int still_there(struct watch_recorder *rec, struct pcibw_err *err)
{
	struct stat st;
	char meta[4200];
	snprintf(meta, sizeof meta, "%s/meta", rec->dir);
	bool samples_gone = rec->f && (fstat(fileno(rec->f), &st) || st.st_nlink == 0);
	bool meta_gone = stat(meta, &st) || st.st_dev != rec->meta_dev || st.st_ino != rec->meta_ino;
	if (!samples_gone && !meta_gone)
		return PCIBW_OK;
	return pcibw_fail(err, PCIBW_EINTERNAL,
			  "cannot write the recording: %s was removed while watch ran (the recording is "
			  "lost)",
			  samples_gone ? rec->path : meta);
}

int watch_record_open(const char *dir, unsigned long long max, const struct watch_meta *meta,
		      struct watch_recorder *rec, struct pcibw_err *err)
{
	memset(rec, 0, sizeof *rec);
	struct stat st;
	if (stat(dir, &st) == 0) {
		int r = existing_dir_ok(dir, &st, err);
		if (r)
			return r;
	} else if (mkdir(dir, 0755)) {
		return pcibw_fail(err, PCIBW_EINTERNAL, "--record %s: cannot create it: %s", dir,
				  strerror(errno));
	} else {
		rec->made_dir = true;
	}
	snprintf(rec->dir, sizeof rec->dir, "%s", dir);
	char path[4200];
	snprintf(path, sizeof path, "%s/meta", dir);
	/* "x": the directory was empty a moment ago; a file that appeared since is not ours */
	FILE *f = fopen(path, "wxe");
	if (!f) {
		int e = errno;
		watch_record_discard(rec);
		return pcibw_fail(err, PCIBW_EINTERNAL, "%s: %s", path, strerror(e));
	}
	rec->made_meta = true;
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
	struct stat mst;
	if (!fstat(fileno(f), &mst)) {
		rec->meta_dev = mst.st_dev;
		rec->meta_ino = mst.st_ino;
	}
	if (fclose(f)) {
		int e = errno;
		watch_record_discard(rec);
		return pcibw_fail(err, PCIBW_EINTERNAL, "%s: %s", path, strerror(e));
	}
	snprintf(rec->path, sizeof rec->path, "%s/samples", dir);
	rec->f = fopen(rec->path, "wxe");
	if (!rec->f) {
		int e = errno;
		rec->path[0] = '\0'; /* not ours: never removed */
		watch_record_discard(rec);
		return pcibw_fail(err, PCIBW_EINTERNAL, "%s/samples: %s", dir, strerror(e));
	}
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
		if (rec->samples < 2) {
			/* the samples still to come are about as long as this one */
			unsigned long long least =
			    least_max(rec->written + need * (unsigned long long)(2 - rec->samples));
			pcibw_fail(err, PCIBW_EINTERNAL,
				   "%s: --record-max %llu bytes holds %ld sample(s) of about %llu bytes: "
				   "a replay needs at least two; give --record-max %llu or more (the "
				   "recording was removed)",
				   rec->path, rec->max, rec->samples, need, least);
			watch_record_discard(rec);
			return PCIBW_EINTERNAL;
		}
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
	return still_there(rec, err);
}

int watch_record_close(struct watch_recorder *rec, struct pcibw_err *err)
{
	int st = rec->f ? still_there(rec, err) : PCIBW_OK;
	if (rec->f && fclose(rec->f) && !st)
		st = pcibw_fail(err, PCIBW_EINTERNAL, "%s: cannot write: %s", rec->path, strerror(errno));
	rec->f = NULL;
	free(rec->scratch);
	rec->scratch = NULL;
	return st;
}

void watch_record_discard(struct watch_recorder *rec)
{
	if (rec->f)
		fclose(rec->f);
	rec->f = NULL;
	if (rec->path[0])
		unlink(rec->path);
	char meta[4200];
	snprintf(meta, sizeof meta, "%s/meta", rec->dir);
	if (rec->made_meta)
		unlink(meta);
	if (rec->made_dir)
		rmdir(rec->dir); /* fails, and keeps it, if anything else was put there meanwhile */
	rec->made_dir = rec->made_meta = false;
	rec->path[0] = '\0';
	free(rec->scratch);
	rec->scratch = NULL;
}

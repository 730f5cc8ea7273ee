/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine a results file states about itself, in its leading '#' lines: "# bus: SPEC nic:
 * NAME line_rate: RATE cpus: N cpu_mhz: F" (what `pcibw watch --format csv` writes). Only the
 * comment and blank lines before the first other line are read; each KEY: VALUE pair is
 * optional, "-" and "unknown" say nothing.
 */
#include "pcibw/ingest.h"
#include "pcibw/model.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int pair(const char *path, unsigned ln, unsigned col, const char *key, const char *val,
		struct pcibw_input_defaults *d, struct pcibw_err *err)
{
	struct pcibw_err e = {0};
	char *end;
	if (!strcmp(val, "-") || !strcmp(val, "unknown"))
		return PCIBW_OK;
	if (!strcmp(key, "bus")) {
		snprintf(d->bus, sizeof d->bus, "%s", val);
	} else if (!strcmp(key, "nic")) {
		snprintf(d->nic, sizeof d->nic, "%s", val);
	} else if (!strcmp(key, "line_rate")) {
		if (pcibw_line_rate_parse(val, &d->line_rate_gbps, &e))
			return pcibw_fail(err, PCIBW_EINPUT, "%s:%u:%u: line_rate '%s': %s", path, ln, col,
					  val, e.msg);
	} else if (!strcmp(key, "cpus")) {
		long n = strtol(val, &end, 10);
		if (*end || end == val || n < 1 || n > 1 << 20)
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:%u: cpus '%s': expected a whole number of CPUs", path, ln,
					  col, val);
		d->cpus = (int)n;
	} else if (!strcmp(key, "cpu_mhz")) {
		double v = strtod(val, &end);
		if (*end || end == val || !(v >= 1 && v <= 1e5))
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u:%u: cpu_mhz '%s': expected MHz, 1 to 100000", path, ln, col,
					  val);
		d->cpu_mhz = v;
	} else {
		return PCIBW_OK; /* a key of a newer writer */
	}
	d->found = true;
	return PCIBW_OK;
}

int pcibw_ingest_defaults(const char *path, struct pcibw_input_defaults *d, struct pcibw_err *err)
{
	memset(d, 0, sizeof *d);
	d->cpus = -1;
	d->cpu_mhz = NAN;
	if (!strcmp(path, "-"))
		return PCIBW_OK; /* standard input is read once, by the reader */
	/* Only a regular file is peeked at: a pipe or FIFO is read once, by the reader (a second
	 * reader here would take its bytes), and a device or a directory is the reader's to refuse.
	 * O_NONBLOCK keeps open() from waiting for a FIFO's writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return PCIBW_OK; /* the reader reports it, with its own message */
	struct stat sb;
	FILE *f = NULL;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return PCIBW_OK;
	}
	char line[1024];
	unsigned ln = 0;
	int st = PCIBW_OK;
	while (!st && fgets(line, sizeof line, f)) {
		ln++;
		char *p = line;
		if (ln == 1 && !memcmp(p, "\xef\xbb\xbf", 3))
			p += 3;
		p[strcspn(p, "\r\n")] = '\0';
		if (!p[0])
			continue;
		if (p[0] != '#')
			break;
		if (strncmp(p, "# bus:", 6))
			continue;
		/* "# bus: V nic: V ...": words ending in ':' are keys, the next word their value */
		char *save = NULL;
		for (char *w = strtok_r(p + 1, " \t", &save); w && !st; w = strtok_r(NULL, " \t", &save)) {
			size_t n = strlen(w);
			if (n < 2 || w[n - 1] != ':')
				continue;
			w[n - 1] = '\0';
			char *v = strtok_r(NULL, " \t", &save);
			if (!v)
				st = pcibw_fail(err, PCIBW_EINPUT, "%s:%u: '%s:' has no value", path, ln, w);
			else
				st = pair(path, ln, (unsigned)(v - line) + 1, w, v, d, err);
		}
		if (!st)
			snprintf(d->origin, sizeof d->origin, "%.1000s:%u", path, ln);
		break;
	}
	fclose(f);
	return st;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ports table data/nic-ports.txt (pcibw/portfit.h): vendor:device -> ports per function and
 * their speed, for sources that show no interface (dumps, hwloc exports, unbound devices). */
#include "pcibw/model.h"
#include "pcibw/nic.h"
#include "pcibw/portfit.h"
#include "src/util/input.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(struct pcibw_err *err, const char *path, int line, const char *at, const char *text,
	       const char *what)
{
	pcibw_fail(err, PCIBW_EINPUT, "%s:%d:%d: expected %s", path, line, (int)(at - text) + 1, what);
	return -1;
}

/* One data line; 1 when it is vendor:device (out filled), 0 another id, -1 an error (err set). */
static int parse_line(const char *path, int ln, const char *text, int vendor, int device,
		      struct pcibw_port_entry *out, struct pcibw_err *err)
{
	const char *p = text;
	unsigned v, d;
	int used = 0;
	for (int i = 0; i < 9; i++)
		if (!(i == 4 ? p[i] == ':' : isxdigit((unsigned char)p[i])))
			return bad(err, path, ln, p + i, text,
				   "a vendor:device id (4 hex digits : 4 hex digits)");
	if (sscanf(p, "%4x:%4x%n", &v, &d, &used) != 2 || used != 9 || !isspace((unsigned char)p[9]))
		return bad(err, path, ln, p + 9, text, "a blank after the vendor:device id");
	p += 9;
	while (*p == ' ' || *p == '\t')
		p++;
	const char *pf = p;
	int ports;
	if (!strncmp(p, "vf", 2) && isspace((unsigned char)p[2])) {
		ports = 0;
		p += 2;
	} else {
		char *e;
		errno = 0;
		long n = isdigit((unsigned char)*p) ? strtol(p, &e, 10) : -1;
		if (n < 1 || n > 64 || errno || !isspace((unsigned char)*e))
			return bad(err, path, ln, pf, text, "a port count 1..64 or vf");
		ports = (int)n;
		p = e;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	const char *sp = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	char speed[32];
	snprintf(speed, sizeof speed, "%.*s", (int)(p - sp), sp);
	double gbps;
	struct pcibw_err e2;
	if (pcibw_line_rate_parse(speed, &gbps, &e2))
		return bad(err, path, ln, sp, text, "a port speed such as 1G, 10G, 2.5G, 100M");
	while (*p == ' ' || *p == '\t')
		p++;
	const char *semi = strchr(p, ';');
	if (!*p || *p == ';' || !semi)
		return bad(err, path, ln, p, text, "the card's name, then '; SOURCE' (datasheet or driver)");
	if ((int)v != vendor || (int)d != device)
		return 0;
	const char *end = semi;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	out->ports = ports;
	out->port_gbps = gbps;
	out->line = ln;
	snprintf(out->name, sizeof out->name, "%.*s", (int)(end - p), p);
	return 1;
}

int pcibw_port_table_lookup(int vendor_id, int device_id, const char *dir, struct pcibw_port_entry *out,
			    bool *found_out, struct pcibw_err *err)
{
	char path[4200], line[512];
	if (!dir)
		dir = pcibw_data_dir();
	*found_out = false;
	if (!dir)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "the ports table nic-ports.txt: no data directory found");
	snprintf(path, sizeof path, "%s/nic-ports.txt", dir);
	/* a FIFO or a directory in the data directory would block or read as an empty table */
	FILE *f;
	int st = pcibw_input_open(path, "the ports table (VVVV:DDDD PORTS SPEED NAME ; SOURCE lines)",
				  PCIBW_INPUT_FILE_ONLY | PCIBW_INPUT_NO_STDIN, &f, err);
	if (st)
		return st;
	int ln = 0, found = 0;
	while (fgets(line, sizeof line, f)) {
		ln++;
		size_t n = strlen(line);
		if (n == sizeof line - 1 && line[n - 1] != '\n') {
			fclose(f);
			return pcibw_fail(err, PCIBW_EINPUT, "%s:%d:%zu: expected a line under %zu bytes",
					  path, ln, n, sizeof line - 1);
		}
		line[strcspn(line, "\r\n")] = '\0';
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		struct pcibw_port_entry later;
		int r = parse_line(path, ln, line, vendor_id, device_id, found ? &later : out, err);
		if (r < 0) {
			fclose(f);
			return PCIBW_EINPUT;
		}
		if (r)
			found = 1; /* the first row wins; reading on checks every line */
	}
	bool failed = ferror(f);
	fclose(f);
	if (failed)
		return pcibw_fail(err, PCIBW_EINPUT, "%s:%d: read error: expected the ports table", path,
				  ln + 1);
	*found_out = found;
	return PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NIC profiles from data/nic/NAME.ini, read with libinih. The only file of src/model that does
 * I/O. Every key is known and range-checked: a typo in a profile is an error naming
 * file:line:column, never a silently ignored line that changes a ceiling.
 */
#include "pcibw/nic.h"
#include "pcibw/number.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum ktype { K_INT, K_DOUBLE, K_BOOL, K_STR, K_STR_APPEND };

struct key {
	const char *section, *name;
	enum ktype type;
	size_t off, size; /* size: string buffer size */
	double min, max;
};

#define I(sec, k, field, lo, hi)                                                                             \
	{                                                                                                    \
		sec, k, K_INT, offsetof(struct pcibw_nic, field), 0, lo, hi                                  \
	}
#define D(sec, k, field, lo, hi)                                                                             \
	{                                                                                                    \
		sec, k, K_DOUBLE, offsetof(struct pcibw_nic, field), 0, lo, hi                               \
	}
#define B(sec, k, field)                                                                                     \
	{                                                                                                    \
		sec, k, K_BOOL, offsetof(struct pcibw_nic, field), 0, 0, 1                                   \
	}
#define S(sec, k, field, t)                                                                                  \
	{                                                                                                    \
		sec, k, t, offsetof(struct pcibw_nic, field), sizeof(((struct pcibw_nic *)0)->field), 0, 0   \
	}

/* Ranges: descriptors up to 4 KB (largest ring entry of any driver we know is a 128 B CQE;
 * 4096 leaves room without accepting nonsense); batches up to 4096 (largest ring size of the
 * 8254x/82599 families); device rates up to 10^10 transactions/s. */
static const struct key keys[] = {
    S("profile", "name", name, K_STR),
    S("profile", "description", description, K_STR),
    S("profile", "source", source, K_STR_APPEND),
    S("profile", "match", match, K_STR_APPEND),
    I("tx", "desc_bytes", tx_desc_bytes, 1, 4096),
    I("tx", "desc_fetch_batch", tx_desc_fetch_batch, 1, 4096),
    I("tx", "wb_bytes", tx_wb_bytes, 0, 4096),
    I("tx", "wb_batch", tx_wb_batch, 1, 4096),
    I("tx", "doorbell_batch", tx_doorbell_batch, 0, 4096),
    I("tx", "head_read_batch", tx_head_read_batch, 0, 4096),
    I("rx", "desc_bytes", rx_desc_bytes, 1, 4096),
    I("rx", "desc_fetch_batch", rx_desc_fetch_batch, 1, 4096),
    I("rx", "wb_bytes", rx_wb_bytes, 0, 4096),
    I("rx", "wb_batch", rx_wb_batch, 1, 4096),
    I("rx", "doorbell_batch", rx_doorbell_batch, 0, 4096),
    I("rx", "head_read_batch", rx_head_read_batch, 0, 4096),
    I("host", "doorbell_bytes", doorbell_bytes, 1, 64),
    I("host", "head_read_bytes", head_read_bytes, 1, 64),
    I("host", "irq_batch", irq_batch, 0, 4096),
    I("host", "irq_bytes", irq_bytes, 0, 64),
    I("host", "icr_reads_per_irq", icr_reads_per_irq, 0, 16),
    B("host", "irq_shared", irq_shared),
    B("host", "strip_fcs", strip_fcs),
    I("host", "cacheline_bytes", cacheline_bytes, 0, 4096),
    I("host", "pkt_header_bytes", pkt_header_bytes, 0, 256),
    B("host", "virtual", is_virtual),
    /* 0 = no limit; otherwise at least 1000 transactions/s and 1 ns: smaller is a typo that
     * would print a ceiling of 0.000 Mpps */
    D("device", "max_dma_tps", max_dma_tps, 1e3, 1e10),
    D("device", "read_latency_ns", read_latency_ns, 1, 1e6),
    I("device", "read_tags", read_tags, 0, 4096),
};

struct loader {
	FILE *f;
	const char *path;
	int line;	 /* the line inih is working on */
	char text[512];	 /* its text, for the column of a bad key or value */
	long bytes;	 /* read so far */
	const char *bad; /* why the reader stopped: not a text profile */
	char bad_buf[64];
	int bad_col;
	struct pcibw_nic *nic;
	struct pcibw_err *err;
	bool failed;
	bool seen[sizeof keys / sizeof keys[0]];
};

/* A profile is a few hundred bytes of text; anything past 1 MiB is not one (and a stream such
 * as /dev/zero or `yes` must not keep us reading forever). */
#define MAX_PROFILE_BYTES (1L << 20)

/* inih's line reader (ini_parse_stream calls it once per line, with its line buffer of num
 * bytes): counts lines, keeps the text for columns, and stops at what is not a text profile --
 * a NUL byte, a line longer than inih's buffer (it would split it and parse the tail as a line
 * of its own), an unclosed [section], more than MAX_PROFILE_BYTES. */
static char *reader(char *str, int num, void *stream)
{
	struct loader *L = stream;
	int c = EOF, n = 0;
	if (L->failed || num < 2)
		return NULL;
	while (n < num - 1 && (c = getc(L->f)) != EOF) {
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
			L->line++;
			snprintf(L->text, sizeof L->text, "%.*s", n, str);
			snprintf(L->bad_buf, sizeof L->bad_buf,
				 "control byte 0x%02x: this is not a text profile", c);
			L->bad = L->bad_buf;
			L->bad_col = n + 1;
			return NULL;
		}
		str[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (n == 0)
		return NULL;
	str[n] = '\0';
	L->line++;
	snprintf(L->text, sizeof L->text, "%s", str);
	L->bytes += n;
	if (L->bytes > MAX_PROFILE_BYTES) {
		L->bad = "the file is larger than 1 MiB: not a NIC profile";
		L->bad_col = 1;
		return NULL;
	}
	if (str[n - 1] != '\n' && n == num - 1) {
		int next = getc(L->f);
		if (next != EOF) {
			snprintf(L->bad_buf, sizeof L->bad_buf, "line longer than %d characters", num - 2);
			L->bad = L->bad_buf;
			L->bad_col = num - 1;
			return NULL;
		}
	}
	/* inih would report an unclosed "[profile" only after handing the next lines to the
	 * handler as keys of section "": say what is wrong on the line where it is */
	const char *p = str;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '[' && !strchr(p, ']')) {
		L->bad = "'[' without ']': expected [section]";
		L->bad_col = (int)(p - str) + 1;
		return NULL;
	}
	return str;
}

static int column_of(const struct loader *L, const char *what)
{
	const char *p = what && *what ? strstr(L->text, what) : NULL;
	return p ? (int)(p - L->text) + 1 : 1;
}

static int fail_at(struct loader *L, const char *what, const char *fmt, const char *a, const char *b)
{
	if (!L->failed) {
		char msg[600];
		snprintf(msg, sizeof msg, fmt, a, b);
		pcibw_fail(L->err, PCIBW_EINPUT, "%s:%d:%d: %s", L->path, L->line, column_of(L, what), msg);
		L->failed = true;
	}
	return 0;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct loader *L = user;
	if (L->failed)
		return 1;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const struct key *k = &keys[i];
		if (strcmp(k->section, section) || strcmp(k->name, name))
			continue;
		char *field = (char *)L->nic + k->off;
		if (L->seen[i] && k->type != K_STR_APPEND)
			return fail_at(L, name, "'%s' given twice in [%s]", name, section);
		L->seen[i] = true;
		double v;
		switch (k->type) {
		case K_INT: {
			unsigned form = PCIBW_NUM_INTEGER | (k->min < 0 ? PCIBW_NUM_SIGN : 0);
			if (pcibw_number_scan(value, strlen(value), form, &v) != PCIBW_NUM_OK || v < k->min ||
			    v > k->max) {
				char range[64];
				snprintf(range, sizeof range, "an integer %g..%g", k->min, k->max);
				return fail_at(L, value, "%s: expected %s", name, range);
			}
			*(int *)field = (int)v;
			return 1;
		}
		case K_DOUBLE: {
			if (pcibw_number_scan(value, strlen(value), 0, &v) != PCIBW_NUM_OK ||
			    (v != 0 && v < k->min) || v > k->max) {
				char range[64];
				snprintf(range, sizeof range, "0 (no limit) or a number %g..%g", k->min,
					 k->max);
				return fail_at(L, value, "%s: expected %s", name, range);
			}
			*(double *)field = v;
			return 1;
		}
		case K_BOOL:
			if (!strcmp(value, "true") || !strcmp(value, "yes") || !strcmp(value, "1"))
				*(bool *)field = true;
			else if (!strcmp(value, "false") || !strcmp(value, "no") || !strcmp(value, "0"))
				*(bool *)field = false;
			else
				return fail_at(L, value, "%s: expected true or false, got '%s'", name, value);
			return 1;
		case K_STR:
		case K_STR_APPEND: {
			char lim[16];
			size_t have = k->type == K_STR ? 0 : strlen(field);
			snprintf(lim, sizeof lim, "%zu", k->size - 2);
			if (have + strlen(value) + 2 >= k->size)
				return fail_at(L, value, "%s: longer than %s characters in all", name, lim);
			if (k->type == K_STR) {
				snprintf(field, k->size, "%s", value);
				return 1;
			}
			snprintf(field + have, k->size - have, "%s%s", have ? " " : "", value);
			return 1;
		}
		}
	}
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(keys[i].section, section))
			return fail_at(L, name, "unknown key '%s' in [%s]", name, section);
	if (!*section)
		return fail_at(L, name, "'%s' comes before any [section] (profile, tx, rx, host, device)%s",
			       name, "");
	return fail_at(L, section, "unknown section [%s] (profile, tx, rx, host, device)%s", section, "");
}

static void defaults(struct pcibw_nic *n)
{
	memset(n, 0, sizeof *n);
	/* 4-byte tail/head registers and MSI data word: 8254x/82599/X710 register maps, PCI Local
	 * Bus 3.0 sec. 6.8.1 (MSI message data). Fetch and write-back one descriptor at a time
	 * unless the profile says otherwise. */
	n->doorbell_bytes = 4;
	n->head_read_bytes = 4;
	n->irq_bytes = 4;
	n->tx_desc_fetch_batch = n->rx_desc_fetch_batch = 1;
	n->tx_wb_batch = n->rx_wb_batch = 1;
	n->strip_fcs = true;
}

static bool valid_match(const char *m, char *bad, size_t len)
{
	char tmp[1024];
	snprintf(tmp, sizeof tmp, "%s", m);
	for (char *save = NULL, *t = strtok_r(tmp, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
		unsigned v, d;
		int n = 0;
		if (sscanf(t, "%4x:%4x%n", &v, &d, &n) != 2 || t[n] || strlen(t) != 9) {
			snprintf(bad, len, "%s", t);
			return false;
		}
	}
	return true;
}

int pcibw_nic_load_file(const char *path, struct pcibw_nic *out, struct pcibw_err *err)
{
	struct loader L = {0};
	struct pcibw_nic nic;
	defaults(&nic);
	L.path = path;
	L.nic = &nic;
	L.err = err;
	L.f = fopen(path, "r");
	if (!L.f)
		return pcibw_fail(err, PCIBW_EINPUT, "%s: cannot read NIC profile: %s", path,
				  strerror(errno));
	int rc = ini_parse_stream(reader, &L, handler, &L);
	int read_errno = ferror(L.f) ? errno : 0;
	fclose(L.f);
	if (L.failed)
		return PCIBW_EINPUT;
	if (L.bad)
		return pcibw_fail(err, PCIBW_EINPUT, "%s:%d:%d: %s", path, L.line, L.bad_col, L.bad);
	if (read_errno) /* a directory, an I/O error */
		return pcibw_fail(err, PCIBW_EINPUT, "%s: cannot read NIC profile: %s", path,
				  strerror(read_errno));
	if (rc != 0)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:%d:1: expected '[section]', 'key = value' or a "
				  "comment",
				  path, rc > 0 ? rc : L.line);
	if (L.line == 0)
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s: empty file: expected a NIC profile ([profile] name, "
				  "source; [tx] and [rx] desc_bytes: doc/model.md)",
				  path);
	/* whole-profile checks: a profile without its sizes or its sources is not a profile. A
	 * missing key has no line of its own: the message names the end of the file. */
	const char *missing = !nic.name[0]	   ? "[profile] name"
			      : !nic.source[0]	   ? "[profile] source"
			      : !nic.tx_desc_bytes ? "[tx] desc_bytes"
			      : !nic.rx_desc_bytes ? "[rx] desc_bytes"
						   : NULL;
	if (missing)
		return pcibw_fail(err, PCIBW_EINPUT, "%s:%d:1: missing %s (end of file reached)", path,
				  L.line, missing);
	char bad[64];
	if (!valid_match(nic.match, bad, sizeof bad))
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s: [profile] match: '%s' is not a vendor:device pair "
				  "such as 8086:10fb",
				  path, bad);
	if ((nic.read_latency_ns > 0) != (nic.read_tags > 0))
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s: [device] read_latency_ns and read_tags go together "
				  "(reads in flight = tags, each held for the latency)",
				  path);
	*out = nic;
	return PCIBW_OK;
}

static bool valid_name(const char *name)
{
	if (!*name || strlen(name) > 60)
		return false;
	for (const char *p = name; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-' || *p == '_' ||
		      (*p == '.' && p != name)))
			return false;
	return !strstr(name, "..");
}

static int ini_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return n > 4 && !strcmp(d->d_name + n - 4, ".ini") && d->d_name[0] != '.';
}

/* "simple, dpdk, ..." of the profiles in dir/nic */
static void list_profiles(const char *dir, char *buf, size_t len)
{
	char nicdir[PATH_MAX];
	struct dirent **ents;
	snprintf(nicdir, sizeof nicdir, "%s/nic", dir);
	buf[0] = '\0';
	int n = scandir(nicdir, &ents, ini_filter, alphasort);
	size_t o = 0;
	for (int i = 0; i < n; i++) {
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%.*s", i ? ", " : "",
					      (int)strlen(ents[i]->d_name) - 4, ents[i]->d_name);
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
}

int pcibw_nic_load(const char *name, const char *dir, struct pcibw_nic *out, struct pcibw_err *err)
{
	char path[PATH_MAX], avail[1024];
	if (!dir)
		dir = pcibw_data_dir();
	snprintf(path, sizeof path, "%s/nic/%s.ini", dir, name ? name : "");
	FILE *f = name && valid_name(name) ? fopen(path, "r") : NULL;
	if (!f) {
		list_profiles(dir, avail, sizeof avail);
		return pcibw_fail(err, PCIBW_EUSAGE, "unknown NIC profile '%s' (available: %s)",
				  name ? name : "", avail[0] ? avail : "none found");
	}
	fclose(f);
	int rc = pcibw_nic_load_file(path, out, err);
	if (rc)
		return rc;
	if (strcmp(out->name, name))
		return pcibw_fail(err, PCIBW_EINPUT, "%s: [profile] name is '%s', not '%s' (a renamed copy?)",
				  path, out->name, name);
	return PCIBW_OK;
}

const char *pcibw_nic_for_ids(int vendor_id, int device_id, const char *dir, char *buf, unsigned len)
{
	char nicdir[PATH_MAX], want[16];
	struct dirent **ents;
	const char *found = NULL;
	if (!dir)
		dir = pcibw_data_dir();
	if (vendor_id < 0 || device_id < 0 || !buf || !len)
		return NULL;
	snprintf(want, sizeof want, "%04x:%04x", (unsigned)vendor_id & 0xffff, (unsigned)device_id & 0xffff);
	snprintf(nicdir, sizeof nicdir, "%s/nic", dir);
	int n = scandir(nicdir, &ents, ini_filter, alphasort);
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX + 300];
		struct pcibw_nic nic;
		snprintf(path, sizeof path, "%s/%s", nicdir, ents[i]->d_name);
		if (!found && pcibw_nic_load_file(path, &nic, NULL) == PCIBW_OK) {
			char tmp[1024];
			snprintf(tmp, sizeof tmp, "%s", nic.match);
			for (char *s = NULL, *t = strtok_r(tmp, " \t,", &s); t;
			     t = strtok_r(NULL, " \t,", &s))
				if (!strcasecmp(t, want)) {
					snprintf(buf, len, "%s", nic.name);
					found = buf;
					break;
				}
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	return found;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `dmidecode -t 9` text: the System Slots records (SMBIOS DSP0134 3.x sec. 7.10, structure type
 * 9) as dmidecode prints them (dmidecode.c dmi_decode case 9: "Designation", "Type", "Current
 * Usage", "Length", "ID", "Characteristics" with one indented line each, "Bus Address"
 * DDDD:BB:DD.F from the Segment Group Number, Bus Number and Device/Function Number, and on
 * SMBIOS 3.2+ "Data Bus Width", "Peer Devices", "Height"). Read strictly: a line that is none of
 * dmidecode's is refused at its line and column, so a file of another kind is never taken for
 * a table with no slots.
 */
#include "pcibw/slots.h"
#include "src/util/grow.h"
#include "src/util/input.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SMBIOS_MAX_BYTES (16u << 20) /* a whole dmidecode run of a large server is < 1 MiB */

static int bad(struct pcibw_err *err, const char *name, int line, int col, const char *what)
{
	return pcibw_fail(err, PCIBW_EINPUT, "%s:%d:%d: %s", name, line, col, what);
}

static bool starts(const char *s, size_t n, const char *word)
{
	size_t k = strlen(word);
	return n >= k && !memcmp(s, word, k);
}

/* A run of 1..digits hex digits at s (n bytes left) into *v; the count read, 0 if none. */
static size_t hex(const char *s, size_t n, size_t digits, int *v)
{
	size_t i = 0;
	unsigned x = 0;
	for (; i < n && i < digits && isxdigit((unsigned char)s[i]); i++)
		x = x * 16 + (unsigned)(isdigit((unsigned char)s[i])
					    ? s[i] - '0'
					    : (tolower((unsigned char)s[i]) - 'a' + 10));
	*v = (int)x;
	return i;
}

/* "DDDD:BB:DD.F" exactly (dmidecode's "%04x:%02x:%02x.%x"); 0 or the column of the fault. */
static size_t bus_address(const char *s, size_t n, struct pcibw_smbios_slot *e)
{
	int v[4];
	static const size_t width[4] = {4, 2, 2, 1};
	static const char sep[4] = {':', ':', '.', '\0'};
	size_t at = 0;
	for (int k = 0; k < 4; k++) {
		size_t got = hex(s + at, n - at, width[k], &v[k]);
		if (got != width[k])
			return at + got + 1;
		at += got;
		if (sep[k]) {
			if (at >= n || s[at] != sep[k])
				return at + 1;
			at++;
		}
	}
	if (at != n || v[2] > 31 || v[3] > 7)
		return at + 1;
	e->domain = v[0];
	e->bus = v[1];
	e->dev = v[2];
	e->fn = v[3];
	return 0;
}

/* A string field's value into dst: refused (0 or the column past v of the fault) where it holds
 * a control byte (a terminal escape in a slot name would reach every text report) or is longer
 * than dst keeps (a cut name could match another record's), never cut silently. */
static size_t copy_value(char *dst, size_t len, const char *s, size_t n, const char **why)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f) {
			*why = "a control byte: expected the printable text dmidecode prints";
			return i + 1;
		}
	if (n >= len) {
		*why = "longer than the 63 bytes a slot name may have here: expected an SMBIOS "
		       "designation";
		return len;
	}
	snprintf(dst, len, "%.*s", (int)n, s);
	return 0;
}

/* A record's key given twice: the second would win silently. */
static int once(struct pcibw_err *err, const char *name, int line, int col, const char *key, int *seen_line)
{
	if (!*seen_line) {
		*seen_line = line;
		return PCIBW_OK;
	}
	return pcibw_fail(err, PCIBW_EINPUT,
			  "%s:%d:%d: %s given twice in one System Slot record (first on line %d)", name, line,
			  col, key, *seen_line);
}

int pcibw_smbios_parse(const char *text, size_t len, const char *name, struct pcibw_smbios *out,
		       struct pcibw_err *err)
{
	int line = 0;
	bool in9 = false, in_record = false;
	int key_indent = -1;
	bool title_due = false; /* a record's title line comes next */
	struct pcibw_smbios_slot *cur = NULL;
	int seen[4] = {0}; /* the line of this record's Designation, Type, ID, Bus Address */
	size_t first = 0;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		first = 3; /* a UTF-8 byte-order mark from an editor or a Windows copy */
	size_t blank = first;
	while (blank < len && isspace((unsigned char)text[blank]))
		blank++;
	if (blank == len)
		return bad(err, name, 1, 1, "empty file: expected dmidecode -t 9 text");
	bool table = false; /* dmidecode read a table: "SMBIOS N present." or a record's header */
	for (size_t at = first; at < len;) {
		const char *s = text + at;
		const char *nl = memchr(s, '\n', len - at);
		size_t n = nl ? (size_t)(nl - s) : len - at;
		at += n + (nl ? 1 : 0);
		line++;
		if (memchr(s, '\0', n))
			return bad(err, name, line, (int)((const char *)memchr(s, '\0', n) - s) + 1,
				   "NUL byte");
		size_t m = n;
		while (m && (s[m - 1] == '\r' || s[m - 1] == ' ' || s[m - 1] == '\t'))
			m--;
		if (!m || s[0] == '#')
			continue;
		if (s[0] != '\t' && s[0] != ' ') {
			in_record = false;
			cur = NULL;
			if (starts(s, m, "Handle 0x")) {
				const char *t = memchr(s, ',', m);
				int type = -1;
				if (t && starts(t, m - (size_t)(t - s), ", DMI type ")) {
					/* the digits within the line: the text need not end in a NUL */
					const char *p = t + 11, *e = p;
					int v = 0;
					while (e < s + m && e - p < 4 && *e >= '0' && *e <= '9')
						v = v * 10 + (*e++ - '0');
					if (e > p && (e == s + m || *e == ','))
						type = v;
				}
				if (type < 0)
					return bad(err, name, line, 1,
						   "'Handle 0x...' line without ', DMI type N': expected "
						   "dmidecode's record header");
				in9 = type == 9;
				table = true;
				title_due = true;
				continue;
			}
			if (starts(s, m, "SMBIOS ") && memmem(s, m, " present", 8))
				table = true;
			if (starts(s, m, "Getting SMBIOS data") || starts(s, m, "SMBIOS ") ||
			    starts(s, m, "Table at ") || starts(s, m, "Scanning ") ||
			    memmem(s, m, "structures occupying", 20) || starts(s, m, "Legacy DMI ") ||
			    starts(s, m, "Reading SMBIOS") || starts(s, m, "Invalid entry length") ||
			    starts(s, m, "Wrong DMI structures"))
				continue;
			if (in9 && starts(s, m, "System Slot Information") && m == 23) {
				if (pcibw_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v))
					return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
				cur = &out->v[out->n++];
				memset(cur, 0, sizeof *cur);
				cur->id = cur->domain = cur->bus = cur->dev = cur->fn = PCIBW_NULL;
				cur->line = line;
				in_record = true;
				memset(seen, 0, sizeof seen);
				key_indent = -1;
				title_due = false;
				continue;
			}
			if (!in9 && title_due) { /* another type's title line ("Base Board Information") */
				title_due = false;
				continue;
			}
			return bad(err, name, line, 1,
				   "expected dmidecode -t 9 text ('Handle 0x..., DMI type 9, ...', 'System "
				   "Slot Information', indented 'Key: value' lines)");
		}
		if (!in_record)
			continue; /* a line of another type's record, or of one dmidecode left untitled */
		size_t ind = 0;
		while (ind < m && (s[ind] == '\t' || s[ind] == ' '))
			ind++;
		/* the Characteristics' own lines sit one level deeper than the record's keys (dmidecode
		 * indents with tabs; a copy from a web page may have spaces) */
		if (key_indent < 0)
			key_indent = (int)ind;
		if ((int)ind > key_indent)
			continue;
		const char *k = s + ind;
		size_t kn = m - ind;
		const char *colon = memchr(k, ':', kn);
		if (!colon)
			return bad(err, name, line, (int)ind + 1,
				   "expected 'Key: value' in a System Slot record");
		size_t klen = (size_t)(colon - k);
		const char *v = colon + 1;
		size_t vn = kn - klen - 1;
		while (vn && *v == ' ') {
			v++;
			vn--;
		}
		int vcol = (int)(v - s) + 1;
		int kcol = (int)ind + 1;
		const char *why = NULL;
		size_t fault = 0;
		if (klen == 11 && !memcmp(k, "Designation", 11)) {
			if (once(err, name, line, kcol, "Designation", &seen[0]))
				return PCIBW_EINPUT;
			fault = copy_value(cur->designation, sizeof cur->designation, v, vn, &why);
		} else if (klen == 4 && !memcmp(k, "Type", 4)) {
			if (once(err, name, line, kcol, "Type", &seen[1]))
				return PCIBW_EINPUT;
			fault = copy_value(cur->type, sizeof cur->type, v, vn, &why);
		} else if (klen == 13 && !memcmp(k, "Current Usage", 13)) {
			cur->in_use = vn == 6 && !memcmp(v, "In Use", 6);
		} else if (klen == 2 && !memcmp(k, "ID", 2)) {
			/* dmidecode prints a number, or for some slot types "Adapter N, Socket M" */
			if (once(err, name, line, kcol, "ID", &seen[2]))
				return PCIBW_EINPUT;
			int id = 0;
			size_t i = 0;
			for (; i < vn && i < 9 && isdigit((unsigned char)v[i]); i++)
				id = id * 10 + (v[i] - '0');
			if (i && i == vn)
				cur->id = id;
			else if (!i)
				return bad(err, name, line, vcol, "ID: expected a whole number");
		} else if (klen == 11 && !memcmp(k, "Bus Address", 11)) {
			if (once(err, name, line, kcol, "Bus Address", &seen[3]))
				return PCIBW_EINPUT;
			fault = bus_address(v, vn, cur);
			if (fault)
				return bad(err, name, line, vcol + (int)fault - 1,
					   "Bus Address: expected DDDD:BB:DD.F in hex (segment, bus, "
					   "device 0-1f, function 0-7)");
		}
		if (why && fault) {
			char msg[160];
			snprintf(msg, sizeof msg, "%.*s: %s", (int)klen, k, why);
			return bad(err, name, line, vcol + (int)fault - 1, msg);
		}
		/* Length, Characteristics, Data Bus Width, Peer Devices, Height, ...: not needed */
	}
	/* run without root, dmidecode prints its version and "Scanning /dev/mem for entry point."
	 * and no table: no slot named, not a machine without slots */
	if (!table)
		return bad(err, name, line + 1, 1,
			   "no SMBIOS table: expected dmidecode -t 9 text with 'SMBIOS N present.' or "
			   "'Handle 0x..., DMI type 9' records (dmidecode reads the table only as root)");
	return PCIBW_OK;
}

int pcibw_smbios_read(const char *path, struct pcibw_smbios *out, struct pcibw_err *err)
{
	char *data = NULL;
	size_t len = 0;
	int rc = pcibw_input_read(path, "dmidecode -t 9 text", 0, SMBIOS_MAX_BYTES, &data, &len, err);
	if (rc)
		return rc;
	rc = pcibw_smbios_parse(data, len, strcmp(path, "-") ? path : "standard input", out, err);
	free(data);
	return rc;
}

void pcibw_smbios_free(struct pcibw_smbios *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

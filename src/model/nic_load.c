/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NIC profiles from data/nic/NAME.ini, read with libinih. The only file of src/model that does
 * I/O. Every key is known and range-checked: a typo in a profile is an error naming
 * file:line:column, never a silently ignored line that changes a ceiling.
 */
#include "pcibw/bus.h"
#include "pcibw/nic.h"
#include "pcibw/number.h"
#include "src/util/input.h"
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
#include <sys/stat.h>

/* K_POW2: an integer, 0 (none) or a power of 2 in min..max (an alignment) */
enum ktype { K_INT, K_POW2, K_DOUBLE, K_BOOL, K_STR, K_STR_APPEND };

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
#define P2(sec, k, field, lo, hi)                                                                            \
	{                                                                                                    \
		sec, k, K_POW2, offsetof(struct pcibw_nic, field), 0, lo, hi                                 \
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
    S("profile", "dpdk", dpdk, K_STR),
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
    I("tx", "desc_max_bytes", tx_desc_max_bytes, 0, 65536),
    I("tx", "desc_packet_bytes", tx_desc_packet_bytes, 0, 4096),
    I("tx", "desc_packets", tx_desc_packets, 0, 4096),
    I("tx", "wb_stride", tx_wb_stride, 0, 4096),
    I("tx", "inline_max_bytes", tx_inline_max_bytes, 0, 4096),
    I("tx", "inline_header_bytes", tx_inline_header_bytes, 0, 256),
    I("rx", "stride_bytes", rx_stride_bytes, 0, 65536),
    I("rx", "desc_strides", rx_desc_strides, 1, 65536),
    I("rx", "desc_map_bytes", rx_desc_map_bytes, 0, 65536),
    I("rx", "wb_compress", rx_wb_compress, 1, 64),
    I("rx", "wb_session", rx_wb_session, 0, 65536),
    I("host", "irq_entry_bytes", irq_entry_bytes, 0, 4096),
    I("host", "irq_arm_writes", irq_arm_writes, 0, 16),
    D("host", "port_gbps", port_gbps, 0.001, 100000),
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
    I("device", "write_unit_bytes", write_unit_bytes, 0, 4096),
    D("device", "write_unit_ns", write_unit_ns, 0.01, 1e6),
    D("device", "write_cmd_ns", write_cmd_ns, 0.01, 1e6),
    P2("device", "write_burst_bytes", write_burst_bytes, 64, 4096),
    D("device", "write_burst_gap_ns", write_burst_gap_ns, 0.01, 1e6),
    D("device", "write_burst_gap_max_ns", write_burst_gap_max_ns, 0.01, 1e6),
    D("device", "read_latency_remote_ns", read_latency_remote_ns, 1, 1e6),
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

/* Parse value into k's field of nic. Returns 0, or -1 with why (what was expected) filled. */
static int set_field(const struct key *k, struct pcibw_nic *nic, const char *value, char *why, size_t len)
{
	char *field = (char *)nic + k->off;
	double v;
	switch (k->type) {
	case K_INT: {
		unsigned form = PCIBW_NUM_INTEGER | (k->min < 0 ? PCIBW_NUM_SIGN : 0);
		if (pcibw_number_scan(value, strlen(value), form, &v) != PCIBW_NUM_OK || v < k->min ||
		    v > k->max) {
			snprintf(why, len, "%s: expected an integer %g..%g", k->name, k->min, k->max);
			return -1;
		}
		*(int *)field = (int)v;
		return 0;
	}
	case K_POW2: {
		/* bursts are cut at aligned host addresses: only a power of 2 can align them */
		if (pcibw_number_scan(value, strlen(value), PCIBW_NUM_INTEGER, &v) != PCIBW_NUM_OK ||
		    (v != 0 && (v < k->min || v > k->max || ((long)v & ((long)v - 1))))) {
			snprintf(why, len, "%s: expected 0 (no limit) or a power of 2 in %g..%g", k->name,
				 k->min, k->max);
			return -1;
		}
		*(int *)field = (int)v;
		return 0;
	}
	case K_DOUBLE: {
		if (pcibw_number_scan(value, strlen(value), 0, &v) != PCIBW_NUM_OK ||
		    (v != 0 && v < k->min) || v > k->max) {
			snprintf(why, len, "%s: expected 0 (no limit) or a number %g..%g", k->name, k->min,
				 k->max);
			return -1;
		}
		*(double *)field = v;
		return 0;
	}
	case K_BOOL:
		if (!strcmp(value, "true") || !strcmp(value, "yes") || !strcmp(value, "1"))
			*(bool *)field = true;
		else if (!strcmp(value, "false") || !strcmp(value, "no") || !strcmp(value, "0"))
			*(bool *)field = false;
		else {
			snprintf(why, len, "%s: expected true or false, got '%s'", k->name, value);
			return -1;
		}
		return 0;
	case K_STR:
	case K_STR_APPEND: {
		size_t have = k->type == K_STR ? 0 : strlen(field);
		if (have + strlen(value) + 2 >= k->size) {
			snprintf(why, len, "%s: longer than %zu characters in all", k->name, k->size - 2);
			return -1;
		}
		if (k->type == K_STR)
			snprintf(field, k->size, "%s", value);
		else
			snprintf(field + have, k->size - have, "%s%s", have ? " " : "", value);
		return 0;
	}
	}
	return -1;
}

static const struct key *find_key(const char *section, const char *name)
{
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

/* "section.key" -> the key, for knob assignments and --nic-set. Identity strings (name, source,
 * match, dpdk) are not settable: they say where the numbers come from. */
static const struct key *find_dotted(const char *dotted)
{
	char sec[32];
	const char *dot = strchr(dotted, '.');
	if (!dot || (size_t)(dot - dotted) >= sizeof sec)
		return NULL;
	snprintf(sec, sizeof sec, "%.*s", (int)(dot - dotted), dotted);
	const struct key *k = find_key(sec, dot + 1);
	return k && k->type != K_STR && k->type != K_STR_APPEND ? k : NULL;
}

/* Apply "section.key=value section.key=value ..." to nic. 0, or -1 with why filled. */
static int apply_sets(struct pcibw_nic *nic, const char *sets, char *why, size_t len)
{
	char tmp[256];
	snprintf(tmp, sizeof tmp, "%s", sets);
	for (char *save = NULL, *t = strtok_r(tmp, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
		char *eq = strchr(t, '=');
		if (!eq) {
			snprintf(why, len, "'%s': expected section.key=value", t);
			return -1;
		}
		*eq = '\0';
		const struct key *k = find_dotted(t);
		if (!k) {
			snprintf(why, len, "'%s' is not a profile key (section.key, doc/model.md)", t);
			return -1;
		}
		if (set_field(k, nic, eq + 1, why, len))
			return -1;
	}
	return 0;
}

static struct pcibw_nic_knob *knob_named(struct pcibw_nic *n, const char *name)
{
	for (int i = 0; i < n->n_knobs; i++)
		if (!strcmp(n->knobs[i].name, name))
			return &n->knobs[i];
	return NULL;
}

/* [knob NAME] sections: default, default_slow_pcie, key (a numeric knob), source, and one
 * line per named value listing what it sets. */
static int knob_handler(struct loader *L, const char *kname, const char *name, const char *value)
{
	struct pcibw_nic *n = L->nic;
	struct pcibw_nic_knob *k = knob_named(n, kname);
	if (!k) {
		if (n->n_knobs >= (int)(sizeof n->knobs / sizeof n->knobs[0]))
			return fail_at(L, kname, "more than %s knobs", "8", "");
		if (strlen(kname) >= sizeof k->name || !*kname)
			return fail_at(L, kname, "knob name '%s': 1..31 characters", kname, "");
		k = &n->knobs[n->n_knobs++];
		snprintf(k->name, sizeof k->name, "%s", kname);
	}
	if (!strcmp(name, "default") || !strcmp(name, "default_slow_pcie")) {
		char *dst = name[7] ? k->def_slow_pcie : k->def;
		if (strlen(value) >= sizeof k->def)
			return fail_at(L, value, "%s: value '%s' is too long", name, value);
		snprintf(dst, sizeof k->def, "%s", value);
		return 1;
	}
	if (!strcmp(name, "source")) {
		size_t have = strlen(k->source);
		if (have + strlen(value) + 2 >= sizeof k->source)
			return fail_at(L, value, "%s: longer than %s characters in all", name, "638");
		snprintf(k->source + have, sizeof k->source - have, "%s%s", have ? " " : "", value);
		return 1;
	}
	if (!strcmp(name, "key")) {
		const struct key *key = find_dotted(value);
		if (!key || (key->type != K_INT && key->type != K_POW2) || strlen(value) >= sizeof k->map_key)
			return fail_at(L, value, "key: '%s' is not a numeric profile key", value, "");
		snprintf(k->map_key, sizeof k->map_key, "%s", value);
		return 1;
	}
	if (k->n_values >= 4 || strlen(name) >= sizeof k->values[0] || strlen(value) >= sizeof k->sets[0])
		return fail_at(L, name, "knob value '%s': at most 4 values of 15 characters", name, "");
	snprintf(k->values[k->n_values], sizeof k->values[0], "%s", name);
	snprintf(k->sets[k->n_values], sizeof k->sets[0], "%s", value);
	k->n_values++;
	return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct loader *L = user;
	if (L->failed)
		return 1;
	if (!strncmp(section, "knob ", 5))
		return knob_handler(L, section + 5, name, value);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const struct key *k = &keys[i];
		if (strcmp(k->section, section) || strcmp(k->name, name))
			continue;
		if (L->seen[i] && k->type != K_STR_APPEND)
			return fail_at(L, name, "'%s' given twice in [%s]", name, section);
		L->seen[i] = true;
		char why[200];
		if (set_field(k, L->nic, value, why, sizeof why))
			return fail_at(L, value, "%s%s", why, "");
		return 1;
	}
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(keys[i].section, section))
			return fail_at(L, name, "unknown key '%s' in [%s]", name, section);
	if (!*section)
		return fail_at(L, name,
			       "'%s' comes before any [section] (profile, tx, rx, host, device, knob NAME)%s",
			       name, "");
	return fail_at(L, section, "unknown section [%s] (profile, tx, rx, host, device, knob NAME)%s",
		       section, "");
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
	n->rx_desc_strides = 1;
	n->rx_wb_compress = 1;
}

static int value_index(const struct pcibw_nic_knob *k, const char *v)
{
	for (int i = 0; i < k->n_values; i++)
		if (!strcmp(k->values[i], v))
			return i;
	return -1;
}

/* Put knob k to value v (checked by the caller). 0 or -1 with why. */
static int knob_apply(struct pcibw_nic *n, struct pcibw_nic_knob *k, const char *v, char *why, size_t len)
{
	if (k->map_key[0]) {
		char one[64];
		snprintf(one, sizeof one, "%s=%s", k->map_key, v);
		if (apply_sets(n, one, why, len))
			return -1;
	} else {
		int i = value_index(k, v);
		if (i < 0) {
			char list[80] = "";
			for (int j = 0; j < k->n_values; j++)
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
					 j ? ", " : "", k->values[j]);
			snprintf(why, len, "%s: expected %s, got '%s'", k->name, list, v);
			return -1;
		}
		if (apply_sets(n, k->sets[i], why, len))
			return -1;
	}
	snprintf(k->value, sizeof k->value, "%s", v);
	return 0;
}

/* The keys a "section.key=value ..." list names, sorted into one comparable string. */
static void keys_of(const char *sets, char *out, size_t len)
{
	char tmp[256], *names[32];
	int n = 0;
	snprintf(tmp, sizeof tmp, "%s", sets);
	for (char *save = NULL, *t = strtok_r(tmp, " \t,", &save); t && n < 32;
	     t = strtok_r(NULL, " \t,", &save)) {
		char *eq = strchr(t, '=');
		if (eq)
			*eq = '\0';
		names[n++] = t;
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	out[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s ", names[i]);
}

/* Whole-knob checks at load time, then every knob at its driver default. A knob whose values
 * set different keys would leave a key at whatever the last value put there: refused. */
static int knobs_check(const char *path, struct pcibw_nic *n, struct pcibw_err *err)
{
	for (int i = 0; i < n->n_knobs; i++) {
		struct pcibw_nic_knob *k = &n->knobs[i];
		char why[200], a[256], b[256];
		if (!k->def[0] || !k->source[0] || (!k->map_key[0] && k->n_values < 2))
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s: [knob %s] needs default, source and two or more values "
					  "(or key = section.key)",
					  path, k->name);
		if (!k->map_key[0])
			for (int j = 0; j < k->n_values; j++) {
				struct pcibw_nic scratch = *n;
				keys_of(k->sets[j], b, sizeof b);
				if (j == 0)
					snprintf(a, sizeof a, "%s", b);
				if (apply_sets(&scratch, k->sets[j], why, sizeof why))
					return pcibw_fail(err, PCIBW_EINPUT, "%s: [knob %s] %s: %s", path,
							  k->name, k->values[j], why);
				if (strcmp(a, b))
					return pcibw_fail(err, PCIBW_EINPUT,
							  "%s: [knob %s]: every value must set the same keys "
							  "('%s' sets %s, '%s' sets %s)",
							  path, k->name, k->values[0], a, k->values[j], b);
			}
		const char *defs[2] = {k->def, k->def_slow_pcie};
		for (int d = 0; d < 2; d++) {
			struct pcibw_nic scratch = *n;
			struct pcibw_nic_knob *sk = &scratch.knobs[i];
			if (defs[d][0] && knob_apply(&scratch, sk, defs[d], why, sizeof why))
				return pcibw_fail(err, PCIBW_EINPUT, "%s: [knob %s] default: %s", path,
						  k->name, why);
		}
		knob_apply(n, k, k->def, why, sizeof why);
		snprintf(k->why, sizeof k->why, "driver default");
	}
	return PCIBW_OK;
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

/* Keys that only mean something together: a profile file and a what-if (--nic-set) must both
 * keep them paired, or the model would silently drop the half that is set. Fills why naming the
 * keys and returns false when a pair is broken. */
static bool pairs_check(const struct pcibw_nic *n, char *why, size_t len)
{
	if ((n->read_latency_ns > 0) != (n->read_tags > 0)) {
		snprintf(why, len,
			 "[device] read_latency_ns and read_tags go together: set both or neither "
			 "(reads in flight = tags, each held for the latency; here %g ns, %d tags)",
			 n->read_latency_ns, n->read_tags);
		return false;
	}
	if ((n->write_unit_bytes > 0) != (n->write_unit_ns > 0) ||
	    (n->write_cmd_ns > 0 && n->write_unit_bytes == 0)) {
		snprintf(why, len,
			 "[device] write_unit_bytes and write_unit_ns go together, and write_cmd_ns "
			 "needs them (a write holds the engine for write_cmd_ns + its units x "
			 "write_unit_ns; here %d B, %g ns, %g ns)",
			 n->write_unit_bytes, n->write_unit_ns, n->write_cmd_ns);
		return false;
	}
	if ((n->write_burst_bytes > 0) != (n->write_burst_gap_ns > 0)) {
		snprintf(why, len,
			 "[device] write_burst_bytes and write_burst_gap_ns go together: set both or "
			 "neither (a write's bursts each leave the link idle for the gap; here %d B, "
			 "%g ns)",
			 n->write_burst_bytes, n->write_burst_gap_ns);
		return false;
	}
	if (n->write_burst_gap_max_ns > 0 &&
	    (n->write_burst_gap_ns <= 0 || n->write_burst_gap_max_ns < n->write_burst_gap_ns)) {
		snprintf(why, len,
			 "[device] write_burst_gap_max_ns needs write_burst_gap_ns and is at least it (the "
			 "slowest host's gap; here %g ns against %g ns)",
			 n->write_burst_gap_max_ns, n->write_burst_gap_ns);
		return false;
	}
	if (n->read_latency_remote_ns > 0 &&
	    (n->read_latency_ns <= 0 || n->read_latency_remote_ns < n->read_latency_ns)) {
		snprintf(why, len,
			 "[device] read_latency_remote_ns needs read_latency_ns and is at least it (remote "
			 "memory is further; here %g ns against %g ns)",
			 n->read_latency_remote_ns, n->read_latency_ns);
		return false;
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
	int rc = pcibw_input_open(path, "a NIC profile (INI, doc/model.md)", 0, &L.f, err);
	if (rc)
		return rc;
	/* a stream (a FIFO, a pipe, `-`): empty means nothing was written, not an empty file */
	struct stat st;
	bool pipe_like = fileno(L.f) < 0 || fstat(fileno(L.f), &st) || !S_ISREG(st.st_mode);
	rc = ini_parse_stream(reader, &L, handler, &L);
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
		return pcibw_fail(
		    err, PCIBW_EINPUT,
		    "%s: %s: expected a NIC profile ([profile] name, "
		    "source; [tx] and [rx] desc_bytes: doc/model.md)",
		    path, pipe_like ? "empty pipe or FIFO (no writer, or nothing written)" : "empty file");
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
	if ((rc = knobs_check(path, &nic, err)))
		return rc;
	char why[320];
	if (!pairs_check(&nic, why, sizeof why))
		return pcibw_fail(err, PCIBW_EINPUT, "%s: %s", path, why);
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

int pcibw_nic_names(const char *dir, char *buf, size_t len)
{
	if (!buf || !len)
		return -1;
	buf[0] = '\0';
	if (!dir && !(dir = pcibw_data_dir()))
		return -1;
	char nicdir[PATH_MAX];
	struct dirent **ents;
	snprintf(nicdir, sizeof nicdir, "%s/nic", dir);
	int n = scandir(nicdir, &ents, ini_filter, alphasort);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	list_profiles(dir, buf, len);
	return n;
}

/* No profile directory at all: an installation problem, said with every place looked in. */
static int no_data_dir(struct pcibw_err *err)
{
	char where[1024];
	pcibw_data_dirs_searched(where, sizeof where);
	return pcibw_fail(err, PCIBW_ENOTHERE,
			  "no NIC profiles found: searched %s; set PCIBW_DATA_DIR to the directory "
			  "holding nic/",
			  where);
}

int pcibw_nic_load(const char *name, const char *dir, struct pcibw_nic *out, struct pcibw_err *err)
{
	char path[PATH_MAX], avail[1024];
	if (!dir && !(dir = pcibw_data_dir()))
		return no_data_dir(err);
	snprintf(path, sizeof path, "%s/nic/%s.ini", dir, name ? name : "");
	struct stat st;
	if (!name || !valid_name(name) || stat(path, &st)) {
		list_profiles(dir, avail, sizeof avail);
		return pcibw_fail(err, PCIBW_EUSAGE, "unknown NIC profile '%s' (available: %s)",
				  name ? name : "", avail[0] ? avail : "none found");
	}
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
	if (!dir && !(dir = pcibw_data_dir()))
		return NULL;
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

/* mlx5 en/params.c slow_pci_heuristic: the port is faster than twice what the link carries, with
 * the link counted as the kernel's pcie_bandwidth_available() does (lanes x GT/s x encoding, the
 * PCIE_SPEED2MBS_ENC table: 2000, 4000, 7877, 15754, 31508 Mb/s per lane). */
static bool slow_pcie(const struct pcibw_bus *b, double port_gbps)
{
	if (!b || b->kind != PCIBW_BUS_PCIE || !(port_gbps > 0) || b->lanes <= 0 || !(b->gts > 0))
		return false;
	double link_gbps = b->lanes * b->gts * pcibw_pcie_encoding(b->gts, b->flit);
	return port_gbps > 2.0 * link_gbps;
}

int pcibw_nic_configure(struct pcibw_nic *nic, const struct pcibw_bus *bus, double port_gbps,
			const char *const *sets, int nsets, struct pcibw_err *err)
{
	char why[320];
	double port = port_gbps > 0 ? port_gbps : nic->port_gbps;
	bool slow = slow_pcie(bus, port);
	for (int i = 0; i < nic->n_knobs; i++) {
		struct pcibw_nic_knob *k = &nic->knobs[i];
		bool use_slow = slow && k->def_slow_pcie[0];
		if (knob_apply(nic, k, use_slow ? k->def_slow_pcie : k->def, why, sizeof why))
			return pcibw_fail(err, PCIBW_EINTERNAL, "profile %s: %s", nic->name, why);
		if (use_slow)
			snprintf(k->why, sizeof k->why,
				 "driver default for a link under half the %g Gbit/s port", port);
		else
			snprintf(k->why, sizeof k->why, "driver default");
	}
	nic->n_overrides = 0;
	/* knobs first, raw keys after, so that "rx.wb_compress=4" refines a knob's setting whatever
	 * the order on the command line */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < nsets; i++) {
			const char *s = sets[i], *eq = strchr(s, '=');
			char name[64];
			if (!eq || eq == s || (size_t)(eq - s) >= sizeof name)
				return pcibw_fail(err, PCIBW_EUSAGE,
						  "'%s': expected KNOB=VALUE or section.key=VALUE", s);
			snprintf(name, sizeof name, "%.*s", (int)(eq - s), s);
			struct pcibw_nic_knob *k = knob_named(nic, name);
			bool raw = !k && strchr(name, '.');
			if (!k && !raw) {
				char list[400] = "";
				for (int j = 0; j < nic->n_knobs; j++)
					snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
						 j ? ", " : "", nic->knobs[j].name);
				return pcibw_fail(err, PCIBW_EUSAGE,
						  "profile %s has no knob '%s' (knobs: %s; or section.key "
						  "for a profile key)",
						  nic->name, name, list[0] ? list : "none");
			}
			if ((pass == 0) != (k != NULL))
				continue;
			if (k ? knob_apply(nic, k, eq + 1, why, sizeof why)
			      : apply_sets(nic, s, why, sizeof why))
				return pcibw_fail(err, PCIBW_EUSAGE, "profile %s: %s", nic->name, why);
			if (k)
				snprintf(k->why, sizeof k->why, "set by the user");
			if (nic->n_overrides < (int)(sizeof nic->overrides / sizeof nic->overrides[0]))
				snprintf(nic->overrides[nic->n_overrides++], sizeof nic->overrides[0], "%s",
					 s);
		}
	if (!pairs_check(nic, why, sizeof why))
		return pcibw_fail(err, PCIBW_EUSAGE, "profile %s: %s", nic->name, why);
	return PCIBW_OK;
}

const struct pcibw_nic_knob *pcibw_nic_key_knob(const struct pcibw_nic *nic, const char *keys)
{
	char want[256];
	if (!nic || !keys)
		return NULL;
	for (int i = 0; i < nic->n_knobs; i++) {
		const struct pcibw_nic_knob *k = &nic->knobs[i];
		int v = value_index(k, k->value);
		if (k->map_key[0])
			snprintf(want, sizeof want, "%s ", k->map_key);
		else if (v >= 0)
			keys_of(k->sets[v], want, sizeof want);
		else
			continue;
		char tmp[256];
		snprintf(tmp, sizeof tmp, "%s", keys);
		for (char *s = NULL, *t = strtok_r(tmp, " ", &s); t; t = strtok_r(NULL, " ", &s)) {
			char needle[80];
			snprintf(needle, sizeof needle, "%s ", t);
			const char *p = strstr(want, needle);
			if (p && (p == want || p[-1] == ' '))
				return k;
		}
	}
	return NULL;
}

const char *pcibw_nic_default_name(int vendor_id, int device_id, const char *driver, const char *dir,
				   char *buf, unsigned len)
{
	const char *name = pcibw_nic_for_ids(vendor_id, device_id, dir, buf, len);
	static const char *const user_space[] = {"vfio-pci", "uio_pci_generic", "igb_uio"};
	if (!name || !driver || !*driver)
		return name;
	for (unsigned i = 0; i < sizeof user_space / sizeof user_space[0]; i++)
		if (!strcmp(driver, user_space[i])) {
			struct pcibw_nic n;
			char sib[64];
			snprintf(sib, sizeof sib, "%s", name);
			if (pcibw_nic_load(sib, dir, &n, NULL) == PCIBW_OK && n.dpdk[0]) {
				snprintf(buf, len, "%s", n.dpdk);
				return buf;
			}
		}
	return name;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `--sizes`: "64,128,1518", ranges "64-1518/64" (end always included), "imix", "SIZE:WEIGHT,..."
 * (doc/cli-contract.md, "Model options"). Bad parts are named in the message.
 */
#include "pcibw/model.h"
#include "pcibw/number.h"
#include "src/util/grow.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_SIZE 65536 /* largest IPv4/IPv6-without-jumbogram packet is 65535 B; 64 KiB DMA */
/* Every whole size 1..65536 once: any range of the contract's grammar fits (1-65536/1 included;
 * it costs about a second). More items than that only repeat sizes. */
#define MAX_ROWS MAX_SIZE

static int push(struct pcibw_sizes *s, double bytes, double weight, struct pcibw_err *err)
{
	if (s->n >= MAX_ROWS)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--sizes gives more than %d sizes (sizes are whole "
				  "bytes 1..%d: use a coarser step)",
				  MAX_ROWS, MAX_SIZE);
	if (pcibw_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	s->v[s->n++] = (struct pcibw_size){bytes, weight};
	return PCIBW_OK;
}

/* A whole number of bytes in 1..MAX_SIZE; `what` is the item, for the message. */
static int size_num(const char *p, const char *end, long *out, const char *item, struct pcibw_err *err)
{
	size_t n = (size_t)(end - p);
	double v;
	enum pcibw_num_result r = pcibw_number_scan(p, n, PCIBW_NUM_INTEGER, &v);
	if (r == PCIBW_NUM_EMPTY || r == PCIBW_NUM_NOT_DECIMAL)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--sizes item '%s': '%.*s' is not a size in bytes "
				  "(a whole number 1..%d)",
				  item, (int)(n > 20 ? 20 : n), p, MAX_SIZE);
	if (r == PCIBW_NUM_OVERFLOW || v < 1 || v > MAX_SIZE)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--sizes item '%s': size %.*s is out of range (1..%d bytes)", item,
				  (int)(n > 20 ? 20 : n), p, MAX_SIZE);
	*out = (long)v;
	return PCIBW_OK;
}

static int item(const char *it, struct pcibw_sizes *s, struct pcibw_err *err)
{
	const char *end = it + strlen(it);
	const char *colon = strchr(it, ':');
	long a, b, step;
	int st;
	if (!*it)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--sizes: empty item (two commas, or a comma at an end)");
	if (!strncasecmp(it, "imix", 4))
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--sizes item '%s': imix is a mix of its own (64:7,594:4,"
				  "1518:1); give '--sizes imix' alone, or write the mix out",
				  it);
	if (colon) {
		double w;
		if ((st = size_num(it, colon, &a, it, err)))
			return st;
		if (pcibw_number_scan(colon + 1, strlen(colon + 1), 0, &w) != PCIBW_NUM_OK || !(w > 0))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--sizes item '%s': weight '%s' must be a positive "
					  "number",
					  it, colon + 1);
		s->is_mix = true;
		return push(s, (double)a, w, err);
	}
	const char *dash = strchr(it, '-');
	if (!dash) {
		if ((st = size_num(it, end, &a, it, err)))
			return st;
		return push(s, (double)a, 1, err);
	}
	const char *slash = strchr(dash, '/');
	if (dash == it)
		return pcibw_fail(err, PCIBW_EUSAGE, "--sizes item '%s': sizes must be positive", it);
	if (!slash)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--sizes item '%s': a range needs a step, e.g. 64-1518/64", it);
	if ((st = size_num(it, dash, &a, it, err)) || (st = size_num(dash + 1, slash, &b, it, err)) ||
	    (st = size_num(slash + 1, end, &step, it, err)))
		return st;
	if (b < a)
		return pcibw_fail(err, PCIBW_EUSAGE, "--sizes item '%s': the range ends before it starts",
				  it);
	for (long v = a; v < b; v += step)
		if ((st = push(s, (double)v, 1, err)))
			return st;
	return push(s, (double)b, 1, err); /* the end is always included (contract) */
}

int pcibw_sizes_parse(const char *text, struct pcibw_sizes *out, struct pcibw_err *err)
{
	struct pcibw_sizes s = {0};
	int st = PCIBW_OK;
	if (!text || !*text)
		return pcibw_fail(err, PCIBW_EUSAGE, "--sizes: empty size list");
	if (!strcasecmp(text, "imix")) {
		/* Simple IMIX: 7 x 64, 4 x 594, 1 x 1518 frames (contract; Agilent/Ixia "simple IMIX") */
		static const double imix[][2] = {{64, 7}, {594, 4}, {1518, 1}};
		for (int i = 0; i < 3 && !st; i++)
			st = push(&s, imix[i][0], imix[i][1], err);
		s.is_mix = true;
		snprintf(s.label, sizeof s.label, "imix");
	} else {
		char *copy = strdup(text);
		if (!copy)
			return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		char *p = copy;
		for (;;) {
			char *comma = strchr(p, ',');
			if (comma)
				*comma = '\0';
			if ((st = item(p, &s, err)))
				break;
			if (!comma)
				break;
			p = comma + 1;
		}
		free(copy);
		if (!st && s.is_mix) {
			/* a mix is all SIZE:WEIGHT items: a bare size in it is ambiguous */
			int colons = 0;
			for (const char *q = text; *q; q++)
				colons += *q == ':';
			if (colons != s.n)
				st = pcibw_fail(err, PCIBW_EUSAGE,
						"--sizes '%s': a mix gives every size a weight "
						"(SIZE:WEIGHT,...)",
						text);
			snprintf(s.label, sizeof s.label, "mix");
		}
	}
	if (st) {
		free(s.v);
		return st;
	}
	*out = s;
	return PCIBW_OK;
}

void pcibw_sizes_free(struct pcibw_sizes *s)
{
	if (s) {
		free(s->v);
		s->v = NULL;
		s->n = s->cap = 0;
	}
}

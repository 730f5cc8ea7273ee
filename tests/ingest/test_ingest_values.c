/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every value of a generic CSV reaches the measured row as the very double strtod() gives for its
 * text (times the column's unit: 1000 for kpps), bit for bit, whichever way the reader takes: the
 * short decimals of nearly every file, and the rest (signs, blanks, quotes, leading zeros, long
 * mantissas, exponents, a '%'). The expected value of every field is strtod's of the text written.
 */
#include "pcibw/ingest.h"
#include "support.h"
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINES 200000

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t next(void)
{
	return xorshift64_next(&rng);
}

/* want[i]: size, pps and cpu of line i as strtod reads the texts written */
static double want[LINES][3];

struct seen {
	long n;
	long bad;
	char first[200];
};

static bool same_bits(double a, double b)
{
	return !memcmp(&a, &b, sizeof a);
}

static int check(const struct pcibw_measured *m, void *ctx, struct pcibw_err *err)
{
	(void)err;
	struct seen *s = ctx;
	long i = (long)m->line - 2; /* the header is line 1 */
	cr_assert(i >= 0 && i < LINES, "line %u", m->line);
	const double got[3] = {m->size_bytes, m->pps, m->cpu_pct};
	for (int k = 0; k < 3; k++)
		if (!same_bits(got[k], want[i][k]) && !s->bad++)
			snprintf(s->first, sizeof s->first, "line %u field %d: %.17g, strtod %.17g", m->line,
				 k + 1, got[k], want[i][k]);
	s->n++;
	return PCIBW_OK;
}

/* A decimal of up to `digits` significant digits with the point at a random place; the text and
 * its value. */
static void decimal(char *buf, size_t n, int digits, uint64_t limit)
{
	uint64_t m = next() % limit;
	int frac = (int)(next() % (unsigned)(digits + 1));
	char d[32];
	int len = snprintf(d, sizeof d, "%0*" PRIu64, frac + 1, m);
	if (frac == 0)
		snprintf(buf, n, "%s", d);
	else
		snprintf(buf, n, "%.*s.%s", len - frac, d, d + len - frac);
}

/* The same number written another way a file may write it. */
static void dress(char buf[64], bool pct)
{
	char t[40];
	snprintf(t, sizeof t, "%.39s", buf);
	size_t n = 64;
	switch (next() % 12) {
	case 0:
		snprintf(buf, n, " %s ", t);
		break;
	case 1:
		snprintf(buf, n, "\"%s\"", t);
		break;
	case 2:
		snprintf(buf, n, "+%s", t);
		break;
	case 3:
		snprintf(buf, n, "%se0", t);
		break;
	case 4:
		snprintf(buf, n, "00%s", t);
		break;
	case 5:
		if (pct)
			snprintf(buf, n, "%s%%", t);
		break;
	default:
		break;
	}
}

/* strtod of a field as written: quotes and a '%' are the CSV's and the column's, not the number's */
static double text_value(const char *t)
{
	char b[64];
	size_t k = 0;
	for (; *t && k + 1 < sizeof b; t++)
		if (*t != '"' && *t != '%')
			b[k++] = *t;
	b[k] = '\0';
	return strtod(b, NULL);
}

Test(values, fields_read_as_strtod)
{
	char path[] = "/tmp/pcibw-test-values-XXXXXX.csv";
	int fd = mkstemps(path, 4);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	cr_assert(f);
	fputs("frame_bytes,kpps,cpu_pct\n", f);
	for (long i = 0; i < LINES; i++) {
		char size[64], rate[64], cpu[64];
		snprintf(size, sizeof size, "%" PRIu64, 1 + next() % 16777216);
		/* kpps up to 10^7 (10^10 pps): 15 significant digits mostly, some of 16 to 19 that
		 * the short form leaves to the full reader */
		int digits = next() % 8 ? 15 : 16 + (int)(next() % 4);
		decimal(rate, sizeof rate, digits, next() % 2 ? 10000000ull : 1000000000000000ull);
		if (text_value(rate) > 1e7)
			snprintf(rate, sizeof rate, "%" PRIu64 ".%03" PRIu64, next() % 10000000,
				 next() % 1000);
		uint64_t c = next() % 100000000000000ull; /* up to 99.999999999999 */
		snprintf(cpu, sizeof cpu, "%" PRIu64 ".%012" PRIu64, (uint64_t)(c / 1000000000000ull),
			 (uint64_t)(c % 1000000000000ull));
		if (next() % 3 == 0)
			snprintf(cpu, sizeof cpu, "%" PRIu64, next() % 101);
		if (next() % 4 == 0) {
			dress(size, false);
			dress(rate, false);
			dress(cpu, true);
		}
		want[i][0] = text_value(size);
		want[i][1] = text_value(rate) * 1000;
		want[i][2] = text_value(cpu);
		fprintf(f, "%s,%s,%s\n", size, rate, cpu);
	}
	cr_assert_eq(fclose(f), 0);
	struct pcibw_ingest_opts o = {0};
	static struct pcibw_ingest_stats st;
	struct seen s = {0};
	struct pcibw_err err = {0};
	int r = pcibw_ingest_file(path, &o, check, &s, &st, &err);
	unlink(path);
	cr_assert_eq(r, PCIBW_OK, "%s", err.msg);
	cr_assert_eq(s.n, LINES, "%ld rows of %d lines", s.n, LINES);
	cr_assert_eq(s.bad, 0, "%ld values differ from strtod; first: %s", s.bad, s.first);
}

/* pcibw_ingest_defaults_all on one file's long head, then on another's: each call reads its own
 * file from its start (the first's 82 000 bytes of comments end past one read's 64 KiB), and a
 * "# bus:" line is found wherever the head holds it. */
Test(values, defaults_read_each_file_whole_head)
{
	char *big = malloc(2000 * 41 + 64);
	cr_assert(big);
	size_t o = 0;
	for (int i = 0; i < 2000; i++)
		o += (size_t)sprintf(big + o, "# a comment line of forty bytes, padded.\n");
	sprintf(big + o, "# bus: gen2x8 nic: ixgbe\nframe_bytes,pps\n64,1\n");
	char a[128], b[128];
	snprintf(a, sizeof a, "%s", temp_file(big, ".csv"));
	free(big);
	snprintf(b, sizeof b, "%s", temp_file("\xef\xbb\xbf# bus: gen3x4\nframe_bytes,pps\n64,1\n", ".csv"));
	struct pcibw_input_defaults d[2];
	int n;
	struct pcibw_err err;
	cr_assert_eq(pcibw_ingest_defaults_all(a, d, 2, &n, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(d[0].bus, "gen2x8");
	cr_assert_str_eq(d[0].nic, "ixgbe");
	char want[200];
	snprintf(want, sizeof want, "%s:2001", a);
	cr_assert_str_eq(d[0].origin, want);
	cr_assert_eq(pcibw_ingest_defaults_all(b, d, 2, &n, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(n, 1, "the second file's line, after a byte order mark");
	cr_assert_str_eq(d[0].bus, "gen3x4");
	snprintf(want, sizeof want, "%s:1", b);
	cr_assert_str_eq(d[0].origin, want);
	unlink(a);
	unlink(b);
}

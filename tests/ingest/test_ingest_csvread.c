/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The streaming CSV reader (src/ingest/csvread.c) through pcibw_ingest_file: the line and column
 * of a refused value stay exact however the input falls into reads (errors far past the first
 * 64 KiB, comment lines, CRLF, quoted fields over several lines, a BOM), and the limits hold
 * (a NUL byte, an over-long record). Expected positions are those of the bytes each test
 * writes, counted by construction.
 */
#include "pcibw/ingest.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int count_rows(const struct pcibw_measured *m, void *ctx, struct pcibw_err *err)
{
	(void)m;
	(void)err;
	++*(long *)ctx;
	return PCIBW_OK;
}

/* Write head, `reps` copies of line, then tail to a temporary .csv; ingest it. */
static int ingest(const char *head, const char *line, long reps, const char *tail, size_t tail_len,
		  long *rows, struct pcibw_err *err)
{
	char path[] = "/tmp/pcibw-test-csvread-XXXXXX.csv";
	int fd = mkstemps(path, 4);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	cr_assert(f);
	fputs(head, f);
	for (long i = 0; i < reps; i++)
		fputs(line, f);
	fwrite(tail, 1, tail_len, f);
	cr_assert_eq(fclose(f), 0);
	struct pcibw_ingest_opts o = {0};
	static struct pcibw_ingest_stats st;
	memset(&st, 0, sizeof st);
	*rows = 0;
	int r = pcibw_ingest_file(path, &o, count_rows, rows, &st, err);
	unlink(path);
	return r;
}

static void expect_error_at(const char *head, const char *line, long reps, const char *tail,
			    const char *where, const char *what)
{
	struct pcibw_err err = {0};
	long rows;
	int r = ingest(head, line, reps, tail, strlen(tail), &rows, &err);
	cr_assert_eq(r, PCIBW_EINPUT, "exit %d: %s", r, err.msg);
	cr_assert(strstr(err.msg, where) && strstr(err.msg, what), "expected '%s' and '%s' in: %s", where,
		  what, err.msg);
}

Test(csvread, error_position_past_many_reads)
{
	/* header line 1, 200000 data lines 2..200001, the bad line 200002: "64,1x" -> column 4 */
	expect_error_at("frame_bytes,kpps\n", "64,1000\n", 200000, "64,1x\n",
			":200002:4:", "'1x' is not a number");
	expect_error_at("frame_bytes,kpps\r\n", "64,1000\r\n", 100000, "128,  bad\r\n",
			":100002:5:", "'bad'");
}

Test(csvread, comments_and_blank_lines_count_as_lines)
{
	/* line 1 comment, 2 header, then 30000 x (comment, blank, data): 90000 lines; bad on 90003 */
	expect_error_at("# a comment with a \"quote\nframe_bytes,kpps\n", "# c\n\n64,1000\n", 30000,
			"64,-5\n", ":90003:4:", "negative");
	/* a comment as the last line, without its line end, is still a comment */
	struct pcibw_err err = {0};
	long rows;
	const char tail[] = "# the end";
	cr_assert_eq(ingest("frame_bytes,kpps\n", "64,1000\n", 10, tail, sizeof tail - 1, &rows, &err),
		     PCIBW_OK, "%s", err.msg);
	cr_assert_eq(rows, 10);
}

Test(csvread, quoted_fields_over_lines)
{
	/* each record spans 3 lines ("a\n#x\nb" is one field: '#' inside quotes is data); 40000 records
	 * from line 2: lines 2..120001; the bad record on line 120002, its rate at column 15 */
	expect_error_at("test,frame_bytes,kpps\n", "\"a\n#x\nb\",64,1000\n", 40000, "\"TCP\" ,  128 ,bad\n",
			":120002:15:", "'bad'");
	expect_error_at("frame_bytes,kpps\n", "64,1000\n", 50000, "64,\"1000\n65,1\n",
			":50002:4:", "never closed");
}

Test(csvread, quoted_line_ends_after_plain_reads)
{
	/* 7000 plain lines (2..7001: more than one read without a quote), then one record whose
	 * quoted field holds 20001 line ends and runs across a read (lines 7002..27003), 3 plain
	 * lines (27004..27006) and the bad value on line 27007, column 6 */
	size_t n = 3 + 20000 * 2 + 64;
	char *tail = malloc(n);
	cr_assert(tail);
	size_t o = (size_t)sprintf(tail, "\"a\n");
	for (int i = 0; i < 20000; i++)
		o += (size_t)sprintf(tail + o, "b\n");
	sprintf(tail + o, "c\",64,1000\nx,64,1000\nx,64,1000\nx,64,1000\nx,65,bad\n");
	expect_error_at("test,frame_bytes,kpps\n", "x,64,1000\n", 7000, tail, ":27007:6:", "'bad'");
	free(tail);
}

Test(csvread, bom_and_tabs)
{
	expect_error_at("\xEF\xBB\xBF"
			"frame_bytes,kpps\n",
			"64,1000\n", 3, "64,x\n", ":5:4:", "'x'");
	expect_error_at("frame_bytes\tkpps\n", "64\t1000\n", 70000, " 65\t  y \n", ":70002:5:", "'y'");
}

Test(csvread, limits)
{
	struct pcibw_err err = {0};
	long rows;
	const char nul[] = "64,1\0"
			   "000\n";
	cr_assert_eq(ingest("frame_bytes,kpps\n", "64,1000\n", 30000, nul, sizeof nul - 1, &rows, &err),
		     PCIBW_EINPUT);
	cr_assert(strstr(err.msg, ":30002:5: NUL byte"), "%s", err.msg);
	char *longline = malloc(70002);
	memset(longline, 'a', 70000);
	strcpy(longline + 70000, "\n");
	expect_error_at("frame_bytes,kpps\n", "64,1000\n", 10, longline, ":12:1: record too long",
			"65536 bytes");
	free(longline);
}

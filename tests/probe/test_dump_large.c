/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A dump larger than the scanner's reads (it reads in pieces of 256 KiB and decodes each device
 * as its block ends): positions past the first piece, and which bad device is named. The dump is
 * written here: DEVICES devices of 4096 bytes (lspci -xxxx), device k at 0000:kk:00.0, after one
 * comment line. Device k's slot line is line 2 + 258 k (slot line, 256 rows, blank line); its row
 * r is line 3 + 258 k + r; byte b of a row starts at column 5 + 3 b (rows below 0x100, two-digit
 * offsets) or 6 + 3 b (three digits). Config: 8086:10d3 (class 0x0200) at bytes 0-3 and 0x0a-0x0b;
 * the rest 0 unless a test says otherwise.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEVICES 64 /* about 870 KB */

struct edit {
	int dev, offset;  /* config byte to change */
	const char *text; /* its two characters in the file */
};

static char *write_dump(const struct edit *e, int n, const char *tail)
{
	char *path = strdup("/tmp/pcibw-test-dump-large-XXXXXX");
	cr_assert_not_null(path);
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	cr_assert_not_null(f);
	fprintf(f, "# synthetic: %d devices, lspci -xxxx (tests/probe/test_dump_large.c)\n", DEVICES);
	for (int k = 0; k < DEVICES; k++) {
		fprintf(f, "0000:%02x:00.0 Ethernet controller: Intel Corporation 82574L\n", k);
		unsigned char b[4096] = {0x86, 0x80, 0xd3, 0x10};
		b[0x0a] = 0x00;
		b[0x0b] = 0x02;
		for (int r = 0; r < 4096; r += 16) {
			fprintf(f, r < 256 ? "%02x:" : "%03x:", r);
			for (int i = 0; i < 16; i++) {
				const char *t = NULL;
				for (int j = 0; j < n; j++)
					if (e[j].dev == k && e[j].offset == r + i)
						t = e[j].text;
				if (t)
					fprintf(f, " %s", t);
				else
					fprintf(f, " %02x", b[r + i]);
			}
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	if (tail)
		fputs(tail, f);
	cr_assert_eq(fclose(f), 0);
	return path;
}

static struct run_result report(const char *path, const char *format)
{
	return run_pcibw(NULL, (const char *[]){"report", "--dump", path, "--all", "--format", format, NULL});
}

Test(dump_large, every_device_read)
{
	char *path = write_dump(NULL, 0, NULL);
	struct run_result r = report(path, "csv");
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	int rows = 0;
	for (const char *p = r.out; (p = strchr(p, '\n')); p++)
		rows++;
	cr_expect_eq(rows, 1 + DEVICES, "a header and one row per device: %d lines", rows);
	cr_expect(strstr(r.out, "\n0000:3f:00.0,"), "the last device is there: %s", r.out);
	run_free(&r);
	unlink(path);
	free(path);
}

/* A control character in the last device's row 0x200, byte 7: line 3 + 258 * 63 + 32 = 16289,
 * column 6 + 3 * 7 = 27, about 860 KB into the file. */
Test(dump_large, binary_byte_named_past_the_first_read)
{
	const struct edit e[] = {{63, 0x207, "\001a"}};
	char *path = write_dump(e, 1, NULL);
	struct run_result r = report(path, "json");
	cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	char want[600];
	snprintf(want, sizeof want, "%s:16289:27: binary byte 0x01", path);
	cr_expect(strstr(r.err, want), "got %s want %s", r.err, want);
	cr_expect_str_eq(r.out, "");
	run_free(&r);
	unlink(path);
	free(path);
}

/* The first slot again after the last device: its slot line is line 2 + 258 * 64 = 16514. */
Test(dump_large, duplicate_slot_at_the_end)
{
	char *path = write_dump(NULL, 0,
				"0000:00:00.0 Ethernet controller: again\n00: 86 80 d3 10 00 00 00 00 "
				"00 00 00 02 00 00 00 00\n");
	struct run_result r = report(path, "text");
	cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	char want[600];
	snprintf(want, sizeof want, "%s:16514:1: duplicate slot 0000:00:00.0 (first at line 2)", path);
	cr_expect(strstr(r.err, want), "got %s want %s", r.err, want);
	run_free(&r);
	unlink(path);
	free(path);
}

/* Devices 5 and 40 say they have a capability list (Status bit 4, byte 6) whose pointer (byte
 * 0x34) is 0x10, inside the header. libpci's device list runs from the file's last device, so
 * device 40 is the one named: row 0x30 at line 3 + 258 * 40 + 3 = 10326, byte 4 at column 17. */
Test(dump_large, last_bad_device_named)
{
	const struct edit e[] = {{5, 6, "10"}, {5, 0x34, "10"}, {40, 6, "10"}, {40, 0x34, "10"}};
	char *path = write_dump(e, 4, NULL);
	struct run_result r = report(path, "text");
	cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	char want[600];
	snprintf(want, sizeof want,
		 "%s:10326:17: 0000:28:00.0: capability pointer 0x10 points into the header", path);
	cr_expect(strstr(r.err, want), "got %s want %s", r.err, want);
	run_free(&r);
	unlink(path);
	free(path);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Malformed dumps: exit code 3 (contract, "Exit codes") and a message naming file:line:column
 * and what was expected. One synthetic file each in tests/data/bad/; the expected positions
 * were counted by hand from each file (its header repeats them): rows are "OO: " then " XX"
 * x16, so byte k of a row starts at column 5 + 3k (2-digit offsets) or 6 + 3k (3-digit).
 */
#include "support.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void bad(const char *name, const char *where_what)
{
	char path[512], want[700];
	snprintf(path, sizeof path, "bad/%s", name);
	const char *file = test_data(path);
	size_t len0 = 0;
	char *before = slurp(file, &len0);
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--dump", file, NULL});
	cr_assert_eq(r.status, 3, "%s: exit %d (stderr: %s)", name, r.status, r.err);
	snprintf(want, sizeof want, "%s:%s", file, where_what);
	cr_assert(strstr(r.err, want), "%s:\n  got:  %s  want: %s", name, r.err, want);
	cr_assert_str_eq(r.out, "", "%s: nothing on stdout", name);
	/* pcibw only reads its input */
	size_t len1 = 0;
	char *after = slurp(file, &len1);
	cr_assert(len0 == len1 && !memcmp(before, after, len0));
	free(before);
	free(after);
	run_free(&r);
}

Test(dump_bad, truncated_row)
{
	bad("synthetic-bad-truncated-row.lspci", "7:40: 12 bytes on this row: expected 16");
}
Test(dump_bad, non_hex_byte)
{
	bad("synthetic-bad-nonhex.lspci", "6:20: 'z' is not a hex digit");
}
Test(dump_bad, non_hex_offset)
{
	bad("synthetic-bad-nonhex-offset.lspci", "8:1: unexpected text: expected a hex row");
}
Test(dump_bad, odd_digit_count)
{
	bad("synthetic-bad-odd-digits.lspci", "5:11: 'e' has 1 hex digit: expected two per byte");
}
Test(dump_bad, offset_out_of_order)
{
	bad("synthetic-bad-offset-order.lspci", "7:1: offset 0x30 out of order: expected 0x20");
}
Test(dump_bad, offset_past_4096)
{
	bad("synthetic-bad-offset-4096.lspci", "9:1: offset 0x1000 is past the 4096 bytes");
}
Test(dump_bad, duplicate_slot)
{
	bad("synthetic-bad-duplicate-slot.lspci", "22:1: duplicate slot 00:03.0 (first at line 4)");
}
Test(dump_bad, empty_file)
{
	bad("synthetic-bad-empty.lspci", "1:1: empty file");
}
Test(dump_bad, comments_only)
{
	bad("synthetic-bad-no-device.lspci", "3:1: no device in the file");
}
Test(dump_bad, binary_file)
{
	bad("synthetic-bad-binary.lspci", "4:1: binary byte 0x7f");
}
Test(dump_bad, truncated_dump)
{
	bad("synthetic-bad-truncated-dump.lspci", "13:51: config dump of 0000:00:03.0 stops after 144 bytes");
}
Test(dump_bad, unterminated_last_line)
{
	bad("synthetic-bad-unterminated.lspci", "20:52: last line has no newline");
}
Test(dump_bad, line_too_long)
{
	bad("synthetic-bad-long-line.lspci", "5:254: line longer than 253 characters");
}
Test(dump_bad, cap_list_loops)
{
	bad("synthetic-bad-cap-loop.lspci", "10:8: 0000:00:03.0: capability list loops back to 0x40");
}
Test(dump_bad, cap_points_into_header)
{
	bad("synthetic-bad-cap-into-header.lspci",
	    "8:17: 0000:00:03.0: capability pointer 0x20 points into the header");
}
Test(dump_bad, ext_cap_outside_config)
{
	bad("synthetic-bad-extcap-outside.lspci",
	    "21:12: 0000:00:03.0: extended capability pointer 0x080 is outside extended config space");
}
Test(dump_bad, device_reads_ffff)
{
	bad("synthetic-bad-ffff.lspci", "5:5: 0000:00:03.0: vendor id reads 0xffff");
}

Test(dump_bad, missing_file)
{
	const char *file = test_data("bad/no-such-file.lspci");
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--dump", file, NULL});
	cr_assert_eq(r.status, 3);
	cr_assert(strstr(r.err, file) && strstr(r.err, "No such file"), "stderr: %s", r.err);
	run_free(&r);
}

Test(dump_bad, directory_is_bad_input)
{
	const char *dir = test_data("bad");
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--dump", dir, NULL});
	cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, dir), "stderr: %s", r.err);
	run_free(&r);
}

/* lib/dump.c reads lines with fgets(buf, 255): 254 characters with the newline, so 254 before
 * the newline must be refused here, with a position, before libpci fails with "line too long"
 * and none. */
Test(dump_bad, line_of_254_characters)
{
	bad("synthetic-bad-line-254.lspci", "5:254: line longer than 253 characters");
	bad("synthetic-bad-long-line.lspci", "5:254: line longer than 253 characters");
}

/* lib/dump.c takes one character after a byte, and only a space; more trailing blanks would make
 * libpci fail with "Malformed line" and no position. */
Test(dump_bad, two_trailing_spaces)
{
	bad("synthetic-bad-trailing-spaces.lspci", "6:53: trailing spaces after the 16th byte");
}

/* PCI LB 3.0 sec. 6.2.1: header types 0, 1, 2; the capability pointer of any other layout is
 * unknown, so a type-5 header's byte 0x34 must not be walked as a capability list. */
Test(dump_bad, unknown_header_type)
{
	bad("synthetic-bad-header-type.lspci", "5:47: 0000:00:03.0: header type 0x05");
}

/* A capability whose registers run past 0xff: dropping it from a 256-byte dump would make the
 * device look conventional, and in a 4096-byte one it would be read from extended config space. */
Test(dump_bad, capability_past_0xff)
{
	bad("synthetic-bad-pcix-cap-past-ff.lspci",
	    "20:41: 0000:00:03.0: PCI-X capability at 0xfc needs 0x08 bytes");
	bad("synthetic-bad-pcie-cap-past-ff.lspci",
	    "19:5: 0000:00:03.0: PCI Express capability at 0xe0 needs 0x34 bytes");
}

/* Bridges whose bus numbers loop would make every path repeat the two bridges until the walk's
 * step limit; two bridges claiming one bus would make the parent depend on the order of the file. */
Test(dump_bad, bridge_bus_numbers)
{
	bad("synthetic-bad-bridge-loop.lspci",
	    "24:32: 0000:02:00.0: bridge bus numbers secondary 01, subordinate 01 on bus 02");
	bad("synthetic-bad-bridge-dup-secondary.lspci",
	    "24:32: 0000:00:1c.1: secondary bus 01 is also the secondary bus of bridge 0000:00:1c.0");
}

/* The dump is read twice (the scanner, then libpci): a FIFO would block the first open forever
 * when nobody writes to it, and be empty the second time: refused at once. */
Test(dump_bad, fifo_is_refused_without_blocking)
{
	char dir[] = "/tmp/pcibw-dump-bad-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char fifo[128];
	snprintf(fifo, sizeof fifo, "%s/dump.lspci", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--dump", fifo, NULL});
	unlink(fifo);
	rmdir(dir);
	cr_assert_eq(r.status, 3, "exit %d (124+128 is a hang), stderr: %s", r.status, r.err);
	cr_assert(strstr(r.err, fifo) && strstr(r.err, "pipe or FIFO"), "stderr: %s", r.err);
	run_free(&r);
}

Test(dump_bad, directory_is_refused)
{
	const char *d = test_data("bad");
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--dump", d, NULL});
	cr_assert_eq(r.status, 3, "exit %d, stderr: %s", r.status, r.err);
	cr_assert(strstr(r.err, d) && strstr(r.err, "is a directory"), "stderr: %s", r.err);
	run_free(&r);
}

/* A missing option value is a usage error naming the option, not "unknown option '--dump'"
 * (contract: usage, exit 2). */
Test(dump_bad, missing_option_value)
{
	const char *const cases[][3] = {{"--dump", NULL, "'--dump' needs a value"},
					{"-s", NULL, "'-s' needs a value"},
					{"--format", NULL, "'--format' needs a value"}};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct run_result r = run_pcibw(NULL, (const char *[]){"report", cases[i][0], NULL});
		cr_assert_eq(r.status, 2, "%s: exit %d", cases[i][0], r.status);
		cr_assert(strstr(r.err, cases[i][2]), "%s: stderr: %s", cases[i][0], r.err);
		run_free(&r);
	}
}

/* --dump= names no file: the message says so rather than "pcibw: : cannot open". */
Test(dump_bad, empty_file_name)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--dump=", NULL});
	cr_assert_eq(r.status, 3, "exit %d", r.status);
	cr_assert(strstr(r.err, "empty file name"), "stderr: %s", r.err);
	run_free(&r);
}

/* A UTF-8 byte order mark before a dump (an editor's save) is not text to refuse: the report of
 * the dump read from standard input is the same with it as without it, device for device. */
Test(dump_bad, utf8_bom_is_skipped)
{
	size_t len = 0;
	char *plain = slurp(test_data("hwloc-dell-r910-4n-bcm5709-qib.lspci"), &len);
	char path[] = "/tmp/pcibw-bom-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, "\xef\xbb\xbf", 3), 3);
	cr_assert_eq(write(fd, plain, len), (ssize_t)len);
	close(fd);
	struct run_result a = run_pcibw(test_data("hwloc-dell-r910-4n-bcm5709-qib.lspci"),
					(const char *[]){"report", "--all", "--dump", "-", NULL});
	struct run_result b = run_pcibw(path, (const char *[]){"report", "--all", "--dump", "-", NULL});
	unlink(path);
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_assert_eq(b.status, 0, "with a BOM: exit %d: %s", b.status, b.err);
	cr_assert_str_eq(b.out, a.out);
	cr_assert_str_eq(b.err, a.err);
	free(plain);
	run_free(&a);
	run_free(&b);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Review of issue 2 (engineer F): malformed dumps the first scanner let through to libpci (which
 * then failed with no position, or read the wrong bytes) or into the tree. Each must give exit
 * code 3 (contract, "Exit codes") and file:line:column. Expected positions were counted by hand
 * from each file (its header repeats them; tests/data/synthetic-lspci-gen.py writes them): rows
 * are "OO: " then " XX" x16, so byte k of a row starts at column 5 + 3k.
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
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--dump", file, NULL});
	cr_assert_eq(r.status, 3, "%s: exit %d (stderr: %s)", name, r.status, r.err);
	snprintf(want, sizeof want, "%s:%s", file, where_what);
	cr_assert(strstr(r.err, want), "%s:\n  got:  %s  want: %s", name, r.err, want);
	cr_assert_str_eq(r.out, "", "%s: nothing on stdout", name);
	run_free(&r);
}

/* lib/dump.c reads lines with fgets(buf, 255): 254 characters with the newline. Before the fix
 * the scanner allowed 254 before the newline, and libpci failed with "line too long" and no
 * position. */
Test(review_dump, line_of_254_characters)
{
	bad("synthetic-bad-line-254.lspci", "5:254: line longer than 253 characters");
	bad("synthetic-bad-long-line.lspci", "5:254: line longer than 253 characters");
}

/* lib/dump.c takes one character after a byte, and only a space; the scanner skipped any number
 * of trailing blanks, and libpci then failed with "Malformed line". */
Test(review_dump, two_trailing_spaces)
{
	bad("synthetic-bad-trailing-spaces.lspci", "6:53: trailing spaces after the 16th byte");
}

/* PCI LB 3.0 sec. 6.2.1: header types 0, 1, 2; the capability pointer of any other layout is
 * unknown. Before the fix a type-5 header's byte 0x34 was walked as a capability list. */
Test(review_dump, unknown_header_type)
{
	bad("synthetic-bad-header-type.lspci", "5:47: 0000:00:03.0: header type 0x05");
}

/* A capability whose registers run past 0xff: dropped silently from a 256-byte dump (the device
 * then looked conventional) and, in a 4096-byte one, read from extended config space. */
Test(review_dump, capability_past_0xff)
{
	bad("synthetic-bad-pcix-cap-past-ff.lspci",
	    "20:41: 0000:00:03.0: PCI-X capability at 0xfc needs 0x08 bytes");
	bad("synthetic-bad-pcie-cap-past-ff.lspci",
	    "19:5: 0000:00:03.0: PCI Express capability at 0xe0 needs 0x34 bytes");
}

/* Bridges whose bus numbers loop made every path repeat the two bridges until the walk's step
 * limit; two bridges claiming one bus made the parent depend on the order of the file. */
Test(review_dump, bridge_bus_numbers)
{
	bad("synthetic-bad-bridge-loop.lspci",
	    "24:32: 0000:02:00.0: bridge bus numbers secondary 01, subordinate 01 on bus 02");
	bad("synthetic-bad-bridge-dup-secondary.lspci",
	    "24:32: 0000:00:1c.1: secondary bus 01 is also the secondary bus of bridge 0000:00:1c.0");
}

/* The dump is read twice (the scanner, then libpci): a FIFO blocked the first open forever when
 * nobody wrote to it, and would be empty the second time. Now refused at once. */
Test(review_dump, fifo_is_refused_without_blocking)
{
	char dir[] = "/tmp/pcibw-review-XXXXXX";
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

Test(review_dump, directory_is_refused)
{
	const char *d = test_data("bad");
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--dump", d, NULL});
	cr_assert_eq(r.status, 3, "exit %d, stderr: %s", r.status, r.err);
	cr_assert(strstr(r.err, d) && strstr(r.err, "is a directory"), "stderr: %s", r.err);
	run_free(&r);
}

/* A missing option value was reported as "unknown option '--dump'" (contract: usage, exit 2). */
Test(review_dump, missing_option_value)
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

/* --dump= named no file: the message was "pcibw: : cannot open". */
Test(review_dump, empty_file_name)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--dump=", NULL});
	cr_assert_eq(r.status, 3, "exit %d", r.status);
	cr_assert(strstr(r.err, "empty file name"), "stderr: %s", r.err);
	run_free(&r);
}

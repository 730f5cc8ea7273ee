/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file's own "# bus:" line is taken wherever it lies in the head (the comment and blank lines
 * before the first record), however long the head: after many comment lines, after more than the
 * 64 KiB a piped input is read ahead by, after a comment line longer than a '# bus:' line may be.
 * A piped standard input is read ahead by a bounded 65536 bytes (its memory stays bounded however
 * long the stream): a line past them is refused naming its line and that bound. Expected values:
 * the bus line each input carries (canonical spec with the contract's defaults mps=128, mrrs=512,
 * rcb=64) and the line numbers the inputs are built with.
 */
#include "analyze_support.h"

/* a CSV of n comment lines of 41 bytes each ("# ... padded.\n"), then "# bus: gen2x8" and one row */
static void write_head(FILE *f, int n)
{
	for (int i = 0; i < n; i++)
		fputs("# a comment line of forty bytes, padded.\n", f);
	fputs("# bus: gen2x8\nframe_bytes,pps\n64,1000\n", f);
}

static const char *head_file(int n)
{
	static char path[128];
	snprintf(path, sizeof path, "/tmp/pcibw-head-%d-%d.csv", (int)getpid(), n);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	write_head(f, n);
	cr_assert_eq(fclose(f), 0);
	return path;
}

static void bus_from_is(json_t *j, const char *from)
{
	cr_assert_str_eq(jstr(j, "bus"), "gen2x8,mps=128,mrrs=512,rcb=64");
	cr_assert_str_eq(jstr(j, "bus_from"), from);
}

/* 69 comment lines (past the 64 once looked at), then 2000 (82000 bytes, past 64 KiB) */
Test(head, bus_line_anywhere_in_a_files_head)
{
	const int counts[] = {69, 2000};
	for (int i = 0; i < 2; i++) {
		const char *csv = head_file(counts[i]);
		json_t *j = analyze_json(NULL, (const char *[]){"analyze", csv, "--json", NULL});
		char from[200];
		snprintf(from, sizeof from, "%s:%d", csv, counts[i] + 1);
		bus_from_is(j, from);
		json_decref(j);
		unlink(csv);
	}
}

/* a comment of 5002 bytes (no '# bus:' line, so no bound applies to it) before the bus line on
 * line 3 (a blank line 2, CRLF on line 3) */
Test(head, bus_line_after_a_long_comment)
{
	char big[5003];
	memset(big, 'x', sizeof big - 1);
	big[0] = '#';
	big[1] = ' ';
	big[sizeof big - 1] = '\0';
	char text[5100];
	snprintf(text, sizeof text, "%s\n\n# bus: gen2x8\r\nframe_bytes,pps\n64,1000\n", big);
	const char *csv = temp_file(text, ".csv");
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", csv, "--json", NULL});
	char from[200];
	snprintf(from, sizeof from, "%s:3", csv);
	bus_from_is(j, from);
	json_decref(j);
	unlink(csv);
}

/* piped: 1500 lines of 41 bytes (61500 bytes) leave the bus line within the read-ahead; 2000 do
 * not: 65536 / 41 = 1598 whole lines are in it, the bus line is line 2001 */
Test(head, piped_head_is_read_ahead_65536_bytes)
{
	const char *csv = head_file(1500);
	char script[512];
	snprintf(script, sizeof script, "cat '%s' | \"$PCIBW_EXE\" analyze - --json", csv);
	struct run_result r = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_error_t e;
	json_t *j = json_loads(r.out, 0, &e);
	cr_assert(j, "%s", e.text);
	bus_from_is(j, "standard input:1501");
	json_decref(j);
	run_free(&r);
	unlink(csv);

	csv = head_file(2000);
	snprintf(script, sizeof script, "cat '%s' | \"$PCIBW_EXE\" analyze -", csv);
	r = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
	cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "standard input:2001:1: the file's '# bus:' line comes after the first "
				"65536 bytes (1598 whole lines) a piped input is read ahead by"),
		  "%s", r.err);
	cr_assert(strstr(r.err, "save the input to a file"), "%s", r.err);
	cr_assert_str_empty(r.out, "%s", r.out);
	run_free(&r);
	/* the same bytes as a file on standard input (a redirect): read whole, accepted */
	snprintf(script, sizeof script, "\"$PCIBW_EXE\" analyze - --json < '%s'", csv);
	r = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	j = json_loads(r.out, 0, &e);
	cr_assert(j, "%s", e.text);
	bus_from_is(j, "standard input:2001");
	json_decref(j);
	run_free(&r);
	unlink(csv);
}

/* A leading "# bus:" line's bus spec or profile that does not parse is bad input at its place
 * (doc/cli-contract.md "watch", CSV: "a value that does not parse is exit 3 naming
 * FILE:LINE:COLUMN"), as its cpus or cpu_mhz are: not a usage error without the file. MPS is
 * one of 128..4096 (PCIe Base sec. 7.5.3.4), so mps=99 is none; no profile is named 'nosuch'. */
Test(head, a_bus_or_nic_in_the_head_that_does_not_parse_is_named)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"# c\n# bus: gen3x8,mps=99 cpus: 2\nframe_bytes,pps\n64,1000\n", ":2:8: bus 'gen3x8,mps=99': "},
	    {"# bus: gen3x8 nic: nosuch\nframe_bytes,pps\n64,1000\n", ":1:20: nic 'nosuch': "},
	    {"# bus: virtual nic: virtio-net\nframe_bytes,pps\n64,1000\n", NULL},
	    /* a key given twice: refused as an option given twice is, never the last one silently
	     * (either order), in the head and mid-file */
	    {"# bus: gen3x8 line_rate: 10G line_rate: 1G\nframe_bytes,pps\n64,1000\n",
	     ":1:30: 'line_rate:' given twice on one '# bus:' line"},
	    {"# bus: gen3x8 line_rate: 1G line_rate: 10G\nframe_bytes,pps\n64,1000\n",
	     ":1:29: 'line_rate:' given twice on one '# bus:' line"},
	    {"# bus: gen3x8\nframe_bytes,pps\n64,1000\n# bus: gen3x8 bus: gen2x8\n64,2000\n",
	     ":4:15: 'bus:' given twice on one '# bus:' line"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *csv = tmp_text(".csv", cases[i].text);
		struct run_result r = run_args((const char *[]){"analyze", csv, NULL});
		if (!cases[i].want) {
			cr_expect_eq(r.status, 0, "case %u: %s", i, r.err);
		} else {
			cr_expect_eq(r.status, 3, "case %u: exit %d: %s", i, r.status, r.err);
			cr_expect(strstr(r.err, csv) && strstr(r.err, cases[i].want), "case %u: %s", i,
				  r.err);
		}
		run_free(&r);
		unlink(csv);
	}
}

/* A file without a newline is not read to its end before its first bytes are judged: a sparse
 * file of 1 TiB (holes read as NUL bytes) whose head reading went on to the end would take
 * minutes (4 GiB took 65539 reads); each is refused at its first NUL, within run_pcibw's limit.
 * The first byte: none (a NUL at 1:1), a value, a comment. */
Test(head, a_newline_free_file_is_refused_at_its_first_bytes)
{
	static const struct {
		const char *first, *want;
	} cases[] = {{"", ":1:1: NUL byte"}, {"6", ":1:2: NUL byte"}, {"#", ":1:2: NUL byte"}};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[64], script[1024];
		snprintf(path, sizeof path, "/tmp/pcibw-head-sparse-%d.csv", (int)getpid());
		snprintf(script, sizeof script,
			 "printf '%s' > %s && truncate -s 1T %s && \"$PCIBW_EXE\" analyze %s --bus gen3x8; "
			 "rc=$?; rm -f %s; exit $rc",
			 cases[i].first, path, path, path, path);
		struct run_result r = run_cmd(NULL, (const char *[]){"bash", "-c", script, NULL});
		cr_expect_eq(r.status, 3, "case %u: exit %d (252 is a hang): %s", i, r.status, r.err);
		cr_expect(strstr(r.err, path) && strstr(r.err, cases[i].want), "case %u: %s", i, r.err);
		run_free(&r);
	}
}

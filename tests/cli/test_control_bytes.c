/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A message on standard error that quotes a file name, a command-line argument or an input token
 * shows each control byte of it (below 0x20, and 0x7f) as \xHH (doc/cli-contract.md "Exit
 * codes"): a crafted name can neither forge a line (a newline, a carriage return) nor move the
 * cursor or retitle the terminal (an escape sequence). Each case checks the escaped form is
 * there and that no raw control byte but the line ends is.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void no_raw_control(const char *err, const char *what)
{
	for (const unsigned char *p = (const unsigned char *)err; *p; p++)
		cr_assert(*p == '\n' || (*p >= 0x20 && *p != 0x7f), "%s: raw byte 0x%02x in stderr: %s", what,
			  *p, err);
}

static void check(const char *const *args, int want_exit, const char *want, const char *what)
{
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, want_exit, "%s: exit %d: %s", what, r.status, r.err);
	cr_assert(strstr(r.err, want), "%s: stderr lacks '%s': %s", what, want, r.err);
	no_raw_control(r.err, what);
	run_free(&r);
}

Test(control_bytes, file_name_that_cannot_be_opened)
{
	check((const char *[]){"analyze", "/nonexistent/a\x1b[2J\rforged line", NULL}, 3,
	      "/nonexistent/a\\x1b[2J\\x0dforged line", "analyze FILE");
	check((const char *[]){"report", "--dump", "/nonexistent/d\nfake: error", NULL}, 3,
	      "/nonexistent/d\\x0afake: error", "report --dump FILE");
}

Test(control_bytes, command_line_values)
{
	/* the escape sequence that sets the terminal's title, in a bus spec */
	check((const char *[]){"model", "--bus", "gen3\x1b]0;owned\x07", NULL}, 2, "'gen3\\x1b]0;owned\\x07'",
	      "--bus");
	check((const char *[]){"model", "--bus", "gen3x8", "--sizes", "64,\x1b[1A", NULL}, 2, "\\x1b[1A",
	      "--sizes");
	check((const char *[]){"analyze", "--x\x1b[2J", "f.csv", NULL}, 2, "\\x1b[2J", "unknown option");
}

Test(control_bytes, input_tokens)
{
	/* a rate token (the file of tests/data/bad) */
	check((const char *[]){"analyze", test_data("bad/synthetic-bad-csv-control-bytes.csv"), "--bus",
			       "gen3x8", NULL},
	      3, "'10\\x1b[2J\\x7f00' is not a number", "CSV rate");
	/* a value on a '# bus:' line, and a column name in a warning (JSON output: on stderr) */
	const char *bus =
	    temp_file("# bus: gen3x8 line_rate: 10G\x1b[2J\nframe_bytes,kpps\n64,1000\n", ".csv");
	check((const char *[]){"analyze", bus, NULL}, 3, "'10G\\x1b[2J'", "# bus: line");
	const char *col = temp_file("frame_bytes,kpps,\x1b[2Jcpu\n64,1000,1\n", ".csv");
	check((const char *[]){"analyze", col, "--bus", "gen3x8,mps=256", "--json", NULL}, 0,
	      "column '\\x1b[2Jcpu' not used", "CSV column warning");
	/* an iperf3 JSON string quoted in a refusal */
	const char *ip = temp_file(
	    "{\"start\": {\"test_start\": {\"protocol\": \"\\u001b[2JTCP\"}}, \"end\": {}}\n", ".json");
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", ip, "--bus", "gen3x8", NULL});
	cr_assert_neq(r.status, 0, "%s", r.err);
	no_raw_control(r.err, "iperf3 JSON");
	run_free(&r);
	unlink(bus);
	unlink(col);
	unlink(ip);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bad input and scale: malformed CSV or JSON exits 3 naming file:line:column and what
 * was expected; NaN, negative and absurd values are refused; skipped lines are counted and
 * reported; usage errors exit 2; and a >= 200 MB CSV piped through '-' is read in constant memory.
 * Each synthetic-bad-* fixture's first line says where its fault is; the tests check that place.
 */
#include "analyze_support.h"
#include <stdio.h>
#include <sys/wait.h>

static void expect_input_error(const char *file, const char *where, const char *words)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", test_data(file), NULL});
	cr_assert_eq(r.status, 3, "%s: exit %d (%s)", file, r.status, r.err);
	char loc[512];
	snprintf(loc, sizeof loc, "%s%s", test_data(file), where);
	cr_assert(strstr(r.err, loc), "%s: stderr lacks '%s': %s", file, loc, r.err);
	cr_assert(strstr(r.err, "expected"), "%s: says what was expected: %s", file, r.err);
	if (words)
		cr_assert(strstr(r.err, words), "%s: stderr lacks '%s': %s", file, words, r.err);
	run_free(&r);
}

Test(bad_input, malformed_csv)
{
	expect_input_error("analyze/synthetic-bad-quote.csv", ":4:6:", "malformed CSV");
	expect_input_error("analyze/synthetic-bad-unterminated.csv", ":3:4:", "never closed");
	expect_input_error("analyze/synthetic-bad-number.csv", ":4:5:", "'fast' is not a number");
	expect_input_error("analyze/synthetic-bad-unknown-unit.csv", ":2:13:", "rate_GiB/s");
	expect_input_error("analyze/synthetic-bad-no-rate.csv", ":2:1:", "no rate column");
}

Test(bad_input, refused_values)
{
	expect_input_error("analyze/synthetic-bad-nan.csv", ":3:4:", "not a finite number");
	expect_input_error("analyze/synthetic-bad-negative.csv", ":3:8:", "negative");
	expect_input_error("analyze/synthetic-bad-absurd.csv", ":4:5:", "out of range");
	expect_input_error("analyze/synthetic-bad-cpu-over-100.csv", ":3:8:", "share of all CPUs");
}

Test(bad_input, malformed_json)
{
	expect_input_error("analyze/synthetic-bad-iperf3-truncated.json", ":11:", "malformed JSON");
}

Test(bad_input, unreadable_file)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", "/nonexistent/x.csv", NULL});
	cr_assert_eq(r.status, 3);
	cr_assert(strstr(r.err, "/nonexistent/x.csv"));
	run_free(&r);
}

/* Lines 5 (3 fields for 2) and 7 (no rate) are skipped, counted and reported; 3 rows remain. */
Test(bad_input, skipped_lines_reported)
{
	json_t *j =
	    analyze_json(NULL, (const char *[]){"analyze", test_data("analyze/synthetic-skipped-lines.csv"),
						"--json", NULL});
	assert_close(jnum(j, "skipped_lines"), 2, 0);
	json_t *in = json_array_get(json_object_get(j, "inputs"), 0);
	cr_assert(strstr(jstr(in, "first_skipped"), "synthetic-skipped-lines.csv:5:"), "%s",
		  jstr(in, "first_skipped"));
	assert_close(jnum(in, "lines"), 5, 0);
	cr_assert_eq(json_array_size(json_object_get(j, "rows")), 3);
	json_decref(j);
	struct run_result r = run_pcibw(
	    NULL, (const char *[]){"analyze", test_data("analyze/synthetic-skipped-lines.csv"), NULL});
	cr_assert_eq(r.status, 0);
	char *flat = squash_space(r.out); /* the input line wraps where its path's length puts it */
	cr_assert(flat && strstr(flat, "2 skipped") && strstr(flat, "2 input line(s) skipped"), "%s", r.out);
	free(flat);
	run_free(&r);
}

/* '-' reads standard input, with the same result as the file. */
Test(bad_input, stdin_dash)
{
	json_t *j = analyze_json(test_data("bench/ostinato-40g-libpcap-txrx.csv"),
				 (const char *[]){"analyze", "-", "--line-rate", "40G", "--json", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "cpu-bound");
	cr_assert_eq(json_array_size(json_object_get(j, "rows")), 16, "8 lines x send, recv");
	cr_assert_str_eq(jstr(find_row(j, 64, "send", NULL), "source"), "-");
	json_decref(j);
}

Test(bad_input, usage_errors)
{
	const char *const cases[][6] = {
	    {"analyze", NULL},
	    {"analyze", "x.csv", "--col", "nonsense=Speed", NULL},
	    {"analyze", "x.csv", "--col", "gbps", NULL},
	    {"analyze", "x.csv", "--threshold", "bus=abc", NULL},
	    {"analyze", "x.csv", "--threshold", "nosuch=1", NULL},
	    {"analyze", "x.csv", "--rate-basis", "bits", NULL},
	    {"analyze", "x.csv", "--bus", "gen3x3", NULL},
	    {"analyze", "x.csv", "--cpus", "0", NULL},
	    {"analyze", "x.csv", "--segment-devices", "0", NULL},
	    {"analyze", "x.csv", "--input-format", "xml", NULL},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct run_result r = run_pcibw(NULL, cases[i]);
		cr_assert_eq(r.status, 2, "case %u: exit %d (%s)", i, r.status, r.err);
		run_free(&r);
	}
}

/* --threshold moves a verdict: case C's bus is 95 % busy, io-bound at bus=0.85 but not at 0.99. */
Test(bad_input, threshold_option)
{
	const char *base[] = {"analyze",      test_data("analyze/synthetic-case-c-dge530t-pci33.csv"),
			      "--bus",	      "pci33/32",
			      "--pattern",    "tx",
			      "--rate-basis", "payload",
			      "--json",	      NULL,
			      NULL,	      NULL};
	json_t *j = analyze_json(NULL, base);
	cr_assert_str_eq(jstr(j, "verdict"), "io-bound");
	json_decref(j);
	base[9] = "--threshold";
	base[10] = "bus=0.99";
	j = analyze_json(NULL, base);
	cr_assert_str_neq(jstr(j, "verdict"), "io-bound");
	json_decref(j);
}

/*
 * Constant memory: a generated CSV of >= 200 MB (6 sizes x N lines, 1000 kpps each), piped through
 * '-'. Without ASan the address space is capped at 128 MiB with prlimit, below the file's size;
 * under ASan (whose shadow memory needs terabytes of address space) the peak RSS is checked instead.
 * The answer is checked too: N lines per size, 1 Mpps each, and a flat packet rate: cpu-bound.
 */
Test(scale, constant_memory_200mb)
{
	/* unique names: other build directories may run this test at the same time */
	char csv[] = "/tmp/pcibw-test-200mb-XXXXXX", out[] = "/tmp/pcibw-test-200mb-out-XXXXXX";
	int fd = mkstemp(csv), ofd = mkstemp(out);
	cr_assert(fd >= 0 && ofd >= 0);
	close(ofd);
	FILE *f = fdopen(fd, "w");
	cr_assert(f);
	const char block[] = "64,1000\n128,1000\n256,1000\n512,1000\n1024,1000\n1518,1000\n";
	fputs("# generated by test_analyze_bad_input.c: 6 sizes at 1000 kpps, repeated\nframe_bytes,kpps\n",
	      f);
	char buf[sizeof block * 1024];
	for (int i = 0; i < 1024; i++)
		memcpy(buf + i * (sizeof block - 1), block, sizeof block - 1);
	size_t chunk = (sizeof block - 1) * 1024;
	long reps = 0;
	size_t total = 0;
	while (total < 200u * 1000 * 1000) {
		cr_assert_eq(fwrite(buf, 1, chunk, f), chunk, "cannot write %s", csv);
		total += chunk;
		reps += 1024;
	}
	cr_assert_eq(fclose(f), 0);
	char cmd[1024];
#if defined(__SANITIZE_ADDRESS__)
	snprintf(cmd, sizeof cmd,
		 "cat %s | /usr/bin/time -f 'maxrss_kb=%%M' -o %s.rss %s analyze - --json > %s", csv, out,
		 getenv("PCIBW_EXE"), out);
#else
	snprintf(cmd, sizeof cmd, "cat %s | prlimit --as=%d %s analyze - --json > %s", csv, 128 << 20,
		 getenv("PCIBW_EXE"), out);
#endif
	int st = system(cmd);
	unlink(csv);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "'%s' failed: %d", cmd, st);
#if defined(__SANITIZE_ADDRESS__)
	char rssf[256];
	snprintf(rssf, sizeof rssf, "%s.rss", out);
	char *rs = slurp(rssf, NULL);
	long kb = -1;
	cr_assert(rs && strstr(rs, "maxrss_kb=") && sscanf(strstr(rs, "maxrss_kb=") + 10, "%ld", &kb) == 1);
	cr_assert_lt(kb, 128L << 10, "peak RSS %ld kB for a %zu-byte input", kb, total);
	free(rs);
	unlink(rssf);
#endif
	char *text = slurp(out, NULL);
	unlink(out);
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);
	free(text);
	cr_assert(j, "%s", e.text);
	cr_assert_eq(json_array_size(json_object_get(j, "rows")), 6);
	json_t *r;
	size_t i;
	json_array_foreach(json_object_get(j, "rows"), i, r)
	{
		assert_close(jnum(r, "count"), reps, 0);
		assert_close(jnum(r, "measured_mpps"), 1.0, 1e-12);
	}
	cr_assert_str_eq(jstr(j, "verdict"), "cpu-bound");
	json_decref(j);
}

/* A packet count from iperf3 is held to the packet-rate limit (10^10 pps, pcibw/ingest.h):
 * 10^15 packets in 1 s is refused, not shown as "8.19e+09 Gbit/s". */
Test(bad_input_iperf3, absurd_packet_count_refused)
{
	const char *p = tmp_text(
	    ".json", "{\"start\":{\"test_start\":{\"protocol\":\"UDP\",\"blksize\":1024,\"reverse\":0}},"
		     "\"end\":{\"sum_sent\":{\"bits_per_second\":1e9,\"seconds\":1,\"packets\":1e15}}}\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, NULL, "out of range");
	unlink(p);
}

/* /dev/zero (no line end ever) must not grow libcsv's buffer without bound: exit 3 at once. A
 * device is no measurement file; fed through a pipe, its first byte is named. */
Test(bad_input_csv, dev_zero_refused_at_once)
{
	expect_exit3((const char *[]){"analyze", "/dev/zero", NULL}, "/dev/zero", ": is a device", "device");
	struct run_result r = run_cmd(
	    NULL, (const char *[]){"sh", "-c", "head -c 4096 /dev/zero | \"$PCIBW_EXE\" analyze -", NULL});
	cr_assert_eq(r.status, 3, "exit %d, stderr: %s", r.status, r.err);
	cr_assert(strstr(r.err, ":1:1:") && strstr(r.err, "NUL byte"), "stderr: %s", r.err);
	run_free(&r);
}

/* A NUL byte inside a field would cut it short ("1<NUL>2" kpps read as 1 kpps): exit 3 at line 2, column 5
 * (the byte after "64,1"). */
Test(bad_input_csv, nul_byte_in_field_refused)
{
	const char data[] = "frame_bytes,kpps\n64,1\0002\n";
	const char *p = tmp_with(".csv", data, sizeof data - 1);
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:5:", "NUL byte");
	unlink(p);
}

/* The same for netperf's text output: a NUL byte or an endless line is refused, never hangs. */
Test(bad_input_netperf, nul_and_endless_line_refused)
{
	const char data[] = "Recv   Send    Send\n87380 16384\0 16384 10.00 941.50\n";
	const char *p = tmp_with(".txt", data, sizeof data - 1);
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:12:", "NUL byte");
	unlink(p);
	size_t n = 200000;
	char *big = malloc(n + 32);
	strcpy(big, "Recv   Send    Send\n");
	memset(big + 20, 'a', n);
	p = tmp_with(".txt", big, n + 20);
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:1:", "line longer than");
	free(big);
	unlink(p);
}

/* strtod() takes hexadecimal: a kpps of "0x10" is refused, not read as 16 kpps. */
Test(bad_input_csv, hexadecimal_refused)
{
	const char *p = tmp_text(".csv", "frame_bytes,kpps\n64,0x10\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:4:", "not a number");
	unlink(p);
}

/* Two columns giving the same rate of one series: neither silently wins; exit 3 naming the second one (line
 * 1, column 18). */
Test(bad_input_csv, duplicate_rate_column_refused)
{
	const char *p = tmp_text(".csv", "frame_bytes,kpps,kpps\n64,100,200\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":1:18:", "same packet rate");
	unlink(p);
}

/* --cpu-ghz refuses 1e-300 and hexadecimal, --threshold hexadecimal and infinity: exit 2. */
Test(bad_input, clock_and_threshold_values)
{
	const char *f = test_data("../../data/examples/freebsd-2004-udp-echo-e1000.csv");
	const char *bad[][2] = {{"--cpu-ghz", "1e-300"},
				{"--cpu-ghz", "0x1"},
				{"--threshold", "cpu=0x1p-1"},
				{"--threshold", "cpu=infinity"}};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct run_result r = run_args((const char *[]){"analyze", f, bad[i][0], bad[i][1], NULL});
		cr_assert_eq(r.status, 2, "%s %s: exit %d", bad[i][0], bad[i][1], r.status);
		run_free(&r);
	}
	struct run_result r =
	    run_args((const char *[]){"analyze", f, "--cpu-ghz", "2.8", "--threshold", "cpu=.5", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

/* An -O block cut short (names but no value line) is refused, naming where the block starts. */
Test(bad_input_netperf, omni_human_cut_short)
{
	const char *p =
	    tmp_text(".txt", "OMNI TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to x () port 0 AF_INET\n"
			     "Throughput Throughput \n           Units      \n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:1:", "cut short");
	unlink(p);
}

/* A --col naming a header the file does not have is not ignored: exit 3 at the header line, naming the
 * missing column. */
Test(bad_input_csv, col_for_missing_header)
{
	const char *p = tmp_text(".csv", "frame_bytes,Mbit/s\n1518,940\n");
	expect_exit3((const char *[]){"analyze", p, "--col", "kpps=Nope", NULL}, p,
		     ":1:1:", "no column 'Nope'");
	unlink(p);
}

/* Sizes are 1 to 16777216 B (the limit of pcibw/ingest.h and the message), so a frame of 0.5 B is
 * refused. */
Test(bad_input_csv, fractional_byte_size_refused)
{
	const char *p = tmp_text(".csv", "frame_bytes,kpps\n0.5,100\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:1:", "1 to 16777216");
	unlink(p);
}

/* A '#' comment line that runs into binary data must end (printf '#'; cat /dev/zero would be read
 * forever). Expected: exit 3 at the first NUL, line 1 column 2. */
Test(bad_input_csv, nul_in_comment_refused)
{
	const char data[] = "#\0\0\0";
	const char *p = tmp_with(".csv", data, sizeof data - 1);
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":1:2:", "NUL byte");
	unlink(p);
}

/* JSON with a NUL byte is refused there, not read on to the 256 MiB limit (a '{' then /dev/zero
 * would take 256 MiB of memory first). Expected: exit 3 at the NUL: line 2, column 5 after '{', newline and '
 * "a"'. */
Test(bad_input_iperf3, nul_byte_refused)
{
	const char data[] = "{\n \"a\"\0\0\0";
	const char *p = tmp_with(".json", data, sizeof data - 1);
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:5:", "NUL byte");
	unlink(p);
}

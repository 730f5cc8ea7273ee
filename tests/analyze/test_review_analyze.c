/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Regression tests from engineer G's review of `pcibw analyze` (issue 6), one per bug found.
 * Expected values come from the captures' own numbers (their .src sidecars), the contract
 * (doc/cli-contract.md) or hand arithmetic written next to each check; never from pcibw.
 */
#include "analyze_support.h"
#include "pcibw/device.h"
#include "pcibw/nic.h"
#include "pcibw/verdict.h"
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

/* Write len bytes to a fresh temporary file with the given suffix; returns its path (static). */
static const char *tmp_with(const char *suffix, const char *data, size_t len)
{
	static char paths[8][64];
	static int slot;
	char *p = paths[slot++ % 8];
	snprintf(p, 64, "/tmp/pcibw-analyze-review-XXXXXX%s", suffix);
	int fd = mkstemps(p, (int)strlen(suffix));
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	return p;
}

static const char *tmp_text(const char *suffix, const char *text)
{
	return tmp_with(suffix, text, strlen(text));
}

static struct run_result run_args(const char *const *args)
{
	return run_pcibw(NULL, args);
}

/* exit 3, stderr names file:line:col (when loc) and contains words, says what was expected */
static void expect_exit3(const char *const *args, const char *file, const char *loc, const char *words)
{
	struct run_result r = run_args(args);
	cr_assert_eq(r.status, 3, "exit %d, stderr: %s", r.status, r.err);
	if (loc) {
		char want[512];
		snprintf(want, sizeof want, "%s%s", file, loc);
		cr_assert(strstr(r.err, want), "stderr lacks '%s': %s", want, r.err);
	}
	cr_assert(strstr(r.err, words), "stderr lacks '%s': %s", words, r.err);
	cr_assert(strstr(r.err, "expected"), "says what was expected: %s", r.err);
	run_free(&r);
}

static json_t *row_by_series(json_t *root, const char *series)
{
	json_t *rows = json_object_get(root, "rows"), *row;
	size_t i;
	json_array_foreach(rows, i, row)
	{
		const char *s = jstr(row, "series");
		if (s && !strcmp(s, series))
			return row;
	}
	cr_assert_fail("no row of series %s", series);
	return NULL;
}

/*
 * Bug: iperf3 3.12 run with -P N writes start.sock_bufsize, sndbuf_actual and rcvbuf_actual once
 * per stream into the same object; the reader refused every such real file as "duplicate object
 * key". Expected: read, with end.sum_sent / sum_received bits_per_second from the capture's .src.
 */
Test(review_iperf3, parallel_streams_duplicate_keys)
{
	json_t *j = analyze_json(
	    NULL,
	    (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-tcp-P2.json"), "--json", NULL});
	assert_close(jnum(row_by_series(j, "sender"), "measured_gbps"), 11944588257.807219 / 1e9,
		     1e-7); /* JSON keeps 10 digits */
	assert_close(jnum(row_by_series(j, "receiver"), "measured_gbps"), 11935899250.389185 / 1e9, 1e-7);
	json_decref(j);
}

/*
 * Bug: the receiver's packet rate was (packets - lost_packets) / seconds, but iperf3 before 3.14
 * also counts the -O omitted interval's datagrams as lost (esnet/iperf #1489, PR #1498), so the
 * rate (and the Gbit/s recomputed from it) fell short of what arrived. Expected from the .src:
 * 224909312 bytes / 1024 B per datagram / 3.000177 s = 73207.8 datagrams/s, and Gbit/s
 * 73207.8 x 1024 x 8 / 10^9 = 0.599723 (iperf3's own 599722781.689 bit/s); the old figure was
 * (219724 - 4720) / 3.000177 = 71663.8.
 */
Test(review_iperf3, receiver_rate_from_bytes_with_omit)
{
	json_t *j = analyze_json(
	    NULL,
	    (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-udp-1024B-300M-P2-omit1.json"),
			     "--json", NULL});
	json_t *rx = row_by_series(j, "receiver");
	assert_close(jnum(rx, "measured_mpps"), 224909312.0 / 1024 / 3.000177 / 1e6, 1e-9);
	assert_close(jnum(rx, "measured_gbps"), 599722781.6892138 / 1e9, 1e-6);
	json_t *tx = row_by_series(j, "sender");
	assert_close(jnum(tx, "measured_mpps"), 219724 / 2.999891 / 1e6, 1e-9);
	json_decref(j);
}

/* The loss a UDP capture shows is stated: 1024 B x (167367 - 92297) datagrams from the .src of the
 * 1400 B capture: sent 234313800 B / 1400 = 167367, received 129215800 B / 1400 = 92297 -> 75070. */
Test(review_iperf3, udp_loss_noted)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-udp-1400B-1G-loss.json"),
				   "--json", NULL});
	json_t *notes = json_object_get(json_array_get(json_object_get(j, "inputs"), 0), "notes");
	bool found = false;
	for (size_t i = 0; i < json_array_size(notes); i++)
		found |=
		    strstr(json_string_value(json_array_get(notes, i)), "75070 of 167367 datagrams") != NULL;
	cr_assert(found, "no loss note");
	json_decref(j);
}

/* Bug: a packet count from iperf3 was never checked against the packet-rate limit (10^10 pps,
 * pcibw/ingest.h): 10^15 packets in 1 s gave "8.19e+09 Gbit/s" and exit 0. */
Test(review_iperf3, absurd_packet_count_refused)
{
	const char *p = tmp_text(
	    ".json", "{\"start\":{\"test_start\":{\"protocol\":\"UDP\",\"blksize\":1024,\"reverse\":0}},"
		     "\"end\":{\"sum_sent\":{\"bits_per_second\":1e9,\"seconds\":1,\"packets\":1e15}}}\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, NULL, "out of range");
	unlink(p);
}

/* Bug: /dev/zero (no line end ever) hung, growing libcsv's buffer without bound. Expected: exit 3
 * at once: a device is no measurement file; fed through a pipe, its first byte is named. */
Test(review_csv, dev_zero_refused_at_once)
{
	expect_exit3((const char *[]){"analyze", "/dev/zero", NULL}, "/dev/zero", ": is a device", "device");
	struct run_result r = run_cmd(
	    NULL, (const char *[]){"sh", "-c", "head -c 4096 /dev/zero | \"$PCIBW_EXE\" analyze -", NULL});
	cr_assert_eq(r.status, 3, "exit %d, stderr: %s", r.status, r.err);
	cr_assert(strstr(r.err, ":1:1:") && strstr(r.err, "NUL byte"), "stderr: %s", r.err);
	run_free(&r);
}

/* Bug: a NUL byte inside a field cut the field short: "1<NUL>2" kpps was read as 1 kpps, exit 0.
 * Expected: exit 3 at line 2, column 5 (the byte after "64,1"). */
Test(review_csv, nul_byte_in_field_refused)
{
	const char data[] = "frame_bytes,kpps\n64,1\0002\n";
	const char *p = tmp_with(".csv", data, sizeof data - 1);
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:5:", "NUL byte");
	unlink(p);
}

/* The same for netperf's text output: a NUL byte or an endless line is refused, never hangs. */
Test(review_netperf, nul_and_endless_line_refused)
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

/* Bug: strtod() took hexadecimal, so a kpps of "0x10" was read as 16 kpps, exit 0. */
Test(review_csv, hexadecimal_refused)
{
	const char *p = tmp_text(".csv", "frame_bytes,kpps\n64,0x10\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:4:", "not a number");
	unlink(p);
}

/* Bug: headers as spreadsheets write them were not recognised: "Frame Bytes" (a blank for '_')
 * and "CPU %" were silently ignored, so the row lost its size and its CPU. "Frame size (bytes)"
 * was refused as a rate with an unknown unit. Expected: frame size 1518, CPU 45 % = 0.45, and
 * 940 Mbit/s = 0.94 Gbit/s; the generic word "Throughput" names no series. */
Test(review_csv, spreadsheet_headers)
{
	const char *p = tmp_text(".csv", "Frame Bytes,Throughput (Mbit/s),CPU %\n1518,940,45\n");
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", p, "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	assert_close(jnum(r, "size_bytes"), 1518, 0);
	cr_assert_str_eq(jstr(r, "size_is"), "frame");
	assert_close(jnum(r, "cpu_utilisation"), 0.45, 1e-12);
	assert_close(jnum(r, "measured_gbps"), 0.94, 1e-12);
	cr_assert_null(jstr(r, "series"));
	json_decref(j);
	unlink(p);

	p = tmp_text(".csv", "Frame size (bytes),Throughput (Mbps),cpu_pct\n64,500,45%\n");
	j = analyze_json(NULL, (const char *[]){"analyze", p, "--json", NULL});
	r = json_array_get(json_object_get(j, "rows"), 0);
	assert_close(jnum(r, "size_bytes"), 64, 0);
	cr_assert_str_eq(jstr(r, "size_is"), "frame");
	assert_close(jnum(r, "cpu_utilisation"), 0.45, 1e-12); /* "45%" in a percentage column */
	json_decref(j);
	unlink(p);

	/* a percent sign is a percentage's only: in a rate column it is refused */
	p = tmp_text(".csv", "frame_bytes,kpps\n64,45%\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:4:", "not a number");
	unlink(p);
}

/* Semicolon-separated (spreadsheets with a decimal comma) and tab-separated files are read; a
 * decimal comma is refused with a hint. 900 kpps at 64 B = 900e3 x 64 x 8 / 1e9 = 0.4608 Gbit/s. */
Test(review_csv, semicolon_and_tab_delimiters)
{
	const char *p = tmp_text(".csv", "frame_bytes;kpps;cpu_pct\n64;900;50\n");
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", p, "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	assert_close(jnum(r, "measured_gbps"), 0.4608, 1e-12);
	assert_close(jnum(r, "cpu_utilisation"), 0.5, 1e-12);
	json_decref(j);
	unlink(p);
	p = tmp_text(".tsv", "frame_bytes\tkpps\tcpu_pct\n64\t900\t\n");
	j = analyze_json(NULL, (const char *[]){"analyze", p, "--json", NULL});
	r = json_array_get(json_object_get(j, "rows"), 0);
	assert_close(jnum(r, "measured_gbps"), 0.4608, 1e-12);
	cr_assert(isnan(jnum(r, "cpu_utilisation")), "an empty cpu_pct is unknown");
	json_decref(j);
	unlink(p);
	p = tmp_text(".csv", "frame_bytes;kpps\n64;0,9\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:4:", "decimal point");
	unlink(p);
}

/* Bug: two columns giving the same rate of one series: the last silently won. Expected: exit 3
 * naming the second one (line 1, column 18). */
Test(review_csv, duplicate_rate_column_refused)
{
	const char *p = tmp_text(".csv", "frame_bytes,kpps,kpps\n64,100,200\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":1:18:", "same packet rate");
	unlink(p);
}

/* A bit-rate column that disagrees with the packet rate is stated, not silently dropped. From the
 * Ostinato 1G file: 618 Mbit/s vs 920 kpps x 64 B x 8 = 471.04 Mbit/s: 618 / 471.04 - 1 = 31 %;
 * the author's mbps counts the wire ((64 + 20) x 920e3 x 8 = 618.24 Mbit/s): with --rate-basis
 * wire they agree (0.04 %), and nothing is said. */
Test(review_verdict, rate_mismatch_stated)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze",
							test_data("bench/ostinato-i218v-1g-ubuntu-maxtx.csv"),
							"--json", NULL});
	json_t *r = find_row(j, 64, NULL, NULL);
	cr_assert(evidence_has(r, "31 % above"), "no mismatch evidence");
	json_decref(j);
	j = analyze_json(NULL,
			 (const char *[]){"analyze", test_data("bench/ostinato-i218v-1g-ubuntu-maxtx.csv"),
					  "--rate-basis", "wire", "--json", NULL});
	r = find_row(j, 64, NULL, NULL);
	cr_assert(!evidence_has(r, "bit-rate column"), "agreeing columns need no evidence");
	json_decref(j);
}

/* Bug: a rate just under 1 Gbit/s printed as "1e+03 Mbit/s". 0.99999 Gbit/s of 1024 B payloads:
 * three significant digits give "1 Gbit/s". */
Test(review_verdict, rate_text_no_exponent)
{
	const char *p = tmp_text(".csv", "payload_bytes,gbps\n1024,0.99999\n");
	struct run_result r = run_args((const char *[]){"analyze", p, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strstr(r.out, "e+03"), "%s", r.out);
	cr_assert(strstr(r.out, "1 Gbit/s"), "%s", r.out);
	run_free(&r);
	unlink(p);
}

/* Bug: --cpu-ghz took 1e-300 and hexadecimal; --threshold took hexadecimal. Expected: exit 2. */
Test(review_cli, clock_and_threshold_values)
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

/*
 * Bug: the plot keyed measured points on (source, series) only, so a pcie-bench sweep's
 * BW_DMA_RD, _WR and _RW rows (same PAT/Cache/WinSZ series) fell into one series and all but the
 * first point at each size were dropped. Expected: three measured colours, each on every one of
 * the file's 40 sizes (120 data lines = 40 sizes x 3 tests).
 */
Test(review_plot, pciebench_patterns_kept_apart)
{
	const char *svg = "/tmp/pcibw-analyze-review-plot.svg";
	unlink(svg);
	struct run_result r = run_args((const char *[]){
	    "analyze", test_data("bench/pciebench-nfp6000-hsw-e5-2620v3-dell-t630-dma-size-sweep.csv"),
	    "--bus", "gen3x8,mps=256", "--plot", svg, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	size_t n;
	char *s = slurp(svg, &n);
	cr_assert(s);
	/* filled colours other than black (text) and white (background, legend box) */
	char colours[16][64];
	int uses[16] = {0}, nc = 0;
	for (const char *p = s; (p = strstr(p, "fill:rgb(")); p++) {
		char c[64];
		if (sscanf(p, "fill:rgb(%63[^)])", c) != 1 || !strcmp(c, "0%,0%,0%") ||
		    !strcmp(c, "100%,100%,100%"))
			continue;
		int k = 0;
		while (k < nc && strcmp(colours[k], c))
			k++;
		if (k == nc && nc < 16)
			snprintf(colours[nc++], 64, "%s", c);
		if (k < 16)
			uses[k]++;
	}
	cr_assert_eq(nc, 3, "%d measured colours", nc);
	for (int k = 0; k < nc; k++)
		cr_assert_geq(uses[k], 40, "colour %s drawn %d times", colours[k], uses[k]);
	free(s);
	unlink(svg);
}

/*
 * Gap: netperf omni -O ("human readable") output was not read. The fixture's header gives the
 * numbers: run 1 (two blocks) UDP, 1472 B, 1,000,000 send calls in 10.00 s = 100,000 msg/s,
 * 100000 x 1472 x 8 / 10^9 = 1.1776 Gbit/s, local CPU 50 %, busiest CPU 100 % (LOCAL_CPU_PEAK_UTIL
 * -> core_max_pct), service demand 6.957, remote -1 = not measured; with --cpus 2 --cpu-ghz 2
 * that is 0.5 x 2 x 2e9 / 1e5 = 20000 cycles per packet, and a busiest core >= 0.95 is
 * cpu-bound (contract). Run 2: TCP writes of 16384 B at 9413.05 Mbit/s: undetermined.
 */
Test(review_netperf, omni_human_readable)
{
	json_t *j =
	    analyze_json(NULL, (const char *[]){"analyze", test_data("analyze/synthetic-netperf-omni-O.txt"),
						"--cpus", "2", "--cpu-ghz", "2", "--json", NULL});
	cr_assert_str_eq(jstr(json_array_get(json_object_get(j, "inputs"), 0), "format"), "netperf-omni");
	cr_assert_eq(json_array_size(json_object_get(j, "rows")), 2);
	json_t *udp = find_row(j, 1472, NULL, NULL);
	cr_assert_str_eq(jstr(udp, "size_is"), "udp-payload");
	assert_close(jnum(udp, "measured_mpps"), 0.1, 1e-12);
	assert_close(jnum(udp, "measured_gbps"), 1.1776, 1e-12);
	assert_close(jnum(udp, "cpu_utilisation"), 0.5, 1e-12);
	assert_close(jnum(udp, "core_max_utilisation"), 1.0, 1e-12);
	cr_assert(isnan(jnum(udp, "remote_cpu_utilisation")));
	assert_close(jnum(udp, "service_demand_us_per_kb"), 6.957, 1e-12);
	assert_close(jnum(udp, "cycles_per_packet"), 20000, 1e-6);
	cr_assert_str_eq(jstr(udp, "verdict"), "cpu-bound");
	json_t *tcp = find_row(j, 16384, NULL, NULL);
	cr_assert_str_eq(jstr(tcp, "size_is"), "tcp-write");
	assert_close(jnum(tcp, "measured_gbps"), 9.41305, 1e-12);
	assert_close(jnum(tcp, "core_max_utilisation"), 0.235, 1e-12);
	cr_assert_str_eq(jstr(tcp, "verdict"), "undetermined");
	json_decref(j);
}

/* An -O block cut short (names but no value line) is refused, naming where the block starts. */
Test(review_netperf, omni_human_cut_short)
{
	const char *p =
	    tmp_text(".txt", "OMNI TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to x () port 0 AF_INET\n"
			     "Throughput Throughput \n           Units      \n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:1:", "cut short");
	unlink(p);
}

/* Usability: the CPU-bound summary states the bus and the wire, then the row's reason; it used to
 * repeat them ("... 22 % busy ... and the wire 59 %; ... resource (bus 22 %, wire 59 %)"). */
Test(review_verdict, summary_states_bus_once)
{
	json_t *j = analyze_json(
	    NULL,
	    (const char *[]){"analyze", test_data("../../data/examples/freebsd-2004-udp-echo-e1000.csv"),
			     "--bus", "pcix133/64,mmrbc=512", "--nic", "e1000", "--line-rate", "1G", "--cpus",
			     "1", "--cpu-ghz", "2.8", "--json", NULL});
	const char *sum = json_string_value(json_array_get(json_object_get(j, "evidence"), 0));
	cr_assert(strstr(sum, "only loaded resource") && strstr(sum, "the wire"), "%s", sum);
	cr_assert(!strstr(sum, "(bus "), "%s", sum);
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	cr_assert(evidence_has(r, "(bus "), "the row's own evidence keeps the figures");
	json_decref(j);
}

/*
 * Bug: iperf3 --bidir's server-to-client sums (end.sum_sent_bidir_reverse / _received_) were
 * ignored: half the traffic vanished without a word. Expected, from the capture's .src: four rows;
 * the reverse sender 100012798.56656055 bit/s = 25006000 B / 1000 B / 2.000224 s = 12501.6
 * datagrams/s, its CPU the server's (remote_total 20.78...); the reverse receiver
 * 24220000 B / 1000 B / 2.005655 s datagrams/s, its CPU the client's (host_total 19.86...).
 */
Test(review_iperf3, bidir_reverse_direction_read)
{
	json_t *j = analyze_json(
	    NULL,
	    (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-udp-1000B-100M-bidir.json"),
			     "--json", NULL});
	cr_assert_eq(json_array_size(json_object_get(j, "rows")), 4);
	json_t *rs = row_by_series(j, "reverse sender"), *rr = row_by_series(j, "reverse receiver");
	assert_close(jnum(rs, "measured_gbps"), 100012798.56656055 / 1e9, 1e-7);
	assert_close(jnum(rs, "measured_mpps"), 25006000.0 / 1000 / 2.000224 / 1e6, 1e-9);
	assert_close(jnum(rs, "core_max_utilisation"), 20.78011306015283 / 100, 1e-9);
	cr_assert_str_eq(jstr(rs, "direction"), "tx");
	assert_close(jnum(rr, "measured_mpps"), 24220000.0 / 1000 / 2.005655 / 1e6, 1e-9);
	assert_close(jnum(rr, "core_max_utilisation"), 19.86315119785149 / 100, 1e-9);
	cr_assert_str_eq(jstr(rr, "direction"), "rx");
	json_decref(j);
}

/* Bug: a row without a packet size that reaches the wire printed "(? of a 10 Gbit/s line at nan B)"
 * and the summary claimed an exact share. 9.6 / 10 = 96 %, and without a size the headers,
 * preamble and gap are not counted: at least 96 %. */
Test(review_verdict, wire_bound_without_size)
{
	const char *p = tmp_text(".csv", "gbps\n9.6\n");
	struct run_result r = run_args((const char *[]){"analyze", p, "--line-rate", "10G", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strstr(r.out, "nan") && !strstr(r.out, "? of"), "%s", r.out);
	cr_assert(strstr(r.out, "the wire is at least 96 % full (9.6 Gbit/s of a 10 Gbit/s line)"), "%s",
		  r.out);
	cr_assert(strstr(r.out, "Wire-bound: the wire is at least 96 % full"), "%s", r.out);
	run_free(&r);
	unlink(p);
}

/* Bug: a --col naming a header the file does not have was silently ignored. Expected: exit 3 at
 * the header line, naming the missing column. */
Test(review_csv, col_for_missing_header)
{
	const char *p = tmp_text(".csv", "frame_bytes,Mbit/s\n1518,940\n");
	expect_exit3((const char *[]){"analyze", p, "--col", "kpps=Nope", NULL}, p,
		     ":1:1:", "no column 'Nope'");
	unlink(p);
}

/* Bug: iperf3 3.16+ (one thread per stream) reports process CPU above 100 %, and such real files
 * were refused as "out of range (cpu_pct is a share of all CPUs)". Expected: read, the busiest core
 * left unknown with a note; a figure above 4096 busy cores is still refused. */
Test(review_iperf3, cpu_above_100_from_threads)
{
	const char *p = tmp_text(
	    ".json", "{\"start\":{\"test_start\":{\"protocol\":\"UDP\",\"blksize\":1024,\"reverse\":0}},"
		     "\"end\":{\"cpu_utilization_percent\":{\"host_total\":250,\"remote_total\":40},"
		     "\"sum_sent\":{\"bits_per_second\":1e9,\"seconds\":1}}}\n");
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", p, "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	cr_assert(isnan(jnum(r, "core_max_utilisation")));
	json_t *notes = json_object_get(json_array_get(json_object_get(j, "inputs"), 0), "notes");
	cr_assert(strstr(json_string_value(json_array_get(notes, 0)), "250 %"), "note");
	json_decref(j);
	unlink(p);
	p = tmp_text(".json",
		     "{\"start\":{\"test_start\":{\"protocol\":\"UDP\",\"blksize\":1024,\"reverse\":0}},"
		     "\"end\":{\"cpu_utilization_percent\":{\"host_total\":1e9},"
		     "\"sum_sent\":{\"bits_per_second\":1e9,\"seconds\":1}}}\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, NULL, "out of range");
	unlink(p);
}

/* Bug: sizes were accepted above 0 although the limit (pcibw/ingest.h) and the message say 1 to
 * 16777216 B: a frame of 0.5 B was read. */
Test(review_csv, fractional_byte_size_refused)
{
	const char *p = tmp_text(".csv", "frame_bytes,kpps\n0.5,100\n");
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:1:", "1 to 16777216");
	unlink(p);
}

/*
 * Bug: a row in both a work family and a cpu_mhz family kept whichever elasticity was larger in
 * magnitude, even when that one had the sign that says nothing of the CPU, losing the one that
 * did. Rows (64 B, no CPU, no bus): A work 1 at 2000 MHz 1000 pps; B work 2 at 2000 MHz 500 pps;
 * C work 2 at 3000 MHz 200 pps. Work family {A, B}: ln(500/1000) / ln(2/1) = -1.0 (falls with
 * work: CPU). Clock family {B, C}: ln(200/500) / ln(3000/2000) = -2.26 (falls with the clock:
 * not the CPU's sign). Expected for B: elasticity -1.0 of work, cpu-bound (contract: elasticity
 * magnitude >= 0.5).
 */
static void add_wm(struct pcibw_rows *rs, double work, double mhz, double pps)
{
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "hand";
	m.size_bytes = 64;
	m.size_conv = PCIBW_CONV_FRAME;
	m.direction = PCIBW_PAT_RX;
	m.work = work;
	m.cpu_mhz = mhz;
	m.pps = pps;
	struct pcibw_err err;
	cr_assert_eq(pcibw_rows_add(rs, &m, &err), PCIBW_OK);
}

Test(review_verdict, elasticity_keeps_cpu_sign)
{
	struct pcibw_rows rs = {0};
	add_wm(&rs, 1, 2000, 1000);
	add_wm(&rs, 2, 2000, 500);
	add_wm(&rs, 2, 3000, 200);
	pcibw_rows_finish(&rs);
	for (int i = 0; i < rs.n; i++) {
		rs.v[i].packet_bytes = rs.v[i].basis_bytes = 64;
		pcibw_row_rates(&rs.v[i]);
	}
	struct pcibw_thresholds t;
	pcibw_thresholds_default(&t);
	struct pcibw_machine mach = {.cpus = PCIBW_NULL, .cpu_mhz = NAN};
	struct pcibw_summary sum;
	struct pcibw_err err;
	cr_assert_eq(pcibw_verdict_run(&rs, &t, &mach, &sum, &err), PCIBW_OK);
	struct pcibw_row *b = &rs.v[1];
	cr_assert(b->work == 2 && b->cpu_mhz == 2000);
	assert_close(b->elasticity, -1.0, 1e-12);
	cr_assert_str_eq(b->elasticity_of, "work");
	cr_assert_eq(b->verdict, PCIBW_V_CPU);
	struct pcibw_row *c = &rs.v[2];
	assert_close(c->elasticity, log(0.4) / log(1.5), 1e-12);
	cr_assert_neq(c->verdict, PCIBW_V_CPU, "falling with the clock is not the CPU's sign");
	pcibw_summary_free(&sum);
	pcibw_rows_free(&rs);
}

/* A '#' comment line that runs into binary data never ended (printf '#'; cat /dev/zero read
 * forever). Expected: exit 3 at the first NUL, line 1 column 2. */
Test(review_csv, nul_in_comment_refused)
{
	const char data[] = "#\0\0\0";
	const char *p = tmp_with(".csv", data, sizeof data - 1);
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":1:2:", "NUL byte");
	unlink(p);
}

/* JSON with a NUL byte was read on to the 256 MiB limit (a '{' then /dev/zero took 256 MiB of
 * memory first). Expected: exit 3 at the NUL: line 2, column 5 after '{', newline and ' "a"'. */
Test(review_iperf3, nul_byte_refused)
{
	const char data[] = "{\n \"a\"\0\0\0";
	const char *p = tmp_with(".json", data, sizeof data - 1);
	expect_exit3((const char *[]){"analyze", p, NULL}, p, ":2:5:", "NUL byte");
	unlink(p);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iperf3's default text output (src/ingest/iperf3_text.c), on the captures of tests/data/bench
 * recorded beside their -J twins (each .src sidecar says how). Expected values are the figures
 * printed in each capture, converted as iperf3's unit_snprintf (src/units.c) prints them: bytes
 * in 1024 multiples, bit rates in 1000 multiples; the JSON twin of the same run checks that the
 * text agrees with it to the digits the text prints.
 */
#include "pcibw/ingest.h"
#include "pcibw/nic.h"
#include "support.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXR 16
struct got {
	struct pcibw_measured r[MAXR];
	int n;
};

static int collect(const struct pcibw_measured *m, void *ctx, struct pcibw_err *err)
{
	(void)err;
	struct got *g = ctx;
	cr_assert_lt(g->n, MAXR);
	g->r[g->n++] = *m;
	return PCIBW_OK;
}

static struct got *read_ok(const char *path, struct pcibw_ingest_stats *st)
{
	struct got *g = calloc(1, sizeof *g);
	struct pcibw_err err = {0};
	int r = pcibw_ingest_file(path, NULL, collect, g, st, &err);
	cr_assert_eq(r, PCIBW_OK, "%s: %s", path, err.msg);
	cr_assert_eq(st->format, PCIBW_FMT_IPERF3_TEXT, "%s detected as %s", path,
		     pcibw_format_name(st->format));
	return g;
}

static int read_bad(const char *text, struct pcibw_err *err)
{
	const char *path = temp_file(text, ".txt");
	struct got g = {0};
	struct pcibw_ingest_opts o = {.format = PCIBW_FMT_IPERF3_TEXT};
	return pcibw_ingest_file(path, &o, collect, &g, NULL, err);
}

#define near(a, b, rel)                                                                                      \
	cr_assert(fabs((double)(a) - (double)(b)) <= (rel)*fabs((double)(b)), "%s = %.10g, expected %.10g",  \
		  #a, (double)(a), (double)(b))

#define MIB (1024.0 * 1024.0)

/* TCP client: "[  5]   0.00-3.03   sec  2.78 GBytes  7.87 Gbits/sec    6             sender" and
 * "... 7.80 Gbits/sec                  receiver"; Cwnd 2.25, 2.50, 4.00 MBytes. The JSON twin is
 * the server's -J of the same run: its .src gives end.sum_received 7800122554.907203 bit/s. */
Test(ingest_iperf3_text, tcp_client)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("bench/iperf3-3.12-loopback-tcp-client.txt"), &st);
	cr_assert_eq(g->n, 2);
	cr_assert_str_eq(g->r[0].series, "sender");
	cr_assert_eq(g->r[0].direction, PCIBW_PAT_TX);
	near(g->r[0].gbps, 7.87, 1e-12);
	cr_assert_eq(g->r[0].line, 9);
	cr_assert(g->r[0].tcp);
	cr_assert_str_eq(g->r[0].test, "TCP");
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_WRITE);
	cr_assert(isnan(g->r[0].size_bytes), "the text states no write size");
	near(g->r[0].tcp_path.retransmits, 6, 0);
	near(g->r[0].tcp_path.window_bytes, (2.25 + 2.50 + 4.00) / 3 * MIB, 1e-12);
	near(g->r[0].tcp_path.max_cwnd_bytes, 4.00 * MIB, 1e-12);
	cr_assert(!pcibw_tcp_path_known(&g->r[0].tcp_path), "no RTT: no window bound");
	cr_assert(!g->r[0].concurrent);
	cr_assert_str_eq(g->r[1].series, "receiver");
	cr_assert_eq(g->r[1].direction, PCIBW_PAT_RX);
	near(g->r[1].gbps, 7.80, 1e-12);
	bool loop = false;
	for (int i = 0; i < st.n_notes; i++)
		loop |= strstr(st.notes[i], "loopback (remote host 127.0.0.1)") != NULL;
	cr_assert(loop, "the loopback note");
	near(g->r[1].gbps, 7800122554.907203 / 1e9, 0.005 / 7.80); /* "7.80": half its last digit */
	free(g);
}

/* UDP client: "0/108733 (0%)  sender" over 0.00-3.01 s, 106 MBytes; "71968/108056 (67%)
 * receiver" over 0.00-3.02 s, 35.2 MBytes. */
Test(ingest_iperf3_text, udp_client)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("bench/iperf3-3.12-loopback-udp-1024B-400M-client.txt"), &st);
	cr_assert_eq(g->n, 2);
	cr_assert(!g->r[0].tcp);
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_UDP_PAYLOAD);
	cr_assert_eq(g->r[0].gbps_basis, PCIBW_BASIS_PAYLOAD);
	near(g->r[0].gbps, 0.296, 1e-12);
	near(g->r[0].pps, 108733 / 3.01, 1e-12);
	near(g->r[0].size_bytes, round(106 * MIB / 108733), 0);
	near(g->r[1].gbps, 0.0980, 1e-12);
	near(g->r[1].pps, (108056 - 71968) / 3.02, 1e-12);
	near(g->r[1].size_bytes, round(35.2 * MIB / (108056 - 71968)), 0);
	/* the -l 1024 of the .src, to the transfer's 3 digits (35.2 MBytes: +-0.05 MB) */
	near(g->r[1].size_bytes, 1024, 0.05 / 35.2 + 0.5 / 1024);
	/* the server's -J twin (.src): end.sum_received 108056 packets, 71968 lost over 3.018018 s */
	near(g->r[1].pps, (108056 - 71968) / 3.018018, 0.005 / 3.01); /* 3.02 s is to 2 decimals */
	free(g);
}

/* TCP -P 2 seen by the server: only receiver lines; the [SUM] "1.31 GBytes  3.74 Gbits/sec
 * receiver" at line 29 stands for both streams. */
Test(ingest_iperf3_text, tcp_p2_server)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("bench/iperf3-3.12-loopback-tcp-P2-server.txt"), &st);
	cr_assert_eq(g->n, 1);
	cr_assert_str_eq(g->r[0].series, "receiver");
	near(g->r[0].gbps, 3.74, 1e-12);
	cr_assert_eq(g->r[0].line, 27);
	near(g->r[0].streams, 2, 0);
	free(g);
}

/* TCP -P 2 client: [SUM] sender 1.65 Gbits/sec with 23 retransmits, receiver 1.62 Gbits/sec;
 * the streams' Cwnd: 5: 1.25 MBytes, 767 KBytes, 1023 KBytes; 7: 4.25, 4.12, 4.37 MBytes. */
Test(ingest_iperf3_text, tcp_p2_client)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("bench/iperf3-3.12-loopback-tcp-P2-client.txt"), &st);
	cr_assert_eq(g->n, 2);
	near(g->r[0].gbps, 1.65, 1e-12);
	near(g->r[0].tcp_path.retransmits, 23, 0);
	near(g->r[0].streams, 2, 0);
	double k = 1024, m = MIB;
	double mean = (1.25 * m + 767 * k + 1023 * k + 4.25 * m + 4.12 * m + 4.37 * m) / 6;
	near(g->r[0].tcp_path.window_bytes, mean * 2, 1e-12);
	near(g->r[0].tcp_path.max_cwnd_bytes, 1.25 * m + 4.37 * m, 1e-12);
	near(g->r[1].gbps, 1.62, 1e-12);
	free(g);
}

/* --bidir: [TX-C] is the client's data, [RX-C] the server's: four rows, each concurrent. */
Test(ingest_iperf3_text, tcp_bidir_client)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("bench/iperf3-3.12-loopback-tcp-bidir-client.txt"), &st);
	cr_assert_eq(g->n, 4);
	const char *series[] = {"sender", "receiver", "reverse sender", "reverse receiver"};
	const double gbps[] = {1.14, 1.13, 1.10, 1.09};
	const int dir[] = {PCIBW_PAT_TX, PCIBW_PAT_RX, PCIBW_PAT_TX, PCIBW_PAT_RX};
	for (int i = 0; i < 4; i++) {
		cr_assert_str_eq(g->r[i].series, series[i]);
		near(g->r[i].gbps, gbps[i], 1e-12);
		cr_assert_eq(g->r[i].direction, dir[i]);
		cr_assert(g->r[i].concurrent, "row %d", i);
	}
	/* the server's -J twin (.src): end.sum_sent_bidir_reverse 1097567911.0483518 bit/s, the
	 * reverse sender */
	near(g->r[2].gbps, 1097567911.0483518 / 1e9, 0.005 / 1.10);
	free(g);
}

/* UDP --bidir: the reverse receiver "4.15 MBytes  11.3 Mbits/sec  0.001 ms  25838/30187 (86%)"
 * over 0.00-3.09 s. */
Test(ingest_iperf3_text, udp_bidir_client)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("bench/iperf3-3.12-loopback-udp-1000B-100M-bidir-client.txt"), &st);
	cr_assert_eq(g->n, 4);
	cr_assert_str_eq(g->r[3].series, "reverse receiver");
	near(g->r[3].gbps, 0.0113, 1e-12);
	near(g->r[3].pps, (30187 - 25838) / 3.09, 1e-12);
	near(g->r[3].size_bytes, round(4.15 * MIB / (30187 - 25838)), 0);
	cr_assert(g->r[3].concurrent);
	free(g);
}

/* UDP seen by the server: one receiver row, "43.3 MBytes   120 Mbits/sec  0.009 ms
 * 18883/51279 (37%)  receiver" over 0.00-3.01 s (sent with -l 1400). */
Test(ingest_iperf3_text, udp_server)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("bench/iperf3-3.12-loopback-udp-1400B-200M-server.txt"), &st);
	cr_assert_eq(g->n, 1);
	cr_assert_str_eq(g->r[0].series, "receiver");
	near(g->r[0].gbps, 0.120, 1e-12);
	near(g->r[0].pps, (51279 - 18883) / 3.01, 1e-12);
	near(g->r[0].size_bytes, 1400, 0.05 / 43.3 + 0.5 / 1400);
	free(g);
}

/* A capture cut before its summary: the counted intervals' mean (the -O one left out). */
Test(ingest_iperf3_text, cut_short)
{
	const char *text =
	    "Connecting to host 127.0.0.1, port 5201\n"
	    "[  5] local 127.0.0.1 port 33442 connected to 127.0.0.1 port 5201\n"
	    "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n"
	    "[  5]   0.00-1.00   sec   100 MBytes   839 Mbits/sec    0   1.00 MBytes  (omitted)\n"
	    "[  5]   0.00-1.00   sec   200 MBytes  1.68 Gbits/sec    4   2.00 MBytes       \n"
	    "[  5]   1.00-2.00   sec   300 MBytes  2.52 Gbits/sec    0   3.00 MBytes       \n";
	const char *path = temp_file(text, ".txt");
	struct got g = {0};
	struct pcibw_ingest_stats st;
	struct pcibw_err err = {0};
	cr_assert_eq(pcibw_ingest_file(path, NULL, collect, &g, &st, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(st.format, PCIBW_FMT_IPERF3_TEXT);
	cr_assert_eq(g.n, 1);
	cr_assert_str_eq(g.r[0].series, "intervals");
	near(g.r[0].gbps, (200 + 300) * MIB * 8 / 2.0 / 1e9, 1e-12);
}

/* Detection from the first line each side writes (iperf_locale.c). */
Test(ingest_iperf3_text, detect)
{
	const char *h = "Connecting to host 10.0.0.2, port 5201\n";
	cr_assert_eq(pcibw_ingest_detect(h, strlen(h)), PCIBW_FMT_IPERF3_TEXT);
	h = "-----------------------------------------------------------\nServer listening on 5201 (test "
	    "#1)\n";
	cr_assert_eq(pcibw_ingest_detect(h, strlen(h)), PCIBW_FMT_IPERF3_TEXT);
	h = "[ ID] Interval           Transfer     Bitrate\n";
	cr_assert_eq(pcibw_ingest_detect(h, strlen(h)), PCIBW_FMT_IPERF3_TEXT);
	h = "-----,x\n1,2\n";
	cr_assert_eq(pcibw_ingest_detect(h, strlen(h)), PCIBW_FMT_CSV);
}

/* Bad input: FILE:LINE:COLUMN and what was expected. */
Test(ingest_iperf3_text, refused)
{
	struct pcibw_err err = {0};
	const char *hdr = "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n";
	char text[512];
	snprintf(text, sizeof text,
		 "%s[  5]   0.00-1.00   sec   547 Mbytes  4.59 Gbits/sec    4   2.25 MBytes\n", hdr);
	cr_assert_eq(read_bad(text, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, ":2:31: 'Mbytes': expected Bytes, KBytes, MBytes"), "%s", err.msg);
	snprintf(text, sizeof text, "%s[  5]   0.00-1.00   sec   547 MBytes  4.59 Gbps    4   2.25 MBytes\n",
		 hdr);
	cr_assert_eq(read_bad(text, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, ":2:44: 'Gbps': expected bits/sec"), "%s", err.msg);
	cr_assert_eq(read_bad("[  5]   0.00-1.00   sec   547 MBytes  4.59 Gbits/sec\n", &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, ":1:1: '[': expected a '[ ID] Interval' header line"), "%s", err.msg);
	cr_assert_eq(read_bad("[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total "
			      "Datagrams\n[  5]   0.00-3.01   sec   106 MBytes   296 Mbits/sec  0.000 ms  "
			      "9/8 (0%)  receiver\n",
			      &err),
		     PCIBW_EINPUT);
	cr_assert(strstr(err.msg, ":2:65: 9 datagrams lost of 8"), "%s", err.msg);
	cr_assert_eq(read_bad("Connecting to host 10.0.0.9, port 5201\niperf3: error - unable to connect to "
			      "server: Connection refused\n",
			      &err),
		     PCIBW_EINPUT);
	cr_assert(strstr(err.msg, ":2: iperf3 reported an error: iperf3: error - unable to connect"), "%s",
		  err.msg);
	cr_assert_eq(read_bad("hello\n", &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, ":1:1: no iperf3 text output found"), "%s", err.msg);
	snprintf(text, sizeof text,
		 "%s[  5]   0.00-1.00   sec   547 MBytes  4.59 Gbits/sec    4   2.25 MBytes  x\n", hdr);
	cr_assert_eq(read_bad(text, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, ":2:74: 'x': expected the end of the line"), "%s", err.msg);
}

/* Through the command: auto-detected, --input-format iperf3-text, and the format in JSON. */
Test(ingest_iperf3_text, analyze_cli)
{
	const char *a[] = {"analyze", test_data("bench/iperf3-3.12-loopback-tcp-client.txt"), "--json", NULL};
	struct run_result r = run_pcibw(NULL, a);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"iperf3-text\""), "%s", r.out);
	run_free(&r);
	const char *b[] = {"analyze", test_data("bench/iperf3-3.12-loopback-tcp-client.txt"),
			   "--input-format", "iperf3-text", NULL};
	r = run_pcibw(NULL, b);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

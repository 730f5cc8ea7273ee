/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ingest formats through the library (src/ingest): format detection, RFC 4180 details, the
 * header roles and units of doc/cli-contract.md ("analyze input"), netperf classic and omni,
 * iperf3 -J and pcie-bench. Expected values are the numbers written in each fixture (or its .src
 * sidecar), never pcibw's output.
 */
#include "pcibw/ingest.h"
#include "pcibw/nic.h"
#include "support.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXR 256
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

static struct got *read_ok(const char *path, const struct pcibw_ingest_opts *o, struct pcibw_ingest_stats *st)
{
	struct got *g = calloc(1, sizeof *g);
	struct pcibw_err err = {0};
	int r = pcibw_ingest_file(path, o, collect, g, st, &err);
	cr_assert_eq(r, PCIBW_OK, "%s: %s", path, err.msg);
	return g;
}

/* values copied from a .src sidecar carry its 6 decimals */
#define near6(a, b)                                                                                          \
	cr_assert(fabs((double)(a) - (double)(b)) <= 1e-6, "%s = %.12g, expected %.12g", #a, (double)(a),    \
		  (double)(b))
#define near(a, b)                                                                                           \
	cr_assert(fabs((double)(a) - (double)(b)) <= 1e-9 * fmax(1, fabs((double)(b))),                      \
		  "%s = %.12g, expected %.12g", #a, (double)(a), (double)(b))

Test(ingest_detect, by_content)
{
	const char *h;
	h = "\xEF\xBB\xBF# c\n{\"start\":{}}";
	cr_assert_eq(pcibw_ingest_detect(h, strlen(h)), PCIBW_FMT_IPERF3);
	h = "# src\nTest,PAT,Cache,HO,DO,WinSZ,SZ\n";
	cr_assert_eq(pcibw_ingest_detect(h, strlen(h)), PCIBW_FMT_PCIEBENCH);
	h = "MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET\nRecv   Send    Send\n";
	cr_assert_eq(pcibw_ingest_detect(h, strlen(h)), PCIBW_FMT_NETPERF);
	h = "MIGRATED UDP STREAM TEST from x\nThroughput,Throughput Units\n1,10^6bits/s\n";
	cr_assert_eq(pcibw_ingest_detect(h, strlen(h)), PCIBW_FMT_NETPERF_OMNI);
	h = "frame_bytes,kpps\n64,1\n";
	cr_assert_eq(pcibw_ingest_detect(h, strlen(h)), PCIBW_FMT_CSV);
}

/* RFC 4180: BOM, CRLF, quoted headers, a quoted comma and a doubled quote (the fixture's header). */
Test(ingest_csv, crlf_bom_quotes)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("analyze/synthetic-crlf-bom-quoted.csv"), NULL, &st);
	cr_assert_eq(g->n, 2);
	cr_assert_eq(g->r[0].size_bytes, 64);
	near(g->r[0].pps, 900000);
	cr_assert_str_eq(g->r[0].iface, "eth0, port \"A\"");
	cr_assert_eq(g->r[0].direction, PCIBW_PAT_TX, "prefix tx names the direction");
	cr_assert_eq(g->r[0].line, 4);
	cr_assert_eq(g->r[1].size_bytes, 128);
	near(g->r[1].pps, 800000);
	cr_assert_eq(st.skipped, 0);
	free(g);
}

/* Units are read exactly: MB/s is 10^6 bytes/s, Mb/s 10^6 bits/s; gbps, mpps; per-core columns. */
Test(ingest_csv, units_and_cores)
{
	const char *p = temp_file("size,a_MB/s,b_Mb/s,c_gbps,d_mpps,cpu0_pct,cpu1_pct,cpu2_pct\n"
				  "100,125,1000,2.5,3,10,90,20\n",
				  "");
	struct got *g = read_ok(p, NULL, NULL);
	cr_assert_eq(g->n, 4);
	near(g->r[0].gbps, 1.0); /* 125 MB/s x 8 = 1 Gbit/s */
	near(g->r[1].gbps, 1.0); /* 1000 Mb/s */
	near(g->r[2].gbps, 2.5);
	near(g->r[3].pps, 3e6);
	near(g->r[0].cpu_pct, 40); /* mean of 10, 90, 20 */
	near(g->r[0].core_max_pct, 90);
	cr_assert_eq(g->r[0].n_cores, 3);
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_OPTION);
	free(g);
	unlink(p);

	/* lower-case mb/s could be either: refused, never guessed */
	p = temp_file("size,x_mb/s\n100,1\n", "");
	struct pcibw_err err;
	struct got *g2 = calloc(1, sizeof *g2);
	cr_assert_eq(pcibw_ingest_file(p, NULL, collect, g2, NULL, &err), PCIBW_EINPUT);
	free(g2);
	cr_assert(strstr(err.msg, ":1:6:") && strstr(err.msg, "x_mb/s"), "%s", err.msg);
	unlink(p);
}

/* --col ROLE=HEADER and --rate-basis */
Test(ingest_csv, col_mapping_and_basis)
{
	const char *p = temp_file(
	    "# a tool that names its columns its own way\nPacket,Speed (furlongs),load\n1518,9.5,50\n", "");
	struct pcibw_ingest_opts o = {0};
	struct pcibw_err err;
	struct got *g = calloc(1, sizeof *g);
	cr_assert_eq(pcibw_ingest_file(p, &o, collect, g, NULL, &err), PCIBW_EINPUT, "unknown unit refused");
	cr_assert(strstr(err.msg, ":2:8:") && strstr(err.msg, "--col"), "%s", err.msg);
	cr_assert_eq(pcibw_colmap_add(&o, "frame_bytes=Packet", &err), PCIBW_OK);
	cr_assert_eq(pcibw_colmap_add(&o, "gbps=Speed (furlongs)", &err), PCIBW_OK);
	cr_assert_eq(pcibw_colmap_add(&o, "cpu_pct=load", &err), PCIBW_OK);
	cr_assert_eq(pcibw_colmap_add(&o, "speed=Speed", &err), PCIBW_EUSAGE, "no role 'speed'");
	cr_assert_eq(pcibw_rate_basis_parse("wire", &o.rate_basis, &err), PCIBW_OK);
	free(g);
	g = read_ok(p, &o, NULL);
	cr_assert_eq(g->n, 1);
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_FRAME);
	near(g->r[0].gbps, 9.5);
	cr_assert_eq(g->r[0].gbps_basis, PCIBW_BASIS_WIRE);
	near(g->r[0].cpu_pct, 50);
	free(g);
	unlink(p);
	cr_assert_eq(pcibw_rate_basis_parse("bits", &o.rate_basis, &err), PCIBW_EUSAGE);
}

/* A TCP msg_size is a write size: no packet rate follows from it (contract "Header -> size"). */
Test(ingest_csv, tcp_msg_size_is_a_write)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("bench/netperf-qemu-riscv-virtio-msgsize-sweep.csv"), NULL, &st);
	/* 13 TCP_STREAM lines (send only) + 12 UDP_STREAM lines x (send, recv) */
	cr_assert_eq(g->n, 13 + 24);
	cr_assert_eq(st.lines, 25);
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_WRITE);
	cr_assert(g->r[0].tcp);
	near(g->r[0].gbps, 0.31e-3);
	cr_assert(isnan(g->r[0].pps));
	/* UDP_STREAM 1 B: 880003 messages sent, 390643 received, in 60.00 s (the file's row) */
	cr_assert_eq(g->r[13].size_conv, PCIBW_SIZE_UDP_PAYLOAD);
	cr_assert_str_eq(g->r[13].series, "send");
	near(g->r[13].pps, 880003 / 60.0);
	cr_assert_str_eq(g->r[14].series, "recv");
	near(g->r[14].pps, 390643 / 60.0);
	cr_assert_eq(g->r[14].direction, PCIBW_PAT_RX);
	cr_assert(st.n_notes >= 1 && strstr(st.notes[0], "write size"));
	free(g);
}

/* netperf classic: the numbers the fixture's header states. */
Test(ingest_netperf, classic)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("analyze/synthetic-netperf-classic.txt"), NULL, &st);
	cr_assert_eq(st.format, PCIBW_FMT_NETPERF);
	cr_assert_eq(g->n, 3);
	cr_assert_str_eq(g->r[0].test, "TCP_STREAM");
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_WRITE);
	cr_assert_eq(g->r[0].size_bytes, 16384);
	near(g->r[0].gbps, 9.41305);
	near(g->r[0].cpu_pct, 11.84);
	near(g->r[0].remote_cpu_pct, 25.55);
	near(g->r[0].sd_us_per_kb, 0.206);
	near(g->r[0].remote_sd_us_per_kb, 0.445);
	cr_assert_str_eq(g->r[1].test, "UDP_STREAM");
	cr_assert_eq(g->r[1].size_bytes, 1472);
	near(g->r[1].pps, 100000);
	near(g->r[1].gbps, 1.1776);
	near(g->r[1].cpu_pct, 50);
	near(g->r[1].sd_us_per_kb, 13.914);
	cr_assert_eq(g->r[2].direction, PCIBW_PAT_RX);
	cr_assert_eq(g->r[2].size_bytes, 1472);
	near(g->r[2].pps, 90000);
	near(g->r[2].cpu_pct, 40);
	cr_assert_eq(st.skipped, 2, "the TCP_RR block's two result lines");
	free(g);
}

Test(ingest_netperf, omni)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("analyze/synthetic-netperf-omni.csv"), NULL, &st);
	cr_assert_eq(st.format, PCIBW_FMT_NETPERF_OMNI);
	cr_assert_eq(g->n, 2);
	cr_assert(!g->r[0].tcp);
	near(g->r[0].pps, 100000);
	near(g->r[0].gbps, 1.1776);
	near(g->r[0].cpu_pct, 50);
	cr_assert(isnan(g->r[0].remote_cpu_pct), "-1 is omni's 'not measured'");
	cr_assert(g->r[1].tcp);
	cr_assert_eq(g->r[1].size_conv, PCIBW_SIZE_WRITE);
	near(g->r[1].gbps, 9.41305);
	near(g->r[1].remote_cpu_pct, 25.55);
	cr_assert_eq(st.skipped, 1, "the Trans/s row");
	free(g);
}

/* Runs one after another (a shell loop over sizes), each with its banner and its own header,
 * the second with its columns in another order: every run read by its own header, the numbers
 * the fixture's header states. */
Test(ingest_netperf, omni_concatenated_runs)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("analyze/synthetic-netperf-omni-loop.csv"), NULL, &st);
	cr_assert_eq(st.format, PCIBW_FMT_NETPERF_OMNI);
	cr_assert_eq(g->n, 3);
	static const double size[] = {64, 512, 1472}, pps[] = {100000, 80000, 50000},
			    gbps[] = {0.0512, 0.32768, 0.5888}, cpu[] = {20, 30, 40};
	for (int i = 0; i < 3; i++) {
		cr_assert(!g->r[i].tcp, "run %d", i + 1);
		cr_assert_eq(g->r[i].size_bytes, size[i], "run %d", i + 1);
		near(g->r[i].pps, pps[i]);
		near(g->r[i].gbps, gbps[i]);
		near(g->r[i].cpu_pct, cpu[i]);
	}
	cr_assert(isnan(g->r[1].remote_cpu_pct), "run 2 selected no remote CPU");
	cr_assert_eq(st.skipped, 0);
	free(g);
}

/* watch --format csv's time_s column is read: the span the input covers (0 to 3.25 s, the
 * fixture's first and last time_s) is said in a note, not warned about as a column not used;
 * a negative time is refused at its line and column. */
Test(ingest_csv, time_column_gives_the_span)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("analyze/synthetic-time-column.csv"), NULL, &st);
	cr_assert_eq(g->n, 3);
	bool said = false;
	for (int i = 0; i < st.n_notes; i++)
		said |= strstr(st.notes[i], "measured from time_s = 0.000 s to 3.250 s (3.250 s)") != NULL;
	cr_expect(said, "no span note (%d notes; first: %s)", st.n_notes, st.n_notes ? st.notes[0] : "");
	for (int i = 0; i < st.n_warnings; i++)
		cr_expect(!strstr(st.warnings[i], "time_s"), "warning: %s", st.warnings[i]);
	free(g);
	const char *bad = temp_file("time_s,frame_bytes,pps\n1,64,1000\n-1,64,1000\n", ".csv");
	struct pcibw_err err = {0};
	g = calloc(1, sizeof *g);
	cr_expect_eq(pcibw_ingest_file(bad, NULL, collect, g, &st, &err), PCIBW_EINPUT);
	cr_expect(strstr(err.msg, ":3:1: -1 is negative (expected a time in seconds"), "%s", err.msg);
	free(g);
}

/* iperf3 3.12 UDP over loopback: the .src sidecar's key numbers. */
Test(ingest_iperf3, udp_loopback)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("bench/iperf3-3.12-loopback-udp-1024B-400M.json"), NULL, &st);
	cr_assert_eq(st.format, PCIBW_FMT_IPERF3);
	cr_assert_eq(g->n, 2);
	cr_assert_str_eq(g->r[0].series, "sender");
	cr_assert_eq(g->r[0].size_bytes, 1024);
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_UDP_PAYLOAD);
	near6(g->r[0].gbps, 398849304.054872e-9);
	near(g->r[0].pps, 146064 / 3.000021);
	near6(g->r[0].core_max_pct, 29.695578);
	cr_assert_str_eq(g->r[1].series, "receiver");
	near(g->r[1].pps, (146063 - 86929) / 3.011615);
	near6(g->r[1].core_max_pct, 11.522790);
	free(g);
}

/* -R: the client receives, so the sender's CPU is the remote's. */
Test(ingest_iperf3, udp_reverse)
{
	struct got *g =
	    read_ok(test_data("bench/iperf3-3.12-loopback-udp-64B-unlimited-reverse.json"), NULL, NULL);
	cr_assert_eq(g->n, 2);
	near(g->r[0].pps, 338360 / 3.007935);
	near6(g->r[0].core_max_pct, 40.630044);
	near(g->r[1].pps, (337162 - 237039) / 3.003839);
	near6(g->r[1].core_max_pct, 16.875947);
	free(g);
}

/* The real cloud capture: 266.3 / 275.5 Mbit/s, CPU 2.68 / 2.27, two omitted intervals. */
Test(ingest_iperf3, tcp_real)
{
	struct pcibw_ingest_stats st;
	struct got *g =
	    read_ok(test_data("bench/iperf3-json-tcp-gcp-to-ibm-wdc-rtt77ms-266mbps-cpu.json"), NULL, &st);
	cr_assert_eq(g->n, 2);
	cr_assert(fabs(g->r[0].gbps - 0.2663) < 0.00005, "%g", g->r[0].gbps);
	cr_assert(fabs(g->r[1].gbps - 0.2755) < 0.00005, "%g", g->r[1].gbps);
	cr_assert(fabs(g->r[0].core_max_pct - 2.68) < 0.005);
	cr_assert(fabs(g->r[1].core_max_pct - 2.27) < 0.005);
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_WRITE);
	cr_assert_eq(g->r[0].size_bytes, 131072);
	cr_assert(strstr(st.notes[0], "2 iperf3 interval(s) marked omitted (the -O warm-up) left out"), "%s",
		  st.notes[0]);
	free(g);
}

/* The TCP path of the real cloud capture, by hand from the file: the 10 counted intervals
 * (intervals[2..11], after the two omitted) give snd_cwnd x 8 / rtt of 3483392 B / 82679 us =
 * 337.05 Mbit/s over 2.000555 s, 366.27, 370.19, 369.81, 382.46, 384.42, 199.31, 210.70, 155.59
 * and 163.15 Mbit/s over about 1 s each: time-weighted 297.82 Mbit/s; their mean window
 * 28386688 / 10 = 2838668.8 B; end.streams[0].sender max_snd_cwnd 3734016 B x 8 / mean_rtt
 * 77171 us = 387.09 Mbit/s; min/max_rtt 75955 / 82679 us; end.sum_sent.retransmits 709;
 * 332922880 B / MSS 1408 = 236450.9 segments; pmtu 1460; rttvar mean 11109 / 10 = 1110.9 us.
 * Both rows (sender and receiver) are the one connection: both carry the figures. */
Test(ingest_iperf3, tcp_path_real)
{
	struct got *g =
	    read_ok(test_data("bench/iperf3-json-tcp-gcp-to-ibm-wdc-rtt77ms-266mbps-cpu.json"), NULL, NULL);
	cr_assert_eq(g->n, 2);
	for (int i = 0; i < 2; i++) {
		const struct pcibw_tcp_path *p = &g->r[i].tcp_path;
		cr_assert_eq(p->samples, 10);
		cr_assert(fabs(p->window_gbps - 0.29782) < 0.000005, "%.9g", p->window_gbps);
		near(p->window_bytes, 2838668.8);
		near(p->max_cwnd_bytes, 3734016);
		near(p->max_window_gbps, 3734016 * 8 / 77171e-6 / 1e9);
		cr_assert(fabs(p->max_window_gbps - 0.3871) < 0.00005);
		near(p->rtt_us, 77171);
		near(p->rtt_min_us, 75955);
		near(p->rtt_max_us, 82679);
		near(p->rttvar_us, 1110.9);
		near(p->retransmits, 709);
		near(p->segments, 332922880.0 / 1408);
		near(p->pmtu, 1460);
		cr_assert(!p->rwnd_limited, "iperf 3.9 writes no snd_wnd");
	}
	free(g);
}

/* iperf3 3.12 over loopback with -P 2: interval 1 (not omitted) of stream 5 is 1440626 B at
 * 161 us = 71.58 Gbit/s, and its snd_wnd 25922560 B is the larger window; UDP has no path. */
Test(ingest_iperf3, tcp_path_loopback_and_udp)
{
	struct got *g = read_ok(test_data("bench/iperf3-3.12-loopback-tcp-P2.json"), NULL, NULL);
	const struct pcibw_tcp_path *p = &g->r[0].tcp_path;
	cr_assert_gt(p->samples, 0);
	cr_assert_gt(p->window_gbps, 10, "a loopback window allows tens of Gbit/s: %g", p->window_gbps);
	/* end.sum_sent.retransmits 6; max_snd_cwnd 3012218 + 2750286 B */
	near(p->retransmits, 6);
	near(p->max_cwnd_bytes, 3012218.0 + 2750286);
	/* streams' mean_rtt 389 and 470 us weighted by their bytes 1511260160 and 1477050368 */
	near(p->rtt_us, (389.0 * 1511260160 + 470.0 * 1477050368) / (1511260160.0 + 1477050368));
	near(p->rtt_min_us, 161);
	near(p->rtt_max_us, 624);
	free(g);
	g = read_ok(test_data("bench/iperf3-3.12-loopback-udp-1024B-400M.json"), NULL, NULL);
	cr_assert_eq(g->r[0].tcp_path.samples, 0);
	cr_assert(isnan(g->r[0].tcp_path.max_window_gbps));
	cr_assert(!pcibw_tcp_path_known(&g->r[0].tcp_path));
	free(g);
}

/* pcie-bench: "BW (GB/s)" holds Gbit/s; test name -> dma pattern; SZ is the DMA size. */
Test(ingest_pciebench, sweep)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(
	    test_data("bench/pciebench-nfp6000-hsw-e3-1226v3-fujitsu-tx1310-dma-size-sweep.csv"), NULL, &st);
	cr_assert_eq(st.format, PCIBW_FMT_PCIEBENCH);
	cr_assert_eq(g->n, 120, "40 sizes x RD, WR, RW");
	cr_assert_eq(g->r[0].direction, PCIBW_PAT_DMA_READ);
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_DMA);
	cr_assert_eq(g->r[0].size_bytes, 16);
	near(g->r[0].gbps, 4.054986287023991);
	near(g->r[0].pps, 31679580.367374927);
	/* the file's own check: Bytes x 8 / Time(ns) = BW: 134217728 x 8 / 264795426.67 = 4.055 */
	near(134217728.0 * 8 / 264795426.66666666, g->r[0].gbps);
	cr_assert_eq(g->r[80].direction, PCIBW_PAT_DMA_RW);
	free(g);
}

/* the number of rows read and the last of them, for inputs larger than MAXR rows */
struct tail {
	int n;
	struct pcibw_measured last;
};

static int keep_last(const struct pcibw_measured *m, void *ctx, struct pcibw_err *err)
{
	(void)err;
	struct tail *t = ctx;
	t->n++;
	t->last = *m;
	return PCIBW_OK;
}

/* A '#' line is a comment wherever the reads split the file: one crossing the end of the first
 * block read for format detection (8192 bytes) or of a later 64 KiB read is skipped whole, and
 * the row after it is read as written (size 128, 2000 pps, its own line number). */
Test(ingest_csv, comment_across_read_boundaries)
{
	const long cut[] = {8192, 8192 + 65536};
	for (int k = 0; k < 2; k++) {
		char *text = malloc(80 * 1024);
		cr_assert(text);
		size_t len = (size_t)sprintf(text, "frame_bytes,pps\n");
		unsigned lines = 1;
		while (len + 8 < (size_t)cut[k] - 10) {
			len += (size_t)sprintf(text + len, "64,1000\n");
			lines++;
		}
		len += (size_t)sprintf(text + len, "# a comment that crosses the read boundary\n128,2000\n");
		lines += 2;
		cr_assert_gt(len, (size_t)cut[k]);
		const char *p = temp_file(text, "");
		free(text);
		struct tail t = {0};
		struct pcibw_err err = {0};
		int r = pcibw_ingest_file(p, NULL, keep_last, &t, NULL, &err);
		unlink(p);
		cr_assert_eq(r, PCIBW_OK, "cut at %ld: %s", cut[k], err.msg);
		cr_assert_eq(t.n, (int)lines - 2, "every data row read (cut at %ld)", cut[k]);
		cr_assert_eq(t.last.size_bytes, 128);
		near(t.last.pps, 2000);
		cr_assert_eq(t.last.line, lines);
	}
}
/* A file of comments only, its last line without a newline, has no header: the error says so at
 * its start instead of reading the comment as column names. */
Test(ingest_csv, comment_only_without_newline)
{
	const char *p = temp_file("# only a comment", "");
	struct got g = {0};
	struct pcibw_err err = {0};
	int r = pcibw_ingest_file(p, NULL, collect, &g, NULL, &err);
	unlink(p);
	cr_assert_eq(r, PCIBW_EINPUT);
	cr_assert(strstr(err.msg, ":1:1: no header line"), "%s", err.msg);
}

/* A UTF-8 byte-order mark before iperf3 -J output (an editor's save) is read past, as in every
 * other format (RFC 8259 sec. 8.1 lets a parser ignore one): the same rows as the file itself
 * (the sidecar's key numbers, as in udp_loopback). */
Test(ingest_iperf3, bom_read_past)
{
	size_t len;
	char *text = slurp(test_data("bench/iperf3-3.12-loopback-udp-1024B-400M.json"), &len);
	cr_assert(text);
	char *with_bom = malloc(len + 4);
	cr_assert(with_bom);
	memcpy(with_bom, "\xEF\xBB\xBF", 3);
	memcpy(with_bom + 3, text, len + 1);
	free(text);
	const char *p = temp_file(with_bom, ".json");
	free(with_bom);
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(p, NULL, &st);
	cr_assert_eq(st.format, PCIBW_FMT_IPERF3);
	cr_assert_eq(g->n, 2);
	near6(g->r[0].gbps, 398849304.054872e-9);
	near(g->r[1].pps, (146063 - 86929) / 3.011615);
	free(g);
	unlink(p);
}

/* iperf3 3.12 with -P 2 writes start.sock_bufsize, sndbuf_actual and rcvbuf_actual once per
 * stream (the capture as iperf3 wrote it, its .src sidecar says so): still read, its two sums
 * from the sidecar's key numbers. */
Test(ingest_iperf3, parallel_streams_repeat_three_start_keys)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_ok(test_data("bench/iperf3-3.12-loopback-tcp-P2.json"), NULL, &st);
	cr_assert_eq(g->n, 2);
	near6(g->r[0].gbps, 11944588257.807219e-9);
	near6(g->r[1].gbps, 11935899250.389185e-9);
	free(g);
}

/* iperf3 3.12's server side (-s -J) writes start.target_bitrate twice and, for TCP,
 * start.tcp_mss_default 0 (it never set an MSS): both captures are read as iperf3 wrote them,
 * the receiver's sum from the sidecars' key numbers (sum_received bits_per_second). */
Test(ingest_iperf3, server_side_captures_are_read)
{
	struct pcibw_ingest_stats st;
	struct got *g =
	    read_ok(test_data("bench/iperf3-3.12-loopback-udp-1024B-400M-server.json"), NULL, &st);
	int rx = -1;
	for (int i = 0; i < g->n; i++)
		if (g->r[i].gbps > 0)
			rx = i;
	cr_assert(rx >= 0, "no row with a rate");
	near6(g->r[rx].gbps, 97955975.08033417e-9);
	free(g);
	g = read_ok(test_data("bench/iperf3-3.12-loopback-tcp-server.json"), NULL, &st);
	rx = -1;
	for (int i = 0; i < g->n; i++)
		if (g->r[i].gbps > 0)
			rx = i;
	cr_assert(rx >= 0, "no row with a rate");
	near6(g->r[rx].gbps, 7800122554.907203e-9);
	free(g);
}

/* An iperf3 server's capture (-s -J: start.accepted_connection) holds 0 bytes at 0 bit/s in the
 * sums of the direction it did not carry: no row for them, only the receiver's (the .src
 * sidecars' key numbers), and the server's own CPU (cpu_utilization_percent.host_total) is that
 * receiver's. */
Test(ingest_iperf3, server_capture_gives_the_side_it_measured)
{
	struct pcibw_ingest_stats st;
	/* sum_sent 0 bytes; sum_received 97955975.08033417 bit/s, 36954112 bytes over 3.018018 s of
	 * 1024 B datagrams; host_total 5.878906981282805 */
	struct got *g =
	    read_ok(test_data("bench/iperf3-3.12-loopback-udp-1024B-400M-server.json"), NULL, &st);
	cr_assert_eq(g->n, 1, "%d rows", g->n);
	cr_assert_str_eq(g->r[0].series, "receiver");
	cr_assert_eq(g->r[0].direction, PCIBW_PAT_RX);
	near(g->r[0].gbps, 97955975.08033417e-9);
	near(g->r[0].pps, 36954112.0 / 1024 / 3.018018);
	near(g->r[0].core_max_pct, 5.878906981282805);
	bool said = false;
	for (int i = 0; i < st.n_notes; i++)
		said = said || strstr(st.notes[i], "end.sum_sent holds 0 bytes");
	cr_assert(said, "no note names the blank sum");
	free(g);
	/* TCP: sum_sent 0 bytes; sum_received 7800122554.907203 bit/s; host_total 17.58461312398078 */
	g = read_ok(test_data("bench/iperf3-3.12-loopback-tcp-server.json"), NULL, &st);
	cr_assert_eq(g->n, 1, "%d rows", g->n);
	cr_assert_str_eq(g->r[0].series, "receiver");
	near(g->r[0].gbps, 7800122554.907203e-9);
	near(g->r[0].core_max_pct, 17.58461312398078);
	free(g);
	/* --bidir: sum_sent and sum_received_bidir_reverse 0 bytes; sum_received 11299318.05535786
	 * bit/s (4366000 bytes of 1000 B over 3.09116 s), sum_sent_bidir_reverse 81036245.29302916
	 * bit/s (the server sending); host_total 6.07060132765693 for both (the server's process) */
	g = read_ok(test_data("bench/iperf3-3.12-loopback-udp-1000B-100M-bidir-server.json"), NULL, &st);
	cr_assert_eq(g->n, 2, "%d rows", g->n);
	cr_assert_str_eq(g->r[0].series, "receiver");
	near(g->r[0].gbps, 11299318.05535786e-9);
	near(g->r[0].pps, 4366000.0 / 1000 / 3.09116);
	near(g->r[0].core_max_pct, 6.07060132765693);
	cr_assert_str_eq(g->r[1].series, "reverse sender");
	cr_assert_eq(g->r[1].direction, PCIBW_PAT_TX);
	near(g->r[1].gbps, 81036245.29302916e-9);
	near(g->r[1].core_max_pct, 6.07060132765693);
	free(g);
}

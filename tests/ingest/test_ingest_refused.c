/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where and why an input is refused or a part of it left out: iperf3 -J values named by their
 * JSON path (a value has no line once the document is loaded), a negative bit rate called a bit
 * rate, and pcie-model's calculated output (a model, not a measurement) refused at its header.
 */
#include "pcibw/ingest.h"
#include "support.h"
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int count(const struct pcibw_measured *m, void *ctx, struct pcibw_err *err)
{
	(void)m, (void)err;
	++*(int *)ctx;
	return PCIBW_OK;
}

/* A UDP test of 1024 B datagrams: two intervals (the second as given), one sender sum. */
static const char *udp_doc(const char *iv2, const char *end_bps)
{
	static char doc[1024];
	snprintf(
	    doc, sizeof doc,
	    "{\"start\": {\"test_start\": {\"protocol\": \"UDP\", \"num_streams\": 1, \"blksize\": 1024, "
	    "\"reverse\": 0}},\n"
	    "\"intervals\": [{\"sum\": {\"bits_per_second\": 1e9, \"seconds\": 1, \"packets\": 122070}},\n"
	    "  {\"sum\": %s}],\n"
	    "\"end\": {\"sum_sent\": {\"bits_per_second\": %s, \"seconds\": 2, \"bytes\": 250000000}}}\n",
	    iv2, end_bps);
	return temp_file(doc, "");
}

Test(ingest_refused, iperf3_null_interval_named_by_path)
{
	const char *p = udp_doc("{\"bits_per_second\": null, \"seconds\": 1}", "1e9");
	struct pcibw_ingest_stats st;
	struct pcibw_err err = {0};
	int rows = 0;
	cr_assert_eq(pcibw_ingest_file(p, NULL, count, &rows, &st, &err), PCIBW_OK, "%s", err.msg);
	cr_expect_eq(rows, 1);
	cr_expect_eq(st.skipped, 1);
	char want[200];
	snprintf(want, sizeof want,
		 "%s: iperf3 JSON key intervals[1].sum.bits_per_second is null or missing: interval left out",
		 p);
	cr_expect_str_eq(st.first_skip, want);
	cr_expect_null(strstr(st.first_skip, ":0:"), "%s", st.first_skip);
	unlink(p);

	/* the end sum null: its path, no line */
	p = udp_doc("{\"bits_per_second\": 1e9, \"seconds\": 1}", "null");
	rows = 0;
	cr_assert_eq(pcibw_ingest_file(p, NULL, count, &rows, &st, &err), PCIBW_OK, "%s", err.msg);
	cr_expect_eq(rows, 0);
	snprintf(want, sizeof want, "%s: iperf3 JSON key end.sum_sent.bits_per_second is null: sum left out",
		 p);
	cr_expect_str_eq(st.first_skip, want);
	unlink(p);
}

Test(ingest_refused, iperf3_negative_rate_is_a_rate)
{
	const char *p = udp_doc("{\"bits_per_second\": -5, \"seconds\": 1}", "1e9");
	struct pcibw_err err = {0};
	int rows = 0;
	cr_assert_eq(pcibw_ingest_file(p, NULL, count, &rows, NULL, &err), PCIBW_EINPUT);
	char want[300];
	snprintf(
	    want, sizeof want,
	    "%s: iperf3 JSON key intervals[1].sum.bits_per_second: -5 bit/s is negative (expected a bit rate",
	    p);
	cr_expect(!strncmp(err.msg, want, strlen(want)), "%s", err.msg);
	cr_expect_null(strstr(err.msg, "count"), "%s", err.msg);
	unlink(p);

	/* a syntax error keeps jansson's line and column: line 3, the bare word */
	p = temp_file("{\"start\": {\n\"test_start\": {},\n\"x\": nul}}\n", "");
	cr_assert_eq(pcibw_ingest_file(p, NULL, count, &rows, NULL, &err), PCIBW_EINPUT);
	snprintf(want, sizeof want, "%s:3:", p);
	cr_expect(!strncmp(err.msg, want, strlen(want)), "%s", err.msg);
	unlink(p);
}

/* pcie-bench/data's bw_calc.dat: three '#' lines of provenance, then pcie_bw.py's header on line 4 */
Test(ingest_refused, pcie_model_output_is_not_a_measurement)
{
	const char *p = test_data("bench/pciebench-model-gen3x8-bw-calc.dat");
	struct pcibw_err err = {0};
	int rows = 0;
	cr_assert_eq(pcibw_ingest_file(p, NULL, count, &rows, NULL, &err), PCIBW_EINPUT);
	char want[1100];
	snprintf(want, sizeof want, "%s:4: this is pcie-model's calculated output", p);
	cr_expect(!strncmp(err.msg, want, strlen(want)), "%s", err.msg);
	cr_expect(strstr(err.msg, "not a measurement"), "%s", err.msg);
	cr_expect_eq(rows, 0);
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", p, NULL});
	cr_expect_eq(r.status, 3, "%s", r.err);
	cr_expect(strstr(r.err, ":4: this is pcie-model's calculated output"), "%s", r.err);
	run_free(&r);
}

/* A classic netperf throughput past the bit-rate range (100000 Gbit/s) is refused at its field,
 * line and column, as every other value is. The TCP_STREAM result line of
 * synthetic-netperf-classic.txt (its line 15) with 999999999999.05 x 10^6 bit/s: the field starts
 * at column 36 (" 87380  16384  16384    10.00      " is 35 characters). */
Test(ingest_refused, netperf_throughput_out_of_range_names_its_column)
{
	char *text = slurp(test_data("analyze/synthetic-netperf-classic.txt"), NULL);
	cr_assert(text);
	char *at = strstr(text, "10.00      9413.05 "); /* the result line, not the header's note */
	cr_assert(at, "the TCP_STREAM result");
	at += strlen("10.00     ");
	size_t head = (size_t)(at - text) + 1;
	char buf[8192];
	cr_assert(strlen(text) + 16 < sizeof buf);
	snprintf(buf, sizeof buf, "%.*s999999999999.05%s", (int)head, text, at + 8);
	free(text);
	const char *path = temp_file(buf, "");
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", path, "--bus", "gen3x8", NULL});
	cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	char want[600];
	snprintf(want, sizeof want, "%s:15:36: throughput is out of range (expected a bit rate", path);
	cr_expect(strstr(r.err, want), "want %s in: %s", want, r.err);
	run_free(&r);
	unlink(path);
}

/* The FILE:LINE:COLUMN of text's occurrence n (from 0) of needle, columns in bytes. */
static void place_of(const char *text, const char *needle, int n, unsigned *line, unsigned *col)
{
	const char *at = text;
	for (int i = 0; i <= n; i++) {
		at = strstr(i ? at + 1 : at, needle);
		cr_assert(at, "occurrence %d of %s", i, needle);
	}
	*line = 1;
	*col = 1;
	for (const char *c = text; c < at; c++, ++*col)
		if (*c == '\n')
			++*line, *col = 0;
}

/* A key given twice in one iperf3 object is refused at its second place (jansson would keep the
 * last one silently: "UDP" then "TCP" read as TCP), however it is spelled: a key holding an
 * escaped quote, and a repeat deep in the document. */
Test(ingest_refused, iperf3_key_given_twice_refused_at_its_place)
{
	static const char *const docs[][2] = {
	    {"{\"start\": {\"test_start\": {\"protocol\": \"UDP\", \"num_streams\": 1,\n"
	     "  \"protocol\": \"TCP\", \"blksize\": 1024, \"reverse\": 0}},\n"
	     "\"end\": {\"sum_sent\": {\"bits_per_second\": 1e9, \"seconds\": 2}}}\n",
	     "\"protocol\""},
	    {"{\"start\": {\"test_start\": {\"protocol\": \"TCP\", \"blksize\": 1024, \"x\\\"y\": 1,\n"
	     "  \"x\\\"y\": 2}},\n"
	     "\"end\": {\"sum_sent\": {\"bits_per_second\": 1e9, \"seconds\": 2}}}\n",
	     "\"x\\\"y\""},
	    {"{\"start\": {\"test_start\": {\"protocol\": \"TCP\", \"blksize\": 1024}},\n"
	     "\"end\": {\"sum_sent\": {\"bits_per_second\": 1e9, \"seconds\": 2,\n"
	     "    \"bits_per_second\": 9e9}}}\n",
	     "\"bits_per_second\""},
	};
	for (unsigned i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		const char *p = temp_file(docs[i][0], ".json");
		unsigned line, col;
		place_of(docs[i][0], docs[i][1], 1, &line, &col);
		struct pcibw_err err = {0};
		int rows = 0;
		cr_expect_eq(pcibw_ingest_file(p, NULL, count, &rows, NULL, &err), PCIBW_EINPUT, "doc %u", i);
		char want[400];
		snprintf(want, sizeof want, "%s:%u:%u: key %s given twice in one object", p, line, col,
			 docs[i][1]);
		cr_expect(!strncmp(err.msg, want, strlen(want)), "doc %u: want '%s', got '%s'", i, want,
			  err.msg);
		cr_expect_eq(rows, 0);
		unlink(p);
	}
}

/* The three keys iperf3 3.12 repeats per stream (start.sock_bufsize, sndbuf_actual,
 * rcvbuf_actual; pcibw reads none) stay allowed, every other repeat beside them is still
 * refused. */
Test(ingest_refused, iperf3_stream_keys_repeat_but_nothing_else)
{
	static const char head[] =
	    "{\"start\": {\"sock_bufsize\": 0, \"sndbuf_actual\": 16384, \"rcvbuf_actual\": 131072,\n"
	    " \"sock_bufsize\": 0, \"sndbuf_actual\": 16384, \"rcvbuf_actual\": 131072,\n"
	    " \"sock_bufsize\": 0, \"sndbuf_actual\": 16384, \"rcvbuf_actual\": 131072,\n"
	    " \"test_start\": {\"protocol\": \"TCP\", \"blksize\": 131072%s}},\n"
	    "\"end\": {\"sum_sent\": {\"bits_per_second\": 1e9, \"seconds\": 2}}}\n";
	char doc[1024];
	snprintf(doc, sizeof doc, head, "");
	const char *p = temp_file(doc, ".json");
	struct pcibw_err err = {0};
	int rows = 0;
	cr_expect_eq(pcibw_ingest_file(p, NULL, count, &rows, NULL, &err), PCIBW_OK, "%s", err.msg);
	cr_expect_eq(rows, 1);
	unlink(p);
	snprintf(doc, sizeof doc, head, ", \"blksize\": 64");
	p = temp_file(doc, ".json");
	unsigned line, col;
	place_of(doc, "\"blksize\"", 1, &line, &col);
	cr_expect_eq(pcibw_ingest_file(p, NULL, count, &rows, NULL, &err), PCIBW_EINPUT);
	char want[400];
	snprintf(want, sizeof want, "%s:%u:%u: key \"blksize\" given twice", p, line, col);
	cr_expect(!strncmp(err.msg, want, strlen(want)), "want '%s', got '%s'", want, err.msg);
	unlink(p);
}

/* iperf3 counts lost datagrams among the receiver's packets (Lost/Total): more lost than packets
 * is no loss figure, and that is said rather than the loss note dropped without a word. */
Test(ingest_refused, iperf3_more_lost_than_packets_is_said)
{
	const char *p = temp_file(
	    "{\"start\": {\"test_start\": {\"protocol\": \"UDP\", \"num_streams\": 1, \"blksize\": 1024, "
	    "\"reverse\": 0}},\n"
	    "\"end\": {\"sum_sent\": {\"bits_per_second\": 1e9, \"seconds\": 2, \"bytes\": 250000000},\n"
	    "  \"sum_received\": {\"bits_per_second\": 5e8, \"seconds\": 2, \"bytes\": 125000000, "
	    "\"packets\": 100, \"lost_packets\": 200}}}\n",
	    ".json");
	struct pcibw_ingest_stats st;
	struct pcibw_err err = {0};
	int rows = 0;
	cr_assert_eq(pcibw_ingest_file(p, NULL, count, &rows, &st, &err), PCIBW_OK, "%s", err.msg);
	cr_expect_eq(rows, 2);
	bool said = false;
	for (int i = 0; i < st.n_warnings; i++)
		said |= strstr(st.warnings[i],
			       "end.sum_received.lost_packets 200 is more than its packets 100") != NULL;
	cr_expect(said, "no warning about 200 lost of 100 packets (%d warnings)", st.n_warnings);
	for (int i = 0; i < st.n_notes; i++)
		cr_expect(!strstr(st.notes[i], "lost, as iperf3 counts them"), "a loss stated: %s",
			  st.notes[i]);
	unlink(p);
}

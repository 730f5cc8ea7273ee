/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where and why an input is refused or a part of it left out: iperf3 -J values named by their
 * JSON path (a value has no line once the document is loaded), a negative bit rate called a bit
 * rate, and pcie-model's calculated output (a model, not a measurement) refused at its header.
 */
#include "pcibw/ingest.h"
#include "support.h"
#include <criterion/criterion.h>
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

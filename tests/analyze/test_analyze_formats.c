/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw analyze` on captures as the tools and spreadsheets write them: iperf3 -J with -P, -O,
 * --bidir and per-thread CPU, spreadsheet headers and delimiters, netperf omni -O. Expected values
 * come from the captures' own numbers (their .src sidecars), the contract (doc/cli-contract.md)
 * or hand arithmetic written next to each check; never from pcibw.
 */
#include "analyze_support.h"

/*
 * iperf3 3.12 run with -P N writes start.sock_bufsize, sndbuf_actual and rcvbuf_actual once
 * per stream into the same object: such a file is read, not refused as "duplicate object key", with
 * end.sum_sent / sum_received bits_per_second from the capture's .src.
 */
Test(formats_iperf3, parallel_streams_duplicate_keys)
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
 * The receiver's packet rate comes from its bytes, not (packets - lost_packets) / seconds:
 * iperf3 before 3.14 also counts the -O omitted interval's datagrams as lost (esnet/iperf #1489,
 * PR #1498), which would fall short of what arrived. Expected from the .src:
 * 224909312 bytes / 1024 B per datagram / 3.000177 s = 73207.8 datagrams/s, and Gbit/s
 * 73207.8 x 1024 x 8 / 10^9 = 0.599723 (iperf3's own 599722781.689 bit/s); the lost-count figure
 * would be (219724 - 4720) / 3.000177 = 71663.8.
 */
Test(formats_iperf3, receiver_rate_from_bytes_with_omit)
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

/* The loss a UDP capture shows is stated as iperf3 counts it: the .src of the 1400 B capture gives
 * sum_received 167309 packets, 75012 lost (75012 / 167309 = 44.8 %); of the P2 -O 1 capture
 * end.sum_received.lost_packets 4720 of 219724 packets (2.15 %), where the bytes differ by
 * (224997376 - 224909312) / 1024 = 86 datagrams (the omitted interval, esnet/iperf #1489). */
Test(formats_iperf3, udp_loss_noted)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-udp-1400B-1G-loss.json"),
				   "--json", NULL});
	json_t *notes = json_object_get(json_array_get(json_object_get(j, "inputs"), 0), "notes");
	bool found = false;
	for (size_t i = 0; i < json_array_size(notes); i++)
		found |= strstr(json_string_value(json_array_get(notes, i)),
				"75012 of 167309 datagrams (44.8 %) lost, as iperf3 counts them") != NULL;
	cr_assert(found, "no loss note");
	json_decref(j);
	j = analyze_json(
	    NULL,
	    (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-udp-1024B-300M-P2-omit1.json"),
			     "--json", NULL});
	notes = json_object_get(json_array_get(json_object_get(j, "inputs"), 0), "notes");
	found = false;
	for (size_t i = 0; i < json_array_size(notes); i++) {
		const char *n = json_string_value(json_array_get(notes, i));
		found |= strstr(n, "4720 of 219724 datagrams (2.15 %) lost") &&
			 strstr(n, "differ by 86 datagrams");
	}
	cr_assert(found, "no loss note with iperf3's own count");
	json_decref(j);
}

/*
 * iperf3 --bidir's server-to-client sums (end.sum_sent_bidir_reverse / _received_) are read:
 * they are half the traffic. Expected, from the capture's .src: four rows;
 * the reverse sender 100012798.56656055 bit/s = 25006000 B / 1000 B / 2.000224 s = 12501.6
 * datagrams/s, its CPU the server's (remote_total 20.78...); the reverse receiver
 * 24220000 B / 1000 B / 2.005655 s datagrams/s, its CPU the client's (host_total 19.86...).
 */
Test(formats_iperf3, bidir_reverse_direction_read)
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

/* iperf3 3.16+ (one thread per stream) reports process CPU above 100 %: such real files are read,
 * not refused as "out of range (cpu_pct is a share of all CPUs)"; the busiest core
 * left unknown with a note; a figure above 4096 busy cores is still refused. */
Test(formats_iperf3, cpu_above_100_from_threads)
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

/* Headers as spreadsheets write them: "Frame Bytes" (a blank for '_'), "CPU %" and "Frame size
 * (bytes)" (a size, not a rate with an unknown unit) are recognised. Expected: frame size 1518, CPU 45 % =
 * 0.45, and 940 Mbit/s = 0.94 Gbit/s; the generic word "Throughput" names no series. */
Test(formats_csv, spreadsheet_headers)
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
Test(formats_csv, semicolon_and_tab_delimiters)
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

/* A bit-rate column that disagrees with the packet rate is stated, not silently dropped. From the
 * Ostinato 1G file: 618 Mbit/s vs 920 kpps x 64 B x 8 = 471.04 Mbit/s: 618 / 471.04 - 1 = 31 %;
 * the author's mbps counts the wire ((64 + 20) x 920e3 x 8 = 618.24 Mbit/s): with --rate-basis
 * wire they agree (0.04 %), and nothing is said. */
Test(formats_csv, rate_mismatch_stated)
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

/* On a pcie-bench sweep the size is the bytes of one DMA transfer: no framing is left for the bit
 * rate to count, so the mismatch evidence says what to check in the file, never --rate-basis. The
 * synthetic file's 'BW (GB/s)' is its source line's 32.0185 Gbit/s divided by 8 (its header):
 * 1/8 of 62536209.68 transfers/s x 64 B x 8, 87.5 % below. */
Test(formats_pciebench, rate_mismatch_says_what_to_check)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("analyze/synthetic-pciebench-bw-in-gbytes.csv"),
				   "--bus", "gen3x8", "--json", NULL});
	json_t *r = find_row(j, 64, NULL, NULL);
	cr_assert(r, "no 64 B row");
	cr_assert(evidence_has(r, "below what the transfer rate gives at 64 B per DMA transfer"),
		  "no DMA mismatch evidence");
	cr_assert(evidence_has(r, "SZ x Trans/s x 8 / 10^9"), "the evidence does not say what to check");
	cr_assert(!evidence_has(r, "--rate-basis"), "--rate-basis does not apply to a DMA size");
	json_decref(j);
}

/*
 * netperf omni -O ("human readable") output. The fixture's header gives the
 * numbers: run 1 (two blocks) UDP, 1472 B, 1,000,000 send calls in 10.00 s = 100,000 msg/s,
 * 100000 x 1472 x 8 / 10^9 = 1.1776 Gbit/s, local CPU 50 %, busiest CPU 100 % (LOCAL_CPU_PEAK_UTIL
 * -> core_max_pct), service demand 6.957, remote -1 = not measured; with --cpus 2 --cpu-ghz 2
 * that is 0.5 x 2 x 2e9 / 1e5 = 20000 cycles per packet, and a busiest core >= 0.95 is
 * cpu-bound (contract). Run 2: TCP writes of 16384 B at 9413.05 Mbit/s: undetermined.
 */
Test(formats_netperf, omni_human_readable)
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
	/* the writes are counted as 1448 B segments (--mtu 1500 - 52): 9.41305e9 / (8 x 1448) pps */
	cr_assert_str_eq(jstr(tcp, "size_is"), "l3");
	assert_close(jnum(tcp, "measured_gbps"), 9.41305, 1e-12);
	assert_close(jnum(tcp, "measured_mpps"), 9.41305e9 / (8 * 1448) / 1e6,
		     1e-9); /* JSON keeps 10 digits */
	assert_close(jnum(tcp, "core_max_utilisation"), 0.235, 1e-12);
	cr_assert_str_eq(jstr(tcp, "verdict"), "undetermined");
	json_decref(j);
}

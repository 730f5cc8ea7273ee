/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TCP rows get packets (goodput / segment payload) and UDP datagrams above the MTU are IP
 * fragments. Expected values: the inputs' own numbers, the header sizes of RFC 791 (IPv4 20 B),
 * RFC 9293 (TCP 20 B), RFC 7323 (timestamps 12 B), RFC 768 (UDP 8 B), RFC 8200 (IPv6 40 B) and
 * IEEE 802.3 (18 B of Ethernet header and FCS, 20 B of preamble and gap), as hand arithmetic.
 */
#include "analyze_support.h"
#include "pcibw/verdict.h"

/* netperf TCP_STREAM at 9413.05 Mbit/s on 10GbE (the omni -O capture's TCP run): segments of
 * 1500 - 52 = 1448 B, 9413.05e6 / (8 x 1448) = 812,588 pps, each 1448 + 52 + 18 + 20 = 1538 B on
 * the wire: 812,588 x 1538 x 8 / 10^10 = 99.98 % >= 95 %: wire-bound. */
Test(tcp, netperf_stream_wire_bound)
{
	json_t *j =
	    analyze_json(NULL, (const char *[]){"analyze", test_data("analyze/synthetic-netperf-omni-O.txt"),
						"--line-rate", "10G", "--json", NULL});
	json_t *tcp = find_row(j, 16384, NULL, NULL);
	cr_assert_str_eq(jstr(tcp, "verdict"), "wire-bound");
	assert_close(jnum(tcp, "wire_utilisation"), 9413.05e6 / (8 * 1448) * 1538 * 8 / 10e9, 1e-9);
	cr_assert(!evidence_has(tcp, "write size"));
	json_decref(j);
}

/* iperf3 over the internet (GCP to IBM, iperf 3.9): start.tcp_mss_default 1408, so segments of
 * 1408 B: end.sum_sent 266338277.366 bit/s / (8 x 1408) = 23,645.1 pps. */
Test(tcp, iperf3_mss)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze",
				   test_data("bench/iperf3-json-tcp-gcp-to-ibm-wdc-rtt77ms-266mbps-cpu.json"),
				   "--json", NULL});
	json_t *rows = json_object_get(j, "rows"), *r;
	size_t i;
	bool sender = false;
	json_array_foreach(rows, i, r)
	{
		cr_assert_eq(jnum(r, "tcp_segment_bytes"), 1408);
		cr_assert_eq(jnum(r, "size_bytes"), 1408 + 52);
		cr_assert(evidence_has(r, "the MSS iperf3 reports"));
		if (!strcmp(jstr(r, "series"), "sender")) {
			sender = true;
			assert_close(jnum(r, "measured_mpps"), 266338277.36617228 / (8 * 1408) / 1e6, 1e-9);
		}
	}
	cr_assert(sender);
	json_decref(j);
}

/* iperf3 over loopback reports an MSS of 32768: said to be a loopback one. */
Test(tcp, iperf3_loopback_mss)
{
	json_t *j = analyze_json(
	    NULL,
	    (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-tcp-P2.json"), "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	cr_assert_eq(jnum(r, "tcp_segment_bytes"), 32768);
	cr_assert(evidence_has(r, "a loopback one"));
	cr_assert_eq(jnum(r, "streams"), 2, "-P 2");
	json_decref(j);
}

/* --mtu 9000: segments of 8948 B; --size-is tcp-payload: the size column is the segment. */
Test(tcp, mtu_and_tcp_payload)
{
	const char *p = temp_file("test,msg_size,mbps\nTCP_STREAM,65536,9900\n", ".csv");
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", p, "--mtu", "9000", "--line-rate", "10G", "--json", NULL});
	json_t *r = find_row(j, 65536, NULL, NULL);
	cr_assert_eq(jnum(r, "tcp_segment_bytes"), 8948);
	/* 9.9e9 / (8 x 8948) pps x (9000 + 18 + 20) B x 8 / 10^10 = 99.9 % */
	assert_close(jnum(r, "wire_utilisation"), 9.9e9 / (8 * 8948) * 9038 * 8 / 10e9, 1e-9);
	json_decref(j);
	unlink(p);

	p = temp_file("size,gbps\n1448,9.4\n", ".csv");
	j = analyze_json(NULL, (const char *[]){"analyze", p, "--size-is", "tcp-payload", "--json", NULL});
	r = find_row(j, 1448, NULL, NULL);
	assert_close(jnum(r, "measured_mpps"), 9.4e9 / (8 * 1448) / 1e6, 1e-9);
	cr_assert_eq(jnum(r, "size_bytes"), 1500);
	json_decref(j);
	unlink(p);

	struct run_result rr = run_pcibw(NULL, (const char *[]){"analyze", "-", "--mtu", "40", NULL});
	cr_assert_eq(rr.status, 2, "MTU below 68 refused");
	run_free(&rr);
}

/* IPv6: 72 B of IP and TCP headers, so 1428 B segments at MTU 1500. */
Test(tcp, ipv6_segments)
{
	struct pcibw_rows rs = {0};
	struct pcibw_err err;
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "v6";
	m.size_bytes = 131072;
	m.size_conv = PCIBW_SIZE_WRITE;
	m.tcp = true;
	m.ipv6 = true;
	m.gbps = 9.0;
	cr_assert_eq(pcibw_rows_add(&rs, &m, &err), PCIBW_OK);
	pcibw_rows_finish(&rs);
	pcibw_rows_packets(&rs, 1500, PCIBW_SIZE_FRAME);
	cr_assert_eq(rs.v[0].segment_bytes, 1428);
	cr_assert_eq(rs.v[0].size_bytes, 1500);
	assert_close(rs.v[0].pps, 9e9 / (8 * 1428), 1e-6);
	pcibw_rows_free(&rs);
}

/* The virtio sweep's 32768 B UDP datagrams at MTU 1500: 32776 B of IP data in fragments of
 * floor8(1480) = 1480 B = 23 fragments; 129571 messages in 60 s = 2159.5 datagrams/s, so
 * 49,669 packets/s of (32776 + 23 x 20) / 23 = 1445 B on average. */
Test(tcp, udp_fragments)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/netperf-qemu-riscv-virtio-msgsize-sweep.csv"),
				   "--nic", "virtio-net", "--json", NULL});
	json_t *r = find_row(j, 32768, "send", "UDP_STREAM");
	cr_assert_eq(jnum(r, "ip_fragments"), 23);
	assert_close(jnum(r, "measured_mpps"), 129571 / 60.0 * 23 / 1e6, 1e-9);
	assert_close(jnum(r, "size_bytes"), (32776.0 + 23 * 20) / 23, 1e-6); /* JSON keeps 10 digits */
	cr_assert(evidence_has(r, "each goes as 23 IP fragments"));
	/* 1024 B datagrams fit one 1052 B IP packet: not fragmented */
	cr_assert(isnan(jnum(find_row(j, 1024, "send", "UDP_STREAM"), "ip_fragments")));
	json_decref(j);
}

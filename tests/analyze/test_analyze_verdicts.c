/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw analyze` verdicts an engineer would sign, end to end (doc/cli-contract.md, "Verdicts and
 * default thresholds" and "analyze input"): the CSV TCP path columns (rtt_ms, cwnd_bytes,
 * window_bytes and their aliases) feeding the TCP window rule, poll_mode and polling profiles,
 * rx+tx rows sharing a core, a minority headline with verdict_rows, co-limits as `limits`, the
 * ASPM cause before a request for data, counters that disagree, and loopback runs. Expected
 * figures are the inputs' own numbers, worked in each synthetic file's header.
 */
#include "analyze_support.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#define assert_close(a, b, tol)                                                                              \
	cr_assert(fabs((a) - (b)) <= (tol), "%s = %.10g, expected %.10g (+-%g)", #a, (double)(a),            \
		  (double)(b), (double)(tol))

/* the array of strings at key, joined by "," */
static const char *joined(json_t *o, const char *key)
{
	static char buf[256];
	json_t *a = json_object_get(o, key), *x;
	cr_assert(json_is_array(a), "no array %s", key);
	size_t i, n = 0;
	buf[0] = '\0';
	json_array_foreach(a, i, x)
	{
		if (json_is_string(x))
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "," : "",
					      json_string_value(x));
		else
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld", i ? "," : "",
					      (long long)json_integer_value(x));
	}
	return buf;
}

static const char *code_at(json_t *row, size_t k)
{
	return json_string_value(json_object_get(json_array_get(json_object_get(row, "reasons"), k), "code"));
}

static bool has_code(json_t *row, const char *code)
{
	json_t *x;
	size_t i;
	json_array_foreach(json_object_get(row, "reasons"), i,
			   x) if (!strcmp(json_string_value(json_object_get(x, "code")), code)) return true;
	return false;
}

/* rtt_ms and cwnd_bytes: the window bound 0.8 Gbit/s, 0.875 of it measured: the TCP path holds the
 * row, its line first, `limits` ["tcp-window"] */
Test(verdicts, csv_rtt_and_cwnd_feed_the_tcp_rule)
{
	json_t *j =
	    analyze_json(NULL, (const char *[]){"analyze", test_data("analyze/synthetic-tcp-rtt-cwnd.csv"),
						"--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	json_t *p = json_object_get(r, "tcp_path");
	assert_close(jnum(p, "window_bound_gbps"), 1e6 * 8 / 0.010 / 1e9, 1e-9);
	assert_close(jnum(p, "measured_share"), 0.7 / 0.8, 1e-9);
	cr_assert_str_eq(jstr(p, "window_bound_from"), "samples");
	cr_assert_str_eq(jstr(p, "window_of"), "snd_cwnd");
	cr_assert_str_eq(jstr(r, "verdict"), "undetermined");
	cr_assert_str_eq(joined(r, "limits"), "tcp-window");
	cr_assert_str_eq(code_at(r, 0), "tcp-window");
	cr_assert(strstr(json_string_value(json_array_get(json_object_get(j, "evidence"), 0)),
			 "the TCP path is the likely limit"));
	json_decref(j);
}

/* srtt_ms and snd_cwnd (aliases) with window_bytes: the smaller window, the peer's 500,000 B, over
 * 5 ms: 0.8 Gbit/s, window_of snd_wnd */
Test(verdicts, csv_aliases_and_the_smaller_window)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("analyze/synthetic-tcp-srtt-snd-cwnd-window.csv"),
				   "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	json_t *p = json_object_get(r, "tcp_path");
	assert_close(jnum(p, "window_bound_gbps"), 500000.0 * 8 / 0.005 / 1e9, 1e-9);
	assert_close(jnum(p, "measured_share"), 0.875, 1e-9);
	cr_assert_str_eq(jstr(p, "window_of"), "snd_wnd");
	cr_assert_str_eq(joined(r, "limits"), "tcp-window");
	json_decref(j);
}

/* poll_mode 1: 400 cycles per packet per polling core, no CPU % asked for, undetermined asking
 * for a cores sweep; poll_mode 0 on the next row: its 100 % CPU is cpu-bound */
Test(verdicts, poll_mode_column)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze",
							test_data("analyze/synthetic-poll-mode-column.csv"),
							"--cpu-ghz", "2", "--json", NULL});
	json_t *r = find_row(j, 64, NULL, NULL);
	cr_assert(json_is_true(json_object_get(r, "poll_mode")));
	assert_close(jnum(r, "cycles_per_packet"), 2 * 2e9 / 10e6, 1e-9);
	cr_assert_str_eq(jstr(r, "verdict"), "undetermined");
	cr_assert_str_eq(joined(r, "limits"), "");
	cr_assert(has_code(r, "poll-mode") && has_code(r, "cores-sweep-not-measured"));
	cr_assert(!has_code(r, "cpu-not-measured") && !has_code(r, "cpus-saturated"));
	cr_assert(!evidence_has(r, "cpu_pct"));
	cr_assert(evidence_has(r, "400 cycles per packet per polling core (2 cores at 2000 MHz"));
	json_t *r2 = find_row(j, 128, NULL, NULL);
	cr_assert(json_is_false(json_object_get(r2, "poll_mode")));
	cr_assert_str_eq(jstr(r2, "verdict"), "cpu-bound");
	cr_assert_str_eq(joined(r2, "limits"), "cpu,core");
	json_decref(j);
}

/* a poll_mode other than 0 or 1 is exit 3 at its line and column */
Test(verdicts, poll_mode_bad_value)
{
	struct run_result r = run_pcibw(
	    NULL, (const char *[]){"analyze", test_data("analyze/synthetic-poll-mode-bad.csv"), NULL});
	cr_assert_eq(r.status, 3, "%s", r.err);
	cr_assert(strstr(r.err, "synthetic-poll-mode-bad.csv:3:7: poll_mode '2'"), "%s", r.err);
	run_free(&r);
}

/* no poll_mode column, --nic dpdk (irq_batch = 0): the row polls; --cpus 4 --cpu-ghz 2 at 10 Mpps
 * is 800 cycles per packet per polling core */
Test(verdicts, polling_profile)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("analyze/synthetic-poll-mode-profile.csv"), "--nic",
				   "dpdk", "--cpus", "4", "--cpu-ghz", "2", "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	assert_close(jnum(r, "cycles_per_packet"), 4 * 2e9 / 10e6, 1e-9);
	cr_assert(has_code(r, "poll-mode"));
	cr_assert(!has_code(r, "cpus-saturated") && !has_code(r, "cpu-only-loaded"));
	cr_assert(!evidence_has(r, "give cpu_pct"));
	json_decref(j);
	/* the same file with an interrupt-driven profile: the CPU's 100 % decides */
	j = analyze_json(NULL,
			 (const char *[]){"analyze", test_data("analyze/synthetic-poll-mode-profile.csv"),
					  "--nic", "ixgbe", "--json", NULL});
	cr_assert_str_eq(jstr(json_array_get(json_object_get(j, "rows"), 0), "verdict"), "cpu-bound");
	json_decref(j);
}

/* rx+tx: two rows, rx and tx, concurrent; each names the other stream as sharing its cores */
Test(verdicts, rx_tx_share_the_core)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("analyze/synthetic-rx-tx-core.csv"), "--json", NULL});
	json_t *rows = json_object_get(j, "rows");
	cr_assert_eq(json_array_size(rows), 2);
	for (size_t i = 0; i < 2; i++) {
		json_t *r = json_array_get(rows, i);
		cr_assert(json_is_true(json_object_get(r, "concurrent")));
		cr_assert_str_eq(jstr(r, "verdict"), "cpu-bound");
		const char *me = jstr(r, "direction"), *other = !strcmp(me, "rx") ? "tx" : "rx";
		char want[128];
		snprintf(want, sizeof want,
			 "the %s stream (row %zu, 400 Mbit/s) shares the cores with this %s one", other,
			 2 - i, me);
		cr_assert(evidence_has(r, want), "%s", want);
		cr_assert(has_code(r, "cpu-shared"));
	}
	json_decref(j);
}

/* 1 of 4 rows wire-bound: the headline says so first, verdict_rows [0] */
Test(verdicts, minority_headline)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze",
							test_data("analyze/synthetic-minority-64b-wire.csv"),
							"--line-rate", "1G", "--json", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "wire-bound");
	cr_assert_str_eq(joined(j, "verdict_rows"), "0");
	const char *h = json_string_value(json_array_get(json_object_get(j, "evidence"), 0));
	const char *want =
	    "wire-bound in 1 of 4 rows (64 B); 3 undetermined: no CPU measured. Wire-bound: the wire "
	    "is 97 % full at ";
	cr_assert(!strncmp(h, want, strlen(want)), "%s", h);
	json_decref(j);
	/* text: the same words under "verdict" */
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"analyze", test_data("analyze/synthetic-minority-64b-wire.csv"),
					     "--line-rate", "1G", NULL});
	cr_assert_eq(r.status, 0);
	cr_assert(
	    strstr(r.out,
		   "verdict  wire-bound\n         wire-bound in 1 of 4 rows (64 B); 3 undetermined: no"),
	    "%s", r.out);
	run_free(&r);
}

/* --bus gen1x1,aspm=l1, 1518 B at 0.01 Mpps on 1 Gbit/s: bus and wire idle, no CPU: the ASPM line
 * first, "no CPU was measured" after it; the headline gives the cause */
Test(verdicts, aspm_cause_before_missing_cpu)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("analyze/synthetic-aspm-idle-link.csv"), "--bus",
				   "gen1x1,aspm=l1", "--line-rate", "1G", "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	cr_assert_str_eq(code_at(r, 0), "aspm-idle-link");
	cr_assert_str_eq(code_at(r, 1), "cpu-not-measured");
	const char *h = json_string_value(json_array_get(json_object_get(j, "evidence"), 0));
	cr_assert(strstr(h, "ASPM L1 is on for the NIC's link"), "%s", h);
	json_decref(j);
}

/* 65,550 B per packet at a stated 64 B: the counters lead, the bit rate named as the suspect */
Test(verdicts, counters_that_disagree_lead)
{
	json_t *j =
	    analyze_json(NULL, (const char *[]){"analyze", test_data("analyze/synthetic-counters-65550.csv"),
						"--line-rate", "1G", "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	json_t *x = json_array_get(json_object_get(r, "reasons"), 0);
	cr_assert_str_eq(jstr(x, "code"), "counters-inconsistent");
	assert_close(jnum(x, "value"), 26.22e9 / 8 / 50000, 1e-6);
	assert_close(jnum(x, "share"), 26.22e9 / 8 / 50000 / 64, 1e-9);
	cr_assert_str_eq(jstr(x, "name"), "bits");
	const char *h = json_string_value(json_array_get(json_object_get(j, "evidence"), 0));
	cr_assert(!strncmp(h, "The counters disagree: the bit rate gives 65550 B per packet", 60), "%s", h);
	json_decref(j);
}

/* The README's workflow (iperf3 -J over loopback with mpstat beside it): cpu-bound, limits cpu and
 * core, both rows hold it; the loopback run states that bus and wire do not apply */
Test(verdicts, readme_iperf3_mpstat_workflow)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-udp-1024B-400M.json"),
				   "--cpu-from", test_data("bench/sysstat-12.6.1-mpstat-P-ALL-busy-2cpu.txt"),
				   "--json", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "cpu-bound");
	cr_assert_str_eq(joined(j, "verdict_rows"), "0,1");
	json_t *r = find_row(j, 1024, "sender", NULL);
	cr_assert_str_eq(joined(r, "limits"), "cpu,core");
	cr_assert(has_code(r, "loopback"));
	json_t *g = json_array_get(json_object_get(j, "groups"), 0);
	cr_assert_str_eq(joined(g, "limits"), "cpu,core");
	json_decref(j);
}

/* A loopback run with --bus and --line-rate: neither applies (no NIC carried it): no bus or wire
 * utilisation, and an undetermined row asks for neither */
Test(verdicts, loopback_sets_no_bus_or_wire)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-udp-1024B-400M.json"),
				   "--bus", "gen3x8,mps=256", "--line-rate", "10G", "--json", NULL});
	json_t *rows = json_object_get(j, "rows"), *r;
	size_t i;
	json_array_foreach(rows, i, r)
	{
		cr_assert(json_is_null(json_object_get(r, "bus_utilisation")));
		cr_assert(json_is_null(json_object_get(r, "wire_utilisation")));
		cr_assert(has_code(r, "loopback"));
		cr_assert(!has_code(r, "bus-not-given") && !has_code(r, "line-rate-not-given"));
	}
	json_decref(j);
	/* and without them no request for them either */
	j = analyze_json(NULL, (const char *[]){"analyze",
						test_data("bench/iperf3-3.12-loopback-udp-1024B-400M.json"),
						"--json", NULL});
	json_array_foreach(json_object_get(j, "rows"), i, r)
	{
		cr_assert(!has_code(r, "bus-not-given") && !has_code(r, "line-rate-not-given"));
		cr_assert(!evidence_has(r, "--line-rate"));
	}
	json_decref(j);
}

/* iperf3 -J --bidir (the server's capture): every row concurrent; the forward receiver (rx,
 * sum_received 1128286006.67 bit/s) and the reverse sender (tx, sum_sent_bidir_reverse
 * 1097567911.05 bit/s) ran at once on the server, and each names the other; the server's 0-byte
 * sum_sent and sum_received_bidir_reverse (the sides it did not measure) give no row, so these
 * two are rows 1 and 2 */
Test(verdicts, iperf3_bidir_json_rows_share_the_cpu)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-tcp-bidir-server.json"),
				   "--json", NULL});
	json_t *rows = json_object_get(j, "rows"), *r;
	size_t i;
	cr_assert_eq(json_array_size(rows), 2);
	json_array_foreach(rows, i, r) cr_assert(json_is_true(json_object_get(r, "concurrent")));
	json_t *rx = find_row(j, 131072, "receiver", NULL), *tx = find_row(j, 131072, "reverse sender", NULL);
	assert_close(jnum(rx, "measured_gbps"), 1128286006.6720319 / 1e9, 1e-9);
	assert_close(jnum(tx, "measured_gbps"), 1097567911.0483518 / 1e9, 1e-9);
	cr_assert(
	    evidence_has(rx, "and the tx stream (row 2, 1.1 Gbit/s) shares the cores with this rx one"));
	cr_assert(
	    evidence_has(tx, "and the rx stream (row 1, 1.13 Gbit/s) shares the cores with this tx one"));
	json_decref(j);
}

/* A link trained below its capability (the dump's 02:00.0, 5 GT/s x1 of 5 GT/s x4: the report's
 * link_cause lanes-lost): the cause with a fix leads the row and the headline gives it */
Test(verdicts, downgraded_link_leads)
{
	json_t *j = analyze_json(
	    NULL,
	    (const char *[]){"analyze", test_data("analyze/synthetic-link-lanes-lost-1518b.csv"), "--dump",
			     test_data("synthetic-pcie-downgraded.lspci"), "-s", "02:00.0", "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	cr_assert_str_eq(jstr(r, "verdict"), "io-bound");
	json_t *x = json_array_get(json_object_get(r, "reasons"), 0);
	cr_assert_str_eq(jstr(x, "code"), "link-downgraded");
	cr_assert_str_eq(jstr(x, "name"), "lanes-lost");
	assert_close(jnum(x, "share"), 5.0 * 1 / (5.0 * 4), 1e-12);
	const char *h = json_string_value(json_array_get(json_object_get(j, "evidence"), 0));
	cr_assert(strstr(h, "The NIC's link runs at 5 GT/s x1 of its 5 GT/s x4"), "%s", h);
	json_decref(j);
}

/* a reason of the row with this code, or NULL */
static json_t *reason_of(json_t *row, const char *code)
{
	json_t *a = json_object_get(row, "reasons");
	for (size_t k = 0; k < json_array_size(a); k++)
		if (!strcmp(jstr(json_array_get(a, k), "code"), code))
			return json_array_get(a, k);
	return NULL;
}

/* Two functions behind one 5 GT/s x4 hop (the dump's header: root port 00:01.0, 16 Gbit/s raw per
 * direction): a row whose frames take at least idle (0.60) of the hop, with no other load known,
 * names the shared hop first, before the request for a CPU figure; the 64 B row (0.224 of the
 * hop) does not */
Test(verdicts, shared_hop_leads)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("analyze/synthetic-shared-hop-2x10g.csv"), "--dump",
				   test_data("synthetic-pcie-2x10g-behind-x4-gen2.lspci"), "-s", "03:00.0",
				   "--json", NULL});
	json_t *rows = json_object_get(j, "rows");
	json_t *big = NULL, *small = NULL;
	for (size_t i = 0; i < json_array_size(rows); i++) {
		json_t *r = json_array_get(rows, i);
		if (jnum(r, "size_bytes") == 1518)
			big = r;
		else if (jnum(r, "size_bytes") == 64)
			small = r;
	}
	cr_assert(big && small);
	cr_assert_str_eq(jstr(big, "verdict"), "undetermined");
	json_t *x = json_array_get(json_object_get(big, "reasons"), 0);
	cr_assert_str_eq(jstr(x, "code"), "shared-hop");
	cr_assert_str_eq(jstr(x, "name"), "0000:00:01.0");
	assert_close(jnum(x, "value"), 2, 0);
	assert_close(jnum(x, "ceiling"), 5.0 * 4 * 8 / 10, 1e-9);
	assert_close(jnum(x, "share"), 1518.0 * 8 * 0.8e6 / 16e9, 1e-9);
	cr_assert(reason_of(big, "cpu-not-measured"));
	cr_assert_null(reason_of(small, "shared-hop"));
	const char *h = json_string_value(json_array_get(json_object_get(j, "evidence"), 0));
	cr_assert(strstr(h, "The bottleneck hop 0000:00:01.0 (16 Gbit/s) is shared by 2 devices"), "%s", h);
	json_decref(j);
}

/* Four PCnet functions on one PCI segment (the dump's bus 0002:42, below the 21154 bridge
 * 0002:41:01.0, 33.33 MHz x 32 bit): the row's share of the hop is its bus share (the modelled
 * bus is that segment) */
Test(verdicts, shared_pci_segment)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("analyze/synthetic-shared-hop-pci-segment.csv"),
				   "--dump", test_data("pcix-ibm-eadsx-82545em-multidomain.lspci"), "-s",
				   "0002:42:00.0", "--nic", "simple", "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	cr_assert_str_eq(jstr(r, "verdict"), "undetermined");
	json_t *x = reason_of(r, "shared-hop");
	cr_assert(x);
	cr_assert_str_eq(jstr(x, "name"), "0002:41:01.0");
	assert_close(jnum(x, "value"), 4, 0);
	assert_close(jnum(x, "ceiling"), 100.0 / 3 * 32 / 1000, 1e-6);
	assert_close(jnum(x, "share"), jnum(r, "bus_utilisation"), 1e-12);
	cr_assert_eq(jnum(x, "evidence_index"), 0);
	json_decref(j);
}

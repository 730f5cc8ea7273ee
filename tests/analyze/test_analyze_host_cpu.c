/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The whole host's CPU wins over one process's (doc/cli-contract.md, "analyze input"): iperf3's
 * cpu_utilization_percent is its own process's user+system time over wall time (iperf_util.c
 * cpu_util()), a lower bound on one core; an mpstat/sar report (--cpu-from, or among the inputs)
 * and a CSV's cpu_pct / cpuN_pct / core_max_pct are the host's. Expected values are the inputs'
 * own figures: the reports' Average: lines (busy = 100 - %idle - %iowait) and the iperf3 keys
 * their .src sidecars list.
 */
#include "analyze_support.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The README's workflow: iperf3 -J of UDP over loopback (host_total 29.695578 on the sender)
 * with mpstat -P ALL beside a busy run (Average: all %idle 0.00 %iowait 0.00; CPU 0 %idle
 * 0.00): all CPUs 100 % busy, the busiest core 100 %, so the rows are cpu-bound, and the file is
 * used, not "not used". */
Test(host_cpu, iperf3_json_with_mpstat)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-udp-1024B-400M.json"),
				   "--cpu-from", test_data("bench/sysstat-12.6.1-mpstat-P-ALL-busy-2cpu.txt"),
				   "--json", NULL});
	json_t *r = find_row(j, 1024, "sender", NULL);
	assert_close(jnum(r, "cpu_utilisation"), (100 - 0.00 - 0.00) / 100, 1e-12);
	assert_close(jnum(r, "core_max_utilisation"), (100 - 0.00 - 0.00) / 100, 1e-12);
	cr_expect_str_eq(jstr(r, "verdict"), "cpu-bound");
	cr_expect(evidence_has(r, "iperf3's own CPU 30 % is its process's share of one core"),
		  "the process figure is named as a lower bound");
	cr_expect(evidence_has(r, "CPU from sysstat-12.6.1-mpstat-P-ALL-busy-2cpu.txt: all CPUs 100 % busy"));
	json_t *notes = json_object_get(json_array_get(json_object_get(j, "inputs"), 0), "notes");
	for (size_t i = 0; i < json_array_size(notes); i++)
		cr_expect(!strstr(json_string_value(json_array_get(notes, i)), "not used"), "%s",
			  json_string_value(json_array_get(notes, i)));
	cr_expect_str_eq(jstr(j, "verdict"), "cpu-bound");
	json_decref(j);
}

/* The run a new user makes: iperf3 -u -b 0 -l 1024 -J (host_total 29.246740701121688) with
 * mpstat -P ALL 1 beside it (Average: all %idle 0.00, CPU 0 %idle 0.00): recorded together. */
Test(host_cpu, new_user_recording)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){
		      "analyze", test_data("bench/iperf3-3.12-loopback-udp-1024B-unlimited-busy-client.json"),
		      "--cpu-from", test_data("bench/sysstat-12.6.1-mpstat-P-ALL-iperf3-udp-busy.txt"),
		      "--json", NULL});
	json_t *r = find_row(j, 1024, "sender", NULL);
	assert_close(jnum(r, "cpu_utilisation"), 1.0, 1e-12);
	assert_close(jnum(r, "core_max_utilisation"), 1.0, 1e-12);
	cr_expect(evidence_has(r, "iperf3's own CPU 29 %"));
	cr_expect_str_eq(jstr(r, "verdict"), "cpu-bound");
	json_decref(j);
}

/* The text twin of the same load with its mpstat (Average: all %idle 0.00): the text states no
 * CPU without -V, so the host's fills the rows. */
Test(host_cpu, iperf3_text_with_mpstat)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){
		      "analyze", test_data("bench/iperf3-3.12-loopback-udp-1024B-unlimited-busy2-client.txt"),
		      "--cpu-from", test_data("bench/sysstat-12.6.1-mpstat-P-ALL-iperf3-udp-busy2.txt"),
		      "--json", NULL});
	json_t *rows = json_object_get(j, "rows");
	cr_assert_eq(json_array_size(rows), 2);
	for (size_t i = 0; i < 2; i++)
		assert_close(jnum(json_array_get(rows, i), "cpu_utilisation"), 1.0, 1e-12);
	json_decref(j);
}

/* A CSV's cpu_pct is the host's: of two host figures the row's own wins, and the row says so. */
Test(host_cpu, row_own_host_figure_wins)
{
	const char *csv = temp_file("frame_bytes,kpps,cpu_pct\n64,900,40\n", ".csv");
	json_t *j =
	    analyze_json(NULL, (const char *[]){"analyze", csv, "--cpu-from",
						test_data("bench/sysstat-12.6.1-mpstat-P-ALL-busy-2cpu.txt"),
						"--json", NULL});
	json_t *r = find_row(j, 64, NULL, NULL);
	assert_close(jnum(r, "cpu_utilisation"), 0.40, 1e-12);
	cr_expect(evidence_has(r,
			       "sysstat-12.6.1-mpstat-P-ALL-busy-2cpu.txt's all CPUs 100 % busy not used: of "
			       "two host figures the row's own wins"));
	json_decref(j);
}

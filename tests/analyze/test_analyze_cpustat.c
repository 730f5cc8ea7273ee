/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CPU of a run from sysstat's reports (mpstat -P ALL, sar -P ALL, sar -u ALL), recorded on
 * the build VM under load (tests/data/bench/sysstat-12.6.1-*, their '#' headers say how) and
 * one hand-written report. Expected values: the reports' own Average: lines (busy = 100 - %idle
 * - %iowait) or the interval means, as written in each file's header.
 */
#include "analyze_support.h"
#include "pcibw/ingest.h"

/* mpstat's Average: all 18.60 usr 59.10 nice 21.91 sys 0.00 iowait 0.39 soft 0.00 idle: busy 100,
 * irq+soft 0.39; CPU 1 soft 0.58 is the highest. */
Test(cpustat, mpstat_recorded)
{
	struct pcibw_cpu_sample c;
	struct pcibw_err err = {0};
	cr_assert_eq(
	    pcibw_cpustat_read(test_data("bench/sysstat-12.6.1-mpstat-P-ALL-busy-2cpu.txt"), &c, &err),
	    PCIBW_OK, "%s", err.msg);
	cr_assert(c.valid);
	cr_assert_eq(c.n_cpus, 2);
	assert_close(c.all_busy, 100, 1e-9);
	assert_close(c.all_irq, 0.39, 1e-9);
	assert_close(c.core_irq_max, 0.58, 1e-9);
	cr_assert_eq(c.core_irq_id, 1);
}

/* sar -P ALL has no %irq/%soft columns; sar -u ALL only the "all" rows. */
Test(cpustat, sar_recorded)
{
	struct pcibw_cpu_sample c;
	struct pcibw_err err = {0};
	cr_assert_eq(pcibw_cpustat_read(test_data("bench/sysstat-12.6.1-sar-P-ALL-busy-2cpu.txt"), &c, &err),
		     PCIBW_OK, "%s", err.msg);
	cr_assert_eq(c.n_cpus, 2);
	assert_close(c.all_busy, 100, 1e-9);
	cr_assert(isnan(c.all_irq));
	cr_assert_eq(pcibw_cpustat_read(test_data("bench/sysstat-12.6.1-sar-u-ALL-busy-2cpu.txt"), &c, &err),
		     PCIBW_OK, "%s", err.msg);
	cr_assert_eq(c.n_cpus, 0);
	cr_assert(isnan(c.core_busy));
	/* Average: all ... %irq 0.00 %soft 0.40 */
	assert_close(c.all_irq, 0.40, 1e-9);
}

/* A 12-hour report without Average:, one CPU 99 % busy with 45 % irq+softirq: the interval
 * means, the busiest CPU, and through analyze the cpu-bound verdict and the interrupt time. */
Test(cpustat, softirq_core)
{
	struct pcibw_cpu_sample c;
	struct pcibw_err err = {0};
	cr_assert_eq(pcibw_cpustat_read(test_data("analyze/synthetic-mpstat-12h-softirq.txt"), &c, &err),
		     PCIBW_OK, "%s", err.msg);
	cr_assert_eq(c.n_cpus, 4);
	assert_close(c.all_busy, 26.25, 1e-9);
	assert_close(c.all_irq, 11.25, 1e-9);
	assert_close(c.core_busy, 99, 1e-9);
	cr_assert_eq(c.core_id, 1);
	assert_close(c.core_irq, 45, 1e-9);

	const char *csv = "/tmp/pcibw-cpustat-rows.csv";
	FILE *f = fopen(csv, "w");
	cr_assert(f);
	fputs("frame_bytes,kpps\n64,900\n", f);
	fclose(f);
	/* --cpu-from, and the same file as an input */
	for (int way = 0; way < 2; way++) {
		const char *a1[] = {
		    "analyze",	   csv,	  "--cpu-from", test_data("analyze/synthetic-mpstat-12h-softirq.txt"),
		    "--line-rate", "10G", "--json",	NULL};
		const char *a2[] = {
		    "analyze",	   csv,	  test_data("analyze/synthetic-mpstat-12h-softirq.txt"),
		    "--line-rate", "10G", "--json",
		    NULL};
		json_t *j = analyze_json(NULL, way ? a2 : a1);
		json_t *r = find_row(j, 64, NULL, NULL);
		assert_close(jnum(r, "cpu_utilisation"), 0.2625, 1e-12);
		assert_close(jnum(r, "core_max_utilisation"), 0.99, 1e-12);
		/* 0.99 >= core 0.95 */
		cr_assert_str_eq(jstr(r, "verdict"), "cpu-bound");
		cr_assert(evidence_has(r, "irq+softirq 11.2 % of all CPUs, 45.0 % on CPU 1"));
		json_decref(j);
	}
	unlink(csv);
}

/* Not a report: file:line named, exit 3. */
Test(cpustat, refused)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"analyze", test_data("bench/ostinato-i218v-1g-ubuntu-maxtx.csv"),
					     "--cpu-from",
					     test_data("bench/ostinato-i218v-1g-ubuntu-maxtx.csv"), NULL});
	cr_assert_eq(r.status, 3);
	cr_assert(strstr(r.err, "not mpstat or sar CPU output"), "%s", r.err);
	run_free(&r);
}

/* --cpu-from fills rows that measured no CPU (doc/cli-contract.md): when every row has its own
 * cpu_pct the file changes nothing, and the input's note says so instead of staying silent. */
Test(cpustat, cpu_from_unused_is_said)
{
	const char *csv = "/tmp/pcibw-cpustat-own.csv";
	FILE *f = fopen(csv, "w");
	cr_assert(f);
	fputs("frame_bytes,kpps,cpu_pct\n64,900,40\n", f);
	fclose(f);
	const char *mp = test_data("analyze/synthetic-mpstat-12h-softirq.txt");
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", csv, "--cpu-from", mp, "--json", NULL});
	json_t *r = find_row(j, 64, NULL, NULL);
	/* the row's own 40 %, not the report's 26.25 % */
	assert_close(jnum(r, "cpu_utilisation"), 0.40, 1e-12);
	json_t *notes = json_object_get(json_array_get(json_object_get(j, "inputs"), 0), "notes");
	bool said = false;
	for (size_t i = 0; i < json_array_size(notes); i++)
		said |= strstr(json_string_value(json_array_get(notes, i)), "--cpu-from") &&
			strstr(json_string_value(json_array_get(notes, i)), "not used");
	cr_expect(said, "no note that --cpu-from was not used");
	json_decref(j);
	/* a row without CPU takes it: no such note */
	f = fopen(csv, "w");
	cr_assert(f);
	fputs("frame_bytes,kpps\n64,900\n", f);
	fclose(f);
	j = analyze_json(NULL, (const char *[]){"analyze", csv, "--cpu-from", mp, "--json", NULL});
	notes = json_object_get(json_array_get(json_object_get(j, "inputs"), 0), "notes");
	for (size_t i = 0; i < json_array_size(notes); i++)
		cr_expect(!strstr(json_string_value(json_array_get(notes, i)), "not used"), "%s",
			  json_string_value(json_array_get(notes, i)));
	json_decref(j);
	unlink(csv);
}

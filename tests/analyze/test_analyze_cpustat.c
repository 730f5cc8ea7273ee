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

/* The same report with a UTF-8 byte-order mark right before its "Linux ..." banner (its '#'
 * lines left out): read past, as in every other format, the same figures as mpstat_recorded. */
Test(cpustat, bom_before_the_banner_read_past)
{
	char *text = slurp(test_data("bench/sysstat-12.6.1-mpstat-P-ALL-busy-2cpu.txt"), NULL);
	cr_assert(text);
	char *banner = strstr(text, "\nLinux ");
	cr_assert(banner);
	char *copy = malloc(strlen(banner) + 4);
	cr_assert(copy);
	snprintf(copy, strlen(banner) + 4, "\xEF\xBB\xBF%s", banner + 1);
	free(text);
	const char *p = tmp_text(".txt", copy);
	free(copy);
	struct pcibw_cpu_sample c;
	struct pcibw_err err = {0};
	cr_assert_eq(pcibw_cpustat_read(p, &c, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(c.n_cpus, 2);
	assert_close(c.all_busy, 100, 1e-9);
	assert_close(c.all_irq, 0.39, 1e-9);
	cr_assert_eq(c.core_irq_id, 1);
	unlink(p);
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

/* Reports that cannot be what sysstat wrote, each exit 3 at its line, never averaged into a CPU
 * that was not there: a CPU twice in one interval (mpstat -P ALL prints each CPU once per interval;
 * averaging 99 % and 1 % gave a busiest CPU at 50 %), a CPU number at or past the banner's
 * "(N CPU)", and a row too long to read whole (it would drop a CPU unseen). */
Test(cpustat, impossible_reports_refused_at_the_line)
{
	static const char banner[] = "Linux 6.1.0 (h) \t12/01/2026 \t_x86_64_\t(2 CPU)\n\n";
	static const char head[] = "10:00:01 AM  CPU    %usr   %sys   %idle\n";
	char twice[512], past[512], longrow[2600];
	snprintf(twice, sizeof twice,
		 "%s%s10:00:02 AM  all  2.00  48.00  50.00\n10:00:02 AM    0  4.00  95.00  1.00\n"
		 "10:00:02 AM    0  0.00  1.00  99.00\n",
		 banner, head);
	snprintf(past, sizeof past,
		 "%s%s10:00:02 AM  all  2.00  48.00  50.00\n10:00:02 AM    0  4.00  95.00  1.00\n"
		 "10:00:02 AM    2  0.00  1.00  99.00\n",
		 banner, head);
	int n = snprintf(longrow, sizeof longrow, "%s%s10:00:02 AM  all  2.00  48.00  50.00%*s\n", banner,
			 head, 1100, "");
	snprintf(longrow + n, sizeof longrow - (size_t)n, "10:00:02 AM    0  4.00  95.00  1.00\n");
	const struct {
		const char *text, *want;
	} cases[] = {
	    {twice, ":6: CPU 0 a second time in one interval (first at line 5)"},
	    {past, ":6: CPU 2, but the banner says 2 CPU (expected CPU numbers 0..1)"},
	    {longrow, ":4: a line of 1136 bytes in a block of CPU rows"},
	};
	const char *csv = tmp_text(".csv", "frame_bytes,pps\n64,100000\n");
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *m = tmp_text(".txt", cases[i].text);
		struct run_result r = run_args((const char *[]){"analyze", csv, "--cpu-from", m, NULL});
		cr_expect_eq(r.status, 3, "case %u: exit %d: %s", i, r.status, r.err);
		cr_expect(strstr(r.err, m) && strstr(r.err, cases[i].want), "case %u: %s", i, r.err);
		run_free(&r);
		unlink(m);
	}
	unlink(csv);
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

/* --cpu-from's report in the JSON too (the text names it in the evidence): top-level cpu_from
 * with the file and the figures of inputs[].cpu; the hand-written report's header gives all
 * 26.25 % busy, irq+soft 11.25 %, CPU 1 the busiest at 99 %; null without --cpu-from. */
Test(cpustat, cpu_from_in_the_json)
{
	const char *csv = tmp_text(".csv", "frame_bytes,pps\n64,100000\n");
	const char *m = test_data("analyze/synthetic-mpstat-12h-softirq.txt");
	struct run_result r = run_args((const char *[]){"analyze", csv, "--cpu-from", m, "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_error_t je;
	json_t *j = json_loads(r.out, 0, &je);
	cr_assert(j, "%s", je.text);
	json_t *c = json_object_get(j, "cpu_from");
	cr_assert(json_is_object(c), "%s", r.out);
	cr_assert_str_eq(json_string_value(json_object_get(c, "file")), m);
	cr_assert_eq(json_integer_value(json_object_get(c, "cpus_listed")), 4);
	assert_close(json_number_value(json_object_get(c, "all_busy_pct")), 26.25, 1e-9);
	assert_close(json_number_value(json_object_get(c, "all_irq_softirq_pct")), 11.25, 1e-9);
	cr_assert_eq(json_integer_value(json_object_get(c, "busiest_cpu")), 1);
	assert_close(json_number_value(json_object_get(c, "busiest_cpu_busy_pct")), 99, 1e-9);
	json_decref(j);
	run_free(&r);
	r = run_args((const char *[]){"analyze", csv, "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	j = json_loads(r.out, 0, &je);
	cr_assert(j && json_is_null(json_object_get(j, "cpu_from")), "%s", r.out);
	json_decref(j);
	run_free(&r);
	unlink(csv);
}

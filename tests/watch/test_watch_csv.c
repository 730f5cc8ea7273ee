/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw watch --format csv` read back by `pcibw analyze` (no option besides the file: the
 * "# bus: ... nic: ... line_rate: ... cpus: ... cpu_mhz: ..." line supplies the machine) gives the
 * verdict of watch's own summary, row for row: the summary and analyze run the shared engine on
 * the same numbers. Checked on every recording of tests/watch/data, one interface at a time, with
 * the default thresholds and with the CPU rules moved out of reach.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static json_t *last_json_line(char *out)
{
	char *last = NULL;
	for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		last = l;
	cr_assert(last);
	json_error_t e;
	json_t *j = json_loads(last, 0, &e);
	cr_assert(j, "%s: %s", e.text, last);
	return j;
}

static void same_verdict(const char *rec, const char *iface, const char *thr1, const char *thr2,
			 const char *rate)
{
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv-%d.csv", (int)getpid());
	/* the same line rate for both runs: the CSV carries it to analyze in its '# bus:' line */
	const char *wa[] = {"watch",	   "--replay", test_data(rec), iface, "--json",
			    "--threshold", thr1,       "--threshold",  thr2,  rate ? "--line-rate" : NULL,
			    rate,	   NULL};
	struct run_result w = run_pcibw(NULL, wa);
	cr_assert_eq(w.status, 0, "%s", w.err);
	json_t *sum = last_json_line(w.out);
	char script[1024];
	snprintf(
	    script, sizeof script,
	    "\"$PCIBW_EXE\" watch --replay '%s' %s --format csv --threshold %s --threshold %s %s %s > %s",
	    test_data(rec), iface, thr1, thr2, rate ? "--line-rate" : "", rate ? rate : "", csv);
	struct run_result c = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);
	struct run_result a = run_pcibw(
	    NULL, (const char *[]){"analyze", csv, "--json", "--threshold", thr1, "--threshold", thr2, NULL});
	cr_assert_eq(a.status, 0, "%s: %s", rec, a.err);
	json_error_t e;
	json_t *an = json_loads(a.out, 0, &e);
	cr_assert(an, "%s", e.text);
	const char *wv = json_string_value(json_object_get(sum, "verdict"));
	const char *av = json_string_value(json_object_get(an, "verdict"));
	cr_assert_str_eq(wv, av, "%s %s (%s %s): watch %s, analyze %s", rec, iface, thr1, thr2, wv, av);
	/* row for row: as many rows of each verdict */
	json_t *counts = json_object_get(sum, "row_verdicts"), *rows = json_object_get(an, "rows");
	const char *names[] = {"impossible", "io-bound", "wire-bound", "cpu-bound", "undetermined"};
	for (int k = 0; k < 5; k++) {
		long n = 0;
		size_t i;
		json_t *r;
		json_array_foreach(rows, i, r) n +=
		    !strcmp(json_string_value(json_object_get(r, "verdict")), names[k]);
		cr_assert_eq(json_integer_value(json_object_get(counts, names[k])), n, "%s %s: %s rows", rec,
			     iface, names[k]);
	}
	/* the machine came from the file's header line */
	cr_assert(strstr(a.out, "pcibw-watch-csv"), "analyze names where the bus came from: %s", a.out);
	json_decref(sum);
	json_decref(an);
	run_free(&w);
	run_free(&a);
	unlink(csv);
}

Test(watch_csv, analyze_gives_the_same_verdict)
{
	const char *cases[][2] = {
	    {"synthetic-mlx5-ethtool", "eth0"}, {"synthetic-mlx5-ethtool", "lo"},
	    {"real-vm-lo-udp", "lo"},		{"synthetic-softirq-heavy", "lo"},
	    {"synthetic-counter-wrap", "lo"},	{"synthetic-cpu-offline", "lo"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		same_verdict(cases[i][0], cases[i][1], "bus=0.85", "wire=0.95", NULL);
		/* CPU rules out of reach: the bus, the wire and the CPU-only rule decide */
		same_verdict(cases[i][0], cases[i][1], "cpu=1", "core=1", NULL);
		/* a narrower wire, written into the CSV's header line: wire-bound and impossible rows */
		same_verdict(cases[i][0], cases[i][1], "cpu=1", "core=1", "12.5G");
		same_verdict(cases[i][0], cases[i][1], "cpu=1", "core=1", "1G");
	}
}

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

/* every analyze row has the watch summary row of its interface, direction and size, with the
 * same count and verdict, and the other way round; returns the rows checked */
static int row_for_row(json_t *sum, json_t *an, const char *what)
{
	json_t *wr = json_object_get(sum, "rows"), *ar = json_object_get(an, "rows");
	cr_assert_eq(json_array_size(wr), json_array_size(ar), "%s: %zu watch rows, %zu analyze rows", what,
		     json_array_size(wr), json_array_size(ar));
	size_t i, k;
	json_t *a, *w;
	json_array_foreach(ar, i, a)
	{
		bool found = false;
		json_array_foreach(wr, k, w)
		{
			if (strcmp(json_string_value(json_object_get(a, "iface")),
				   json_string_value(json_object_get(w, "iface"))) ||
			    strcmp(json_string_value(json_object_get(a, "direction")),
				   json_string_value(json_object_get(w, "direction"))) ||
			    json_number_value(json_object_get(a, "size_bytes")) !=
				json_number_value(json_object_get(w, "size_bytes")))
				continue;
			found = true;
			cr_assert_eq(json_integer_value(json_object_get(a, "count")),
				     json_integer_value(json_object_get(w, "count")), "%s: row %zu count",
				     what, i);
			cr_assert_str_eq(json_string_value(json_object_get(a, "verdict")),
					 json_string_value(json_object_get(w, "verdict")),
					 "%s: row %zu (%s %s %g B)", what, i,
					 json_string_value(json_object_get(a, "iface")),
					 json_string_value(json_object_get(a, "direction")),
					 json_number_value(json_object_get(a, "size_bytes")));
		}
		cr_assert(found, "%s: analyze row %zu has no watch row", what, i);
	}
	return (int)json_array_size(ar);
}

static int rows_checked;

static void same_verdict(const char *rec, const char *iface, const char *thr1, const char *thr2,
			 const char *rate)
{
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv-%d.csv", (int)getpid());
	/* the same line rate for both runs: the CSV carries it to analyze in its '# bus:' line */
	const char *wa[16];
	int na = 0;
	wa[na++] = "watch";
	wa[na++] = "--replay";
	wa[na++] = test_data(rec);
	if (iface[0])
		wa[na++] = iface;
	const char *more[] = {"--json", "--threshold", thr1, "--threshold", thr2};
	for (unsigned k = 0; k < 5; k++)
		wa[na++] = more[k];
	if (rate) {
		wa[na++] = "--line-rate";
		wa[na++] = rate;
	}
	wa[na] = NULL;
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
	cr_assert_str_eq(wv, av, "%s %s (%s %s, line rate %s): watch %s, analyze %s", rec, iface, thr1, thr2,
			 rate ? rate : "recorded", wv, av);
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
	char what[256];
	snprintf(what, sizeof what, "%s %s (%s %s, line rate %s)", rec, iface, thr1, thr2,
		 rate ? rate : "recorded");
	rows_checked += row_for_row(sum, an, what);
	/* piped: the same header lines read from standard input */
	snprintf(script, sizeof script,
		 "cat %s | \"$PCIBW_EXE\" analyze - --json --threshold %s --threshold %s", csv, thr1, thr2);
	struct run_result p = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
	cr_assert_eq(p.status, 0, "%s: piped: %s", what, p.err);
	json_t *pj = json_loads(p.out, 0, &e);
	cr_assert(pj, "%s", e.text);
	cr_assert_str_eq(json_string_value(json_object_get(pj, "verdict")), wv, "%s: piped", what);
	row_for_row(sum, pj, what);
	const char *bf = json_string_value(json_object_get(pj, "bus_from"));
	cr_assert(bf && strstr(bf, "standard input:2"), "%s: the bus from the piped header: %s", what,
		  bf ? bf : "null");
	json_decref(pj);
	run_free(&p);
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
	rows_checked = 0;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		same_verdict(cases[i][0], cases[i][1], "bus=0.85", "wire=0.95", NULL);
		/* CPU rules out of reach: the bus, the wire and the CPU-only rule decide */
		same_verdict(cases[i][0], cases[i][1], "cpu=1", "core=1", NULL);
		/* a narrower wire, written into the CSV's header line: wire-bound and impossible rows */
		same_verdict(cases[i][0], cases[i][1], "cpu=1", "core=1", "12.5G");
		same_verdict(cases[i][0], cases[i][1], "cpu=1", "core=1", "1G");
	}
}

Test(watch_csv, several_interfaces_each_with_its_own_bus)
{
	/* every interface of each recording in one CSV: each interface's rows carry its own bus,
	 * profile and line rate ("# bus: ... iface: NAME"); synthetic-mlx5-ethtool's lo is virtual
	 * and its eth0 a gen3 x8 mlx5 at 25 Gbit/s; synthetic-shared-pci's eth1/eth2 share a
	 * 33 MHz PCI segment */
	const char *recs[] = {"synthetic-mlx5-ethtool", "real-vm-lo-udp", "synthetic-shared-pci",
			      "synthetic-shared-mix", "synthetic-counter-reset"};
	rows_checked = 0;
	for (unsigned i = 0; i < sizeof recs / sizeof recs[0]; i++) {
		same_verdict(recs[i], "", "bus=0.85", "wire=0.95", NULL);
		same_verdict(recs[i], "", "cpu=1", "core=1", NULL);
		same_verdict(recs[i], "", "cpu=1", "core=1", "1G");
	}
	cr_log_info("rows checked: %d", rows_checked);
	cr_assert_geq(rows_checked, 20);
}

Test(watch_csv, each_interface_header_line_is_applied_to_its_rows)
{
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv2-%d.csv", (int)getpid());
	char script[1024];
	snprintf(script, sizeof script, "\"$PCIBW_EXE\" watch --replay '%s' --format csv > %s",
		 test_data("synthetic-mlx5-ethtool"), csv);
	struct run_result c = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);
	char *text = slurp(csv, NULL);
	cr_assert(text);
	/* the recording's meta: lo bus=virtual; eth0 bus=gen3x8,mps=256,mrrs=512 nic=mlx5 25 Gbit/s */
	cr_assert(strstr(text, "\n# bus: virtual nic: - cpus: 2 cpu_mhz: 2596.2 iface: lo\n"), "%s", text);
	cr_assert(strstr(text, "\n# bus: gen3x8,mps=256,mrrs=512,rcb=64 nic: mlx5 line_rate: 25G cpus: 2 "
			       "cpu_mhz: 2596.2 iface: eth0\n"),
		  "%s", text);
	free(text);
	struct run_result a = run_pcibw(NULL, (const char *[]){"analyze", csv, "--json", NULL});
	cr_assert_eq(a.status, 0, "%s", a.err);
	json_error_t e;
	json_t *an = json_loads(a.out, 0, &e);
	cr_assert(an, "%s", e.text);
	size_t i;
	json_t *r;
	int eth0 = 0, lo = 0;
	json_array_foreach(json_object_get(an, "rows"), i, r)
	{
		const char *name = json_string_value(json_object_get(r, "iface"));
		double bus = json_number_value(json_object_get(r, "bus_gbps"));
		if (!strcmp(name, "eth0")) {
			/* a modelled gen3 x8 link, and the 25 Gbit/s wire: 1 Mpps x 1538 B x 8 / 25e9 */
			cr_assert(bus > 0, "eth0 row %zu has its bus", i);
			if (json_number_value(json_object_get(r, "size_bytes")) == 1518)
				cr_assert_float_eq(json_number_value(json_object_get(r, "wire_utilisation")),
						   1e6 * 1538 * 8 / 25e9, 1e-4);
			eth0++;
		} else {
			cr_assert(json_is_null(json_object_get(r, "bus_gbps")),
				  "lo is virtual: no bus ceiling");
			lo++;
		}
	}
	cr_assert_eq(eth0, 2, "rx 64 B and tx 1518 B");
	/* the machines analyze read per interface, with the header line each came from (lines 3, 4) */
	json_t *im = json_object_get(an, "iface_machines");
	cr_assert_eq(json_array_size(im), 2);
	json_t *m1 = json_array_get(im, 1);
	cr_assert_str_eq(json_string_value(json_object_get(m1, "iface")), "eth0");
	cr_assert_str_eq(json_string_value(json_object_get(m1, "nic")), "mlx5");
	cr_assert_float_eq(json_number_value(json_object_get(m1, "line_rate_gbps")), 25, 1e-12);
	char from[200];
	snprintf(from, sizeof from, "%s:4", csv);
	cr_assert_str_eq(json_string_value(json_object_get(m1, "bus_from")), from);
	cr_assert_eq(lo, 2);
	json_decref(an);
	run_free(&a);
	unlink(csv);
}

/* A verdict never comes bare: every interface that is not undetermined carries evidence, in
 * every interval line and in the summary, on every recording of tests/watch/data. */
Test(watch_csv, every_interface_verdict_has_evidence)
{
	struct run_result ls = run_cmd(NULL, (const char *[]){"sh", "-c",
							      "cd \"$PCIBW_TEST_DATA\" && for d in */; do "
							      "echo \"${d%/}\"; done",
							      NULL});
	cr_assert_eq(ls.status, 0, "%s", ls.err);
	int checked = 0;
	for (char *save = NULL, *d = strtok_r(ls.out, "\n", &save); d; d = strtok_r(NULL, "\n", &save)) {
		char dir[1024];
		snprintf(dir, sizeof dir, "%s/%s", getenv("PCIBW_TEST_DATA"), d);
		struct run_result r =
		    run_pcibw(NULL, (const char *[]){"watch", "--replay", dir, "--json", NULL});
		cr_assert_eq(r.status, 0, "%s: exit %d: %s", d, r.status, r.err);
		for (char *s2 = NULL, *l = strtok_r(r.out, "\n", &s2); l; l = strtok_r(NULL, "\n", &s2)) {
			json_error_t e;
			json_t *j = json_loads(l, 0, &e);
			cr_assert(j, "%s: %s", d, e.text);
			size_t i;
			json_t *x;
			json_array_foreach(json_object_get(j, "interfaces"), i, x)
			{
				const char *v = json_string_value(json_object_get(x, "verdict"));
				cr_assert(v, "%s: an interface without a verdict", d);
				if (strcmp(v, "undetermined")) {
					cr_expect_gt(json_array_size(json_object_get(x, "evidence")), 0,
						     "%s: %s is %s without evidence: %s", d,
						     json_string_value(json_object_get(x, "name")), v, l);
					checked++;
				}
			}
			json_decref(j);
		}
		run_free(&r);
	}
	run_free(&ls);
	cr_expect_gt(checked, 20, "only %d verdicts checked", checked);
}

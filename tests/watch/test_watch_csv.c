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
#include <stdlib.h>
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

static bool same_str(json_t *a, json_t *b)
{
	return json_is_null(a) ? json_is_null(b)
			       : json_is_string(b) && !strcmp(json_string_value(a), json_string_value(b));
}

/* the same ceiling (Gbit/s), or none in both */
static void same_ceiling(json_t *a, json_t *w, const char *key, const char *what, size_t i)
{
	json_t *x = json_object_get(a, key), *y = json_object_get(w, key);
	cr_assert_eq(json_is_null(x), json_is_null(y), "%s: row %zu %s: analyze %s, watch %s", what, i, key,
		     json_is_null(x) ? "null" : "a number", json_is_null(y) ? "null" : "a number");
	if (!json_is_null(x))
		cr_assert_float_eq(json_number_value(x), json_number_value(y), 1e-9 * json_number_value(y),
				   "%s: row %zu %s: analyze %.10g, watch %.10g", what, i, key,
				   json_number_value(x), json_number_value(y));
}

/* every analyze row has the watch summary row of its interface, direction, size and modelled bus
 * (the link as it was while the row was measured), with the same count, ceilings and verdict,
 * and the other way round; returns the rows checked */
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
				json_number_value(json_object_get(w, "size_bytes")) ||
			    !same_str(json_object_get(a, "bus_modelled"), json_object_get(w, "bus_modelled")))
				continue;
			cr_assert(!found, "%s: analyze row %zu matches two watch rows", what, i);
			found = true;
			same_ceiling(a, w, "bus_gbps", what, i);
			same_ceiling(a, w, "wire_gbps", what, i);
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

/* `analyze CSV --json`, which must exit 0, parsed */
static json_t *analyze_csv_json(const char *csv)
{
	struct run_result a = run_pcibw(NULL, (const char *[]){"analyze", csv, "--json", NULL});
	cr_assert_eq(a.status, 0, "%s", a.err);
	json_error_t e;
	json_t *an = json_loads(a.out, 0, &e);
	cr_assert(an, "%s", e.text);
	run_free(&a);
	return an;
}

/* `analyze --json` of the CSV `watch --replay DIR --format csv` writes, parsed */
static json_t *analyze_of_replay_csv(const char *dir)
{
	char csv[160], cmd[512];
	snprintf(csv, sizeof csv, "%s.csv", dir);
	snprintf(cmd, sizeof cmd, "\"$PCIBW_EXE\" watch --replay '%s' --format csv > %s", dir, csv);
	struct run_result c = run_cmd(NULL, (const char *[]){"sh", "-c", cmd, NULL});
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);
	json_t *an = analyze_csv_json(csv);
	unlink(csv);
	return an;
}

static int rows_checked;

static void same_verdict(const char *rec, const char *iface, const char *thr1, const char *thr2,
			 const char *rate)
{
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv-%d.csv", (int)getpid());
	/* a recording of tests/watch/data, or one a test edited (an absolute path) */
	const char *rdir = rec[0] == '/' ? rec : test_data(rec);
	/* the same line rate for both runs: the CSV carries it to analyze in its '# bus:' line */
	const char *wa[16];
	int na = 0;
	wa[na++] = "watch";
	wa[na++] = "--replay";
	wa[na++] = rdir;
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
	    rdir, iface, thr1, thr2, rate ? "--line-rate" : "", rate ? rate : "", csv);
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
	    {"synthetic-mlx5-ethtool", "eth0"},
	    {"synthetic-mlx5-ethtool", "lo"},
	    {"real-vm-lo-udp", "lo"},
	    {"synthetic-softirq-heavy", "lo"},
	    {"synthetic-counter-wrap", "lo"},
	    {"synthetic-cpu-offline", "lo"},
	    {"synthetic-link-downshift", "eth0"},
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
	const char *recs[] = {"synthetic-mlx5-ethtool",	 "real-vm-lo-udp",
			      "synthetic-shared-pci",	 "synthetic-shared-mix",
			      "synthetic-counter-reset", "synthetic-link-downshift"};
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
	json_t *an = analyze_csv_json(csv);
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
	/* the recording's link trains to x4 at sample 4 (current_link_width 4): the rows after the
	 * line stating gen3 x4 are rows of their own */
	cr_assert_eq(eth0, 4, "rx 64 B and tx 1518 B, on gen3 x8 and on gen3 x4");
	/* the machines analyze read per interface, with the header line each came from (lines 3, 4),
	 * and the one stated again mid-file (line 16, after the rows of three intervals) */
	json_t *im = json_object_get(an, "iface_machines");
	cr_assert_eq(json_array_size(im), 3);
	json_t *m2 = json_array_get(im, 2);
	cr_assert_str_eq(json_string_value(json_object_get(m2, "iface")), "eth0");
	cr_assert_str_eq(json_string_value(json_object_get(m2, "bus")), "gen3x4,mps=256,mrrs=512,rcb=64");
	char from2[200];
	snprintf(from2, sizeof from2, "%s:16", csv);
	cr_assert_str_eq(json_string_value(json_object_get(m2, "bus_from")), from2);
	json_t *m1 = json_array_get(im, 1);
	cr_assert_str_eq(json_string_value(json_object_get(m1, "iface")), "eth0");
	cr_assert_str_eq(json_string_value(json_object_get(m1, "nic")), "mlx5");
	cr_assert_float_eq(json_number_value(json_object_get(m1, "line_rate_gbps")), 25, 1e-12);
	char from[200];
	snprintf(from, sizeof from, "%s:4", csv);
	cr_assert_str_eq(json_string_value(json_object_get(m1, "bus_from")), from);
	cr_assert_eq(lo, 2);
	json_decref(an);
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

/* the summary row of iface's rx rows measured on a bus spec starting with prefix */
static json_t *rx_row_on(json_t *sum, const char *prefix)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(sum, "rows"), i, r)
	{
		const char *bm = json_string_value(json_object_get(r, "bus_modelled"));
		if (bm && !strncmp(bm, prefix, strlen(prefix)) &&
		    !strcmp(json_string_value(json_object_get(r, "direction")), "rx"))
			return r;
	}
	return NULL;
}

Test(watch_csv, a_link_that_retrains_is_its_own_ceiling_in_the_summary_and_the_csv)
{
	/* synthetic-link-downshift: eth0 an 82599 on gen2 x8 receiving 5.5 Mpps of 64 B frames over
	 * 6 intervals; from sample 4 current_link_speed reads 2.5 GT/s and current_link_width 4.
	 * Raw bandwidth per direction, both rates 8b/10b (PCIe Base 3.0 sec. 4.2.2):
	 *   gen2 x8: 5.0 GT/s x 8 lanes x 8/10 = 32 Gbit/s
	 *   gen1 x4: 2.5 GT/s x 4 lanes x 8/10 =  8 Gbit/s, a quarter.
	 * Measured: 5.5e6 packets/s x 64 B x 8 = 2.816 Gbit/s on either link. The summary sets
	 * intervals 1-3 against gen2 x8 and 4-6 against gen1 x4: two rows of 3 intervals each, the
	 * second's ceiling a quarter of the first's (within 2.5 %: the per-packet TLP and DLLP
	 * overheads do not all scale with the lanes) and its bus share 4 x the first's. */
	struct run_result w =
	    run_pcibw(NULL, (const char *[]){"watch", "--replay", test_data("synthetic-link-downshift"),
					     "eth0", "--json", NULL});
	cr_assert_eq(w.status, 0, "%s", w.err);
	json_t *sum = last_json_line(w.out);
	cr_assert_eq(json_array_size(json_object_get(sum, "rows")), 2);
	json_t *a = rx_row_on(sum, "gen2x8,"), *b = rx_row_on(sum, "gen1x4,");
	cr_assert(a && b, "a row on each link");
	cr_assert_eq(json_integer_value(json_object_get(a, "count")), 3);
	cr_assert_eq(json_integer_value(json_object_get(b, "count")), 3);
	double ca = json_number_value(json_object_get(a, "bus_gbps"));
	double cb = json_number_value(json_object_get(b, "bus_gbps"));
	cr_assert(ca / cb > 4 * 0.975 && ca / cb < 4 * 1.025, "ceilings %g and %g: ratio %g", ca, cb,
		  ca / cb);
	double ua = json_number_value(json_object_get(a, "bus_utilisation"));
	double ub = json_number_value(json_object_get(b, "bus_utilisation"));
	cr_assert_float_eq(ua, 2.816 / ca, 2.816 / ca * 1e-4, "gen2 x8: %g", ua);
	cr_assert_float_eq(ub, 2.816 / cb, 2.816 / cb * 1e-4, "gen1 x4: %g", ub);
	/* gen2 x8: about 22 %, under the bus threshold 0.85 with the CPUs 100 % busy: cpu-bound;
	 * gen1 x4: about 89 %, at least 0.85: io-bound. One row each: the tie goes to io-bound
	 * (the contract's tie-break order io, wire, cpu) for the run and for eth0 */
	cr_assert(ua < 0.85 && ub >= 0.85, "%g %g", ua, ub);
	cr_assert_str_eq(json_string_value(json_object_get(a, "verdict")), "cpu-bound");
	cr_assert_str_eq(json_string_value(json_object_get(b, "verdict")), "io-bound");
	cr_assert_str_eq(json_string_value(json_object_get(sum, "verdict")), "io-bound");
	json_t *e0 = json_array_get(json_object_get(sum, "interfaces"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(e0, "verdict")), "io-bound");
	bool said = false;
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(sum, "evidence"), i, x) said |=
	    strstr(json_string_value(x), "on PCIe gen1 x4 link: io-bound 64 B") != NULL;
	cr_assert(said, "the summary names the rows measured on the retrained link");
	json_decref(sum);
	run_free(&w);

	/* the CSV: the interface's line again before the first row measured on gen1 x4, once */
	char csv[128], script[1024];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv3-%d.csv", (int)getpid());
	snprintf(script, sizeof script, "\"$PCIBW_EXE\" watch --replay '%s' eth0 --format csv > %s",
		 test_data("synthetic-link-downshift"), csv);
	struct run_result c = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);
	char *text = slurp(csv, NULL);
	cr_assert(text);
	const char *again =
	    "\n# bus: gen1x4,mps=256,mrrs=512,rcb=64 nic: ixgbe line_rate: 10G cpus: 2 cpu_mhz: "
	    "2596.2 iface: eth0\n";
	char *at = strstr(text, again);
	cr_assert(at, "%s", text);
	cr_assert_null(strstr(at + 1, again), "stated once");
	cr_assert(!strncmp(at + strlen(again), "2.004,eth0,rx,64,", 17), "before interval 4: %s", at);
	int before = 0;
	for (char *p = text; p < at; p++)
		before += !strncmp(p, "\n", 1) && p[1] >= '0' && p[1] <= '9';
	cr_assert_eq(before, 3, "the rows of intervals 1-3 come before it");
	free(text);
	/* analyze sets the rows after it against gen1 x4 */
	json_t *aj = analyze_csv_json(csv);
	cr_assert_str_eq(json_string_value(json_object_get(aj, "verdict")), "io-bound");
	int on[2] = {0, 0};
	json_array_foreach(json_object_get(aj, "rows"), i, x)
	{
		const char *bm = json_string_value(json_object_get(x, "bus_modelled"));
		double g = json_number_value(json_object_get(x, "bus_gbps"));
		cr_assert(bm);
		bool x4 = !strncmp(bm, "gen1x4,", 7);
		cr_assert_float_eq(g, x4 ? cb : ca, 1e-9 * g, "%s", bm);
		on[x4]++;
	}
	cr_assert(on[0] == 1 && on[1] == 1);
	json_decref(aj);
	unlink(csv);
}

Test(watch_csv, a_machine_stated_again_applies_to_the_rows_after_it)
{
	/* A link that flaps: gen2 x8 (the leading line), then gen1 x4, then gen2 x8 again, 1000
	 * times, one row after each line. The rows after a gen2 x8 line are the leading machine's
	 * (1000 rows at 1000 pps), those after a gen1 x4 line the other's (1000 rows at 2000 pps).
	 * About 230 KB: the lines fall across the reader's buffer boundaries. */
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv4-%d.csv", (int)getpid());
	FILE *f = fopen(csv, "w");
	cr_assert(f);
	const char *x8 = "# bus: gen2x8,mps=256,mrrs=512 nic: ixgbe line_rate: 10G cpus: 2 iface: eth0\n";
	const char *x4 = "# bus: gen1x4,mps=256,mrrs=512 nic: ixgbe line_rate: 10G cpus: 2 iface: eth0\n";
	fprintf(f, "%stime_s,iface,direction,frame_bytes,pps,cpu_pct,core_max_pct\n", x8);
	/* the rows' lengths vary (1000.0 written with 1 to 13 zeros): the buffer boundaries fall on
	 * lines of each kind */
	for (int k = 0; k < 1000; k++)
		fprintf(f, "%d.0,eth0,rx,64,1000.%0*d,50.00,50.00\n%s%d.5,eth0,rx,64,2000.0,50.00,50.00\n%s",
			k, 1 + k % 13, 0, x4, k, x8);
	cr_assert_eq(fclose(f), 0);
	json_t *aj = analyze_csv_json(csv);
	json_t *rows = json_object_get(aj, "rows");
	cr_assert_eq(json_array_size(rows), 2);
	size_t i;
	json_t *x;
	json_array_foreach(rows, i, x)
	{
		const char *bm = json_string_value(json_object_get(x, "bus_modelled"));
		bool x4 = bm && !strncmp(bm, "gen1x4,", 7);
		cr_assert(x4 || (bm && !strncmp(bm, "gen2x8,", 7)), "%s", bm ? bm : "null");
		cr_assert_eq(json_integer_value(json_object_get(x, "count")), 1000);
		cr_assert_float_eq(json_number_value(json_object_get(x, "measured_mpps")), x4 ? 2e-3 : 1e-3,
				   1e-12);
	}
	/* one machine stated mid-file (line 4 first), however often */
	json_t *im = json_object_get(aj, "iface_machines");
	cr_assert_eq(json_array_size(im), 2);
	char from[200];
	snprintf(from, sizeof from, "%s:4", csv);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(im, 1), "bus_from")), from);
	json_decref(aj);
	/* piped: the same */
	char script[512];
	snprintf(script, sizeof script, "cat %s | \"$PCIBW_EXE\" analyze - --json", csv);
	struct run_result p = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
	cr_assert_eq(p.status, 0, "%s", p.err);
	json_error_t e;
	json_t *pj = json_loads(p.out, 0, &e);
	cr_assert(pj, "%s", e.text);
	cr_assert_eq(json_array_size(json_object_get(pj, "rows")), 2);
	json_array_foreach(json_object_get(pj, "rows"), i, x)
	    cr_assert_eq(json_integer_value(json_object_get(x, "count")), 1000);
	json_decref(pj);
	run_free(&p);
	unlink(csv);
}

Test(watch_csv, a_machine_stated_again_that_does_not_parse_is_named)
{
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv5-%d.csv", (int)getpid());
	FILE *f = fopen(csv, "w");
	cr_assert(f);
	fprintf(f, "iface,direction,frame_bytes,pps\neth0,rx,64,1000\n# bus: gen2x8 cpus: many iface: eth0\n"
		   "eth0,rx,64,1000\n");
	cr_assert_eq(fclose(f), 0);
	struct run_result an = run_pcibw(NULL, (const char *[]){"analyze", csv, NULL});
	cr_assert_eq(an.status, 3, "%s", an.err);
	char want[200];
	snprintf(want, sizeof want, "%s:3:", csv);
	cr_assert(strstr(an.err, want) && strstr(an.err, "cpus 'many'"), "%s", an.err);
	run_free(&an);
	unlink(csv);
}

/* a "# bus:" line of len bytes after pad rows of 64 bytes: one longer than the reader reads at
 * once is refused before its line end is seen */
static unsigned long_bus_line(const char *csv, int pad, size_t len)
{
	FILE *f = fopen(csv, "w");
	cr_assert(f);
	fprintf(f, "iface,direction,frame_bytes,pps\n");
	for (int k = 0; k < pad; k++)
		fprintf(f, "eth0,rx,64,%052d\n", 1000);
	char *bus = malloc(len + 1);
	cr_assert(bus);
	int n = snprintf(bus, len + 1, "# bus: gen1x4 iface: eth0 nic: ixgbe note: ");
	memset(bus + n, 'x', len - (size_t)n);
	bus[len] = '\0';
	fprintf(f, "%s\neth0,rx,64,2000\n", bus);
	free(bus);
	cr_assert_eq(fclose(f), 0);
	return (unsigned)pad + 2;
}

Test(watch_csv, a_bus_line_too_long_is_refused_not_dropped)
{
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv6-%d.csv", (int)getpid());
	const struct {
		int pad;
		size_t len;
		const char *said;
	} c[] = {{1, 1100, "line of 1100 bytes"},
		 {1, 1024, "line of 1024 bytes"},
		 {1000, 200000, "line of more than 1023 bytes"}};
	for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
		unsigned line = long_bus_line(csv, c[k].pad, c[k].len);
		struct run_result an = run_pcibw(NULL, (const char *[]){"analyze", csv, NULL});
		cr_assert_eq(an.status, 3, "%zu: %s", k, an.err);
		char want[200];
		snprintf(want, sizeof want, "%s:%u:1: '# bus:' %s: expected at most 1023", csv, line,
			 c[k].said);
		cr_assert(strstr(an.err, want), "%zu: want %s in %s", k, want, an.err);
		run_free(&an);
	}
	unlink(csv);
}

/* bus_gbps of iface's first row in analyze's JSON of csv with --segment-devices n */
static double segment_ceiling(const char *csv, const char *n, const char *iface)
{
	struct run_result a =
	    run_pcibw(NULL, (const char *[]){"analyze", csv, "--segment-devices", n, "--json", NULL});
	cr_assert_eq(a.status, 0, "--segment-devices %s: %s", n, a.err);
	json_error_t e;
	json_t *j = json_loads(a.out, 0, &e);
	cr_assert(j, "%s", e.text);
	double g = -1;
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(j, "rows"), i, r)
	{
		const char *f = json_string_value(json_object_get(r, "iface"));
		if (g < 0 && f && !strcmp(f, iface)) {
			const char *bm = json_string_value(json_object_get(r, "bus_modelled"));
			cr_assert(bm && !strncmp(bm, "pci33/32", 8), "%s", bm ? bm : "null");
			g = json_number_value(json_object_get(r, "bus_gbps"));
		}
	}
	cr_assert_gt(g, 0, "no %s row with a bus ceiling", iface);
	json_decref(j);
	run_free(&a);
	return g;
}

Test(watch_csv, segment_devices_apply_to_stated_pci_ports_beside_a_virtual_one)
{
	/* synthetic-shared-pci: lo (bus: virtual) and two e1000 ports on one 33 MHz PCI segment;
	 * --segment-devices 2 is the user's word about that segment: lo's stated virtual bus is no
	 * reason to refuse it, and the ports' ceiling pays for the second master on the segment */
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv7-%d.csv", (int)getpid());
	char script[1024];
	snprintf(script, sizeof script, "\"$PCIBW_EXE\" watch --replay '%s' --format csv > %s",
		 test_data("synthetic-shared-pci"), csv);
	struct run_result c = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);
	cr_assert_lt(segment_ceiling(csv, "2", "eth1"), segment_ceiling(csv, "1", "eth1"));
	/* a bus the user gives is still refused when it is no shared segment */
	struct run_result b = run_pcibw(
	    NULL, (const char *[]){"analyze", csv, "--bus", "gen2x8", "--segment-devices", "2", NULL});
	cr_assert_eq(b.status, 2, "%s", b.err);
	cr_assert(strstr(b.err, "not a shared PCI/PCI-X segment"), "%s", b.err);
	run_free(&b);
	unlink(csv);
}

Test(watch_csv, a_machine_stated_mid_file_is_shown_for_the_rows_after_it)
{
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv8-%d.csv", (int)getpid());
	FILE *f = fopen(csv, "w");
	cr_assert(f);
	fprintf(f, "# bus: gen2x8 nic: ixgbe line_rate: 10G iface: eth0\n"
		   "iface,direction,frame_bytes,pps\neth0,rx,64,1000\n"
		   "# bus: gen1x1 nic: ixgbe line_rate: 10G iface: eth0\neth0,rx,64,1000\n");
	cr_assert_eq(fclose(f), 0);
	struct run_result an = run_pcibw(NULL, (const char *[]){"analyze", csv, NULL});
	cr_assert_eq(an.status, 0, "%s", an.err);
	char lead[200], mid[200];
	snprintf(lead, sizeof lead, "(from %s:1)\n", csv);
	snprintf(mid, sizeof mid, "(rows after %s:4)\n", csv);
	cr_assert(strstr(an.out, lead) && strstr(an.out, mid), "%s", an.out);
	run_free(&an);
	unlink(csv);
}

/* the bus_modelled of iface's rows in analyze's JSON */
static void rows_on(const char *out, const char *iface, const char *bus)
{
	json_error_t e;
	json_t *j = json_loads(out, 0, &e);
	cr_assert(j, "%s", e.text);
	size_t i;
	json_t *r;
	int seen = 0;
	json_array_foreach(json_object_get(j, "rows"), i, r)
	{
		const char *f = json_string_value(json_object_get(r, "iface"));
		if (!f || strcmp(f, iface))
			continue;
		const char *bm = json_string_value(json_object_get(r, "bus_modelled"));
		cr_assert(bm && !strncmp(bm, bus, strlen(bus)), "%s: %s", iface, bm ? bm : "null");
		seen++;
	}
	cr_assert_gt(seen, 0, "no %s row", iface);
	json_decref(j);
}

Test(watch_csv, every_leading_bus_line_is_applied)
{
	/* 70 comment lines first, then the file's line and one line per interface for watch's
	 * most interfaces (16): each interface's rows are set against its own line, the 16th's
	 * too */
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv9-%d.csv", (int)getpid());
	FILE *f = fopen(csv, "w");
	cr_assert(f);
	fprintf(f, "# bus: gen2x8 nic: ixgbe line_rate: 10G\n");
	for (int k = 0; k < 70; k++)
		fprintf(f, "# a comment\n");
	for (int k = 0; k < 16; k++)
		fprintf(f, "# bus: gen1x%d nic: ixgbe line_rate: 10G iface: eth%d\n", k == 15 ? 4 : 1, k);
	fprintf(f, "iface,direction,frame_bytes,pps\neth0,rx,64,1000\neth15,rx,64,1000\n");
	cr_assert_eq(fclose(f), 0);
	struct run_result an = run_pcibw(NULL, (const char *[]){"analyze", csv, "--json", NULL});
	cr_assert_eq(an.status, 0, "%s", an.err);
	rows_on(an.out, "eth0", "gen1x1");
	rows_on(an.out, "eth15", "gen1x4");
	run_free(&an);
	unlink(csv);
}

Test(watch_csv, too_many_leading_bus_lines_are_refused_a_late_one_is_not)
{
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv10-%d.csv", (int)getpid());
	/* the file's line and 17 interfaces' */
	FILE *f = fopen(csv, "w");
	cr_assert(f);
	fprintf(f, "# bus: gen2x8\n");
	for (int k = 0; k < 17; k++)
		fprintf(f, "# bus: gen1x1 iface: eth%d\n", k);
	fprintf(f, "iface,direction,frame_bytes,pps\neth0,rx,64,1000\n");
	cr_assert_eq(fclose(f), 0);
	struct run_result an = run_pcibw(NULL, (const char *[]){"analyze", csv, NULL});
	cr_assert_eq(an.status, 3, "%s", an.err);
	char want[400];
	snprintf(want, sizeof want, "%s:18:1: more than 17 leading '# bus:' lines", csv);
	cr_assert(strstr(an.err, want), "%s", an.err);
	run_free(&an);
	/* the file's line after 69 comment lines: still in its head, the run's machine */
	f = fopen(csv, "w");
	cr_assert(f);
	for (int k = 0; k < 69; k++)
		fprintf(f, "# a comment\n");
	fprintf(f, "# bus: gen2x8\niface,direction,frame_bytes,pps\neth0,rx,64,1000\n");
	cr_assert_eq(fclose(f), 0);
	an = run_pcibw(NULL, (const char *[]){"analyze", csv, NULL});
	cr_assert_eq(an.status, 0, "%s", an.err);
	snprintf(want, sizeof want, "bus      gen2x8,mps=128,mrrs=512,rcb=64 from %s:70\n", csv);
	cr_assert(strstr(an.out, want), "%s", an.out);
	run_free(&an);
	unlink(csv);
}

/* A scratch copy of recording `name` in /tmp (its directory in dir) and its samples file's text,
 * for a test that edits the samples and replays the copy. */
static char *copy_recording(const char *name, const char *tag, char *dir, size_t dir_len, size_t *n)
{
	char cmd[512], path[256];
	snprintf(dir, dir_len, "/tmp/pcibw-watch-%s-%d", tag, (int)getpid());
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", dir, test_data(name), dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(path, sizeof path, "%s/samples", dir);
	char *text = slurp(path, n);
	cr_assert(text, "%s", path);
	return text;
}

Test(watch_csv, link_states_of_two_interfaces_are_numbered_as_analyze_numbers_them)
{
	/* synthetic-shared-downshift with eth2's link read x2 in sample 3 (before eth1's x4 in
	 * sample 4; x4 from sample 4 on, as eth1's): the CSV states eth2@x2, then eth1@x4, then
	 * eth2@x4; watch's rows and verdicts are analyze's of that CSV, row for row, and each
	 * interface's x4 rows are its own (its own bus_modelled) */
	char dir[128], path[256], cmd[512];
	size_t n;
	char *text = copy_recording("synthetic-shared-downshift", "retrain", dir, sizeof dir, &n);
	snprintf(path, sizeof path, "%s/samples", dir);
	/* the same byte count ("link_width 8" to "link_width 2"): the blobs' lengths hold */
	int sample = -1, edited = 0;
	bool eth2 = false;
	for (char *l = text; l < text + n;) {
		char *nl = memchr(l, '\n', (size_t)(text + n - l));
		size_t len = nl ? (size_t)(nl - l) : (size_t)(text + n - l);
		if (len > 7 && !memcmp(l, "sample ", 7))
			sample++;
		if (len > 5 && !memcmp(l, "blob ", 5))
			eth2 = len > 14 && !memcmp(l, "blob net/eth2 ", 14);
		if (eth2 && sample == 3 && len == 12 && !memcmp(l, "link_width 8", 12)) {
			l[11] = '2';
			edited++;
		}
		l += len + 1;
	}
	cr_assert_eq(edited, 1);
	FILE *f = fopen(path, "wb");
	cr_assert(f);
	cr_assert_eq(fwrite(text, 1, n, f), n);
	cr_assert_eq(fclose(f), 0);
	free(text);
	rows_checked = 0;
	same_verdict(dir, "", "bus=0.85", "wire=0.95", NULL);
	same_verdict(dir, "", "cpu=1", "core=1", NULL);
	cr_assert_geq(rows_checked, 6);
	/* the groups too: the summary's evidence (a line per group) is analyze's, line for line */
	struct run_result w = run_pcibw(NULL, (const char *[]){"watch", "--replay", dir, "--json", NULL});
	cr_assert_eq(w.status, 0, "%s", w.err);
	json_t *sum = last_json_line(w.out);
	json_t *an = analyze_of_replay_csv(dir);
	json_t *we = json_object_get(sum, "evidence"), *ae = json_object_get(an, "evidence");
	cr_assert_eq(json_array_size(we), json_array_size(ae), "watch %zu lines, analyze %zu",
		     json_array_size(we), json_array_size(ae));
	int on_x4 = 0;
	for (size_t i = 0; i < json_array_size(we); i++) {
		const char *x = json_string_value(json_array_get(we, i)),
			   *y = json_string_value(json_array_get(ae, i));
		cr_assert_str_eq(x, y, "evidence %zu", i);
		on_x4 += strstr(x, "on PCIe gen3 x4 link") != NULL;
	}
	cr_assert_eq(on_x4, 2, "eth1's and eth2's x4 rows: a group each"); /* and eth2's x2 rows */
	/* a group is of one machine: its key's bus is each of its rows' */
	size_t g;
	json_t *gr;
	json_array_foreach(json_object_get(an, "groups"), g, gr)
	{
		json_t *kb = json_object_get(json_object_get(gr, "key"), "bus_modelled");
		size_t k;
		json_t *ix;
		json_array_foreach(json_object_get(gr, "rows"), k, ix)
		{
			json_t *r =
			    json_array_get(json_object_get(an, "rows"), (size_t)json_integer_value(ix));
			cr_assert(same_str(kb, json_object_get(r, "bus_modelled")), "group %zu row %zu", g,
				  k);
		}
	}
	json_decref(an);
	json_decref(sum);
	run_free(&w);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

struct rec_blob {
	char key[64];
	const char *text;
	size_t len;
};

struct rec_sample {
	double t;
	int n;
	struct rec_blob b[16];
};

/* the samples of a recording (doc/watch-recording.md: "sample T N", then N "blob KEY LEN" each
 * followed by LEN bytes and a line end), pointing into text */
static int rec_parse(char *text, size_t n, struct rec_sample *s, int max)
{
	int k = 0;
	for (char *p = text; p < text + n && k < max;) {
		cr_assert_eq(sscanf(p, "sample %lf %d", &s[k].t, &s[k].n), 2);
		cr_assert_leq(s[k].n, 16);
		p = strchr(p, '\n') + 1;
		for (int j = 0; j < s[k].n; j++) {
			cr_assert_eq(sscanf(p, "blob %63s %zu", s[k].b[j].key, &s[k].b[j].len), 2);
			p = strchr(p, '\n') + 1;
			s[k].b[j].text = p;
			p += s[k].b[j].len + 1;
		}
		k++;
	}
	return k;
}

/* the summary row of iface rx measured on bus (null: none) */
static json_t *row_on_bus(json_t *sum, const char *iface, const char *bus)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(sum, "rows"), i, r)
	{
		json_t *b = json_object_get(r, "bus_modelled");
		if (!strcmp(json_string_value(json_object_get(r, "iface")), iface) &&
		    !strcmp(json_string_value(json_object_get(r, "direction")), "rx") && json_is_string(b) &&
		    !strcmp(json_string_value(b), bus))
			return r;
	}
	return NULL;
}

Test(watch_csv, every_link_state_is_modelled_on_its_own)
{
	/* synthetic-shared-downshift's samples, then copies of its last one, eth1 receiving 1 Mpps of
	 * 1518 B frames all along (its counters rewritten from each sample's time) and its link read
	 * in a new state in each sample after the first: gen 1 to 3 x 1, 2, 4, 8 lanes, the last
	 * the resolved gen3 x8: 11 states besides the resolved one, each with rows of its own. Each
	 * is modelled on its own link (none merged into another), and the CSV gives analyze the
	 * same rows, ceilings and verdicts. */
	char dir[128], path[256], cmd[512];
	size_t n;
	char *text = copy_recording("synthetic-shared-downshift", "states", dir, sizeof dir, &n);
	snprintf(path, sizeof path, "%s/samples", dir);
	static struct rec_sample s[16];
	int ns = rec_parse(text, n, s, 16);
	cr_assert_geq(ns, 2);
	const char *speed[] = {"2.5", "5.0", "8.0"};
	FILE *f = fopen(path, "wb");
	cr_assert(f);
	int states = 0;
	for (int k = 0; k < 13; k++) {
		const struct rec_sample *src = &s[k < ns ? k : ns - 1];
		double t = k < ns ? src->t : s[ns - 1].t + 0.5 * (k - ns + 1);
		fprintf(f, "sample %.9f %d\n", t, src->n);
		for (int j = 0; j < src->n; j++) {
			const struct rec_blob *b = &src->b[j];
			if (k == 0 || strcmp(b->key, "net/eth1")) {
				fprintf(f, "blob %s %zu\n%.*s\n", b->key, b->len, (int)b->len, b->text);
				continue;
			}
			/* state k - 1 of gen 1..3 x width 1, 2, 4, 8 but gen3 x8 */
			int st = k - 1, gen = st / 4, width = 1 << (st % 4);
			const char *rx = strstr(b->text, "rx_bytes ");
			cr_assert(rx && rx < b->text + b->len);
			long long pk = (long long)(1e6 * (t - s[0].t) + 0.5);
			char blob[1024];
			int bl =
			    snprintf(blob, sizeof blob,
				     "%.*srx_bytes %lld\nrx_packets %lld\nrx_dropped 0\nrx_missed_errors 0\n"
				     "rx_fifo_errors 0\nrx_errors 0\ntx_bytes 0\ntx_packets 0\ntx_dropped 0\n"
				     "tx_errors 0\nspeed 25000\noperstate up\nlink_speed %s GT/s PCIe\n"
				     "link_width %d\n",
				     (int)(rx - b->text), b->text, pk * 1514, pk, speed[gen], width);
			fprintf(f, "blob %s %d\n%s\n", b->key, bl, blob);
			states++;
		}
	}
	cr_assert_eq(fclose(f), 0);
	free(text);
	cr_assert_eq(states, 12); /* the last is gen3 x8, the resolved link: 11 states besides it */
	struct run_result w = run_pcibw(NULL, (const char *[]){"watch", "--replay", dir, "--json", NULL});
	cr_assert_eq(w.status, 0, "%s", w.err);
	json_t *sum = last_json_line(w.out);
	json_t *codes = json_object_get(sum, "warning_codes");
	for (size_t i = 0; i < json_array_size(codes); i++)
		cr_assert_str_neq(json_string_value(json_array_get(codes, i)), "link-states");
	/* a row of eth1 on every state, its own link the bus it was set against */
	double gbps[12];
	for (int st = 0; st < 12; st++) {
		char bus[64];
		snprintf(bus, sizeof bus, "gen%dx%d,mps=256,mrrs=512,rcb=64", st / 4 + 1, 1 << (st % 4));
		json_t *r = row_on_bus(sum, "eth1", bus);
		cr_assert(r, "no eth1 row on %s", bus);
		gbps[st] = json_number_value(json_object_get(r, "bus_gbps"));
	}
	/* the states past the 8th (gen3 x1, x2, x4) and the resolved gen3 x8: each its own ceiling,
	 * twice that of half its lanes (the same TLPs per packet over twice the lanes) */
	for (int st = 9; st < 12; st++)
		cr_assert(gbps[st] / gbps[st - 1] > 2 * 0.975 && gbps[st] / gbps[st - 1] < 2 * 1.025,
			  "gen3: x%d %g Gbit/s, x%d %g Gbit/s", 1 << (st % 4), gbps[st], 1 << ((st - 1) % 4),
			  gbps[st - 1]);
	run_free(&w);
	/* the CSV states each state's machine before its rows: analyze gives the summary's rows */
	json_t *an = analyze_of_replay_csv(dir);
	cr_assert_geq(row_for_row(sum, an, "11 link states"), 12);
	json_decref(an);
	json_decref(sum);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

/* synthetic-link-downshift with its "link_width 4" lines (samples 4 on) made "link_width 3": no
 * PCIe width (x1, x2, x4, x8, x12, x16, x32), so the width is unknown and the link is re-modelled
 * on its rate alone, 2.5 GT/s at the resolved x8 (gen1 x8); the note says what was read and what
 * kept. A usage error before (the width handed to the bus parser). */
Test(watch_csv, a_width_that_is_no_pcie_width_is_not_modelled_on)
{
	char dir[128], path[256], cmd[512];
	size_t n;
	char *text = copy_recording("synthetic-link-downshift", "x3", dir, sizeof dir, &n);
	snprintf(path, sizeof path, "%s/samples", dir);
	int edits = 0;
	for (char *p = text; (p = strstr(p, "link_width 4\n")); p++, edits++)
		p[11] = '3'; /* same length: the blob lengths stand */
	cr_assert_gt(edits, 0);
	FILE *f = fopen(path, "wb");
	cr_assert(f);
	cr_assert_eq(fwrite(text, 1, n, f), n);
	cr_assert_eq(fclose(f), 0);
	free(text);
	struct run_result w = run_pcibw(NULL, (const char *[]){"watch", "--replay", dir, "eth0", NULL});
	cr_assert_eq(w.status, 0, "%s", w.err);
	char *flat = squash_space(w.out);
	cr_assert(flat &&
		      strstr(flat, "eth0: bus ceiling re-modelled on the link as it is now, gen1 x8 "
				   "(current_link_speed 2.5 GT/s, current_link_width 3, not a PCIe width: "
				   "x8 kept), not gen2 x8"),
		  "%s", w.out);
	cr_assert(strstr(flat, "eth0 rx on PCIe gen1 x8 link: "), "%s", w.out);
	free(flat);
	run_free(&w);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

/* a CSV stating n_if interfaces' machines mid-file, each in every PCIe rate by width (gen1..6 x1,
 * x2, x4, x8, x12, x16, x32: 42 specs), one row after each line */
static void write_states_csv(const char *csv, int n_if)
{
	static const int widths[] = {1, 2, 4, 8, 12, 16, 32};
	FILE *f = fopen(csv, "w");
	cr_assert(f);
	fputs("iface,direction,frame_bytes,pps\n", f);
	for (int i = 0; i < n_if; i++)
		for (int g = 1; g <= 6; g++)
			for (int w = 0; w < 7; w++)
				fprintf(f, "# bus: gen%dx%d iface: eth%d\neth%d,rx,64,1000\n", g, widths[w],
					i, i);
	cr_assert_eq(fclose(f), 0);
}

/* As many machines as watch can state (16 interfaces by 41 link states besides the resolved one:
 * 656) are read: 8 interfaces by 42 specs, 336, each its own machine and row; 16 by 42, 672, is
 * refused at the 657th, whose line is 2 x 657 (the header, then a bus line and a row each). */
Test(watch_csv, as_many_machines_as_watch_can_state_are_read)
{
	char csv[128];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-csv-states-%d.csv", (int)getpid());
	write_states_csv(csv, 8);
	json_t *an = analyze_csv_json(csv);
	cr_assert_eq(json_array_size(json_object_get(an, "iface_machines")), 336);
	cr_assert_eq(json_array_size(json_object_get(an, "rows")), 336);
	json_decref(an);
	write_states_csv(csv, 16);
	struct run_result a = run_pcibw(NULL, (const char *[]){"analyze", csv, NULL});
	cr_assert_eq(a.status, 3, "%s", a.err);
	char want[300];
	snprintf(want, sizeof want,
		 "%s:1314: a machine stated again with a '# bus:' line: more than 656 distinct ones", csv);
	cr_assert(strstr(a.err, want), "%s", a.err);
	run_free(&a);
	unlink(csv);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Verdicts per group on real inputs, and the whole-input rule: the rows that carry the answer
 * are not outvoted by undetermined ones. Expected values: the captures' own numbers (messages /
 * elapsed seconds), written next to each check.
 */
#include "analyze_support.h"

/* The netperf virtio sweep (tests/data/bench, from its .src header): UDP_STREAM send rows of
 * 1-1024 B sent 880003, 864814, 890806, 882767, 878454, 871595 messages in 60.00 s, i.e.
 * 14.41-14.85 k/s, flat within (14847 - 14414) / 14847 = 2.9 % < 5 %: cpu-bound. The 13 TCP
 * rows and most UDP receive rows are undetermined, yet the whole input is cpu-bound. */
Test(groups, netperf_virtio_sweep)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/netperf-qemu-riscv-virtio-msgsize-sweep.csv"),
				   "--nic", "virtio-net", "--json", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "cpu-bound");
	cr_assert_gt(jnum(json_object_get(j, "counts"), "undetermined"),
		     jnum(json_object_get(j, "counts"), "cpu-bound"), "undetermined rows are the majority");
	json_t *groups = json_object_get(j, "groups"), *g;
	size_t i;
	bool udp_send = false, tcp = false;
	json_array_foreach(groups, i, g)
	{
		json_t *key = json_object_get(g, "key");
		const char *test = jstr(key, "test"), *series = jstr(key, "series");
		if (!strcmp(test, "UDP_STREAM") && !strcmp(series, "send") && jnum(g, "size_min") == 1) {
			udp_send = true;
			cr_assert_eq(jnum(g, "size_max"), 1024);
			cr_assert_str_eq(jstr(g, "verdict"), "cpu-bound");
			cr_assert_eq(json_array_size(json_object_get(g, "rows")), 6);
			cr_assert_str_eq(jstr(key, "direction"), "tx");
			/* each index is a row of that series */
			json_t *ix;
			size_t k;
			json_array_foreach(json_object_get(g, "rows"), k, ix)
			{
				json_t *row = json_array_get(json_object_get(j, "rows"),
							     (size_t)json_integer_value(ix));
				cr_assert_str_eq(jstr(row, "test"), "UDP_STREAM");
				cr_assert_str_eq(jstr(row, "verdict"), "cpu-bound");
			}
		}
		if (!strcmp(test, "TCP_STREAM"))
			tcp = true;
	}
	cr_assert(udp_send && tcp);
	bool headline = false;
	json_t *ev = json_object_get(j, "evidence"), *s;
	json_array_foreach(ev, i, s) headline |=
	    strstr(json_string_value(s), "UDP_STREAM send: cpu-bound 1-1024 B") != NULL;
	cr_assert(headline, "the headline names the UDP_STREAM send group");
	/* the socket_bytes column is named, not silently dropped */
	json_t *w = json_object_get(json_array_get(json_object_get(j, "inputs"), 0), "warnings");
	cr_assert(json_array_size(w) >= 1 &&
		  strstr(json_string_value(json_array_get(w, 0)), "'socket_bytes'"));
	json_decref(j);
}

/* --threshold outside its range: exit 2 naming the threshold. */
Test(groups, threshold_range_exit_2)
{
	const char *bad[] = {"impossible=0.5", "bus=2"};
	for (int i = 0; i < 2; i++) {
		struct run_result r = run_pcibw(
		    NULL, (const char *[]){"analyze", test_data("bench/ostinato-i218v-1g-ubuntu-maxtx.csv"),
					   "--threshold", bad[i], NULL});
		cr_assert_eq(r.status, 2, "%s: exit %d", bad[i], r.status);
		cr_assert(strstr(r.err, "is not a value in"), "%s", r.err);
		run_free(&r);
	}
}

/* Text: one input, no source column; every line within 100 columns for this sweep's table;
 * counts read naturally. */
Test(groups, text_fits)
{
	struct run_result r = run_pcibw(
	    NULL, (const char *[]){"analyze", test_data("bench/netperf-qemu-riscv-virtio-msgsize-sweep.csv"),
				   "--nic", "virtio-net", NULL});
	cr_assert_eq(r.status, 0);
	/* the line may wrap between the words, where depends on the length of the path printed */
	char *flat = squash_space(r.out);
	cr_assert(flat && strstr(flat, "37 rows from 25 result lines"), "%s", r.out);
	free(flat);
	cr_assert(!strstr(r.out, " source "), "one input: no source column");
	const char *p = r.out;
	const char *path = test_data("bench/netperf-qemu-riscv-virtio-msgsize-sweep.csv");
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		/* the input's path is one word that cannot be broken: it counts as one column, so the
		 * check does not depend on where the tree sits */
		const char *at = memmem(p, n, path, strlen(path));
		size_t cols = at ? n - strlen(path) + 1 : n;
		cr_assert_leq(cols, 100, "line of %zu: %.*s", cols, (int)n, p);
		p += n + (e != NULL);
	}
	/* evidence said once per group: every undetermined row says the line rate is missing, and the
	 * sweep has 4 undetermined groups (TCP_STREAM send; UDP_STREAM recv 1-64 B and 1024-32768 B;
	 * UDP_STREAM send 1500-32768 B), so the 28 undetermined rows say it 4 times */
	int count = 0;
	for (p = r.out; (p = strstr(p, "no line rate given (--line-rate)")); p++)
		count++;
	cr_assert_eq(count, 4, "said %d times", count);
	run_free(&r);
}

/* Two interfaces in one CSV, both at 64 B, no bus and no line rate: eth0 with the CPUs 95 % busy
 * is cpu-bound (>= cpu 0.90), eth1 at 40 % undetermined (nothing reached a threshold). Each is a
 * group of its own, and the text says which interface each table row, each group's evidence and
 * each headline line is about (the rows read alike otherwise: same size, same direction). */
Test(groups, interfaces_named)
{
	const char *csv = temp_file("iface,direction,frame_bytes,pps,cpu_pct\n"
				    "eth0,rx,64,500000,95\n"
				    "eth1,rx,64,900000,40\n",
				    ".csv");
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", csv, "--json", NULL});
	json_t *groups = json_object_get(j, "groups");
	cr_assert_eq(json_array_size(groups), 2, "a group per interface");
	const char *want_if[] = {"eth0", "eth1"}, *want_v[] = {"cpu-bound", "undetermined"};
	for (size_t i = 0; i < 2; i++) {
		json_t *g = json_array_get(groups, i);
		cr_assert_str_eq(jstr(json_object_get(g, "key"), "iface"), want_if[i]);
		cr_assert_str_eq(jstr(g, "verdict"), want_v[i]);
	}
	json_decref(j);
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", csv, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	const char *want[] = {
	    "\n  1 eth0       64   rx", /* the table */
	    "\n  2 eth1       64   rx",
	    "\neth0 rx, 64 B (row 1): cpu-bound\n", /* each group's evidence */
	    "\neth1 rx, 64 B (row 2): undetermined\n",
	    " at 64 B on eth0: the CPUs are 95 % busy.", /* the headline's figure */
	    "\n         eth0 rx: cpu-bound 64 B\n",	 /* and each group's line */
	    "\n         eth1 rx: undetermined 64 B\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_assert(strstr(r.out, want[i]), "no '%s' in:\n%s", want[i], r.out);
	run_free(&r);
	unlink(csv);
}

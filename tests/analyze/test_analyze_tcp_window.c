/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The TCP window bound of iperf3 -J rows: window x 8 / RTT from the sender's TCP_INFO samples
 * (RFC 5681 sec. 2: at most one window unacknowledged per round trip), the measured share of it,
 * and the undetermined hint that names the TCP path when the share reaches tcp_window (0.70).
 * Expected values: the files' own numbers, by hand in each comment.
 */
#include "analyze_support.h"

#define CLOUD "bench/iperf3-json-tcp-gcp-to-ibm-wdc-rtt77ms-266mbps-cpu.json"
#define LAN "analyze/synthetic-iperf3-tcp-lan-rtt200us-no-retrans.json"

static json_t *tcp_path_of(json_t *o)
{
	json_t *p = json_object_get(o, "tcp_path");
	cr_assert(p, "no key tcp_path");
	return p;
}

/* The cloud run (iperf 3.9, 1 stream): the counted intervals' snd_cwnd x 8 / rtt, time-weighted,
 * is 297.82 Mbit/s (tests/ingest tcp_path_real lists them); end.sum_sent 266338277.37 bit/s is
 * 266.34 / 297.82 = 89.43 % of it (>= 70 %): the TCP path is the likely limit. max_snd_cwnd
 * 3734016 B x 8 / mean_rtt 77171 us = 387.09 Mbit/s, of which the run measured 68.8 %. The
 * receiver's 275536215.53 bit/s is 92.52 %. 709 retransmits of 332922880 / 1408 = 236451
 * segments: 0.30 %. */
Test(tcp_window, cloud_run_names_the_path)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", test_data(CLOUD), "--json", NULL});
	cr_assert_str_eq(jstr(j, "verdict"), "undetermined", "the verdict names stay the contract's");
	json_t *s = find_row(j, 131072, "sender", NULL), *p = tcp_path_of(s);
	cr_assert(json_is_object(p));
	assert_close(jnum(p, "window_bound_gbps"), 0.29782, 0.000005);
	cr_assert_str_eq(jstr(p, "window_bound_from"), "samples");
	/* JSON carries 10 significant digits */
	assert_close(jnum(p, "measured_share"), 0.26633827736617228 / jnum(p, "window_bound_gbps"), 1e-9);
	assert_close(jnum(p, "measured_share"), 0.8943, 0.00005);
	cr_assert(json_is_true(json_object_get(p, "limit")));
	cr_assert_eq(jnum(p, "samples"), 10);
	cr_assert_str_eq(jstr(p, "window_of"), "snd_cwnd");
	cr_assert_eq(jnum(p, "max_snd_cwnd_bytes"), 3734016);
	assert_close(jnum(p, "max_window_gbps"), 0.3871, 0.00005);
	cr_assert_eq(jnum(p, "rtt_mean_us"), 77171);
	cr_assert_eq(jnum(p, "rtt_min_us"), 75955);
	cr_assert_eq(jnum(p, "rtt_max_us"), 82679);
	cr_assert_eq(jnum(p, "retransmits"), 709);
	assert_close(jnum(p, "segments"), 332922880.0 / 1408, 1e-4);
	cr_assert_eq(jnum(p, "pmtu_bytes"), 1460);

	cr_assert(evidence_has(s, "the TCP path is the likely limit"));
	cr_assert(evidence_has(s, "266 Mbit/s is 89 %"));
	cr_assert(evidence_has(s, "298 Mbit/s at 77.2 ms RTT"));
	cr_assert(evidence_has(s, "709 retransmits"));
	cr_assert(evidence_has(s, "max_snd_cwnd 3.73 MB / mean RTT allows 387 Mbit/s"));
	cr_assert(evidence_has(s, "(0.3 % of 236451 segments)"));
	cr_assert(!evidence_has(s, "closed-loop"), "the TCP hint replaces the closed-loop one");

	/* the summary names the size as the table and the headline do (131072 B writes,
	 * start.test_start.blksize), then the IP packets the rates are set at: MSS 1408 + 52 = 1460 B;
	 * its rate is the receiver's 275.5 Mbit/s, the larger */
	json_t *ev = json_array_get(json_object_get(j, "evidence"), 0);
	cr_assert(json_is_string(ev));
	cr_assert(
	    !strncmp(json_string_value(ev),
		     "Undetermined at 276 Mbit/s at 131072 B (1460 B IP packets): the TCP path",
		     strlen("Undetermined at 276 Mbit/s at 131072 B (1460 B IP packets): the TCP path")),
	    "%s", json_string_value(ev));

	json_t *r = find_row(j, 131072, "receiver", NULL);
	assert_close(jnum(tcp_path_of(r), "measured_share"), 0.2755362155268963 / 0.29782, 0.0001);

	/* every group: the representative row's figures and the same hint */
	json_t *groups = json_object_get(j, "groups"), *g;
	size_t i;
	cr_assert_eq(json_array_size(groups), 2);
	json_array_foreach(groups, i, g)
	{
		cr_assert_str_eq(jstr(g, "verdict"), "undetermined");
		cr_assert(json_is_true(json_object_get(tcp_path_of(g), "limit")));
		cr_assert(evidence_has(g, "the TCP path is the likely limit"));
		cr_assert(!evidence_has(g, "closed-loop"));
	}
	json_decref(j);
}

/* --threshold tcp_window=0.95: 89 % no longer reaches it, so the closed-loop hint is back and
 * the figures line stays; 0 and 1.5 are no shares (exit 2). */
Test(tcp_window, threshold)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", test_data(CLOUD), "--threshold",
							"tcp_window=0.95", "--json", NULL});
	json_t *s = find_row(j, 131072, "sender", NULL);
	cr_assert(json_is_false(json_object_get(tcp_path_of(s), "limit")));
	cr_assert(!evidence_has(s, "the TCP path is the likely limit"));
	cr_assert(evidence_has(s, "closed-loop"));
	cr_assert(evidence_has(s, "TCP window: a mean 2.84 MB snd_cwnd over 10 interval samples"));
	json_decref(j);
	const char *bad[] = {"tcp_window=0", "tcp_window=1.5"};
	for (int k = 0; k < 2; k++) {
		struct run_result r = run_pcibw(
		    NULL, (const char *[]){"analyze", test_data(CLOUD), "--threshold", bad[k], NULL});
		cr_assert_eq(r.status, 2, "%s: exit %d", bad[k], r.status);
		cr_assert(strstr(r.err, "tcp_window"), "%s", r.err);
		run_free(&r);
	}
}

/* Loopback TCP (iperf3 3.12): windows of MBs over RTTs of hundreds of µs allow tens of Gbit/s,
 * the runs measured 6-7 Gbit/s: far below 70 %, so no TCP hint. -P 2: stream 5's counted
 * intervals 3012218 B / 617 us = 39.06 Gbit/s and 1440626 B / 161 us = 71.58 Gbit/s, stream 7's
 * 2750286 B / 624 us = 35.26 and 1571592 B / 316 us = 39.79 Gbit/s: the bound is about 93 Gbit/s
 * and the 11.94 Gbit/s sum_sent about 13 % of it. */
Test(tcp_window, loopback_keeps_its_hints)
{
	const char *files[] = {"bench/iperf3-3.12-loopback-tcp-P2.json",
			       "bench/iperf3-3.12-loopback-tcp-omit1.json"};
	for (int k = 0; k < 2; k++) {
		json_t *j =
		    analyze_json(NULL, (const char *[]){"analyze", test_data(files[k]), "--json", NULL});
		json_t *rows = json_object_get(j, "rows"), *r;
		size_t i;
		json_array_foreach(rows, i, r)
		{
			json_t *p = tcp_path_of(r);
			cr_assert(json_is_object(p), "%s: a TCP row with samples", files[k]);
			cr_assert(json_is_false(json_object_get(p, "limit")), "%s", files[k]);
			cr_assert_lt(jnum(p, "measured_share"), 0.2, "%s: %g", files[k],
				     jnum(p, "measured_share"));
			cr_assert(!evidence_has(r, "the TCP path is the likely limit"), "%s", files[k]);
			cr_assert(evidence_has(r, "TCP window: "), "%s: the figures line", files[k]);
			cr_assert(evidence_has(r, "check for a closed-loop benchmark"),
				  "%s: its hint as before", files[k]);
		}
		json_decref(j);
	}
	json_t *j = analyze_json(
	    NULL,
	    (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-tcp-P2.json"), "--json", NULL});
	json_t *s = find_row(j, 131072, "sender", NULL);
	double bound = (3012218.0 * 8 / 617e-6 + 2750286.0 * 8 / 624e-6) / 1e9 * 1.002274990081787 +
		       (1440626.0 * 8 / 161e-6 + 1571592.0 * 8 / 316e-6) / 1e9 * 0.9991739988327026;
	bound /= 1.002274990081787 + 0.9991739988327026;
	assert_close(jnum(tcp_path_of(s), "window_bound_gbps"), bound, 1e-7);
	json_decref(j);
}

/* UDP rows have no TCP path: null, no window line. */
Test(tcp_window, udp_has_none)
{
	json_t *j = analyze_json(
	    NULL, (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-udp-1024B-400M.json"),
				   "--json", NULL});
	json_t *rows = json_object_get(j, "rows"), *r;
	size_t i;
	json_array_foreach(rows, i, r)
	{
		cr_assert(json_is_null(tcp_path_of(r)));
		cr_assert(!evidence_has(r, "TCP window"));
		cr_assert(!evidence_has(r, "TCP path"));
	}
	json_t *g = json_array_get(json_object_get(j, "groups"), 0);
	cr_assert(json_is_null(tcp_path_of(g)));
	json_decref(j);
}

/* The synthetic LAN run: 868800 B x 8 / 200 us = 34.752 Gbit/s and 1158400 B x 8 / 250 us =
 * 37.0688 Gbit/s, 1 s each: 35.9104 Gbit/s; 4.2 Gbit/s is 11.70 % of it, 0 retransmits: the
 * window is not what holds it, so the closed-loop hint stays (CPU 35 % known). */
Test(tcp_window, lan_without_loss_gets_no_hint)
{
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", test_data(LAN), "--json", NULL});
	json_t *s = find_row(j, 131072, "sender", NULL), *p = tcp_path_of(s);
	assert_close(jnum(p, "window_bound_gbps"), 35.9104, 1e-7);
	assert_close(jnum(p, "measured_share"), 4.2 / 35.9104, 1e-9);
	cr_assert(json_is_false(json_object_get(p, "limit")));
	cr_assert_eq(jnum(p, "retransmits"), 0);
	cr_assert_eq(jnum(p, "rtt_mean_us"), 225);
	/* max_snd_cwnd 1158400 B x 8 / mean_rtt 225 us = 41.1876 Gbit/s */
	assert_close(jnum(p, "max_window_gbps"), 1158400.0 * 8 / 225e-6 / 1e9, 1e-7);
	cr_assert(!evidence_has(s, "TCP path"));
	cr_assert(evidence_has(s, "closed-loop"));
	cr_assert(evidence_has(s, "35.9 Gbit/s; measured 4.2 Gbit/s is 12 % of it"));
	cr_assert(evidence_has(s, "; 0 retransmits"));
	json_decref(j);
}

/* The LAN file with one text replaced (the first interval's rtt 200, or every snd_cwnd and
 * max_snd_cwnd key renamed away); the path of the copy. */
static const char *lan_with(const char *from, const char *to, bool all)
{
	size_t n;
	char *s = slurp(test_data(LAN), &n);
	cr_assert(s);
	size_t cap = n * 2 + 64, o = 0;
	char *out = malloc(cap);
	const char *p = s, *q;
	bool done = false;
	while ((q = strstr(p, from)) && (all || !done)) {
		memcpy(out + o, p, (size_t)(q - p));
		o += (size_t)(q - p);
		memcpy(out + o, to, strlen(to));
		o += strlen(to);
		p = q + strlen(from);
		done = true;
	}
	cr_assert(done, "no %s in the file", from);
	memcpy(out + o, p, strlen(p) + 1);
	const char *path = tmp_with(".json", out, strlen(out));
	free(out);
	free(s);
	return path;
}

static json_t *inputs_warning(json_t *j)
{
	return json_array_get(json_object_get(json_array_get(json_object_get(j, "inputs"), 0), "warnings"),
			      0);
}

/* Bad figures are left out with a warning naming the key; the other interval still bounds the
 * run (37.0688 Gbit/s), the rows are read as before, exit 0. */
Test(tcp_window, bad_figures_are_left_out)
{
	static const struct {
		const char *to, *says;
	} cases[] = {
	    {"\"rtt\":\t-200", "intervals[0].streams[0].rtt is -200 (expected microseconds > 0)"},
	    {"\"rtt\":\t0", "intervals[0].streams[0].rtt is 0 (expected microseconds > 0)"},
	    {"\"rtt\":\t\"200\"", "intervals[0].streams[0].rtt is not a number"},
	};
	for (int k = 0; k < 3; k++) {
		const char *path = lan_with("\"rtt\":\t200", cases[k].to, false);
		json_t *j = analyze_json(NULL, (const char *[]){"analyze", path, "--json", NULL});
		json_t *s = find_row(j, 131072, "sender", NULL), *p = tcp_path_of(s);
		cr_assert_eq(jnum(p, "samples"), 1, "%s", cases[k].to);
		assert_close(jnum(p, "window_bound_gbps"), 37.0688, 1e-7);
		assert_close(jnum(s, "measured_gbps"), 4.2, 1e-12);
		json_t *w = inputs_warning(j);
		cr_assert(w && strstr(json_string_value(w), cases[k].says), "%s: %s", cases[k].to,
			  w ? json_string_value(w) : "no warning");
		json_decref(j);
		unlink(path);
	}
	/* iperf3's -1 for a figure the system did not give: left out, said */
	const char *path = lan_with("\"max_snd_cwnd\":\t1158400", "\"max_snd_cwnd\":\t-1", false);
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", path, "--json", NULL});
	json_t *p = tcp_path_of(find_row(j, 131072, "sender", NULL));
	cr_assert(json_is_null(json_object_get(p, "max_snd_cwnd_bytes")));
	assert_close(jnum(p, "window_bound_gbps"), 35.9104, 1e-7);
	cr_assert(strstr(json_string_value(inputs_warning(j)), "end.streams[0].sender.max_snd_cwnd is -1"));
	json_decref(j);
	unlink(path);
}

/* No window anywhere (every snd_cwnd and max_snd_cwnd renamed): no bound, tcp_path null, no
 * window line and no warning: an input without the figures is no bad input. */
Test(tcp_window, missing_fields_give_no_bound)
{
	const char *p1 = lan_with("\"snd_cwnd\"", "\"x_snd_cwnd\"", true);
	size_t n;
	char *s = slurp(p1, &n);
	char *m = strstr(s, "\"max_snd_cwnd\"");
	cr_assert(m);
	memcpy(m, "\"max_snd_xxxx\"", 14);
	const char *p2 = tmp_with(".json", s, n);
	free(s);
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", p2, "--json", NULL});
	json_t *r = find_row(j, 131072, "sender", NULL);
	cr_assert(json_is_null(tcp_path_of(r)));
	cr_assert(!evidence_has(r, "TCP window"));
	cr_assert(!evidence_has(r, "TCP path"));
	cr_assert_null(inputs_warning(j));
	json_decref(j);
	unlink(p1);
	unlink(p2);
}

/* The LAN run with the peer's window cut to 131072 B (every snd_wnd): 131072 B x 8 / 200 us =
 * 5.24288 Gbit/s and / 250 us = 4.194304 Gbit/s, 1 s each: 4.718592 Gbit/s; 4.2 Gbit/s is
 * 89.01 % of it: the receiver's window holds the run, and the hint says which buffer. */
Test(tcp_window, receiver_window)
{
	const char *path = lan_with("\"snd_wnd\":\t3145728", "\"snd_wnd\":\t131072", true);
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", path, "--json", NULL});
	json_t *s = find_row(j, 131072, "sender", NULL), *p = tcp_path_of(s);
	assert_close(jnum(p, "window_bound_gbps"), 4.718592, 1e-8);
	assert_close(jnum(p, "measured_share"), 4.2 / 4.718592, 1e-9);
	cr_assert_str_eq(jstr(p, "window_of"), "snd_wnd");
	cr_assert(json_is_true(json_object_get(p, "limit")));
	cr_assert(evidence_has(s, "the TCP path is the likely limit: 4.2 Gbit/s is 89 %"));
	cr_assert(evidence_has(s, "the receiver's buffer: net.ipv4.tcp_rmem, iperf3 -w"));
	cr_assert(!evidence_has(s, "retransmits say"), "0 retransmits: no loss named");
	json_decref(j);
	unlink(path);
}

/* A run cut short (no end object): the intervals stand in for the sums, and so do their figures:
 * the bound of both samples, 35.9104 Gbit/s, and the intervals' retransmits, 0 + 0. */
Test(tcp_window, cut_short_run)
{
	const char *path = lan_with("\"end\":\t{", "\"end_cut\":\t{", false);
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", path, "--json", NULL});
	json_t *r = json_array_get(json_object_get(j, "rows"), 0), *p = tcp_path_of(r);
	cr_assert_str_eq(jstr(r, "series"), "intervals");
	assert_close(jnum(p, "window_bound_gbps"), 35.9104, 1e-7);
	cr_assert_eq(jnum(p, "retransmits"), 0);
	cr_assert(json_is_null(json_object_get(p, "max_snd_cwnd_bytes")));
	/* the samples' mean RTT: (200 + 250) / 2 */
	cr_assert_eq(jnum(p, "rtt_mean_us"), 225);
	json_decref(j);
	unlink(path);
}

/* text with every from replaced by to (heap) */
static char *replace_all(char *text, const char *from, const char *to)
{
	size_t n = 0, lf = strlen(from), lt = strlen(to);
	for (const char *q = text; (q = strstr(q, from)); q += lf)
		n++;
	char *out = malloc(strlen(text) + n * (lt > lf ? lt - lf : 0) + 1), *o = out;
	const char *p = text, *q;
	while ((q = strstr(p, from))) {
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		memcpy(o, to, lt);
		o += lt;
		p = q + lf;
	}
	strcpy(o, p);
	free(text);
	return out;
}

/* iperf3 -R: the client received, so its intervals carry no sender TCP_INFO, and iperf3 writes its
 * own stream's maxima as 0 beside the server's retransmits (iperf_api.c prints
 * stream_max_snd_cwnd and the RTTs whenever the sender has retransmits). No bound, and no
 * warning: zeros that mean "not sampled here" are not bad figures. */
Test(tcp_window, reverse_run_has_no_window)
{
	size_t n;
	char *s = slurp(test_data(LAN), &n);
	cr_assert(s);
	static const char *const edits[][2] = {
	    {"\"snd_cwnd\"", "\"x_snd_cwnd\""},
	    {"\"rtt\":", "\"x_rtt\":"},
	    {"\"max_snd_cwnd\":\t1158400", "\"max_snd_cwnd\":\t0"},
	    {"\"max_rtt\":\t250", "\"max_rtt\":\t0"},
	    {"\"min_rtt\":\t200", "\"min_rtt\":\t0"},
	    {"\"mean_rtt\":\t225", "\"mean_rtt\":\t0"},
	    {"\"reverse\":\t0", "\"reverse\":\t1"},
	};
	for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
		cr_assert(strstr(s, edits[k][0]), "no %s", edits[k][0]);
		s = replace_all(s, edits[k][0], edits[k][1]);
	}
	const char *path = tmp_with(".json", s, strlen(s));
	free(s);
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", path, "--json", NULL});
	json_t *rows = json_object_get(j, "rows"), *r;
	size_t i;
	json_array_foreach(rows, i, r)
	{
		cr_assert(json_is_null(tcp_path_of(r)));
		cr_assert(!evidence_has(r, "TCP window"));
	}
	cr_assert_null(inputs_warning(j), "%s", json_string_value(inputs_warning(j)));
	json_decref(j);
	unlink(path);
}

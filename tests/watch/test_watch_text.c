/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw watch` text within 100 columns in all cases: an interval raising every flag at once with
 * figures at the edge of each column (synthetic, built here: every PCIBW_WF_* bit, a 13-character
 * interface name, 1.23e12 packets/s, a 10^7 s run), the recording synthetic-all-flags (16 flags
 * in one interval, the clock in another), and every recording of tests/watch/data replayed as
 * text.
 */
#include "src/render/watch_render.h"
#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* each line of text at most 100 columns; returns the lines */
static int narrow(const char *text, const char *what)
{
	int n = 0;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		cr_assert_leq(len, 100, "%s: %zu columns: %.*s", what, len, (int)len, p);
		n++;
		p += len + (e != NULL);
	}
	return n;
}

static const struct pcibw_watch_dir extreme = {
    .pps = 1.23e12, .gbps = 99999.4, .frame_bytes = 65539, .wire_util = 123.45};

Test(watch_text, every_flag_at_once_fits_100_columns)
{
	struct pcibw_watch_setup setup = {0};
	struct pcibw_watch_interval iv;
	struct pcibw_err err = {0};
	cr_assert_eq(pcibw_watch_interval_init(&iv, &err), 0);
	iv.t = 1.0e7;
	iv.dt = 1;
	iv.n_ifs = 2;
	/* two ports of one NIC with names longer than the column: told apart */
	const char *names[] = {"enp129s0f0np0", "enp129s0f1np1"};
	for (int i = 0; i < 2; i++) {
		snprintf(iv.ifs[i].name, sizeof iv.ifs[i].name, "%s", names[i]);
		iv.ifs[i].present = iv.ifs[i].valid = true;
		iv.ifs[i].rx = iv.ifs[i].tx = extreme;
	}
	iv.cpu_busy = iv.busiest_busy = iv.busiest_softirq = 1;
	iv.busiest_cpu = 12345;
	iv.flags = (1u << 17) - 1; /* PCIBW_WF_HOT_CORE .. PCIBW_WF_CLOCK */
	iv.n_notes = 1;
	iv.note_flag[0] = PCIBW_WF_LINK;
	snprintf(
	    iv.notes[0], sizeof iv.notes[0], "%s",
	    "enp129s0f0np0: bus ceiling re-modelled on the link as it is now, gen1 x4 (current_link_speed "
	    "2.5 GT/s, current_link_width 4), not gen4 x16");
	long lines = 0;
	/* as the loop hands it: no row (no bus known), so each interface idle, its wire figure the
	 * interval's */
	struct pcibw_watch_iv_result *v = calloc(1, sizeof *v);
	cr_assert(v);
	*v = (struct pcibw_watch_iv_result){.setup = &setup, .iv = &iv, .index = 1, .new_flags = iv.flags};
	for (int i = 0; i < 2; i++) {
		v->ifs[i].v.word = "idle";
		v->ifs[i].bus_util = NAN;
		v->ifs[i].wire_util = extreme.wire_util;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	cr_assert(out);
	cr_assert_eq(render_watch_text(out, v, &lines), 0);
	fclose(out);
	int n = narrow(buf, "every flag");
	cr_assert_geq(n, 6, "two header lines, two interface lines, their flags spelled out, a note: %s",
		      buf);
	/* the flags column: four letters and '+', every distinct letter then spelled out with its
	 * name (O and P stand for two and three flags) */
	cr_assert(strstr(buf, " HQDI+\n"), "%s", buf);
	const char *all = "flags HQDISZWRVNOLPC: H hot-core, Q one-queue, D drops, I irq-rate, S squeeze, Z";
	cr_assert(strstr(buf, all), "%s", buf);
	cr_assert_null(strstr(strstr(buf, all) + 1, "+ flags "), "spelled out once an interval: %s", buf);
	for (const char *w = "cpu-offline cpu-online pci-stall pci-overflow pci-signal clock"; *w;) {
		char word[32];
		size_t k = strcspn(w, " ");
		snprintf(word, sizeof word, "%.*s", (int)k, w);
		cr_assert(strstr(buf, word), "%s in %s", word, buf);
		w += k + (w[k] == ' ');
	}
	cr_assert(strstr(buf, "enp1~np0") && strstr(buf, "enp1~np1"), "%s", buf);
	/* a 10^7 s run and 1.23e12 packets/s in their columns */
	cr_assert(strstr(buf, "10000k enp1~np0 1.23T"), "%s", buf);
	free(buf);
	pcibw_watch_interval_free(&iv);
	free(v);
}

Test(watch_text, every_recording_fits_100_columns)
{
	struct run_result ls = run_cmd(NULL, (const char *[]){"sh", "-c",
							      "cd \"$PCIBW_TEST_DATA\" && for d in */; do "
							      "echo \"${d%/}\"; done",
							      NULL});
	cr_assert_eq(ls.status, 0, "%s", ls.err);
	int recs = 0, lines = 0;
	for (char *save = NULL, *d = strtok_r(ls.out, "\n", &save); d; d = strtok_r(NULL, "\n", &save)) {
		char dir[1024];
		snprintf(dir, sizeof dir, "%s/%s", getenv("PCIBW_TEST_DATA"), d);
		struct run_result r = run_pcibw(NULL, (const char *[]){"watch", "--replay", dir, NULL});
		cr_assert_eq(r.status, 0, "%s: exit %d: %s", d, r.status, r.err);
		lines += narrow(r.out, d);
		recs++;
		run_free(&r);
	}
	run_free(&ls);
	cr_assert_geq(recs, 15);
	cr_log_info("%d lines of %d recordings", lines, recs);
}

Test(watch_text, a_recording_raising_every_flag_fits_100_columns)
{
	/* synthetic-all-flags (tests/watch/data/synthetic-gen.py): from sample 3 to 4 every flag
	 * but the clock at once (hot core, one queue, drops, irq rate, squeeze, no irq time, wrap,
	 * reset, vanished, renamed, CPU offline and online, link, the three PCIe counters), the
	 * clock from sample 5 to 6 */
	const char *rec = test_data("synthetic-all-flags");
	struct run_result j = run_pcibw(NULL, (const char *[]){"watch", "--replay", rec, "--json", NULL});
	cr_assert_eq(j.status, 0, "%s", j.err);
	int line = 0;
	for (char *save = NULL, *l = strtok_r(j.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		line++;
		if (line != 4 && line != 6 && line != 7)
			continue;
		json_error_t e;
		json_t *x = json_loads(l, 0, &e);
		cr_assert(x, "%s", e.text);
		size_t n = json_array_size(json_object_get(x, "flags"));
		cr_assert_eq(n, line == 4 ? 16 : line == 6 ? 5 : 17, "line %d: %zu flags: %s", line, n, l);
		json_decref(x);
	}
	run_free(&j);
	struct run_result r = run_pcibw(NULL, (const char *[]){"watch", "--replay", rec, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	narrow(r.out, "synthetic-all-flags");
	char *first = strstr(r.out, "\n   2.0 lo ");
	cr_assert(first, "%s", r.out);
	char *eol = strchr(first + 1, '\n');
	cr_assert(eol && !strncmp(eol - 6, " HQDI+", 6), "%.*s", (int)(eol - first), first);
	cr_assert(!strncmp(eol, "\n          + flags HQDISZWRVNOLP: H hot-core, Q one-queue", 56), "%.300s",
		  eol);
	const char *names[] = {"drops", "irq-rate",  "squeeze",	     "no-irq-time", "wrap",
			       "reset", "vanished",  "renamed",	     "cpu-offline", "cpu-online",
			       "link",	"pci-stall", "pci-overflow", "pci-signal"};
	char *end = strstr(eol, "\n   2.0 eth0 ");
	cr_assert(end);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *at = strstr(eol, names[i]);
		cr_assert(at && at < end, "%s spelled out under interval 4", names[i]);
	}
	run_free(&r);
}

/* The summary's peak is rx + tx summed over the interfaces, where the rows are per interface and
 * direction: it says so and splits the two directions. */
static char *summary_text(const struct pcibw_watch_summary_result *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	cr_assert(out);
	cr_assert_eq(render_watch_summary_text(out, s), 0);
	fclose(out);
	return buf;
}

Test(watch_text, summary_peak_names_its_sum)
{
	struct pcibw_watch_summary_result s = {.intervals = 4,
					       .seconds = 2,
					       .busiest_cpu = -1,
					       .peak_t = 1.5,
					       .peak_pps = 40310,
					       .peak_rx_pps = 20155,
					       .peak_tx_pps = 20155,
					       .peak_gbps = 0.25,
					       .peak_ifaces = 1,
					       .peak_iface = "lo"};
	char *buf = summary_text(&s);
	cr_expect(
	    strstr(
		buf,
		"  peak: 40310 packets/s rx+tx (20155 rx + 20155 tx), 0.250 Gbit/s rx+tx, at 1.5 s on lo\n"),
	    "%s", buf);
	free(buf);
	s.peak_ifaces = 2;
	s.peak_rx_pps = 30000, s.peak_tx_pps = 10310;
	snprintf(s.peak_iface, sizeof s.peak_iface, "eth0");
	buf = summary_text(&s);
	cr_expect(strstr(buf, "(30000 rx + 10310 tx), 0.250 Gbit/s rx+tx, at 1.5 s\n"
			      "        summed over 2 interfaces, the most on eth0\n"),
		  "%s", buf);
	free(buf);
}

/* real-vm-lo-udp: the JSON peak's directions add up to its pps, and the text names the sum */
Test(watch_text, replayed_peak_is_rx_plus_tx)
{
	const char *rec = test_data("real-vm-lo-udp");
	struct run_result j = run_pcibw(NULL, (const char *[]){"watch", "--replay", rec, "--json", NULL});
	cr_assert_eq(j.status, 0, "%s", j.err);
	json_t *sum = NULL;
	for (char *save = NULL, *l = strtok_r(j.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		json_t *o = json_loads(l, 0, NULL);
		const char *type = json_string_value(json_object_get(o, "type"));
		if (type && !strcmp(type, "summary"))
			sum = o;
		else
			json_decref(o);
	}
	cr_assert(sum, "no summary: %s", j.err);
	json_t *pk = json_object_get(sum, "peak");
	double pps = json_number_value(json_object_get(pk, "pps"));
	cr_assert_gt(pps, 0);
	cr_expect_float_eq(json_number_value(json_object_get(pk, "rx_pps")) +
			       json_number_value(json_object_get(pk, "tx_pps")),
			   pps, 1e-6 * pps);
	json_decref(sum);
	run_free(&j);
	struct run_result t = run_pcibw(NULL, (const char *[]){"watch", "--replay", rec, NULL});
	cr_assert_eq(t.status, 0, "%s", t.err);
	cr_expect(strstr(t.out, " packets/s rx+tx ("), "%s", t.out);
	run_free(&t);
}

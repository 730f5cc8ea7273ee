/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw watch --replay` on recordings made on this project's 2-CPU VM (virtio eth0, loopback
 * UDP: tests/watch/data/real-*) and on their synthetic-* edits (synthetic-gen.py; each meta
 * file's header says what was changed). Expected numbers come from the recordings' own text
 * (counter lines and sample times quoted below) or from the edits, never from running pcibw.
 */
#include "support.h"
#include "watch_lines.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static struct lines replay(const char *rec, const char *extra)
{
	const char *args[] = {"watch", "--replay", test_data(rec), "--json", extra, NULL};
	struct lines L = watch_lines(rec, args);
	for (int i = 0; i < L.n; i++)
		cr_assert_str_eq(json_string_value(json_object_get(L.v[i], "type")),
				 i == L.n - 1 ? "summary" : "interval");
	return L;
}

static json_t *iface(json_t *iv, const char *name)
{
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(iv, "interfaces"), i,
			   x) if (!strcmp(json_string_value(json_object_get(x, "name")), name)) return x;
	cr_assert_fail("no interface %s", name);
	return NULL;
}

static double num(json_t *o, const char *path)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", path);
	json_t *x = o;
	for (char *save = NULL, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
		x = json_object_get(x, k);
	return json_is_number(x) ? json_number_value(x) : NAN;
}

static bool has_flag(json_t *o, const char *flag)
{
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(o, "flags"), i,
			   x) if (!strcmp(json_string_value(x), flag)) return true;
	return false;
}

Test(replay, real_loopback_counts_every_packet)
{
	/* real-vm-lo-udp/samples: lo rx_packets 29 in the first sample, 40029 in the last
	 * (rx_bytes 3267 -> 20563267): 40000 packets of 20560000 / 40000 = 514 counted bytes */
	struct lines L = replay("real-vm-lo-udp", NULL);
	cr_assert_eq(L.n, 7, "6 intervals and the summary");
	double packets = 0, bytes = 0;
	for (int i = 0; i < L.n - 1; i++) {
		json_t *lo = iface(L.v[i], "lo");
		double dt = num(L.v[i], "dt"), pps = num(lo, "rx.pps");
		packets += pps * dt;
		bytes += num(lo, "rx.gbps") * 1e9 / 8 * dt;
		if (pps > 0)
			cr_assert_float_eq(num(lo, "rx.frame_bytes"), num(lo, "rx.avg_bytes") + 4, 1e-9,
					   "FCS added");
		cr_assert(json_is_true(json_object_get(lo, "virtual")));
		cr_assert(json_is_true(json_object_get(iface(L.v[i], "eth0"), "virtual")));
		/* irq 0 since boot in every cpuN line while intr reads 907328: no irq time accounting */
		cr_assert(has_flag(L.v[i], "no-irq-time"));
		cr_assert(json_is_null(json_object_get(json_object_get(L.v[i], "cpu"), "irq")),
			  "irq unknown, not 0");
	}
	cr_assert_float_eq(packets, 40000, 1e-6);
	cr_assert_float_eq(bytes, 20560000, 1e-3);
	cr_assert_float_eq(bytes / packets, 514, 1e-9);
	/* interval 1: cpu0 user+6 nice+19 system+23 and no idle tick: 100 % busy */
	cr_assert_float_eq(num(L.v[0], "cpu.busiest_busy"), 1.0, 1e-12);
	lines_free(&L);
}

Test(replay, softirq_heavy_is_a_hot_core_and_cpu_bound)
{
	/* synthetic-softirq-heavy: CPU1 49/50 ticks busy, 45 softirq; CPU0 5/50; irq time counted */
	struct lines L = replay("synthetic-softirq-heavy", NULL);
	for (int i = 1; i < L.n - 1; i++) {
		json_t *iv = L.v[i];
		cr_assert(has_flag(iv, "hot-core"), "interval %d", i + 1);
		cr_assert_not(has_flag(iv, "no-irq-time"));
		cr_assert_eq(num(iv, "cpu.busiest_cpu"), 1);
		cr_assert_float_eq(num(iv, "cpu.busiest_busy"), 0.98, 1e-12);
		cr_assert_float_eq(num(iv, "cpu.busiest_softirq"), 0.90, 1e-12);
		cr_assert_float_eq(num(iv, "cpu.busy"), 54.0 / 100, 1e-12);
		cr_assert_float_eq(num(iv, "cpu.irq"), 2.0 / 100, 1e-12);
		/* the contract's cpu-bound rule: busiest core >= 0.95 */
		cr_assert_str_eq(json_string_value(json_object_get(iv, "verdict")), "cpu-bound");
	}
	cr_assert_str_eq(json_string_value(json_object_get(L.v[L.n - 1], "verdict")), "cpu-bound");
	cr_assert_eq(num(L.v[L.n - 1], "busiest_core.cpu"), 1);
	lines_free(&L);
}

Test(replay, wrap_is_counted_across)
{
	/* interval 4 = samples 3 -> 4: real rx_bytes 9293303 -> 14394239 at 1252.924055617 and
	 * 1253.424040102; the edit makes sample 3 read 2^32 - 1000, so the counter wraps */
	struct lines L = replay("synthetic-counter-wrap", NULL);
	json_t *iv = L.v[3];
	cr_assert(has_flag(iv, "wrap"));
	cr_assert_not(has_flag(iv, "reset"));
	double want = (14394239.0 - 9293303.0) * 8 / (1253.424040102 - 1252.924055617) / 1e9;
	cr_assert_float_eq(num(iface(iv, "lo"), "rx.gbps"), want, 1e-9);
	lines_free(&L);
}

Test(replay, reset_gives_no_rate_then_counts_again)
{
	/* from sample 4 lo counts from 0: interval 4 has no rx rate; interval 5 is
	 * 38028 - 28027 = 10001 packets over 1253.920263790 - 1253.424040102 s */
	struct lines L = replay("synthetic-counter-reset", NULL);
	cr_assert(has_flag(L.v[3], "reset"));
	cr_assert(isnan(num(iface(L.v[3], "lo"), "rx.pps")));
	cr_assert_not(has_flag(L.v[4], "reset"));
	cr_assert_float_eq(num(iface(L.v[4], "lo"), "rx.pps"), 10001 / (1253.920263790 - 1253.424040102),
			   1e-7);
	lines_free(&L);
}

Test(replay, vanished_interface_is_said_and_the_rest_goes_on)
{
	struct lines L = replay("synthetic-iface-vanishes", NULL);
	cr_assert(has_flag(L.v[3], "vanished"));
	for (int i = 3; i < L.n - 1; i++) {
		cr_assert(json_is_false(json_object_get(iface(L.v[i], "eth0"), "present")));
		cr_assert(num(iface(L.v[i], "lo"), "rx.pps") > 0);
	}
	cr_assert(has_flag(L.v[L.n - 1], "vanished"), "the summary keeps the flag");
	lines_free(&L);
}

Test(replay, cpu_offline_and_back)
{
	/* CPU1 absent from samples 2 and 3: intervals 2 (1->2, offline), 3 (2->3), 4 (3->4,
	 * online) count CPU0 only; interval 5 both */
	struct lines L = replay("synthetic-cpu-offline", NULL);
	cr_assert(has_flag(L.v[1], "cpu-offline"));
	cr_assert(has_flag(L.v[3], "cpu-online"));
	cr_assert_eq(num(L.v[1], "cpu.cpus"), 1);
	cr_assert_eq(num(L.v[2], "cpu.cpus"), 1);
	cr_assert_eq(num(L.v[3], "cpu.cpus"), 1);
	cr_assert_eq(num(L.v[4], "cpu.cpus"), 2);
	lines_free(&L);
}

Test(replay, mlx5_bus_counters_and_queues)
{
	/* synthetic-mlx5-ethtool: rx 2 Mpps of 64 B frames (60 B counted) over rx0 only of 4
	 * queues, tx 1 Mpps of 1518 B over 4; stalled_rd 40 %, overflow +500 and signal
	 * integrity +2 per sample; 25 Gbit/s; link x8 -> x4 at sample 4 */
	struct lines L = replay("synthetic-mlx5-ethtool", NULL);
	for (int i = 0; i < L.n - 1; i++) {
		json_t *e = iface(L.v[i], "eth0");
		cr_assert(json_is_false(json_object_get(e, "virtual")));
		cr_assert_float_eq(num(e, "rx.pps"), 2e6, 2e6 * 1e-5);
		cr_assert_float_eq(num(e, "rx.frame_bytes"), 64, 1e-6);
		cr_assert_float_eq(num(e, "tx.frame_bytes"), 1518, 1e-6);
		/* wire: 1 Mpps x (1518 + 20) B x 8 / 25 Gbit/s */
		cr_assert_float_eq(num(e, "tx.wire_utilisation"), 1e6 * 1538 * 8 / 25e9, 1e-5);
		cr_assert_eq(num(e, "rx.queues_active"), 1);
		cr_assert_float_eq(num(e, "rx.queue_share_max"), 1.0, 1e-12);
		cr_assert_eq(num(e, "tx.queues_active"), 4);
		cr_assert_float_eq(num(e, "pci_stalled_rd_pct"), 40, 1e-12);
		cr_assert_float_eq(num(e, "pci_buffer_overflow"), 500, 1e-12);
		cr_assert_float_eq(num(e, "pci_signal_integrity"), 2, 1e-12);
		cr_assert(num(e, "rx.bus_utilisation") > 0, "a modelled bus (gen3 x8, mlx5 profile)");
		cr_assert(has_flag(L.v[i], "one-queue"));
		cr_assert(has_flag(L.v[i], "pci-stall"));
		cr_assert(has_flag(L.v[i], "pci-overflow"));
		cr_assert(has_flag(L.v[i], "pci-signal"));
		cr_assert(has_flag(L.v[i], "drops"), "rx_missed_errors +100 per sample");
		/* 1 interrupt per 2 rx packets = 1e6/s against 3e6 packets/s: ratio 0.33 < 0.5 */
		cr_assert_not(has_flag(L.v[i], "irq-rate"));
		/* x8 -> x4 at sample 4: from interval 4 on the link is not the recorded one */
		cr_assert_eq(has_flag(L.v[i], "link"), i >= 3, "interval %d", i + 1);
	}
	lines_free(&L);
}

Test(replay, count_limits_the_replay)
{
	struct lines L = replay("real-vm-virtio-idle", "--count=2");
	cr_assert_eq(L.n, 3);
	cr_assert_eq(num(L.v[2], "intervals"), 2);
	lines_free(&L);
}

Test(replay, text_fits_100_columns_header_every_20)
{
	/* 6 intervals x 2 interfaces = 12 lines per replay: the header repeats after 20 */
	const char *args[] = {"watch", "--replay", test_data("synthetic-mlx5-ethtool"), NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	int headers = 0, data = 0;
	for (char *save = NULL, *l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		cr_assert_leq(strlen(l), 100, "%zu columns: %s", strlen(l), l);
		if (strstr(l, "  time iface"))
			headers++;
		double t;
		char name[16];
		if (sscanf(l, "%lf %15s", &t, name) == 2 && !strcmp(name, "eth0"))
			data++;
	}
	cr_assert_eq(data, 6);
	cr_assert_eq(headers, 1);
	run_free(&r);
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static bool has_evidence(json_t *o, const char *text)
{
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(o, "evidence"), i,
			   x) if (strstr(json_string_value(x), text)) return true;
	return false;
}

Test(replay, an_idle_interface_beside_a_busy_one_is_not_judged)
{
	/* real-vm-lo-udp/samples: eth0 reads rx_packets 1301, tx_packets 703 in all 7 samples (no
	 * packet), while lo moves 40000 */
	struct lines L = replay("real-vm-lo-udp", NULL);
	for (int i = 0; i < L.n - 1; i++) {
		json_t *e = iface(L.v[i], "eth0");
		cr_assert_float_eq(num(e, "rx.pps"), 0, 1e-12);
		cr_assert_str_eq(str(e, "verdict"), "undetermined", "interval %d", i + 1);
		cr_assert(has_evidence(e, "idle: no packets"), "interval %d", i + 1);
	}
	/* intervals 2..6 moved lo packets: its own verdict is the interval's */
	for (int i = 1; i < L.n - 1; i++)
		cr_assert_str_eq(str(iface(L.v[i], "lo"), "verdict"), str(L.v[i], "verdict"));
	json_t *sum = L.v[L.n - 1], *e = iface(sum, "eth0");
	cr_assert_str_eq(str(e, "verdict"), "undetermined");
	/* 6 intervals of the recording's 0.5 s (meta: interval 0.5) */
	cr_assert(has_evidence(e, "idle: no packets on eth0 during 6 intervals of 0.5 s"), "%s",
		  json_dumps(e, 0));
	cr_assert(
	    has_evidence(sum, "no packets on eth0 during 6 intervals of 0.5 s: left out of the verdict"));
	lines_free(&L);
	/* the text line of eth0 says idle, never a verdict that belongs to lo */
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"watch", "--replay", test_data("real-vm-lo-udp"), NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	int lines = 0;
	for (char *save = NULL, *l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		double t;
		char name[16];
		if (sscanf(l, "%lf %15s", &t, name) == 2 && !strcmp(name, "eth0")) {
			cr_assert(strstr(l, " idle "), "%s", l);
			cr_assert_null(strstr(l, "bound"), "%s", l);
			lines++;
		}
	}
	cr_assert_eq(lines, 6);
	run_free(&r);
}

Test(replay, a_run_without_packets_says_so_in_words)
{
	/* real-vm-virtio-idle/samples: eth0 1301/703 and lo 29/29 packets in all 7 samples */
	struct lines L = replay("real-vm-virtio-idle", NULL);
	json_t *sum = L.v[L.n - 1];
	cr_assert_str_eq(str(sum, "verdict"), "undetermined");
	const char *first = json_string_value(json_array_get(json_object_get(sum, "evidence"), 0));
	cr_assert(first && strstr(first, "no packets on eth0, lo during 6 intervals of 0.5 s"), "%s",
		  first ? first : "(none)");
	cr_assert_not(has_evidence(sum, "no rows"));
	lines_free(&L);
}

Test(replay, a_link_that_downshifts_is_remodelled)
{
	/* synthetic-link-downshift: eth0 an 82599 on gen2 x8 (meta bus=gen2x8,mps=256,mrrs=512),
	 * rx 5.5 Mpps of 64 B frames; current_link_speed 5.0 -> 2.5 GT/s and current_link_width
	 * 8 -> 4 from sample 4: intervals 4..6 run on gen1 x4, a quarter of the raw bandwidth
	 * (2.5 GT/s x 4 lanes against 5 GT/s x 8, both 8b/10b) */
	struct lines L = replay("synthetic-link-downshift", NULL);
	cr_assert_eq(L.n, 7);
	double before = NAN;
	for (int i = 0; i < L.n - 1; i++) {
		json_t *e = iface(L.v[i], "eth0");
		cr_assert_float_eq(num(e, "rx.pps"), 5.5e6, 5.5e6 * 1e-5);
		const char *bm = str(e, "bus_modelled");
		cr_assert(bm, "interval %d", i + 1);
		if (i < 3) {
			cr_assert(!strncmp(bm, "gen2x8,", 7), "interval %d: %s", i + 1, bm);
			cr_assert_not(has_flag(L.v[i], "link"));
			before = num(e, "rx.bus_mpps");
			continue;
		}
		cr_assert(!strncmp(bm, "gen1x4,", 7), "interval %d: %s", i + 1, bm);
		cr_assert(has_flag(L.v[i], "link"), "interval %d", i + 1);
		cr_assert_float_eq(num(e, "link_speed_gts"), 2.5, 1e-12);
		cr_assert_eq(num(e, "link_width"), 4);
		/* a 64 B receive ceiling bound by the link's bytes falls with its raw bandwidth */
		double ratio = before / num(e, "rx.bus_mpps");
		cr_assert(ratio > 3.9 && ratio < 4.1, "interval %d: ceiling ratio %g", i + 1, ratio);
		cr_assert_float_eq(num(e, "rx.bus_utilisation"),
				   num(e, "rx.pps") / (num(e, "rx.bus_mpps") * 1e6), 1e-6);
	}
	bool said = false;
	size_t k;
	json_t *x;
	json_array_foreach(json_object_get(L.v[3], "notes"), k, x) said |=
	    strstr(json_string_value(x),
		   "eth0: bus ceiling re-modelled on the link as it is now, gen1 x4 "
		   "(current_link_speed 2.5 GT/s, current_link_width 4), not gen2 x8") != NULL;
	cr_assert(said, "interval 4 says the ceiling is the current link's");
	lines_free(&L);
}

Test(replay, a_flapping_link_is_counted)
{
	/* synthetic-link-flapping (synthetic-gen.py FLAP_SPEED): current_link_speed 5.0, 5.0, 2.5,
	 * 2.5, 5.0, 5.0, 2.5 GT/s at samples 0-6, width 8; interval k ends on sample k, so the
	 * speed differs from the interval before's at intervals 2, 4 and 6: 3 of 6 intervals */
	static const long so_far[6] = {0, 1, 1, 2, 2, 3};
	struct lines L = replay("synthetic-link-flapping", NULL);
	cr_assert_eq(L.n, 7);
	for (int i = 0; i < 6; i++)
		cr_assert_eq(num(iface(L.v[i], "eth0"), "link_changes"), so_far[i], "interval %d", i + 1);
	json_t *e = iface(L.v[6], "eth0");
	cr_assert_eq(num(e, "link_changes"), 3);
	cr_assert_eq(num(e, "link_intervals"), 6);
	json_t *st = json_object_get(e, "link_states");
	cr_assert_eq(json_array_size(st), 2);
	cr_assert_float_eq(num(json_array_get(st, 0), "speed_gts"), 5, 1e-12);
	cr_assert_float_eq(num(json_array_get(st, 1), "speed_gts"), 2.5, 1e-12);
	cr_assert_eq(num(json_array_get(st, 1), "width"), 8);
	/* lo has no PCI link: nothing changed */
	cr_assert_eq(num(iface(L.v[6], "lo"), "link_changes"), 0);
	lines_free(&L);
	const char *rec = test_data("synthetic-link-flapping");
	struct run_result r = run_pcibw(NULL, (const char *[]){"watch", "--replay", rec, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(
	    strstr(r.out, "eth0: link changed in 3 of 6 intervals (5 -> 2.5 GT/s): at least 3 retrains"),
	    "%s", r.out);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"watch", "--replay", rec, "--format", "prometheus", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(
	    strstr(
		r.out,
		"# TYPE pcibw_link_retrains_total counter\npcibw_link_retrains_total{device=\"eth0\"} 3\n"),
	    "%s", r.out);
	run_free(&r);
}

/* --bus is "the bus of every watched interface, instead of the probed one" (pcibw watch --help),
 * a recorded virtual one too, as analyze sets a watch CSV's "bus: virtual" rows against --bus:
 * lo is then modelled on gen1x1 with the profile resolved for it (simple, the default), and every
 * output says so. It had a bus utilisation while its start-up line said "virtual NIC ... no bus
 * ceiling", its summary "the virtual NIC is 6 % busy" and its profile "none". */
Test(replay, bus_option_puts_a_virtual_interface_on_that_bus)
{
	const char *rec = test_data("real-vm-lo-udp");
	const char *args[] = {"watch", "--replay", rec, "lo", "--bus", "gen1x1", "--json", NULL};
	struct lines L = watch_lines("real-vm-lo-udp", args);
	cr_assert(L.n >= 2);
	json_t *sum = L.v[L.n - 1];
	json_t *lo = json_array_get(json_object_get(sum, "interfaces"), 0);
	cr_assert(json_is_false(json_object_get(lo, "virtual")));
	cr_assert_str_eq(json_string_value(json_object_get(lo, "bus")), "gen1x1,mps=128,mrrs=512,rcb=64");
	cr_assert_str_eq(json_string_value(json_object_get(lo, "nic")), "simple");
	/* interval 2: lo moved packets (its rx_packets 29 -> 8049 in samples 2 and 3), so it has a
	 * share of that bus */
	cr_assert(num(iface(L.v[1], "lo"), "rx.bus_utilisation") > 0);
	lines_free(&L);
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"watch", "--replay", rec, "lo", "--bus", "gen1x1", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "lo: bus gen1x1,mps=128,mrrs=512,rcb=64 from --bus, NIC profile simple"),
		  "%s", r.out);
	cr_assert(!strstr(r.out, "virtual NIC"), "%s", r.out);
	cr_assert(strstr(r.out, "the PCIe gen1 x1 link is "), "%s", r.out);
	run_free(&r);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pure part of watch: parsing kernel text (proc(5) /proc/stat and /proc/interrupts, the
 * softnet_stat columns of net/core/net-procfs.c) and the interval arithmetic: rates, the FCS
 * added to frame sizes (IEEE 802.3 clause 3.2.9), 32-bit wraps, resets, CPUs leaving, the flags.
 * Every expected number is worked out from the text given here.
 */
#include "pcibw/watch.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static struct pcibw_watch_sample sample;
static struct pcibw_watch_snap sa, sb;
static struct pcibw_watch_interval iv;
static const struct pcibw_watch_limits lim = {.core = 0.95, .idle = 0.60, .irq_ratio = 0.5};

static void setup(void)
{
	memset(&sample, 0, sizeof sample);
	cr_assert_eq(pcibw_watch_snap_init(&sa, NULL), 0);
	cr_assert_eq(pcibw_watch_snap_init(&sb, NULL), 0);
	cr_assert_eq(pcibw_watch_interval_init(&iv, NULL), 0);
}

static void teardown(void)
{
	pcibw_watch_sample_free(&sample);
	pcibw_watch_snap_free(&sa);
	pcibw_watch_snap_free(&sb);
	pcibw_watch_interval_free(&iv);
}

static void put(const char *key, const char *text)
{
	cr_assert_eq(pcibw_watch_blob_set(&sample, key, text, strlen(text), NULL), 0);
}

static void parse(double t, struct pcibw_watch_snap *s)
{
	const char *names[] = {"eth0"};
	struct pcibw_err err = {0};
	sample.t = t;
	cr_assert_eq(pcibw_watch_parse(&sample, names, 1, "test", s, &err), 0, "%s", err.msg);
}

static const char *net(unsigned long long rxb, unsigned long long rxp, unsigned long long txb,
		       unsigned long long txp, unsigned long long drop)
{
	static char b[512];
	snprintf(b, sizeof b,
		 "state present\nifindex 2\nname eth0\nslot 0000:03:00.0\nrx_bytes %llu\nrx_packets %llu\n"
		 "rx_dropped %llu\ntx_bytes %llu\ntx_packets %llu\nspeed 10000\n",
		 rxb, rxp, drop, txb, txp);
	return b;
}

TestSuite(interval, .init = setup, .fini = teardown);

Test(interval, rates_frame_size_and_cpu_shares)
{
	/* 1 s apart: 1,000,000 packets of 60 counted bytes rx -> 1 Mpps, 0.48 Gbit/s, 64 B frames;
	 * CPU0 25 of 100 ticks busy (user 10, system 5, softirq 10), CPU1 100 of 100 (softirq 80,
	 * irq 20): busy 125/200 */
	put("proc/stat",
	    "cpu  0 0 0 0 0 0 0 0\ncpu0 100 0 100 1000 0 0 0 0\ncpu1 0 0 0 1000 0 0 0 0\nintr 5\n");
	put("net/eth0", net(0, 0, 0, 0, 0));
	put("proc/interrupts",
	    "           CPU0       CPU1\n 40:  0  0  PCI-MSIX-0000:03:00.0  0-edge  eth0-TxRx-0\n"
	    " 41:  0  0  PCI-MSIX-0000:03:00.0  1-edge  eth0-TxRx-1\n 42: 7 7 IO-APIC x other\n");
	parse(10, &sa);
	put("proc/stat",
	    "cpu  0 0 0 0 0 0 0 0\ncpu0 110 0 105 1075 0 0 10 0\ncpu1 0 0 0 1000 0 20 80 0\nintr 9\n");
	put("net/eth0", net(60000000, 1000000, 0, 0, 0));
	put("proc/interrupts",
	    "           CPU0       CPU1\n 40:  0  500  PCI-MSIX-0000:03:00.0  0-edge  eth0-TxRx-0\n"
	    " 41:  0  0  PCI-MSIX-0000:03:00.0  1-edge  eth0-TxRx-1\n 42: 9 9 IO-APIC x other\n");
	parse(11, &sb);
	pcibw_watch_interval(&sa, &sb, 10, NULL, &lim, &iv);
	cr_assert_float_eq(iv.dt, 1, 1e-12);
	cr_assert_float_eq(iv.ifs[0].rx.pps, 1e6, 1e-6);
	cr_assert_float_eq(iv.ifs[0].rx.gbps, 0.48, 1e-12);
	cr_assert_float_eq(iv.ifs[0].rx.avg_bytes, 60, 1e-12);
	cr_assert_float_eq(iv.ifs[0].rx.frame_bytes, 64, 1e-12);
	/* wire: (64 + 20) x 8 bit x 1e6 / 10 Gbit/s (sysfs speed 10000 Mbit/s) */
	cr_assert_float_eq(iv.ifs[0].rx.wire_util, 84.0 * 8 * 1e6 / 10e9, 1e-12);
	cr_assert_eq(iv.n_cpus, 2);
	cr_assert_float_eq(iv.cpu_busy, 125.0 / 200, 1e-12);
	cr_assert_float_eq(iv.cpu_softirq, 90.0 / 200, 1e-12);
	cr_assert_float_eq(iv.cpu_irq, 20.0 / 200, 1e-12);
	cr_assert_eq(iv.busiest_cpu, 1);
	cr_assert_float_eq(iv.busiest_busy, 1.0, 1e-12);
	cr_assert_float_eq(iv.core_busy[0], 0.25, 1e-12);
	/* the NIC's vectors: 500 interrupts, all on CPU1, one of two vectors */
	cr_assert_float_eq(iv.ifs[0].irq_ps, 500, 1e-9);
	cr_assert_eq(iv.ifs[0].vec_active, 1);
	cr_assert_eq(iv.irq_cpu_max, 1);
	cr_assert_float_eq(iv.irq_cpu_max_share, 1.0, 1e-12);
	/* one core at 100 % while all CPUs are 62.5 % (>= idle 0.60): not "hot core while idle" */
	cr_assert_eq(iv.flags & PCIBW_WF_HOT_CORE, 0);
}

Test(interval, hot_core_while_idle_and_no_irq_time)
{
	/* CPU1 99/100 busy (softirq 99), CPU0 1/100: total 50 % < 0.60; irq 0 since boot with
	 * 30000 interrupts counted: the kernel does not account irq time */
	put("proc/stat", "cpu0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0\nintr 10000\n");
	put("net/eth0", net(0, 0, 0, 0, 0));
	parse(0, &sa);
	put("proc/stat", "cpu0 1 0 0 99 0 0 0 0\ncpu1 0 0 0 1 0 0 99 0\nintr 40000\n");
	parse(1, &sb);
	pcibw_watch_interval(&sa, &sb, 0, NULL, &lim, &iv);
	cr_assert(iv.flags & PCIBW_WF_HOT_CORE);
	cr_assert(iv.flags & PCIBW_WF_NO_IRQTIME);
	cr_assert_float_eq(iv.busiest_softirq, 0.99, 1e-12);
}

Test(interval, wrap_at_32_bits_counts_across)
{
	/* rx_bytes 2^32 - 1000 -> 3000: 4000 bytes moved (a 32-bit counter) */
	put("proc/stat", "cpu0 0 0 0 0 0 0 0 0\n");
	put("net/eth0", net(4294967296ULL - 1000, 10, 0, 0, 0));
	parse(0, &sa);
	put("net/eth0", net(3000, 20, 0, 0, 0));
	parse(2, &sb);
	pcibw_watch_interval(&sa, &sb, 0, NULL, &lim, &iv);
	cr_assert(iv.flags & PCIBW_WF_WRAP);
	cr_assert_eq(iv.flags & PCIBW_WF_RESET, 0);
	cr_assert_float_eq(iv.ifs[0].rx.gbps, 4000.0 * 8 / 2 / 1e9, 1e-15);
	cr_assert_float_eq(iv.ifs[0].rx.avg_bytes, 400, 1e-12);
}

Test(interval, reset_gives_no_rate)
{
	/* a 64-bit counter going back (5e9 -> 100) cannot be a 32-bit wrap: reset, rate unknown */
	put("proc/stat", "cpu0 0 0 0 0 0 0 0 0\n");
	put("net/eth0", net(5000000000ULL, 10, 0, 0, 0));
	parse(0, &sa);
	put("net/eth0", net(100, 1, 0, 0, 0));
	parse(1, &sb);
	pcibw_watch_interval(&sa, &sb, 0, NULL, &lim, &iv);
	cr_assert(iv.flags & PCIBW_WF_RESET);
	cr_assert(isnan(iv.ifs[0].rx.pps));
	cr_assert(isnan(iv.ifs[0].rx.gbps));
}

Test(interval, cpu_offline_is_left_out)
{
	put("proc/stat", "cpu0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0\ncpu2 0 0 0 0 0 0 0 0\n");
	parse(0, &sa);
	put("proc/stat", "cpu0 50 0 0 50 0 0 0 0\ncpu2 0 0 0 100 0 0 0 0\n");
	parse(1, &sb);
	pcibw_watch_interval(&sa, &sb, 0, NULL, &lim, &iv);
	cr_assert(iv.flags & PCIBW_WF_CPU_OFFLINE);
	cr_assert_eq(iv.n_cpus, 2);
	cr_assert_float_eq(iv.cpu_busy, 50.0 / 200, 1e-12);
	cr_assert(isnan(iv.core_busy[1]));
}

Test(interval, drops_vanish_clock)
{
	put("proc/stat", "cpu0 0 0 0 0 0 0 0 0\n");
	put("net/eth0", net(0, 0, 0, 0, 0));
	parse(5, &sa);
	put("net/eth0", net(0, 0, 0, 0, 7));
	parse(5, &sb); /* same time: the clock did not advance */
	pcibw_watch_interval(&sa, &sb, 5, NULL, &lim, &iv);
	cr_assert(iv.flags & PCIBW_WF_CLOCK);
	cr_assert(isnan(iv.ifs[0].rx.pps));
	parse(6, &sb);
	pcibw_watch_interval(&sa, &sb, 5, NULL, &lim, &iv);
	cr_assert(iv.flags & PCIBW_WF_DROPS);
	cr_assert_float_eq(iv.ifs[0].rx.drops_ps, 7, 1e-12);
	put("net/eth0", "state vanished\n");
	parse(7, &sa);
	pcibw_watch_interval(&sb, &sa, 5, NULL, &lim, &iv);
	cr_assert(iv.flags & PCIBW_WF_VANISHED);
	cr_assert_not(iv.ifs[0].present);
}

Test(interval, softnet_columns_by_cpu_id)
{
	/* Linux >= 5.10: column 13 is the CPU id (here CPU 3 only online besides 0) */
	put("proc/stat", "cpu0 0 0 0 0 0 0 0 0\ncpu3 0 0 0 0 0 0 0 0\n");
	put("proc/net/softnet_stat", "00000010 00000000 00000001 0 0 0 0 0 0 0 0 0 00000000\n"
				     "00000020 00000002 00000005 0 0 0 0 0 0 0 0 0 00000003\n");
	parse(0, &sa);
	put("proc/net/softnet_stat", "00000011 00000000 00000001 0 0 0 0 0 0 0 0 0 00000000\n"
				     "00000030 00000003 0000000a 0 0 0 0 0 0 0 0 0 00000003\n");
	parse(1, &sb);
	cr_assert_eq(sb.cpu[3].sn_squeeze, 10);
	pcibw_watch_interval(&sa, &sb, 0, NULL, &lim, &iv);
	cr_assert_eq(iv.squeeze_d, 5);
	cr_assert_eq(iv.softnet_drop_d, 1);
	cr_assert(iv.flags & PCIBW_WF_SQUEEZE);
}

Test(interval, bad_stat_line_is_named)
{
	put("proc/stat", "cpu0 1 2 3\n");
	const char *names[] = {"eth0"};
	struct pcibw_err err = {0};
	cr_assert_eq(pcibw_watch_parse(&sample, names, 1, "rec/samples:120", &sa, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "rec/samples:120: proc/stat line 1: expected at least 7"), "%s", err.msg);
}

Test(interval, scrub_keeps_lengths)
{
	char t[] = "mac 02:fc:00:00:00:01 ip 10.0.2.15 v6 fe80::1 slot 0000:00:03.0 ver 1.2.3.4.5 host vm\n";
	const char *names[] = {"vm"};
	size_t n = strlen(t);
	int k = pcibw_watch_scrub(t, n, names, 1);
	cr_assert_eq(k, 4, "%d: %s", k, t);
	cr_assert_eq(strlen(t), n);
	cr_assert(
	    strstr(t,
		   "mac xxxxxxxxxxxxxxxxx ip xxxxxxxxx v6 xxxxxxx slot 0000:00:03.0 ver 1.2.3.4.5 host xx"),
	    "%s", t);
}

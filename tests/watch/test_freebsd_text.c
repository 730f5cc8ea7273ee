/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FreeBSD's sysctl layouts as blob texts (src/watch/freebsd_text.h), from their documented form:
 * kern.cp_times is CPUSTATES (5) longs per CPU in <sys/resource.h> order CP_USER, CP_NICE,
 * CP_SYS, CP_INTR, CP_IDLE (sys/kern/kern_clock.c); hw.intrnames holds one NUL-terminated name
 * per hw.intrcnt counter, padded with blanks to MAXCOMLEN (19) by intrcnt_setname()
 * (sys/x86/x86/intr_machdep.c), and vmstat -i steps by strlen + 1; if_data's counters
 * (ifnet(9)). The parser the texts feed is the one Linux's /proc text feeds.
 */
#include "pcibw/watch.h"
#include "src/watch/freebsd_text.h"
#include "support.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

Test(freebsd_text, cp_times_become_proc_stat_columns)
{
	/* two CPUs: user nice sys intr idle */
	const long cp[] = {100, 2, 30, 4, 500, 11, 0, 33, 7, 900};
	char out[256];
	size_t len = 0;
	struct pcibw_err err;
	cr_assert_eq(watch_fbsd_stat_text(cp, 10, 1234, out, sizeof out, &len, &err), PCIBW_OK);
	/* proc(5): user nice system idle iowait irq softirq */
	cr_assert_str_eq(out, "cpu0 100 2 30 500 0 4 0\ncpu1 11 0 33 900 0 7 0\nintr 1234\n");
	cr_assert_eq(len, strlen(out));
	/* and the OS-neutral parser reads them: CPU 1's system time is 33 ticks */
	struct pcibw_watch_sample s = {0};
	cr_assert_eq(pcibw_watch_blob_set(&s, "proc/stat", out, len, &err), PCIBW_OK);
	struct pcibw_watch_snap snap = {0};
	cr_assert_eq(pcibw_watch_snap_init(&snap, &err), PCIBW_OK);
	const char *const names[] = {NULL};
	cr_assert_eq(pcibw_watch_parse(&s, names, 0, "test", &snap, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(snap.n_cpus, 2);
	cr_assert_eq(snap.cpu[1].t[PCIBW_CPU_SYSTEM], 33);
	cr_assert_eq(snap.cpu[1].t[PCIBW_CPU_IRQ], 7);
	cr_assert_eq(snap.cpu[0].t[PCIBW_CPU_IDLE], 500);
	cr_assert_eq(snap.intr_total, 1234);
	pcibw_watch_snap_free(&snap);
	pcibw_watch_sample_free(&s);
}

Test(freebsd_text, cp_times_refused_when_not_whole_cpus)
{
	const long cp[] = {1, 2, 3, 4, 5, 6, 7};
	char out[256];
	size_t len;
	struct pcibw_err err;
	cr_assert_eq(watch_fbsd_stat_text(cp, 7, 0, out, sizeof out, &len, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "expected 5 per CPU"), "%s", err.msg);
	const long neg[] = {1, 2, -3, 4, 5};
	cr_assert_eq(watch_fbsd_stat_text(neg, 5, 0, out, sizeof out, &len, &err), PCIBW_EINPUT);
	cr_assert_eq(watch_fbsd_stat_text(cp, 0, 0, out, sizeof out, &len, &err), PCIBW_EINPUT);
}

Test(freebsd_text, intrnames_pair_with_counts)
{
	/* 20-byte slots: 19 characters padded with blanks, then NUL; an unused slot at the end */
	char names[80];
	memset(names, 0, sizeof names);
	snprintf(names, 20, "%-19s", "irq1: atkbd0");
	snprintf(names + 20, 20, "%-19s", "irq264: em0:rx 0");
	snprintf(names + 40, 20, "%-19s", "cpu0:timer");
	const unsigned long cnt[] = {5, 123456, 999, 0};
	struct watch_fbsd_intr v[8];
	int n = 0;
	struct pcibw_err err;
	cr_assert_eq(watch_fbsd_intr_parse(names, sizeof names, cnt, 4, v, 8, &n, &err), PCIBW_OK, "%s",
		     err.msg);
	cr_assert_eq(n, 3);
	cr_assert_str_eq(v[1].name, "irq264: em0:rx 0");
	cr_assert_eq(v[1].count, 123456);
	cr_assert_str_eq(v[2].name, "cpu0:timer");
	/* more counters than names */
	cr_assert_eq(watch_fbsd_intr_parse(names, 40, cnt, 4, v, 8, &n, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "hw.intrnames"), "%s", err.msg);
}

Test(freebsd_text, if_data_becomes_net_blob)
{
	struct watch_fbsd_ifdata d = {10,	  20, 1000,  2000, 1, 2,    3,	  4,
				      1000000000, 1,  false, 0,	   0, NULL, NULL, NULL};
	char out[512];
	size_t n = watch_fbsd_net_text(&d, out, sizeof out);
	cr_assert_eq(n, strlen(out));
	cr_assert_str_eq(out,
			 "state present\nrx_packets 10\ntx_packets 20\nrx_bytes 1000\ntx_bytes 2000\n"
			 "rx_errors 1\ntx_errors 2\nrx_dropped 3\ntx_dropped 4\nspeed 1000\noperstate up\n");
	/* the facts of the entry, and the driver's missed count as sysfs's rx_missed_errors */
	d.ifindex = 2;
	d.name = "em0";
	d.dev = "em0";
	d.slot = "0000:02:01.0";
	d.have_missed = true;
	d.missed = 4242;
	n = watch_fbsd_net_text(&d, out, sizeof out);
	cr_assert(
	    strstr(out, "state present\nifindex 2\nname em0\ndev em0\nslot 0000:02:01.0\nrx_packets 10\n"),
	    "%s", out);
	cr_assert(strstr(out, "tx_dropped 4\nrx_missed_errors 4242\nspeed 1000\n"), "%s", out);
	/* the OS-neutral parser takes the interface as present and reads the counters */
	struct pcibw_watch_sample s = {0};
	struct pcibw_err err;
	const char stat[] = "cpu0 1 0 1 1 0 0 0\nintr 0\n";
	cr_assert_eq(pcibw_watch_blob_set(&s, "proc/stat", stat, sizeof stat - 1, &err), PCIBW_OK);
	cr_assert_eq(pcibw_watch_blob_set(&s, "net/em0", out, n, &err), PCIBW_OK);
	struct pcibw_watch_snap snap = {0};
	cr_assert_eq(pcibw_watch_snap_init(&snap, &err), PCIBW_OK);
	const char *const names[] = {"em0"};
	cr_assert_eq(pcibw_watch_parse(&s, names, 1, "test", &snap, &err), PCIBW_OK, "%s", err.msg);
	cr_assert(snap.ifs[0].present);
	cr_assert_eq(snap.ifs[0].c[PCIBW_IF_RX_MISSED], 4242);
	cr_assert_eq(snap.ifs[0].c[PCIBW_IF_RX_PACKETS], 10);
	pcibw_watch_snap_free(&snap);
	pcibw_watch_sample_free(&s);
	d.have_missed = false;
	d.ifindex = 0;
	d.name = d.dev = d.slot = NULL;
	d.baudrate = 0;
	d.link_up = -1;
	n = watch_fbsd_net_text(&d, out, sizeof out);
	cr_assert(strstr(out, "operstate unknown\n") && !strstr(out, "speed"), "%s", out);
	cr_assert_eq(watch_fbsd_net_text(&d, out, 8), 0);
}

/* the whole of tests/watch/data/NAME, NUL-terminated (static: one at a time) */
static const char *fbsd_data(const char *name, size_t *len)
{
	static char buf[65536];
	char rel[128];
	snprintf(rel, sizeof rel, "%s", name);
	FILE *f = fopen(test_data(rel), "r");
	cr_assert(f, "%s", test_data(rel));
	*len = fread(buf, 1, sizeof buf - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

Test(freebsd_text, devstat_real_ix0_paste)
{
	size_t len;
	const char *t = fbsd_data("real-pfsense-sysctl-dev-ix0-excerpt.txt", &len);
	struct watch_fbsd_devstat st;
	struct pcibw_err err;
	cr_assert_eq(watch_fbsd_devstat_parse(t, len, "ix.0", "paste", &st, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(st.n_lines, 36);
	/* the paste's own numbers: good_pkts_rcvd: 0, good_pkts_txd: 214 */
	cr_assert(st.have_good_rx && st.good_rx == 0);
	cr_assert(st.have_good_tx && st.good_tx == 214);
	/* ix keeps no missed_packets under that name, and the excerpt holds no queue node */
	cr_assert_not(st.have_missed);
	cr_assert_eq(st.n_q_rx + st.n_q_tx, 0);
	char out[64];
	cr_assert_eq(watch_fbsd_devstat_ethtool(&st, out, sizeof out), 0);
	/* another unit's tree is not this one */
	cr_assert_eq(watch_fbsd_devstat_parse(t, len, "ix.1", "paste", &st, &err), PCIBW_OK);
	cr_assert_eq(st.n_lines, 0);
}

Test(freebsd_text, devstat_sysctl_a_em_and_ix)
{
	size_t len;
	const char *t = fbsd_data("synthetic-sysctl-a-em0-ix1.txt", &len);
	struct watch_fbsd_devstat st;
	struct pcibw_err err;
	cr_assert_eq(watch_fbsd_devstat_parse(t, len, "em.0", "sysctl-a", &st, &err), PCIBW_OK, "%s",
		     err.msg);
	cr_assert_eq(st.n_lines, 13);
	cr_assert(st.have_missed && st.missed == 4242);
	cr_assert(st.have_no_buff && st.no_buff == 17);
	cr_assert(st.have_good_rx && st.good_rx == 1000000);
	cr_assert(st.have_good_tx && st.good_tx == 999000);
	/* queue_rx_0.rx_irq counts interrupts: no per-queue packets for em */
	cr_assert_eq(st.n_q_rx + st.n_q_tx, 0);
	cr_assert_eq(watch_fbsd_devstat_parse(t, len, "ix.1", "sysctl-a", &st, &err), PCIBW_OK, "%s",
		     err.msg);
	cr_assert_eq(st.n_q_rx, 2);
	cr_assert_eq(st.n_q_tx, 2);
	cr_assert_eq(st.q_rx[1], 7000);
	cr_assert(st.have_good_rx && st.good_rx == 12000);
	cr_assert_not(st.have_missed);
	char out[256];
	size_t n = watch_fbsd_devstat_ethtool(&st, out, sizeof out);
	cr_assert_str_eq(out, "rx_queue_0_packets 5000\nrx_queue_1_packets 7000\ntx_queue_0_packets 6000\n"
			      "tx_queue_1_packets 8000\n");
	/* the OS-neutral parser reads them as it reads ixgbe's ethtool names */
	struct pcibw_watch_sample s = {0};
	const char stat[] = "cpu0 1 0 1 1 0 0 0\nintr 0\n";
	cr_assert_eq(pcibw_watch_blob_set(&s, "proc/stat", stat, sizeof stat - 1, &err), PCIBW_OK);
	const char net[] = "state present\nrx_packets 12000\noperstate up\n";
	cr_assert_eq(pcibw_watch_blob_set(&s, "net/ix1", net, sizeof net - 1, &err), PCIBW_OK);
	cr_assert_eq(pcibw_watch_blob_set(&s, "ethtool/ix1", out, n, &err), PCIBW_OK);
	struct pcibw_watch_snap snap = {0};
	cr_assert_eq(pcibw_watch_snap_init(&snap, &err), PCIBW_OK);
	const char *const names[] = {"ix1"};
	cr_assert_eq(pcibw_watch_parse(&s, names, 1, "test", &snap, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(snap.ifs[0].n_q_rx, 2);
	cr_assert_eq(snap.ifs[0].q_rx[1], 7000);
	cr_assert_eq(snap.ifs[0].q_tx[0], 6000);
	pcibw_watch_snap_free(&snap);
	pcibw_watch_sample_free(&s);
}

Test(freebsd_text, devstat_ixl_queue_names)
{
	const char t[] = "dev.ixl.0.pf.rxq00.packets: 11\ndev.ixl.0.pf.txq03.packets: 44\n"
			 "dev.ixl.0.pf.rxq00.bytes: 999\ndev.ixl.0.vf1.rxq01.packets: 5\n";
	struct watch_fbsd_devstat st;
	struct pcibw_err err;
	cr_assert_eq(watch_fbsd_devstat_parse(t, sizeof t - 1, "ixl.0", "t", &st, &err), PCIBW_OK, "%s",
		     err.msg);
	cr_assert_eq(st.n_q_rx, 2);
	cr_assert_eq(st.q_rx[0], 11);
	cr_assert_eq(st.q_rx[1], 5);
	cr_assert_eq(st.n_q_tx, 4);
	cr_assert_eq(st.q_tx[3], 44);
}

Test(freebsd_text, devstat_refuses_what_sysctl_never_prints)
{
	struct watch_fbsd_devstat st;
	struct pcibw_err err;
	const char a[] = "kern.ostype: FreeBSD\ndev.em.0.mac_stats.missed_packets: 12x\n";
	cr_assert_eq(watch_fbsd_devstat_parse(a, sizeof a - 1, "em.0", "f", &st, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "f:2:38: mac_stats.missed_packets: expected a decimal count"), "%s",
		  err.msg);
	const char b[] = "dev.em.0.mac_stats.missed_packets 12\n";
	cr_assert_eq(watch_fbsd_devstat_parse(b, sizeof b - 1, "em.0", "f", &st, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "f:1:37: expected 'NAME: VALUE'"), "%s", err.msg);
	const char c[] = "dev.ix.0.queue0.rx_packets: 18446744073709551616\n";
	cr_assert_eq(watch_fbsd_devstat_parse(c, sizeof c - 1, "ix.0", "f", &st, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "f:1:29: queue0.rx_packets: expected a count that fits 64 bits"), "%s",
		  err.msg);
	const char d[] = "dev.ix.0.queue0.rx_packets: \n";
	cr_assert_eq(watch_fbsd_devstat_parse(d, sizeof d - 1, "ix.0", "f", &st, &err), PCIBW_EINPUT);
	/* the largest count is kept; a queue past the limit is read and not kept */
	const char e[] = "dev.ix.0.queue0.rx_packets: 18446744073709551615\r\n"
			 "dev.ix.0.queue200.rx_packets: 3\n";
	cr_assert_eq(watch_fbsd_devstat_parse(e, sizeof e - 1, "ix.0", "f", &st, &err), PCIBW_OK, "%s",
		     err.msg);
	cr_assert_eq(st.q_rx[0], UINT64_MAX);
	cr_assert_eq(st.n_q_rx, 1);
	cr_assert_eq(watch_fbsd_devstat_parse(e, sizeof e - 1, "ix", "f", &st, &err), PCIBW_EUSAGE);
	cr_assert_eq(watch_fbsd_devstat_parse(e, sizeof e - 1, "i.x.0", "f", &st, &err), PCIBW_EUSAGE);
}

Test(freebsd_text, location_gives_the_slot)
{
	char slot[16];
	cr_assert(watch_fbsd_location_slot("slot=0 function=1 dbsf=pci1:3:0:1 handle=\\_SB_.PCI0", slot,
					   sizeof slot));
	cr_assert_str_eq(slot, "0001:03:00.1");
	cr_assert(watch_fbsd_location_slot("dbsf=pci0:2:31:7", slot, sizeof slot));
	cr_assert_str_eq(slot, "0000:02:1f.7");
	cr_assert_not(watch_fbsd_location_slot("port=1 interface=0", slot, sizeof slot));
	cr_assert_not(watch_fbsd_location_slot("dbsf=pci0:2:32:0", slot, sizeof slot));
	cr_assert_not(watch_fbsd_location_slot("dbsf=pci0:2:1", slot, sizeof slot));
	cr_assert_not(watch_fbsd_location_slot("", slot, sizeof slot));
}

/* A counter given twice (two runs pasted together, or a driver's two names for one count) is
 * refused at its line and column, never the later value silently. */
Test(freebsd_text, devstat_counter_given_twice_is_refused)
{
	const char t[] = "dev.em.0.mac_stats.missed_packets: 4\ndev.em.0.mac_stats.good_pkts_recvd: 10\n"
			 "dev.em.0.mac_stats.missed_packets: 9\n";
	struct watch_fbsd_devstat st;
	struct pcibw_err err;
	cr_assert_eq(watch_fbsd_devstat_parse(t, sizeof t - 1, "em.0", "t", &st, &err), PCIBW_EINPUT);
	/* line 3, column 10: the name after "dev.em.0." */
	cr_assert(strstr(err.msg, "t:3:10: mac_stats.missed_packets: a second value"), "%s", err.msg);
	const char alias[] = "dev.ix.0.mac_stats.good_pkts_rcvd: 1\ndev.ix.0.mac_stats.good_pkts_recvd: 2\n";
	cr_assert_eq(watch_fbsd_devstat_parse(alias, sizeof alias - 1, "ix.0", "t", &st, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "t:2:10: mac_stats.good_pkts_recvd: a second value"), "%s", err.msg);
}

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
	struct watch_fbsd_ifdata d = {10, 20, 1000, 2000, 1, 2, 3, 4, 1000000000, 1};
	char out[512];
	size_t n = watch_fbsd_net_text(&d, out, sizeof out);
	cr_assert_eq(n, strlen(out));
	cr_assert_str_eq(out, "rx_packets 10\ntx_packets 20\nrx_bytes 1000\ntx_bytes 2000\nrx_errors 1\n"
			      "tx_errors 2\nrx_dropped 3\ntx_dropped 4\nspeed 1000\noperstate up\n");
	d.baudrate = 0;
	d.link_up = -1;
	n = watch_fbsd_net_text(&d, out, sizeof out);
	cr_assert(strstr(out, "operstate unknown\n") && !strstr(out, "speed"), "%s", out);
	cr_assert_eq(watch_fbsd_net_text(&d, out, 8), 0);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * freebsd_text.h - what FreeBSD's sysctls and if_data give, turned into the blob texts every
 * sample holds (pcibw/watch.h, doc/watch-recording.md), so that a FreeBSD sampler
 * (sampler_freebsd.c) feeds the same OS-neutral parser as Linux's. Pure: no system call, so the
 * layouts are tested on any OS with inputs built from their documented form.
 */
#ifndef PCIBW_WATCH_FREEBSD_TEXT_H
#define PCIBW_WATCH_FREEBSD_TEXT_H

#include "pcibw/error.h"
#include <stddef.h>
#include <stdint.h>

/* <sys/resource.h>: the CPU states of kern.cp_times, in this order, CPUSTATES of them per CPU */
enum {
	WATCH_FBSD_CP_USER,
	WATCH_FBSD_CP_NICE,
	WATCH_FBSD_CP_SYS,
	WATCH_FBSD_CP_INTR,
	WATCH_FBSD_CP_IDLE,
	WATCH_FBSD_CPUSTATES
};

/*
 * watch_fbsd_stat_text - the "proc/stat" blob from kern.cp_times: n_long longs (sysctl(3) gives
 * the array's byte length; n_long = bytes / sizeof(long)), WATCH_FBSD_CPUSTATES per CPU, CPU 0
 * first, each state's statclock ticks since boot (sys/kern/kern_clock.c sysctl_kern_cp_times).
 * Written as proc(5)'s "cpuN user nice system idle iowait irq softirq": user, nice, sys, idle
 * and intr in their columns, iowait and softirq 0 (FreeBSD counts neither apart). intr_total
 * (the sum of hw.intrcnt) becomes the "intr" line. Ticks, not USER_HZ: the parser uses ratios.
 * Returns PCIBW_OK with *len bytes in out (NUL-terminated), PCIBW_EINPUT "kern.cp_times: ..."
 * for an array that is empty, not a whole number of CPUs, longer than PCIBW_WATCH_MAX_CPUS or
 * with a negative count, PCIBW_EINTERNAL when out (cap bytes) is too small.
 */
int watch_fbsd_stat_text(const long *cp, size_t n_long, uint64_t intr_total, char *out, size_t cap,
			 size_t *len, struct pcibw_err *err);

/* One interrupt source of hw.intrnames / hw.intrcnt. */
struct watch_fbsd_intr {
	char name[64]; /* "irq264: em0:rx 0", trailing blanks removed */
	uint64_t count;
};

/*
 * watch_fbsd_intr_parse - pair hw.intrnames (names_len bytes: one NUL-terminated name per
 * source, each in a slot of MAXCOMLEN + 1 bytes padded with blanks by intrcnt_setname(), so
 * vmstat -i steps by strlen + 1) with hw.intrcnt (n_cnt u_long counts, the same order), as
 * vmstat(8) dointr() does. Empty names (the unused slots at the end) are skipped. At most max
 * into out, *n of them. Returns PCIBW_OK, PCIBW_EINPUT "hw.intrnames: ..." when the names are
 * not NUL-terminated or fewer than the counts.
 */
int watch_fbsd_intr_parse(const char *names, size_t names_len, const unsigned long *cnt, size_t n_cnt,
			  struct watch_fbsd_intr *out, int max, int *n, struct pcibw_err *err);

/* The counters of one interface, as <net/if.h> struct if_data holds them (ifi_*). */
struct watch_fbsd_ifdata {
	uint64_t ipackets, opackets, ibytes, obytes, ierrors, oerrors, iqdrops, oqdrops;
	uint64_t baudrate; /* ifi_baudrate, bit/s; 0 unknown */
	int link_up;	   /* ifi_link_state LINK_STATE_UP (2): 1; DOWN (1): 0; UNKNOWN (0): -1 */
};

/*
 * watch_fbsd_net_text - the "net/IFACE" blob of one interface: the sysfs statistic names the
 * parser reads (rx_packets, tx_packets, rx_bytes, tx_bytes, rx_errors, tx_errors, rx_dropped,
 * tx_dropped), "speed" in Mbit/s (baudrate / 10^6, left out when 0) and "operstate" up, down or
 * unknown. Returns the length written (out NUL-terminated), or 0 when cap is too small.
 */
size_t watch_fbsd_net_text(const struct watch_fbsd_ifdata *d, char *out, size_t cap);

#endif

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
#include "pcibw/watch.h"
#include <stdbool.h>
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
	bool have_missed;  /* the driver's missed-packet count (watch_fbsd_devstat.missed) */
	uint64_t missed;
	unsigned ifindex;	       /* if_nametoindex(3); 0 unknown */
	const char *name, *dev, *slot; /* the entry's name, its device ("em0"), PCI slot; NULL none */
};

/*
 * watch_fbsd_net_text - the "net/IFACE" blob of one interface: "state present", its ifindex,
 * name, dev and slot where known (doc/watch-recording.md), the sysfs statistic names the parser reads
 * (rx_packets, tx_packets, rx_bytes, tx_bytes, rx_errors, tx_errors, rx_dropped, tx_dropped; rx_missed_errors
 * where have_missed), "speed" in Mbit/s (baudrate / 10^6, left out when 0) and "operstate" up, down or
 * unknown. Returns the length written (out NUL-terminated), or 0 when cap is too small.
 */
size_t watch_fbsd_net_text(const struct watch_fbsd_ifdata *d, char *out, size_t cap);

/*
 * The statistics a NIC driver publishes under its device's sysctl tree, dev.DRIVER.UNIT, that
 * watch reads (each driver's add_hw_stats; names as `sysctl dev.ix.0` prints them):
 *   per-queue packets: queueN.rx_packets / queueN.tx_packets (ix, sys/dev/ixgbe/if_ix.c
 *     ixgbe_add_hw_stats; igb before iflib; ixv), rxqNN.packets / txqNN.packets under pf. or
 *     vfN. (ixl, ixl_add_queues_sysctls);
 *   missed packets: mac_stats.missed_packets (em, igb: the MPC register, the count Linux's
 *     e1000e and igb give as rx_missed_errors), mac_stats.recv_no_buff (RNBC);
 *   good packets: mac_stats.good_pkts_recvd (em, igb) or good_pkts_rcvd (ix), good_pkts_txd.
 * em's and igb's iflib queues (queue_rx_N, queue_tx_N) count interrupts, not packets: no queue
 * counters for them.
 */
struct watch_fbsd_devstat {
	uint64_t q_rx[PCIBW_WATCH_MAX_QUEUES], q_tx[PCIBW_WATCH_MAX_QUEUES];
	int n_q_rx, n_q_tx; /* highest queue seen + 1, per direction */
	bool have_missed, have_no_buff, have_good_rx, have_good_tx;
	uint64_t missed, no_buff, good_rx, good_tx;
	int n_lines; /* lines of the device's tree read ("dev.DRIVER.UNIT." ones) */
};

/*
 * watch_fbsd_devstat_parse - the counters above from sysctl(8) text ("NAME: VALUE" lines, as
 * `sysctl dev.em.0` or `sysctl -a` print them) for the device dev ("em.0": the tree
 * dev.em.0.). Lines outside that tree are skipped (sysctl -a holds every tree, and multi-line
 * values); inside it a line must be "NAME: VALUE" and a counter named above a decimal count
 * that fits 64 bits. A queue past PCIBW_WATCH_MAX_QUEUES is not kept; the last line of a queue
 * wins; a mac_stats counter given twice (or under both of its names) is PCIBW_EINPUT. what names the text in
 * messages (a file, "sysctl"). Returns PCIBW_OK, PCIBW_EINPUT "WHAT:LINE:COLUMN: ... expected ..." for a line
 * of the tree it cannot read, PCIBW_EUSAGE for a dev that is not DRIVER.UNIT.
 */
int watch_fbsd_devstat_parse(const char *text, size_t len, const char *dev, const char *what,
			     struct watch_fbsd_devstat *st, struct pcibw_err *err);

/*
 * watch_fbsd_devstat_ethtool - the per-queue counters of st as the "ethtool/IFACE" blob lines
 * the parser reads for Linux drivers (rx_queue_N_packets, tx_queue_N_packets: ixgbe's and igb's
 * ethtool names for the same per-ring counts). Returns the length written (out NUL-terminated),
 * 0 when there is no queue counter or cap is too small.
 */
size_t watch_fbsd_devstat_ethtool(const struct watch_fbsd_devstat *st, char *out, size_t cap);

/*
 * watch_fbsd_location_slot - the PCI address in a device's %location sysctl (pci(4) bus driver
 * pci_child_location_method: "slot=0 function=0 dbsf=pci0:2:0:0 handle=\_SB_..."; the dbsf word
 * is domain:bus:slot:function in decimal) as "DDDD:BB:DD.F" into slot (n >= 13). Returns true,
 * false when there is no well-formed dbsf word (not a PCI device). Pure.
 */
bool watch_fbsd_location_slot(const char *location, char *slot, size_t n);

#endif

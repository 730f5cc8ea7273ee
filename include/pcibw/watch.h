/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/watch.h - `pcibw watch`: live interface counters and per-core CPU time, interval by
 * interval, set against the bus, the wire and the CPU with the shared verdict engine.
 *
 * Three layers, each testable alone:
 *   1. a sample: the raw text of each kernel file read at one moment (struct pcibw_watch_sample),
 *      produced by an OS sampler (src/watch/sampler.h; Linux: sampler_linux.c) or read back
 *      from a recording (doc/watch-recording.md);
 *   2. a snapshot: the counters parsed out of a sample (pcibw_watch_parse, pure);
 *   3. an interval: rates, utilisations and flags from two snapshots (pcibw_watch_interval, pure).
 *
 * Units: seconds (monotonic clock), packets/s, Gbit/s (10^9 bit/s), bytes; shares 0-1.
 * Null convention (pcibw/device.h): NAN for an unknown double, -1 for an unknown int.
 */
#ifndef PCIBW_WATCH_H
#define PCIBW_WATCH_H

#include "pcibw/error.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCIBW_WATCH_MAX_IFACES 16
/* the link states an interface's own PCIe link can be seen in besides the resolved one, each
 * modelled on its own: a PCIe rate (2.5 to 64 GT/s: 6) by a PCIe width (x1 to x32: 7), less
 * the resolved one */
#define PCIBW_WATCH_MAX_LINK_STATES (6 * 7 - 1)
#define PCIBW_WATCH_MAX_CPUS 1024
#define PCIBW_WATCH_MAX_BLOBS (4 + 3 * PCIBW_WATCH_MAX_IFACES)
#define PCIBW_WATCH_MAX_QUEUES 128 /* per interface and direction */
#define PCIBW_WATCH_IFNAME 32

/* One file's text in a sample. key names the file (doc/watch-recording.md "Blobs"):
 * "proc/stat", "proc/interrupts", "proc/net/softnet_stat", "net/IFACE" (sysfs attributes and
 * statistics as "name value" lines), "ethtool/IFACE" ("name value" lines), "pci/IFACE". */
struct pcibw_watch_blob {
	char key[64];
	char *text; /* heap, NUL-terminated, len bytes before the NUL */
	size_t len, cap;
};

struct pcibw_watch_sample {
	double t; /* monotonic seconds */
	int n;
	struct pcibw_watch_blob b[PCIBW_WATCH_MAX_BLOBS];
};

/* pcibw_watch_blob_set - set (or add) the blob named key to len bytes of text, reusing its buffer
 * (it only grows, so a sampler reaches a steady state with no allocation per sample).
 * Returns PCIBW_OK, PCIBW_EINTERNAL (out of memory, or more than PCIBW_WATCH_MAX_BLOBS keys). */
int pcibw_watch_blob_set(struct pcibw_watch_sample *s, const char *key, const char *text, size_t len,
			 struct pcibw_err *err);
/* pcibw_watch_blob_get - the blob named key, or NULL. */
const struct pcibw_watch_blob *pcibw_watch_blob_get(const struct pcibw_watch_sample *s, const char *key);
/* pcibw_watch_sample_free - free every blob's text; s is zeroed. */
void pcibw_watch_sample_free(struct pcibw_watch_sample *s);

/* /proc/stat CPU time fields, in the kernel's column order after the name (proc(5)). */
enum pcibw_cpu_field {
	PCIBW_CPU_USER,
	PCIBW_CPU_NICE,
	PCIBW_CPU_SYSTEM,
	PCIBW_CPU_IDLE,
	PCIBW_CPU_IOWAIT,
	PCIBW_CPU_IRQ,
	PCIBW_CPU_SOFTIRQ,
	PCIBW_CPU_STEAL,
	PCIBW_CPU_NFIELDS,
};

struct pcibw_watch_cpu {
	bool present;			   /* listed in /proc/stat (online) */
	uint64_t t[PCIBW_CPU_NFIELDS];	   /* USER_HZ ticks */
	uint64_t sn_processed, sn_dropped; /* /proc/net/softnet_stat, this CPU's row */
	uint64_t sn_squeeze;		   /* time_squeeze */
	bool have_softnet;
};

/* Interface counters (sysfs statistics, names as the files). */
enum pcibw_if_counter {
	PCIBW_IF_RX_BYTES,
	PCIBW_IF_RX_PACKETS,
	PCIBW_IF_RX_DROPPED,
	PCIBW_IF_RX_MISSED,
	PCIBW_IF_RX_FIFO,
	PCIBW_IF_RX_ERRORS,
	PCIBW_IF_TX_BYTES,
	PCIBW_IF_TX_PACKETS,
	PCIBW_IF_TX_DROPPED,
	PCIBW_IF_TX_ERRORS,
	PCIBW_IF_NCOUNTERS,
};

/* NIC bus evidence in ethtool statistics (mlx5: Linux Documentation/networking/device_drivers/
 * ethernet/mellanox/mlx5/counters.rst, "PCIe counters"). STALLED_* are gauges: the percentage
 * (0-100) of the last second the NIC had requests it could not issue for lack of PCIe credits;
 * the others are counters. */
enum pcibw_nic_bus_stat {
	PCIBW_NS_STALLED_RD,
	PCIBW_NS_STALLED_WR,
	PCIBW_NS_BUFFER_OVERFLOW,
	PCIBW_NS_RX_SIGNAL,
	PCIBW_NS_TX_SIGNAL,
	PCIBW_NS_N,
};

struct pcibw_watch_if {
	char name[PCIBW_WATCH_IFNAME];
	bool present;			  /* "state present" in its blob */
	int ifindex;			  /* -1 unknown */
	char renamed[PCIBW_WATCH_IFNAME]; /* the name the ifindex now has, when it changed; "" */
	uint64_t c[PCIBW_IF_NCOUNTERS];
	bool have[PCIBW_IF_NCOUNTERS];
	double speed_mbps; /* sysfs speed; NAN unknown (down, virtual: -1 in sysfs) */
	double link_gts;   /* PCIe current_link_speed; NAN */
	int link_width;	   /* PCIe current_link_width; -1 */
	char operstate[16];
	/* ethtool */
	bool have_ethtool;
	uint64_t ns[PCIBW_NS_N];
	bool have_ns[PCIBW_NS_N];
	uint64_t q_rx[PCIBW_WATCH_MAX_QUEUES], q_tx[PCIBW_WATCH_MAX_QUEUES]; /* per-queue packets */
	int n_q_rx, n_q_tx;
	/* /proc/interrupts: the interface's vectors */
	uint64_t irq_total;			  /* all its vectors, all CPUs */
	uint64_t irq_vec[PCIBW_WATCH_MAX_QUEUES]; /* per vector (in file order), all CPUs */
	int n_vec;
};

struct pcibw_watch_snap {
	double t;
	int n_cpus;		     /* highest CPU id + 1 seen in /proc/stat */
	struct pcibw_watch_cpu *cpu; /* heap, PCIBW_WATCH_MAX_CPUS entries (allocated once) */
	uint64_t *irq_cpu;	     /* heap, PCIBW_WATCH_MAX_CPUS: NIC vectors per CPU, summed over
				      * the watched interfaces */
	uint64_t intr_total;	     /* /proc/stat "intr" first number */
	struct pcibw_watch_if ifs[PCIBW_WATCH_MAX_IFACES];
	int n_ifs;
};

/* pcibw_watch_snap_init / _free - allocate the per-CPU arrays once (PCIBW_EINTERNAL out of
 * memory) / free them. */
int pcibw_watch_snap_init(struct pcibw_watch_snap *s, struct pcibw_err *err);
void pcibw_watch_snap_free(struct pcibw_watch_snap *s);

/*
 * pcibw_watch_parse - parse sample into snap for the interfaces named (n names, each also the
 * "net/NAME" blob key; vectors in /proc/interrupts are the NIC's when their name holds the
 * interface name or its "dev NAME" (virtio2, mlx5_comp) or its PCI slot from the "net/NAME"
 * blob). Pure: no I/O. where prefixes messages ("DIR/samples:offset").
 * Returns PCIBW_OK, or PCIBW_EINPUT naming the blob, its line and what was expected (a
 * /proc/stat line without 8 numbers, a CPU id past PCIBW_WATCH_MAX_CPUS, a missing proc/stat).
 */
int pcibw_watch_parse(const struct pcibw_watch_sample *sample, const char *const *names, int n,
		      const char *where, struct pcibw_watch_snap *snap, struct pcibw_err *err);

/* Interval flags: what the line and the evidence say besides the numbers. */
enum pcibw_watch_flag {
	PCIBW_WF_HOT_CORE = 1u << 0,	  /* one core near 100 % while all CPUs look idle */
	PCIBW_WF_ONE_QUEUE = 1u << 1,	  /* all packets (or interrupts) on one queue */
	PCIBW_WF_DROPS = 1u << 2,	  /* drops or misses rose */
	PCIBW_WF_IRQ_RATE = 1u << 3,	  /* interrupts at least half the packet rate */
	PCIBW_WF_SQUEEZE = 1u << 4,	  /* softnet time_squeeze rose: NAPI budget ran out */
	PCIBW_WF_NO_IRQTIME = 1u << 5,	  /* irq time reads zero while interrupts arrive */
	PCIBW_WF_WRAP = 1u << 6,	  /* a 32-bit counter wrapped (counted across the wrap) */
	PCIBW_WF_RESET = 1u << 7,	  /* a counter went back: no rate this interval */
	PCIBW_WF_VANISHED = 1u << 8,	  /* an interface disappeared */
	PCIBW_WF_RENAMED = 1u << 9,	  /* an interface got another name */
	PCIBW_WF_CPU_OFFLINE = 1u << 10,  /* a CPU went offline */
	PCIBW_WF_CPU_ONLINE = 1u << 11,	  /* a CPU came online (counted from the next interval) */
	PCIBW_WF_LINK = 1u << 12,	  /* link speed or PCIe width/speed changed */
	PCIBW_WF_PCI_STALL = 1u << 13,	  /* NIC stalled on PCIe credits (mlx5 outbound_pci_stalled) */
	PCIBW_WF_PCI_OVERFLOW = 1u << 14, /* NIC dropped on PCIe buffer overflow */
	PCIBW_WF_PCI_SIGNAL = 1u << 15,	  /* PCIe signal integrity errors */
	PCIBW_WF_CLOCK = 1u << 16,	  /* the timestamps did not advance: no rates */
};

/* pcibw_watch_flag_name - short name of one flag ("hot-core", "one-queue", ...); "?" otherwise. */
const char *pcibw_watch_flag_name(unsigned flag);

struct pcibw_watch_dir {
	double pps, gbps;   /* counted bytes (the kernel's, no FCS) x 8 / dt; NAN unknown */
	double avg_bytes;   /* bytes / packets; NAN with no packets */
	double frame_bytes; /* avg_bytes + 4 (FCS, IEEE 802.3 clause 3.2.9: the kernel counts frames
			     * without it); NAN */
	double drops_ps;    /* drops + misses + fifo errors per second; NAN */
	double wire_util;   /* pps x (frame + 20 B preamble/SFD/gap) x 8 / line rate; NAN */
	double q_share_max; /* busiest queue's share of the packets (per-queue counters); NAN */
	int q_active;	    /* queues that carried packets; -1 unknown */
	int q_busiest;	    /* its index; -1 */
};

struct pcibw_watch_ifiv {
	char name[PCIBW_WATCH_IFNAME];
	bool present, valid; /* valid: rates could be computed this interval */
	struct pcibw_watch_dir rx, tx;
	double speed_mbps, link_gts;
	int link_width;
	double irq_ps;			       /* the interface's interrupts per second; NAN */
	int vec_active;			       /* vectors that fired; -1 */
	double stalled_rd_pct, stalled_wr_pct; /* latest mlx5 gauges; NAN */
	double overflow_d, signal_d;	       /* counter deltas; NAN */
};

#define PCIBW_WATCH_MAX_NOTES 12

struct pcibw_watch_interval {
	double t, dt;				/* end time since the first sample; length, seconds */
	int n_cpus;				/* CPUs counted this interval (present at both ends) */
	double cpu_busy;			/* share of all counted CPUs: 1 - (idle + iowait) / total */
	double cpu_irq, cpu_softirq, cpu_steal; /* shares of all counted CPUs */
	int busiest_cpu;			/* -1 none */
	double busiest_busy, busiest_irq, busiest_softirq; /* that core's shares */
	double *core_busy;	  /* heap, PCIBW_WATCH_MAX_CPUS entries; NAN for CPUs not counted */
	double irq_cpu_max_share; /* the share of the NIC's interrupts on the CPU that took most; NAN */
	int irq_cpu_max;	  /* that CPU; -1 */
	uint64_t squeeze_d, softnet_drop_d;
	struct pcibw_watch_ifiv ifs[PCIBW_WATCH_MAX_IFACES];
	int n_ifs;
	unsigned flags;
	char notes[PCIBW_WATCH_MAX_NOTES][200];
	unsigned note_flag[PCIBW_WATCH_MAX_NOTES]; /* the flag each note explains */
	int n_notes;
};

/* pcibw_watch_interval_init / _free - allocate core_busy once / free it. */
int pcibw_watch_interval_init(struct pcibw_watch_interval *iv, struct pcibw_err *err);
void pcibw_watch_interval_free(struct pcibw_watch_interval *iv);

/* What the interval computation needs to know of each interface besides its counters. */
struct pcibw_watch_ifinfo {
	double line_rate_gbps; /* wire ceiling per direction; 0 = unknown */
	bool virtual_nic;
};

/* Thresholds of the interval flags (the verdict thresholds' core and a few of watch's own). */
struct pcibw_watch_limits {
	double core;	  /* busiest core at least this share (the verdict's `core`): 0.95 */
	double idle;	  /* ... while all CPUs below this: 0.60 (the verdict's `idle`) */
	double irq_ratio; /* interrupts / packets at least this: 0.5 (little moderation) */
};

/*
 * pcibw_watch_interval - the interval from a to b (a earlier). Counters that went back are a
 * 32-bit wrap when the earlier value fitted 32 bits and the wrapped difference is plausible
 * (below 2^31: at most half the range moved), else a reset (that direction's rate NAN for the
 * interval, flag RESET). CPUs present at one end only are left out (flags CPU_OFFLINE /
 * CPU_ONLINE). t0 is the first sample's time. Pure. iv must have been initialised.
 */
void pcibw_watch_interval(const struct pcibw_watch_snap *a, const struct pcibw_watch_snap *b, double t0,
			  const struct pcibw_watch_ifinfo *info, const struct pcibw_watch_limits *lim,
			  struct pcibw_watch_interval *iv);

/* pcibw_watch_scrub - overwrite, in place, what identifies a host in text: MAC addresses
 * (six hex pairs with ':' or '-'), IPv4 dotted quads, IPv6 addresses (two or more ':' groups of
 * hex digits), and each of the n words in names (host names), by 'x' of the same length (so
 * offsets and lengths stay). Returns the number of replacements. */
int pcibw_watch_scrub(char *text, size_t len, const char *const *names, int n);

#endif

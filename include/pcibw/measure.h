/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/measure.h - one measured benchmark result, whatever file it came from: the row every
 * ingest format (src/ingest/) produces and `pcibw analyze` sets against the bus, the wire and
 * the CPU. Input conventions: doc/cli-contract.md, "analyze input".
 *
 * Null convention (pcibw/device.h): doubles are NAN when the input does not say; ints PCIBW_NULL.
 */
#ifndef PCIBW_MEASURE_H
#define PCIBW_MEASURE_H

#include "pcibw/error.h"
#include "pcibw/size_is.h"
#include <stdbool.h>

/*
 * The bytes a bit-rate column counts (`--rate-basis`). PCIBW_BASIS_SIZE = the bytes of the row's
 * own size convention (the contract's default); the others name a layer explicitly.
 */
enum pcibw_rate_basis {
	PCIBW_BASIS_SIZE = 0,
	PCIBW_BASIS_WIRE,    /* frame + 8 B preamble/SFD + 12 B gap (IEEE 802.3 clause 4.4.2) */
	PCIBW_BASIS_FRAME,   /* Ethernet frame incl. FCS */
	PCIBW_BASIS_L3,	     /* IP packet */
	PCIBW_BASIS_PAYLOAD, /* UDP payload */
};

/* Traffic direction of a row: a pcibw_pattern value (pcibw/nic.h), or PCIBW_DIR_UNSET (-1) to use
 * `--pattern`. Kept as int so this header does not depend on the model's. */
#define PCIBW_DIR_UNSET (-1)
/* A CSV direction of rx+tx: read as two rows, rx and tx, measured at once (never a row's own
 * direction). */
#define PCIBW_DIR_RX_TX (-2)

#define PCIBW_MEASURE_TEXT 48

/*
 * The TCP path as the sender's kernel saw it: iperf3 -J reads getsockopt(TCP_INFO) at the end
 * of each interval (snd_cwnd in bytes = tcpi_snd_cwnd x tcpi_snd_mss on Linux, snd_wnd the peer's
 * advertised window, rtt and rttvar the smoothed RTT and its variance in µs, RFC 6298) and keeps
 * the retransmissions (tcpi_total_retrans) per interval and per run. A TCP sender has at most one
 * window in flight per round trip (RFC 5681 sec. 2, RFC 7323 sec. 1.1), so window / RTT bounds
 * its rate whatever the host and the bus could do. NAN (0 for counts) where the input does not
 * say.
 */
struct pcibw_tcp_path {
	int samples;		/* intervals with a window and an RTT sample (omitted ones excluded) */
	double window_gbps;	/* time-weighted mean over those intervals of the sum over streams of
				 * window x 8 / rtt, Gbit/s: the rate the sampled windows allow */
	double window_bytes;	/* mean sampled window, summed over streams, bytes */
	bool rwnd_limited;	/* the peer's window (snd_wnd) was the smaller in most samples */
	double rtt_us;		/* mean RTT, µs: the sender's end.streams[].sender.mean_rtt (of the
				 * streams, weighted by their bytes), else the samples' mean */
	double rtt_min_us;	/* lowest min_rtt of the streams (else of the samples), µs */
	double rtt_max_us;	/* highest max_rtt, µs */
	double rttvar_us;	/* mean sampled rttvar, µs */
	double max_cwnd_bytes;	/* end.streams[].sender.max_snd_cwnd summed over streams, bytes */
	double max_window_gbps; /* sum over streams of max_snd_cwnd x 8 / mean_rtt, Gbit/s: an upper
				 * bound (no window was larger) */
	double retransmits;	/* segments retransmitted in the run: end.sum_sent.retransmits, else
				 * the streams' sum, else the counted intervals' sum */
	double segments;	/* segments sent (bytes / MSS), for the retransmit share; NAN */
	double pmtu;		/* path MTU of the last sample, bytes */
};

struct pcibw_measured {
	const char *source; /* file name ("-" for stdin); owned by the ingest call, valid in the callback */
	char series[PCIBW_MEASURE_TEXT]; /* column prefix or stream role ("send", "receiver"); "" if one */
	unsigned line; /* 1-based line of the input the row came from (0: whole file, e.g. JSON sums) */

	double size_bytes; /* 1 .. 16777216 B (pcibw_check_value); NAN when the input gives no size */
	enum pcibw_size_is size_conv; /* what size_bytes counts: the header it came from decides */
	int direction;		      /* pcibw_pattern or PCIBW_DIR_UNSET */
	double work;	/* added per-packet work, any unit, 0..10^12 (work/copies column); NAN */
	double cpu_mhz; /* CPU clock during the run, MHz, 1..10^5; NAN */
	/* parallelism of the run (cores, queues, threads, streams columns; iperf3 -P), 1..10^6;
	 * NAN when not given. Row keys like work and cpu_mhz. */
	double cores, queues, threads, streams;

	double pps;  /* packets (messages) per second, 0..10^10; NAN */
	double gbps; /* bit rate in Gbit/s (10^9 bit/s) counting the bytes of gbps_basis,
		      * 0..10^5; NAN */
	enum pcibw_rate_basis gbps_basis;

	double cpu_pct;		    /* share of all CPUs, 0-100; NAN */
	double core_max_pct;	    /* busiest core, 0-100; NAN */
	int n_cores;		    /* per-core (cpuN_pct) columns the row had; 0 if none */
	double remote_cpu_pct;	    /* the other end's CPU share (netperf -C), 0-100; NAN */
	double sd_us_per_kb;	    /* service demand stated by the benchmark: µs of CPU per KB (1024 B),
				     * 0..10^9; NAN */
	double remote_sd_us_per_kb; /* the other end's, same unit and range (netperf -C); NAN */

	char test[PCIBW_MEASURE_TEXT];	/* netperf test name (TCP_STREAM, UDP_STREAM), iperf3 "TCP"/"UDP" */
	char iface[PCIBW_MEASURE_TEXT]; /* interface the row was measured on, "" */
	bool tcp;			/* a TCP test: sizes are write sizes and the stack segments them */
	double mss;			/* TCP maximum segment size the benchmark reports (iperf3's
					 * start.tcp_mss_default), bytes; NAN */
	bool ipv6;			/* the test ran over IPv6 (40 B IP header, not 20) */
	/* which machine its input states for it the row was measured on: 0 the one the input starts
	 * with (or none), k > 0 the k-th other one stated after the rows began (pcibw watch's
	 * "# bus: ... iface: NAME" line again when a link retrains); a row key */
	unsigned machine_no;
	/* core_max_pct is the share of one process (iperf3's cpu_utilization_percent: its own user
	 * and system time over wall time), a lower bound on the core it ran on, not the host's */
	bool core_is_process;
	/* measured while a stream of the other direction ran on the same host at the same time
	 * (iperf3 --bidir, a CSV direction of rx+tx): the row's CPU figure covers both */
	bool concurrent;
	/* the receive path polls instead of taking interrupts (a CSV poll_mode column): 1 yes, 0
	 * no, PCIBW_NULL not said */
	int poll_mode;
	/* the test ran over the loopback interface (iperf3's remote host 127.x or ::1): no NIC, bus or
	 * wire carried it */
	bool loopback;
	/* a TCP row's path figures (iperf3 -J sender side); samples 0 and max_cwnd_bytes NAN when
	 * none */
	struct pcibw_tcp_path tcp_path;
};

/*
 * The CPU of a run as mpstat -P ALL, sar -P ALL or sar -u ALL measured it (the "Average:" lines,
 * else the mean of the intervals). Shares are percent 0-100; busy = 100 - %idle - %iowait
 * (iowait is idle time with I/O outstanding; %guest is already inside %usr). NAN unknown.
 */
struct pcibw_cpu_sample {
	bool valid;
	char tool[16];	     /* "mpstat", "sar" */
	char source[512];    /* the file */
	int n_cpus;	     /* per-CPU rows seen (0: only "all", as sar -u ALL) */
	double all_busy;     /* all CPUs */
	double all_irq;	     /* %irq + %soft of all CPUs; NAN when the tool did not split them out */
	double core_busy;    /* the busiest CPU */
	double core_irq;     /* its %irq + %soft */
	int core_id;	     /* its number; -1 */
	double core_irq_max; /* the highest %irq + %soft of any CPU */
	int core_irq_id;
};

/* pcibw_tcp_path_init - every figure NAN, samples 0, rwnd_limited false. */
void pcibw_tcp_path_init(struct pcibw_tcp_path *p);

/* pcibw_tcp_path_known - the path has a window bound: samples, or a max_snd_cwnd with an RTT. */
bool pcibw_tcp_path_known(const struct pcibw_tcp_path *p);

/* pcibw_measured_init - every field to its null value (direction unset, size_conv OPTION, basis
 * SIZE, source NULL, strings "", counts 0). */
void pcibw_measured_init(struct pcibw_measured *m);

/* pcibw_rate_basis_parse - "wire", "frame", "l3", "payload" (`--rate-basis`; exact, lower case;
 * "size" is the default and cannot be asked for). text must not be NULL. Returns PCIBW_OK, or
 * PCIBW_EUSAGE (*out untouched). pcibw_rate_basis_name gives "size", "wire", ... and "?" out of
 * range. */
int pcibw_rate_basis_parse(const char *text, enum pcibw_rate_basis *out, struct pcibw_err *err);
const char *pcibw_rate_basis_name(enum pcibw_rate_basis b);

#endif

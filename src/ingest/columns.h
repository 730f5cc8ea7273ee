/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Column headers of a generic CSV and the roles the contract gives them ("analyze input"). */
#ifndef PCIBW_INGEST_COLUMNS_H
#define PCIBW_INGEST_COLUMNS_H

#include "pcibw/measure.h"

enum role_kind {
	ROLE_NONE = 0,
	ROLE_SIZE,
	ROLE_RATE,
	ROLE_COUNT,
	ROLE_ELAPSED,
	ROLE_CPU,
	ROLE_CORE,
	ROLE_CORE_MAX,
	ROLE_REMOTE_CPU,
	ROLE_SD,
	ROLE_REMOTE_SD,
	ROLE_DIRECTION,
	ROLE_WORK,
	ROLE_CPU_MHZ,
	ROLE_IFACE,
	ROLE_TEST,
	ROLE_CORES,
	ROLE_QUEUES,
	ROLE_THREADS,
	ROLE_STREAMS,
	ROLE_RTT,	/* rtt_ms: the TCP round-trip time, ms */
	ROLE_CWND,	/* cwnd_bytes: the sender's congestion window, bytes */
	ROLE_WINDOW,	/* window_bytes: the window in flight, min(cwnd, the peer's), bytes */
	ROLE_POLL_MODE, /* poll_mode: 1 the receive path polls (DPDK, busy polling), 0 not */
	ROLE_TIME,	/* time_s: when the line was measured, s */
};

/* Units of a rate column: packets (pps, kpps, mpps) or bits (kbps, mbps, gbps) or bytes (MB/s, GB/s). */
enum rate_unit { U_PPS, U_KPPS, U_MPPS, U_KBPS, U_MBPS, U_GBPS, U_MBYTES, U_GBYTES };

struct role {
	enum role_kind kind;
	enum pcibw_size_is conv;	 /* ROLE_SIZE */
	bool msg;			 /* ROLE_SIZE from msg_size/payload: a write size in a TCP test */
	enum rate_unit unit;		 /* ROLE_RATE */
	char prefix[PCIBW_MEASURE_TEXT]; /* ROLE_RATE, ROLE_COUNT: "send" of send_kpps; "" */
	const char *canon;		 /* the name pcibw gives the role ("frame_bytes", "cpu_pct") */
};

/*
 * ingest_role_parse - the role of a header. Returns 1 (recognised, *out set), 0 (not a column pcibw
 * reads: ignored), or -1 (it names a rate whose unit pcibw does not know: refused, never guessed).
 */
int ingest_role_parse(const char *header, struct role *out);

/* ingest_role_suggest - the known name nearest to a header pcibw does not read (one slip in a name of
 * up to 8 letters, two in a longer one that starts with the known name's first two, a swap of
 * neighbours counting one; names compared in compact form), or NULL. */
const char *ingest_role_suggest(const char *header);

/* rate_is_packets - a packet-rate unit (pps, kpps, mpps). */
static inline bool rate_is_packets(enum rate_unit u)
{
	return u <= U_MPPS;
}

/* ingest_rate_factor - pps for packet units, Gbit/s for bit/byte units, per unit of the column. */
double ingest_rate_factor(enum rate_unit u);

#endif

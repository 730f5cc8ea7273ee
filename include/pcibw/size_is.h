/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/size_is.h - what a packet size counts: the one size-convention enum of the model (the
 * --size-is option) and of measured rows (the header a size came from, doc/cli-contract.md
 * "Header -> size convention").
 */
#ifndef PCIBW_SIZE_IS_H
#define PCIBW_SIZE_IS_H

#include "pcibw/error.h"
#include <stdbool.h>

enum pcibw_size_is {
	PCIBW_SIZE_FRAME,	/* Ethernet frame incl. 4-byte FCS (the default) */
	PCIBW_SIZE_DMA,		/* bytes DMA'd */
	PCIBW_SIZE_L3,		/* IP packet: frame = l3 + 18 (14 B header + 4 B FCS), min 64 */
	PCIBW_SIZE_UDP_PAYLOAD, /* IPv4+UDP payload: frame = payload + 46, min 64 (no VLAN) */
	PCIBW_SIZE_TCP_PAYLOAD, /* TCP segment payload over IPv4 with the timestamp option (Linux's
				 * default): frame = payload + 70, min 64 */
	/* measured rows only: */
	PCIBW_SIZE_OPTION, /* a `size` column: whatever --size-is says (never passed to the model) */
	PCIBW_SIZE_WRITE,  /* a TCP write size (netperf msg_size of a TCP test): a socket call's
			    * size, not a packet's, so no packet rate follows from it */
};

/* pcibw_size_is_packet - s counts a packet (FRAME, DMA, L3, UDP_PAYLOAD, TCP_PAYLOAD), so the model
 * can turn it into a frame; false for OPTION and WRITE. */
bool pcibw_size_is_packet(enum pcibw_size_is s);

/* pcibw_size_is_parse - "frame", "dma", "l3", "udp-payload", "tcp-payload" (exact, lower case:
 * the conventions --size-is may name; OPTION and WRITE are not). Returns PCIBW_OK, or PCIBW_EUSAGE
 * (*out untouched). */
int pcibw_size_is_parse(const char *text, enum pcibw_size_is *out, struct pcibw_err *err);

/* pcibw_size_is_name - "frame", "dma", "l3", "udp-payload", "tcp-payload", "option", "write";
 * "unknown" for a value outside the enum. */
const char *pcibw_size_is_name(enum pcibw_size_is s);

#endif

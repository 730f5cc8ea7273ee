/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FreeBSD interface of <net/if.h> the *_freebsd.c files use: the struct if_data counters
 * ifnet(9) documents (ifi_link_state, ifi_baudrate, ifi_ipackets, ifi_ierrors, ifi_opackets,
 * ifi_oerrors, ifi_ibytes, ifi_obytes, ifi_iqdrops, ifi_oqdrops; uint64_t since FreeBSD 11) and
 * the link states LINK_STATE_UNKNOWN 0, LINK_STATE_DOWN 1, LINK_STATE_UP 2. Only the members
 * used are declared, so the layout is not FreeBSD's: for tests/freebsd/compile.sh, never run. */
#ifndef PCIBW_TEST_FREEBSD_NET_IF_H
#define PCIBW_TEST_FREEBSD_NET_IF_H
#include <stdint.h>
#define LINK_STATE_UNKNOWN 0
#define LINK_STATE_DOWN 1
#define LINK_STATE_UP 2
struct if_data {
	uint8_t ifi_link_state;
	uint64_t ifi_baudrate;
	uint64_t ifi_ipackets, ifi_ierrors, ifi_opackets, ifi_oerrors;
	uint64_t ifi_ibytes, ifi_obytes, ifi_iqdrops, ifi_oqdrops;
};
#endif

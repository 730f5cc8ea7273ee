/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FreeBSD interface of <net/if.h> the *_freebsd.c files use: the struct if_data counters
 * ifnet(9) documents (ifi_link_state, ifi_baudrate, ifi_ipackets, ifi_ierrors, ifi_opackets,
 * ifi_oerrors, ifi_ibytes, ifi_obytes, ifi_iqdrops, ifi_oqdrops; uint64_t since FreeBSD 11) and
 * the link states LINK_STATE_UNKNOWN 0, LINK_STATE_DOWN 1, LINK_STATE_UP 2, the interface type
 * ifi_type (<net/if_types.h> values, IFT_LOOP 0x18) and the flag IFF_LOOPBACK 0x8 that
 * getifaddrs(3) copies into ifa_flags ("is a loopback net", ifnet(9)), and if_nametoindex(3):
 * "unsigned int if_nametoindex(const char *ifname);" (0 when there is no such interface). Only the members
 * used are declared, so the layout is not FreeBSD's: for tests/freebsd/compile.sh, never run. */
#ifndef PCIBW_TEST_FREEBSD_NET_IF_H
#define PCIBW_TEST_FREEBSD_NET_IF_H
#include <stdint.h>
#define LINK_STATE_UNKNOWN 0
#define LINK_STATE_DOWN 1
#define LINK_STATE_UP 2
#define IFF_LOOPBACK 0x8
struct if_data {
	uint8_t ifi_type;
	uint8_t ifi_link_state;
	uint64_t ifi_baudrate;
	uint64_t ifi_ipackets, ifi_ierrors, ifi_opackets, ifi_oerrors;
	uint64_t ifi_ibytes, ifi_obytes, ifi_iqdrops, ifi_oqdrops;
};
unsigned int if_nametoindex(const char *ifname);
#endif

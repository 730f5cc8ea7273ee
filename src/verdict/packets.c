/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Packets from sizes that are not packet sizes: TCP goodput in segments of the MSS, and UDP
 * datagrams larger than the MTU in IP fragments (pcibw/verdict.h, pcibw_rows_packets). The
 * header sizes: IPv4 20 B (RFC 791), IPv6 40 B (RFC 8200), TCP 20 B (RFC 9293) with the 12 B
 * timestamp option (RFC 7323; Linux's net.ipv4.tcp_timestamps defaults to 1), UDP 8 B (RFC 768).
 */
#include "pcibw/verdict.h"
#include <math.h>
#include <string.h>

enum { IPV4 = 20, IPV6 = 40, TCP_TS = 32, UDP = 8, ETH = 18, WIRE = 20 };

/* bytes one segment counts in the row's rate basis */
static double tcp_basis(const struct pcibw_row *r, double seg, double hdr)
{
	switch (r->gbps_basis) {
	case PCIBW_BASIS_WIRE:
		return seg + hdr + ETH + WIRE;
	case PCIBW_BASIS_FRAME:
		return seg + hdr + ETH;
	case PCIBW_BASIS_L3:
		return seg + hdr;
	default:
		return seg; /* goodput: what the application moved */
	}
}

static void tcp_row(struct pcibw_row *r, double mtu, enum pcibw_size_is conv)
{
	double hdr = (r->ipv6 ? IPV6 : IPV4) + TCP_TS, seg;
	if (conv == PCIBW_SIZE_TCP_PAYLOAD) {
		seg = r->size_bytes;
		r->segment_from = "the size column";
	} else if (r->mss > 0) {
		seg = r->mss;
		r->segment_from = "iperf3";
	} else {
		seg = mtu - hdr;
		r->segment_from = "--mtu";
	}
	if (!(seg >= 1))
		return;
	if (isnan(r->pps) && r->gbps >= 0)
		r->pps = r->gbps * 1e9 / (8 * tcp_basis(r, seg, hdr));
	r->input_size_bytes = r->size_bytes;
	r->segment_bytes = seg;
	r->size_bytes = seg + hdr;
	r->size_conv = PCIBW_SIZE_L3; /* the bit rate stays the goodput as measured */
}

static void udp_row(struct pcibw_row *r, double mtu)
{
	double per = floor((mtu - IPV4) / 8) * 8, data = r->size_bytes + UDP;
	if (!(per >= 8) || r->size_bytes + UDP + IPV4 <= mtu)
		return;
	if (r->gbps_basis != PCIBW_BASIS_SIZE && r->gbps_basis != PCIBW_BASIS_PAYLOAD && isnan(r->pps))
		return; /* a rate of frames or IP packets of a fragmented datagram: no single size */
	int n = (int)ceil(data / per);
	double dgrams = !isnan(r->pps) ? r->pps : r->gbps * 1e9 / (8 * r->size_bytes);
	if (!(dgrams >= 0))
		return;
	r->input_size_bytes = r->size_bytes;
	r->fragments = n;
	r->pps = dgrams * n;
	r->size_bytes = (data + IPV4 * n) / n;
	r->size_conv = PCIBW_SIZE_L3; /* the bit rate stays the datagrams' payload as measured */
	if (isnan(r->gbps))
		r->gbps = dgrams * r->input_size_bytes * 8 / 1e9;
}

void pcibw_rows_packets(struct pcibw_rows *rs, double mtu, enum pcibw_size_is option)
{
	for (int i = 0; i < rs->n; i++) {
		struct pcibw_row *r = &rs->v[i];
		enum pcibw_size_is conv = r->size_conv == PCIBW_SIZE_OPTION ? option : r->size_conv;
		r->mtu = mtu;
		if (conv == PCIBW_SIZE_WRITE || conv == PCIBW_SIZE_TCP_PAYLOAD ||
		    (r->tcp && isnan(r->size_bytes)))
			tcp_row(r, mtu, conv);
		else if (conv == PCIBW_SIZE_UDP_PAYLOAD && !r->tcp && !isnan(r->size_bytes))
			udp_row(r, mtu);
	}
}

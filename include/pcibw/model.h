/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/model.h - the bandwidth model: for a bus, a NIC profile and a traffic pattern, how many
 * packets per second and Gbit/s the bus sustains at a packet size once every transaction a packet
 * costs is counted, and what the wire allows. Pure: no I/O, no printing.
 *
 * Units: sizes in bytes; rates in Gbit/s (10^9 bit/s) and Mpps (10^6 packets/s); times in ns.
 * For PCIBW_PAT_BOTH rates are per direction.
 */
#ifndef PCIBW_MODEL_H
#define PCIBW_MODEL_H

#include <stdbool.h>
#include "pcibw/bus.h"
#include "pcibw/nic.h"
#include "pcibw/error.h"

enum pcibw_size_is {
	PCIBW_SIZE_FRAME,       /* Ethernet frame incl. 4-byte FCS (default) */
	PCIBW_SIZE_DMA,         /* bytes DMA'd */
	PCIBW_SIZE_L3,          /* IP packet: frame = l3 + 18 (14 B header + 4 B FCS), min 64 */
	PCIBW_SIZE_UDP_PAYLOAD, /* IPv4+UDP payload: frame = payload + 46, min 64 (no VLAN) */
};

enum pcibw_compat { PCIBW_COMPAT_NONE = 0, PCIBW_COMPAT_PCIE_BENCH };

/* One size of a size list: a plain size (weight 1) or one member of a mix. */
struct pcibw_size { double bytes; double weight; };

struct pcibw_sizes {
	struct pcibw_size *v; /* heap */
	int n;
	bool is_mix;          /* imix or SIZE:WEIGHT list: evaluated as one weighted row */
	char label[64];       /* "imix", "mix", or "" */
};

/*
 * pcibw_sizes_parse - "64,128,1518", "64-1518/64" (end always included), "imix"
 * (64:7,594:4,1518:1), "SIZE:WEIGHT,...". Sizes must be > 0 and <= 65536, weights > 0.
 * Returns PCIBW_OK or PCIBW_EUSAGE naming the bad part. Free with pcibw_sizes_free.
 */
int pcibw_sizes_parse(const char *text, struct pcibw_sizes *out, struct pcibw_err *err);
void pcibw_sizes_free(struct pcibw_sizes *s);

/* pcibw_size_is_parse - "frame", "dma", "l3", "udp-payload". PCIBW_EUSAGE otherwise. */
int pcibw_size_is_parse(const char *text, enum pcibw_size_is *out, struct pcibw_err *err);
const char *pcibw_size_is_name(enum pcibw_size_is s);

/* pcibw_pattern_parse - "rx", "tx", "both", "dma-read", "dma-write", "dma-rw". */
int pcibw_pattern_parse(const char *text, enum pcibw_pattern *out, struct pcibw_err *err);
const char *pcibw_pattern_name(enum pcibw_pattern p);

/* pcibw_line_rate_parse - "1G", "2.5G", "100M", any NUMBER[MG]; out in Gbit/s. */
int pcibw_line_rate_parse(const char *text, double *gbps, struct pcibw_err *err);

/*
 * pcibw_frame_bytes - the Ethernet frame (incl. FCS) for a size in convention s (IEEE 802.3:
 * 14 B header, 4 B FCS, 64 B minimum frame; IPv4 20 B + UDP 8 B headers for udp-payload).
 * For PCIBW_SIZE_DMA the frame is size + 4 (the FCS the NIC does not DMA). Every convention
 * pads to the 64 B minimum frame.
 */
double pcibw_frame_bytes(double size, enum pcibw_size_is s);

/* pcibw_wire_bytes - bytes a frame occupies on the wire: frame + 8 B preamble/SFD + 12 B gap. */
double pcibw_wire_bytes(double frame_bytes);

struct pcibw_model_in {
	const struct pcibw_bus *bus;
	const struct pcibw_nic *nic;
	enum pcibw_pattern pattern;
	enum pcibw_size_is size_is;
	double line_rate_gbps;   /* per direction, Gbit/s; 0 = no wire ceiling */
	enum pcibw_compat compat;
	int segment_devices;     /* PCI/PCI-X: devices on the segment moving the same traffic (>= 1) */
};

enum pcibw_limit { PCIBW_LIMIT_BUS, PCIBW_LIMIT_WIRE };

struct pcibw_model_row {
	double size_bytes;       /* in the size_is convention; for a mix, the weighted mean */
	double bus_gbps;         /* bus ceiling, bytes of the size_is convention, per direction */
	double bus_mpps;
	double wire_gbps;        /* NAN without a line rate */
	double wire_mpps;        /* NAN without a line rate */
	enum pcibw_limit limit;  /* the lower of the two ceilings */
	double to_device_bytes;  /* bus bytes per packet host->device, protocol overhead included */
	double to_host_bytes;    /* bus bytes per packet device->host */
	double bus_share;        /* fraction of the raw bus the data itself takes at the ceiling */
	double bus_ns_per_packet;   /* bus time one packet holds (PCI/PCI-X: all its transactions) */
	double cpu_stall_ns_per_packet; /* CPU stalled on MMIO reads per packet (their full latency) */
	const char *bound_by;    /* what sets the bus ceiling: "to-host", "to-device", "shared",
				  * "device-tps", "read-latency", "virtual" (static string) */
};

/*
 * pcibw_model_eval - the ceilings at one size (bytes in in->size_is, 1..65536). PCIe:
 * src/model/pcie.c (TLP accounting, Flit mode, --compat pcie-bench; doc/model.md); PCI and
 * PCI-X: pcix.c (doc/model-pci.md); a virtual bus has no ceiling (bus_* NAN, bound_by
 * "virtual"). Returns PCIBW_OK; PCIBW_EUSAGE for a size out of range, a bad line rate, an
 * unknown bus kind, or a combination the model cannot cost (--compat pcie-bench on x12);
 * PCIBW_ENOTHERE when the bus's model is not built in.
 */
int pcibw_model_eval(const struct pcibw_model_in *in, double size, struct pcibw_model_row *out,
		     struct pcibw_err *err);

/* pcibw_model_eval_mix - the ceilings of a weighted size mix (packets drawn by weight: each
 * resource carries the weighted mean of its per-packet load). The row's size_bytes is the
 * weighted mean size. Errors as pcibw_model_eval, plus PCIBW_EUSAGE for an empty mix or
 * weights that do not sum to a positive number. */
int pcibw_model_eval_mix(const struct pcibw_model_in *in, const struct pcibw_sizes *mix,
			 struct pcibw_model_row *out, struct pcibw_err *err);

#endif

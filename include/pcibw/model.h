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

#include "pcibw/bus.h"
#include "pcibw/error.h"
#include "pcibw/nic.h"
#include "pcibw/size_is.h"
#include <stdbool.h>

/* --compat: PCIE_BENCH reproduces pcie-model (github.com/pcie-bench/pcie-model, commit 40703cf)
 * exactly, its shortcuts included: Ack/FC tables, no Flit model, no device limits, no x12
 * (doc/model.md sec. 7), so results can be set against published pcie-bench numbers. */
enum pcibw_compat { PCIBW_COMPAT_NONE = 0, PCIBW_COMPAT_PCIE_BENCH };

/* One size of a size list: a plain size (weight 1) or one member of a mix. */
struct pcibw_size {
	double bytes;
	double weight;
}; /* bytes 1..65536; weight > 0, relative */

struct pcibw_sizes {
	struct pcibw_size *v; /* heap */
	int n, cap;	      /* used, allocated */
	bool is_mix;	      /* imix or SIZE:WEIGHT list: evaluated as one weighted row */
	char label[64];	      /* "imix", "mix", or "" */
};

/*
 * pcibw_sizes_parse - "64,128,1518", "64-1518/64" (end always included), "imix"
 * (64:7,594:4,1518:1), "SIZE:WEIGHT,...". Sizes are whole bytes 1..65536 (the largest IP packet
 * is 65535 B; 64 KiB DMA), steps whole bytes >= 1, weights finite and > 0; at most 65536 sizes
 * (every size once). A mix gives every item a weight. Sizes are in the --size-is convention.
 * Returns PCIBW_OK; PCIBW_EUSAGE naming the bad part; PCIBW_EINTERNAL (out of memory). out is
 * written only on success. Free with pcibw_sizes_free.
 */
int pcibw_sizes_parse(const char *text, struct pcibw_sizes *out, struct pcibw_err *err);
/* pcibw_sizes_free - free s->v and zero n (s may be NULL; safe to call twice). */
void pcibw_sizes_free(struct pcibw_sizes *s);

/* pcibw_pattern_parse - "rx", "tx", "both", "dma-read", "dma-write", "dma-rw" (exact, lower case).
 * PCIBW_EUSAGE otherwise; pcibw_pattern_name and pcibw_size_is_name give "unknown" out of range. */
int pcibw_pattern_parse(const char *text, enum pcibw_pattern *out, struct pcibw_err *err);
const char *pcibw_pattern_name(enum pcibw_pattern p);

/* pcibw_line_rate_parse - "1G", "2.5G", "100M": a decimal NUMBER then M or G (either case;
 * Mbit/s or Gbit/s, 10^6/10^9); or "NxRATE" ("2x25G", x or X): N ports of RATE driven together,
 * the line rate being their sum (N a whole number 1..1024). *gbps in Gbit/s, 0.001..100000
 * (1BASE5's 1 Mbit/s to 125 x 800G: beyond that it is a typo), the sum checked. PCIBW_EUSAGE for
 * an empty text, a missing unit, hex/inf/sign, a bad N, or out of range; *gbps is then untouched. */
int pcibw_line_rate_parse(const char *text, double *gbps, struct pcibw_err *err);

/*
 * pcibw_frame_bytes - the Ethernet frame (incl. FCS) for a size in convention s (IEEE 802.3:
 * 14 B header, 4 B FCS, 64 B minimum frame; IPv4 20 B + UDP 8 B headers for udp-payload;
 * IPv4 20 B + TCP 20 B + the 12 B timestamp option (RFC 7323 sec. 3, on by Linux's default
 * net.ipv4.tcp_timestamps=1) for tcp-payload).
 * For PCIBW_SIZE_DMA the frame is size + 4 (the FCS the NIC does not DMA). Every convention
 * pads to the 64 B minimum frame. size in bytes of convention s; result in bytes, >= 64. Never
 * fails (no range check: pcibw_model_eval does that).
 */
double pcibw_frame_bytes(double size, enum pcibw_size_is s);

/* pcibw_wire_bytes - bytes a frame occupies on the wire: frame + 8 B preamble/SFD + 12 B gap
 * (IEEE 802.3 clause 4.4.2: the 96-bit-time inter-packet gap). frame_bytes as pcibw_frame_bytes. */
double pcibw_wire_bytes(double frame_bytes);

/*
 * pcibw_size_bytes_as - a packet of size bytes in convention from, counted in convention to
 * (pcibw_size_is_packet): size itself when from == to, else the frame
 * (pcibw_frame_bytes, padded to 64 B) less what to does not count (4 B FCS for DMA; 14 B MAC
 * header and FCS for L3; and 28 B IPv4 + UDP for UDP_PAYLOAD, 52 B IPv4 + TCP with timestamps for
 * TCP_PAYLOAD), at least 0. NAN when either is OPTION or WRITE (no packet convention).
 */
double pcibw_size_bytes_as(double size, enum pcibw_size_is from, enum pcibw_size_is to);

/*
 * pcibw_wire_ceiling - what a line rate of line_rate_gbps (Gbit/s per direction) allows at one
 * packet size: *mpps (10^6 packets/s, each frame plus 20 B on the wire: pcibw_wire_bytes) and
 * *gbps (Gbit/s counting the bytes of convention s). Both NAN without a line rate (<= 0) and
 * for the dma-* patterns (a bare DMA test does not cross the wire). With no packet size (s
 * OPTION or WRITE, or size not > 0) *mpps is NAN and *gbps the line rate itself: what the
 * bytes counted cannot exceed. Never fails.
 */
void pcibw_wire_ceiling(double size, enum pcibw_size_is s, enum pcibw_pattern p, double line_rate_gbps,
			double *mpps, double *gbps);

/*
 * The band of a ceiling. A bus ceiling depends on host behaviour the spec leaves open and config
 * space does not show; each such term has an expected setting (the calibrated one) and the
 * settings that make the bus slowest (low) and fastest (high) that its sources document
 * (doc/model.md sec. 8, doc/model-pci.md "The band"). A term given as a bus modifier is fixed
 * there. PCIBW_TERM_* name the terms.
 */
enum pcibw_band { PCIBW_BAND_EXPECTED = 0, PCIBW_BAND_LOW, PCIBW_BAND_HIGH };
#define PCIBW_TERM_CPL 1u	/* PCIe read completions: RCB pieces .. ceil(length / MPS) */
#define PCIBW_TERM_LINES 2u	/* PCIe root complex's whole-line charge: charged .. not */
#define PCIBW_TERM_BURST_GAP 4u /* PCIe write burst gap: the profile's slowest host .. its gap */
#define PCIBW_TERM_NUMA 8u	/* PCIe read latency: remote memory .. local */
#define PCIBW_TERM_PREFETCH 16u /* PCI delayed read prefetch: one line .. 512 B */
#define PCIBW_TERM_ADB 32u	/* PCI-X split completions: every 128 B ADB .. whole */
#define PCIBW_TERM_BRIDGE                                                                                    \
	64u /* PCI/PCI-X bridges on the path (bridges= without bridge_ns=): each                             \
	     * adds its primary-side transaction to a read .. nothing */
#define PCIBW_TERM_COUNT 7

struct pcibw_model_in {
	const struct pcibw_bus *bus;
	const struct pcibw_nic *nic;
	enum pcibw_pattern pattern;
	enum pcibw_size_is size_is;
	double line_rate_gbps; /* per direction, Gbit/s; 0 = no wire ceiling */
	enum pcibw_compat compat;
	int segment_devices;  /* PCI/PCI-X: devices on the segment moving the same traffic (>= 1;
			       * less counts as 1); they split one shared budget. PCIe ignores it */
	enum pcibw_band band; /* which figure pcibw_model_loads and pcibw_model_explain cost
			       * (0: expected); pcibw_model_eval fills all three */
	unsigned band_terms;  /* PCIBW_TERM_* bits band moves (0: all of them) */
};

enum pcibw_limit { PCIBW_LIMIT_BUS, PCIBW_LIMIT_WIRE };

struct pcibw_model_row {
	double size_bytes; /* in the size_is convention; for a mix, the weighted mean */
	double bus_gbps;   /* bus ceiling, Gbit/s counting bytes of the size_is convention, per
			    * direction; NAN on a virtual bus */
	double bus_mpps;   /* bus ceiling, Mpps (10^6 packets/s) per direction; NAN on a
			    * virtual bus */
	double bus_gbps_low, bus_gbps_high; /* the band of bus_gbps: every term at its slowest
					     * / fastest documented setting (low <= bus_gbps <=
					     * high; all equal in --compat pcie-bench and where
					     * every term is stated); NAN as bus_gbps */
	double bus_mpps_low, bus_mpps_high; /* the same in Mpps */
	double wire_gbps;		    /* NAN without a line rate, and for the dma-* patterns */
	double wire_mpps;		    /* Mpps; NAN as wire_gbps */
	enum pcibw_limit limit;		    /* the lower of the two ceilings (a tie counts as WIRE); BUS when
					     * there is no line rate, even on a virtual bus (no ceiling at all) */
	double to_device_bytes;		/* bus bytes per packet host->device, protocol overhead included */
	double to_host_bytes;		/* bus bytes per packet device->host */
	double bus_share;		/* fraction (0-1) of the raw bus (pcibw_bus_raw_gbps) the data
					 * itself takes at the ceiling: the rest is protocol overhead */
	double bus_ns_per_packet;	/* bus time one packet holds (PCI/PCI-X: all its transactions) */
	double cpu_stall_ns_per_packet; /* CPU stalled on MMIO reads per packet (their full latency) */
	const char *bound_by;		/* what sets the bus ceiling: "to-host", "to-device", "shared",
					 * "device-tps", "read-latency", "virtual" (static string) */
};

/*
 * pcibw_model_eval - the ceilings at one size (bytes in in->size_is, 1..65536). PCIe:
 * src/model/pcie.c (TLP accounting, Flit mode, --compat pcie-bench; doc/model.md). A DMA read
 * is split into MRRS-sized requests from its start; a request over pcibw_cpl_coalesce_blocks()
 * RCB blocks or more is completed in MPS pieces, a shorter one in RCB pieces (PCIe Base 5.0 sec. 2.3.1.1
 * leaves the split to the completer; this is the split the root complexes pcie-bench measured use,
 * doc/model.md sec. 3 and 6); bus rcb_chunks: RCB pieces throughout; --compat pcie-bench: MPS pieces. PCI and
 * PCI-X: pcix.c (doc/model-pci.md); a virtual bus has no ceiling (bus_* NAN, bound_by
 * "virtual"). Returns PCIBW_OK; PCIBW_EUSAGE for a size out of range, a bad line rate, an
 * unknown bus kind, a bus field outside the ranges of struct pcibw_bus (MPS, clock, width,
 * latency timer, MMRBC, splits; a PCIe bus without speed or width), a pattern or size the NIC
 * recipe refuses (pcibw_nic_recipe), or a combination the model cannot cost (--compat pcie-bench
 * on x12); PCIBW_ENOTHERE when the bus's model is not built in; PCIBW_EINTERNAL when in, in->bus
 * or in->nic is NULL or the recipe costs the bus nothing (a bug). out is untouched on error.
 */
int pcibw_model_eval(const struct pcibw_model_in *in, double size, struct pcibw_model_row *out,
		     struct pcibw_err *err);

/* pcibw_model_eval_mix - the ceilings of a weighted size mix (packets drawn by weight: each
 * resource carries the weighted mean of its per-packet load). The row's size_bytes is the
 * weighted mean size. Errors as pcibw_model_eval, plus PCIBW_EUSAGE for an empty mix or
 * weights that do not sum to a positive number. */
int pcibw_model_eval_mix(const struct pcibw_model_in *in, const struct pcibw_sizes *mix,
			 struct pcibw_model_row *out, struct pcibw_err *err);

/* One term of a ceiling's band, as pcibw_model_band_terms gives it. */
struct pcibw_band_term {
	unsigned term;		    /* PCIBW_TERM_* */
	const char *name;	    /* "completion size", ... (static) */
	const char *low;	    /* the setting that gives low, "RCB pieces" (static) */
	const char *high;	    /* the setting that gives high (static) */
	const char *source;	    /* where both settings come from (static) */
	const char *modifier;	    /* the bus modifier that states it, "cpl=" (static) */
	double gbps_low, gbps_high; /* the ceiling with this term alone at low / high, Gbit/s */
};

/*
 * pcibw_model_band_terms - the terms that widen the band of the ceiling at `size` (in
 * in->size_is), each with the ceiling it gives alone at its low and high setting: out[0..*n) (at
 * most max), only terms that move the ceiling by more than 0.05 %. None in --compat pcie-bench,
 * nor for a term the bus states. Errors as pcibw_model_eval.
 */
int pcibw_model_band_terms(const struct pcibw_model_in *in, double size, struct pcibw_band_term *out, int max,
			   int *n, struct pcibw_err *err);

/* pcibw_band_term_name - the term's name ("completion size", ...), "" for an unknown bit. */
const char *pcibw_band_term_name(unsigned term);

#define PCIBW_MODEL_MAX_LOADS 6

/* The resources one packet occupies and for how long: the ceiling is 1 / the longest. Traffic of
 * several devices that crosses one bus adds up resource by resource (each resource's seconds per
 * second, summed over the devices' packet rates, must stay below 1). */
struct pcibw_model_loads {
	int n;					 /* 0..PCIBW_MODEL_MAX_LOADS; 0 on a virtual bus */
	double s[PCIBW_MODEL_MAX_LOADS];	 /* seconds of the resource per packet, > 0 */
	const char *name[PCIBW_MODEL_MAX_LOADS]; /* "to-device", "to-host" (a PCIe link direction),
						  * "root-complex" (one per direction, in that order:
						  * the data in whole cache lines), "shared" (a
						  * PCI/PCI-X segment's clocks), "device-tps",
						  * "read-latency"; static strings */
	bool bus[PCIBW_MODEL_MAX_LOADS];	 /* a resource of the bus, which every device whose
						  * traffic crosses it shares (link directions, root
						  * complex, segment); false for the device's own
						  * limits (device-tps, read-latency) */
};

/*
 * pcibw_model_loads - the per-packet loads behind pcibw_model_eval at one size (same inputs, same
 * costing: src/model/pcie.c, pcix.c), each for one packet of this device: on a PCI/PCI-X
 * segment with in->segment_devices masters moving traffic, its transactions cost what that
 * contention makes them cost (arbitration, bursts the latency timer ends: doc/model-pci.md), but
 * the "shared" load is this packet's alone, so several devices' loads add up. Errors as
 * pcibw_model_eval; out is untouched on error.
 */
int pcibw_model_loads(const struct pcibw_model_in *in, double size, struct pcibw_model_loads *out,
		      struct pcibw_err *err);

/*
 * What sized a DMA read's completions (PCIe Base 5.0 sec. 2.3.1.1), bits of
 * pcibw_read_split.set_by: RCB -- a request over fewer than pcibw_cpl_coalesce_blocks() RCB
 * blocks (or any request with rcb_chunks) comes back one RCB block per completion; MPS -- a
 * request over that many or more comes back in MPS-sized pieces; MRRS -- such a request, where
 * MRRS is no bigger than MPS, comes back whole.
 */
#define PCIBW_CPL_BY_RCB 1u
#define PCIBW_CPL_BY_MPS 2u
#define PCIBW_CPL_BY_MRRS 4u

/* One DMA read's split on PCIe: per read (one op transfer), not per packet. */
struct pcibw_read_split {
	double requests;    /* MRd requests (MRRS-sized pieces; averaged over placements) */
	double completions; /* CplD completions answering them */
	unsigned set_by;    /* PCIBW_CPL_BY_* bits: what sized the completions */
};

/*
 * pcibw_cpl_coalesce_blocks - the RCB blocks a read request must touch to come back in MPS
 * pieces: PCIBW_CPL_COALESCE_BYTES (or all of MRRS where MRRS is smaller) / RCB, rounded up.
 * The completer sees a request's length, not the requester's MRRS; the Xeon E5 root complexes
 * pcie-bench measured coalesce a whole 512 B request and return a shorter one an RCB block per
 * completion (doc/model.md sec. 3 and 6). b->mrrs_bytes and b->rcb_bytes > 0. Pure.
 */
#define PCIBW_CPL_COALESCE_BYTES 512
long pcibw_cpl_coalesce_blocks(const struct pcibw_bus *b);

/* pcibw_cpl_set_by_name - "rcb", "mps", "mrrs", or several joined by '+' ("mps+rcb") for a mix
 * of requests, "" for none (static strings). */
const char *pcibw_cpl_set_by_name(unsigned set_by);

/* One operation of a packet's recipe as it costs the bus: what pcibw model --explain prints. */
struct pcibw_explain_op {
	struct pcibw_op op;	/* from pcibw_nic_recipe: kind, role, path, bytes, per_packet, keys */
	double to_device_bytes; /* bus bytes per packet it puts on the host->device direction (PCIe:
				 * TLP headers and framing included; PCI/PCI-X: clocks in bytes) */
	double to_host_bytes;	/* the same, device->host */
	const char *knob;	/* the driver knob whose value sets its keys, or NULL */
	const char *source;	/* that knob's source, else the profile's */
	bool is_read_split;	/* a DMA read on PCIe: read holds its requests and completions */
	struct pcibw_read_split read;
};

/*
 * pcibw_model_explain - the recipe of one packet of `size` (in in->size_is) with each operation
 * costed alone on in->bus: out[0..*n) (at most max). The per-operation bytes add up to the row's
 * to_device_bytes / to_host_bytes (pcibw_model_eval). A virtual bus costs nothing (bytes 0).
 * Returns PCIBW_OK or the errors of pcibw_model_eval; PCIBW_EINTERNAL when max is too small.
 */
int pcibw_model_explain(const struct pcibw_model_in *in, double size, struct pcibw_explain_op *out, int max,
			int *n, struct pcibw_err *err);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/bus.h - a bus as the model sees it: kind, clock or link rate, width, and the
 * protocol registers that change what a packet costs (MPS, MRRS, RCB, MMRBC, ...).
 *
 * Filled either by pcibw_bus_parse() from a `--bus SPEC` string (grammar and defaults in
 * doc/cli-contract.md, "Bus spec") or by pcibw_bus_from_device() from probed facts.
 */
#ifndef PCIBW_BUS_H
#define PCIBW_BUS_H

#include "pcibw/busfacts.h"
#include "pcibw/error.h"
#include <stdbool.h>

enum pcibw_bus_kind {
	PCIBW_BUS_UNKNOWN = 0,
	PCIBW_BUS_PCI,	   /* conventional PCI: shared, half duplex */
	PCIBW_BUS_PCIX,	   /* PCI-X (mode 1, 266 DDR, 533 QDR): shared, half duplex */
	PCIBW_BUS_PCIE,	   /* PCI Express: point to point, one budget per direction */
	PCIBW_BUS_VIRTUAL, /* paravirtual device: no bus ceiling */
};

/*
 * pcibw_bus.dma_offset value for pcie-bench's bandwidth tests: a transfer of S bytes starts at a
 * random multiple of roundup64(S) in an 8 KB window of page-aligned host memory, skipping starts
 * from which it would cross a 4 KB boundary (pcie-bench pciebench-nfp me/utils.c, dma_addr_init,
 * host offset 0, window 8192 as in its published sweeps); the model averages over those starts.
 */
#define PCIBW_DMA_OFFSET_PCIEBENCH (-1)

/* A host setting given as a bus modifier (numa=, iommu=): not stated (the model's band spans
 * both), or the one stated. */
enum { PCIBW_HOST_UNSTATED = 0, PCIBW_HOST_OFF = 1, PCIBW_HOST_ON = 2 };
#define PCIBW_NUMA_LOCAL PCIBW_HOST_OFF
#define PCIBW_NUMA_REMOTE PCIBW_HOST_ON

struct pcibw_bus {
	enum pcibw_bus_kind kind;

	/* PCIe */
	int gen;	 /* 1..6; derived from gts */
	double gts;	 /* GT/s per lane: 2.5, 5, 8, 16, 32, 64 */
	int lanes;	 /* 1, 2, 4, 8, 12, 16, 32 */
	int mps_bytes;	 /* Max_Payload_Size, 128..4096; default 128 */
	int mrrs_bytes;	 /* Max_Read_Request_Size, 128..4096; default 512 */
	int rcb_bytes;	 /* Read Completion Boundary, 64 or 128; default 64 */
	bool ecrc;	 /* TLP digest (+4 B per TLP); spec modifier `ecrc` */
	bool addr32;	 /* 32-bit addresses (PCIe 3-DW headers; PCI/PCI-X no dual address
			  * cycle) instead of 64-bit; spec modifier `addr32`, any kind */
	bool flit;	 /* Flit mode (mandatory at 64 GT/s, PCIe Base 6.0 sec. 4.2.3); spec
			  * modifier `flit` turns it on at lower rates too */
	int aspm;	 /* the link's ASPM state, PCIBW_ASPM_* bits of pcibw/device.h (0 = off;
			  * -1 = not known): spec modifier `aspm=off|l0s|l1|l0s-l1`, or the probed
			  * link's effective state. It changes no ceiling (an exit costs latency per
			  * wake, not bandwidth); analyze says when an idle link with it on may be
			  * the cause */
	bool rcb_chunks; /* every read completion RCB-sized (pcie-bench's rcb_chunks: a root
			  * complex that never coalesces), else MPS pieces for requests over
			  * 512 B of RCB blocks, RCB pieces for shorter ones (pcibw_model_eval);
			  * spec modifier `rcb_chunks` */
	bool cpl_mps;	 /* every read request comes back in MPS pieces, ceil(length / MPS) per
			  * request: the fewest completions PCIe Base 5.0 sec. 2.3.1.1 allows;
			  * spec modifier `cpl=mps` (`cpl=rcb` sets rcb_chunks; neither: `cpl=auto`,
			  * the length rule, whose band spans the two) */
	int numa;	 /* the DMA buffers' memory: PCIBW_HOST_* (not stated, local, remote);
			  * spec modifier `numa=local|remote` */
	int iommu;	 /* the host's IOMMU: PCIBW_HOST_* (not stated, off, on); spec modifier
			  * `iommu=off|on` */
	int dma_offset;	 /* where each packet data buffer starts within a 4 KB page, 0..4095 B
			  * (0: aligned), or PCIBW_DMA_OFFSET_PCIEBENCH: pcie-bench's placement
			  * (below). Read requests split at MRRS-aligned addresses, write TLPs at
			  * MPS-aligned ones and the root complex moves every cache line touched
			  * (doc/model.md sec. 3); spec modifier `dma_offset=N|pciebench` */

	/* PCI and PCI-X */
	int clock_mhz;		 /* nominal segment clock, MHz: 33, 66 (PCI); 66, 100, 133 (PCI-X; 266 and
				  * 533 run 133 MHz with 2 or 4 transfers per clock) */
	int width_bits;		 /* 32 or 64; parse default 32 for PCI, 64 for PCI-X */
	int transfers_per_clock; /* 1 (SDR), 2 (PCI-X 266 DDR), 4 (PCI-X 533 QDR) */
	int mmrbc_bytes;	 /* PCI-X Maximum Memory Read Byte Count: 512, 1024, 2048 or 4096 (PCI-X
				  * Addendum 2.0 sec. 7.2.3 Command register); default 512 */
	int splits;		 /* PCI-X maximum outstanding split transactions: 1,2,3,4,8,12,16,32
				  * (same register); default 1 */
	int latency_timer;	 /* master latency timer, PCI clocks, 0..255; default 64 */
	double mem_latency_ns;	 /* host memory behind a delayed read or split request, ns, 1..100000;
				  * 0: not stated (the model's default, doc/model-pci.md); modifier
				  * `mem_latency_ns=` */
	int prefetch_bytes;	 /* what the host bridge fetches for one Memory Read Multiple / Line,
				  * bytes, a power of 2 in 16..4096; 0: not stated (two cache lines,
				  * the band one line .. 512 B); modifier `prefetch=` */
	int bridges;		 /* PCI-PCI bridges between the host bridge and the segment, 0..8
				  * (0: none, a --bus spec's segment on the host bridge); modifier
				  * `bridges=` */
	double bridge_ns;	 /* latency each of them adds to a read command, ns, 1..100000; 0: not
				  * stated (doc/model-pci.md); modifier `bridge_ns=` */
	/* A card with its own bridge (a multi-port PCI-X card: the ports' functions sit on a segment
	 * the card's bridge drives, and that bridge is the one master on the slot's segment): the
	 * card's segment, kind PCIBW_BUS_UNKNOWN when there is none. The rest of this struct is
	 * then the slot's segment. Modifier `card_bridge=pcixS[/W]|pciS[/W]`. */
	struct {
		enum pcibw_bus_kind kind; /* PCIBW_BUS_PCI, PCIBW_BUS_PCIX or UNKNOWN (none) */
		int clock_mhz, width_bits, transfers_per_clock; /* as the fields above */
	} card;
	int cacheline_bytes; /* Cache Line Size register (config 0x0c, DWORDs x 4) in bytes: the
			      * line Memory Read Line / Multiple and MWI work in (PCI LB 3.0 sec.
			      * 3.1.1, 6.2.4); default 64 (cacheline_default set) when not probed */

	/* Which fields came from the user or a probed device (bit per field name is overkill:
	 * the model only needs to say in its output that the value was a default). */
	bool mps_default, mrrs_default, rcb_default, mmrbc_default, splits_default, latency_timer_default,
	    cacheline_default;

	/* Why the model's bus is not simply the probed device's own link ("" when it is), e.g. an
	 * on-package MAC whose internal link is no physical ceiling. Set by pcibw_bus_from_device. */
	char note[320];
};

/*
 * pcibw_bus_defaults - zero b, then set the contract's defaults where the spec gives none
 * (doc/cli-contract.md "Bus spec"): MPS 128, MRRS 512, RCB 64 (Device/Link Control reset values),
 * MMRBC 512 and 1 split (PCI-X Command reset values), latency timer 64, cache line 64 B, one
 * transfer per clock; every *_default flag set. kind stays PCIBW_BUS_UNKNOWN.
 */
void pcibw_bus_defaults(struct pcibw_bus *b);

/*
 * pcibw_bus_apply - apply modifiers "KEY=VALUE,..." (the bus spec's: mps=, mrrs=, rcb=, aspm=,
 * rcb_chunks, dma_offset=, ecrc, addr32, flit, mmrbc=, splits=, latency_timer=) to b, a parsed or probed bus,
 * for a what-if (--bus-set). Each key at most once. Returns PCIBW_OK, or PCIBW_EUSAGE naming the
 * bad modifier (b is then partly changed).
 */
int pcibw_bus_apply(struct pcibw_bus *b, const char *mods, struct pcibw_err *err);

/*
 * pcibw_bus_parse - parse a bus spec such as "gen3x8,mps=256", "8gtx16", "pcix133/64,mmrbc=512",
 * "pci33/32" (grammar: doc/cli-contract.md "Bus spec"). Fills every field, defaults included.
 * Also accepted: `rcb_chunks` (PCIe read completions in RCB-sized pieces, as pcie-bench's
 * rcb_chunks) and `dma_offset=N` (0..4095) or `dma_offset=pciebench` (where packet data buffers
 * start in a page; PCIBW_DMA_OFFSET_PCIEBENCH). Gen6 / 64 GT/s sets flit. Modifiers of another bus kind are
 * refused. Base parts: genN (1..6) or RATEgt (2.5, 5, 8, 16, 32, 64) then xW; pcixS[/W] with S 66, 100, 133,
 * 266, 533 (W default 64); pciS[/W] with S 33 or 66 (W default 32). Keys and values are case-insensitive;
 * each modifier at most once. Register values must be ones the register can hold (MPS/MRRS 128..4096 powers
 * of 2, RCB 64/128, latency_timer 0..255). Returns PCIBW_OK, or PCIBW_EUSAGE with a message naming the bad
 * part
 * ("width 3 is not a PCIe width (1,2,4,8,12,16,32)", "'mps=100': MPS must be one of ...", an
 * empty spec or modifier, a modifier given twice). out is written only on success.
 */
int pcibw_bus_parse(const char *spec, struct pcibw_bus *out, struct pcibw_err *err);

/*
 * pcibw_bus_format - canonical spec string of bus (round-trips through pcibw_bus_parse for PCIe,
 * PCI-X and PCI, except that defaults come back as given values: *_default flags are lost, and
 * cacheline_bytes and note are not part of the grammar). PCIBW_BUS_VIRTUAL gives "virtual" and
 * UNKNOWN "unknown", which pcibw_bus_parse refuses. Writes at most len bytes including the NUL
 * (truncated, never an error); buf NULL or len 0 writes nothing. Returns buf.
 */
char *pcibw_bus_format(const struct pcibw_bus *bus, char *buf, unsigned len);

/*
 * pcibw_bus_raw_gbps - raw data bandwidth of the bus in Gbit/s (10^9 bit/s):
 * PCIe per direction = GT/s x lanes x encoding (8b/10b for 2.5/5 GT/s, 128b/130b for 8-32 GT/s,
 * 242/256 in Flit mode; PCIe Base 6.0 sec. 4.2); PCI/PCI-X shared by both directions =
 * clock x width/8 x transfers per clock (nominal 33.33/66.67/100/133.33 MHz; PCI-X Addendum 2.0).
 * Returns 0 for PCIBW_BUS_VIRTUAL/UNKNOWN.
 */
double pcibw_bus_raw_gbps(const struct pcibw_bus *bus);

/* pcibw_bus_kind_name - "pci", "pci-x", "pcie", "virtual", "unknown". */
const char *pcibw_bus_kind_name(enum pcibw_bus_kind kind);

#endif

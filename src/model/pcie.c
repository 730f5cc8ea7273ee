/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI Express: what one packet's bus operations cost in bytes per direction, and the packet rate
 * the link (and optionally the device) sustains. Three accountings:
 *   - Gen1-5 (non-Flit): per-TLP framing and headers, MPS/MRRS splitting, ACK/UpdateFC DLLPs and
 *     SKP ordered sets taken off the raw rate (PCIe Base 5.0 sec. 2.2, 3.6.3, 4.2);
 *   - Flit mode (mandatory at 64 GT/s): TLPs with Flit-mode headers packed into the 236 TLP bytes
 *     of 256-byte flits, no per-TLP framing or LCRC, Ack/FC inside the flit (PCIe Base 6.0 sec. 4.2.3);
 *   - PCIBW_COMPAT_PCIE_BENCH: exactly pcie-bench's pcie-model (github.com/pcie-bench/pcie-model,
 *     model/pcie.py, mem_bw.py, simple_nic.py, niantic.py, util.py), quirks included.
 * doc/model.md derives each formula and the calibration.
 */
#include "model_int.h"
#include <math.h>
#include <string.h>

/* PCIe Base 5.0 Tables 3-7/3-8/3-9 (Ack latency limit) and 2-46/2-47/2-48 (UpdateFC interval),
 * in symbol times, as transcribed by pcie-model's model/pcie.py (Ack_Limits, FC_Guide); the two
 * differ only in gen1 x32 MPS 2048 and gen2 x32 MPS 4096. Gen4+ reuse gen3's values (as pcie.py).
 * Columns: MPS 128 .. 4096; rows: x1, x2, x4, x8, x16, x32. */
static const short ack_tab[3][6][6] = {
    {{237, 416, 559, 1071, 2095, 4143},
     {128, 217, 289, 545, 1057, 2081},
     {73, 118, 154, 282, 538, 1050},
     {67, 107, 86, 150, 278, 534},
     {48, 72, 86, 150, 278, 534},
     {33, 45, 52, 84, 148, 276}},
    {{288, 467, 610, 1122, 2146, 4194},
     {179, 268, 340, 596, 1108, 2132},
     {124, 169, 205, 333, 589, 1101},
     {118, 158, 137, 201, 329, 585},
     {99, 123, 137, 201, 329, 585},
     {84, 96, 103, 135, 199, 237}},
    {{333, 512, 655, 1167, 2191, 4239},
     {224, 313, 385, 641, 1153, 2177},
     {169, 214, 250, 378, 634, 1146},
     {163, 203, 182, 246, 374, 630},
     {144, 168, 182, 246, 374, 630},
     {129, 141, 148, 180, 244, 372}},
};
static short fc_interval(int g, int w, int m)
{
	if (g == 0 && w == 5 && m == 4)
		return 248;
	if (g == 1 && w == 5 && m == 5)
		return 327;
	return ack_tab[g][w][m];
}

/* One ACK or UpdateFC DLLP: 2 B framing + 4 B DLLP + 2 B CRC (sec. 3.5.1; pcie.py Ack_Size). */
#define DLLP_BYTES 8.0
/* Per-TLP data-link + physical overhead outside Flit mode: STP/SDP framing + 2 B sequence number
 * + 4 B LCRC (+ END at 8b/10b) = 8 B at every rate (sec. 4.2.2.2 Gen3 STP token: 4 B incl. the
 * sequence number, + 4 B LCRC). */
#define TLP_FRAMING 8.0
/* TLP headers (sec. 2.2.1): 4 B common DW + 8 B (32-bit address) or 12 B (64-bit) for memory
 * requests; completions 3 DW; ECRC digest 4 B (sec. 2.7). */
#define HDR_MEM64 16.0
#define HDR_MEM32 12.0
#define HDR_CPL 12.0
#define ECRC_BYTES 4.0
/* Flit mode (PCIe Base 6.0 sec. 4.2.3.1): 256 B flit = 236 B TLP + 6 B DLP + 8 B CRC + 6 B FEC.
 * Flit-mode TLP headers (sec. 2.2.1.2): memory requests 3 DW base + 1 DW for the upper 32 address
 * bits; completions 3 DW; no OHC for whole-DW transfers with all byte enables set. */
#define FLIT_BYTES 256.0
#define FLIT_TLP_BYTES 236.0

/*
 * Link efficiency left after the SKP budget and the traffic-driven ACK/UpdateFC DLLPs, calibrated
 * on the measured pcie-bench DMA sweeps (NFP-6000, Gen3 x8, MPS 256 hosts): the median ratio of
 * measured to unscaled model over the points where the sweeps plateau (reads of 512, 1536,
 * 2048 B, writes of 512-2048 B). bench/model-calibration.sh prints the residuals; doc/model.md
 * "Calibration" discusses them. It stands for idle and alignment gaps, DLLPs beyond the
 * recommended rates and the root complex's pacing, none of which the spec fixes.
 */
/* The host's cache line: the unit the root complex reads and writes memory in (64 B on the x86
 * and Arm server parts pcie-bench measured; Neugebauer et al., SIGCOMM 2018, sec. 6). */
#define HOST_LINE_BYTES 64.0

#ifndef LINK_EFFICIENCY
#define LINK_EFFICIENCY 0.9475
#endif

static int tab_index(const int *list, int n, int v)
{
	for (int i = 0; i < n; i++)
		if (list[i] == v)
			return i;
	return -1;
}

/*
 * The non-Flit link budget of one direction, in bytes per second for TLPs, and the DLLP bytes
 * that direction carries per byte of TLPs received from the other one (ACK + UpdateFC).
 */
static int tlp_budget(const struct pcibw_bus *b, bool compat, double *bytes_per_s, double *dllp_per_byte,
		      struct pcibw_err *err)
{
	static const int widths[] = {1, 2, 4, 8, 16, 32};
	static const int mpss[] = {128, 256, 512, 1024, 2048, 4096};
	int g = b->gen <= 1 ? 0 : b->gen == 2 ? 1 : 2;
	int w = tab_index(widths, 6, b->lanes), m = tab_index(mpss, 6, b->mps_bytes);
	double raw = b->gts * b->lanes * pcibw_pcie_encoding(b->gts, false) * 1e9 / 8.0;
	if (m < 0)
		return pcibw_fail(err, PCIBW_EUSAGE, "MPS %d is not one of 128..4096", b->mps_bytes);
	if (compat) {
		if (w < 0)
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--compat pcie-bench: pcie-model has no x%d tables "
					  "(x1, x2, x4, x8, x16, x32)",
					  b->lanes);
		/* pcie.py: Gen6/7 at 242/256 with Gen3 tables and per-TLP framing, tables read as
		 * bytes, the DLLPs taken off both directions at their full recommended rate */
		if (b->gen >= 6)
			raw = b->gts * b->lanes * (242.0 / 256.0) * 1e9 / 8.0;
		double oh = DLLP_BYTES / ack_tab[g][w][m] + DLLP_BYTES / fc_interval(g, w, m) + 4.0 / 1538.0;
		*bytes_per_s = raw * (1.0 - oh);
		*dllp_per_byte = 0;
		return PCIBW_OK;
	}
	/* The tables count symbol times, and an xN link moves N bytes per symbol time. x12 is not
	 * in pcie.py's transcription: its interval in symbol times lies between x8 and x16 (the
	 * spec's formula divides by the width); x8's is used, a difference < 0.2 % of the link. */
	if (w < 0)
		w = tab_index(widths, 6, 8);
	/* A receiver acknowledges and returns credits for what it receives: ACK and UpdateFC
	 * DLLPs go the other way at (at most) one per interval *of received traffic* (sec. 3.6.3.1
	 * AckNak_LATENCY_TIMER, sec. 2.6.1.2 UpdateFC scheduling). So they load a direction in
	 * proportion to the opposite direction's TLP bytes, not at a fixed share of both. */
	*dllp_per_byte = DLLP_BYTES / (ack_tab[g][w][m] * (double)b->lanes) +
			 DLLP_BYTES / (fc_interval(g, w, m) * (double)b->lanes);
	/* SKP ordered sets (sec. 4.2.7): 8b/10b, 4 symbols every 1180-1538 symbol times (the
	 * longest interval, as pcie.py); 128b/130b, one 16-symbol SKP OS every 370-375 blocks of
	 * 16 symbols (372 taken). */
	double skp = b->gen <= 2 ? 4.0 / 1538.0 : 16.0 / (372.0 * 16.0 + 16.0);
	*bytes_per_s = raw * (1.0 - skp) * LINK_EFFICIENCY;
	return PCIBW_OK;
}

struct acc {
	double to_dev, to_host; /* bytes per packet */
	double dev_writes;	/* MWr TLPs the device issues per packet */
	double dev_reads;	/* MRd requests the device issues per packet */
	double engine_ns;	/* the device's write engine, ns per packet (profile write_unit_*) */
	double burst_bytes;	/* the wire bytes of the engine's write bursts, per packet */
	double burst_gaps_ns;	/* the link's idle time after them, ns per packet */
	double stall_reads;	/* CPU MMIO reads per packet */
};

static double tlps(double bytes, int unit)
{
	return ceil(bytes / unit);
}

/*
 * Completions (CplD) returning a DMA read of `bytes`, split by the requester into MRRS-sized
 * requests from its start (the last one shorter). PCIe Base 5.0 sec. 2.3.1.1 lets a completer
 * answer a request with one completion of up to MPS bytes or split it at any RCB-aligned address;
 * which it does is the root complex's choice. The Xeon E5 v1-v3 root complexes pcie-bench measured
 * (Neugebauer et al., SIGCOMM 2018; the sweeps in doc/model.md sec. 6, MRRS 512) coalesce to MPS a
 * request of a whole aligned 512 B and return a shorter one an RCB block per completion. The
 * completer sees the request's length, not the requester's MRRS, so the rule is read as a length:
 * a request that touches pcibw_cpl_coalesce_blocks() RCB blocks (512 B, or the whole MRRS block
 * where MRRS is smaller) comes back in MPS pieces. With rcb_chunks every request comes back in
 * RCB pieces.
 */
long pcibw_cpl_coalesce_blocks(const struct pcibw_bus *b)
{
	long t = b->mrrs_bytes < PCIBW_CPL_COALESCE_BYTES ? b->mrrs_bytes : PCIBW_CPL_COALESCE_BYTES;
	return (t + b->rcb_bytes - 1) / b->rcb_bytes;
}

static double read_completions(const struct pcibw_bus *b, double bytes, unsigned *set_by)
{
	if (b->rcb_chunks) {
		*set_by |= PCIBW_CPL_BY_RCB;
		return tlps(bytes, b->rcb_bytes);
	}
	if (b->cpl_mps) {
		/* the fewest the spec allows: each request in MPS pieces */
		double full = floor(bytes / b->mrrs_bytes), tail = bytes - full * b->mrrs_bytes;
		*set_by |= b->mrrs_bytes <= b->mps_bytes ? PCIBW_CPL_BY_MRRS : PCIBW_CPL_BY_MPS;
		return full * tlps(b->mrrs_bytes, b->mps_bytes) + (tail > 0 ? tlps(tail, b->mps_bytes) : 0);
	}
	double full = floor(bytes / b->mrrs_bytes), tail = bytes - full * b->mrrs_bytes;
	double n = full * tlps(b->mrrs_bytes, b->mps_bytes);
	if (full > 0)
		*set_by |= b->mrrs_bytes <= b->mps_bytes ? PCIBW_CPL_BY_MRRS : PCIBW_CPL_BY_MPS;
	if (tail > 0) {
		bool whole = tlps(tail, b->rcb_bytes) >= (double)pcibw_cpl_coalesce_blocks(b);
		n += whole ? tlps(tail, b->mps_bytes) : tlps(tail, b->rcb_bytes);
		*set_by |= whole ? PCIBW_CPL_BY_MPS : PCIBW_CPL_BY_RCB;
	}
	return n;
}

/* Blocks of `unit` bytes (a power of 2) that the bytes [a, a + n) touch, n > 0. */
static long blocks(long a, long n, long unit)
{
	return (a + n - 1) / unit - a / unit + 1;
}

/* A packet data buffer's split into TLPs, per packet. */
struct split {
	double reqs, cpls; /* read: MRd requests, CplD completions */
	unsigned set_by;   /* read: PCIBW_CPL_BY_* of the completions' sizes */
	double wr_tlps;	   /* write: MWr TLPs */
	double bursts;	   /* write: the engine's bursts (profile write_burst_bytes), 0 without */
	double lines;	   /* host cache lines touched */
};

/*
 * The split of `n` bytes starting `a` bytes into a page. The requester cuts a read at
 * MRRS-aligned addresses and a write at MPS-aligned ones, so no TLP crosses 4 KB (PCIe Base 5.0
 * sec. 2.2.7) and each request lies inside one MRRS-aligned block. A request that touches
 * pcibw_cpl_coalesce_blocks() RCB blocks comes back in MPS pieces cut at MPS-aligned addresses,
 * any other request one RCB block per completion (sec. 2.3.1.1; read_completions' rule, which
 * this is at a = 0), every request in RCB pieces with rcb_chunks. A write is also counted in the device's
 * bursts, cut at burst-aligned addresses (burst 0: none).
 */
static void split_at(const struct pcibw_bus *b, long a, long n, long burst, struct split *o)
{
	long mrrs = b->mrrs_bytes, mps = b->mps_bytes, rcb = b->rcb_bytes;
	for (long p = a, end = a + n; p < end;) {
		long blk = p - p % mrrs, e = blk + mrrs < end ? blk + mrrs : end;
		bool whole =
		    !b->rcb_chunks && (b->cpl_mps || blocks(p, e - p, rcb) >= pcibw_cpl_coalesce_blocks(b));
		o->reqs += 1;
		o->cpls += whole ? blocks(p, e - p, mps) : blocks(p, e - p, rcb);
		o->set_by |= !whole ? PCIBW_CPL_BY_RCB : mrrs <= mps ? PCIBW_CPL_BY_MRRS : PCIBW_CPL_BY_MPS;
		p = e;
	}
	/* a TLP cannot straddle the idle after a burst: bursts smaller than MPS cut the TLPs too */
	o->wr_tlps += blocks(a, n, burst > 0 && burst < mps ? burst : mps);
	if (burst > 0)
		o->bursts += blocks(a, n, burst);
	o->lines += blocks(a, n, (long)HOST_LINE_BYTES);
}

/* The split of a data buffer of `bytes` at the bus's dma_offset, averaged over pcie-bench's
 * placements for PCIBW_DMA_OFFSET_PCIEBENCH (pciebench-nfp me/utils.c, dma_addr_init: unit
 * roundup64(S), window 8 KB, starts from which S would cross 4 KB skipped; with none left, as
 * there for S > 4 KB, every unit). */
static void data_split(const struct pcibw_bus *b, double bytes, long burst, struct split *o)
{
	long n = (long)ceil(bytes);
	*o = (struct split){0};
	if (n <= 0)
		return;
	if (b->dma_offset != PCIBW_DMA_OFFSET_PCIEBENCH) {
		split_at(b, b->dma_offset, n, burst, o);
		return;
	}
	long unit = (n + 63) / 64 * 64, units = 8192 / unit, used = 0;
	for (int pass = 0; pass < 2 && used == 0; pass++)
		for (long k = 0; k < units; k++) {
			long a = k * unit % 4096;
			if (pass == 0 && a + n > 4096)
				continue;
			split_at(b, a, n, burst, o);
			used++;
		}
	if (used == 0) {
		split_at(b, 0, n, burst, o);
		return;
	}
	o->reqs /= (double)used, o->cpls /= (double)used;
	o->wr_tlps /= (double)used, o->lines /= (double)used, o->bursts /= (double)used;
}

/*
 * A DMA read of s bytes: its MRd requests and CplD completions, with what sized them. d is the
 * buffer's placed split (dma_offset), or NULL for a read from the start of an MRRS block.
 * pcie-model (compat) takes MPS-sized completions, RCB-sized with rcb_chunks (pcie.py,
 * mem_bw.py).
 */
static void read_split(const struct pcibw_bus *b, bool compat, const struct split *d, double s,
		       struct pcibw_read_split *o)
{
	*o = (struct pcibw_read_split){0};
	if (d) {
		o->requests = d->reqs;
		o->completions = d->cpls;
		o->set_by = d->set_by;
		return;
	}
	o->requests = tlps(s, b->mrrs_bytes);
	if (compat) {
		o->completions = tlps(s, b->rcb_chunks ? b->rcb_bytes : b->mps_bytes);
		o->set_by = b->rcb_chunks ? PCIBW_CPL_BY_RCB : PCIBW_CPL_BY_MPS;
	} else
		o->completions = read_completions(b, s, &o->set_by);
}

/* The bytes at which the requester cuts a posted write into MWr TLPs: MPS, or the device's write
 * bursts where they are smaller (a burst ends between TLPs, as split_at counts placed data).
 * Not in compat mode (pcie-model has no device limits) nor for an MSI (not a DMA command). */
static int write_cut(const struct pcibw_model_in *in, bool compat, const struct pcibw_op *op)
{
	int mps = in->bus->mps_bytes, burst = in->nic->write_burst_bytes;
	return !compat && op->kind == PCIBW_OP_DMA_WRITE && burst > 0 && burst < mps ? burst : mps;
}

/* Bytes per packet in each direction: wire bytes per TLP (non-Flit), or TLP bytes that
 * fill flits (Flit mode). */
static void cost_ops(const struct pcibw_model_in *in, const struct pcibw_recipe *rc, bool flit, double line,
		     struct acc *a)
{
	const struct pcibw_bus *b = in->bus;
	bool compat = in->compat == PCIBW_COMPAT_PCIE_BENCH && !flit;
	/* Flit mode drops the per-TLP STP token and LCRC (PCIe Base 6.0 sec. 4.2.3); the TLP trailer
	 * keeps ECRC in both modes */
	double framing = flit ? 0 : TLP_FRAMING;
	double dig = b->ecrc ? ECRC_BYTES : 0;
	double oh_mem = framing + (b->addr32 ? HDR_MEM32 : HDR_MEM64) + dig;
	double oh_cpl = framing + HDR_CPL + dig;
	for (int i = 0; i < rc->n; i++) {
		const struct pcibw_op *op = &rc->ops[i];
		double f = op->per_packet, s = op->bytes, n;
		/* line > 0: the bytes the root complex moves for a packet's data of s bytes, whole
		 * host cache lines (the TLPs on the link still carry s). Descriptors and write-backs
		 * are not rounded: drivers lay them out and batch them in whole lines. */
		double sl = line > 0 && op->role == PCIBW_ROLE_DATA ? ceil(s / line) * line : s;
		/* a data buffer off its page's alignment: its TLPs and lines where they fall */
		struct split d;
		struct pcibw_read_split rs;
		bool placed = !compat && b->dma_offset != 0 && op->role == PCIBW_ROLE_DATA &&
			      (op->kind == PCIBW_OP_DMA_WRITE || op->kind == PCIBW_OP_DMA_READ);
		if (placed) {
			data_split(b, s, in->nic->write_burst_bytes, &d);
			if (line > 0)
				sl = d.lines * line;
		}
		switch (op->kind) {
		case PCIBW_OP_DMA_WRITE:
		case PCIBW_OP_MSI:
			n = placed ? d.wr_tlps : tlps(s, write_cut(in, compat, op));
			/* pcie-bench quirk (simple_nic.py, niantic.py: `rx_tx_data_B = ...`): the RX
			 * packet write *assigns* the device->host byte count, dropping what the RX path
			 * had added before it -- the descriptor fetch's MRd header. */
			if (compat && op->role == PCIBW_ROLE_DATA && op->path == PCIBW_PATH_RX &&
			    in->pattern != PCIBW_PAT_DMA_WRITE && in->pattern != PCIBW_PAT_DMA_RW)
				for (int j = 0; j < i; j++)
					if (rc->ops[j].path == PCIBW_PATH_RX &&
					    rc->ops[j].kind == PCIBW_OP_DMA_READ)
						a->to_host -= rc->ops[j].per_packet *
							      tlps(rc->ops[j].bytes, b->mrrs_bytes) * oh_mem;
			a->to_host += f * (sl + n * oh_mem);
			a->dev_writes += f * n;
			/* the write engine pulls a write's data from device memory in whole units,
			 * however the write is then cut into TLPs (an MSI is not a DMA command) */
			if (op->kind == PCIBW_OP_DMA_WRITE && in->nic->write_unit_bytes > 0 && s > 0)
				a->engine_ns +=
				    f * (in->nic->write_cmd_ns +
					 tlps(s, in->nic->write_unit_bytes) * in->nic->write_unit_ns);
			/* and sends it in bursts: their TLPs back to back, then the link idles */
			if (op->kind == PCIBW_OP_DMA_WRITE && in->nic->write_burst_bytes > 0 && s > 0) {
				a->burst_bytes += f * (s + n * oh_mem);
				a->burst_gaps_ns += f * in->nic->write_burst_gap_ns *
						    (placed ? d.bursts : tlps(s, in->nic->write_burst_bytes));
			}
			break;
		case PCIBW_OP_DMA_READ:
			read_split(b, compat, placed ? &d : NULL, s, &rs);
			a->to_host += f * rs.requests * oh_mem;
			a->dev_reads += f * rs.requests;
			a->to_dev += f * (sl + rs.completions * oh_cpl);
			break;
		case PCIBW_OP_MMIO_WRITE:
			a->to_dev += f * (s + tlps(s, b->mps_bytes) * oh_mem);
			break;
		case PCIBW_OP_MMIO_READ:
			a->to_dev += f * oh_mem;
			a->to_host += f * (s + oh_cpl);
			a->stall_reads += f;
			break;
		}
	}
}

/*
 * The host behaviour of one evaluation (doc/model.md sec. 8): copies of the bus and the profile
 * with the band's terms applied, and whether the root complex's whole-line charge counts. A term
 * the bus states stays as stated: cpl=rcb|mps (rcb_chunks), numa=, iommu=on (the gap).
 */
struct host {
	struct pcibw_model_in in;
	struct pcibw_bus bus;
	struct pcibw_nic nic;
	bool lines;
};

static void host_terms(const struct pcibw_model_in *in, struct host *h)
{
	h->in = *in;
	h->bus = *in->bus;
	h->nic = *in->nic;
	h->in.bus = &h->bus;
	h->in.nic = &h->nic;
	/* PCIe Base 5.0 sec. 2.3.1.1: a completer may split a request at any RCB-aligned address or
	 * return it in MPS pieces; the length rule is what the measured root complexes do */
	enum pcibw_band cpl = pcibw_term_band(in, PCIBW_TERM_CPL);
	if (!h->bus.rcb_chunks && !h->bus.cpl_mps) {
		h->bus.rcb_chunks = cpl == PCIBW_BAND_LOW;
		h->bus.cpl_mps = cpl == PCIBW_BAND_HIGH;
	}
	/* the charge binds reads and writes that end mid-line; one-request reads on the E5 hosts
	 * run at the link's pace instead (doc/model.md sec. 5, 8) */
	h->lines = pcibw_term_band(in, PCIBW_TERM_LINES) != PCIBW_BAND_HIGH;
	/* every IOMMU-on sweep gives the profile's gap; the slow gap is two platforms' IOMMU-off */
	if (h->nic.write_burst_gap_max_ns > 0 && in->bus->iommu != PCIBW_HOST_ON &&
	    pcibw_term_band(in, PCIBW_TERM_BURST_GAP) == PCIBW_BAND_LOW)
		h->nic.write_burst_gap_ns = h->nic.write_burst_gap_max_ns;
	if (h->nic.read_latency_remote_ns > 0 &&
	    (in->bus->numa == PCIBW_HOST_ON || (in->bus->numa == PCIBW_HOST_UNSTATED &&
						pcibw_term_band(in, PCIBW_TERM_NUMA) == PCIBW_BAND_LOW)))
		h->nic.read_latency_ns = h->nic.read_latency_remote_ns;
}

static void add_load(struct pcibw_bus_cost *c, double s, const char *name)
{
	if (s > 0 && c->n_loads < 6) {
		c->load_s[c->n_loads] = s;
		c->load_name[c->n_loads++] = name;
	}
}

/* Flits per packet in each direction (fractional: TLPs of successive packets share flits). */
int pcibw_pcie_flits(const struct pcibw_model_in *in, const struct pcibw_recipe *rc, double *to_dev,
		     double *to_host)
{
	struct acc a = {0};
	cost_ops(in, rc, true, 0, &a);
	*to_dev = a.to_dev / FLIT_TLP_BYTES;
	*to_host = a.to_host / FLIT_TLP_BYTES;
	return PCIBW_OK;
}

int pcibw_pcie_cost(const struct pcibw_model_in *in0, const struct pcibw_recipe *rc, double data_bytes,
		    struct pcibw_bus_cost *out, struct pcibw_err *err)
{
	struct host h;
	host_terms(in0, &h);
	const struct pcibw_model_in *in = &h.in;
	const struct pcibw_bus *b = in->bus;
	const struct pcibw_nic *nic = in->nic;
	bool compat = in->compat == PCIBW_COMPAT_PCIE_BENCH;
	struct acc a = {0};
	double budget = 0, dllp = 0, wire = 0; /* wire: TLP bytes/s of a link sending back to back */
	(void)data_bytes;
	if (b->lanes <= 0 || !(b->gts > 0))
		return pcibw_fail(err, PCIBW_EUSAGE, "PCIe bus without a link speed or width");
	if (compat && b->dma_offset != 0)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--compat pcie-bench: pcie-model has no DMA buffer offset (dma_offset=)");
	if (b->flit && !compat) {
		/* the flit stream: GT/s x lanes x line encoding, 256 B per flit; report wire bytes
		 * (whole flits' worth) so to_*_bytes stay comparable with the non-Flit accounting */
		double flits_per_s =
		    b->gts * 1e9 * b->lanes * pcibw_pcie_encoding(b->gts, false) / (8.0 * FLIT_BYTES);
		cost_ops(in, rc, true, 0, &a);
		budget = flits_per_s * FLIT_TLP_BYTES; /* TLP bytes per second per direction */
		wire = budget;
		out->to_device_bytes = a.to_dev * FLIT_BYTES / FLIT_TLP_BYTES;
		out->to_host_bytes = a.to_host * FLIT_BYTES / FLIT_TLP_BYTES;
	} else {
		int st = tlp_budget(b, compat, &budget, &dllp, err);
		if (st)
			return st;
		wire = compat ? budget : budget / LINK_EFFICIENCY;
		cost_ops(in, rc, false, 0, &a);
		out->to_device_bytes = a.to_dev;
		out->to_host_bytes = a.to_host;
	}
	/* each direction: its TLPs, plus the DLLPs answering the other direction's TLPs */
	double dev_bytes = a.to_dev + dllp * a.to_host, host_bytes = a.to_host + dllp * a.to_dev;
	out->n_loads = 0;
	add_load(out, dev_bytes / budget, "to-device");
	add_load(out, host_bytes / budget, "to-host");
	/* The root complex moves DMA data in whole cache lines: a read or write that ends mid-line
	 * costs the whole line there (a partial-line write is a read-modify-write of the line, a
	 * partial read still fetches it; Neugebauer et al., SIGCOMM 2018, sec. 6: throughput drops
	 * for transfers that are not a multiple of 64 B). It keeps pace with the link for whole
	 * lines, so each direction is a second resource: its TLPs with the data rounded up to lines.
	 * Not in compat mode (pcie-model counts link bytes only). */
	if (!compat && h.lines) {
		struct acc l = {0};
		cost_ops(in, rc, b->flit, HOST_LINE_BYTES, &l);
		double ldev = l.to_dev + dllp * l.to_host, lhost = l.to_host + dllp * l.to_dev;
		/* always both, so a size mix averages the same resources at every size; where the
		 * data is whole lines they tie with the link and the link is named */
		add_load(out, ldev / budget, "root-complex");
		add_load(out, lhost / budget, "root-complex");
	}
	/* Device limits (never in compat mode: pcie-model has none). A posted write needs no tag,
	 * so the engine's issue rate and data movement bound writes; a read holds one of read_tags tags for
	 * read_latency_ns (Little's law: reads/s <= tags / latency). */
	/* The write engine is one resource seen two ways: its TLP issue rate and the time it takes
	 * to move each command's data in whole units; the slower view binds. */
	double engine_s =
	    fmax(nic->max_dma_tps > 0 ? a.dev_writes / nic->max_dma_tps : 0, a.engine_ns * 1e-9);
	/* A third view of the same engine: it sends each write in bursts, a burst's TLPs back to
	 * back at the line rate (after encoding and SKP), then leaves the link idle for the gap.
	 * The link view's efficiency factor stands in for pacing the spec does not fix; for this
	 * engine's writes the bursts are that pacing, so this view takes the bare line rate. */
	if (a.burst_bytes > 0)
		engine_s = fmax(engine_s, a.burst_bytes / wire + a.burst_gaps_ns * 1e-9);
	if (!compat && engine_s > 0)
		add_load(out, engine_s, "device-tps");
	if (!compat && nic->read_tags > 0 && nic->read_latency_ns > 0)
		add_load(out, a.dev_reads * nic->read_latency_ns * 1e-9 / nic->read_tags, "read-latency");
	double worst = 0;
	out->bound_by = "to-host";
	for (int k = 0; k < out->n_loads; k++)
		if (out->load_s[k] > worst) {
			worst = out->load_s[k];
			out->bound_by = out->load_name[k];
		}
	if (!(worst > 0))
		return pcibw_fail(err, PCIBW_EINTERNAL, "a packet that costs the PCIe link nothing");
	out->pps = 1.0 / worst;
	/* time the packet's TLPs hold the busier direction */
	out->bus_ns_per_packet = fmax(dev_bytes, host_bytes) / budget * 1e9;
	/* a CPU register read waits for the round trip; the profile's read latency is the DMA
	 * direction's, so without a figure this stays 0 rather than a guess */
	out->cpu_stall_ns = a.stall_reads * nic->read_latency_ns;
	return PCIBW_OK;
}

int pcibw_pcie_read_split(const struct pcibw_model_in *in0, const struct pcibw_op *op,
			  struct pcibw_read_split *out)
{
	struct host h;
	host_terms(in0, &h);
	const struct pcibw_model_in *in = &h.in;
	const struct pcibw_bus *b = in->bus;
	bool compat = in->compat == PCIBW_COMPAT_PCIE_BENCH;
	struct split d;
	*out = (struct pcibw_read_split){0};
	if (b->kind != PCIBW_BUS_PCIE || op->kind != PCIBW_OP_DMA_READ || !(op->bytes > 0))
		return 0;
	/* the placement cost_ops applies to a data buffer */
	bool placed = !compat && b->dma_offset != 0 && op->role == PCIBW_ROLE_DATA;
	if (placed)
		data_split(b, op->bytes, in->nic->write_burst_bytes, &d);
	read_split(b, compat, placed ? &d : NULL, op->bytes, out);
	return 1;
}

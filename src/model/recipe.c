/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A NIC profile -> the bus operations one packet costs. The sequence per path follows the
 * descriptor-ring protocol common to the 8254x/82599/X710 families (82599 datasheet sec. 1.9.1
 * "Transmit Data Flow" and 1.9.2 "Receive Data Flow"; the same steps pcie-bench's simple_nic.py
 * and niantic.py count): tail write, descriptor fetch, data DMA, write-back, interrupt, head read.
 * Batching turns an operation into a fraction per packet.
 */
#include "pcibw/nic.h"
#include <math.h>
#include <stdbool.h>

static int gcd(int a, int b)
{
	while (b) {
		int t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static void note_batch(struct pcibw_recipe *r, int batch)
{
	if (batch <= 1)
		return;
	long l = (long)r->batch_packets / gcd(r->batch_packets, batch) * batch;
	if (l < 1000000)
		r->batch_packets = (int)l;
}

static int add(struct pcibw_recipe *r, enum pcibw_op_kind k, enum pcibw_op_role role, enum pcibw_path p,
	       double bytes, double per_packet, const char *keys, struct pcibw_err *err)
{
	if (per_packet <= 0 || bytes <= 0)
		return PCIBW_OK;
	if (r->n >= PCIBW_MAX_OPS)
		return pcibw_fail(err, PCIBW_EINTERNAL, "recipe has more than %d operations", PCIBW_MAX_OPS);
	r->ops[r->n++] = (struct pcibw_op){k, role, p, bytes, per_packet, keys};
	return PCIBW_OK;
}

static double round_up(double bytes, int unit)
{
	return unit > 0 ? ceil(bytes / unit) * unit : bytes;
}

/* An inline segment: a 4 B byte count, then the data, in 16 B descriptor units (mlx5 ifc
 * struct mlx5_wqe_inline_seg, MLX5_SEND_WQE_DS; en/xdp.c mlx5e_xdp_mpwqe_add_dseg). */
static double inline_seg(double data)
{
	return round_up(data + 4, 16);
}

/* Transmit descriptors: bytes per descriptor and packets per descriptor. A multi-packet
 * descriptor (desc_max_bytes > 0: mlx5 enhanced MPWQE, en/txrx.h MLX5E_TX_MPW_MAX_NUM_DS) is a
 * header of desc_bytes, then one segment per packet (a data pointer, or the packet inline) until
 * it is full, holds desc_packets or the doorbell rings. */
static void tx_desc(const struct pcibw_nic *n, double data, bool in_line, double *bytes, double *packets)
{
	double seg = in_line ? inline_seg(data) : n->tx_desc_packet_bytes;
	double k = 1;
	if (n->tx_desc_max_bytes > n->tx_desc_bytes && seg > 0) {
		k = floor((n->tx_desc_max_bytes - n->tx_desc_bytes) / seg);
		if (n->tx_desc_packets > 0 && k > n->tx_desc_packets)
			k = n->tx_desc_packets;
		/* the driver closes the descriptor when it rings the doorbell (en_tx.c
		 * mlx5e_sq_xmit_mpwqe: !xmit_more; en/xdp.c at mlx5e_xmit_xdp_doorbell) */
		if (n->tx_doorbell_batch > 0 && k > n->tx_doorbell_batch)
			k = n->tx_doorbell_batch;
		if (k < 1)
			k = 1;
	}
	*bytes = n->tx_desc_bytes + k * seg;
	*packets = k;
}

/* Receive descriptors: packets one descriptor serves. A striding one (mlx5 striding RQ, en.h
 * MLX5_MPWRQ_LOG_WQE_SZ) holds desc_strides strides of stride_bytes; a packet starts on a stride
 * and takes ceil(size / stride) of them (en_rx.c mlx5e_handle_rx_cqe_mpwrq: consumed_strides). */
static double rx_packets_per_desc(const struct pcibw_nic *n, double data)
{
	if (n->rx_stride_bytes <= 0 || n->rx_desc_strides <= 1)
		return 1;
	double per = ceil(data / n->rx_stride_bytes), k = floor(n->rx_desc_strides / per);
	return k < 1 ? 1 : k;
}

/* One path of a ring: NIC transmit (the device reads the packet) or receive (it writes it). */
static int ring_path(const struct pcibw_nic *n, enum pcibw_path p, double data, bool irq,
		     struct pcibw_recipe *r, struct pcibw_err *err)
{
	bool tx = p == PCIBW_PATH_TX;
	int db = tx ? n->tx_doorbell_batch : n->rx_doorbell_batch;
	int fetch = tx ? n->tx_desc_fetch_batch : n->rx_desc_fetch_batch;
	int wb = tx ? n->tx_wb_bytes : n->rx_wb_bytes;
	int wbb = tx ? n->tx_wb_batch : n->rx_wb_batch;
	int head = tx ? n->tx_head_read_batch : n->rx_head_read_batch;
	int rc = 0;

	if (fetch < 1)
		fetch = 1;
	if (wbb < 1)
		wbb = 1;
	double payload = round_up(data + n->pkt_header_bytes, n->cacheline_bytes);
	/* 1. the driver writes the tail register (doorbell) */
	if (db > 0)
		rc |= add(r, PCIBW_OP_MMIO_WRITE, PCIBW_ROLE_DOORBELL, p, n->doorbell_bytes, 1.0 / db,
			  tx ? "tx.doorbell_batch host.doorbell_bytes"
			     : "rx.doorbell_batch host.doorbell_bytes",
			  err);
	/* 2. the device fetches descriptors, `fetch` of them in one read; a descriptor may serve
	 * several packets (multi-packet send, striding receive) and carry small packets inline */
	double desc, per_desc;
	bool in_line = tx && n->tx_inline_max_bytes > 0 && data <= n->tx_inline_max_bytes;
	if (tx) {
		tx_desc(n, data, in_line, &desc, &per_desc);
	} else {
		desc = n->rx_desc_bytes;
		per_desc = rx_packets_per_desc(n, data);
	}
	rc |= add(r, PCIBW_OP_DMA_READ, PCIBW_ROLE_DESC_READ, p, desc * fetch, 1.0 / (fetch * per_desc),
		  tx ? "tx.desc_bytes tx.desc_fetch_batch tx.desc_max_bytes tx.desc_packet_bytes "
		       "tx.desc_packets tx.inline_max_bytes"
		     : "rx.desc_bytes rx.desc_fetch_batch rx.stride_bytes rx.desc_strides",
		  err);
	if (!tx && n->rx_desc_map_bytes > 0)
		rc |= add(r, PCIBW_OP_DMA_READ, PCIBW_ROLE_DESC_MAP, p, n->rx_desc_map_bytes, 1.0 / per_desc,
			  "rx.desc_map_bytes rx.stride_bytes rx.desc_strides", err);
	/* 3. the packet: read from host memory on transmit (less what the descriptor carried),
	 * written on receive */
	if (tx) {
		double rd = in_line ? 0 : payload - n->tx_inline_header_bytes;
		if (rd > 0)
			rc |= add(r, PCIBW_OP_DMA_READ, PCIBW_ROLE_DATA, p, rd, 1.0,
				  "frame tx.inline_header_bytes host.cacheline_bytes", err);
	} else {
		rc |= add(r, PCIBW_OP_DMA_WRITE, PCIBW_ROLE_DATA, p, payload, 1.0,
			  "frame host.strip_fcs host.cacheline_bytes", err);
	}
	/* 4. write-back: `wbb` descriptors in one write; a multi-packet descriptor completes once.
	 * Compressed receive completions (mlx5 en_rx.c mlx5e_decompress_cqes_start): a session of
	 * rx_wb_session packets writes one full entry (the title) and packs the rest
	 * rx_wb_compress to an entry (MLX5_MINI_CQE_ARRAY_SIZE 8 mini CQEs of 8 B) */
	if (wb > 0) {
		if (!tx && n->rx_wb_compress > 1) {
			double s = n->rx_wb_session > 1 ? n->rx_wb_session : 0;
			double entries =
			    s > 0 ? (1 + ceil((s - 1) / n->rx_wb_compress)) / s : 1.0 / n->rx_wb_compress;
			rc |= add(r, PCIBW_OP_DMA_WRITE, PCIBW_ROLE_DESC_WB, p, wb, entries,
				  "rx.wb_bytes rx.wb_compress rx.wb_session", err);
		} else if (tx && n->tx_wb_stride > 0) {
			rc |= add(r, PCIBW_OP_DMA_WRITE, PCIBW_ROLE_DESC_WB, p, wb,
				  1.0 / (n->tx_wb_stride * per_desc), "tx.wb_bytes tx.wb_stride", err);
		} else {
			rc |= add(r, PCIBW_OP_DMA_WRITE, PCIBW_ROLE_DESC_WB, p, (double)wb * wbb,
				  1.0 / (wbb * (tx ? per_desc : 1)),
				  tx ? "tx.wb_bytes tx.wb_batch" : "rx.wb_bytes rx.wb_batch rx.wb_compress",
				  err);
		}
	}
	/* 5. the interrupt (MSI/MSI-X is a memory write; INTx is a wire, no bus write), the event
	 * entry the device writes with it, the handler's cause-register reads and the doorbells that
	 * re-arm the queues; irq false: the other path's interrupt serves this one (irq_shared) */
	if (irq && n->irq_batch > 0) {
		double f = 1.0 / n->irq_batch;
		rc |= add(r, PCIBW_OP_MSI, PCIBW_ROLE_IRQ, p, n->irq_bytes, f,
			  "host.irq_batch host.irq_bytes", err);
		rc |= add(r, PCIBW_OP_DMA_WRITE, PCIBW_ROLE_IRQ_ENTRY, p, n->irq_entry_bytes, f,
			  "host.irq_batch host.irq_entry_bytes", err);
		rc |= add(r, PCIBW_OP_MMIO_READ, PCIBW_ROLE_ICR_READ, p, n->head_read_bytes,
			  (double)n->icr_reads_per_irq * f, "host.irq_batch host.icr_reads_per_irq", err);
		rc |= add(r, PCIBW_OP_MMIO_WRITE, PCIBW_ROLE_IRQ_ARM, p, n->doorbell_bytes,
			  (double)n->irq_arm_writes * f, "host.irq_batch host.irq_arm_writes", err);
	}
	/* 6. the driver reads the head register to learn what the device has done */
	if (head > 0)
		rc |= add(r, PCIBW_OP_MMIO_READ, PCIBW_ROLE_HEAD_READ, p, n->head_read_bytes, 1.0 / head,
			  tx ? "tx.head_read_batch host.head_read_bytes"
			     : "rx.head_read_batch host.head_read_bytes",
			  err);
	note_batch(r, db);
	note_batch(r, fetch);
	note_batch(r, wbb);
	note_batch(r, tx ? n->tx_wb_stride : 0);
	note_batch(r, n->irq_batch);
	note_batch(r, head);
	return rc ? (err ? (int)err->code : PCIBW_EINTERNAL) : PCIBW_OK;
}

int pcibw_nic_recipe(const struct pcibw_nic *nic, enum pcibw_pattern pat, double dma_bytes,
		     struct pcibw_recipe *out, struct pcibw_err *err)
{
	if (!(dma_bytes > 0) || !isfinite(dma_bytes))
		return pcibw_fail(err, PCIBW_EUSAGE, "a packet must DMA at least one byte (got %g)",
				  dma_bytes);
	out->n = 0;
	out->batch_packets = 1;
	int rc = PCIBW_OK;
	/* the FCS travels over the bus only on receive, and only when the NIC does not strip it;
	 * on transmit the MAC appends it (8254x/82599 TX descriptor CMD.IFCS) */
	double rx_data = dma_bytes + (nic->strip_fcs ? 0 : 4);
	switch (pat) {
	case PCIBW_PAT_TX:
		rc = ring_path(nic, PCIBW_PATH_TX, dma_bytes, true, out, err);
		break;
	case PCIBW_PAT_RX:
		rc = ring_path(nic, PCIBW_PATH_RX, rx_data, true, out, err);
		break;
	case PCIBW_PAT_BOTH:
		/* irq_shared: the rings of a queue pair share one vector (one INTx line on the 8254x),
		 * so an echoed packet's transmit completion is cleaned by the interrupt its receive
		 * raised: interrupts come once per irq_batch packet pairs, not once per path */
		rc = ring_path(nic, PCIBW_PATH_TX, dma_bytes, !nic->irq_shared, out, err);
		if (!rc)
			rc = ring_path(nic, PCIBW_PATH_RX, rx_data, true, out, err);
		break;
	/* Bare DMA (pcie-bench's BW_DMA_RD/WR/RW tests): the data and nothing else. */
	case PCIBW_PAT_DMA_READ:
		rc = add(out, PCIBW_OP_DMA_READ, PCIBW_ROLE_DATA, PCIBW_PATH_TX, dma_bytes, 1.0, "size", err);
		break;
	case PCIBW_PAT_DMA_WRITE:
		rc =
		    add(out, PCIBW_OP_DMA_WRITE, PCIBW_ROLE_DATA, PCIBW_PATH_RX, dma_bytes, 1.0, "size", err);
		break;
	case PCIBW_PAT_DMA_RW:
		rc = add(out, PCIBW_OP_DMA_READ, PCIBW_ROLE_DATA, PCIBW_PATH_TX, dma_bytes, 1.0, "size", err);
		if (!rc)
			rc = add(out, PCIBW_OP_DMA_WRITE, PCIBW_ROLE_DATA, PCIBW_PATH_RX, dma_bytes, 1.0,
				 "size", err);
		break;
	default:
		return pcibw_fail(err, PCIBW_EUSAGE, "unknown traffic pattern %d", (int)pat);
	}
	return rc;
}

const char *pcibw_op_name(const struct pcibw_op *op)
{
	switch (op->role) {
	case PCIBW_ROLE_DATA:
		return op->kind == PCIBW_OP_DMA_READ ? "data-read" : "data-write";
	case PCIBW_ROLE_DESC_READ:
		return "desc-read";
	case PCIBW_ROLE_DESC_WB:
		return "desc-wb";
	case PCIBW_ROLE_DOORBELL:
		return "doorbell";
	case PCIBW_ROLE_HEAD_READ:
		return "head-read";
	case PCIBW_ROLE_IRQ:
		return "msi";
	case PCIBW_ROLE_ICR_READ:
		return "irq-read";
	case PCIBW_ROLE_DESC_MAP:
		return "desc-map";
	case PCIBW_ROLE_IRQ_ENTRY:
		return "event-entry";
	case PCIBW_ROLE_IRQ_ARM:
		return "irq-arm";
	}
	return "unknown";
}

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
	       double bytes, double per_packet, struct pcibw_err *err)
{
	if (per_packet <= 0 || bytes <= 0)
		return PCIBW_OK;
	if (r->n >= PCIBW_MAX_OPS)
		return pcibw_fail(err, PCIBW_EINTERNAL, "recipe has more than %d operations", PCIBW_MAX_OPS);
	r->ops[r->n++] = (struct pcibw_op){k, role, p, bytes, per_packet};
	return PCIBW_OK;
}

static double round_up(double bytes, int unit)
{
	return unit > 0 ? ceil(bytes / unit) * unit : bytes;
}

/* One path of a ring: NIC transmit (the device reads the packet) or receive (it writes it). */
static int ring_path(const struct pcibw_nic *n, enum pcibw_path p, double data, bool irq,
		     struct pcibw_recipe *r, struct pcibw_err *err)
{
	bool tx = p == PCIBW_PATH_TX;
	int db = tx ? n->tx_doorbell_batch : n->rx_doorbell_batch;
	int desc = tx ? n->tx_desc_bytes : n->rx_desc_bytes;
	int fetch = tx ? n->tx_desc_fetch_batch : n->rx_desc_fetch_batch;
	int wb = tx ? n->tx_wb_bytes : n->rx_wb_bytes;
	int wbb = tx ? n->tx_wb_batch : n->rx_wb_batch;
	int head = tx ? n->tx_head_read_batch : n->rx_head_read_batch;
	int rc = 0;

	if (fetch < 1)
		fetch = 1;
	if (wbb < 1)
		wbb = 1;
	/* 1. the driver writes the tail register (doorbell) */
	if (db > 0)
		rc |= add(r, PCIBW_OP_MMIO_WRITE, PCIBW_ROLE_DOORBELL, p, n->doorbell_bytes, 1.0 / db, err);
	/* 2. the device fetches descriptors, `fetch` of them in one read */
	rc |= add(r, PCIBW_OP_DMA_READ, PCIBW_ROLE_DESC_READ, p, (double)desc * fetch, 1.0 / fetch, err);
	/* 3. the packet: read from host memory on transmit, written on receive */
	rc |= add(r, tx ? PCIBW_OP_DMA_READ : PCIBW_OP_DMA_WRITE, PCIBW_ROLE_DATA, p,
		  round_up(data + n->pkt_header_bytes, n->cacheline_bytes), 1.0, err);
	/* 4. descriptor write-back, `wbb` descriptors in one write */
	if (wb > 0)
		rc |= add(r, PCIBW_OP_DMA_WRITE, PCIBW_ROLE_DESC_WB, p, (double)wb * wbb, 1.0 / wbb, err);
	/* 5. the interrupt (MSI/MSI-X is a memory write; INTx is a wire, no bus write) and the
	 * cause-register reads of its handler; irq false: the other path's interrupt serves this
	 * one too (irq_shared) */
	if (irq && n->irq_batch > 0) {
		rc |= add(r, PCIBW_OP_MSI, PCIBW_ROLE_IRQ, p, n->irq_bytes, 1.0 / n->irq_batch, err);
		rc |= add(r, PCIBW_OP_MMIO_READ, PCIBW_ROLE_ICR_READ, p, n->head_read_bytes,
			  (double)n->icr_reads_per_irq / n->irq_batch, err);
	}
	/* 6. the driver reads the head register to learn what the device has done */
	if (head > 0)
		rc |=
		    add(r, PCIBW_OP_MMIO_READ, PCIBW_ROLE_HEAD_READ, p, n->head_read_bytes, 1.0 / head, err);
	note_batch(r, db);
	note_batch(r, fetch);
	note_batch(r, wbb);
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
		rc = add(out, PCIBW_OP_DMA_READ, PCIBW_ROLE_DATA, PCIBW_PATH_TX, dma_bytes, 1.0, err);
		break;
	case PCIBW_PAT_DMA_WRITE:
		rc = add(out, PCIBW_OP_DMA_WRITE, PCIBW_ROLE_DATA, PCIBW_PATH_RX, dma_bytes, 1.0, err);
		break;
	case PCIBW_PAT_DMA_RW:
		rc = add(out, PCIBW_OP_DMA_READ, PCIBW_ROLE_DATA, PCIBW_PATH_TX, dma_bytes, 1.0, err);
		if (!rc)
			rc =
			    add(out, PCIBW_OP_DMA_WRITE, PCIBW_ROLE_DATA, PCIBW_PATH_RX, dma_bytes, 1.0, err);
		break;
	default:
		return pcibw_fail(err, PCIBW_EUSAGE, "unknown traffic pattern %d", (int)pat);
	}
	return rc;
}

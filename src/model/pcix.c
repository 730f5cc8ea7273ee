/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conventional PCI and PCI-X: every transaction of every device on the segment, in both
 * directions, draws on one half-duplex budget of clocks (PCI LB 3.0 and PCI-X 2.0a: one
 * shared parallel bus). A packet's recipe is costed transaction by transaction (pci_timing.c); the
 * segment carries segment_devices such packets; PCI-X adds a second, per-device load: its split
 * reads in flight are bounded by the outstanding-split limit and the memory latency.
 */
#include "model_int.h"
#include "pci_timing.h"
#include <math.h>

/* The most a host bridge is documented to fetch for one Memory Read Multiple: 512 B bursts
 * (doc/model-pci.md "The band"); the band's high end where prefetch= is not stated. */
#define PCI_PREFETCH_HIGH_BYTES 512

static int check_bus(const struct pcibw_bus *b, struct pcibw_err *err)
{
	bool x = b->kind == PCIBW_BUS_PCIX;
	if (b->kind != PCIBW_BUS_PCI && !x)
		return pcibw_fail(err, PCIBW_EINTERNAL, "PCI/PCI-X model called for a %s bus",
				  pcibw_bus_kind_name(b->kind));
	if (b->clock_mhz <= 0 || b->clock_mhz > 133)
		return pcibw_fail(err, PCIBW_EUSAGE, "%s clock %d MHz: expected 33, 66, 100 or 133",
				  x ? "PCI-X" : "PCI", b->clock_mhz);
	if (b->width_bits != 32 && b->width_bits != 64)
		return pcibw_fail(err, PCIBW_EUSAGE, "%s width %d bits: expected 32 or 64",
				  x ? "PCI-X" : "PCI", b->width_bits);
	if (b->transfers_per_clock != 1 &&
	    !(x && (b->transfers_per_clock == 2 || b->transfers_per_clock == 4)))
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "%d transfers per clock: expected 1 (PCI-X 266: 2, 533: 4)",
				  b->transfers_per_clock);
	if (b->latency_timer < 0 || b->latency_timer > 255)
		return pcibw_fail(err, PCIBW_EUSAGE, "latency timer %d: expected 0..255 clocks",
				  b->latency_timer);
	if (x && (b->mmrbc_bytes < 512 || b->mmrbc_bytes > 4096))
		return pcibw_fail(err, PCIBW_EUSAGE, "MMRBC %d: expected 512, 1024, 2048 or 4096 bytes",
				  b->mmrbc_bytes);
	if (x && (b->splits < 1 || b->splits > 32))
		return pcibw_fail(err, PCIBW_EUSAGE, "%d outstanding splits: expected 1..32", b->splits);
	return PCIBW_OK;
}

/* One segment: the recipe's transactions on in->bus, for in->segment_devices masters. */
static int segment_cost(const struct pcibw_model_in *in, const struct pcibw_recipe *rc,
			struct pcibw_bus_cost *out, struct pcibw_err *err)
{
	int st = check_bus(in->bus, err);
	if (st)
		return st;
	struct pcibw_pci_timing t;
	int devices = in->segment_devices > 1 ? in->segment_devices : 1;
	pcibw_pci_timing_defaults(in->bus, devices, &t);
	/* the band (doc/model-pci.md "The band"): a host bridge that fetches only the line a
	 * delayed read asks for (PI7C8140A table 2-4, MR/MRL) .. one that fetches 512 B for MRM;
	 * split completions at every ADB .. whole (Intel 41210: only when its buffer runs dry) */
	if (in->bus->prefetch_bytes == 0) {
		enum pcibw_band pf = pcibw_term_band(in, PCIBW_TERM_PREFETCH);
		if (pf == PCIBW_BAND_LOW)
			t.prefetch_bytes = t.cacheline_bytes;
		else if (pf == PCIBW_BAND_HIGH)
			t.prefetch_bytes = PCI_PREFETCH_HIGH_BYTES;
	}
	if (t.pcix && pcibw_term_band(in, PCIBW_TERM_ADB) == PCIBW_BAND_HIGH)
		t.cpl_adb_disconnect = false;
	/* bridges stated (or found on the path) without their latency: the expected figure counts
	 * none (no datasheet in hand gives one), the band's low end each one's own primary-side
	 * transaction; taken with the expected ADB and prefetch settings so the terms stay apart */
	if (in->bus->bridges > 0 && !(in->bus->bridge_ns > 0) &&
	    pcibw_term_band(in, PCIBW_TERM_BRIDGE) == PCIBW_BAND_LOW) {
		struct pcibw_pci_timing e;
		pcibw_pci_timing_defaults(in->bus, devices, &e);
		t.bridge_ns = in->bus->bridges * pcibw_pci_bridge_hop_ns(&e);
	}

	double to_dev = 0, to_host = 0, read_ns = 0, stall_ns = 0;
	for (int i = 0; i < rc->n; i++) {
		const struct pcibw_op *op = &rc->ops[i];
		struct pcibw_pci_xfer x;
		/* a packet's data buffer where dma_offset puts it; descriptors stay aligned */
		t.offset_bytes =
		    op->role == PCIBW_ROLE_DATA && in->bus->dma_offset > 0 ? in->bus->dma_offset : 0;
		switch (op->kind) {
		case PCIBW_OP_DMA_WRITE:
		case PCIBW_OP_MSI: /* an MSI is a memory write of its data word */
			x = pcibw_pci_dma_write(&t, op->bytes);
			to_host += op->per_packet * x.clocks;
			break;
		case PCIBW_OP_DMA_READ:
			x = pcibw_pci_dma_read(&t, op->bytes);
			to_dev += op->per_packet * x.clocks;
			read_ns += op->per_packet * pcibw_pcix_read_time_ns(&t, op->bytes);
			break;
		case PCIBW_OP_MMIO_WRITE:
			x = pcibw_pci_mmio_write(&t, op->bytes);
			to_dev += op->per_packet * x.clocks;
			break;
		case PCIBW_OP_MMIO_READ:
			x = pcibw_pci_mmio_read(&t, op->bytes);
			to_host += op->per_packet * x.clocks;
			stall_ns += op->per_packet * pcibw_pci_mmio_stall_ns(&t, op->bytes);
			break;
		default:
			return pcibw_fail(err, PCIBW_EINTERNAL, "recipe operation of unknown kind %d",
					  (int)op->kind);
		}
	}
	double clocks = to_dev + to_host;
	if (!(clocks > 0))
		return pcibw_fail(err, PCIBW_EINTERNAL, "a packet that costs the bus nothing");
	double ns_per_clock = 1e9 / t.clock_hz;
	out->to_device_bytes = to_dev * t.bytes_per_clock;
	out->to_host_bytes = to_host * t.bytes_per_clock;
	out->bus_ns_per_packet = clocks * ns_per_clock;
	out->cpu_stall_ns = stall_ns;
	/* every device on the segment moves the same traffic through the one budget */
	out->n_loads = 1;
	out->load_s[0] = devices * clocks / t.clock_hz;
	out->load_name[0] = "shared";
	if (read_ns > 0) {
		out->n_loads = 2;
		out->load_s[1] = read_ns * 1e-9;
		out->load_name[1] = "read-latency";
	}
	int worst = out->n_loads == 2 && out->load_s[1] > out->load_s[0] ? 1 : 0;
	out->pps = 1.0 / out->load_s[worst];
	out->bound_by = out->load_name[worst];
	return PCIBW_OK;
}

/*
 * A card with its own bridge (card_bridge=): every transaction of the card's functions crosses
 * two segments, the card's (where they are the masters) and the slot's (where the card's bridge
 * repeats them: a PCI-X bridge forwards posted writes and split reads as such, PCI-X 2.0a
 * sec. 8), so the packet draws on both budgets; the card's reads also wait for the card's
 * bridge, one more on the path (bridges + 1, pcibw_pci_bridge_hop_ns when its latency is not
 * stated). Each segment's clocks are those of its own clock and width.
 */
int pcibw_pcix_cost(const struct pcibw_model_in *in, const struct pcibw_recipe *rc, double data_bytes,
		    struct pcibw_bus_cost *out, struct pcibw_err *err)
{
	(void)data_bytes; /* the recipe already carries every transfer */
	if (in->bus->card.kind == PCIBW_BUS_UNKNOWN)
		return segment_cost(in, rc, out, err);
	struct pcibw_bus slot = *in->bus, card;
	slot.card.kind = PCIBW_BUS_UNKNOWN;
	card = slot;
	card.kind = in->bus->card.kind;
	card.clock_mhz = in->bus->card.clock_mhz;
	card.width_bits = in->bus->card.width_bits;
	card.transfers_per_clock = in->bus->card.transfers_per_clock;
	card.bridges = slot.bridges + 1;
	struct pcibw_model_in on_slot = *in, on_card = *in;
	on_slot.bus = &slot;
	on_card.bus = &card;
	struct pcibw_bus_cost s = {0}, c = {0};
	int st = segment_cost(&on_slot, rc, &s, err);
	if (!st)
		st = segment_cost(&on_card, rc, &c, err);
	if (st)
		return st;
	/* the slot's bytes (what the host side sees); the card's segment and its read latency
	 * (the functions' reads, behind one more bridge) as loads of their own */
	*out = s;
	out->n_loads = 0;
	out->load_s[out->n_loads] = s.load_s[0];
	out->load_name[out->n_loads++] = "shared";
	out->load_s[out->n_loads] = c.load_s[0];
	out->load_name[out->n_loads++] = "card-segment";
	if (c.n_loads == 2) {
		out->load_s[out->n_loads] = c.load_s[1];
		out->load_name[out->n_loads++] = "read-latency";
	}
	/* the card's registers: MMIO goes through both bridges, its stall is the card side's */
	out->cpu_stall_ns = c.cpu_stall_ns;
	int worst = 0;
	for (int k = 1; k < out->n_loads; k++)
		if (out->load_s[k] > out->load_s[worst])
			worst = k;
	out->pps = 1.0 / out->load_s[worst];
	out->bound_by = out->load_name[worst];
	return PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Raw bandwidth of one hop, and a probed device as a model bus. */
#include "pcibw/bus.h"
#include "probe_int.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The arithmetic is the model's (pcibw_bus_raw_gbps over pcibw/busfacts.h: 128b/130b exact
 * rather than the kernel's integer 7876 Mb/s; nominal PCI clocks), so a report and a model of
 * the same bus agree. A 64 GT/s link counts as flit even when Link Status 2 was not in the
 * source (pcibw_pcie_flit_required). */
double probe_hop_gbps(enum pcibw_bus_kind kind, double gts, int width, int flit, int mhz, int width_bits,
		      enum pcibw_pcix_mode mode)
{
	struct pcibw_bus b;
	memset(&b, 0, sizeof b);
	b.kind = kind;
	if (kind == PCIBW_BUS_PCIE) {
		if (isnan(gts) || width <= 0)
			return NAN;
		b.gts = gts;
		b.lanes = width;
		b.flit = flit == 1 || pcibw_pcie_flit_required(gts);
		return pcibw_bus_raw_gbps(&b);
	}
	if (kind == PCIBW_BUS_PCI || kind == PCIBW_BUS_PCIX) {
		if (mhz <= 0 || width_bits <= 0)
			return NAN;
		b.clock_mhz = mhz;
		b.width_bits = width_bits;
		b.transfers_per_clock = pcibw_pcix_transfers_per_clock(mode);
		return pcibw_bus_raw_gbps(&b);
	}
	return NAN;
}

int pcibw_bus_from_device(const struct pcibw_device *d, struct pcibw_bus *out, struct pcibw_err *err)
{
	pcibw_bus_defaults(out);
	if (d->is_virtual) {
		out->kind = PCIBW_BUS_VIRTUAL;
		return PCIBW_OK;
	}
	switch (d->bus_kind) {
	case PCIBW_BUS_PCIE:
		if (isnan(d->link_speed_gts) || d->link_width <= 0)
			return pcibw_fail(err, PCIBW_ENOTHERE,
					  "%s: link speed and width unknown "
					  "(the source shows no PCIe link status)",
					  d->slot);
		out->kind = PCIBW_BUS_PCIE;
		out->gts = d->link_speed_gts;
		out->lanes = d->link_width;
		if (pcibw_device_is_onpackage(d->vendor_id, d->device_id) && d->n_path > 0) {
			/* An on-package MAC's own link is internal (the X722 reads 2.5 GT/s x1 yet moves
			 * 10 GbE): the first physical ceiling is the chipset's uplink, the root-most hop. */
			const struct pcibw_hop *up = &d->path[d->n_path - 1];
			if (up->bus_kind == PCIBW_BUS_PCIE && !isnan(up->link_speed_gts) &&
			    up->link_width > 0) {
				snprintf(out->note, sizeof out->note,
					 "%s is a MAC inside the chipset: its own link (%g GT/s x%d) is "
					 "on-package and "
					 "no physical ceiling, so the model uses the chipset's uplink %s (%g "
					 "GT/s x%d)",
					 d->slot, d->link_speed_gts, d->link_width, up->slot,
					 up->link_speed_gts, up->link_width);
				out->gts = up->link_speed_gts;
				out->lanes = up->link_width;
			}
		}
		out->gen = pcibw_pcie_gen_of_gts(out->gts);
		out->flit = d->flit_mode == 1 || pcibw_pcie_flit_required(out->gts);
		if (d->mps_bytes > 0) {
			out->mps_bytes = d->mps_bytes;
			out->mps_default = false;
		}
		if (d->mrrs_bytes > 0) {
			out->mrrs_bytes = d->mrrs_bytes;
			out->mrrs_default = false;
		}
		if (d->rcb_bytes > 0) {
			out->rcb_bytes = d->rcb_bytes;
			out->rcb_default = false;
		}
		/* the link's effective ASPM (both ends enable a state), else the device's own control */
		out->aspm = d->aspm_link >= 0 ? d->aspm_link : d->aspm >= 0 ? d->aspm : -1;
		return PCIBW_OK;
	case PCIBW_BUS_PCI:
	case PCIBW_BUS_PCIX:
		if (d->bus_mhz <= 0)
			return pcibw_fail(err, PCIBW_ENOTHERE, "%s: bus clock unknown", d->slot);
		out->kind = d->bus_kind;
		out->clock_mhz = d->bus_mhz;
		/* conventional PCI width is not in config space: 32 bits, the width every PCI
		 * device has (PCI LB 3.0 sec. 2.2), unless a PCI-X bridge said otherwise */
		out->width_bits = d->bus_width_bits > 0 ? d->bus_width_bits : 32;
		out->transfers_per_clock = pcibw_pcix_transfers_per_clock(d->pcix_mode);
		if (d->bus_kind == PCIBW_BUS_PCIX && d->mmrbc_bytes > 0) {
			out->mmrbc_bytes = d->mmrbc_bytes;
			out->mmrbc_default = false;
		}
		if (d->bus_kind == PCIBW_BUS_PCIX && d->pcix_splits > 0) {
			out->splits = d->pcix_splits;
			out->splits_default = false;
		}
		/* The PCI-PCI bridges between the host bridge and the segment: every hop of the path
		 * that drives a PCI or PCI-X bus, less the root-most one, which (behind a PCIe port or
		 * on the host's hub link) fetches host memory for the whole chain and so plays the
		 * host bridge the model's memory latency is measured behind (doc/model-pci.md). */
		int pci_hops = 0;
		for (int i = 0; i < d->n_path; i++)
			if (d->path[i].bus_kind == PCIBW_BUS_PCI || d->path[i].bus_kind == PCIBW_BUS_PCIX)
				pci_hops++;
		out->bridges = pci_hops > 1 ? (pci_hops - 1 > 8 ? 8 : pci_hops - 1) : 0;
		/* The segment above the device's bridge, where that bridge is the master (a card's own
		 * bridge, or any second PCI/PCI-X level): its clock and width are known from the
		 * bridge that drives it, so the model costs both segments (card_bridge=, the device's
		 * own segment being the card's) and the device's bridge is no longer one of `bridges`. */
		const struct pcibw_hop *up = d->n_path >= 2 ? &d->path[1] : NULL;
		if (up && (up->bus_kind == PCIBW_BUS_PCI || up->bus_kind == PCIBW_BUS_PCIX) &&
		    (d->path[0].bus_kind == PCIBW_BUS_PCI || d->path[0].bus_kind == PCIBW_BUS_PCIX) &&
		    up->bus_mhz > 0 && (up->bus_width_bits == 32 || up->bus_width_bits == 64) &&
		    isfinite(up->gbps) && up->gbps > 0) {
			out->card.kind = out->kind;
			out->card.clock_mhz = out->clock_mhz;
			out->card.width_bits = out->width_bits;
			out->card.transfers_per_clock = out->transfers_per_clock;
			out->kind = up->bus_kind;
			out->clock_mhz = up->bus_mhz;
			out->width_bits = up->bus_width_bits;
			/* PCI-X 266/533 move 2 or 4 transfers per 133 MHz clock: the hop's bandwidth
			 * over clock x width says which */
			double per_clock = up->gbps * 1e3 / ((double)up->bus_mhz * up->bus_width_bits);
			out->transfers_per_clock = up->bus_kind == PCIBW_BUS_PCIX && per_clock > 3     ? 4
						   : up->bus_kind == PCIBW_BUS_PCIX && per_clock > 1.5 ? 2
												       : 1;
			out->bridges--;
		}
		/* the device's own Latency Timer (config 0x0d) and Cache Line Size (0x0c) */
		if (d->latency_timer >= 0 && d->latency_timer <= 255) {
			out->latency_timer = d->latency_timer;
			out->latency_timer_default = false;
		}
		if (d->cacheline_bytes > 0) {
			out->cacheline_bytes = d->cacheline_bytes;
			out->cacheline_default = false;
		}
		return PCIBW_OK;
	default:
		return pcibw_fail(err, PCIBW_ENOTHERE,
				  "%s: the bus it runs on is unknown: the source does not show it", d->slot);
	}
}

/* pcibw/device.h */
int pcibw_bus_at_bottleneck(const struct pcibw_device *d, struct pcibw_bus *b, struct pcibw_err *err)
{
	int rc = pcibw_bus_from_device(d, b, err);
	if (rc || b->kind != PCIBW_BUS_PCIE || !d->bottleneck_slot[0] || !strcmp(d->bottleneck_slot, d->slot))
		return rc;
	/* an on-package MAC's own link and the chipset ports below its uplink are internal:
	 * pcibw_bus_from_device has already put the uplink in (and said so in b->note) */
	if (b->note[0] && pcibw_device_is_onpackage(d->vendor_id, d->device_id))
		return PCIBW_OK;
	for (int k = 0; k < d->n_path; k++) {
		const struct pcibw_hop *h = &d->path[k];
		if (strcmp(h->slot, d->bottleneck_slot) || h->bus_kind != PCIBW_BUS_PCIE ||
		    isnan(h->link_speed_gts) || h->link_width <= 0)
			continue;
		if (h->gbps < pcibw_bus_raw_gbps(b)) {
			snprintf(
			    b->note, sizeof b->note,
			    "the model uses %s's link (%g GT/s x%d), narrower than %s's own (%g GT/s x%d): "
			    "every packet crosses it",
			    h->slot, h->link_speed_gts, h->link_width, d->slot, b->gts, b->lanes);
			b->gts = h->link_speed_gts;
			b->lanes = h->link_width;
			b->gen = pcibw_pcie_gen_of_gts(b->gts);
			b->flit = b->flit || pcibw_pcie_flit_required(b->gts);
		}
	}
	return PCIBW_OK;
}

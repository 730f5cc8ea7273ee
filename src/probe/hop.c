/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Raw bandwidth of one hop, and a probed device as a model bus. */
#include "pcibw/bus.h"
#include "probe_int.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The arithmetic is the model's (pcibw_bus_raw_gbps, src/model/busspec.c: 8b/10b, 128b/130b
 * exact rather than the kernel's integer 7876 Mb/s, 242/256 in Flit mode; nominal PCI clocks
 * 33 1/3, 66 2/3, 133 1/3 MHz), so a report and a model of the same bus agree. Flit mode is
 * mandatory at 64 GT/s (PCIe Base 6.0 sec. 4.2.3), so a 64 GT/s link counts as flit even when
 * Link Status 2 was not in the source. */
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
		b.flit = flit == 1 || gts >= 64;
		return pcibw_bus_raw_gbps(&b);
	}
	if (kind == PCIBW_BUS_PCI || kind == PCIBW_BUS_PCIX) {
		if (mhz <= 0 || width_bits <= 0)
			return NAN;
		b.clock_mhz = mhz;
		b.width_bits = width_bits;
		/* PCI-X 266/533 move 2/4 data phases per clock (PCI-X 2.0a sec. 1.1) */
		b.transfers_per_clock = mode == PCIBW_PCIX_MODE_PCIX_266   ? 2
					: mode == PCIBW_PCIX_MODE_PCIX_533 ? 4
									   : 1;
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
		out->gen = out->gts >= 64   ? 6
			   : out->gts >= 32 ? 5
			   : out->gts >= 16 ? 4
			   : out->gts >= 8  ? 3
			   : out->gts >= 5  ? 2
					    : 1;
		/* Flit mode is mandatory at 64 GT/s (PCIe Base 6.0 sec. 4.2.3), as probe_hop_gbps counts it
		 */
		out->flit = d->flit_mode == 1 || out->gts >= 64;
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
		out->transfers_per_clock = d->pcix_mode == PCIBW_PCIX_MODE_PCIX_266   ? 2
					   : d->pcix_mode == PCIBW_PCIX_MODE_PCIX_533 ? 4
										      : 1;
		if (d->bus_kind == PCIBW_BUS_PCIX && d->mmrbc_bytes > 0) {
			out->mmrbc_bytes = d->mmrbc_bytes;
			out->mmrbc_default = false;
		}
		if (d->bus_kind == PCIBW_BUS_PCIX && d->pcix_splits > 0) {
			out->splits = d->pcix_splits;
			out->splits_default = false;
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
				  "%s: the bus it runs on is unknown "
				  "(the source does not show it)",
				  d->slot);
	}
}

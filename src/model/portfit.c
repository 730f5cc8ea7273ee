/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The slot against its ports (pcibw/portfit.h): the model's `both` ceiling over the packet rate
 * the line rate needs, per frame size. */
#include "pcibw/portfit.h"
#include "pcibw/device.h"
#include "pcibw/model.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Mpps a line rate needs at one frame size: every frame also holds the wire for 8 B of
 * preamble and SFD and a 12 B gap (pcibw_wire_bytes). */
static double need_mpps(double line_rate_gbps, double frame)
{
	return line_rate_gbps * 1e3 / (8.0 * pcibw_wire_bytes(frame));
}

/* ratio[0..2]: over the band's low end, the expected ceiling, the band's high end */
static int ratio_at(const struct pcibw_model_in *in, double line_rate_gbps, int frame, double ratio[3],
		    double *bus, struct pcibw_err *err)
{
	struct pcibw_model_row row;
	int rc = pcibw_model_eval(in, frame, &row, err);
	if (rc)
		return rc;
	/* on a PCI/PCI-X segment the model's rate is each master's share (doc/model-pci.md: pps
	 * per device = clock / (segment_devices x clocks per packet)); the card's functions are
	 * those masters and the need counts all their ports, so the ceiling is all their shares */
	bool shared = in->bus->kind == PCIBW_BUS_PCI || in->bus->kind == PCIBW_BUS_PCIX;
	double masters = shared ? in->segment_devices : 1, need = need_mpps(line_rate_gbps, frame);
	*bus = row.bus_mpps * masters;
	ratio[1] = *bus / need;
	/* a model row without a band (compat) carries NAN or the expected figure at both ends */
	ratio[0] = isfinite(row.bus_mpps_low) ? row.bus_mpps_low * masters / need : ratio[1];
	ratio[2] = isfinite(row.bus_mpps_high) ? row.bus_mpps_high * masters / need : ratio[1];
	return PCIBW_OK;
}

int pcibw_port_fit_eval(const struct pcibw_bus *bus, const struct pcibw_nic *nic, int ports,
			double line_rate_gbps, int segment_devices, struct pcibw_port_fit *out,
			struct pcibw_err *err)
{
	memset(out, 0, sizeof *out);
	out->min_line_rate_bytes = PCIBW_NULL;
	if (!(line_rate_gbps > 0) || !isfinite(line_rate_gbps)) {
		snprintf(out->why, sizeof out->why, "no line rate");
		return pcibw_fail(err, PCIBW_EUSAGE, "port fit: line rate %g Gbit/s: expected > 0",
				  line_rate_gbps);
	}
	struct pcibw_model_in in = {.bus = bus,
				    .nic = nic,
				    .pattern = PCIBW_PAT_BOTH,
				    .size_is = PCIBW_SIZE_FRAME,
				    .line_rate_gbps = 0,
				    .compat = PCIBW_COMPAT_NONE,
				    .segment_devices = segment_devices < 1 ? 1 : segment_devices};
	double bus_mpps, r64[3], r1518[3];
	int rc = ratio_at(&in, line_rate_gbps, PCIBW_PORT_FIT_MIN_FRAME, r64, &bus_mpps, err);
	if (!rc)
		rc = ratio_at(&in, line_rate_gbps, PCIBW_PORT_FIT_MAX_FRAME, r1518, &(double){0}, err);
	if (rc) {
		snprintf(out->why, sizeof out->why, "%.200s", err->msg);
		return rc;
	}
	out->ratio_64_low = r64[0];
	out->ratio_64 = r64[1];
	out->ratio_64_high = r64[2];
	out->ratio_1518_low = r1518[0];
	out->ratio_1518 = r1518[1];
	out->ratio_1518_high = r1518[2];
	out->bus_mpps_64 = bus_mpps;
	out->need_mpps_64 = need_mpps(line_rate_gbps, PCIBW_PORT_FIT_MIN_FRAME);
	/* byte by byte: a ceiling need not grow monotonically with size (MPS and read-request
	 * boundaries, cache-line rounding), so no bisection */
	for (int s = PCIBW_PORT_FIT_MIN_FRAME; s <= PCIBW_PORT_FIT_MAX_FRAME; s++) {
		double r[3], b;
		rc = ratio_at(&in, line_rate_gbps, s, r, &b, err);
		if (rc) {
			snprintf(out->why, sizeof out->why, "%.200s", err->msg);
			return rc;
		}
		if (r[1] >= 1) {
			out->min_line_rate_bytes = s;
			break;
		}
	}
	out->known = true;
	out->ports = ports;
	out->line_rate_gbps = line_rate_gbps;
	snprintf(out->nic, sizeof out->nic, "%s", nic->name);
	out->bus = *bus;
	return PCIBW_OK;
}

char *pcibw_port_fit_assumed(const struct pcibw_port_fit *f, char *buf, unsigned len)
{
	const struct pcibw_bus *b = &f->bus;
	size_t n = 0;
	buf[0] = '\0';
#define ASSUMED(cond, fmt, v)                                                                                \
	do {                                                                                                 \
		if ((cond) && n < len)                                                                       \
			n += (size_t)snprintf(buf + n, len - n, "%s" fmt, n ? ", " : "", v);                 \
	} while (0)
	if (b->kind == PCIBW_BUS_PCIE) {
		ASSUMED(b->mps_default, "MPS %d", b->mps_bytes);
		ASSUMED(b->mrrs_default, "MRRS %d", b->mrrs_bytes);
		ASSUMED(b->rcb_default, "RCB %d", b->rcb_bytes);
	} else if (b->kind == PCIBW_BUS_PCI || b->kind == PCIBW_BUS_PCIX) {
		ASSUMED(b->latency_timer_default, "latency timer %d", b->latency_timer);
		ASSUMED(b->cacheline_default && b->kind == PCIBW_BUS_PCI, "cache line %d",
			b->cacheline_bytes);
		ASSUMED(b->mmrbc_default && b->kind == PCIBW_BUS_PCIX, "MMRBC %d", b->mmrbc_bytes);
		ASSUMED(b->splits_default && b->kind == PCIBW_BUS_PCIX, "splits %d", b->splits);
	}
#undef ASSUMED
	return buf;
}

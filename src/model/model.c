/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model's front: size conventions, the wire, which ceiling binds, size mixes, and the
 * dispatch to the bus's own cost model (pcie.c; pcix.c for PCI and PCI-X).
 */
#include "model_int.h"
#include <math.h>
#include <string.h>

/* IEEE 802.3 clause 3.1.1 / 4.4.2: 14 B MAC header, 4 B FCS, 64 B minimum frame, 8 B preamble
 * + SFD and a 12 B (96 bit time) inter-packet gap. RFC 791 / RFC 768: 20 B IPv4, 8 B UDP;
 * RFC 9293 / RFC 7323: 20 B TCP and a 12 B timestamp option (10 B padded to 12). */
enum {
	ETH_HDR = 14,
	ETH_FCS = 4,
	ETH_MIN = 64,
	ETH_PREAMBLE = 8,
	ETH_IFG = 12,
	IPV4_UDP = 28,
	IPV4_TCP_TS = 52
};

double pcibw_frame_bytes(double size, enum pcibw_size_is s)
{
	double f;
	switch (s) {
	case PCIBW_SIZE_DMA:
		f = size + ETH_FCS;
		break;
	case PCIBW_SIZE_L3:
		f = size + ETH_HDR + ETH_FCS;
		break;
	case PCIBW_SIZE_UDP_PAYLOAD:
		f = size + IPV4_UDP + ETH_HDR + ETH_FCS;
		break;
	case PCIBW_SIZE_TCP_PAYLOAD:
		f = size + IPV4_TCP_TS + ETH_HDR + ETH_FCS;
		break;
	default:
		f = size;
	}
	return f < ETH_MIN ? ETH_MIN : f;
}

double pcibw_wire_bytes(double frame_bytes)
{
	return frame_bytes + ETH_PREAMBLE + ETH_IFG;
}

double pcibw_size_bytes_as(double size, enum pcibw_size_is from, enum pcibw_size_is to)
{
	if (from == to)
		return size;
	if (!pcibw_size_is_packet(from) || !pcibw_size_is_packet(to))
		return NAN;
	double frame = pcibw_frame_bytes(size, from), v;
	switch (to) {
	case PCIBW_SIZE_DMA:
		v = frame - ETH_FCS;
		break;
	case PCIBW_SIZE_L3:
		v = frame - ETH_HDR - ETH_FCS;
		break;
	case PCIBW_SIZE_UDP_PAYLOAD:
		v = frame - IPV4_UDP - ETH_HDR - ETH_FCS;
		break;
	case PCIBW_SIZE_TCP_PAYLOAD:
		v = frame - IPV4_TCP_TS - ETH_HDR - ETH_FCS;
		break;
	default:
		v = frame;
	}
	return v > 0 ? v : 0;
}

static bool dma_pattern(enum pcibw_pattern p)
{
	return p == PCIBW_PAT_DMA_READ || p == PCIBW_PAT_DMA_WRITE || p == PCIBW_PAT_DMA_RW;
}

void pcibw_wire_ceiling(double size, enum pcibw_size_is s, enum pcibw_pattern p, double line_rate_gbps,
			double *mpps, double *gbps)
{
	*mpps = *gbps = NAN;
	if (!(line_rate_gbps > 0) || dma_pattern(p))
		return;
	if (!pcibw_size_is_packet(s) || !(size > 0)) {
		/* no packet size: the bytes counted are at most the line rate, no more is known */
		*gbps = line_rate_gbps;
		return;
	}
	double pps = line_rate_gbps * 1e9 / (8.0 * pcibw_wire_bytes(pcibw_frame_bytes(size, s)));
	*mpps = pps / 1e6;
	*gbps = 8.0 * size * pps / 1e9;
}

/* Bytes the NIC DMAs for one transmitted packet: the frame less the FCS the MAC appends, or the
 * size itself when the user counts DMA bytes (pcie-bench's convention). */
static double dma_bytes_of(double size, enum pcibw_size_is s)
{
	return s == PCIBW_SIZE_DMA ? size : pcibw_frame_bytes(size, s) - ETH_FCS;
}

static bool shared_bus(const struct pcibw_bus *b)
{
	return b->kind == PCIBW_BUS_PCI || b->kind == PCIBW_BUS_PCIX;
}

static int directions(enum pcibw_pattern p)
{
	return p == PCIBW_PAT_BOTH || p == PCIBW_PAT_DMA_RW ? 2 : 1;
}

static int cost_one(const struct pcibw_model_in *in, double size, struct pcibw_bus_cost *c,
		    struct pcibw_err *err)
{
	struct pcibw_recipe rc;
	double dma = dma_bytes_of(size, in->size_is);
	int st = pcibw_nic_recipe(in->nic, in->pattern, dma, &rc, err);
	if (st)
		return st;
	memset(c, 0, sizeof *c);
	switch (in->bus->kind) {
	case PCIBW_BUS_PCIE:
		st = pcibw_pcie_cost(in, &rc, dma, c, err);
		break;
	case PCIBW_BUS_PCI:
	case PCIBW_BUS_PCIX:
		st = pcibw_pcix_cost(in, &rc, dma, c, err);
		break;
	case PCIBW_BUS_VIRTUAL:
		/* a paravirtual device moves packets through host memory: no bus to run out of */
		c->pps = INFINITY;
		c->bound_by = "virtual";
		return PCIBW_OK;
	default:
		return pcibw_fail(err, PCIBW_EUSAGE, "the bus kind is unknown: give --bus SPEC");
	}
	if (st)
		return st;
	if (c->n_loads <= 0 && c->pps > 0) {
		c->n_loads = 1;
		c->load_s[0] = 1.0 / c->pps;
		c->load_name[0] = c->bound_by ? c->bound_by : "shared";
	}
	return PCIBW_OK;
}

static int check_in(const struct pcibw_model_in *in, struct pcibw_err *err)
{
	if (!in || !in->bus || !in->nic)
		return pcibw_fail(err, PCIBW_EINTERNAL, "model input without a bus or a NIC profile");
	if (!(in->line_rate_gbps >= 0) || !isfinite(in->line_rate_gbps))
		return pcibw_fail(err, PCIBW_EUSAGE, "line rate must be a positive number of Gbit/s");
	return PCIBW_OK;
}

static int check_size(double size, struct pcibw_err *err)
{
	if (!(size > 0) || !isfinite(size) || size > 65536)
		return pcibw_fail(err, PCIBW_EUSAGE, "packet size %g: expected 1..65536 bytes", size);
	return PCIBW_OK;
}

/* Fill the parts of a row common to single sizes and mixes. */
static void finish(const struct pcibw_model_in *in, double size, double frame, double dma, double pps,
		   struct pcibw_model_row *r)
{
	double raw = pcibw_bus_raw_gbps(in->bus);
	r->size_bytes = size;
	r->bus_mpps = isfinite(pps) ? pps / 1e6 : NAN;
	r->bus_gbps = isfinite(pps) ? 8.0 * size * pps / 1e9 : NAN;
	/* a mix's wire time is that of its mean frame: the wire carries each frame plus 20 B */
	double wire_mpps, wire_gbps;
	pcibw_wire_ceiling(frame, PCIBW_SIZE_FRAME, in->pattern, in->line_rate_gbps, &wire_mpps, &wire_gbps);
	r->wire_mpps = wire_mpps;
	(void)wire_gbps; /* that counts frame bytes; the row counts the size convention's */
	r->wire_gbps = isnan(wire_mpps) ? NAN : 8.0 * size * wire_mpps * 1e6 / 1e9;
	r->limit = !isnan(r->wire_mpps) && !(isfinite(pps) && pps < r->wire_mpps * 1e6) ? PCIBW_LIMIT_WIRE
											: PCIBW_LIMIT_BUS;
	/* PCIe has a budget per direction and each direction carries one copy of the data; a
	 * shared PCI/PCI-X segment carries every direction on one budget */
	int dirs = shared_bus(in->bus) ? directions(in->pattern) : 1;
	r->bus_share = raw > 0 && isfinite(pps) ? 8.0 * dma * dirs * pps / (raw * 1e9) : NAN;
}

/* One size's cost, its inputs checked first. */
static int checked_cost(const struct pcibw_model_in *in, double size, struct pcibw_bus_cost *c,
			struct pcibw_err *err)
{
	int st = check_in(in, err);
	if (!st)
		st = check_size(size, err);
	return st ? st : cost_one(in, size, c, err);
}

/* The band of a row: the same evaluation with every term at its low and its high setting. A
 * term can move a ceiling only one way per setting, but a mix or a tie of resources could leave
 * low above expected by rounding: the band always holds expected. */
static void set_band(struct pcibw_model_row *r, const struct pcibw_model_row *lo,
		     const struct pcibw_model_row *hi)
{
	r->bus_mpps_low = fmin(lo->bus_mpps, r->bus_mpps);
	r->bus_gbps_low = fmin(lo->bus_gbps, r->bus_gbps);
	r->bus_mpps_high = fmax(hi->bus_mpps, r->bus_mpps);
	r->bus_gbps_high = fmax(hi->bus_gbps, r->bus_gbps);
	if (isnan(r->bus_mpps))
		r->bus_mpps_low = r->bus_mpps_high = r->bus_gbps_low = r->bus_gbps_high = NAN;
}

static int eval_one(const struct pcibw_model_in *in, double size, struct pcibw_model_row *out,
		    struct pcibw_err *err);
static int eval_mix(const struct pcibw_model_in *in, const struct pcibw_sizes *mix,
		    struct pcibw_model_row *out, struct pcibw_err *err);

/* in at one setting of the band, every term moved */
static struct pcibw_model_in at_band(const struct pcibw_model_in *in, enum pcibw_band b)
{
	struct pcibw_model_in v = *in;
	v.band = b;
	v.band_terms = 0;
	return v;
}

int pcibw_model_eval(const struct pcibw_model_in *in, double size, struct pcibw_model_row *out,
		     struct pcibw_err *err)
{
	struct pcibw_model_row r, lo, hi;
	if (!in)
		return pcibw_fail(err, PCIBW_EINTERNAL, "model input without a bus or a NIC profile");
	struct pcibw_model_in e = at_band(in, PCIBW_BAND_EXPECTED), l = at_band(in, PCIBW_BAND_LOW),
			      h = at_band(in, PCIBW_BAND_HIGH);
	int st = eval_one(&e, size, &r, err);
	if (!st)
		st = eval_one(&l, size, &lo, err);
	if (!st)
		st = eval_one(&h, size, &hi, err);
	if (st)
		return st;
	set_band(&r, &lo, &hi);
	*out = r;
	return PCIBW_OK;
}

int pcibw_model_eval_mix(const struct pcibw_model_in *in, const struct pcibw_sizes *mix,
			 struct pcibw_model_row *out, struct pcibw_err *err)
{
	struct pcibw_model_row r, lo, hi;
	if (!in)
		return pcibw_fail(err, PCIBW_EINTERNAL, "model input without a bus or a NIC profile");
	struct pcibw_model_in e = at_band(in, PCIBW_BAND_EXPECTED), l = at_band(in, PCIBW_BAND_LOW),
			      h = at_band(in, PCIBW_BAND_HIGH);
	int st = eval_mix(&e, mix, &r, err);
	if (!st)
		st = eval_mix(&l, mix, &lo, err);
	if (!st)
		st = eval_mix(&h, mix, &hi, err);
	if (st)
		return st;
	set_band(&r, &lo, &hi);
	*out = r;
	return PCIBW_OK;
}

static int eval_one(const struct pcibw_model_in *in, double size, struct pcibw_model_row *out,
		    struct pcibw_err *err)
{
	struct pcibw_bus_cost c;
	int st = checked_cost(in, size, &c, err);
	if (st)
		return st;
	memset(out, 0, sizeof *out);
	finish(in, size, pcibw_frame_bytes(size, in->size_is), dma_bytes_of(size, in->size_is), c.pps, out);
	out->to_device_bytes = c.to_device_bytes;
	out->to_host_bytes = c.to_host_bytes;
	out->bus_ns_per_packet = c.bus_ns_per_packet;
	out->cpu_stall_ns_per_packet = c.cpu_stall_ns;
	out->bound_by = c.bound_by;
	return PCIBW_OK;
}

static int eval_mix(const struct pcibw_model_in *in, const struct pcibw_sizes *mix,
		    struct pcibw_model_row *out, struct pcibw_err *err)
{
	int st = check_in(in, err);
	if (st)
		return st;
	if (!mix || mix->n <= 0)
		return pcibw_fail(err, PCIBW_EUSAGE, "empty size mix");
	double wsum = 0, size = 0, frame = 0, dma = 0, todev = 0, tohost = 0, ns = 0, stall = 0;
	double load[6] = {0};
	const char *name[6] = {0};
	int nl = -1;
	bool virt = false;
	/* weights relative to the largest, so that huge ones (64:1e308,128:1e308) do not overflow
	 * their sum */
	double wmax = 0;
	for (int i = 0; i < mix->n; i++)
		if (!(mix->v[i].weight > 0) || !isfinite(mix->v[i].weight))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "size mix: weight %g of size %g is not a positive "
					  "number",
					  mix->v[i].weight, mix->v[i].bytes);
		else if (mix->v[i].weight > wmax)
			wmax = mix->v[i].weight;
	for (int i = 0; i < mix->n; i++)
		wsum += mix->v[i].weight / wmax;
	for (int i = 0; i < mix->n; i++) {
		struct pcibw_bus_cost c;
		double s = mix->v[i].bytes, w = mix->v[i].weight / wmax / wsum;
		if ((st = check_size(s, err)) || (st = cost_one(in, s, &c, err)))
			return st;
		size += w * s;
		frame += w * pcibw_frame_bytes(s, in->size_is);
		dma += w * dma_bytes_of(s, in->size_is);
		todev += w * c.to_device_bytes;
		tohost += w * c.to_host_bytes;
		ns += w * c.bus_ns_per_packet;
		stall += w * c.cpu_stall_ns;
		virt = virt || !isfinite(c.pps);
		if (nl < 0)
			nl = c.n_loads;
		/* packets drawn by weight: each resource carries the weighted mean of its per-packet load */
		for (int k = 0; k < c.n_loads && k < 6; k++) {
			load[k] += w * c.load_s[k];
			name[k] = c.load_name[k];
		}
	}
	double worst = 0;
	const char *by = NULL;
	for (int k = 0; k < nl && k < 6; k++)
		if (load[k] > worst)
			worst = load[k], by = name[k];
	double pps = virt || worst <= 0 ? INFINITY : 1.0 / worst;
	memset(out, 0, sizeof *out);
	finish(in, size, frame, dma, pps, out);
	out->to_device_bytes = todev;
	out->to_host_bytes = tohost;
	out->bus_ns_per_packet = ns;
	out->cpu_stall_ns_per_packet = stall;
	out->bound_by = virt ? "virtual" : by;
	return PCIBW_OK;
}

int pcibw_model_loads(const struct pcibw_model_in *in, double size, struct pcibw_model_loads *out,
		      struct pcibw_err *err)
{
	struct pcibw_bus_cost c;
	int st = checked_cost(in, size, &c, err);
	if (st)
		return st;
	memset(out, 0, sizeof *out);
	if (!isfinite(c.pps))
		return PCIBW_OK; /* a virtual bus: nothing to run out of */
	/* pcix.c charges the segment every device's packet (they move the same traffic); a load is
	 * one packet's, at the transaction costs that many contending masters make it pay */
	double devices = shared_bus(in->bus) && in->segment_devices > 1 ? in->segment_devices : 1;
	for (int k = 0; k < c.n_loads && k < PCIBW_MODEL_MAX_LOADS; k++) {
		out->s[out->n] = c.load_s[k] / (strcmp(c.load_name[k], "shared") ? 1 : devices);
		out->name[out->n] = c.load_name[k];
		out->bus[out->n++] =
		    strcmp(c.load_name[k], "device-tps") && strcmp(c.load_name[k], "read-latency");
	}
	return PCIBW_OK;
}

/* The band's terms, their settings and their sources (doc/model.md sec. 8, doc/model-pci.md
 * "The band"). */
static const struct pcibw_band_term terms[PCIBW_TERM_COUNT] = {
    {PCIBW_TERM_CPL, "completion size", "every request in RCB pieces",
     "every request in ceil(length / MPS) pieces",
     "PCIe Base 5.0 sec. 2.3.1.1: the completer chooses; expected: the length rule of the Xeon E5 hosts "
     "(doc/model.md sec. 3)",
     "cpl=", 0, 0},
    {PCIBW_TERM_LINES, "root complex's whole-line charge", "charged", "not charged",
     "Neugebauer et al., SIGCOMM 2018 sec. 6; pcie-bench/data offset sweeps run one-request reads at the "
     "link's pace (doc/model.md sec. 5)",
     NULL, 0, 0},
    {PCIBW_TERM_BURST_GAP, "write burst gap", "the profile's slowest host (write_burst_gap_max_ns)",
     "the profile's gap (write_burst_gap_ns)",
     "the profile: pcie-bench/data, Dell T630/T430 with the IOMMU off against the other 14 E5 sweeps",
     "iommu=on", 0, 0},
    {PCIBW_TERM_NUMA, "memory distance", "remote memory (read_latency_remote_ns)",
     "local memory (read_latency_ns)",
     "the profile: pcie-bench/data LAT_DMA_RD, placements s0-s1-s1 against s0-s0-s0", "numa=", 0, 0},
    {PCIBW_TERM_PREFETCH, "host bridge prefetch", "one cache line per delayed read", "512 B per delayed read",
     "PI7C8140A table 2-4 (MR/MRL to the line, MRM to the second line: expected); a host bridge with 512 B "
     "bursts (doc/model-pci.md)",
     "prefetch=", 0, 0},
    {PCIBW_TERM_ADB, "split completion disconnects", "at every 128 B ADB", "one completion per request",
     "Intel 41210 manual: a completer disconnects at the next ADB only when its buffer runs dry", NULL, 0, 0},
    {PCIBW_TERM_BRIDGE, "bridges on the path", "each bridge's own primary-side read (store and forward)",
     "none (expected: none)",
     "PCI LB 3.0 sec. 3.3.3.3 (a delayed read completes on the destination bus first); PCI-X 2.0a (split "
     "completions forwarded ADB by ADB)",
     "bridge_ns=", 0, 0},
};

const char *pcibw_band_term_name(unsigned term)
{
	for (int i = 0; i < PCIBW_TERM_COUNT; i++)
		if (terms[i].term == term)
			return terms[i].name;
	return "";
}

int pcibw_model_band_terms(const struct pcibw_model_in *in, double size, struct pcibw_band_term *out, int max,
			   int *n, struct pcibw_err *err)
{
	struct pcibw_model_row r, lo, hi;
	*n = 0;
	if (!in)
		return pcibw_fail(err, PCIBW_EINTERNAL, "model input without a bus or a NIC profile");
	struct pcibw_model_in e = at_band(in, PCIBW_BAND_EXPECTED);
	int st = eval_one(&e, size, &r, err);
	if (st)
		return st;
	if (in->compat == PCIBW_COMPAT_PCIE_BENCH || !isfinite(r.bus_gbps))
		return PCIBW_OK;
	for (int i = 0; i < PCIBW_TERM_COUNT; i++) {
		struct pcibw_model_in l = e, h = e;
		l.band = PCIBW_BAND_LOW, h.band = PCIBW_BAND_HIGH;
		l.band_terms = h.band_terms = terms[i].term;
		if ((st = eval_one(&l, size, &lo, err)) || (st = eval_one(&h, size, &hi, err)))
			return st;
		if (fabs(hi.bus_gbps - lo.bus_gbps) <= 5e-4 * r.bus_gbps)
			continue;
		if (*n >= max)
			return pcibw_fail(err, PCIBW_EINTERNAL, "more band terms than room for them");
		out[*n] = terms[i];
		out[*n].gbps_low = fmin(lo.bus_gbps, r.bus_gbps);
		out[*n].gbps_high = fmax(hi.bus_gbps, r.bus_gbps);
		(*n)++;
	}
	return PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw analyze: read benchmark results, set each row against the bus ceiling (the model), the
 * wire and the CPU, and give a verdict. Parsing and wiring only: reading is src/ingest, the
 * ceilings src/model, the rules src/verdict, the output src/render.
 */
#include "cli.h"
#include "pcibw/device.h"
#include "pcibw/ingest.h"
#include "pcibw/model.h"
#include "pcibw/verdict.h"
#include "src/render/analyze_render.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The machine side: a bus (spec, probed device, or none), the NIC profile, the CPU. */
struct machine_ctx {
	bool have_bus;
	struct pcibw_bus bus;
	struct pcibw_nic nic;
	char bus_spec[128];
	char bus_from[1200];
	char nic_name[64];
	struct pcibw_model_in in;
	struct pcibw_machine mach;
	char cpu_origin[1200];
};

static void bus_words(const struct pcibw_bus *b, char *buf, size_t n)
{
	switch (b->kind) {
	case PCIBW_BUS_PCI:
		snprintf(buf, n, "PCI %d/%d bus", b->clock_mhz, b->width_bits);
		break;
	case PCIBW_BUS_PCIX:
		snprintf(buf, n, "PCI-X %d/%d bus",
			 b->clock_mhz * (b->transfers_per_clock > 1 ? b->transfers_per_clock : 1),
			 b->width_bits);
		break;
	case PCIBW_BUS_PCIE:
		snprintf(buf, n, "PCIe gen%d x%d link", b->gen, b->lanes);
		break;
	case PCIBW_BUS_VIRTUAL:
		snprintf(buf, n, "virtual NIC");
		break;
	default:
		snprintf(buf, n, "bus");
	}
}

static int setup_machine(const struct pcibw_request *c, struct machine_ctx *mc, struct pcibw_err *err)
{
	int st, vendor = -1, device = -1;
	mc->in.pattern = c->pattern;
	mc->in.size_is = c->size_is;
	mc->in.line_rate_gbps = c->line_rate_gbps;
	mc->in.compat = c->compat;
	mc->in.segment_devices = c->segment_devices;
	mc->mach.cpus = c->cpus;
	mc->mach.cpu_mhz = c->cpu_mhz;
	mc->mach.line_rate_gbps = mc->in.line_rate_gbps;

	bool probed = c->probe.slot_filter || c->probe.dump_file || c->probe.sysfs_dir || c->probe.iface;
	if (c->bus && probed)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--bus and a probed device (-s, -i, --dump, --sysfs) both "
				  "name the bus: give one");
	if (c->bus && !strcmp(c->bus, "virtual")) {
		/* a paravirtual NIC (virtio, vmxnet3, netvsc): no bus at all */
		memset(&mc->bus, 0, sizeof mc->bus);
		mc->bus.kind = PCIBW_BUS_VIRTUAL;
		mc->have_bus = true;
		snprintf(mc->bus_from, sizeof mc->bus_from, "--bus");
	} else if (c->bus) {
		if ((st = pcibw_bus_parse(c->bus, &mc->bus, err)))
			return st;
		mc->have_bus = true;
		snprintf(mc->bus_from, sizeof mc->bus_from, "--bus");
	} else if (probed) {
		if ((st = cli_probed_bus(c, &mc->bus, &vendor, &device, mc->bus_from, sizeof mc->bus_from,
					 err)))
			return st;
		mc->have_bus = true;
	}
	if (c->bus_set) {
		if (!probed)
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--bus-set changes a probed device (-s, -i, --dump, --sysfs); with "
					  "--bus, put the modifiers in the spec");
		if ((st = pcibw_bus_apply(&mc->bus, c->bus_set, err)))
			return st;
		size_t l = strlen(mc->bus_from);
		snprintf(mc->bus_from + l, sizeof mc->bus_from - l, " with --bus-set %s", c->bus_set);
	}
	mc->mach.aspm = mc->have_bus ? mc->bus.aspm : -1;

	char nicwarn[400];
	if ((st = cli_nic_setup(c, vendor, device, NULL, mc->have_bus ? &mc->bus : NULL, &mc->nic, nicwarn,
				sizeof nicwarn, err)))
		return st;
	snprintf(mc->nic_name, sizeof mc->nic_name, "%s", mc->nic.name);
	if (mc->nic.is_virtual && (!mc->have_bus || mc->bus.kind != PCIBW_BUS_VIRTUAL)) {
		memset(&mc->bus, 0, sizeof mc->bus);
		mc->bus.kind = PCIBW_BUS_VIRTUAL;
		mc->have_bus = true;
		snprintf(mc->bus_from, sizeof mc->bus_from, "--nic %s (paravirtual)", mc->nic_name);
	}
	if (mc->have_bus) {
		if (mc->bus.kind == PCIBW_BUS_VIRTUAL)
			snprintf(mc->bus_spec, sizeof mc->bus_spec, "virtual");
		else
			pcibw_bus_format(&mc->bus, mc->bus_spec, sizeof mc->bus_spec);
		mc->mach.have_bus = mc->bus.kind != PCIBW_BUS_VIRTUAL;
		mc->mach.bus_virtual = mc->bus.kind == PCIBW_BUS_VIRTUAL;
		bus_words(&mc->bus, mc->mach.bus_name, sizeof mc->mach.bus_name);
		snprintf(mc->mach.bus_note, sizeof mc->mach.bus_note, "%s", mc->bus.note);
	}
	mc->in.bus = &mc->bus;
	mc->in.nic = &mc->nic;

	/* the CPU the measurement ran on */
	if (c->cpus != PCIBW_NULL || !isnan(c->cpu_mhz)) {
		snprintf(mc->cpu_origin, sizeof mc->cpu_origin, "options");
	} else if (c->probe.topology_file) {
		struct pcibw_cpuinfo ci;
		if ((st = pcibw_cpuinfo_hwloc_xml(c->probe.topology_file, &ci, err)))
			return st;
		mc->mach.cpus = ci.cpus;
		snprintf(mc->cpu_origin, sizeof mc->cpu_origin, "hwloc-xml:%s", c->probe.topology_file);
	} else if (probed && !c->probe.dump_file && !c->probe.sysfs_dir) {
		struct pcibw_cpuinfo ci;
		pcibw_cpuinfo_live(&ci);
		mc->mach.cpus = ci.cpus;
		mc->mach.cpu_mhz = ci.mhz;
		snprintf(mc->cpu_origin, sizeof mc->cpu_origin, "%s", ci.origin);
	}
	return PCIBW_OK;
}

static enum pcibw_size_is size_is_of(const struct pcibw_row *r, enum pcibw_size_is option)
{
	switch (r->size_conv) {
	case PCIBW_CONV_FRAME:
		return PCIBW_SIZE_FRAME;
	case PCIBW_CONV_UDP_PAYLOAD:
		return PCIBW_SIZE_UDP_PAYLOAD;
	case PCIBW_CONV_L3:
		return PCIBW_SIZE_L3;
	case PCIBW_CONV_DMA:
		return PCIBW_SIZE_DMA;
	default:
		return option;
	}
}

/* Bytes one packet counts in a rate basis (IEEE 802.3: 14 B header + 4 B FCS around the IP
 * packet, IPv4 20 B + UDP 8 B inside it; preamble/SFD 8 B and gap 12 B on the wire). */
static double basis_bytes(const struct pcibw_row *r, enum pcibw_size_is s)
{
	double frame = pcibw_frame_bytes(r->size_bytes, s);
	switch (r->gbps_basis) {
	case PCIBW_BASIS_SIZE:
		return r->size_bytes;
	case PCIBW_BASIS_WIRE:
		return pcibw_wire_bytes(frame);
	case PCIBW_BASIS_FRAME:
		return frame;
	case PCIBW_BASIS_L3:
		return s == PCIBW_SIZE_L3 ? r->size_bytes : frame - 18;
	case PCIBW_BASIS_PAYLOAD:
		return s == PCIBW_SIZE_UDP_PAYLOAD ? r->size_bytes : fmax(frame - 46, 0);
	}
	return NAN;
}

/* What a `size` column counts under --size-is, for pcibw_rows_packets. */
static enum pcibw_size_conv size_conv_of(enum pcibw_size_is s)
{
	static const enum pcibw_size_conv conv[] = {
	    [PCIBW_SIZE_FRAME] = PCIBW_CONV_FRAME,
	    [PCIBW_SIZE_DMA] = PCIBW_CONV_DMA,
	    [PCIBW_SIZE_L3] = PCIBW_CONV_L3,
	    [PCIBW_SIZE_UDP_PAYLOAD] = PCIBW_CONV_UDP_PAYLOAD,
	    [PCIBW_SIZE_TCP_PAYLOAD] = PCIBW_CONV_TCP_PAYLOAD,
	};
	return (unsigned)s < sizeof conv / sizeof conv[0] ? conv[s] : PCIBW_CONV_FRAME;
}

/* Each row's ceilings from the model (bus) and the line rate (wire). */
static void ceilings(struct pcibw_rows *rs, struct machine_ctx *mc)
{
	for (int i = 0; i < rs->n; i++) {
		struct pcibw_row *r = &rs->v[i];
		enum pcibw_pattern pat =
		    r->direction != PCIBW_DIR_UNSET ? (enum pcibw_pattern)r->direction : mc->in.pattern;
		r->pattern = (int)pat;
		bool dma = pat == PCIBW_PAT_DMA_READ || pat == PCIBW_PAT_DMA_WRITE || pat == PCIBW_PAT_DMA_RW;
		if (r->size_conv == PCIBW_CONV_WRITE || isnan(r->size_bytes)) {
			/* no packet size: the payload rate is at most the line rate, no more is known */
			if (mc->in.line_rate_gbps > 0 && !dma)
				r->wire_gbps = mc->in.line_rate_gbps;
			pcibw_row_rates(r);
			continue;
		}
		enum pcibw_size_is s = size_is_of(r, mc->in.size_is);
		r->packet_bytes = r->size_bytes;
		r->basis_bytes = basis_bytes(r, s);
		pcibw_row_rates(r);
		if (mc->in.line_rate_gbps > 0 && !dma) {
			double wire = pcibw_wire_bytes(pcibw_frame_bytes(r->size_bytes, s));
			r->wire_mpps = mc->in.line_rate_gbps * 1e9 / (8 * wire) / 1e6;
			r->wire_gbps = r->wire_mpps * 1e6 * r->size_bytes * 8 / 1e9;
		}
		if (!mc->mach.have_bus)
			continue;
		struct pcibw_model_in in = mc->in;
		in.pattern = pat;
		in.size_is = s;
		in.line_rate_gbps = 0;
		struct pcibw_model_row mr;
		struct pcibw_err e = {0};
		if (pcibw_model_eval(&in, r->size_bytes, &mr, &e) == PCIBW_OK) {
			r->bus_mpps = mr.bus_mpps;
			r->bus_gbps = mr.bus_gbps;
			r->bound_by = mr.bound_by;
		} else {
			snprintf(r->model_note, sizeof r->model_note, "%.200s", e.msg);
		}
	}
}

static int add_row(const struct pcibw_measured *m, void *ctx, struct pcibw_err *err)
{
	return pcibw_rows_add(ctx, m, err);
}

static int run(const struct pcibw_request *c)
{
	struct pcibw_err err = {0};
	struct machine_ctx *mc = calloc(1, sizeof *mc);
	struct pcibw_analyze_input *inputs = calloc((size_t)c->n_files, sizeof *inputs);
	struct pcibw_rows rs = {0};
	struct pcibw_summary sum = {0};
	int st = PCIBW_OK;
	if (!mc || !inputs) {
		st = pcibw_fail(&err, PCIBW_EINTERNAL, "out of memory");
		goto out;
	}
	/* the first file's own "# bus: ..." line (pcibw watch --format csv) fills what no option gave */
	struct pcibw_request cd = *c;
	struct pcibw_input_defaults def;
	if ((st = pcibw_ingest_defaults(c->files[0], &def, &err)))
		goto out;
	bool probed = c->probe.slot_filter || c->probe.dump_file || c->probe.sysfs_dir || c->probe.iface;
	if (def.found) {
		if (!cd.bus && !probed && def.bus[0])
			cd.bus = def.bus;
		if (!cd.nic && def.nic[0])
			cd.nic = def.nic;
		if (cd.line_rate_gbps == 0)
			cd.line_rate_gbps = def.line_rate_gbps;
		if (cd.cpus == PCIBW_NULL && isnan(cd.cpu_mhz)) {
			cd.cpus = def.cpus;
			cd.cpu_mhz = def.cpu_mhz;
		}
	}
	if ((st = setup_machine(&cd, mc, &err)))
		goto out;
	if (def.found && cd.bus == def.bus)
		snprintf(mc->bus_from, sizeof mc->bus_from, "%s", def.origin);
	if (def.found && c->cpus == PCIBW_NULL && isnan(c->cpu_mhz) && (def.cpus > 0 || !isnan(def.cpu_mhz)))
		snprintf(mc->cpu_origin, sizeof mc->cpu_origin, "%s", def.origin);
	long skipped = 0;
	for (int i = 0; i < c->n_files; i++) {
		inputs[i].path = c->files[i];
		if ((st = pcibw_ingest_file(c->files[i], &c->ingest, add_row, &rs, &inputs[i].stats, &err)))
			goto out;
		skipped += inputs[i].stats.skipped;
	}
	if (rs.n == 0) {
		const char *first = "";
		for (int i = 0; i < c->n_files && !first[0]; i++)
			first = inputs[i].stats.first_skip;
		st = pcibw_fail(&err, PCIBW_EINPUT, "%s%s: no measured rows (every line was skipped%s%s)",
				c->files[0], c->n_files > 1 ? " and the other inputs" : "",
				first[0] ? "; first: " : "", first);
		goto out;
	}
	pcibw_rows_finish(&rs);
	pcibw_rows_packets(&rs, c->mtu, size_conv_of(c->size_is));
	ceilings(&rs, mc);
	if ((st = pcibw_verdict_run(&rs, &c->thresholds, &mc->mach, &sum, &err)))
		goto out;
	struct pcibw_analyze_view v = {
	    .rows = &rs,
	    .summary = &sum,
	    .machine = &mc->mach,
	    .thresholds = &c->thresholds,
	    .bus_spec = mc->have_bus ? mc->bus_spec : NULL,
	    .bus_from = mc->have_bus ? mc->bus_from : NULL,
	    .nic = mc->nic_name,
	    .pattern = pcibw_pattern_name(mc->in.pattern),
	    .size_is = pcibw_size_is_name(mc->in.size_is),
	    .cpu_origin = mc->cpu_origin,
	    .inputs = inputs,
	    .n_inputs = c->n_files,
	    .skipped = skipped,
	    .wide = c->wide,
	};
	if (c->plot && (st = pcibw_analyze_render_plot(c->plot, &v, &err)))
		goto out;
	if (c->format == PCIBW_OUT_JSON)
		st = pcibw_analyze_render_json(stdout, &v);
	else if (c->format == PCIBW_OUT_CSV)
		st = pcibw_analyze_render_csv(stdout, &v);
	else
		st = pcibw_analyze_render_text(stdout, &v);
	if (st && ferror(stdout))
		st = PCIBW_OK; /* a failed write: main says why (finish_output) */
	else if (st)
		pcibw_fail(&err, st, "cannot render the output");
	else if (c->format != PCIBW_OUT_TEXT) {
		for (int i = 0; i < c->n_files; i++)
			for (int k = 0; k < inputs[i].stats.n_warnings; k++)
				fprintf(stderr, "pcibw: warning: %s\n", inputs[i].stats.warnings[k]);
		if (skipped)
			fprintf(stderr, "pcibw: warning: %ld input line(s) skipped\n", skipped);
	}
out:
	pcibw_summary_free(&sum);
	pcibw_rows_free(&rs);
	free(inputs);
	free(mc);
	if (st)
		return st == PCIBW_EUSAGE ? cli_usage_error("analyze", "%s", err.msg) : cli_error(&err);
	return PCIBW_OK;
}

int cmd_analyze(int argc, char **argv)
{
	struct pcibw_request req;
	struct pcibw_err err = {0};
	int st = cli_parse(PCIBW_CMD_ANALYZE, argc, argv, &req);
	if (st < 0) {
		if (cli_check_sources(&req, &err))
			st = cli_usage_error("analyze", "%s", err.msg);
		else if (req.n_files == 0)
			st = cli_usage_error("analyze", "no input: give FILE... ('-' for standard input)");
		else
			st = run(&req);
	}
	pcibw_request_free(&req);
	return st;
}

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

const char cmd_analyze_help[] =
    "Usage: pcibw analyze FILE... [OPTIONS]\n"
    "Measured throughput against the model, the wire and the CPU: io-bound, wire-bound,\n"
    "cpu-bound, impossible or undetermined, per row and for the whole input, with the evidence.\n"
    "\n"
    "Inputs (format detected from the content; '-' reads standard input):\n"
    "  CSV with a header (frame_bytes|payload_bytes|msg_size|size, [PREFIX_]pps|kpps|mpps|mbps|gbps|MB/s,\n"
    "  cpu_pct, cpuN_pct, core_max_pct, direction, work|copies, cpu_mhz, iface, test; case, blanks and\n"
    "  a bracketed unit ignored: \"Frame Bytes\", \"CPU %\"; ',' ';' or tab between fields), iperf3 -J,\n"
    "  netperf (classic and omni -o/-O), pcie-bench bw_dma_sz_sweep.csv\n"
    "  --col ROLE=HEADER      read column HEADER as ROLE (e.g. --col gbps='Throughput')\n"
    "  --rate-basis B         what a bit-rate column counts: wire, frame, l3, payload\n"
    "                         (default: the bytes of the size convention)\n"
    "The bus (as in `pcibw model`):\n"
    "  --bus SPEC             gen3x8,mps=256 | pcix133/64,mmrbc=512 | pci33/32 | virtual ...\n"
    "  -s SLOT, -i IFACE      or the bus of a probed device (this machine, --dump FILE, --sysfs DIR)\n"
    "  --nic NAME             NIC profile (default: by vendor:device when probed, else simple)\n"
    "  --pattern P            rx, tx, both (default), dma-read, dma-write, dma-rw; a direction column wins\n"
    "  --size-is CONV         frame (default), dma, l3, udp-payload: what a `size` column counts\n"
    "  --line-rate RATE       1G, 10G, 40G, ...: the wire ceiling\n"
    "  --compat pcie-bench    reproduce pcie-bench's pcie-model exactly\n"
    "  --segment-devices N    PCI/PCI-X: devices on the segment moving the same traffic (default 1)\n"
    "The CPU:\n"
    "  --cpus N --cpu-ghz F   CPUs and clock of the measured machine (else --topology FILE for the\n"
    "                         count, or this machine when the device was probed live)\n"
    "Verdicts:\n"
    "  --threshold NAME=VALUE impossible=1.10 wire=0.95 bus=0.85 cpu=0.90 core=0.95 elasticity=0.5\n"
    "                         flat=0.05 flat_sizes=3 cpu_only=0.75 idle=0.60 cycles_high=50000\n"
    "Output:\n"
    "  --format text|json|csv, --json\n"
    "  --plot FILE.svg        measured points over the bus and wire ceilings\n"
    "  -h, --help             this text\n"
    "\n"
    "Exit codes: 0 ok, 2 bad option or spec, 3 bad input file (file:line:column), 4 no such device,\n"
    "5 not possible here.\n";

enum {
	OPT_CPUS = OPT_CMD_BASE,
	OPT_CPU_GHZ,
	OPT_COL,
	OPT_RATE_BASIS,
	OPT_THRESHOLD,
	OPT_INPUT_FORMAT,
};

struct analyze_opts {
	struct cli_model mo;
	const char *cpus, *cpu_ghz, *input_format;
	struct pcibw_ingest_opts ingest;
	struct pcibw_thresholds t;
	char **files;
	int n_files;
};

static int parse_args(int argc, char **argv, struct cli_common *c, struct analyze_opts *a)
{
	static const struct option longopts[] = {
	    CLI_COMMON_LONGOPTS,
	    CLI_MODEL_LONGOPTS,
	    {"cpus", required_argument, 0, OPT_CPUS},
	    {"cpu-ghz", required_argument, 0, OPT_CPU_GHZ},
	    {"col", required_argument, 0, OPT_COL},
	    {"rate-basis", required_argument, 0, OPT_RATE_BASIS},
	    {"threshold", required_argument, 0, OPT_THRESHOLD},
	    {"input-format", required_argument, 0, OPT_INPUT_FORMAT},
	    {0, 0, 0, 0},
	};
	struct pcibw_err err = {0};
	int opt;
	optind = 1;
	opterr = 0;
	/* "+": stop at nothing, but keep FILE arguments (and "-") in order after the options */
	while ((opt = getopt_long(argc, argv, "-:" CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		int r = cli_common_opt(opt, optarg, c, &err);
		if (r < 0)
			return cli_usage_error("analyze", "%s", err.msg);
		if (r > 0 || cli_model_opt(opt, optarg, &a->mo))
			continue;
		switch (opt) {
		case 1:
			a->files[a->n_files++] = optarg;
			break;
		case OPT_CPUS:
			a->cpus = optarg;
			break;
		case OPT_CPU_GHZ:
			a->cpu_ghz = optarg;
			break;
		case OPT_INPUT_FORMAT:
			a->input_format = optarg;
			break;
		case OPT_COL:
			if (pcibw_colmap_add(&a->ingest, optarg, &err))
				return cli_usage_error("analyze", "%s", err.msg);
			break;
		case OPT_RATE_BASIS:
			if (pcibw_rate_basis_parse(optarg, &a->ingest.rate_basis, &err))
				return cli_usage_error("analyze", "%s", err.msg);
			a->ingest.rate_basis_given = true;
			break;
		case OPT_THRESHOLD:
			if (pcibw_threshold_set(&a->t, optarg, &err))
				return cli_usage_error("analyze", "%s", err.msg);
			break;
		case ':':
			return cli_usage_error("analyze", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("analyze", "unknown option '%s'", argv[optind - 1]);
		}
	}
	return PCIBW_OK;
}

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

static int setup_machine(const struct cli_common *c, const struct analyze_opts *a, struct machine_ctx *mc,
			 struct pcibw_err *err)
{
	int st, vendor = -1, device = -1;
	mc->in.pattern = PCIBW_PAT_BOTH;
	mc->in.size_is = PCIBW_SIZE_FRAME;
	mc->in.segment_devices = 1;
	mc->mach.cpus = PCIBW_NULL;
	mc->mach.cpu_mhz = NAN;
	if ((a->mo.pattern && (st = pcibw_pattern_parse(a->mo.pattern, &mc->in.pattern, err))) ||
	    (a->mo.size_is && (st = pcibw_size_is_parse(a->mo.size_is, &mc->in.size_is, err))) ||
	    (a->mo.line_rate && (st = pcibw_line_rate_parse(a->mo.line_rate, &mc->in.line_rate_gbps, err))))
		return PCIBW_EUSAGE;
	if (a->mo.compat) {
		if (strcmp(a->mo.compat, "pcie-bench"))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--compat '%s': the only compatibility mode is pcie-bench",
					  a->mo.compat);
		mc->in.compat = PCIBW_COMPAT_PCIE_BENCH;
	}
	mc->mach.line_rate_gbps = mc->in.line_rate_gbps;
	if (a->mo.segment) {
		char *e;
		long n = strtol(a->mo.segment, &e, 10);
		if (*e || !*a->mo.segment || n < 1 || n > 32)
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--segment-devices '%s': expected 1..32 (a PCI segment "
					  "holds at most 32 devices)",
					  a->mo.segment);
		mc->in.segment_devices = (int)n;
	}

	bool probed = c->probe.slot_filter || c->probe.dump_file || c->probe.sysfs_dir || c->probe.iface;
	if (a->mo.bus && probed)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--bus and a probed device (-s, -i, --dump, --sysfs) both "
				  "name the bus: give one");
	if (a->mo.bus && !strcmp(a->mo.bus, "virtual")) {
		/* a paravirtual NIC (virtio, vmxnet3, netvsc): no bus at all */
		memset(&mc->bus, 0, sizeof mc->bus);
		mc->bus.kind = PCIBW_BUS_VIRTUAL;
		mc->have_bus = true;
		snprintf(mc->bus_from, sizeof mc->bus_from, "--bus");
	} else if (a->mo.bus) {
		if ((st = pcibw_bus_parse(a->mo.bus, &mc->bus, err)))
			return st;
		mc->have_bus = true;
		snprintf(mc->bus_from, sizeof mc->bus_from, "--bus");
	} else if (probed) {
		if ((st = cli_probed_bus(c, &mc->bus, &vendor, &device, mc->bus_from, sizeof mc->bus_from,
					 err)))
			return st;
		mc->have_bus = true;
	}

	char nicwarn[400];
	if ((st = cli_nic_setup(&a->mo, NULL, vendor, device, NULL, mc->have_bus ? &mc->bus : NULL,
				mc->in.line_rate_gbps, &mc->nic, nicwarn, sizeof nicwarn, err)))
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
	if (a->cpus || a->cpu_ghz) {
		char *e;
		if (a->cpus) {
			long n = strtol(a->cpus, &e, 10);
			if (*e || !*a->cpus || n < 1 || n > 1 << 20)
				return pcibw_fail(err, PCIBW_EUSAGE,
						  "--cpus '%s': expected a whole number of CPUs (1 or more)",
						  a->cpus);
			mc->mach.cpus = (int)n;
		}
		if (a->cpu_ghz) {
			double g = strtod(a->cpu_ghz, &e);
			/* decimal, 0.001 to 100 GHz: the 1 MHz .. 10^5 MHz of a cpu_mhz column
			 * (pcibw/ingest.h) */
			if (*e || !*a->cpu_ghz ||
			    strspn(a->cpu_ghz, "0123456789.eE+-") != strlen(a->cpu_ghz) || !(g >= 0.001) ||
			    g > 100)
				return pcibw_fail(err, PCIBW_EUSAGE,
						  "--cpu-ghz '%s': expected a clock in GHz from "
						  "0.001 to 100 (e.g. 2.8)",
						  a->cpu_ghz);
			mc->mach.cpu_mhz = g * 1000;
		}
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

static int run(const struct cli_common *c, struct analyze_opts *a)
{
	struct pcibw_err err = {0};
	struct machine_ctx *mc = calloc(1, sizeof *mc);
	struct pcibw_analyze_input *inputs = calloc((size_t)a->n_files, sizeof *inputs);
	struct pcibw_rows rs = {0};
	struct pcibw_summary sum = {0};
	int st = PCIBW_OK;
	if (!mc || !inputs) {
		st = pcibw_fail(&err, PCIBW_EINTERNAL, "out of memory");
		goto out;
	}
	if (a->input_format) {
		static const char *names[] = {"auto",	 "csv",		 "iperf3",
					      "netperf", "netperf-omni", "pcie-bench"};
		bool ok = false;
		for (int i = 0; i < 6; i++)
			if (!strcmp(a->input_format, names[i])) {
				a->ingest.format = (enum pcibw_format)i;
				ok = true;
			}
		if (!ok) {
			st = pcibw_fail(&err, PCIBW_EUSAGE,
					"--input-format '%s': expected csv, iperf3, netperf, "
					"netperf-omni or pcie-bench",
					a->input_format);
			goto out;
		}
	}
	if ((st = setup_machine(c, a, mc, &err)))
		goto out;
	long skipped = 0;
	for (int i = 0; i < a->n_files; i++) {
		inputs[i].path = a->files[i];
		if ((st = pcibw_ingest_file(a->files[i], &a->ingest, add_row, &rs, &inputs[i].stats, &err)))
			goto out;
		skipped += inputs[i].stats.skipped;
	}
	if (rs.n == 0) {
		const char *first = "";
		for (int i = 0; i < a->n_files && !first[0]; i++)
			first = inputs[i].stats.first_skip;
		st = pcibw_fail(&err, PCIBW_EINPUT, "%s%s: no measured rows (every line was skipped%s%s)",
				a->files[0], a->n_files > 1 ? " and the other inputs" : "",
				first[0] ? "; first: " : "", first);
		goto out;
	}
	pcibw_rows_finish(&rs);
	ceilings(&rs, mc);
	if ((st = pcibw_verdict_run(&rs, &a->t, &mc->mach, &sum, &err)))
		goto out;
	struct pcibw_analyze_view v = {
	    .rows = &rs,
	    .summary = &sum,
	    .machine = &mc->mach,
	    .thresholds = &a->t,
	    .bus_spec = mc->have_bus ? mc->bus_spec : NULL,
	    .bus_from = mc->have_bus ? mc->bus_from : NULL,
	    .nic = mc->nic_name,
	    .pattern = pcibw_pattern_name(mc->in.pattern),
	    .size_is = pcibw_size_is_name(mc->in.size_is),
	    .cpu_origin = mc->cpu_origin,
	    .inputs = inputs,
	    .n_inputs = a->n_files,
	    .skipped = skipped,
	};
	if (a->mo.plot && (st = pcibw_analyze_render_plot(a->mo.plot, &v, &err)))
		goto out;
	if (c->format == CLI_FMT_JSON)
		st = pcibw_analyze_render_json(stdout, &v);
	else if (c->format == CLI_FMT_CSV)
		st = pcibw_analyze_render_csv(stdout, &v);
	else
		st = pcibw_analyze_render_text(stdout, &v);
	if (st)
		pcibw_fail(&err, st, "cannot write the output");
	else if (c->format != CLI_FMT_TEXT && skipped)
		fprintf(stderr, "pcibw: warning: %ld input line(s) skipped\n", skipped);
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
	struct cli_common c = {0};
	struct analyze_opts a = {0};
	pcibw_thresholds_default(&a.t);
	a.files = calloc((size_t)argc + 1, sizeof *a.files);
	if (!a.files)
		return PCIBW_EINTERNAL;
	int st = parse_args(argc, argv, &c, &a);
	if (!st && c.help) {
		fputs(cmd_analyze_help, stdout);
	} else if (!st) {
		struct pcibw_err err = {0};
		if (cli_check_sources(&c, &err))
			st = cli_usage_error("analyze", "%s", err.msg);
		else if (a.n_files == 0)
			st = cli_usage_error("analyze", "no input: give FILE... ('-' for standard input)");
		else
			st = run(&c, &a);
	}
	free(a.files);
	return st;
}

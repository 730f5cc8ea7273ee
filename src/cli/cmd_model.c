/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw model: the bus ceiling per packet size for a bus (--bus SPEC or a probed device), a NIC
 * profile and a traffic pattern. Parsing and wiring only; the model lives in src/model. */
#include "cli.h"
#include "pcibw/device.h"
#include "pcibw/model.h"
#include "src/render/model_render.h"
#include <stdlib.h>
#include <string.h>

const char cmd_model_help[] =
    "Usage: pcibw model [OPTIONS]\n"
    "The theoretical bus ceiling per packet size (what-if): every transaction a packet costs,\n"
    "with the bus protocol's overheads, against the wire.\n"
    "\n"
    "The bus:\n"
    "  --bus SPEC             gen3x8,mps=256 | 8gtx16 | pcix133/64,mmrbc=512 | pci33/32 ...\n"
    "  -s SLOT                or the bus of a probed device (this machine, --dump FILE, --sysfs DIR)\n"
    "  --dump FILE            config space from an lspci -x/-xxx/-xxxx dump\n"
    "  --sysfs DIR            config space from a copied sysfs tree\n"
    "The traffic:\n"
    "  --nic NAME[,KNOB=V,..] NIC profile (simple, e1000, igb, ixgbe, i40e, ice, mlx5, mlx5-xdp, dpdk-i40e,\n"
    "                         dpdk-mlx5, r8169, bnxt, virtio-net, ...) and driver knobs or section.key\n"
    "                         values; default: by vendor:device when probed, else simple\n"
    "  --nic-set KNOB=VALUE   change a knob (rx_cqe_compress=on) or key (rx.desc_bytes=16) of the\n"
    "                         profile in use; repeatable\n"
    "  --nic-file FILE        a NIC profile from a file\n"
    "  --pattern P            rx, tx, both (default), dma-read, dma-write, dma-rw\n"
    "  --sizes LIST           64,128,1518 | 64-1518/64 | imix | SIZE:WEIGHT,... (default "
    "64,128,256,512,1024,1518)\n"
    "  --size-is CONV         frame (default), dma, l3, udp-payload\n"
    "  --line-rate RATE       10G, 2.5G, 100M, ... (1M..100000G): add the wire ceiling\n"
    "  --segment-devices N    PCI/PCI-X: devices on the segment moving the same traffic (default 1)\n"
    "  --compat pcie-bench    reproduce pcie-bench's pcie-model exactly\n"
    "Output:\n"
    "  --format text|json|csv, --json\n"
    "  --plot FILE.svg        draw the ceilings against packet size\n"
    "  --explain              per size, each bus operation a packet costs, its bytes per packet in\n"
    "                         each direction and the knob or key behind it (JSON: rows[].recipe)\n"
    "  -h, --help             this text\n"
    "\n"
    "Rates count the bytes of the --size-is convention; for `both` they are per direction.\n"
    "Exit codes: 0 ok, 2 bad option or spec, 3 bad input file, 4 no such device, 5 not possible here.\n";

enum { OPT_NIC_FILE = OPT_CMD_BASE, OPT_SIZES, OPT_EXPLAIN };

struct model_opts {
	struct cli_model mo;
	const char *nic_file, *sizes;
	bool explain;
};

static int parse_args(int argc, char **argv, struct cli_common *c, struct model_opts *m)
{
	static const struct option longopts[] = {
	    CLI_COMMON_LONGOPTS,
	    CLI_MODEL_LONGOPTS,
	    {"nic-file", required_argument, 0, OPT_NIC_FILE},
	    {"sizes", required_argument, 0, OPT_SIZES},
	    {"explain", no_argument, 0, OPT_EXPLAIN},
	    {0, 0, 0, 0},
	};
	struct pcibw_err err = {0};
	int opt;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":" CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		int r = cli_common_opt(opt, optarg, c, &err);
		if (r < 0)
			return cli_usage_error("model", "%s", err.msg);
		if (r > 0 || cli_model_opt(opt, optarg, &m->mo))
			continue;
		switch (opt) {
		case OPT_NIC_FILE:
			m->nic_file = optarg;
			break;
		case OPT_SIZES:
			m->sizes = optarg;
			break;
		case OPT_EXPLAIN:
			m->explain = true;
			break;
		case ':':
			return cli_usage_error("model", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("model", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("model", "unexpected argument '%s'", argv[optind]);
	return PCIBW_OK;
}

static int run(const struct cli_common *c, const struct model_opts *m)
{
	struct pcibw_err err = {0};
	struct pcibw_bus bus;
	struct pcibw_nic nic;
	struct pcibw_sizes sizes = {0};
	struct pcibw_model_in in = {0};
	char from[1200] = "--bus";
	const char *warnings[6];
	char warnbuf[6][400];
	int nwarn = 0, vendor = -1, device = -1, st;

	in.pattern = PCIBW_PAT_BOTH;
	in.size_is = PCIBW_SIZE_FRAME;
	in.segment_devices = 1;
	if ((m->mo.pattern && (st = pcibw_pattern_parse(m->mo.pattern, &in.pattern, &err))) ||
	    (m->mo.size_is && (st = pcibw_size_is_parse(m->mo.size_is, &in.size_is, &err))) ||
	    (m->mo.line_rate && (st = pcibw_line_rate_parse(m->mo.line_rate, &in.line_rate_gbps, &err))))
		return cli_usage_error("model", "%s", err.msg);
	if (m->mo.compat) {
		if (strcmp(m->mo.compat, "pcie-bench"))
			return cli_usage_error("model",
					       "--compat '%s': the only compatibility mode is pcie-bench",
					       m->mo.compat);
		in.compat = PCIBW_COMPAT_PCIE_BENCH;
	}
	if (m->mo.segment) {
		char *e;
		long n = strtol(m->mo.segment, &e, 10);
		if (*e || !*m->mo.segment || *m->mo.segment < '0' || *m->mo.segment > '9' || n < 1 || n > 32)
			return cli_usage_error("model",
					       "--segment-devices '%s': expected 1..32 (a PCI segment "
					       "holds at most 32 devices)",
					       m->mo.segment);
		in.segment_devices = (int)n;
	}
	if ((st = pcibw_sizes_parse(m->sizes ? m->sizes : "64,128,256,512,1024,1518", &sizes, &err)))
		return cli_usage_error("model", "%s", err.msg);

	bool probed = c->probe.slot_filter || c->probe.dump_file || c->probe.sysfs_dir || c->probe.iface;
	if (m->mo.bus && probed) {
		pcibw_sizes_free(&sizes);
		return cli_usage_error("model",
				       "--bus and a probed device (-s, -i, --dump, --sysfs) both name "
				       "the bus: give one");
	}
	if (c->probe.topology_file) {
		pcibw_sizes_free(&sizes);
		return cli_usage_error(
		    "model", "--topology holds no config space: give --bus SPEC, or --dump/--sysfs");
	}
	if (m->mo.bus)
		st = pcibw_bus_parse(m->mo.bus, &bus, &err);
	else
		st = cli_probed_bus(c, &bus, &vendor, &device, from, sizeof from, &err);
	if (st) {
		pcibw_sizes_free(&sizes);
		return st == PCIBW_EUSAGE ? cli_usage_error("model", "%s", err.msg) : cli_error(&err);
	}

	if (in.compat == PCIBW_COMPAT_PCIE_BENCH &&
	    (bus.kind == PCIBW_BUS_PCI || bus.kind == PCIBW_BUS_PCIX)) {
		/* pcie-model has no PCI or PCI-X model: "compatible accounting" would be a false label */
		pcibw_sizes_free(&sizes);
		return cli_usage_error("model",
				       "--compat pcie-bench reproduces pcie-bench's PCIe model; it has "
				       "none for a %s bus: drop --compat",
				       pcibw_bus_kind_name(bus.kind));
	}
	char nicwarn[400];
	st = cli_nic_setup(&m->mo, m->nic_file, vendor, device, NULL, &bus, in.line_rate_gbps, &nic, nicwarn,
			   sizeof nicwarn, &err);
	if (nicwarn[0]) {
		snprintf(warnbuf[nwarn], sizeof warnbuf[0], "%s", nicwarn);
		warnings[nwarn] = warnbuf[nwarn];
		nwarn++;
	}
	if (st) {
		pcibw_sizes_free(&sizes);
		return st == PCIBW_EUSAGE ? cli_usage_error("model", "%s", err.msg) : cli_error(&err);
	}
	if (bus.note[0]) {
		snprintf(warnbuf[nwarn], sizeof warnbuf[0], "%s", bus.note);
		warnings[nwarn] = warnbuf[nwarn];
		nwarn++;
	}
	if (bus.kind == PCIBW_BUS_VIRTUAL) {
		snprintf(warnbuf[nwarn], sizeof warnbuf[0],
			 "a paravirtual device has no bus ceiling: the host's "
			 "CPU and memory set its limit");
		warnings[nwarn] = warnbuf[nwarn];
		nwarn++;
	}

	in.bus = &bus;
	in.nic = &nic;
	int nrows = sizes.is_mix ? 1 : sizes.n;
	struct pcibw_model_row *rows = calloc((size_t)nrows, sizeof *rows);
	const char **labels = calloc((size_t)nrows, sizeof *labels);
	if (!rows || !labels) {
		free(rows), free(labels), pcibw_sizes_free(&sizes);
		pcibw_fail(&err, PCIBW_EINTERNAL, "out of memory");
		return cli_error(&err);
	}
	if (sizes.is_mix) {
		st = pcibw_model_eval_mix(&in, &sizes, &rows[0], &err);
		labels[0] = sizes.label;
	} else {
		for (int i = 0; i < nrows && !st; i++)
			st = pcibw_model_eval(&in, sizes.v[i].bytes, &rows[i], &err);
	}
	struct pcibw_explain_op *recipe = NULL;
	int *recipe_n = NULL;
	if (!st && m->explain && !sizes.is_mix) {
		recipe = calloc((size_t)nrows * PCIBW_MAX_OPS, sizeof *recipe);
		recipe_n = calloc((size_t)nrows, sizeof *recipe_n);
		if (!recipe || !recipe_n)
			st = pcibw_fail(&err, PCIBW_EINTERNAL, "out of memory");
		for (int i = 0; i < nrows && !st; i++)
			st = pcibw_model_explain(&in, sizes.v[i].bytes, recipe + (size_t)i * PCIBW_MAX_OPS,
						 PCIBW_MAX_OPS, &recipe_n[i], &err);
	}
	struct pcibw_model_view v = {&bus,	&nic,  in.pattern, in.size_is, in.line_rate_gbps,
				     in.compat, from,  rows,	   labels,     nrows,
				     warnings,	nwarn, recipe,	   recipe_n,   PCIBW_MAX_OPS};
	if (!st && m->mo.plot)
		st = pcibw_model_render_plot(m->mo.plot, &v, &err);
	if (!st) {
		if (c->format == CLI_FMT_JSON)
			st = pcibw_model_render_json(stdout, &v);
		else if (c->format == CLI_FMT_CSV)
			st = pcibw_model_render_csv(stdout, &v);
		else
			st = pcibw_model_render_text(stdout, &v);
		if (st)
			pcibw_fail(&err, st, "cannot write the output");
		else if (c->format != CLI_FMT_TEXT)
			for (int i = 0; i < nwarn; i++)
				fprintf(stderr, "pcibw: warning: %s\n", warnings[i]);
	}
	free(rows);
	free(labels);
	free(recipe);
	free(recipe_n);
	pcibw_sizes_free(&sizes);
	if (st)
		return st == PCIBW_EUSAGE ? cli_usage_error("model", "%s", err.msg) : cli_error(&err);
	return PCIBW_OK;
}

int cmd_model(int argc, char **argv)
{
	struct cli_common c = {0};
	struct model_opts m = {0};
	int st = parse_args(argc, argv, &c, &m);
	if (st)
		return st;
	if (c.help) {
		fputs(cmd_model_help, stdout);
		return 0;
	}
	struct pcibw_err err = {0};
	if (cli_check_sources(&c, &err))
		return cli_usage_error("model", "%s", err.msg);
	return run(&c, &m);
}

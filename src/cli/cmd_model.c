/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw model: the bus ceiling per packet size for a bus (--bus SPEC or a probed device), a NIC
 * profile and a traffic pattern. Parsing and wiring only; the model lives in src/model. */
#include "cli.h"
#include "pcibw/device.h"
#include "pcibw/model.h"
#include "src/render/model_render.h"
#include <stdlib.h>
#include <string.h>

static int run(const struct pcibw_request *c)
{
	struct pcibw_err err = {0};
	struct pcibw_bus bus;
	struct pcibw_nic nic;
	struct pcibw_sizes sizes = {0};
	struct pcibw_model_in in = {0};
	char from[1200] = "--bus";
	const char *warnings[8];
	char warnbuf[8][400];
	int nwarn = 0, vendor = -1, device = -1, st;

	in.pattern = c->pattern;
	in.size_is = c->size_is;
	in.line_rate_gbps = c->line_rate_gbps;
	in.compat = c->compat;
	in.segment_devices = c->segment_devices;
	if ((st = pcibw_sizes_parse(c->sizes ? c->sizes : "64,128,256,512,1024,1518", &sizes, &err)))
		return cli_usage_error("model", "%s", err.msg);

	bool probed = c->probe.slot_filter || c->probe.dump_file || c->probe.sysfs_dir || c->probe.iface;
	if (c->bus && probed) {
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
	if (c->bus_set && c->bus) {
		pcibw_sizes_free(&sizes);
		return cli_usage_error("model",
				       "--bus-set changes a probed device (-s, -i, --dump, --sysfs); "
				       "with --bus, put the modifiers in the spec");
	}
	if (c->bus)
		st = pcibw_bus_parse(c->bus, &bus, &err);
	else
		st = cli_probed_bus(c, &bus, &vendor, &device, from, sizeof from, &err);
	if (!st && c->bus_set) {
		st = pcibw_bus_apply(&bus, c->bus_set, &err);
		size_t l = strlen(from);
		snprintf(from + l, sizeof from - l, " with --bus-set %s", c->bus_set);
	}
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
	st = cli_nic_setup(c, vendor, device, NULL, &bus, &nic, nicwarn, sizeof nicwarn, &err);
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
	if (bus.kind == PCIBW_BUS_PCIE && bus.aspm > 0) {
		static const char *const names[] = {"off", "L0s", "L1", "L0s and L1"};
		snprintf(warnbuf[nwarn], sizeof warnbuf[0],
			 "ASPM %s is on for this link: the ceilings are the same (an exit from a low-power "
			 "state costs latency per wake, not bandwidth), but a link that idles between bursts "
			 "pays it on every burst",
			 names[bus.aspm & 3]);
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
	if (!st && c->explain && !sizes.is_mix) {
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
	if (!st && c->plot)
		st = pcibw_model_render_plot(c->plot, &v, &err);
	if (!st) {
		if (c->format == PCIBW_OUT_JSON)
			st = pcibw_model_render_json(stdout, &v);
		else if (c->format == PCIBW_OUT_CSV)
			st = pcibw_model_render_csv(stdout, &v);
		else
			st = pcibw_model_render_text(stdout, &v);
		if (st && ferror(stdout))
			st = PCIBW_OK; /* a failed write: main says why (finish_output) */
		else if (st)
			pcibw_fail(&err, st, "cannot render the output");
		else if (c->format != PCIBW_OUT_TEXT)
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
	struct pcibw_request req;
	struct pcibw_err err = {0};
	int st = cli_parse(PCIBW_CMD_MODEL, argc, argv, &req);
	if (st < 0)
		st = cli_check_sources(&req, &err) ? cli_usage_error("model", "%s", err.msg) : run(&req);
	pcibw_request_free(&req);
	return st;
}

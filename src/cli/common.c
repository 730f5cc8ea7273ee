/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"
#include "pcibw/bus.h"
#include "pcibw/device.h"
#include "src/render/help_render.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *command_name(enum pcibw_command cmd)
{
	for (int i = 0; i < pcibw_n_commands; i++)
		if (pcibw_commands[i].bit == cmd)
			return pcibw_commands[i].name;
	return "";
}

int cli_parse(enum pcibw_command cmd, int argc, char **argv, struct pcibw_request *req)
{
	struct pcibw_err err = {0};
	pcibw_request_init(req, cmd);
	int st = pcibw_request_parse(req, cmd, argc, argv, &err);
	if (st == PCIBW_EUSAGE)
		return cli_usage_error(command_name(cmd), "%s", err.msg);
	if (st)
		return cli_error(&err);
	if (req->help)
		return cli_help(command_name(cmd));
	return -1;
}

int cli_help(const char *name)
{
	const struct pcibw_command_info *ci = pcibw_command_find(name);
	if (!ci)
		return PCIBW_EINTERNAL;
	if (pcibw_help_render_text(stdout, ci) || fflush(stdout)) {
		struct pcibw_err err;
		pcibw_fail(&err, PCIBW_EINTERNAL, "cannot write the help");
		return cli_error(&err);
	}
	return 0;
}

int cli_check_sources(const struct pcibw_request *req, struct pcibw_err *err)
{
	int n = !!req->probe.dump_file + !!req->probe.sysfs_dir + !!req->probe.topology_file;
	if (n > 1)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--dump, --sysfs and --topology name different machines: give at most one");
	return PCIBW_OK;
}

int cli_error(const struct pcibw_err *err)
{
	fprintf(stderr, "pcibw: %s\n", err->msg[0] ? err->msg : "error");
	return err->code ? (int)err->code : PCIBW_EINTERNAL;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "pcibw%s%s: ", cmd[0] ? " " : "", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'pcibw%s%s --help'.\n", cmd[0] ? " " : "", cmd);
	return PCIBW_EUSAGE;
}

int cli_probed_bus(const struct pcibw_request *req, struct pcibw_bus *bus, int *vendor, int *device,
		   char *from, size_t from_len, struct pcibw_err *err)
{
	struct pcibw_report rep = {0};
	int st = pcibw_probe(&req->probe, &rep, err);
	if (st) {
		pcibw_report_free(&rep);
		return st;
	}
	if (rep.n_devices == 0) {
		pcibw_report_free(&rep);
		return pcibw_fail(err, PCIBW_ENOMATCH,
				  "no network device matched: give -s SLOT (and --all for "
				  "other classes) or --bus SPEC");
	}
	if (rep.n_devices > 1) {
		char list[512] = "";
		size_t o = 0;
		for (int i = 0; i < rep.n_devices && o < sizeof list; i++)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "",
					      rep.devices[i].slot);
		pcibw_report_free(&rep);
		return pcibw_fail(err, PCIBW_EUSAGE, "several devices match (%s): pick one with -s SLOT",
				  list);
	}
	const struct pcibw_device *d = &rep.devices[0];
	*vendor = d->vendor_id;
	*device = d->device_id;
	snprintf(from, from_len, "%s (%s)", d->slot, rep.source);
	if (d->is_virtual) {
		memset(bus, 0, sizeof *bus);
		bus->kind = PCIBW_BUS_VIRTUAL;
	} else {
		st = pcibw_bus_from_device(d, bus, err);
	}
	/* a link read from sysfs without root has no Device Control: say the registers are assumed */
	if (!st && bus->kind == PCIBW_BUS_PCIE && !bus->note[0] && (bus->mps_default || bus->mrrs_default))
		snprintf(bus->note, sizeof bus->note,
			 "%s: MPS/MRRS not in the source (config space past 64 bytes "
			 "needs root or an -xxx dump): assumed MPS %d, MRRS %d",
			 d->slot, bus->mps_bytes, bus->mrrs_bytes);
	pcibw_report_free(&rep);
	return st;
}

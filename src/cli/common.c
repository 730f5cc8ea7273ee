/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"
#include "pcibw/bus.h"
#include "pcibw/device.h"
#include "pcibw/nic.h"
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
	/* A failed write leaves stdout's error flag set: main's last flush names the reason
	 * (`cannot write output: ...`), or stays quiet for a reader that went away. */
	if (pcibw_help_render_text(stdout, ci) || fflush(stdout))
		return PCIBW_EINTERNAL;
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

int cli_nic_setup(const struct pcibw_request *req, int vendor, int device, const char *driver,
		  const struct pcibw_bus *bus, struct pcibw_nic *nic, char *warn, size_t warn_len,
		  struct pcibw_err *err)
{
	enum { MAX_SETS = 16 };
	char name[128] = "", buf[64], setbuf[MAX_SETS][128];
	const char *sets[2 * MAX_SETS];
	int nsets = 0, st;
	warn[0] = '\0';
	if (req->nic_file && req->nic)
		return pcibw_fail(err, PCIBW_EUSAGE, "--nic and --nic-file both name the profile: give one");
	if (req->nic) {
		/* NAME,KNOB=VALUE,...: the name, then the profile's own overrides */
		const char *comma = strchr(req->nic, ',');
		size_t len = comma ? (size_t)(comma - req->nic) : strlen(req->nic);
		if (len >= sizeof name)
			return pcibw_fail(err, PCIBW_EUSAGE, "--nic '%s': the profile name is too long",
					  req->nic);
		snprintf(name, sizeof name, "%.*s", (int)len, req->nic);
		for (const char *p = comma; p && *p;) {
			const char *q = strchr(p + 1, ',');
			size_t l = q ? (size_t)(q - p - 1) : strlen(p + 1);
			if (nsets >= MAX_SETS || l >= sizeof setbuf[0] || l == 0)
				return pcibw_fail(
				    err, PCIBW_EUSAGE,
				    "--nic '%s': expected NAME,KNOB=VALUE,... (at most %d, none "
				    "empty)",
				    req->nic, MAX_SETS);
			snprintf(setbuf[nsets], sizeof setbuf[0], "%.*s", (int)l, p + 1);
			sets[nsets] = setbuf[nsets];
			nsets++;
			p = q;
		}
	}
	for (int i = 0; i < req->n_nic_sets && i < MAX_SETS; i++)
		sets[nsets++] = req->nic_sets[i];
	if (req->nic_file)
		st = pcibw_nic_load_file(req->nic_file, nic, err);
	else {
		const char *use = name[0] ? name : NULL;
		if (!use && vendor >= 0)
			use = pcibw_nic_default_name(vendor, device, driver, NULL, buf, sizeof buf);
		if (!use) {
			if (vendor >= 0)
				snprintf(
				    warn, warn_len,
				    "no NIC profile lists %04x:%04x; using 'simple' (pick one with --nic)",
				    (unsigned)vendor, (unsigned)device);
			use = "simple";
		}
		st = pcibw_nic_load(use, NULL, nic, err);
	}
	if (st)
		return st;
	return pcibw_nic_configure(nic, bus, req->line_rate_gbps, sets, nsets, err);
}

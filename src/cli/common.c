/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"
#include "pcibw/bus.h"
#include "pcibw/device.h"
#include "pcibw/nic.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cli_common_opt(int opt, const char *arg, struct cli_common *c, struct pcibw_err *err)
{
	switch (opt) {
	case OPT_FORMAT:
		if (!strcmp(arg, "text"))
			c->format = CLI_FMT_TEXT;
		else if (!strcmp(arg, "json"))
			c->format = CLI_FMT_JSON;
		else if (!strcmp(arg, "csv"))
			c->format = CLI_FMT_CSV;
		else
			return -pcibw_fail(err, PCIBW_EUSAGE, "--format '%s': expected text, json or csv",
					   arg);
		return 1;
	case OPT_JSON:
		c->format = CLI_FMT_JSON;
		return 1;
	case OPT_DUMP:
		c->probe.dump_file = arg;
		return 1;
	case OPT_SYSFS:
		c->probe.sysfs_dir = arg;
		return 1;
	case OPT_TOPOLOGY:
		c->probe.topology_file = arg;
		return 1;
	case OPT_ALL:
		c->probe.all = true;
		return 1;
	case OPT_PCI_IDS:
		c->probe.pci_ids = arg;
		return 1;
	case 's':
		c->probe.slot_filter = arg;
		return 1;
	case 'i':
		c->probe.iface = arg;
		return 1;
	case 'h':
		c->help = true;
		return 1;
	default:
		return 0;
	}
}

int cli_model_opt(int opt, const char *arg, struct cli_model *m)
{
	switch (opt) {
	case OPT_BUS:
		m->bus = arg;
		return 1;
	case OPT_NIC:
		m->nic = arg;
		return 1;
	case OPT_PATTERN:
		m->pattern = arg;
		return 1;
	case OPT_SIZE_IS:
		m->size_is = arg;
		return 1;
	case OPT_LINE_RATE:
		m->line_rate = arg;
		return 1;
	case OPT_COMPAT:
		m->compat = arg;
		return 1;
	case OPT_PLOT:
		m->plot = arg;
		return 1;
	case OPT_SEGMENT:
		m->segment = arg;
		return 1;
	case OPT_NIC_SET:
		if (m->n_nic_sets < CLI_MAX_NIC_SETS)
			m->nic_sets[m->n_nic_sets] = arg;
		m->n_nic_sets++;
		return 1;
	default:
		return 0;
	}
}

int cli_check_sources(const struct cli_common *c, struct pcibw_err *err)
{
	int n = !!c->probe.dump_file + !!c->probe.sysfs_dir + !!c->probe.topology_file;
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

int cli_probed_bus(const struct cli_common *c, struct pcibw_bus *bus, int *vendor, int *device, char *from,
		   size_t from_len, struct pcibw_err *err)
{
	struct pcibw_report rep = {0};
	int st = pcibw_probe(&c->probe, &rep, err);
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

int cli_nic_setup(const struct cli_model *m, const char *nic_file, int vendor, int device, const char *driver,
		  const struct pcibw_bus *bus, double line_gbps, struct pcibw_nic *nic, char *warn,
		  size_t warn_len, struct pcibw_err *err)
{
	char name[128] = "", buf[64];
	const char *sets[2 * CLI_MAX_NIC_SETS];
	char setbuf[CLI_MAX_NIC_SETS][128];
	int nsets = 0, st;
	warn[0] = '\0';
	if (m->n_nic_sets > CLI_MAX_NIC_SETS)
		return pcibw_fail(err, PCIBW_EUSAGE, "--nic-set given %d times: at most %d", m->n_nic_sets,
				  CLI_MAX_NIC_SETS);
	if (nic_file && m->nic)
		return pcibw_fail(err, PCIBW_EUSAGE, "--nic and --nic-file both name the profile: give one");
	if (m->nic) {
		/* NAME,KNOB=VALUE,...: the name, then the profile's own overrides */
		const char *comma = strchr(m->nic, ',');
		size_t len = comma ? (size_t)(comma - m->nic) : strlen(m->nic);
		if (len >= sizeof name)
			return pcibw_fail(err, PCIBW_EUSAGE, "--nic '%s': the profile name is too long",
					  m->nic);
		snprintf(name, sizeof name, "%.*s", (int)len, m->nic);
		for (const char *p = comma; p && *p;) {
			const char *q = strchr(p + 1, ',');
			size_t l = q ? (size_t)(q - p - 1) : strlen(p + 1);
			if (nsets >= CLI_MAX_NIC_SETS || l >= sizeof setbuf[0] || l == 0)
				return pcibw_fail(
				    err, PCIBW_EUSAGE,
				    "--nic '%s': expected NAME,KNOB=VALUE,... (at most %d, none "
				    "empty)",
				    m->nic, CLI_MAX_NIC_SETS);
			snprintf(setbuf[nsets], sizeof setbuf[0], "%.*s", (int)l, p + 1);
			sets[nsets] = setbuf[nsets];
			nsets++;
			p = q;
		}
	}
	for (int i = 0; i < m->n_nic_sets; i++)
		sets[nsets++] = m->nic_sets[i];
	if (nic_file)
		st = pcibw_nic_load_file(nic_file, nic, err);
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
	return pcibw_nic_configure(nic, bus, line_gbps, sets, nsets, err);
}

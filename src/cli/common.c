/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

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
			return -pcibw_fail(err, PCIBW_EUSAGE, "--format '%s': expected text, json or csv", arg);
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw report: the bus each network controller runs on, its path and its bottleneck hop. */
#include "cli.h"
#include "pcibw/probe.h"
#include "src/render/report_render.h"
#include <stdio.h>
#include <string.h>

const char cmd_report_help[] =
    "Usage: pcibw report [OPTIONS]\n"
    "       pcibw [OPTIONS]\n"
    "For each network controller (class 0x02, InfiniBand 0x0c06): the bus it runs on (PCI,\n"
    "PCI-X or PCIe: clock, width, link speed and width, MPS/MRRS/MMRBC), the path to the root\n"
    "complex and the hop with the least bandwidth. Reads this machine unless a source is given.\n"
    "\n"
    "Sources (at most one):\n"
    "  --dump FILE         an lspci -x/-xxx/-xxxx dump (-xxx or -xxxx show capabilities)\n"
    "  --sysfs DIR         a copied sysfs tree (DIR/bus/pci/devices/...)\n"
    "  --topology FILE     an hwloc XML export (no config space)\n"
    "\n"
    "Options:\n"
    "  -s [[DOMAIN:]BUS:]DEV.FN   only these devices (as lspci -s)\n"
    "  -i IFACE            only the device behind this interface name\n"
    "  --all               every device, not only network controllers\n"
    "  --format text|json|csv  output format (default text); --json = --format json;\n"
    "                      csv: one row per device, warnings on standard error\n"
    "  --pci-ids FILE      pci.ids to name devices with (default: libpci's)\n"
    "  -h, --help          this help\n"
    "\n"
    "Exit codes: 0 ok, 2 usage, 3 bad input (file:line:column), 4 nothing matched,\n"
    "5 not possible here, 1 internal error or output not written. JSON keys: doc/json.md.\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {CLI_COMMON_LONGOPTS, {0, 0, 0, 0}};
	struct cli_common c = {.format = CLI_FMT_TEXT};
	struct pcibw_err err;
	pcibw_err_clear(&err);
	optind = 1;
	opterr = 0;
	int opt;
	/* leading ':' so that a missing value is told apart from an unknown option */
	while ((opt = getopt_long(argc, argv, ":" CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		if (opt == ':')
			return cli_usage_error("report", "option '%s' needs a value",
					       optopt && optopt < 256 ? (char[]){'-', (char)optopt, 0}
								      : argv[optind - 1]);
		if (opt == '?') {
			const char *bad = argv[optind - 1];
			if (optopt && optopt < 256 && (!bad || bad[0] != '-' || bad[1] == '-' || !bad[1]))
				return cli_usage_error("report", "option -%c: missing or unknown", optopt);
			return cli_usage_error("report", "unknown option '%s'", bad ? bad : "?");
		}
		int r = cli_common_opt(opt, optarg, &c, &err);
		if (r < 0)
			return cli_usage_error("report", "%s", err.msg);
		if (r == 0)
			return cli_usage_error("report", "unknown option '%s'", argv[optind - 1]);
	}
	if (c.help) {
		fputs(cmd_report_help, stdout);
		return 0;
	}
	if (optind < argc)
		return cli_usage_error("report", "unexpected argument '%s'", argv[optind]);
	if (cli_check_sources(&c, &err))
		return cli_usage_error("report", "%s", err.msg);

	struct pcibw_report rep = {0};
	int r = pcibw_probe(&c.probe, &rep, &err);
	if (r) {
		pcibw_report_free(&rep);
		return cli_error(&err);
	}
	r = c.format == CLI_FMT_JSON  ? pcibw_report_render_json(stdout, &rep)
	    : c.format == CLI_FMT_CSV ? pcibw_report_render_csv(stdout, &rep)
				      : pcibw_report_render_text(stdout, &rep);
	pcibw_report_free(&rep);
	/* a failed write is main's to report (finish_output), with its reason */
	if (r && !ferror(stdout)) {
		pcibw_fail(&err, PCIBW_EINTERNAL, "cannot render the report");
		return cli_error(&err);
	}
	return 0;
}

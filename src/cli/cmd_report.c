/* SPDX-License-Identifier: GPL-2.0-or-later */
/* placeholder while pcibw report is written */
#include "cli.h"
const char cmd_report_help[] = "Usage: pcibw report [OPTIONS]\n";
int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct pcibw_err e;
	pcibw_fail(&e, PCIBW_EINTERNAL, "report is not built yet");
	return cli_error(&e);
}

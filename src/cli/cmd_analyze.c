/* SPDX-License-Identifier: GPL-2.0-or-later */
/* placeholder while pcibw analyze is written */
#include "cli.h"
const char cmd_analyze_help[] = "Usage: pcibw analyze [OPTIONS]\n";
int cmd_analyze(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct pcibw_err e;
	pcibw_fail(&e, PCIBW_EINTERNAL, "analyze is not built yet");
	return cli_error(&e);
}

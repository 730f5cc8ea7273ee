/* SPDX-License-Identifier: GPL-2.0-or-later */
/* placeholder while pcibw model is written */
#include "cli.h"
const char cmd_model_help[] = "Usage: pcibw model [OPTIONS]\n";
int cmd_model(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct pcibw_err e;
	pcibw_fail(&e, PCIBW_EINTERNAL, "model is not built yet");
	return cli_error(&e);
}

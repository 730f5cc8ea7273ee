/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --help text from the option table: what getopt accepts is what the help lists. */
#include "help_render.h"
#include "text_wrap.h"
#include <string.h>

/* the help column: "  --segment-devices N    " is 25 wide */
#define HELP_COL 25

static const char *const group_title[PCIBW_GRP_N] = {
    [PCIBW_GRP_INPUT] = "Reading the inputs:",
    [PCIBW_GRP_DEVICE] = "The device:",
    [PCIBW_GRP_SOURCE] = "The machine (at most one source; default: this machine):",
    [PCIBW_GRP_SAMPLE] = "Sampling and recordings:",
    [PCIBW_GRP_BUS] = "The bus:",
    [PCIBW_GRP_TRAFFIC] = "The traffic:",
    [PCIBW_GRP_CPU] = "The CPU:",
    [PCIBW_GRP_VERDICT] = "Verdicts:",
    [PCIBW_GRP_OUTPUT] = "Output:",
};

static void option_line(FILE *f, const struct pcibw_option *o)
{
	char left[96];
	int n;
	if (o->name && o->short_name)
		n = snprintf(left, sizeof left, "  -%c, --%s%s%s", o->short_name, o->name,
			     o->metavar ? " " : "", o->metavar ? o->metavar : "");
	else
		n = snprintf(left, sizeof left, "  %s%s%s", pcibw_option_label(o), o->metavar ? " " : "",
			     o->metavar ? o->metavar : "");
	if (n > HELP_COL - 2)
		fprintf(f, "%s\n%*s", left, HELP_COL, "");
	else
		fprintf(f, "%-*s", HELP_COL, left);
	for (const char *p = o->help; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		fprintf(f, "%.*s\n", (int)len, p);
		if (!nl)
			break;
		p = nl + 1;
		fprintf(f, "%*s", HELP_COL, "");
	}
}

int pcibw_help_render_text(FILE *f, const struct pcibw_command_info *cmd, const char *profiles)
{
	bool takes_nic = false;
	fprintf(f, "%s%s\n", cmd->usage, cmd->about);
	for (int g = 0; g < PCIBW_GRP_N; g++) {
		bool title = false;
		for (int i = 0; i < pcibw_n_options; i++) {
			const struct pcibw_option *o = &pcibw_options[i];
			if (!(o->commands & cmd->bit) || (int)o->group != g)
				continue;
			if (!title)
				fprintf(f, "%s\n", group_title[g]);
			title = true;
			option_line(f, o);
			takes_nic |= o->name && !strcmp(o->name, "nic");
		}
	}
	if (takes_nic)
		pcibw_text_wrapped(f, "NIC profiles (--nic NAME): ",
				   profiles && *profiles ? profiles
							 : "none found (set PCIBW_DATA_DIR to the "
							   "directory holding nic/)");
	fprintf(f, "\n%s", cmd->footer);
	return ferror(f) ? PCIBW_EINTERNAL : PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"
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
	/* the profiles --nic accepts, from the profile directory itself */
	char profiles[2048];
	if (pcibw_help_render_text(stdout, ci,
				   pcibw_nic_names(NULL, profiles, sizeof profiles) > 0 ? profiles : NULL) ||
	    fflush(stdout))
		return PCIBW_EINTERNAL;
	return 0;
}

void cli_warnings(const struct pcibw_request *req, const char *const *warnings, int n)
{
	if (req->format == PCIBW_OUT_TEXT)
		return;
	for (int i = 0; i < n; i++)
		pcibw_put_message(stderr, "pcibw: warning: ", warnings[i]);
}

int cli_error(const struct pcibw_err *err)
{
	pcibw_put_message(stderr, "pcibw: ", err->msg[0] ? err->msg : "error");
	return err->code ? (int)err->code : PCIBW_EINTERNAL;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	char prefix[64], msg[2048];
	snprintf(prefix, sizeof prefix, "pcibw%s%s: ", cmd[0] ? " " : "", cmd);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* the message quotes the command line (an argument may hold any byte) */
	pcibw_put_message(stderr, prefix, msg);
	fprintf(stderr, "Try 'pcibw%s%s --help'.\n", cmd[0] ? " " : "", cmd);
	return PCIBW_EUSAGE;
}

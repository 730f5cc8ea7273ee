/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw report: the bus each network controller runs on, its path and its bottleneck hop. */
#include "cli.h"
#include "pcibw/probe.h"
#include "src/render/report_render.h"
#include "src/util/atomic_file.h"
#include <stdio.h>
#include <string.h>

/* the textfile's writer takes any render: this one's */
static int prometheus(FILE *f, const void *rep)
{
	return pcibw_report_render_prometheus(f, rep);
}

int cmd_report(int argc, char **argv)
{
	struct pcibw_request req;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	int r = cli_parse(PCIBW_CMD_REPORT, argc, argv, &req);
	pcibw_request_free(&req);
	if (r >= 0)
		return r;
	if (pcibw_request_check_sources(&req, &err))
		return cli_usage_error("report", "%s", err.msg);
	if (req.textfile && req.format != PCIBW_OUT_PROMETHEUS) {
		return cli_usage_error("report", "--textfile writes node_exporter's textfile format: "
						 "add --format prometheus");
	}

	struct pcibw_report rep = {0};
	r = pcibw_probe(&req.probe, &rep, &err);
	if (r) {
		pcibw_report_free(&rep);
		return cli_error(&err);
	}
	r = req.textfile			 ? pcibw_textfile_write(req.textfile, prometheus, &rep, &err)
	    : req.format == PCIBW_OUT_JSON	 ? pcibw_report_render_json(stdout, &rep)
	    : req.format == PCIBW_OUT_CSV	 ? pcibw_report_render_csv(stdout, &rep)
	    : req.format == PCIBW_OUT_PROMETHEUS ? pcibw_report_render_prometheus(stdout, &rep)
						 : pcibw_report_render_text(stdout, &rep);
	/* the exposition has no room for them: on standard error */
	if (req.format == PCIBW_OUT_PROMETHEUS) {
		char s[1100];
		for (int i = 0; i < rep.n_warnings; i++)
			pcibw_put_message(
			    stderr, "pcibw: warning: ", pcibw_warning_string(&rep.warnings[i], s, sizeof s));
	}
	pcibw_report_free(&rep);
	if (req.textfile)
		return r ? cli_error(&err) : 0;
	/* a failed write is main's to report (finish_output), with its reason */
	if (r && !ferror(stdout)) {
		pcibw_fail(&err, PCIBW_EINTERNAL, "cannot render the report");
		return cli_error(&err);
	}
	return 0;
}

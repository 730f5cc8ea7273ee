/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw report: the bus each network controller runs on, its path and its bottleneck hop. */
#include "cli.h"
#include "pcibw/probe.h"
#include "src/render/report_render.h"
#include "src/util/atomic_file.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

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
	struct pcibw_atomic_file tf = {0};
	FILE *out = stdout;
	if (req.textfile) {
		if ((r = pcibw_atomic_open(&tf, req.textfile, &err))) {
			pcibw_report_free(&rep);
			return cli_error(&err);
		}
		out = tf.f;
	}
	errno = 0;
	r = req.format == PCIBW_OUT_JSON	 ? pcibw_report_render_json(out, &rep)
	    : req.format == PCIBW_OUT_CSV	 ? pcibw_report_render_csv(out, &rep)
	    : req.format == PCIBW_OUT_PROMETHEUS ? pcibw_report_render_prometheus(out, &rep)
						 : pcibw_report_render_text(out, &rep);
	int write_errno = r ? errno : 0;
	if (req.format == PCIBW_OUT_PROMETHEUS) {
		char s[1100];
		for (int i = 0; i < rep.n_warnings; i++)
			pcibw_put_message(
			    stderr, "pcibw: warning: ", pcibw_warning_string(&rep.warnings[i], s, sizeof s));
	}
	pcibw_report_free(&rep);
	if (req.textfile) {
		if (r) {
			pcibw_atomic_abort(&tf);
			/* a full disk fails the render's own writes: say why, as commit would */
			pcibw_fail(&err, PCIBW_EINTERNAL, "cannot write output: %s: %s", req.textfile,
				   write_errno ? strerror(write_errno) : "write error");
			return cli_error(&err);
		}
		if (pcibw_atomic_commit(&tf, &err))
			return cli_error(&err);
		return 0;
	}
	/* a failed write is main's to report (finish_output), with its reason */
	if (r && !ferror(stdout)) {
		pcibw_fail(&err, PCIBW_EINTERNAL, "cannot render the report");
		return cli_error(&err);
	}
	return 0;
}

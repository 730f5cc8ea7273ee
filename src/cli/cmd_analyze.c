/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw analyze: benchmark results against the bus ceiling (the model), the wire and the CPU, and
 * a verdict. Wiring only: the request layer resolves and runs the pipeline (src/request), the
 * output is src/render's.
 */
#include "cli.h"
#include "pcibw/model.h"
#include "src/render/analyze_render.h"
#include <stdlib.h>
#include <string.h>

static int run(const struct pcibw_request *req)
{
	struct pcibw_err err = {0};
	struct pcibw_resolved *r = calloc(1, sizeof *r);
	struct pcibw_analysis a = {0};
	const char *warnings[PCIBW_MAX_REQUEST_WARNINGS], *codes[PCIBW_MAX_REQUEST_WARNINGS];
	int nw = 0, st;
	if (!r)
		return cli_error(&(struct pcibw_err){PCIBW_EINTERNAL, "out of memory"});
	if ((st = pcibw_request_resolve(req, r, &err)) || (st = pcibw_request_analyze(req, r, &a, &err)))
		goto out;
	/* the bus note and a virtual bus are the verdict's evidence already */
	for (int i = 0; i < r->n_warnings; i++)
		if (strcmp(r->warnings[i].code, "bus-note") && strcmp(r->warnings[i].code, "virtual-bus"))
			codes[nw] = r->warnings[i].code, warnings[nw++] = r->warnings[i].text;
	struct pcibw_analyze_view v = {
	    .rows = &a.rows,
	    .summary = &a.summary,
	    .machine = &a.machine,
	    .thresholds = &req->thresholds,
	    .bus_spec = r->have_bus ? r->bus_spec : NULL,
	    .bus_from = r->have_bus ? r->bus_from : NULL,
	    .nic = r->nic_name,
	    .pattern = pcibw_pattern_name(r->in.pattern),
	    .size_is = pcibw_size_is_name(r->in.size_is),
	    .cpu_origin = r->cpu_origin,
	    .inputs = a.inputs,
	    .n_inputs = a.n_inputs,
	    .skipped = a.skipped,
	    .warnings = warnings,
	    .n_warnings = nw,
	    .warning_codes = codes,
	    .wide = req->wide,
	    .cpu_from = a.cpu_from.valid ? &a.cpu_from : NULL,
	    .series = a.series,
	    .n_series = a.n_series,
	};
	if (req->plot && (st = pcibw_analyze_render_plot(req->plot, &v, &err)))
		goto out;
	st = req->format == PCIBW_OUT_JSON  ? pcibw_analyze_render_json(stdout, &v)
	     : req->format == PCIBW_OUT_CSV ? pcibw_analyze_render_csv(stdout, &v)
					    : pcibw_analyze_render_text(stdout, &v);
	if (st && ferror(stdout)) {
		st = PCIBW_OK; /* a failed write: main says why (finish_output) */
	} else if (st) {
		pcibw_fail(&err, st, "cannot render the output");
	} else {
		cli_warnings(req, warnings, nw);
		for (int i = 0; i < a.n_inputs; i++) {
			const char *iw[8];
			int n = a.inputs[i].stats.n_warnings;
			for (int k = 0; k < n && k < 8; k++)
				iw[k] = a.inputs[i].stats.warnings[k];
			cli_warnings(req, iw, n < 8 ? n : 8);
		}
		if (req->format != PCIBW_OUT_TEXT && a.skipped)
			fprintf(stderr, "pcibw: warning: %ld input line(s) skipped\n", a.skipped);
	}
out:
	pcibw_analysis_free(&a);
	pcibw_resolved_free(r);
	free(r);
	if (st)
		return st == PCIBW_EUSAGE ? cli_usage_error("analyze", "%s", err.msg) : cli_error(&err);
	return PCIBW_OK;
}

int cmd_analyze(int argc, char **argv)
{
	struct pcibw_request req;
	int st = cli_parse(PCIBW_CMD_ANALYZE, argc, argv, &req);
	if (st < 0)
		st = req.n_files
			 ? run(&req)
			 : cli_usage_error("analyze", "no input: give FILE... ('-' for standard input)");
	pcibw_request_free(&req);
	return st;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw model: the bus ceiling per packet size for a bus (--bus SPEC or a probed device), a NIC
 * profile and a traffic pattern. Wiring only: the request layer resolves, src/model computes,
 * src/render prints. */
#include "cli.h"
#include "src/render/model_render.h"
#include <stdlib.h>

static int run(const struct pcibw_request *req)
{
	struct pcibw_err err = {0};
	struct pcibw_resolved *r = calloc(1, sizeof *r);
	struct pcibw_model_row *rows = NULL;
	const char **labels = NULL;
	struct pcibw_explain_op *recipe = NULL;
	int *recipe_n = NULL;
	struct pcibw_band_term *terms = NULL;
	int *terms_n = NULL;
	const char *warnings[PCIBW_MAX_REQUEST_WARNINGS], *codes[PCIBW_MAX_REQUEST_WARNINGS];
	int n = 0, st;
	if (!r)
		return cli_error(&(struct pcibw_err){PCIBW_EINTERNAL, "out of memory"});
	if (req->explain && req->format == PCIBW_OUT_CSV) {
		/* one CSV row per size has no place for a recipe: it would be dropped silently */
		free(r);
		return cli_usage_error("model", "--explain has no CSV form (a row per size): use the "
						"text output or --json");
	}
	if ((st = pcibw_request_resolve(req, r, &err)) ||
	    (st = pcibw_request_model_rows(r, &rows, &labels, &n, &err)) ||
	    (req->explain && (st = pcibw_request_model_explain(r, &recipe, &recipe_n, &err))) ||
	    (req->explain && (st = pcibw_request_model_band_terms(r, &terms, &terms_n, &err))))
		goto out;
	for (int i = 0; i < r->n_warnings; i++)
		warnings[i] = r->warnings[i].text, codes[i] = r->warnings[i].code;
	struct pcibw_model_view v = {
	    &r->bus,	  &r->nic,	 r->in.pattern, r->in.size_is, r->in.line_rate_gbps,
	    r->in.compat, r->bus_from,	 rows,		labels,	       n,
	    warnings,	  r->n_warnings, recipe,	recipe_n,      PCIBW_MAX_OPS,
	    codes,	  terms,	 terms_n};
	if (req->plot && (st = pcibw_model_render_plot(req->plot, &v, &err)))
		goto out;
	st = req->format == PCIBW_OUT_JSON  ? pcibw_model_render_json(stdout, &v)
	     : req->format == PCIBW_OUT_CSV ? pcibw_model_render_csv(stdout, &v)
					    : pcibw_model_render_text(stdout, &v);
	if (st && ferror(stdout))
		st = PCIBW_OK; /* a failed write: main says why (finish_output) */
	else if (st)
		pcibw_fail(&err, st, "cannot render the output");
	else
		cli_warnings(req, warnings, r->n_warnings);
out:
	free(rows);
	free(labels);
	free(recipe);
	free(recipe_n);
	free(terms);
	free(terms_n);
	pcibw_resolved_free(r);
	free(r);
	if (st)
		return st == PCIBW_EUSAGE ? cli_usage_error("model", "%s", err.msg) : cli_error(&err);
	return PCIBW_OK;
}

int cmd_model(int argc, char **argv)
{
	struct pcibw_request req;
	int st = cli_parse(PCIBW_CMD_MODEL, argc, argv, &req);
	if (st < 0)
		st = run(&req);
	pcibw_request_free(&req);
	return st;
}

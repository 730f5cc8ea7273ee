/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output of `pcibw model`: a table, CSV, JSON (keys: doc/cli-contract.md "model JSON",
 * doc/json.md) and an SVG plot. Each returns PCIBW_OK, or PCIBW_EINTERNAL on a write error.
 */
#ifndef PCIBW_MODEL_RENDER_H
#define PCIBW_MODEL_RENDER_H

#include "pcibw/model.h"
#include <stdio.h>

/* Everything a renderer shows: the inputs as resolved (defaults filled) and one row per size. */
struct pcibw_model_view {
	const struct pcibw_bus *bus;
	const struct pcibw_nic *nic;
	enum pcibw_pattern pattern;
	enum pcibw_size_is size_is;
	double line_rate_gbps; /* 0 = no wire ceiling */
	enum pcibw_compat compat;
	const char *bus_from; /* "--bus" or the probed slot and source */
	const struct pcibw_model_row *rows;
	const char *const *labels; /* per row: "imix", "mix" or NULL */
	int n;
	const char *const *warnings;
	int n_warnings;
	/* --explain: row i's operations are recipe[i * recipe_max ...], recipe_n[i] of them; NULL
	 * without --explain */
	const struct pcibw_explain_op *recipe;
	const int *recipe_n;
	int recipe_max;
	const char *const *warning_codes; /* the code of each warning, same order; NULL: none */
	/* --explain: row i's band terms are band_terms[i * PCIBW_TERM_COUNT ...], band_terms_n[i]
	 * of them; NULL without --explain */
	const struct pcibw_band_term *band_terms;
	const int *band_terms_n;
};

/* pcibw_model_band_text - "(40.1-52.0)": the row's bus band in Gbit/s where it is wider than
 * 2 % of bus_gbps, else "" (also without a bus ceiling). Returns buf. */
char *pcibw_model_band_text(const struct pcibw_model_row *r, char *buf, size_t len);

/* pcibw_model_render_recipe_text - the --explain lines for row i (text output). */
void pcibw_model_render_recipe_text(FILE *out, const struct pcibw_model_view *v, int i);

/* headroom_pct - how far the bus ceiling is above (+) or below (-) the wire ceiling, in % of
 * the wire ceiling; NAN without a line rate or a bus ceiling. */
double pcibw_model_headroom_pct(const struct pcibw_model_row *r);

int pcibw_model_render_text(FILE *out, const struct pcibw_model_view *v);
int pcibw_model_render_json(FILE *out, const struct pcibw_model_view *v);
int pcibw_model_render_csv(FILE *out, const struct pcibw_model_view *v);

/* pcibw_model_render_plot - ceilings (Gbit/s) against packet size on a log axis, as SVG at path
 * (plot.h). PCIBW_ENOTHERE when built without cairo, PCIBW_EINPUT when path cannot be written. */
int pcibw_model_render_plot(const char *path, const struct pcibw_model_view *v, struct pcibw_err *err);

#endif

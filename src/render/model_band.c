/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The --explain lines of a ceiling's band: each host term that widens it and where its two
 * settings come from (src/model/model.c, doc/model.md sec. 8). */
#include "model_recipe.h"
#include <math.h>

void pcibw_model_render_band_text(FILE *o, const struct pcibw_model_view *v, int i)
{
	const struct pcibw_model_row *r = &v->rows[i];
	if (!v->band_terms || !isfinite(r->bus_gbps))
		return;
	if (v->compat == PCIBW_COMPAT_PCIE_BENCH) {
		fprintf(o, "band: none (--compat pcie-bench keeps pcie-model's one figure)\n");
		return;
	}
	fprintf(o, "band: %.4g Gbit/s (%.4g-%.4g)", r->bus_gbps, r->bus_gbps_low, r->bus_gbps_high);
	int n = v->band_terms_n[i];
	if (n == 0) {
		fprintf(o, ": no host term moves it here\n");
		return;
	}
	fprintf(o, ", widened by:\n");
	const struct pcibw_band_term *t = v->band_terms + (size_t)i * PCIBW_TERM_COUNT;
	for (int k = 0; k < n; k++) {
		fprintf(o, "  %s: %.4g Gbit/s with %s .. %.4g with %s", t[k].name, t[k].gbps_low, t[k].low,
			t[k].gbps_high, t[k].high);
		if (t[k].modifier)
			fprintf(o, " (state it: bus modifier %s)", t[k].modifier);
		fprintf(o, "\n    source: %s\n", t[k].source);
	}
}

json_t *pcibw_model_band_json(const struct pcibw_model_view *v, int i)
{
	json_t *a = json_array();
	if (!v->band_terms)
		return a;
	const struct pcibw_band_term *t = v->band_terms + (size_t)i * PCIBW_TERM_COUNT;
	for (int k = 0; k < v->band_terms_n[i]; k++) {
		json_t *o = json_object();
		json_object_set_new(o, "term", json_string(t[k].name));
		json_object_set_new(o, "low", json_string(t[k].low));
		json_object_set_new(o, "high", json_string(t[k].high));
		json_object_set_new(o, "gbps_low", json_real(t[k].gbps_low));
		json_object_set_new(o, "gbps_high", json_real(t[k].gbps_high));
		json_object_set_new(o, "source", json_string(t[k].source));
		json_object_set_new(o, "modifier", t[k].modifier ? json_string(t[k].modifier) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

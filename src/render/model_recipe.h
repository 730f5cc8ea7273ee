/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The --explain parts of `pcibw model` output, shared by the text and JSON renderers. */
#ifndef PCIBW_MODEL_RECIPE_H
#define PCIBW_MODEL_RECIPE_H

#include "model_render.h"
#include <jansson.h>

/* pcibw_model_render_recipe_sources - "sources:" lines: the profile's, then each knob's value,
 * why it has it and its source. */
void pcibw_model_render_recipe_sources(FILE *o, const struct pcibw_model_view *v);

/* pcibw_model_recipe_json - row i's recipe: [{op, dir, bytes_per_packet, key, source}], one entry
 * per operation and direction it loads (new reference). */
json_t *pcibw_model_recipe_json(const struct pcibw_model_view *v, int i);

/* pcibw_model_nic_json - the profile's overrides ["KNOB=VALUE", ...] (returned) and its knobs in
 * effect {"name": "value"} (*knobs); new references. */
json_t *pcibw_model_nic_json(const struct pcibw_nic *n, json_t **knobs);

/* pcibw_model_render_band_text - --explain: the row's band and each term that widens it, with
 * the settings at either end and their source ("band: ..."; nothing without --explain). */
void pcibw_model_render_band_text(FILE *o, const struct pcibw_model_view *v, int i);

/* pcibw_model_band_json - row i's band terms: [{term, low, high, gbps_low, gbps_high, source,
 * modifier}] (new reference; an empty array without --explain). */
json_t *pcibw_model_band_json(const struct pcibw_model_view *v, int i);

#endif

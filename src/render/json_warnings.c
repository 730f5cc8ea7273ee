/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The warnings of a JSON document: their texts and, beside them, their codes. */
#include "json_warnings.h"

void pcibw_json_warnings(json_t *root, const char *const *texts, const char *const *codes, int n)
{
	json_t *w = json_array(), *c = json_array();
	for (int i = 0; i < n; i++) {
		json_array_append_new(w, json_string(texts[i]));
		json_array_append_new(c, json_string(codes ? codes[i] : "other"));
	}
	json_object_set_new(root, "warnings", w);
	json_object_set_new(root, "warning_codes", c);
}

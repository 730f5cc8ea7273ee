/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef PCIBW_RENDER_JSON_WARNINGS_H
#define PCIBW_RENDER_JSON_WARNINGS_H

#include <jansson.h>

/* pcibw_json_warnings - set root's "warnings" (texts[0..n)) and "warning_codes" (codes[i], or
 * "other" when codes is NULL), in the same order (doc/json.md). */
void pcibw_json_warnings(json_t *root, const char *const *texts, const char *const *codes, int n);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw model --json` writes its rows one at a time; the document must still be exactly what
 * jansson writes for the whole tree (two-space indent, keys in order, 10 significant digits):
 * parsed and dumped again by jansson with those flags, it comes back byte for byte. Checked on a
 * long sweep, a mix, a PCI-X bus with a line rate and a probed dump.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static void same_as_jansson(const char *const *args, int want_rows)
{
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_error_t e;
	json_t *doc = json_loads(r.out, 0, &e);
	cr_assert(doc, "not JSON: line %d: %s", e.line, e.text);
	cr_assert_eq((int)json_array_size(json_object_get(doc, "rows")), want_rows);
	char *again = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_PRESERVE_ORDER);
	size_t n = strlen(again);
	cr_assert(strlen(r.out) == n + 1 && !memcmp(r.out, again, n) && r.out[n] == '\n',
		  "the streamed document differs from jansson's dump of it");
	free(again);
	json_decref(doc);
	run_free(&r);
}

Test(model_json, long_sweep_as_jansson_writes_it)
{
	same_as_jansson((const char *[]){"model", "--bus", "gen3x8,mps=256", "--line-rate", "40G", "--sizes",
					 "64-4000/1", "--json", NULL},
			4000 - 64 + 1);
}

Test(model_json, mix_pcix_and_dump)
{
	same_as_jansson((const char *[]){"model", "--bus", "gen2x4", "--sizes", "imix", "--json", NULL}, 1);
	same_as_jansson((const char *[]){"model", "--bus", "pcix133/64", "--line-rate", "1G", "--sizes",
					 "64,1518", "--json", NULL},
			2);
	same_as_jansson((const char *[]){"model", "--dump", test_data("pcie-intel-82576-x4-gen1.lspci"),
					 "--sizes", "64,128,1518", "--json", NULL},
			3);
}

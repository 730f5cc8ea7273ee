/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Structured report warnings: {slot, code, text} in the library; the JSON `warnings` strings
 * as before ("SLOT: text"), with `warning_codes` beside them and each device's `notes`; every
 * JSON document carries `pcibw_version` (meson.build's project version, as --version prints).
 * Expected texts: the 64-byte dump's own limits (lspci -x holds the header only).
 */
#include "pcibw/device.h"
#include "pcibw/version.h"
#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

Test(warnings, dedupe_drop_and_string)
{
	struct pcibw_report r = {0};
	cr_assert_eq(pcibw_report_warn(&r, "0000:01:00.0", "config-short", "only %d bytes", 64), 0);
	cr_assert_eq(pcibw_report_warn(&r, "0000:01:00.0", "config-short", "only %d bytes", 64), 0);
	cr_assert_eq(pcibw_report_warn(&r, "0000:02:00.0", "config-short", "only %d bytes", 64), 0);
	cr_assert_eq(pcibw_report_warn(&r, NULL, "non-root", "read as a user"), 0);
	cr_assert_eq(r.n_warnings, 3, "the identical first one is not added twice");
	char s[200];
	cr_assert_str_eq(pcibw_warning_string(&r.warnings[0], s, sizeof s), "0000:01:00.0: only 64 bytes");
	cr_assert_str_eq(pcibw_warning_string(&r.warnings[2], s, sizeof s), "read as a user");
	cr_assert_str_eq(r.warnings[2].slot, "");
	cr_assert_eq(pcibw_report_drop(&r, 0, "config-short", "0000:02:00.0"), 1);
	cr_assert_eq(r.n_warnings, 2);
	cr_assert_str_eq(r.warnings[1].code, "non-root", "order kept");
	cr_assert_eq(pcibw_report_drop(&r, 1, "config-short", NULL), 0, "drop starts at index 1");
	cr_assert_eq(pcibw_report_drop(&r, 0, "config-short", NULL), 1);
	cr_assert_eq(r.n_warnings, 1);
	pcibw_report_free(&r);
}

static json_t *run_json(const char *const *args)
{
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	json_error_t e;
	json_t *j = json_loads(r.out, 0, &e);
	cr_assert_not_null(j, "bad JSON: %s", e.text);
	run_free(&r);
	return j;
}

/* hwloc-dell-snb-2n-i350-cx3.lspci holds lspci -x output: 64 bytes per device. */
Test(warnings, codes_beside_strings_and_per_device_notes)
{
	const char *args[] = {"report", "--json", "--dump", test_data("hwloc-dell-snb-2n-i350-cx3.lspci"),
			      NULL};
	json_t *j = run_json(args);
	json_t *w = json_object_get(j, "warnings"), *c = json_object_get(j, "warning_codes");
	cr_assert(json_is_array(w) && json_is_array(c));
	cr_assert_eq(json_array_size(w), json_array_size(c));
	cr_assert_gt(json_array_size(w), 0);
	size_t i;
	json_t *d;
	int short_notes = 0;
	json_array_foreach(json_object_get(j, "devices"), i, d)
	{
		const char *slot = json_string_value(json_object_get(d, "slot"));
		json_t *notes = json_object_get(d, "notes");
		cr_assert(json_is_array(notes), "%s: notes", slot);
		size_t k;
		json_t *n;
		json_array_foreach(notes, k, n)
		{
			const char *code = json_string_value(json_object_get(n, "code"));
			const char *text = json_string_value(json_object_get(n, "text"));
			cr_assert(code && text);
			if (!strcmp(code, "config-short")) {
				short_notes++;
				cr_assert(strstr(text, "only 64 bytes of config space"), "%s", text);
			}
			/* the same warning is in the top-level array as "SLOT: text" with this code */
			char want[1200];
			snprintf(want, sizeof want, "%s: %s", slot, text);
			bool found = false;
			for (size_t m = 0; m < json_array_size(w); m++)
				if (!strcmp(json_string_value(json_array_get(w, m)), want))
					found = !strcmp(json_string_value(json_array_get(c, m)), code);
			cr_assert(found, "%s not in warnings with code %s", want, code);
		}
	}
	cr_assert_gt(short_notes, 0);
	json_decref(j);
}

Test(warnings, every_json_document_has_pcibw_version)
{
	const char *report[] = {"report", "--json", "--dump", test_data("pcie-intel-82576-x4-gen1.lspci"),
				NULL};
	const char *model[] = {"model", "--json", "--bus", "gen2x4", NULL};
	const char *analyze[] = {
	    "analyze", "--json", "--bus", "gen2x4", test_data("analyze/synthetic-case-f-xl710-gen2x4.csv"),
	    NULL};
	const char *const *docs[] = {report, model, analyze};
	for (int i = 0; i < 3; i++) {
		json_t *j = run_json(docs[i]);
		json_t *v = json_object_get(j, "pcibw_version");
		cr_assert(json_is_string(v), "%s: pcibw_version", docs[i][0]);
		cr_assert_str_eq(json_string_value(v), PCIBW_VERSION);
		json_decref(j);
	}
}

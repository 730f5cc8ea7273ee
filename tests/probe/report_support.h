/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers for tests that read `pcibw report --json` (keys: shared/cli-contract.md "report JSON"). */
#ifndef PCIBW_TEST_REPORT_SUPPORT_H
#define PCIBW_TEST_REPORT_SUPPORT_H

#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

/* Run pcibw with args (NULL-terminated, at most 14) plus --json; assert exit code `want`;
 * return the parsed JSON (NULL when want != 0). */
static inline json_t *report_json(int want, const char *const *args)
{
	const char *argv[16];
	int n = 0;
	while (args[n] && n < 14) {
		argv[n] = args[n];
		n++;
	}
	argv[n++] = "--json";
	argv[n] = NULL;
	struct run_result r = run_pcibw(NULL, argv);
	cr_assert_eq(r.status, want, "exit %d (want %d); stderr: %s", r.status, want, r.err);
	json_t *j = NULL;
	if (want == 0) {
		json_error_t e;
		j = json_loads(r.out, 0, &e);
		cr_assert(j, "stdout is not JSON (%s, line %d): %.400s", e.text, e.line, r.out);
	}
	run_free(&r);
	return j;
}

static inline bool str_is(json_t *v, const char *want)
{
	const char *s = json_string_value(v);
	return s && !strcmp(s, want);
}

static inline json_t *dev_by_slot(json_t *rep, const char *slot)
{
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(rep, "devices"), i,
			   d) if (str_is(json_object_get(d, "slot"), slot)) return d;
	cr_assert_fail("no device %s in the report", slot);
	return NULL;
}

static inline bool has_dev(json_t *rep, const char *slot)
{
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(rep, "devices"), i,
			   d) if (str_is(json_object_get(d, "slot"), slot)) return true;
	return false;
}

/* number of warnings containing every one of the (NULL-terminated) needles */
static inline int warnings_with(json_t *rep, const char *const *needles)
{
	size_t i;
	json_t *w;
	int n = 0;
	json_array_foreach(json_object_get(rep, "warnings"), i, w)
	{
		const char *s = json_string_value(w);
		bool all = s != NULL;
		for (int k = 0; all && needles[k]; k++)
			all = strstr(s, needles[k]) != NULL;
		n += all;
	}
	return n;
}

/* a number, NAN for null or missing */
static inline double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static inline const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static inline bool is_null(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	cr_assert(v, "key %s missing (every key is present, null when unknown)", key);
	return json_is_null(v);
}

static inline const char *prov(json_t *d, const char *field)
{
	return json_string_value(json_object_get(json_object_get(d, "provenance"), field));
}

/* 1 if the device's interfaces list holds name */
static inline bool has_iface(json_t *d, const char *name)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(d, "interfaces"), i, v) if (str_is(v, name)) return true;
	return false;
}

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the report tests: run `pcibw report --json` on a test file and look devices up. */
#ifndef PCIBW_TEST_REPORT_HELPERS_H
#define PCIBW_TEST_REPORT_HELPERS_H

#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

/* pcibw report --json --dump tests/data/FILE [extra args...]; asserts exit 0 and valid JSON. */
static inline json_t *report_json(const char *file, const char *extra1, const char *extra2)
{
	const char *args[8] = {"report", "--json", "--dump", test_data(file), extra1, extra2, NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "%s: exit %d, stderr: %s", file, r.status, r.err);
	json_error_t e;
	json_t *root = json_loads(r.out, 0, &e);
	cr_assert_not_null(root, "%s: bad JSON at %d: %s", file, e.line, e.text);
	run_free(&r);
	return root;
}

static inline json_t *device(json_t *root, const char *slot)
{
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(root, "devices"), i,
			   d) if (!strcmp(json_string_value(json_object_get(d, "slot")), slot)) return d;
	cr_assert_fail("no device %s in the report", slot);
	return NULL;
}

static inline const char *str(json_t *d, const char *key)
{
	json_t *v = json_object_get(d, key);
	cr_assert(json_is_string(v), "%s is not a string", key);
	return json_string_value(v);
}

static inline long long num(json_t *d, const char *key)
{
	json_t *v = json_object_get(d, key);
	cr_assert(json_is_integer(v), "%s is not an integer", key);
	return json_integer_value(v);
}

static inline double real(json_t *d, const char *key)
{
	json_t *v = json_object_get(d, key);
	cr_assert(json_is_number(v), "%s is not a number", key);
	return json_number_value(v);
}

static inline void is_null(json_t *d, const char *key)
{
	json_t *v = json_object_get(d, key);
	cr_assert_not_null(v, "key %s missing", key);
	cr_assert(json_is_null(v), "%s should be null", key);
}

static inline bool boolean(json_t *d, const char *key)
{
	json_t *v = json_object_get(d, key);
	cr_assert(json_is_boolean(v), "%s is not a boolean", key);
	return json_is_true(v);
}

/* path slots joined by " " */
static inline void path_is(json_t *d, const char *const *slots, int n)
{
	json_t *p = json_object_get(d, "path");
	cr_assert(json_is_array(p));
	cr_assert_eq((int)json_array_size(p), n, "path has %zu hops, expected %d", json_array_size(p), n);
	for (int i = 0; i < n; i++)
		cr_assert_str_eq(str(json_array_get(p, (size_t)i), "slot"), slots[i]);
}

/* some warning mentions both needles */
static inline bool warned(json_t *root, const char *a, const char *b)
{
	size_t i;
	json_t *w;
	json_array_foreach(json_object_get(root, "warnings"), i, w)
	{
		const char *s = json_string_value(w);
		if (strstr(s, a) && (!b || strstr(s, b)))
			return true;
	}
	return false;
}

static inline void near(double got, double want)
{
	cr_assert(fabs(got - want) <= 1e-6 * fabs(want), "got %.9g, expected %.9g", got, want);
}

#endif

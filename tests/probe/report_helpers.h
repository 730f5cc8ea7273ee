/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the report tests: run `pcibw report --json` and read its devices (keys:
 * doc/cli-contract.md "report JSON"). The asserting readers (str, integer, real, boolean,
 * expect_null) fail the test on a missing or mistyped key; the *_or_* readers and is_null give
 * a value to compare instead.
 */
#ifndef PCIBW_TEST_REPORT_HELPERS_H
#define PCIBW_TEST_REPORT_HELPERS_H

#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
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

/* pcibw report --json --dump tests/data/FILE [extra args...]; asserts exit 0 and valid JSON. */
static inline json_t *report_dump(const char *file, const char *extra1, const char *extra2)
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

static inline bool str_is(json_t *v, const char *want)
{
	const char *s = json_string_value(v);
	return s && !strcmp(s, want);
}

static inline json_t *device(json_t *root, const char *slot)
{
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(root, "devices"), i,
			   d) if (str_is(json_object_get(d, "slot"), slot)) return d;
	cr_assert_fail("no device %s in the report", slot);
	return NULL;
}

static inline const char *str(json_t *d, const char *key)
{
	json_t *v = json_object_get(d, key);
	cr_assert(json_is_string(v), "%s is not a string", key);
	return json_string_value(v);
}

static inline long long integer(json_t *d, const char *key)
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

static inline void expect_null(json_t *d, const char *key)
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

/* the device's notes hold one with this code (and, unless NULL, this text in it) */
static inline bool noted(json_t *d, const char *code, const char *needle)
{
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(d, "notes"), i, n)
	{
		const char *t = json_string_value(json_object_get(n, "text"));
		if (str_is(json_object_get(n, "code"), code) && (!needle || (t && strstr(t, needle))))
			return true;
	}
	return false;
}

static inline void near(double got, double want)
{
	cr_assert(fabs(got - want) <= 1e-6 * fabs(want), "got %.9g, expected %.9g", got, want);
}

/* pcibw report --dump tests/data/FILE --all -s SLOT (text); asserts exit 0; the caller frees. */
static inline char *report_text(const char *file, const char *slot)
{
	const char *args[] = {"report", "--dump", test_data(file), "--all", "-s", slot, NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	char *out = r.out;
	r.out = NULL;
	run_free(&r);
	return out;
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

/* a number, NAN for null or missing (no assertion) */
static inline double num_or_nan(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* a string, NULL for null or missing (no assertion) */
static inline const char *str_or_null(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* whether a present key is null (asserts it is present) */
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the analyze tests: run `pcibw analyze ... --format json` and find rows. */
#ifndef PCIBW_TEST_ANALYZE_SUPPORT_H
#define PCIBW_TEST_ANALYZE_SUPPORT_H

#include "support.h"
#include <criterion/criterion.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Run pcibw with args (NULL-terminated, "analyze" first), expect exit 0, parse stdout as JSON. */
static inline json_t *analyze_json(const char *stdin_file, const char *const *args)
{
	struct run_result r = run_pcibw(stdin_file, args);
	cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
	json_error_t e;
	json_t *j = json_loads(r.out, 0, &e);
	cr_assert(j, "not JSON (%s): %.400s", e.text, r.out);
	run_free(&r);
	return j;
}

static inline double jnum(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	cr_assert(v, "no key %s", key);
	return json_is_null(v) ? NAN : json_number_value(v);
}

static inline const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	cr_assert(v, "no key %s", key);
	return json_is_null(v) ? NULL : json_string_value(v);
}

/* The row with this size as the input gave it (and, when not NULL, series and test). */
static inline json_t *find_row(json_t *root, double size, const char *series, const char *test)
{
	json_t *rows = json_object_get(root, "rows"), *row;
	size_t i;
	json_array_foreach(rows, i, row)
	{
		const char *s = jstr(row, "series"), *t = jstr(row, "test");
		/* the size as the input gave it (a TCP write, a datagram) or the packet's */
		json_t *in = json_object_get(row, "input_size_bytes");
		double given = in && json_is_number(in) ? json_number_value(in) : jnum(row, "size_bytes");
		if (given == size && (!series || (s && !strcmp(s, series))) &&
		    (!test || (t && !strcmp(t, test))))
			return row;
	}
	cr_assert_fail("no row of %g B (series %s, test %s)", size, series ? series : "-", test ? test : "-");
	return NULL;
}

/* Does any evidence string of o contain needle? */
static inline bool evidence_has(json_t *o, const char *needle)
{
	json_t *ev = json_object_get(o, "evidence"), *s;
	size_t i;
	json_array_foreach(ev, i, s) if (strstr(json_string_value(s), needle)) return true;
	return false;
}

/* Write len bytes to a fresh temporary file with the given suffix; returns its path (static). */
static inline const char *tmp_with(const char *suffix, const char *data, size_t len)
{
	static char paths[8][64];
	static int slot;
	char *p = paths[slot++ % 8];
	snprintf(p, 64, "/tmp/pcibw-analyze-XXXXXX%s", suffix);
	int fd = mkstemps(p, (int)strlen(suffix));
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	return p;
}

static inline const char *tmp_text(const char *suffix, const char *text)
{
	return tmp_with(suffix, text, strlen(text));
}

static inline struct run_result run_args(const char *const *args)
{
	return run_pcibw(NULL, args);
}

/* exit 3, stderr names file:line:col (when loc) and contains words, says what was expected */
static inline void expect_exit3(const char *const *args, const char *file, const char *loc, const char *words)
{
	struct run_result r = run_args(args);
	cr_assert_eq(r.status, 3, "exit %d, stderr: %s", r.status, r.err);
	if (loc) {
		char want[512];
		snprintf(want, sizeof want, "%s%s", file, loc);
		cr_assert(strstr(r.err, want), "stderr lacks '%s': %s", want, r.err);
	}
	cr_assert(strstr(r.err, words), "stderr lacks '%s': %s", words, r.err);
	cr_assert(strstr(r.err, "expected"), "says what was expected: %s", r.err);
	run_free(&r);
}

static inline json_t *row_by_series(json_t *root, const char *series)
{
	json_t *rows = json_object_get(root, "rows"), *row;
	size_t i;
	json_array_foreach(rows, i, row)
	{
		const char *s = jstr(row, "series");
		if (s && !strcmp(s, series))
			return row;
	}
	cr_assert_fail("no row of series %s", series);
	return NULL;
}

#define assert_close(a, b, tol)                                                                              \
	cr_assert(fabs((a) - (b)) <= (tol), "%s = %.10g, expected %.10g (+-%g)", #a, (double)(a),            \
		  (double)(b), (double)(tol))

#endif

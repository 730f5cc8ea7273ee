/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON lines of `pcibw watch --replay REC --json ...`, parsed, for the watch tests. */
#ifndef PCIBW_TEST_WATCH_LINES_H
#define PCIBW_TEST_WATCH_LINES_H

#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <string.h>

#define MAXL 64

struct lines {
	json_t *v[MAXL];
	int n;
};

/* Run pcibw with args (NULL-terminated; rec names the recording in messages), expect exit 0 and
 * at least two lines, each JSON. */
static inline struct lines watch_lines(const char *rec, const char *const *args)
{
	struct lines L = {0};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "%s: exit %d: %s", rec, r.status, r.err);
	for (char *save = NULL, *l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		json_error_t e;
		cr_assert_lt(L.n, MAXL);
		L.v[L.n] = json_loads(l, 0, &e);
		cr_assert(L.v[L.n], "%s: not JSON (%s): %s", rec, e.text, l);
		L.n++;
	}
	run_free(&r);
	cr_assert_geq(L.n, 2);
	return L;
}

static inline void lines_free(struct lines *L)
{
	for (int i = 0; i < L->n; i++)
		json_decref(L->v[i]);
}

#endif

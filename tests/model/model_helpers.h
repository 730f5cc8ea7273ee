/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the model tests: load a bundled profile, parse a bus, evaluate one size. */
#ifndef PCIBW_TEST_MODEL_HELPERS_H
#define PCIBW_TEST_MODEL_HELPERS_H

#include "pcibw/model.h"
#include <criterion/criterion.h>
#include <math.h>

static inline struct pcibw_nic load_nic(const char *name)
{
	struct pcibw_nic n;
	struct pcibw_err e = {0};
	int st = pcibw_nic_load(name, NULL, &n, &e);
	cr_assert_eq(st, 0, "profile %s: %s", name, e.msg);
	return n;
}

static inline struct pcibw_bus parse_bus(const char *spec)
{
	struct pcibw_bus b;
	struct pcibw_err e = {0};
	int st = pcibw_bus_parse(spec, &b, &e);
	cr_assert_eq(st, 0, "bus %s: %s", spec, e.msg);
	return b;
}

/* the model's row for one size */
static inline struct pcibw_model_row eval(const struct pcibw_bus *b, const struct pcibw_nic *n,
					  enum pcibw_pattern p, enum pcibw_size_is s, enum pcibw_compat c,
					  double size)
{
	struct pcibw_model_in in = {b, n, p, s, 0, c, 1, 0, 0};
	struct pcibw_model_row r;
	struct pcibw_err e = {0};
	int st = pcibw_model_eval(&in, size, &r, &e);
	cr_assert_eq(st, 0, "eval %g: %s", size, e.msg);
	return r;
}

#define assert_rel(got, want, tol, ...) cr_assert(fabs((got) - (want)) <= (tol)*fabs(want), __VA_ARGS__)

#endif

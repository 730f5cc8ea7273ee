/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The decimal reader (pcibw/number.h) reads every value to the very double strtod() gives: the
 * correctly rounded one (IEEE 754 round to nearest even, which glibc's strtod implements). Its
 * exact path (Clinger's: an integer mantissa up to 2^53 times or over an exact power of ten up
 * to 10^22) and its strtod fallback are compared bit for bit with strtod on edge cases and on
 * 2.5 million generated decimals. The expected value of every case is strtod's.
 */
#include "pcibw/number.h"
#include "support.h"
#include <criterion/criterion.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
	return xorshift64_next(&rng);
}

static unsigned below(unsigned n)
{
	return (unsigned)(next() % n);
}

/* Does text hold a non-zero digit before any exponent? */
static int nonzero_digits(const char *t)
{
	for (; *t && *t != 'e' && *t != 'E'; t++)
		if (*t >= '1' && *t <= '9')
			return 1;
	return 0;
}

static long checked;

/* pcibw_number_scan against strtod for one text (SIGN allowed: files write signs). */
static void same_as_strtod(const char *t)
{
	errno = 0;
	double want = strtod(t, NULL);
	int erange = errno == ERANGE;
	double got = 12345;
	enum pcibw_num_result r = pcibw_number_scan(t, strlen(t), PCIBW_NUM_SIGN, &got);
	checked++;
	if (erange && fabs(want) > 1) {
		cr_assert_eq(r, PCIBW_NUM_OVERFLOW, "'%s': strtod overflows, scan gave %d", t, r);
		return;
	}
	if (nonzero_digits(t) && fabs(want) < DBL_MIN) {
		cr_assert_eq(r, PCIBW_NUM_UNDERFLOW, "'%s': below DBL_MIN (%a), scan gave %d", t, want, r);
		cr_assert_eq(got, 0);
		cr_assert_eq(signbit(got), signbit(want), "'%s': sign of the underflow", t);
		return;
	}
	cr_assert_eq(r, PCIBW_NUM_OK, "'%s': scan gave %d", t, r);
	uint64_t a, b;
	memcpy(&a, &got, sizeof a);
	memcpy(&b, &want, sizeof b);
	cr_assert_eq(a, b, "'%s': scan %a, strtod %a", t, got, want);
}

Test(number_exact, edge_cases)
{
	static const char *cases[] = {
	    /* 2^53 and its neighbours, alone and scaled */
	    "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740994",
	    "9007199254740995", "9007199254740993e-5", "9007199254740992e22", "9007199254740993e22",
	    "9007199254740992e-22", "9007199254740991e-22", "18014398509481985", "18014398509481983",
	    /* the exact powers of ten and the first that is not */
	    "1e22", "1e23", "1e-22", "1e-23", "1e21", "10000000000000000000000", "100000000000000000000000",
	    "8.589973e9", "4.9e22", "4.9e23",
	    /* tenths that no double holds */
	    "0.1", "0.2", "0.3", "0.7", "1.1", "2.675", "0.1e1", "1.5e-1", "-0.1",
	    /* long mantissas: the exact value of 0.1 and halfway cases */
	    "0.1000000000000000055511151231257827021181583404541015625",
	    "0.1000000000000000055511151231257827021181583404541015624",
	    "0.1000000000000000055511151231257827021181583404541015626", "9007199254740992.5",
	    "9007199254740993.0000000000000000001", "123456789012345678901234567890",
	    "1.00000000000000011102230246251565404236316680908203125",
	    "1.00000000000000011102230246251565404236316680908203124",
	    "1.00000000000000011102230246251565404236316680908203126",
	    "3.14159265358979323846264338327950288",
	    /* the ends of the normal and subnormal ranges */
	    "2.2250738585072014e-308", "2.2250738585072013e-308", "2.2250738585072011e-308",
	    "2.2250738585072012e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
	    "2.4703282292062328e-324", "1e-400", "-1e-400", "1e-308", "1e-307", "1.7976931348623157e308",
	    "1.7976931348623158e308", "1.7976931348623159e308", "1e308", "1e309", "-1e309",
	    /* trailing and leading zeros */
	    "1.000000000000000000000000000000", "100000000000000000000000000e-26",
	    "1000000000000000000000e-21", "0000000000000000000000000.5", "0.0000000000000000000000000000001",
	    "000000000000000000000123.4500000000",
	    "0.000000000000000000000000000000000000000000000000000000000000000001e66",
	    "1e0000000000000000000001", "-0", "0", "0e400", "0.0e-999", "-0.0", "+0", "00", ".5", "5.",
	    "+7.25e+2", "1E-3",
	    /* the values benchmark files hold */
	    "64", "1518", "1000", "50", "99.5", "14.88", "9.999", "0.05", "100", "12345.678"};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		same_as_strtod(cases[i]);
}

/* Random digit strings: 1-25 digits, a point anywhere or none, an exponent or none, a sign. */
static void random_digits(char *t, size_t cap)
{
	size_t o = 0;
	unsigned nd = 1 + below(25), point = below(nd + 2);
	if (below(4) == 0)
		t[o++] = below(2) ? '-' : '+';
	for (unsigned i = 0; i < nd; i++) {
		if (i == point)
			t[o++] = '.';
		/* runs of zeros and nines make rounding boundaries likely */
		unsigned k = below(10);
		t[o++] = (char)('0' + (k < 3 ? 0 : k < 6 ? 9 : below(10)));
	}
	t[o] = '\0';
	if (below(2)) {
		int e = below(3) ? (int)below(61) - 30 : (int)below(700) - 350;
		snprintf(t + o, cap - o, "e%d", e);
	}
}

Test(number_exact, generated_decimals)
{
	char t[96];
	for (int i = 0; i < 1000000; i++) {
		random_digits(t, sizeof t);
		same_as_strtod(t);
	}
	/* random doubles as printf writes them at every common precision */
	static const char *fmt[] = {"%.17g", "%.16g", "%.15g", "%.6g", "%g", "%.3f", "%.1f", "%.9e"};
	for (int i = 0; i < 1000000; i++) {
		uint64_t bits = next();
		double d;
		memcpy(&d, &bits, sizeof d);
		if (!isfinite(d))
			continue;
		if (below(2)) /* the magnitudes measurements have */
			d = ldexp((double)(bits >> 11), -(int)below(60));
		snprintf(t, sizeof t, fmt[below(8)], d);
		same_as_strtod(t);
	}
	/* integers up to 2^53 over and times the exact powers of ten: the exact path itself */
	for (int i = 0; i < 500000; i++) {
		uint64_t m = next() >> (11 + below(50));
		int e = (int)below(51) - 25;
		snprintf(t, sizeof t, "%" PRIu64 "e%d", m, e);
		same_as_strtod(t);
	}
	cr_assert_gt(checked, 2400000, "only %ld texts compared", checked);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one decimal number reader (pcibw/number.h). */
#include "pcibw/number.h"
#include "src/util/number_fast.h"
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 2^53: the largest run of integers a double holds exactly. */
#define EXACT_INT_MAX 9007199254740992.0

/* The powers of ten a double holds exactly (5^22 < 2^53). */
static const double exact_pow10[] = {1e0,  1e1,	 1e2,  1e3,  1e4,  1e5,	 1e6,  1e7,  1e8,  1e9,	 1e10, 1e11,
				     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* isspace() of the C locale, without the locale lookup of every call */
static inline bool blank_byte(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline bool digit(unsigned char c)
{
	return (unsigned)(c - '0') < 10;
}

/*
 * strtod on a NUL-terminated copy of a text already known to be decimal and not zero: the cases
 * the exact path below cannot take (more than 19 significant digits, a mantissa above 2^53, a
 * decimal exponent beyond 10^22).
 */
static enum pcibw_num_result slow_value(const char *start, const char *end, double *v)
{
	char buf[512];
	size_t n = (size_t)(end - start);
	if (n >= sizeof buf)
		return PCIBW_NUM_OVERFLOW;
	memcpy(buf, start, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtod(buf, NULL);
	if (errno == ERANGE && fabs(*v) > 1)
		return PCIBW_NUM_OVERFLOW;
	if (fabs(*v) < DBL_MIN) {
		*v = copysign(0.0, *v); /* not representable as a normal double: never a measured value */
		return PCIBW_NUM_UNDERFLOW;
	}
	return PCIBW_NUM_OK;
}

enum pcibw_num_result pcibw_number_scan(const char *text, size_t len, unsigned flags, double *value)
{
	const char *p = text ? text : "", *end = p + (text ? len : 0);
	if (flags & PCIBW_NUM_BLANKS) {
		while (p < end && blank_byte((unsigned char)*p))
			p++;
		while (end > p && blank_byte((unsigned char)end[-1]))
			end--;
	}
	if (p == end)
		return PCIBW_NUM_EMPTY;
	const char *start = p;
	bool neg = false;
	if ((flags & PCIBW_NUM_SIGN) && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	/* the form nearly every value takes: the exact path below without its bookkeeping */
	if (number_fast(p, (size_t)(end - p), !(flags & PCIBW_NUM_INTEGER), value)) {
		if (neg)
			*value = -*value;
		return PCIBW_NUM_OK;
	}
	/*
	 * One pass: the significant digits (leading zeros dropped) gather into a 64-bit mantissa,
	 * at most 19 of them; exp10 is the power of ten that mantissa is scaled by.
	 */
	uint64_t mant = 0;
	int digits = 0, sig = 0;
	long exp10 = 0;
	bool lost = false; /* a non-zero digit beyond the 19 kept */
	for (; p < end && digit((unsigned char)*p); p++, digits++) {
		unsigned d = (unsigned)(*p - '0');
		if (sig < 19) {
			if (mant || d) {
				mant = mant * 10 + d;
				sig++;
			}
		} else {
			exp10++;
			lost |= d != 0;
		}
	}
	if (!(flags & PCIBW_NUM_INTEGER) && p < end && *p == '.')
		for (p++; p < end && digit((unsigned char)*p); p++, digits++) {
			unsigned d = (unsigned)(*p - '0');
			if (sig < 19) {
				if (mant || d) {
					mant = mant * 10 + d;
					sig++;
				}
				exp10--;
			} else {
				lost |= d != 0;
			}
		}
	if (!digits)
		return PCIBW_NUM_NOT_DECIMAL;
	if (!(flags & (PCIBW_NUM_INTEGER | PCIBW_NUM_NO_EXP)) && p < end && (*p == 'e' || *p == 'E')) {
		p++;
		bool eneg = false;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (p == end || !digit((unsigned char)*p))
			return PCIBW_NUM_NOT_DECIMAL;
		long e = 0;
		for (; p < end && digit((unsigned char)*p); p++)
			if (e < 100000) /* far beyond any double either way; the rest cannot matter */
				e = e * 10 + (*p - '0');
		exp10 += eneg ? -e : e;
	}
	if (p != end)
		return PCIBW_NUM_NOT_DECIMAL;
	double v;
	enum pcibw_num_result r = PCIBW_NUM_OK;
	if (mant == 0) {
		v = neg ? -0.0 : 0.0;
	} else if (!lost && mant <= (uint64_t)EXACT_INT_MAX && exp10 >= -22 && exp10 <= 22) {
		/*
		 * Clinger's fast path (W. D. Clinger, "How to Read Floating Point Numbers
		 * Accurately", PLDI 1990): mantissa and power of ten are both exact doubles, so the one
		 * IEEE 754 multiply or divide rounds the exact decimal value correctly.
		 */
		v = (double)mant;
		v = exp10 < 0 ? v / exact_pow10[-exp10] : v * exact_pow10[exp10];
		if (neg)
			v = -v;
	} else if ((r = slow_value(start, end, &v)) == PCIBW_NUM_OVERFLOW) {
		return r;
	}
	if ((flags & PCIBW_NUM_INTEGER) && fabs(v) > EXACT_INT_MAX)
		return PCIBW_NUM_OVERFLOW;
	*value = v;
	return r;
}

int pcibw_parse_long(const char *name, const char *text, long lo, long hi, const char *expect, long *out,
		     struct pcibw_err *err)
{
	char words[96];
	if (!expect) {
		snprintf(words, sizeof words, "a whole number %ld..%ld", lo, hi);
		expect = words;
	}
	double v;
	enum pcibw_num_result r = pcibw_number_scan(text, text ? strlen(text) : 0, PCIBW_NUM_INTEGER, &v);
	if (r == PCIBW_NUM_EMPTY || r == PCIBW_NUM_NOT_DECIMAL)
		return pcibw_fail(err, PCIBW_EUSAGE, "%s '%s': expected %s", name, text ? text : "", expect);
	if (r == PCIBW_NUM_OVERFLOW || r == PCIBW_NUM_UNDERFLOW || v < (double)lo || v > (double)hi)
		return pcibw_fail(err, PCIBW_EUSAGE, "%s '%s': out of range, expected %s", name, text,
				  expect);
	*out = (long)v;
	return PCIBW_OK;
}

int pcibw_parse_real(const char *name, const char *text, double lo, double hi, const char *expect,
		     double *out, struct pcibw_err *err)
{
	char words[128];
	if (!expect) {
		snprintf(words, sizeof words, "a decimal number from %g to %g", lo, hi);
		expect = words;
	}
	double v;
	enum pcibw_num_result r = pcibw_number_scan(text, text ? strlen(text) : 0, 0, &v);
	if (r == PCIBW_NUM_EMPTY || r == PCIBW_NUM_NOT_DECIMAL)
		return pcibw_fail(err, PCIBW_EUSAGE, "%s '%s': expected %s", name, text ? text : "", expect);
	if (r == PCIBW_NUM_OVERFLOW || r == PCIBW_NUM_UNDERFLOW || !(v >= lo) || !(v <= hi))
		return pcibw_fail(err, PCIBW_EUSAGE, "%s '%s': out of range, expected %s", name, text,
				  expect);
	*out = v;
	return PCIBW_OK;
}

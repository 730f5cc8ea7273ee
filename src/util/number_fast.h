/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The short decimal every measured value nearly always is, read inline: pcibw_number_scan()
 * takes its own first step through this function, so a reader that calls it directly gets the
 * very double pcibw_number_scan() would give, and only falls back to it for anything else.
 * Internal to the library.
 */
#ifndef PCIBW_UTIL_NUMBER_FAST_H
#define PCIBW_UTIL_NUMBER_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The powers of ten a double holds exactly, up to the 15 fraction digits the short form has. */
static const double number_fast_pow10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,	 1e5,  1e6,  1e7,
					     1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/*
 * number_fast - p[0..n) as 1 to 15 digits with at most one '.' (when dot is true) anywhere among
 * them, and nothing else: no sign, blank or exponent. 10^15 < 2^53, so the digits gather exactly
 * into an integer and the one IEEE 754 division by an exact power of ten rounds the decimal value
 * correctly (Clinger's fast path: W. D. Clinger, "How to Read Floating Point Numbers Accurately",
 * PLDI 1990). Returns true with *v set; false, *v untouched, for any other text.
 */
static inline bool number_fast(const char *p, size_t n, bool dot, double *v)
{
	if (n == 0 || n > 16)
		return false;
	const char *e = p + n, *q = p;
	uint64_t m = 0;
	unsigned d;
	while (q < e && (d = (unsigned)((unsigned char)*q - '0')) < 10) {
		m = m * 10 + d;
		q++;
	}
	size_t frac = 0;
	if (q < e) {
		if (*q != '.' || !dot)
			return false;
		const char *f = ++q;
		while (q < e && (d = (unsigned)((unsigned char)*q - '0')) < 10) {
			m = m * 10 + d;
			q++;
		}
		if (q < e)
			return false;
		frac = (size_t)(e - f);
		if (n == 1 || n > 15 + 1) /* "." alone; 16 digits */
			return false;
	} else if (n > 15) {
		return false;
	}
	*v = frac ? (double)m / number_fast_pow10[frac] : (double)m;
	return true;
}

#endif

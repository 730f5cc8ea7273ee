/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/number.h - the one decimal number reader behind every option value, bus spec field,
 * size list, threshold, NIC profile value and measured value in an input file.
 *
 * Why not strtod/strtol alone: they also take hexadecimal ("0x10" = 16, "0x1p-1"), "inf", "nan",
 * "infinity", leading blanks and a leading '+', none of which a user means by a packet size or a
 * CPU count. An option value is plain decimal: digits, an optional '.' with digits, an optional
 * exponent (e.g. 1e6) where the caller allows one. Input files may write blanks around a number
 * and a sign; their readers ask for that with flags. The decimal point is '.' whatever the locale.
 */
#ifndef PCIBW_NUMBER_H
#define PCIBW_NUMBER_H

#include "pcibw/error.h"
#include <stdbool.h>
#include <stddef.h>

/* What a number may look like beyond plain digits. */
enum pcibw_num_flags {
	PCIBW_NUM_INTEGER = 1 << 0, /* digits only: no '.', no exponent */
	PCIBW_NUM_SIGN = 1 << 1,    /* one leading '-' or '+' (input files; never an option) */
	PCIBW_NUM_BLANKS = 1 << 2,  /* blanks (isspace) before and after (fields of input files) */
	PCIBW_NUM_NO_EXP = 1 << 3,  /* no exponent part ("1e6" refused) */
};

/* What pcibw_number_scan found. */
enum pcibw_num_result {
	PCIBW_NUM_OK = 0,
	PCIBW_NUM_EMPTY,       /* nothing (or only blanks) */
	PCIBW_NUM_NOT_DECIMAL, /* any other character, a second '.', hex, inf, nan ... */
	PCIBW_NUM_OVERFLOW,    /* decimal, but beyond a double (or, with INTEGER, beyond 2^53) */
	PCIBW_NUM_UNDERFLOW,   /* decimal and not zero, but below the smallest normal double
				* (DBL_MIN, about 2.2e-308): 1e-400 is not 0 */
};

/*
 * pcibw_number_scan - read text[0..len) as a decimal number of the form flags allow (len may be
 * shorter than the string: bus spec fields and size list items are substrings). *value is set on
 * PCIBW_NUM_OK to the correctly rounded double (as strtod gives it, round to nearest even), and on
 * PCIBW_NUM_UNDERFLOW to 0 with the text's sign (so a caller that only tells OVERFLOW apart still
 * refuses it by any range that excludes 0). With PCIBW_NUM_INTEGER the value is exact up to 2^53.
 * Texts of 512 bytes or more that need the slow path are PCIBW_NUM_OVERFLOW. Never fails otherwise.
 * Cost: one pass over the text; up to 15 significant digits and a decimal exponent within +-22
 * (every value a benchmark writes) need no strtod call.
 */
enum pcibw_num_result pcibw_number_scan(const char *text, size_t len, unsigned flags, double *value);

/*
 * pcibw_parse_long - an option value (or a field of one): a whole decimal number in lo..hi, no
 * sign, no blanks. name labels the message ("--segment-devices", "--sizes item '9x'"); expect says
 * what was wanted ("1..32 (a PCI segment holds at most 32 devices)"; NULL: "a whole number
 * LO..HI"). Returns PCIBW_OK with *out set, or PCIBW_EUSAGE: "NAME 'TEXT': expected EXPECT" for
 * anything that is not such a number, "NAME 'TEXT': out of range, expected EXPECT" for one outside
 * lo..hi (overflow included). *out is untouched on error. text NULL counts as empty.
 */
int pcibw_parse_long(const char *name, const char *text, long lo, long hi, const char *expect, long *out,
		     struct pcibw_err *err);

/*
 * pcibw_parse_real - as pcibw_parse_long for a decimal number with an optional fraction and
 * exponent (2.8, .5, 1e-3), in lo..hi (NaN and infinities never are). expect NULL: "a decimal
 * number from LO to HI". Returns PCIBW_OK with *out set, or PCIBW_EUSAGE.
 */
int pcibw_parse_real(const char *name, const char *text, double lo, double hi, const char *expect,
		     double *out, struct pcibw_err *err);

#endif

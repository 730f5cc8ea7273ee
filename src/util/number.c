/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one decimal number reader (pcibw/number.h). */
#include "pcibw/number.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 2^53: the largest run of integers a double holds exactly. */
#define EXACT_INT_MAX 9007199254740992.0

enum pcibw_num_result pcibw_number_scan(const char *text, size_t len, unsigned flags, double *value)
{
	const char *p = text ? text : "", *end = p + (text ? len : 0);
	if (flags & PCIBW_NUM_BLANKS) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		while (end > p && isspace((unsigned char)end[-1]))
			end--;
	}
	if (p == end)
		return PCIBW_NUM_EMPTY;
	const char *start = p;
	if ((flags & PCIBW_NUM_SIGN) && (*p == '-' || *p == '+'))
		p++;
	int digits = 0;
	while (p < end && isdigit((unsigned char)*p))
		p++, digits++;
	if (!(flags & PCIBW_NUM_INTEGER) && p < end && *p == '.')
		for (p++; p < end && isdigit((unsigned char)*p); p++)
			digits++;
	if (!digits)
		return PCIBW_NUM_NOT_DECIMAL;
	if (!(flags & (PCIBW_NUM_INTEGER | PCIBW_NUM_NO_EXP)) && p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end || !isdigit((unsigned char)*p))
			return PCIBW_NUM_NOT_DECIMAL;
		while (p < end && isdigit((unsigned char)*p))
			p++;
	}
	if (p != end)
		return PCIBW_NUM_NOT_DECIMAL;
	/* strtod on a bounded copy: the text is known to be decimal now, so it reads all of it */
	char buf[512];
	size_t n = (size_t)(end - start);
	if (n >= sizeof buf)
		return PCIBW_NUM_OVERFLOW;
	memcpy(buf, start, n);
	buf[n] = '\0';
	errno = 0;
	double v = strtod(buf, NULL);
	if (errno == ERANGE && fabs(v) > 1)
		return PCIBW_NUM_OVERFLOW;
	if (errno == ERANGE)
		v = 0; /* underflow: smaller than any range a caller gives, except one holding 0 */
	if ((flags & PCIBW_NUM_INTEGER) && fabs(v) > EXACT_INT_MAX)
		return PCIBW_NUM_OVERFLOW;
	*value = v;
	return PCIBW_NUM_OK;
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
	if (r == PCIBW_NUM_OVERFLOW || v < (double)lo || v > (double)hi)
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
	if (r == PCIBW_NUM_OVERFLOW || !(v >= lo) || !(v <= hi))
		return pcibw_fail(err, PCIBW_EUSAGE, "%s '%s': out of range, expected %s", name, text,
				  expect);
	*out = v;
	return PCIBW_OK;
}

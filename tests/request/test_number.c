/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one decimal number reader (pcibw/number.h) and the option values that go through it. What
 * counts as a number comes from doc/cli-contract.md: option values are plain decimal, so "+3",
 * " 3", "0x10", "inf" are refused, and an input file's fields may carry blanks and a sign.
 */
#include "pcibw/number.h"
#include "pcibw/options.h"
#include "support.h"
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

static enum pcibw_num_result scan(const char *s, unsigned flags, double *v)
{
	return pcibw_number_scan(s, strlen(s), flags, v);
}

Test(number, plain_decimal_forms)
{
	double v;
	cr_assert_eq(scan("42", 0, &v), PCIBW_NUM_OK);
	cr_assert_eq(v, 42);
	cr_assert_eq(scan("2.5", 0, &v), PCIBW_NUM_OK);
	cr_assert_eq(v, 2.5);
	cr_assert_eq(scan(".5", 0, &v), PCIBW_NUM_OK);
	cr_assert_eq(v, 0.5);
	cr_assert_eq(scan("5.", 0, &v), PCIBW_NUM_OK);
	cr_assert_eq(v, 5);
	cr_assert_eq(scan("1e6", 0, &v), PCIBW_NUM_OK);
	cr_assert_eq(v, 1e6);
	cr_assert_eq(scan("1E-3", 0, &v), PCIBW_NUM_OK);
	cr_assert_eq(v, 1e-3);
}

Test(number, refuses_what_strtod_would_take)
{
	const char *bad[] = {"0x10", "0x1p-1", "inf", "nan", "infinity", "+3", "-3", " 3",   "3 ",
			     "1,5",  "1.2.3",  "e5",  "1e",  "1e+",	 ".",  "",   "3abc", "\t3"};
	double v = 7;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		enum pcibw_num_result r = scan(bad[i], 0, &v);
		cr_assert(r == PCIBW_NUM_NOT_DECIMAL || r == PCIBW_NUM_EMPTY, "'%s' read as a number",
			  bad[i]);
	}
	cr_assert_eq(v, 7, "a refused text must not write the value");
}

Test(number, flags)
{
	double v;
	cr_assert_eq(scan("2.5", PCIBW_NUM_INTEGER, &v), PCIBW_NUM_NOT_DECIMAL);
	cr_assert_eq(scan("1e3", PCIBW_NUM_INTEGER, &v), PCIBW_NUM_NOT_DECIMAL);
	cr_assert_eq(scan("1e3", PCIBW_NUM_NO_EXP, &v), PCIBW_NUM_NOT_DECIMAL);
	cr_assert_eq(scan(" -3.5 ", PCIBW_NUM_SIGN | PCIBW_NUM_BLANKS, &v), PCIBW_NUM_OK);
	cr_assert_eq(v, -3.5);
	cr_assert_eq(scan("+3", PCIBW_NUM_SIGN, &v), PCIBW_NUM_OK);
	cr_assert_eq(v, 3);
	cr_assert_eq(scan("   ", PCIBW_NUM_BLANKS, &v), PCIBW_NUM_EMPTY);
	/* a substring: bus spec fields are read in place */
	cr_assert_eq(pcibw_number_scan("16,mps=256", 2, PCIBW_NUM_INTEGER, &v), PCIBW_NUM_OK);
	cr_assert_eq(v, 16);
}

Test(number, overflow)
{
	double v;
	cr_assert_eq(scan("1e400", 0, &v), PCIBW_NUM_OVERFLOW);
	cr_assert_eq(scan("99999999999999999999", PCIBW_NUM_INTEGER, &v), PCIBW_NUM_OVERFLOW);
	cr_assert_eq(scan("9007199254740992", PCIBW_NUM_INTEGER, &v), PCIBW_NUM_OK); /* 2^53 */
	cr_assert_eq(scan("1e-400", 0, &v), PCIBW_NUM_UNDERFLOW, "1e-400 is not 0");
	cr_assert_eq(v, 0, "an underflow sets 0, refused by any range above 0");
	cr_assert_eq(scan("0e-400", 0, &v), PCIBW_NUM_OK, "zero written with any exponent is 0");
	cr_assert_eq(v, 0);
}

Test(number, parse_long_messages_name_the_option)
{
	struct pcibw_err err = {0};
	long n = 9;
	cr_assert_eq(pcibw_parse_long("--segment-devices", "+3", 1, 32, NULL, &n, &err), PCIBW_EUSAGE);
	cr_assert(strstr(err.msg, "--segment-devices '+3'"), "%s", err.msg);
	cr_assert(strstr(err.msg, "1..32"), "%s", err.msg);
	cr_assert_eq(pcibw_parse_long("--cpus", "99999999999999999999999", 1, 64, NULL, &n, &err),
		     PCIBW_EUSAGE);
	cr_assert(strstr(err.msg, "--cpus") && strstr(err.msg, "out of range"), "%s", err.msg);
	cr_assert_eq(pcibw_parse_long("--cpus", "0", 1, 64, "1 or more", &n, &err), PCIBW_EUSAGE);
	cr_assert(strstr(err.msg, "out of range, expected 1 or more"), "%s", err.msg);
	cr_assert_eq(n, 9);
	cr_assert_eq(pcibw_parse_long("--cpus", "64", 1, 64, NULL, &n, &err), PCIBW_OK);
	cr_assert_eq(n, 64);
}

Test(number, parse_real_range)
{
	struct pcibw_err err = {0};
	double x = 0;
	cr_assert_eq(pcibw_parse_real("--cpu-ghz", "1e-300", 0.001, 100, NULL, &x, &err), PCIBW_EUSAGE);
	cr_assert(strstr(err.msg, "--cpu-ghz '1e-300': out of range"), "%s", err.msg);
	cr_assert_eq(pcibw_parse_real("--cpu-ghz", "nan", 0.001, 100, NULL, &x, &err), PCIBW_EUSAGE);
	cr_assert_eq(pcibw_parse_real("--cpu-ghz", "2.8", 0.001, 100, NULL, &x, &err), PCIBW_OK);
	cr_assert_eq(x, 2.8);
}

/* Every numeric option refuses a sign, blanks and hex the same way, in every command that takes it. */
Test(number, every_numeric_option_is_plain_decimal)
{
	const char *bad[] = {"+3", " 3", "3 ", "0x3", "3.0e", ""};
	for (int i = 0; i < pcibw_n_options; i++) {
		const struct pcibw_option *o = &pcibw_options[i];
		if (o->type != PCIBW_OPT_INT && o->type != PCIBW_OPT_REAL)
			continue;
		for (int c = 0; c < pcibw_n_commands; c++) {
			if (!(o->commands & pcibw_commands[c].bit))
				continue;
			for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
				char opt[64];
				snprintf(opt, sizeof opt, "--%s", o->name);
				char *argv[] = {(char *)pcibw_commands[c].name, opt, (char *)bad[b], NULL};
				struct pcibw_request req;
				struct pcibw_err err = {0};
				pcibw_request_init(&req, pcibw_commands[c].bit);
				int st = pcibw_request_parse(&req, pcibw_commands[c].bit, 3, argv, &err);
				pcibw_request_free(&req);
				cr_assert_eq(st, PCIBW_EUSAGE, "%s %s '%s' accepted", pcibw_commands[c].name,
					     opt, bad[b]);
				cr_assert(strstr(err.msg, opt), "message does not name %s: %s", opt, err.msg);
			}
		}
	}
}

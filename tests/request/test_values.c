/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option values read by the request layer's own parsers, through pcibw_request_parse. Expected
 * values: doc/cli-contract.md ("watch": `--record-max` bytes or a decimal NUMBER[KMGT], 4K..1T,
 * K, M, G and T counting 1024s; numbers are decimal) and plain arithmetic.
 */
#include "pcibw/options.h"
#include "pcibw/request.h"
#include <criterion/criterion.h>
#include <string.h>

/* `pcibw watch --record DIR --record-max V`: the status, and the bytes when it is accepted */
static int record_max(const char *v, double *bytes)
{
	char *argv[] = {"watch", "--record", "/tmp/unused", "--record-max", (char *)v, NULL};
	struct pcibw_request req;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	pcibw_request_init(&req, PCIBW_CMD_WATCH);
	int st = pcibw_request_parse(&req, PCIBW_CMD_WATCH, 5, argv, &err);
	*bytes = req.record_max_bytes;
	if (st)
		cr_expect(strstr(err.msg, "--record-max"), "'%s': the message names the option: %s", v,
			  err.msg);
	pcibw_request_free(&req);
	return st;
}

Test(values, record_max_takes_every_unit_up_to_its_top)
{
	const struct {
		const char *v;
		double bytes;
	} ok[] = {
	    {"4096", 4096},
	    {"4K", 4096},
	    {"4.5k", 4608},
	    {"64M", 64.0 * 1024 * 1024},
	    {"2G", 2.0 * 1024 * 1024 * 1024},
	    {"1T", 1024.0 * 1024 * 1024 * 1024}, /* the top of the range the message states */
	    {"1024G", 1024.0 * 1024 * 1024 * 1024},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		double b = 0;
		cr_expect_eq(record_max(ok[i].v, &b), PCIBW_OK, "--record-max %s refused", ok[i].v);
		cr_expect_eq(b, ok[i].bytes, "--record-max %s: %.0f bytes, expected %.0f", ok[i].v, b,
			     ok[i].bytes);
	}
}

Test(values, record_max_refuses_what_is_not_a_decimal_size_in_range)
{
	/* 0x1000 and 1e4 are what strtod alone would take; 4095 and 1.5T are past the ends */
	const char *bad[] = {"0x1000", "1e4", "4095", "1.5T", "2T",  "1KB",    "K", "",
			     " 4K",    "4K ", "-4K",  "inf",  "nan", "1.2.3K", "."};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		double b;
		cr_expect_eq(record_max(bad[i], &b), PCIBW_EUSAGE, "--record-max '%s' accepted (%.0f)",
			     bad[i], b);
	}
}

/* The parser is called again in one process (a library user, the fuzzer): a parse that stopped
 * inside a cluster of short options ("-xs": -x unknown) must not leave getopt's scan position in
 * that argv for the next parse, which would read freed memory and take a stale option. */
Test(values, a_parse_starts_afresh_after_one_stopped_mid_cluster)
{
	char cmd[] = "report", cluster[] = "-xs";
	char *a1[] = {cmd, cluster, NULL};
	struct pcibw_request req;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	pcibw_request_init(&req, PCIBW_CMD_REPORT);
	cr_assert_eq(pcibw_request_parse(&req, PCIBW_CMD_REPORT, 2, a1, &err), PCIBW_EUSAGE);
	pcibw_request_free(&req);
	/* the first command line is gone (reused memory): nothing of it may be read again */
	strcpy(cluster, "-sZ");
	char *a2[] = {"report", "-s", "01:00.0", NULL};
	pcibw_request_init(&req, PCIBW_CMD_REPORT);
	pcibw_err_clear(&err);
	cr_assert_eq(pcibw_request_parse(&req, PCIBW_CMD_REPORT, 3, a2, &err), PCIBW_OK, "%s", err.msg);
	cr_expect(req.probe.slot_filter && !strcmp(req.probe.slot_filter, "01:00.0"), "-s read as '%s'",
		  req.probe.slot_filter ? req.probe.slot_filter : "(none)");
	pcibw_request_free(&req);
}

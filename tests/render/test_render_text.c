/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The analyze renderers' text: numbers without exponents, a share of the wire stated only as far
 * as it is known, and a summary that states each figure once. Expected text: the contract
 * (doc/cli-contract.md) and hand arithmetic written next to each check.
 */
#include "analyze_support.h"

/* A rate just under 1 Gbit/s is not printed as "1e+03 Mbit/s". 0.99999 Gbit/s of 1024 B payloads:
 * three significant digits give "1 Gbit/s". */
Test(render_text, rate_text_no_exponent)
{
	const char *p = tmp_text(".csv", "payload_bytes,gbps\n1024,0.99999\n");
	struct run_result r = run_args((const char *[]){"analyze", p, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strstr(r.out, "e+03"), "%s", r.out);
	cr_assert(strstr(r.out, "1 Gbit/s"), "%s", r.out);
	run_free(&r);
	unlink(p);
}

/* A row without a packet size that reaches the wire: no "(? of a 10 Gbit/s line at nan B)" and
 * no exact share in the summary. 9.6 / 10 = 96 %, and without a size the headers,
 * preamble and gap are not counted: at least 96 %. */
Test(render_text, wire_bound_without_size)
{
	const char *p = tmp_text(".csv", "gbps\n9.6\n");
	struct run_result r = run_args((const char *[]){"analyze", p, "--line-rate", "10G", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strstr(r.out, "nan") && !strstr(r.out, "? of"), "%s", r.out);
	cr_assert(strstr(r.out, "the wire is at least 96 % full (9.6 Gbit/s of a 10 Gbit/s line)"), "%s",
		  r.out);
	cr_assert(strstr(r.out, "Wire-bound: the wire is at least 96 % full"), "%s", r.out);
	run_free(&r);
	unlink(p);
}

/* The CPU-bound summary states the bus and the wire once, then the row's reason, without
 * repeating them ("... 22 % busy ... and the wire 59 %; ... resource (bus 22 %, wire 59 %)"). */
Test(render_text, summary_states_bus_once)
{
	json_t *j = analyze_json(
	    NULL,
	    (const char *[]){"analyze", test_data("../../data/examples/freebsd-2004-udp-echo-e1000.csv"),
			     "--bus", "pcix133/64,mmrbc=512", "--nic", "e1000", "--line-rate", "1G", "--cpus",
			     "1", "--cpu-ghz", "2.8", "--json", NULL});
	const char *sum = json_string_value(json_array_get(json_object_get(j, "evidence"), 0));
	cr_assert(strstr(sum, "only loaded resource") && strstr(sum, "the wire"), "%s", sum);
	cr_assert(!strstr(sum, "(bus "), "%s", sum);
	json_t *r = json_array_get(json_object_get(j, "rows"), 0);
	cr_assert(evidence_has(r, "(bus "), "the row's own evidence keeps the figures");
	json_decref(j);
}

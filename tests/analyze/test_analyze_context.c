/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What analyze must say about the context of a measurement, beyond the numbers:
 * - a loopback iperf3 run crossed no NIC and no bus (the capture's .src sidecar: `-c 127.0.0.1`);
 * - the "CPU is the only loaded resource" rule needs bus AND wire both known below 0.60
 *   (doc/cli-contract.md, "Verdicts"): without --line-rate the wire is unknown, not idle.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

Test(context, loopback_iperf3_is_flagged)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"analyze", test_data("bench/iperf3-3.12-loopback-tcp-P2.json"),
					     "--bus", "gen3x8", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	char *flat = squash_space(r.out);
	cr_assert(flat && strstr(flat, "loopback (remote host 127.0.0.1)"), "out: %s", r.out);
	free(flat);
	run_free(&r);
}

static const char *write_csv(const char *text)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/pcibw-ctx-%d.csv", (int)getpid());
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs(text, f);
	fclose(f);
	return path;
}

Test(context, cpu_only_rule_needs_a_known_wire)
{
	/* The motivating box's stated numbers: 1024 B UDP payload, 550 Mbit/s per direction, CPU 82 %.
	 * On PCI-X 133/64 the bus is < 25 % busy (doc/model-pci.md "Calibration"); 82 % >= 0.75. */
	const char *p = write_csv("payload_bytes,direction,mbps,cpu_pct\n1024,both,550,82\n");
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", p, "--bus", "pcix133/64,mmrbc=512",
							       "--nic", "e1000", "--json", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.out, "\"verdict\": \"undetermined\""), "no line rate, wire unknown: %s", r.out);
	cr_assert(strstr(r.out, "--line-rate"), "evidence names what is missing: %s", r.out);
	run_free(&r);
	/* with the wire known (1G: 550 Mbit/s of payload is ~59 % of the wire, < 0.60) it is cpu-bound */
	r = run_pcibw(NULL, (const char *[]){"analyze", p, "--bus", "pcix133/64,mmrbc=512", "--nic", "e1000",
					     "--line-rate", "1G", "--json", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.out, "\"verdict\": \"cpu-bound\""), "%s", r.out);
	run_free(&r);
	unlink(p);
}

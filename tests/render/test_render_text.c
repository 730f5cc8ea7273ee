/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The analyze renderers' text: numbers without exponents, a share of the wire stated only as far
 * as it is known, and a summary that states each figure once. Expected text: the contract
 * (doc/cli-contract.md) and hand arithmetic written next to each check.
 */
#include "analyze_support.h"
#include "src/render/text_wrap.h"

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

/* The table's columns line up under their heads whatever the pattern's name: pcie-bench rows are
 * dma-read/dma-write, wider than rx/tx/both, and shifted every column after them. Each row's
 * verdict starts where the head's "verdict" does. */
Test(render_text, columns_align_for_dma_patterns)
{
	const char *in = test_data("pciebench-nfp6000-hsw-e5-2620v3-dell-t630-dma-size-sweep.csv");
	const char *buses[] = {"gen3x8", NULL};
	for (int b = 0; b < 2; b++) {
		const char *args[] = {"analyze", in, buses[b] ? "--bus" : NULL, buses[b], NULL};
		struct run_result r = run_args(args);
		cr_assert_eq(r.status, 0, "%s", r.err);
		const char *head = strstr(r.out, "\n  # series");
		cr_assert(head, "no table head: %s", r.out);
		head++;
		const char *eol = strchr(head, '\n');
		long col = strstr(head, "verdict") - head;
		cr_assert(col > 0 && head + col < eol, "no verdict column: %.200s", head);
		int rows = 0;
		for (const char *l = eol + 1; *l && *l != '\n'; l = strchr(l, '\n') + 1, rows++) {
			const char *e = strchr(l, '\n');
			cr_assert(e, "unterminated row");
			cr_expect(e - l > col && l[col - 1] == ' ' && l[col] != ' ',
				  "--bus %s row %d: the verdict does not start at column %ld: %.*s",
				  buses[b] ? buses[b] : "none", rows + 1, col, (int)(e - l), l);
			cr_expect(e - l <= 100 || !buses[b], "row %d is %ld columns: %.*s", rows + 1,
				  (long)(e - l), (int)(e - l), l);
		}
		cr_expect(rows >= 100, "%d rows", rows);
		run_free(&r);
	}
}

/* A long line breaks at blanks, never between a number and its unit: "100\n %" reads as two
 * figures. The text puts "100 %" across the 100th column; the wrapper must move it whole. */
Test(render_text, wrap_keeps_a_unit_with_its_number)
{
	char text[256], *buf = NULL;
	size_t len = 0;
	/* "> " + 93 'x' + " " puts "100" at columns 97-99 and " %" past 100 */
	snprintf(text, sizeof text, "%.93s 100 %%; then 64 B and 9.6 Gbit/s",
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		 "xxxxxxxxxx");
	FILE *f = open_memstream(&buf, &len);
	cr_assert(f);
	pcibw_text_wrapped(f, "> ", text);
	fclose(f);
	cr_expect(strstr(buf, "\n    100 %; then"), "the unit left its number: %s", buf);
	for (const char *l = buf; *l; l = strchr(l, '\n') + 1) {
		const char *e = strchr(l, '\n');
		cr_expect(e - l <= 100, "a line of %ld columns: %s", (long)(e - l), buf);
	}
	free(buf);
}

/* Cycles per packet need the CPU count and the clock (doc/cli-contract.md, `--cpus`,
 * `--cpu-ghz`): with one of them the cpu line names the other, instead of a bare "-". */
Test(render_text, cpu_line_names_what_cycles_per_packet_lack)
{
	const char *p = tmp_text(".csv", "frame_bytes,pps,cpu_pct\n64,1000000,50\n");
	struct run_result r = run_args((const char *[]){"analyze", p, "--cpus", "2", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "\ncpu      2 CPU(s) at - MHz (options); no clock (--cpu-ghz): no cycles "
				"per packet\n"),
		  "%s", r.out);
	run_free(&r);
	r = run_args((const char *[]){"analyze", p, "--cpu-ghz", "2.5", NULL});
	cr_expect(strstr(r.out, "at 2500 MHz (options); no CPU count (--cpus): no cycles per packet\n"), "%s",
		  r.out);
	run_free(&r);
	/* both: 2 x 2.5e9 x 0.50 / 1e6 pps = 2500 cycles per packet, and no such note */
	r = run_args((const char *[]){"analyze", p, "--cpus", "2", "--cpu-ghz", "2.5", NULL});
	cr_expect(strstr(r.out, "\ncpu      2 CPU(s) at 2500 MHz (options)\n"), "%s", r.out);
	cr_expect(strstr(r.out, " 2500 "), "cycles per packet: %s", r.out);
	run_free(&r);
	unlink(p);
}

/* The --explain recipe's total line says what its bytes count, which is the bus's own unit:
 * TLP bytes with framing on a PCIe link (doc/model.md sec. "the link"), whole flits' worth in
 * Flit mode (256 B flits carry 236 TLP bytes, PCIe Base 6.0 sec. 4.2.3.1), clocks times bytes
 * per clock on a PCI/PCI-X segment (doc/model-pci.md "The packet and the ceiling"), nothing on
 * a paravirtual device. A PCI segment has no TLPs, DLLPs or SKPs to name. */
Test(render_text, explain_total_names_the_bus_unit)
{
	static const struct {
		const char *bus, *want;
	} cases[] = {
	    {"gen3x8", "(TLP bytes; DLLPs and SKPs are in the link budget)"},
	    {"gen6x4", "(flit bytes: TLP bytes in 256 B flits of 236 TLP bytes"},
	    {"pci33/32", "(bus clocks x bytes per clock"},
	    {"pcix133/64", "(bus clocks x bytes per clock"},
	    {"virtual", "(no bus ceiling: a paravirtual device)"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct run_result r = run_args(
		    (const char *[]){"model", "--bus", cases[i].bus, "--sizes", "64", "--explain", NULL});
		cr_assert_eq(r.status, 0, "%s: %s", cases[i].bus, r.err);
		const char *total = strstr(r.out, "\n  total ");
		cr_assert(total, "%s: %s", cases[i].bus, r.out);
		const char *end = strchr(total + 1, '\n');
		char line[400];
		snprintf(line, sizeof line, "%.*s", (int)(end ? end - total - 1 : 300), total + 1);
		cr_assert(strstr(line, cases[i].want), "%s: %s", cases[i].bus, line);
		if (strncmp(cases[i].bus, "gen", 3))
			cr_assert(!strstr(line, "TLP"), "%s: %s", cases[i].bus, line);
		run_free(&r);
	}
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Review of `pcibw model` (engineer I): one test per bug found, and the two model refinements.
 * Expected values come from doc/cli-contract.md, the cited spec/driver rules and hand sums of
 * the per-transaction clocks documented in doc/model-pci.md (the same rules
 * tests/model/test_pci_timing.c checks one by one), never from pcibw's output.
 *
 * PCI 33/32 clocks used below (30 ns each; e1000 profile, one device, parked bus):
 *   tail write 6; 16 B descriptor read = one MRL delayed read: retried attempt 6 + read 4 + 4
 *   data + idle 1 = 15; 16 B write-back 1 + 1 + 1 + 1 + 4 + 1 = 9; ICR read 18 (16-clock target
 *   latency + host arbitration + idle); a B byte DMA write 5 + ceil(B/4) + ... (bursts of 4 KB);
 *   a delayed read of a chunk: 11 fixed clocks (attempt 6 + address/DAC/turnaround/decode 4 +
 *   idle 1) + its data phases.
 */
#include "model_helpers.h"
#include "support.h"
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct pcibw_model_row eval_n(const struct pcibw_bus *b, const struct pcibw_nic *n,
				     enum pcibw_pattern p, enum pcibw_size_is s, double size)
{
	return eval(b, n, p, s, PCIBW_COMPAT_NONE, size);
}

/* ---- bus spec ---------------------------------------------------------------------------- */

/* Bug: a modifier given twice was taken silently, the last one winning ("gen3x8,mps=256,mps=512"
 * modelled MPS 512). Expected: exit 2 naming the modifier. */
Test(review_busspec, duplicate_modifier_refused)
{
	static const char *const specs[][2] = {
	    {"gen3x8,mps=256,mps=512", "'mps' given twice"},
	    {"gen3x8,ecrc,ecrc", "'ecrc' given twice"},
	    {"gen3x8,addr32,ADDR32", "given twice"},
	    {"pcix133,mmrbc=512,mmrbc=512", "'mmrbc' given twice"},
	    {"pci33,latency_timer=8,latency_timer=16", "'latency_timer' given twice"},
	};
	for (unsigned i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		struct pcibw_bus b;
		struct pcibw_err e = {0};
		cr_expect_eq(pcibw_bus_parse(specs[i][0], &b, &e), PCIBW_EUSAGE, "%s accepted", specs[i][0]);
		cr_expect(strstr(e.msg, specs[i][1]), "%s: %s", specs[i][0], e.msg);
	}
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8,mps=256,mps=512", NULL});
	cr_expect_eq(r.status, 2, "exit %d", r.status);
	cr_expect(strstr(r.err, "'mps' given twice"), "%s", r.err);
	cr_expect_eq(r.out[0], '\0');
	run_free(&r);
}

/* Bug: "gen3x" and "gen3x8 " printed "width  is not a PCIe width" and "width 8  is ..." -- the
 * bad part unquoted, an empty or trailing-blank width invisible. Expected: the part quoted. */
Test(review_busspec, width_message_quotes_the_part)
{
	struct pcibw_bus b;
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_bus_parse("gen3x", &b, &e), PCIBW_EUSAGE);
	cr_expect(strstr(e.msg, "bus 'gen3x': width ''"), "%s", e.msg);
	cr_assert_eq(pcibw_bus_parse("gen3x8 ", &b, &e), PCIBW_EUSAGE);
	cr_expect(strstr(e.msg, "width '8 '"), "%s", e.msg);
	/* the contract's own example stays word for word */
	cr_assert_eq(pcibw_bus_parse("gen3x3", &b, &e), PCIBW_EUSAGE);
	cr_expect(strstr(e.msg, "width 3 is not a PCIe width (1,2,4,8,12,16,32)"), "%s", e.msg);
}

/* ---- line rate --------------------------------------------------------------------------- */

/* Bug: strtod let "0x10G" through as 16 Gbit/s and " 10G" with its blank, and 1e-30G made the
 * headroom column print a 34-digit percentage. Expected: decimal NUMBER[MG] within 1M..100000G
 * (contract: "any NUMBER[MG]"; the bounds are the slowest Ethernet and 125 x 800G). */
Test(review_options, line_rate_decimal_and_bounded)
{
	static const char *const bad[] = {"0x10G",  " 10G", "1e-30G", "0.5M", "100001G",
					  "1e309G", "nanG", "1eG",    "10"};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		double g = -1;
		struct pcibw_err e = {0};
		cr_expect_eq(pcibw_line_rate_parse(bad[i], &g, &e), PCIBW_EUSAGE, "'%s' accepted as %g",
			     bad[i], g);
		cr_expect(strstr(e.msg, bad[i]), "message names '%s': %s", bad[i], e.msg);
	}
	static const struct {
		const char *s;
		double g;
	} good[] = {
	    {"1M", 0.001}, {"100m", 0.1}, {"2.5G", 2.5}, {".5G", 0.5}, {"1e3G", 1000}, {"100000G", 100000},
	};
	for (unsigned i = 0; i < sizeof good / sizeof good[0]; i++) {
		double g = -1;
		struct pcibw_err e = {0};
		cr_expect_eq(pcibw_line_rate_parse(good[i].s, &g, &e), PCIBW_OK, "%s: %s", good[i].s, e.msg);
		cr_expect(fabs(g - good[i].g) < 1e-12 * good[i].g, "%s -> %g", good[i].s, g);
	}
}

/* ---- sizes ------------------------------------------------------------------------------- */

/* Bug: a contract-valid range such as 64-65536/1 was refused ("more than 10000 sizes").
 * Expected: every whole size 1..65536 is allowed once over (65,536 rows), quickly. */
Test(review_sizes, full_range_accepted, .timeout = 60)
{
	struct pcibw_sizes s = {0};
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_sizes_parse("1-65536/1", &s, &e), PCIBW_OK, "%s", e.msg);
	cr_expect_eq(s.n, 65536);
	cr_expect_eq(s.v[0].bytes, 1);
	cr_expect_eq(s.v[65535].bytes, 65536);
	pcibw_sizes_free(&s);
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "pci33", "--nic", "e1000", "--sizes",
					     "64-65536/1", "--format", "csv", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	int lines = 0;
	for (const char *p = r.out; *p; p++)
		lines += *p == '\n';
	cr_expect_eq(lines, 1 + 65536 - 63, "header + 65,473 sizes: %d lines", lines);
	run_free(&r);
}

/* Bug: a mix with huge weights (64:1e308,128:1e308) overflowed their sum and was refused with
 * "weights must be positive". Expected: only the ratio matters -- the same row as 64:1,128:1. */
Test(review_sizes, huge_mix_weights_are_ratios)
{
	struct pcibw_bus b = parse_bus("gen3x8,mps=256");
	struct pcibw_nic n = load_nic("simple");
	struct pcibw_model_in in = {&b, &n, PCIBW_PAT_BOTH, PCIBW_SIZE_FRAME, 0, PCIBW_COMPAT_NONE, 1};
	struct pcibw_sizes big = {0}, one = {0};
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_sizes_parse("64:1e308,128:1e308", &big, &e), PCIBW_OK, "%s", e.msg);
	cr_assert_eq(pcibw_sizes_parse("64:1,128:1", &one, &e), PCIBW_OK, "%s", e.msg);
	struct pcibw_model_row rb, ro;
	cr_assert_eq(pcibw_model_eval_mix(&in, &big, &rb, &e), PCIBW_OK, "%s", e.msg);
	cr_assert_eq(pcibw_model_eval_mix(&in, &one, &ro, &e), PCIBW_OK, "%s", e.msg);
	cr_expect_eq(rb.size_bytes, 96, "mean of 64 and 128");
	cr_expect(fabs(rb.bus_mpps - ro.bus_mpps) < 1e-12 * ro.bus_mpps);
	pcibw_sizes_free(&big);
	pcibw_sizes_free(&one);
}

/* Usability: "imix,64" said "'imix' is not a size in bytes". Expected: that imix stands alone;
 * "IMIX" is imix. */
Test(review_sizes, imix_alone)
{
	struct pcibw_sizes s = {0};
	struct pcibw_err e = {0};
	cr_expect_eq(pcibw_sizes_parse("imix,64", &s, &e), PCIBW_EUSAGE);
	cr_expect(strstr(e.msg, "imix is a mix of its own"), "%s", e.msg);
	cr_assert_eq(pcibw_sizes_parse("IMIX", &s, &e), PCIBW_OK, "%s", e.msg);
	cr_expect(s.is_mix && s.n == 3 && s.v[1].bytes == 594 && s.v[1].weight == 4);
	pcibw_sizes_free(&s);
}

/* ---- profile files ----------------------------------------------------------------------- */

static const char *write_tmp(const char *name, const char *body, size_t len)
{
	static char path[8][256];
	static int k;
	char *p = path[k++ % 8];
	snprintf(p, 256, "/tmp/pcibw-review-%d-%s", (int)getpid(), name);
	FILE *f = fopen(p, "wb");
	cr_assert(f, "%s: %s", p, strerror(errno));
	fwrite(body, 1, len, f);
	fclose(f);
	return p;
}

#define HDR "; synthetic: a profile that is wrong on purpose (tests/model/test_review_model.c)\n"
#define GOOD "[profile]\nname = x\nsource = s\n[tx]\ndesc_bytes = 16\n[rx]\ndesc_bytes = 16\n"

static void expect_bad_profile(const char *path, const char *want)
{
	struct pcibw_nic n;
	struct pcibw_err e = {0};
	cr_expect_eq(pcibw_nic_load_file(path, &n, &e), PCIBW_EINPUT, "%s accepted", path);
	cr_expect(strstr(e.msg, want), "%s: want '%s', got: %s", path, want, e.msg);
}

/* Bugs: a NUL inside a line was silently dropped with the rest of the line ("name = x\0zzz" read as
 * "x"); /dev/zero never returned (inih kept asking for lines); a directory read as an empty file
 * at "line 0"; a line over inih's 200-byte buffer was split and its tail parsed as a key of its
 * own; an unclosed "[profile" blamed the next line's key; an empty file said ":0:1: missing".
 * Expected: exit 3 naming file:line:column and the real fault. */
Test(review_profiles, not_a_text_profile, .timeout = 30)
{
	static const char nul[] = HDR "[profile]\nname = x\0zzz\nsource = s\n";
	char want[512];
	const char *p = write_tmp("synthetic-nul.ini", nul, sizeof nul - 1);
	snprintf(want, sizeof want, "%s:3:9: control byte 0x00", p);
	expect_bad_profile(p, want);
	expect_bad_profile("/dev/zero", "/dev/zero: is a device: expected a NIC profile");
	expect_bad_profile("/tmp", "/tmp: is a directory: expected a NIC profile");
	p = write_tmp("synthetic-empty.ini", "", 0);
	expect_bad_profile(p, "empty file");
	char longline[600];
	snprintf(longline, sizeof longline, HDR "[profile]\nsource = %0400d\n", 7);
	p = write_tmp("synthetic-long.ini", longline, strlen(longline));
	snprintf(want, sizeof want, "%s:3:", p);
	expect_bad_profile(p, want);
	expect_bad_profile(p, "line longer than");
	static const char unclosed[] = HDR "[profile\nname = x\n";
	p = write_tmp("synthetic-unclosed.ini", unclosed, sizeof unclosed - 1);
	snprintf(want, sizeof want, "%s:2:1: '[' without ']'", p);
	expect_bad_profile(p, want);
	static const char before[] = HDR "name = x\n";
	p = write_tmp("synthetic-nosection.ini", before, sizeof before - 1);
	expect_bad_profile(p, "'name' comes before any [section]");
	/* 2 MiB of comment lines: not a profile, and not read to the end */
	size_t big = 2u << 20;
	char *huge = malloc(big);
	cr_assert(huge);
	for (size_t i = 0; i < big; i += 2)
		huge[i] = ';', huge[i + 1] = '\n';
	p = write_tmp("synthetic-huge.ini", huge, big);
	free(huge);
	expect_bad_profile(p, "larger than 1 MiB");
}

/* Bug: max_dma_tps = 1e-300 (a typo for 1e+300? for 47.4e6?) was taken and printed a ceiling of
 * 0.000 Mpps. Expected: 0 (no limit) or 1000..1e10 transactions/s; read latency 0 or 1..1e6 ns. */
Test(review_profiles, device_limits_bounded)
{
	char body[512], want[600];
	snprintf(body, sizeof body, HDR GOOD "[device]\nmax_dma_tps = 1e-300\n");
	const char *p = write_tmp("synthetic-tps.ini", body, strlen(body));
	snprintf(want, sizeof want, "%s:10:15: max_dma_tps: expected 0 (no limit) or a number 1000..1e+10",
		 p);
	expect_bad_profile(p, want);
	snprintf(body, sizeof body,
		 HDR GOOD "[device]\nmax_dma_tps = 0\nread_latency_ns = 0.001\nread_tags = 4\n");
	p = write_tmp("synthetic-lat.ini", body, strlen(body));
	expect_bad_profile(p, "read_latency_ns: expected 0 (no limit) or a number 1..1e+06");
}

/* ---- refinement (a): one interrupt for both rings ------------------------------------------ */

/* A hand-built profile: interrupts every 4 packets, 4 B MSI, 2 cause reads each. Per path that is
 * 1/4 MSI and 2/4 reads per packet; `both` without irq_shared pays both paths' (1/2 MSI, 1 read
 * per packet pair), with irq_shared one interrupt per 4 pairs (1/4 MSI, 1/2 read). */
Test(review_irq, shared_vector_counts_pairs)
{
	struct pcibw_nic n = {0};
	snprintf(n.name, sizeof n.name, "hand");
	n.tx_desc_bytes = n.rx_desc_bytes = 16;
	n.tx_desc_fetch_batch = n.rx_desc_fetch_batch = n.tx_wb_batch = n.rx_wb_batch = 1;
	n.doorbell_bytes = n.head_read_bytes = 4;
	n.irq_batch = 4;
	n.irq_bytes = 4;
	n.icr_reads_per_irq = 2;
	struct {
		enum pcibw_pattern p;
		bool shared;
		double msi, icr;
	} c[] = {
	    {PCIBW_PAT_BOTH, false, 0.5, 1.0}, {PCIBW_PAT_BOTH, true, 0.25, 0.5},
	    {PCIBW_PAT_RX, true, 0.25, 0.5},   {PCIBW_PAT_TX, true, 0.25, 0.5},
	    {PCIBW_PAT_RX, false, 0.25, 0.5},
	};
	for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
		n.irq_shared = c[k].shared;
		struct pcibw_recipe r;
		struct pcibw_err e = {0};
		cr_assert_eq(pcibw_nic_recipe(&n, c[k].p, 1000, &r, &e), PCIBW_OK, "%s", e.msg);
		double msi = 0, icr = 0;
		for (int i = 0; i < r.n; i++) {
			msi += r.ops[i].role == PCIBW_ROLE_IRQ ? r.ops[i].per_packet : 0;
			icr += r.ops[i].role == PCIBW_ROLE_ICR_READ ? r.ops[i].per_packet : 0;
		}
		cr_expect(fabs(msi - c[k].msi) < 1e-12, "case %u: %g MSI per packet, hand %g", k, msi,
			  c[k].msi);
		cr_expect(fabs(icr - c[k].icr) < 1e-12, "case %u: %g ICR reads per packet, hand %g", k, icr,
			  c[k].icr);
	}
}

/* The e1000 profile now says what em does (RDTR = 0: an interrupt per received packet; one INTx
 * line for both rings) instead of faking it with irq_batch 2. Receive alone, 64 B frames on
 * PCI 33/32 (64 B DMA'd with the FCS): tail 6 + descriptor 15 + write (1 + 1 + 1 + 1 + 16 + 1 =
 * 21) + write-back 9 + one interrupt's two ICR reads 36 = 87 clocks = 2,610 ns -> 383,142 pps
 * (it was 69 clocks, half an interrupt per received packet). The echo keeps one interrupt per
 * pair: TX 6 + 15 + 26 + 9 = 56 and RX 87 -> 143 clocks, as test_pci_model.c's hand sum. */
Test(review_irq, e1000_receive_interrupts_every_packet)
{
	struct pcibw_bus b = parse_bus("pci33/32");
	struct pcibw_nic n = load_nic("e1000");
	cr_expect(n.irq_shared && n.irq_batch == 1);
	struct pcibw_model_row r = eval_n(&b, &n, PCIBW_PAT_RX, PCIBW_SIZE_FRAME, 64);
	cr_expect(fabs(r.bus_ns_per_packet - 87 * 30) < 1e-6, "%g ns", r.bus_ns_per_packet);
	cr_expect(fabs(r.bus_mpps * 1e6 - 100e6 / 3 / 87) < 1e-3, "%g pps", r.bus_mpps * 1e6);
	cr_expect(fabs(r.cpu_stall_ns_per_packet - 2 * 744) < 1e-6, "%g", r.cpu_stall_ns_per_packet);
	r = eval_n(&b, &n, PCIBW_PAT_BOTH, PCIBW_SIZE_FRAME, 64);
	cr_expect(fabs(r.bus_ns_per_packet - 143 * 30) < 1e-6, "%g ns", r.bus_ns_per_packet);
	cr_expect(fabs(r.cpu_stall_ns_per_packet - 2 * 744) < 1e-6, "%g", r.cpu_stall_ns_per_packet);
}

/* ---- refinement (b): the device's cache line ----------------------------------------------- */

/* Delayed reads prefetch to the bus's cache line (MRL) or the second line (MRM), PI7C8140A table
 * 2-4, with the line from the device's Cache Line Size register. e1000, transmit alone, 1518 B
 * frames (1514 B read) on PCI 33/32; the rest of the packet is tail 6 + descriptor 15 (16 B, one
 * MRL read whatever the line) + write-back 9 + ICR 36 = 66 clocks.
 *   64 B line (--bus default): 12 reads of 128 B (11 x 128 + 106): 12 x 11 + 11 x 32 + 27 = 511
 *       -> 577 clocks
 *   128 B line: 6 reads of 256 B (5 x 256 + 234): 6 x 11 + 5 x 64 + 59 = 445 -> 511 clocks
 *   32 B line: 24 reads of 64 B (23 x 64 + 42): 24 x 11 + 23 x 16 + 11 = 643 -> 709 clocks
 *   48 B (not a power of two: PCI LB 3.0 sec. 6.2.4, an unsupported value acts as 0): 64 B. */
Test(review_cacheline, delayed_reads_follow_the_register)
{
	struct pcibw_nic n = load_nic("e1000");
	struct pcibw_bus b = parse_bus("pci33/32");
	cr_expect_eq(b.cacheline_bytes, 64, "a --bus spec's default line");
	cr_expect(b.cacheline_default);
	static const struct {
		int line, clocks;
	} c[] = {{64, 577}, {128, 511}, {32, 709}, {48, 577}, {0, 577}};
	for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
		b.cacheline_bytes = c[k].line;
		struct pcibw_model_row r = eval_n(&b, &n, PCIBW_PAT_TX, PCIBW_SIZE_FRAME, 1518);
		cr_expect(fabs(r.bus_ns_per_packet - c[k].clocks * 30.0) < 1e-6,
			  "line %d: %g ns, hand %d clocks", c[k].line, r.bus_ns_per_packet, c[k].clocks);
	}
}

/* The motivating verdicts do not hang on the line size: the 82540 echo of 1024 B UDP payload
 * (1066 B read) with a 128 B line takes 5 reads of 256 B (4 x 256 + 42): 5 x 11 + 4 x 64 + 11 = 322
 * instead of 366 clocks, 735 - 44 = 691 clocks per echoed packet: 48,239 pps = 395.2 Mbit/s,
 * still below 550. PCI-X reads are split transactions (MMRBC, not the line): unchanged. */
Test(review_cacheline, motivating_box_holds)
{
	struct pcibw_nic n = load_nic("e1000");
	struct pcibw_bus b = parse_bus("pci33/32");
	b.cacheline_bytes = 128;
	struct pcibw_model_row r = eval_n(&b, &n, PCIBW_PAT_BOTH, PCIBW_SIZE_UDP_PAYLOAD, 1024);
	cr_expect(fabs(r.bus_ns_per_packet - 691 * 30.0) < 1e-6, "%g ns", r.bus_ns_per_packet);
	cr_expect_lt(r.bus_gbps, 0.550);
	struct pcibw_bus x = parse_bus("pcix133/64,mmrbc=512");
	x.cacheline_bytes = 128;
	r = eval_n(&x, &n, PCIBW_PAT_BOTH, PCIBW_SIZE_UDP_PAYLOAD, 1024);
	cr_expect(fabs(r.bus_ns_per_packet - 3337.5) < 1e-6, "%g ns (445 clocks)", r.bus_ns_per_packet);
}

/* ---- the table ---------------------------------------------------------------------------- */

/* Usability: the table left the reader to scan the limit column for the answer, and "stall ns"
 * and the bound_by names were unexplained. Gen1 x1, simple NIC, 1 Gbit/s: at 64 B the bus holds
 * 0.43 Gbit/s (anchors table B, simple bi) < 0.762 of the wire; at 1518 B it holds ~1.38 >
 * 0.987. Expected: one line naming the sizes the bus cannot carry, and a note for "to-host". */
Test(review_text, says_which_sizes_the_bus_cannot_carry)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen1x1", "--nic", "simple", "--sizes",
					     "64,1518", "--line-rate", "1G", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "the bus cannot carry 1 Gbit/s at 64 B.\n"), "%s", r.out);
	cr_expect(strstr(r.out, "\nto-host: "), "%s", r.out);
	run_free(&r);
	/* a tiny line rate at the bound (1 Mbit/s) keeps the headroom column aligned: every data
	 * line as long as the header line */
	r = run_pcibw(NULL, (const char *[]){"model", "--bus", "gen5x16", "--nic", "simple", "--sizes",
					     "64,1518", "--line-rate", "1M", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	char *hdr = strstr(r.out, "    size");
	cr_assert(hdr, "%s", r.out);
	size_t hl = strcspn(hdr, "\n");
	char *l1 = hdr + hl + 1;
	size_t w1 = strcspn(l1, "\n");
	cr_expect_eq(strstr(hdr, "bus bound by") - hdr, strstr(l1, "to-") - l1,
		     "bound_by column aligned:\n%s", r.out);
	(void)w1;
	run_free(&r);
}

/* From a real dump (tests/data/lkml-2006-via-pm133-82546eb-conventional-pci.lspci, header in the
 * file): the 82546EB at 00:12.0 on conventional PCI 33 MHz, config 0x0c Cache Line Size 0x08 =
 * 32 B (lspci: "Cache Line Size: 32 bytes"). The model takes the line from the device: the e1000
 * profile by id (8086:1010), 32-bit PCI, transmit of 1518 B frames = 709 clocks (hand sum in
 * delayed_reads_follow_the_register) = 21,270 ns, and the JSON says which line it used. */
Test(review_cacheline, probed_device_brings_its_line)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "-s", "00:12.0", "--dump",
					     test_data("lkml-2006-via-pm133-82546eb-conventional-pci.lspci"),
					     "--pattern", "tx", "--sizes", "1518", "--format", "json", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "\"nic\": \"e1000\""), "%s", r.out);
	cr_expect(strstr(r.out, "\"spec\": \"pci33/32,latency_timer=64\""), "%s", r.out);
	cr_expect(strstr(r.out, "\"cacheline_bytes\": 32"), "%s", r.out);
	cr_expect(strstr(r.out, "\"bus_ns_per_packet\": 21270.0"), "%s", r.out);
	run_free(&r);
}

/* Bug: --compat pcie-bench on a PCI or PCI-X bus was taken, and the table announced "pcie-bench
 * compatible accounting" for a bus pcie-model does not model. Expected: exit 2 saying so. */
Test(review_options, compat_refused_on_pci)
{
	static const char *const buses[] = {"pci33/32", "pcix133/64"};
	for (int i = 0; i < 2; i++) {
		struct run_result r = run_pcibw(
		    NULL, (const char *[]){"model", "--bus", buses[i], "--compat", "pcie-bench", NULL});
		cr_expect_eq(r.status, 2, "%s: exit %d", buses[i], r.status);
		cr_expect(strstr(r.err, "--compat pcie-bench") && strstr(r.err, "drop --compat"), "%s",
			  r.err);
		cr_expect_eq(r.out[0], '\0', "%s", r.out);
		run_free(&r);
	}
}

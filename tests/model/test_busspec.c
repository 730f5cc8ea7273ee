/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bus-spec grammar, size lists and option names as a library (doc/cli-contract.md "Bus
 * spec", "Model options"). Raw rates from the spec's arithmetic (PCIe Base 6.0 sec. 4.2; PCI LB 3.0,
 * PCI-X 2.0a): GT/s x lanes x encoding; clock x width x transfers per clock with 33.33/66.67/133.33 MHz.
 */
#include "model_helpers.h"
#include "pcibw/model.h"
#include "support.h"
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

static struct pcibw_bus ok(const char *spec)
{
	struct pcibw_bus b;
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_bus_parse(spec, &b, &e), 0, "%s: %s", spec, e.msg);
	return b;
}

Test(busspec, defaults_and_raw_rates)
{
	struct pcibw_bus b = ok("gen3x8");
	cr_assert_eq(b.kind, PCIBW_BUS_PCIE);
	cr_assert(b.mps_bytes == 128 && b.mrrs_bytes == 512 && b.rcb_bytes == 64 && !b.ecrc && !b.addr32 &&
		  !b.flit);
	cr_assert(b.mps_default && b.mrrs_default && b.rcb_default);
	cr_assert_float_eq(pcibw_bus_raw_gbps(&b), 63.0154, 1e-4);
	b = ok("8gtx16");
	cr_assert_eq(b.gen, 3);
	cr_assert_float_eq(pcibw_bus_raw_gbps(&b), 126.0308, 1e-4);
	b = ok("2.5gtx1");
	cr_assert_float_eq(pcibw_bus_raw_gbps(&b), 2.0, 1e-12);
	b = ok("gen6x16");
	cr_assert(b.flit, "Flit mode is mandatory at 64 GT/s");
	cr_assert_float_eq(pcibw_bus_raw_gbps(&b), 64.0 * 16 * 242 / 256, 1e-9);
	b = ok("gen4x12,mps=512,mrrs=4096,rcb=128,ecrc,addr32");
	cr_assert(b.lanes == 12 && b.mps_bytes == 512 && b.mrrs_bytes == 4096 && b.rcb_bytes == 128 &&
		  b.ecrc && b.addr32);
	cr_assert(!b.mps_default);
	b = ok("pcix133");
	cr_assert(b.kind == PCIBW_BUS_PCIX && b.width_bits == 64 && b.mmrbc_bytes == 512 && b.splits == 1 &&
		  b.latency_timer == 64);
	cr_assert_float_eq(pcibw_bus_raw_gbps(&b), 8.5333, 1e-4);
	b = ok("pcix533/64,mmrbc=4096,splits=32");
	cr_assert(b.clock_mhz == 133 && b.transfers_per_clock == 4 && b.mmrbc_bytes == 4096 &&
		  b.splits == 32);
	cr_assert_float_eq(pcibw_bus_raw_gbps(&b), 34.1333, 1e-4);
	b = ok("pcix266/32");
	cr_assert(b.transfers_per_clock == 2 && b.width_bits == 32);
	b = ok("pci33");
	cr_assert(b.kind == PCIBW_BUS_PCI && b.width_bits == 32);
	cr_assert_float_eq(pcibw_bus_raw_gbps(&b), 1.0667, 1e-4);
	b = ok("pci66/64,latency_timer=0");
	cr_assert_float_eq(pcibw_bus_raw_gbps(&b), 4.2667, 1e-4);
	cr_assert_eq(b.latency_timer, 0);
}

/* Every value a spec can set (the *_default flags say where a value came from, not what it is). */
static void expect_same_bus(const struct pcibw_bus *a, const struct pcibw_bus *b, const char *what)
{
	cr_expect(a->kind == b->kind && a->gen == b->gen && a->gts == b->gts && a->lanes == b->lanes, "%s",
		  what);
	cr_expect(a->mps_bytes == b->mps_bytes && a->mrrs_bytes == b->mrrs_bytes &&
		      a->rcb_bytes == b->rcb_bytes,
		  "%s", what);
	cr_expect(a->ecrc == b->ecrc && a->addr32 == b->addr32 && a->flit == b->flit, "%s", what);
	cr_expect_eq(a->aspm, b->aspm, "%s: aspm", what);
	cr_expect(a->rcb_chunks == b->rcb_chunks && a->dma_offset == b->dma_offset, "%s", what);
	cr_expect(a->clock_mhz == b->clock_mhz && a->width_bits == b->width_bits &&
		      a->transfers_per_clock == b->transfers_per_clock,
		  "%s", what);
	cr_expect(a->mmrbc_bytes == b->mmrbc_bytes && a->splits == b->splits &&
		      a->latency_timer == b->latency_timer && a->cacheline_bytes == b->cacheline_bytes,
		  "%s", what);
	cr_expect(a->cpl_mps == b->cpl_mps && a->numa == b->numa && a->iommu == b->iommu, "%s: host", what);
	cr_expect(a->mem_latency_ns == b->mem_latency_ns && a->prefetch_bytes == b->prefetch_bytes &&
		      a->bridges == b->bridges && a->bridge_ns == b->bridge_ns,
		  "%s: host path", what);
	cr_expect(a->card.kind == b->card.kind && a->card.clock_mhz == b->card.clock_mhz &&
		      a->card.width_bits == b->card.width_bits &&
		      a->card.transfers_per_clock == b->card.transfers_per_clock,
		  "%s: card bridge", what);
}

Test(busspec, format_round_trips)
{
	/* each modifier of doc/cli-contract.md "Bus spec", each value of the enumerated ones */
	static const char *specs[] = {
	    "gen1x1",
	    "gen3x8,mps=256",
	    "gen3x8,mrrs=4096,rcb=128",
	    "gen5x32,ecrc,addr32,rcb_chunks",
	    "gen4x4,flit",
	    "gen3x8,dma_offset=2",
	    "gen3x8,dma_offset=4095",
	    "gen3x8,mps=256,dma_offset=pciebench",
	    "gen3x8,aspm=off",
	    "gen3x8,aspm=l0s",
	    "gen3x8,aspm=l1",
	    "gen3x8,aspm=l0s-l1",
	    "gen2x4,mps=512,mrrs=1024,rcb=128,aspm=l1,rcb_chunks,dma_offset=130,ecrc,"
	    "addr32,flit",
	    "gen6x2",
	    "pcix66/32",
	    "pcix266,mmrbc=2048,splits=4",
	    "pcix533",
	    "pcix133/64,mmrbc=4096,splits=32,latency_timer=0,addr32",
	    "pci33/64,latency_timer=32",
	    "pci66,addr32",
	    "gen3x8,cpl=mps,numa=remote,iommu=on",
	    "gen3x8,cpl=rcb,numa=local,iommu=off",
	    "gen3x8,cpl=auto",
	    "pcix133/64,dma_offset=2,mem_latency_ns=700,prefetch=512,bridges=2,bridge_ns=150.5",
	    "pci33,prefetch=256,dma_offset=4095",
	    "pcix133/64,card_bridge=pcix133/64",
	    "pci66/64,bridges=1,card_bridge=pcix533/64",
	    "pcix66,dma_offset=4095,mem_latency_ns=100000,prefetch=4096,bridges=8,bridge_ns=99999.5,"
	    "card_bridge=pcix533/64",
	    "pcix133/64,card_bridge=pci33/32"};
	for (unsigned i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		struct pcibw_bus a = ok(specs[i]), b;
		char buf[192];
		pcibw_bus_format(&a, buf, sizeof buf);
		b = ok(buf);
		char buf2[192];
		pcibw_bus_format(&b, buf2, sizeof buf2);
		cr_assert_str_eq(buf, buf2, "%s -> %s -> %s", specs[i], buf, buf2);
		expect_same_bus(&a, &b, specs[i]);
	}
	char buf[192];
	struct pcibw_bus l1 = ok("gen3x8,aspm=l1");
	cr_expect(strstr(pcibw_bus_format(&l1, buf, sizeof buf), ",aspm=l1"), "%s", buf);
	/* a probed link's effective ASPM state is in the spec too */
	l1.aspm = 3;
	cr_expect(strstr(pcibw_bus_format(&l1, buf, sizeof buf), ",aspm=l0s-l1"), "%s", buf);
	struct pcibw_bus unknown = ok("gen3x8");
	cr_expect(!strstr(pcibw_bus_format(&unknown, buf, sizeof buf), "aspm"), "%s", buf);
}

Test(busspec, errors_name_the_bad_part)
{
	static const struct {
		const char *spec, *needle;
	} bad[] = {
	    {"gen3x3", "width 3 is not a PCIe width (1,2,4,8,12,16,32)"},
	    {"gen0x8", "generation 0"},
	    {"gen7x8", "generation 7"},
	    {"gen3x", "width"},
	    {"gen3x8,mps=100", "mps=100"},
	    {"gen3x8,mrrs=8192", "mrrs=8192"},
	    {"gen3x8,rcb=256", "rcb=256"},
	    {"gen3x8,mps=-128", "mps=-128"},
	    {"gen3x8,mps=", "mps="},
	    {"gen3x8,ecrc=1", "ecrc=1"},
	    {"gen3x8,dma_offset=4096", "dma_offset=4096"},
	    {"gen3x8,dma_offset=-2", "dma_offset=-2"},
	    {"gen3x8,dma_offset=pcie", "dma_offset=pcie"},
	    {"pcix133,dma_offset=pciebench", "dma_offset=pciebench"},
	    {"pci33,cpl=mps", "cpl=mps"},
	    {"gen3x8,prefetch=100", "prefetch=100"},
	    {"gen3x8,cpl=some", "cpl=some"},
	    {"gen3x8,cpl=mps,rcb_chunks", "contradicts"},
	    {"gen3x8,numa=far", "numa"},
	    {"gen3x8,iommu=2", "iommu"},
	    {"pcix133,mem_latency_ns=0", "mem_latency_ns"},
	    {"pci33,bridges=9", "bridges"},
	    {"pci33,bridge_ns=-3", "bridge_ns"},
	    {"gen3x8,bridges=1", "PCI and PCI-X"},
	    {"gen3x8,card_bridge=pcix133/64", "PCI and PCI-X"},
	    {"pcix133/64,card_bridge=gen3x8", "card_bridge"},
	    {"pcix133/64,card_bridge=", "card_bridge"},
	    {"pcix133/64,card_bridge=pcix150", "card_bridge"},
	    {"pcix133/64,card_bridge=pcix133/64,card_bridge=pci33", "twice"},
	    {"pcix150", "pcix150"},
	    {"pcix133/16", "pcix133/16"},
	    {"pci33/48", "pci33/48"},
	    {"pci100", "pci100"},
	    {"pcix133,mmrbc=300", "mmrbc=300"},
	    {"pcix133,splits=5", "splits=5"},
	    {"pcix133,mps=256", "mps=256"},
	    {"gen3x8,mmrbc=512", "mmrbc=512"},
	    {"gen3x8,latency_timer=8", "latency_timer"},
	    {"pci33,latency_timer=99999999999999999999", "latency_timer=99999999999999999999"},
	    {"", "empty"},
	    {"usb3", "usb3"},
	};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct pcibw_bus b;
		struct pcibw_err e = {0};
		cr_expect_eq(pcibw_bus_parse(bad[i].spec, &b, &e), PCIBW_EUSAGE, "'%s' accepted",
			     bad[i].spec);
		cr_expect(strstr(e.msg, bad[i].needle), "'%s': message '%s' lacks '%s'", bad[i].spec, e.msg,
			  bad[i].needle);
	}
}

Test(sizes, lists_ranges_mixes)
{
	struct pcibw_sizes s;
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_sizes_parse("64-1518/64", &s, &e), 0, "%s", e.msg);
	cr_assert_eq(s.n, 24, "64..1472 step 64 (23) and the end 1518");
	cr_assert_float_eq(s.v[0].bytes, 64, 0);
	cr_assert_float_eq(s.v[22].bytes, 1472, 0);
	cr_assert_float_eq(s.v[23].bytes, 1518, 0);
	cr_assert(!s.is_mix);
	pcibw_sizes_free(&s);
	cr_assert_eq(pcibw_sizes_parse("64-128/64", &s, &e), 0);
	cr_assert_eq(s.n, 2, "an end on the step is not repeated");
	pcibw_sizes_free(&s);
	cr_assert_eq(pcibw_sizes_parse("imix", &s, &e), 0);
	cr_assert(s.is_mix && s.n == 3 && s.v[0].weight == 7 && s.v[1].bytes == 594 && s.v[2].weight == 1);
	pcibw_sizes_free(&s);
	cr_assert_eq(pcibw_sizes_parse("64:0.5,1518:1.5", &s, &e), 0);
	cr_assert(s.is_mix && s.n == 2 && s.v[1].weight == 1.5);
	pcibw_sizes_free(&s);
	cr_assert_eq(pcibw_sizes_parse("60,64,1518", &s, &e), 0);
	cr_assert_eq(s.n, 3);
	pcibw_sizes_free(&s);
}

Test(sizes, bad_lists)
{
	static const char *bad[] = {"",	   "0",	    "-1",     "64,",	",64",	    "64,,128",
				    "1e3", "64.5",  "65537",  "64-",	"64-128/0", "64:",
				    ":1",  "64:-1", "64:nan", "64:inf", "64:1,128", "99999999999999999999"};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct pcibw_sizes s = {0};
		struct pcibw_err e = {0};
		cr_expect_eq(pcibw_sizes_parse(bad[i], &s, &e), PCIBW_EUSAGE, "'%s' accepted", bad[i]);
		cr_expect(e.msg[0], "'%s': no message", bad[i]);
	}
}

Test(sizes, empty_mix_and_bad_sizes_in_eval)
{
	struct pcibw_bus b;
	struct pcibw_nic n;
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_bus_parse("gen3x8", &b, &e), 0);
	cr_assert_eq(pcibw_nic_load("simple", NULL, &n, &e), 0, "%s", e.msg);
	struct pcibw_model_in in = {&b, &n, PCIBW_PAT_BOTH, PCIBW_SIZE_FRAME, 0, 0, 1, 0, 0};
	struct pcibw_sizes empty = {0};
	struct pcibw_model_row r;
	cr_assert_eq(pcibw_model_eval_mix(&in, &empty, &r, &e), PCIBW_EUSAGE);
	cr_assert(strstr(e.msg, "empty"), "%s", e.msg);
	cr_assert_eq(pcibw_model_eval(&in, 0, &r, &e), PCIBW_EUSAGE);
	cr_assert_eq(pcibw_model_eval(&in, -64, &r, &e), PCIBW_EUSAGE);
	cr_assert_eq(pcibw_model_eval(&in, NAN, &r, &e), PCIBW_EUSAGE);
	cr_assert_eq(pcibw_model_eval(&in, 1e300, &r, &e), PCIBW_EUSAGE);
}

Test(names, patterns_conventions_line_rates)
{
	struct pcibw_err e = {0};
	enum pcibw_pattern p;
	enum pcibw_size_is s;
	double g;
	static const char *pats[] = {"rx", "tx", "both", "dma-read", "dma-write", "dma-rw"};
	for (int i = 0; i < 6; i++) {
		cr_assert_eq(pcibw_pattern_parse(pats[i], &p, &e), 0);
		cr_assert_str_eq(pcibw_pattern_name(p), pats[i]);
	}
	static const char *conv[] = {"frame", "dma", "l3", "udp-payload"};
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(pcibw_size_is_parse(conv[i], &s, &e), 0);
		cr_assert_str_eq(pcibw_size_is_name(s), conv[i]);
	}
	static const struct {
		const char *t;
		double g;
	} rates[] = {{"100M", 0.1}, {"1G", 1},	 {"2.5G", 2.5}, {"25G", 25},	{"800G", 800}, {"3x", -1},
		     {"G", -1},	    {"-1G", -1}, {"0G", -1},	{"1e999G", -1}, {"10", -1}};
	for (unsigned i = 0; i < sizeof rates / sizeof rates[0]; i++) {
		int st = pcibw_line_rate_parse(rates[i].t, &g, &e);
		if (rates[i].g < 0)
			cr_expect_eq(st, PCIBW_EUSAGE, "'%s' accepted", rates[i].t);
		else
			cr_expect(st == 0 && fabs(g - rates[i].g) < 1e-12, "'%s' -> %g", rates[i].t, g);
	}
}

/* A modifier given twice is refused, not taken with the last one winning ("gen3x8,mps=256,mps=512"
 * would model MPS 512): exit 2 naming the modifier. */
Test(busspec, duplicate_modifier_refused)
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

/* "gen3x" and "gen3x8 ": the bad part is quoted, so an empty or trailing-blank width shows
 * ("width '' ...", not "width  is not a PCIe width"). */
Test(busspec, width_message_quotes_the_part)
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

/* A contract-valid range such as 64-65536/1 is taken (no "more than 10000 sizes"): every whole
 * size 1..65536 is allowed once over (65,536 rows), quickly. */
Test(sizes, full_range_accepted, .timeout = 60)
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

/* A mix with huge weights (64:1e308,128:1e308) must not overflow their sum into "weights must be
 * positive": only the ratio matters -- the same row as 64:1,128:1. */
Test(sizes, huge_mix_weights_are_ratios)
{
	struct pcibw_bus b = parse_bus("gen3x8,mps=256");
	struct pcibw_nic n = load_nic("simple");
	struct pcibw_model_in in = {&b, &n, PCIBW_PAT_BOTH, PCIBW_SIZE_FRAME, 0, PCIBW_COMPAT_NONE, 1, 0, 0};
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

/* "imix,64" is refused saying that imix stands alone (not "'imix' is not a size in bytes");
 * "IMIX" is imix. */
Test(sizes, imix_alone)
{
	struct pcibw_sizes s = {0};
	struct pcibw_err e = {0};
	cr_expect_eq(pcibw_sizes_parse("imix,64", &s, &e), PCIBW_EUSAGE);
	cr_expect(strstr(e.msg, "imix is a mix of its own"), "%s", e.msg);
	cr_assert_eq(pcibw_sizes_parse("IMIX", &s, &e), PCIBW_OK, "%s", e.msg);
	cr_expect(s.is_mix && s.n == 3 && s.v[1].bytes == 594 && s.v[1].weight == 4);
	pcibw_sizes_free(&s);
}

/* A line rate is a decimal NUMBER[MG] within 1M..100000G: strtod alone would take "0x10G" as
 * 16 Gbit/s and " 10G" with its blank, and 1e-30G would print a 34-digit headroom percentage
 * (contract: "any NUMBER[MG]"; the bounds are the slowest Ethernet and 125 x 800G). */
Test(names, line_rate_decimal_and_bounded)
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

/* NxRATE: N ports driven together (a bond, or a two-port card's traffic summed), the line rate
 * being their sum: 2x25G is 50 Gbit/s, 4x10G 40, 2x100M 0.2. N is a whole number of ports
 * (1..1024), and the sum stays within 1M..100000G. */
Test(names, line_rate_ports_times_rate)
{
	static const struct {
		const char *s;
		double g;
	} good[] = {{"2x25G", 50}, {"4X10G", 40}, {"2x100M", 0.2}, {"1x2.5G", 2.5}, {"1024x1G", 1024}};
	for (unsigned i = 0; i < sizeof good / sizeof good[0]; i++) {
		double g = -1;
		struct pcibw_err e = {0};
		cr_expect_eq(pcibw_line_rate_parse(good[i].s, &g, &e), PCIBW_OK, "%s: %s", good[i].s, e.msg);
		cr_expect(fabs(g - good[i].g) < 1e-12 * good[i].g, "%s -> %g", good[i].s, g);
	}
	static const char *const bad[] = {"0x25G",   "2.5x25G", "x25G",	  "2x",	       "2x25",
					  "1025x1G", "2x2x25G", "-2x25G", "2x100000G", "2 x25G"};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		double g = -1;
		struct pcibw_err e = {0};
		cr_expect_eq(pcibw_line_rate_parse(bad[i], &g, &e), PCIBW_EUSAGE, "'%s' accepted as %g",
			     bad[i], g);
		cr_expect(strstr(e.msg, bad[i]), "message names '%s': %s", bad[i], e.msg);
	}
	/* the command line: the same table as the sum given whole */
	const char *a[] = {"model",   "--bus",	     "gen3x8", "--nic",	 "mlx5", "--sizes",
			   "64,1518", "--line-rate", "2x25G",  "--json", NULL};
	struct run_result r2 = run_pcibw(NULL, a);
	a[8] = "50G";
	struct run_result r50 = run_pcibw(NULL, a);
	cr_assert_eq(r2.status, 0, "%s", r2.err);
	cr_expect_str_eq(r2.out, r50.out);
	run_free(&r2);
	run_free(&r50);
}

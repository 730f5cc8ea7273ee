/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw_port_fit_eval and the ports table. The need side is hand arithmetic: a line rate R
 * Gbit/s at frame F bytes needs R x 10^9 / (8 x (F + 8 + 12)) frames per second (IEEE 802.3
 * clause 4.4.2: 8 B preamble and SFD, 12 B inter-packet gap). The ceiling side is the model's
 * own row in pattern both (pcibw_model_eval): these tests check that port fit asks the model
 * the right question and searches every byte, not the model's numbers.
 */
#include "model_helpers.h"
#include "pcibw/device.h"
#include "pcibw/portfit.h"
#include "support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double ratio(const struct pcibw_bus *b, const struct pcibw_nic *n, double gbps, double frame)
{
	struct pcibw_model_row r = eval(b, n, PCIBW_PAT_BOTH, PCIBW_SIZE_FRAME, PCIBW_COMPAT_NONE, frame);
	return r.bus_mpps / (gbps * 1e9 / (8 * (frame + 20)) / 1e6);
}

Test(port_fit, ratios_and_byte_by_byte_search)
{
	struct pcibw_bus b = parse_bus("gen2x4,mps=256");
	struct pcibw_nic n = load_nic("kernel-82599");
	struct pcibw_port_fit f;
	struct pcibw_err e;
	cr_assert_eq(pcibw_port_fit_eval(&b, &n, 2, 20, 1, &f, &e), 0, "%s", e.msg);
	cr_assert(f.known);
	cr_assert_eq(f.ports, 2);
	cr_assert_float_eq(f.need_mpps_64, 2e10 / (8.0 * 84) / 1e6, 1e-9); /* 29.76 Mpps */
	cr_assert_float_eq(f.ratio_64, ratio(&b, &n, 20, 64), 1e-12);
	cr_assert_float_eq(f.ratio_1518, ratio(&b, &n, 20, 1518), 1e-12);
	/* 20 Gbit/s of 1518 B frames on a 16 Gbit/s link cannot fit: no size does */
	cr_assert_lt(f.ratio_1518, 1);
	cr_assert_eq(f.min_line_rate_bytes, PCIBW_NULL);
	cr_assert_str_eq(f.nic, "kernel-82599");

	/* one 10G port on gen3x8: find the first fitting size and check its neighbour */
	b = parse_bus("gen3x8,mps=256");
	cr_assert_eq(pcibw_port_fit_eval(&b, &n, 1, 10, 1, &f, &e), 0, "%s", e.msg);
	int m = f.min_line_rate_bytes;
	cr_assert(m >= 64 && m <= 1518);
	cr_assert_geq(ratio(&b, &n, 10, m), 1);
	if (m > 64)
		cr_assert_lt(ratio(&b, &n, 10, m - 1), 1);
	for (int s = 64; s < m; s++)
		cr_assert_lt(ratio(&b, &n, 10, s), 1, "size %d below the minimum fits", s);
}

static double ratio_end(const struct pcibw_bus *b, const struct pcibw_nic *n, double gbps, double frame,
			bool high)
{
	struct pcibw_model_row r = eval(b, n, PCIBW_PAT_BOTH, PCIBW_SIZE_FRAME, PCIBW_COMPAT_NONE, frame);
	return (high ? r.bus_mpps_high : r.bus_mpps_low) / (gbps * 1e9 / (8 * (frame + 20)) / 1e6);
}

/* The ratios carry the model's band: the same question asked of the band's two ends. On a
 * PCI-X segment shared by two masters each master's share of the band is added up, as for the
 * expected figure. */
Test(port_fit, ratios_carry_the_band)
{
	struct pcibw_nic n = load_nic("e1000");
	struct pcibw_err e;
	const char *specs[] = {"gen2x4,mps=256", "pcix133/64,mmrbc=512", "pci33/32"};
	for (unsigned i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		struct pcibw_bus b = parse_bus(specs[i]);
		struct pcibw_port_fit f;
		int devs = b.kind == PCIBW_BUS_PCIE ? 1 : 2;
		cr_assert_eq(pcibw_port_fit_eval(&b, &n, 2, 2, devs, &f, &e), 0, "%s", e.msg);
		double want64lo = ratio_end(&b, &n, 2, 64, false), want64hi = ratio_end(&b, &n, 2, 64, true);
		if (devs == 2) {
			/* eval() asks for one master alone: cost the shared segment instead */
			struct pcibw_model_in in = {.bus = &b,
						    .nic = &n,
						    .pattern = PCIBW_PAT_BOTH,
						    .size_is = PCIBW_SIZE_FRAME,
						    .segment_devices = 2};
			struct pcibw_model_row r;
			cr_assert_eq(pcibw_model_eval(&in, 64, &r, &e), 0, "%s", e.msg);
			double need = 2e9 / (8.0 * 84) / 1e6;
			want64lo = 2 * r.bus_mpps_low / need;
			want64hi = 2 * r.bus_mpps_high / need;
		}
		cr_assert_float_eq(f.ratio_64_low, want64lo, 1e-9, "%s", specs[i]);
		cr_assert_float_eq(f.ratio_64_high, want64hi, 1e-9, "%s", specs[i]);
		cr_assert_leq(f.ratio_64_low, f.ratio_64, "%s", specs[i]);
		cr_assert_geq(f.ratio_64_high, f.ratio_64, "%s", specs[i]);
		cr_assert_leq(f.ratio_1518_low, f.ratio_1518, "%s", specs[i]);
		cr_assert_geq(f.ratio_1518_high, f.ratio_1518, "%s", specs[i]);
		/* the band is a band: PCI's prefetch and PCI-X's completion terms widen it */
		if (b.kind != PCIBW_BUS_PCIE)
			cr_assert_lt(f.ratio_1518_low, f.ratio_1518_high, "%s", specs[i]);
	}
}

Test(port_fit, bad_line_rate)
{
	struct pcibw_bus b = parse_bus("gen2x4");
	struct pcibw_nic n = load_nic("simple");
	struct pcibw_port_fit f;
	struct pcibw_err e;
	cr_assert_eq(pcibw_port_fit_eval(&b, &n, 1, 0, 1, &f, &e), PCIBW_EUSAGE);
	cr_assert(!f.known);
}

/* data/nic-ports.txt rows, as the 82576 and 82599 datasheets give them (two ports, one function
 * each), ConnectX-3 Pro (mlx4: one function for both ports), an 82576 VF. */
Test(port_fit, table_rows)
{
	struct pcibw_port_entry e;
	struct pcibw_err err;
	bool found;
	cr_assert_eq(pcibw_port_table_lookup(0x8086, 0x10c9, NULL, &e, &found, &err), 0, "%s", err.msg);
	cr_assert_eq(found, true);
	cr_assert_eq(e.ports, 1);
	cr_assert_float_eq(e.port_gbps, 1, 1e-12);
	cr_assert_eq(pcibw_port_table_lookup(0x8086, 0x10fb, NULL, &e, &found, &err), 0, "%s", err.msg);
	cr_assert_eq(found, true);
	cr_assert_float_eq(e.port_gbps, 10, 1e-12);
	cr_assert_eq(pcibw_port_table_lookup(0x15b3, 0x1007, NULL, &e, &found, &err), 0, "%s", err.msg);
	cr_assert_eq(found, true);
	cr_assert_eq(e.ports, 2);
	cr_assert_eq(pcibw_port_table_lookup(0x8086, 0x10ca, NULL, &e, &found, &err), 0, "%s", err.msg);
	cr_assert_eq(found, true);
	cr_assert_eq(e.ports, 0, "a VF has no port of its own");
	cr_assert_eq(pcibw_port_table_lookup(0x1234, 0x5678, NULL, &e, &found, &err), 0, "%s", err.msg);
	cr_assert_eq(found, false);
	cr_assert_eq(pcibw_port_table_lookup(-1, -1, NULL, &e, &found, &err), 0, "%s", err.msg);
	cr_assert_eq(found, false);
}

static void bad_table(const char *line, const char *want)
{
	char dir[] = "/tmp/pcibw-ports-XXXXXX";
	cr_assert(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/nic-ports.txt", dir);
	FILE *f = fopen(path, "w");
	fprintf(f, "# comment\n8086:10c9 1 1G 82576 ; datasheet\n%s\n", line);
	fclose(f);
	struct pcibw_port_entry e;
	struct pcibw_err err;
	bool found;
	cr_assert_eq(pcibw_port_table_lookup(0x8086, 0x10c9, dir, &e, &found, &err), PCIBW_EINPUT, "%s",
		     line);
	cr_assert(strstr(err.msg, want), "%s: %s", line, err.msg);
	unlink(path);
	rmdir(dir);
}

Test(port_fit, table_errors_name_line_and_column)
{
	bad_table("8086:10zz 1 1G x ; y", "nic-ports.txt:3:8: expected a vendor:device id");
	bad_table("8086:10fb two 10G x ; y", "nic-ports.txt:3:11: expected a port count 1..64 or vf");
	bad_table("8086:10fb 1 10Q x ; y", "nic-ports.txt:3:13: expected a port speed");
	bad_table("8086:10fb 1 10G x without source",
		  "nic-ports.txt:3:17: expected the card's name, then '; SOURCE'");
	struct pcibw_port_entry e;
	struct pcibw_err err;
	bool found;
	cr_assert_eq(pcibw_port_table_lookup(0x8086, 0x10c9, "/nonexistent", &e, &found, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "/nonexistent/nic-ports.txt"), "%s", err.msg);
}

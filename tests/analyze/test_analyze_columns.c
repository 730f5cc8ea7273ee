/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every CSV column is accounted for: recognised header names (case, blanks and punctuation in the
 * name ignored, the unit read exactly), a warning naming each column that is not read (with the
 * nearest known name for a slip), CPU written as fractions, and lines averaged only when they
 * share every key. Expected values: the inputs' own numbers and the unit definitions
 * (1 MB/s = 8 Mbit/s), written next to each check.
 */
#include "analyze_support.h"
#include "pcibw/ingest.h"
#include "pcibw/verdict.h"
#include <stdio.h>

#define MAXR 64
struct got {
	struct pcibw_measured r[MAXR];
	int n;
};

static int collect(const struct pcibw_measured *m, void *ctx, struct pcibw_err *err)
{
	(void)err;
	struct got *g = ctx;
	cr_assert_lt(g->n, MAXR);
	g->r[g->n++] = *m;
	return PCIBW_OK;
}

static struct got *read_csv(const char *text, const struct pcibw_ingest_opts *o,
			    struct pcibw_ingest_stats *st)
{
	struct got *g = calloc(1, sizeof *g);
	struct pcibw_err err = {0};
	const char *p = temp_file(text, ".csv");
	cr_assert_eq(pcibw_ingest_file(p, o, collect, g, st, &err), PCIBW_OK, "%s", err.msg);
	unlink(p);
	return g;
}

static bool warned(const struct pcibw_ingest_stats *st, const char *needle)
{
	for (int i = 0; i < st->n_warnings; i++)
		if (strstr(st->warnings[i], needle))
			return true;
	return false;
}

/* The names people give a size column: each is read as the size, so 64 B and 1518 B stay apart. */
Test(columns, size_names)
{
	const char *names[] = {"pkt_len", "pktsize",	 "len",	      "framesize", "msgsize",
			       "l2_size", "Packet Size", "frame-len", "PKT_LEN"};
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		char text[160];
		snprintf(text, sizeof text, "%s,gbps,cpu_pct\n64,1.5,99\n1518,9.4,35\n", names[i]);
		struct pcibw_ingest_stats st;
		struct got *g = read_csv(text, NULL, &st);
		cr_assert_eq(g->n, 2, "%s", names[i]);
		cr_assert_eq(g->r[0].size_bytes, 64, "%s", names[i]);
		cr_assert_eq(g->r[1].size_bytes, 1518, "%s", names[i]);
		cr_assert_eq(st.n_warnings, 0, "%s: %s", names[i], st.warnings[0]);
		cr_assert(strstr(st.columns[0].use, "size"), "%s: %s", names[i], st.columns[0].use);
		free(g);
	}
	/* the name says the convention: framesize and l2_size are Ethernet frames, msgsize a payload */
	struct got *g = read_csv("l2_size,gbps\n64,1\n", NULL, NULL);
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_FRAME);
	free(g);
	g = read_csv("msgsize,gbps\n64,1\n", NULL, NULL);
	cr_assert_eq(g->r[0].size_conv, PCIBW_SIZE_UDP_PAYLOAD);
	free(g);
}

/* CPU headers as top, ps and spreadsheets write them: all are the share of all CPUs. */
Test(columns, cpu_names)
{
	const char *names[] = {"CPU", "cpu", "%cpu", "cpu_util", "CPU usage", "cpu_load", "CPU %", "Cpu (%)"};
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		char text[160];
		snprintf(text, sizeof text, "frame_bytes,gbps,%s\n64,1.5,99\n", names[i]);
		struct pcibw_ingest_stats st;
		struct got *g = read_csv(text, NULL, &st);
		cr_assert_eq(g->n, 1);
		cr_assert_eq(g->r[0].cpu_pct, 99, "%s: %g", names[i], g->r[0].cpu_pct);
		cr_assert_eq(st.n_warnings, 0, "%s: %s", names[i], st.warnings[0]);
		free(g);
	}
}

/* A slip in a name is named with the nearest known one; a column pcibw has no use for is named
 * too; neither is silently dropped. */
Test(columns, unused_columns_warned)
{
	struct pcibw_ingest_stats st;
	struct got *g = read_csv("frme_bytes,gbps,socket_bytes\n64,1.5,16384\n1518,9.4,16384\n", NULL, &st);
	cr_assert(warned(&st, "column 'frme_bytes' not used: did you mean frame_bytes?"), "%s",
		  st.warnings[0]);
	cr_assert(warned(&st, "--col frame_bytes='frme_bytes'"));
	cr_assert(warned(&st, "column 'socket_bytes' not used"));
	cr_assert(!warned(&st, "socket_bytes' not used: did you mean"), "no near name for socket_bytes");
	cr_assert_str_eq(st.columns[0].use, "");
	cr_assert_str_eq(st.columns[1].header, "gbps");
	cr_assert_str_eq(st.columns[1].use, "rate in Gbit/s");
	/* without a size column each line is its own row, and the output says why */
	cr_assert_eq(g->n, 2);
	bool said = false;
	for (int i = 0; i < st.n_notes; i++)
		said |= strstr(st.notes[i], "no size column: each line is its own row") != NULL;
	cr_assert(said);
	free(g);
}

/* Units: a capital B is bytes (MB/s, MBps, MByte/s: 10^6 bytes/s = 8 Mbit/s), a small b bits. */
Test(columns, byte_and_bit_units)
{
	struct got *g = read_csv("size,a_MBps,b_MByte/s,c_MB/s,d_Mb/s,e_Mbps,f (mbit/s)\n"
				 "100,100,100,100,100,100,100\n",
				 NULL, NULL);
	cr_assert_eq(g->n, 6);
	for (int i = 0; i < 3; i++)
		assert_close(g->r[i].gbps, 0.8, 1e-12); /* 100 x 8 Mbit/s */
	for (int i = 3; i < 6; i++)
		assert_close(g->r[i].gbps, 0.1, 1e-12);
	free(g);
	/* all capitals could be either: refused, not guessed */
	struct pcibw_err err = {0};
	struct got *g2 = calloc(1, sizeof *g2);
	const char *p = temp_file("size,x_MBPS\n100,1\n", ".csv");
	cr_assert_eq(pcibw_ingest_file(p, NULL, collect, g2, NULL, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "x_MBPS"), "%s", err.msg);
	unlink(p);
	free(g2);
}

/* CPU written as fractions: read as percent with a warning, or as fractions when told. */
Test(columns, cpu_fractions)
{
	const char *text = "frame_bytes,gbps,cpu_pct\n64,1.5,0.99\n1518,9.4,0.35\n";
	struct pcibw_ingest_stats st;
	struct got *g = read_csv(text, NULL, &st);
	cr_assert_eq(g->r[0].cpu_pct, 0.99);
	cr_assert(warned(&st, "at most 1.0") && warned(&st, "--cpu-scale fraction"));
	free(g);
	struct pcibw_ingest_opts o = {.cpu_scale = PCIBW_CPU_SCALE_FRACTION};
	g = read_csv(text, &o, &st);
	assert_close(g->r[0].cpu_pct, 99, 1e-9);
	assert_close(g->r[1].cpu_pct, 35, 1e-9);
	cr_assert_eq(st.n_warnings, 0);
	free(g);
	/* said to be percent: no warning */
	o.cpu_scale = PCIBW_CPU_SCALE_PERCENT;
	g = read_csv(text, &o, &st);
	cr_assert_eq(st.n_warnings, 0);
	free(g);
	/* a fraction above 1 is refused */
	o.cpu_scale = PCIBW_CPU_SCALE_FRACTION;
	struct pcibw_err err = {0};
	struct got *g2 = calloc(1, sizeof *g2);
	const char *p = temp_file("frame_bytes,gbps,cpu_pct\n64,1.5,45\n", ".csv");
	cr_assert_eq(pcibw_ingest_file(p, &o, collect, g2, NULL, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, ":2:") && strstr(err.msg, "--cpu-scale fraction"), "%s", err.msg);
	unlink(p);
	free(g2);
}

/* The example end to end: two sizes stay two rows, and 99 % CPU at 64 B is cpu-bound. */
Test(columns, two_sizes_never_averaged)
{
	const char *p = temp_file("pkt_len,gbps,cpu_pct\n64,1.5,99\n1518,9.4,35\n", ".csv");
	json_t *j = analyze_json(NULL, (const char *[]){"analyze", p, "--line-rate", "10G", "--json", NULL});
	json_t *rows = json_object_get(j, "rows");
	cr_assert_eq(json_array_size(rows), 2);
	json_t *r64 = find_row(j, 64, NULL, NULL);
	cr_assert_eq(jnum(r64, "count"), 1);
	assert_close(jnum(r64, "measured_gbps"), 1.5, 1e-12);
	/* 0.99 >= cpu 0.90 */
	cr_assert_str_eq(jstr(r64, "verdict"), "cpu-bound");
	/* 9.4 Gbit/s of 1518 B frames: 9.4e9 / (8 x 1518) = 774,045 pps x 1538 wire bytes x 8
	 * = 9.5239 Gbit/s of 10: 95.2 % >= 95 %: wire-bound */
	json_t *r1518 = find_row(j, 1518, NULL, NULL);
	assert_close(jnum(r1518, "wire_utilisation"), 9.4 / 1518 * 1538 / 10, 1e-9);
	cr_assert_str_eq(jstr(r1518, "verdict"), "wire-bound");
	json_t *in = json_array_get(json_object_get(j, "inputs"), 0);
	json_t *c0 = json_array_get(json_object_get(in, "columns"), 0);
	cr_assert_str_eq(jstr(c0, "header"), "pkt_len");
	cr_assert_str_eq(jstr(c0, "use"), "size (--size-is)");
	cr_assert_eq(json_array_size(json_object_get(in, "warnings")), 0);
	json_decref(j);
	unlink(p);

	/* --cpu-scale fraction through the command line */
	p = temp_file("frame_bytes,gbps,cpu_util\n64,1.5,0.99\n", ".csv");
	j = analyze_json(NULL, (const char *[]){"analyze", p, "--cpu-scale", "fraction", "--json", NULL});
	assert_close(jnum(find_row(j, 64, NULL, NULL), "cpu_utilisation"), 0.99, 1e-12);
	json_decref(j);
	unlink(p);
}

/* Lines are averaged only when they share every key: the same size under two tests, two
 * interfaces or two core counts are different measurements. */
Test(columns, averaged_only_on_every_key)
{
	struct pcibw_rows rs = {0};
	struct pcibw_err err = {0};
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "x.csv";
	m.size_bytes = 64;
	m.pps = 1e6;
	m.line = 2;
	cr_assert_eq(pcibw_rows_add(&rs, &m, &err), PCIBW_OK);
	m.line = 3;
	cr_assert_eq(pcibw_rows_add(&rs, &m, &err), PCIBW_OK);
	cr_assert_eq(rs.n, 1, "a repeat of the same key is averaged");
	snprintf(m.test, sizeof m.test, "UDP_RR");
	cr_assert_eq(pcibw_rows_add(&rs, &m, &err), PCIBW_OK);
	m.test[0] = '\0';
	snprintf(m.iface, sizeof m.iface, "eth1");
	cr_assert_eq(pcibw_rows_add(&rs, &m, &err), PCIBW_OK);
	m.iface[0] = '\0';
	m.cores = 2;
	cr_assert_eq(pcibw_rows_add(&rs, &m, &err), PCIBW_OK);
	m.cores = NAN;
	m.streams = 4;
	cr_assert_eq(pcibw_rows_add(&rs, &m, &err), PCIBW_OK);
	cr_assert_eq(rs.n, 5);
	/* no size: two lines, two rows */
	m.streams = NAN;
	m.size_bytes = NAN;
	m.line = 7;
	cr_assert_eq(pcibw_rows_add(&rs, &m, &err), PCIBW_OK);
	m.line = 8;
	cr_assert_eq(pcibw_rows_add(&rs, &m, &err), PCIBW_OK);
	cr_assert_eq(rs.n, 7);
	pcibw_rows_free(&rs);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One figure, one value: every share a row's evidence (and the headline) prints in text output is
 * the figure the table prints for that row, on every bundled input. The table rounds to the
 * nearest percent; a load the evidence sets below its threshold may print one decimal instead
 * ("94.6 % < 95 %"), which must then lie within half a percent of the table's and below the
 * threshold. The expected figures are the table's own, so this checks agreement, not values.
 */
#include "analyze_support.h"
#include "pcibw/words.h"
#include <ctype.h>
#include <regex.h>

#define MAX_ROWS 256

struct table {
	/* per row (1-based), the bus%, wire%, cpu%, core% cells as printed ("-" unknown) */
	char cell[MAX_ROWS][4][16];
	int n;
};

enum { BUS, WIRE, CPU, CORE };

/* the cells end where their header labels end (right-aligned under "bus%" "wire%" "cpu%" "core%") */
static void read_table(const char *text, struct table *t)
{
	memset(t, 0, sizeof *t);
	const char *h = strstr(text, " bus% wire% cpu% core%");
	cr_assert(h, "no table header in: %.300s", text);
	const char *line = h;
	while (line > text && line[-1] != '\n')
		line--;
	size_t end[4];
	static const char *labels[] = {"bus%", "wire%", "cpu%", "core%"};
	for (int k = 0; k < 4; k++)
		end[k] = (size_t)(strstr(h, labels[k]) - line) + strlen(labels[k]);
	const char *p = strchr(h, '\n') + 1;
	while (*p && *p != '\n') {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int no = atoi(p);
		cr_assert(no > 0 && no < MAX_ROWS, "table line: %.*s", (int)len, p);
		for (int k = 0; k < 4; k++) {
			cr_assert(end[k] <= len);
			size_t a = end[k];
			while (a > 0 && p[a - 1] != ' ')
				a--;
			snprintf(t->cell[no][k], sizeof t->cell[no][k], "%.*s", (int)(end[k] - a), p + a);
		}
		if (no > t->n)
			t->n = no;
		p = nl ? nl + 1 : p + len;
	}
}

/* the figure f (as printed) against the table's cell; below: f is followed by " < T %" */
static void same(const char *what, const char *f, const char *cell, bool below, const char *ctx)
{
	cr_assert(strcmp(cell, "-"), "%s %s %% printed where the table has none: %s", what, f, ctx);
	if (strchr(f, '.')) {
		cr_assert(below, "%s %s %%: a decimal only below a threshold: %s", what, f, ctx);
		cr_assert(fabs(atof(f) - atof(cell)) <= 0.5 + 1e-9, "%s %s %% vs table %s: %s", what, f, cell,
			  ctx);
	} else {
		cr_assert_str_eq(f, cell, "%s %s %% vs table %s: %s", what, f, cell, ctx);
	}
}

struct pattern {
	const char *re; /* groups: 1 = the figure (and 2 = a second, the wire) */
	int res, res2;
	bool below;
};

static const struct pattern patterns[] = {
    {"(^|[(,] ?)wire ([0-9.]+) % < ", WIRE, -1, true},
    {"(^|[(,] ?)bus ([0-9.]+) % < ", BUS, -1, true},
    {"(^|[(,] ?)CPU ([0-9.]+) % < ", CPU, -1, true},
    {"(^|[(,] ?)busiest core ([0-9.]+) % < ", CORE, -1, true},
    {"()the wire is (at least )?([0-9.]+) % full", WIRE, -1, false},
    {"()carries ([0-9.]+) % of its ceiling", BUS, -1, false},
    {"()the CPUs are ([0-9.]+) % busy", CPU, -1, false},
    {"()the busiest core is ([0-9.]+) % busy", CORE, -1, false},
    {"()the CPU, at ([0-9.]+) %", CPU, -1, false},
    {"()the wire ([0-9.]+) %", WIRE, -1, false},
    {"()the CPUs ([0-9.]+) %", CPU, -1, false},
    {"()the busiest core ([0-9.]+) %", CORE, -1, false},
    {"()needs ([0-9.]+) % of the", BUS, -1, false},
    {"()is ([0-9.]+) % of the [0-9.]+ Gbit/s line rate", WIRE, -1, false},
    {"()\\(bus ([0-9.]+) %, wire ([0-9.]+) %\\)", BUS, WIRE, false},
    {"()both the bus \\(([0-9.]+) %\\) and the wire \\(([0-9.]+) %\\)", BUS, WIRE, true},
    {"()is ([0-9.]+) % busy at ", BUS, -1, false},
    {"()([0-9.]+) % needed", BUS, -1, false},
    {"()carries \\(([0-9.]+) % of it\\)", WIRE, -1, false},
};

/* every figure of one evidence sentence of row no */
static int check_sentence(const struct table *t, int no, const char *s)
{
	int checked = 0;
	for (size_t k = 0; k < sizeof patterns / sizeof patterns[0]; k++) {
		regex_t re;
		cr_assert_eq(regcomp(&re, patterns[k].re, REG_EXTENDED), 0, "%s", patterns[k].re);
		const char *p = s;
		regmatch_t m[5];
		while (regexec(&re, p, 5, m, p == s ? 0 : REG_NOTBOL) == 0) {
			/* the figure is the last group but one for the two-figure patterns */
			int g = patterns[k].res2 >= 0 ? 2 : (m[3].rm_so >= 0 ? 3 : 2);
			char f[16];
			snprintf(f, sizeof f, "%.*s", (int)(m[g].rm_eo - m[g].rm_so), p + m[g].rm_so);
			same(patterns[k].re, f, t->cell[no][patterns[k].res], patterns[k].below, s);
			checked++;
			if (patterns[k].res2 >= 0) {
				snprintf(f, sizeof f, "%.*s", (int)(m[3].rm_eo - m[3].rm_so), p + m[3].rm_so);
				same(patterns[k].re, f, t->cell[no][patterns[k].res2], patterns[k].below, s);
				checked++;
			}
			p += m[0].rm_eo;
		}
		regfree(&re);
	}
	return checked;
}

/* the evidence lines after the table: "[   ]  N text", continued on lines indented deeper */
static int check_evidence(const char *text, const struct table *t)
{
	const char *p = strstr(text, " bus% wire% cpu% core%");
	p = strstr(p, "\n\n");
	cr_assert(p);
	const char *stop = strstr(p, "\nverdict ");
	cr_assert(stop, "no verdict line");
	char sentence[8192] = "";
	int no = 0, checked = 0;
	for (p += 2; p < stop;) {
		const char *nl = strchr(p, '\n');
		size_t len = (size_t)(nl - p);
		const char *q = p;
		while (q < nl && *q == ' ')
			q++;
		bool numbered = q < nl && isdigit((unsigned char)*q);
		const char *after = q;
		while (after < nl && isdigit((unsigned char)*after))
			after++;
		numbered &= after < nl && *after == ' ' && (size_t)(q - p) <= 6;
		if (numbered || q == p) {
			if (no)
				checked += check_sentence(t, no, sentence);
			sentence[0] = '\0';
			no = numbered ? atoi(q) : 0;
			if (numbered)
				snprintf(sentence, sizeof sentence, "%.*s", (int)(nl - after - 1), after + 1);
		} else if (no) {
			size_t o = strlen(sentence);
			snprintf(sentence + o, sizeof sentence - o, " %.*s", (int)(nl - q), q);
		}
		(void)len;
		p = nl + 1;
	}
	if (no)
		checked += check_sentence(t, no, sentence);
	return checked;
}

/* the headline speaks of the row the JSON names (reasons[0].row) */
static int check_headline(const char *text, const struct table *t, int rep)
{
	const char *p = strstr(text, "\nverdict ");
	p = strchr(p + 1, '\n') + 1;
	char line[4096] = "";
	/* the first evidence line of the summary, with its continuation lines */
	while (*p == ' ') {
		const char *q = p;
		while (*q == ' ')
			q++;
		const char *nl = strchr(q, '\n');
		bool cont = q - p > 9;
		if (line[0] && !cont)
			break;
		size_t o = strlen(line);
		snprintf(line + o, sizeof line - o, "%s%.*s", o ? " " : "", (int)(nl - q), q);
		p = nl + 1;
	}
	return rep >= 0 ? check_sentence(t, rep + 1, line) : 0;
}

struct input {
	const char *file; /* under tests/data, or "@" + a file under data/ */
	const char *args[14];
};

static const struct input inputs[] = {
    {"@examples/freebsd-2004-udp-echo-e1000.csv",
     {"--bus", "pcix133/64,mmrbc=512", "--nic", "e1000", "--line-rate", "1G", "--cpus", "1", "--cpu-ghz",
      "2.8"}},
    {"@examples/freebsd-2004-udp-echo-e1000.csv",
     {"--bus", "pci33/32", "--nic", "e1000", "--line-rate", "1G", "--cpus", "1", "--cpu-ghz", "2.8"}},
    {"analyze/synthetic-case-b-82599-t4240-3.3g.csv",
     {"--bus", "gen2x4", "--nic", "kernel-82599", "--pattern", "tx", "--line-rate", "20G", "--rate-basis",
      "payload"}},
    {"analyze/synthetic-case-c-dge530t-pci33.csv",
     {"--bus", "pci33/32", "--pattern", "tx", "--line-rate", "1G", "--rate-basis", "payload"}},
    {"analyze/synthetic-case-f-xl710-gen2x4.csv",
     {"--bus", "gen2x4", "--nic", "i40e", "--pattern", "rx", "--line-rate", "40G", "--rate-basis",
      "payload"}},
    {"analyze/synthetic-case-j-pr921-aqc107.csv", {"--line-rate", "10G"}},
    {"analyze/synthetic-case-j-udp-100g.csv", {"--line-rate", "100G"}},
    {"analyze/synthetic-case-l-e810-pfring.csv", {"--line-rate", "100G"}},
    {"analyze/synthetic-case-m-x540-ksoftirqd.csv",
     {"--line-rate", "10G", "--cpus", "48", "--cpu-ghz", "2.6"}},
    {"analyze/synthetic-case-o-jetson-stage2.csv", {"--line-rate", "10G", "--pattern", "rx"}},
    {"analyze/synthetic-elasticity.csv", {"--bus", "gen1x1", "--line-rate", "1G"}},
    {"analyze/synthetic-netperf-omni.csv", {"--bus", "gen2x4", "--line-rate", "10G"}},
    {"analyze/synthetic-iperf3-tcp-lan-rtt200us-no-retrans.json", {"--line-rate", "10G"}},
    {"bench/ostinato-i218v-1g-ubuntu-maxtx.csv", {"--line-rate", "1G"}},
    {"bench/ostinato-i218v-1g-ubuntu-maxtx-core100.csv", {"--line-rate", "1G"}},
    {"bench/ostinato-40g-libpcap-txrx.csv", {"--line-rate", "40G"}},
    {"bench/iperf3-json-tcp-gcp-to-ibm-wdc-rtt77ms-266mbps-cpu.json", {"--line-rate", "1G"}},
    {"bench/iperf3-3.12-loopback-udp-1024B-400M.json", {"--bus", "gen1x1,aspm=l1", "--line-rate", "1G"}},
    {"bench/netperf-qemu-riscv-virtio-msgsize-sweep.csv", {"--line-rate", "1G"}},
    {"bench/pciebench-nfp6000-hsw-e5-2620v3-dell-t630-dma-size-sweep.csv", {"--bus", "gen3x8"}},
    {"published-64b-mlx5-xdp-paper.csv", {"--bus", "gen3x16", "--line-rate", "100G"}},
};

static void path_of(const struct input *in, char *buf, size_t n)
{
	if (in->file[0] == '@')
		snprintf(buf, n, "%s/%s", getenv("PCIBW_DATA_DIR"), in->file + 1);
	else
		snprintf(buf, n, "%s", test_data(in->file));
}

static struct run_result run_input(const struct input *in, bool json)
{
	char path[1024];
	path_of(in, path, sizeof path);
	const char *argv[24] = {"analyze", path};
	int n = 2;
	for (int k = 0; in->args[k]; k++)
		argv[n++] = in->args[k];
	if (json)
		argv[n++] = "--json";
	argv[n] = NULL;
	struct run_result r = run_pcibw(NULL, argv);
	cr_assert_eq(r.status, 0, "%s: exit %d: %s", path, r.status, r.err);
	return r;
}

Test(render_figures, evidence_figures_are_the_tables)
{
	int total = 0;
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		struct run_result r = run_input(&inputs[i], false);
		struct table t;
		read_table(r.out, &t);
		int checked = check_evidence(r.out, &t);
		struct run_result j = run_input(&inputs[i], true);
		json_error_t e;
		json_t *root = json_loads(j.out, 0, &e);
		cr_assert(root, "%s", e.text);
		json_t *r0 = json_array_get(json_object_get(root, "reasons"), 0);
		cr_assert(r0, "%s: no reasons", inputs[i].file);
		json_t *row = json_object_get(r0, "row");
		checked +=
		    check_headline(r.out, &t, json_is_integer(row) ? (int)json_integer_value(row) : -1);
		json_decref(root);
		run_free(&j);
		run_free(&r);
		total += checked;
	}
	/* the inputs state bus, wire and CPU loads: a test that found none would check nothing */
	cr_assert_gt(total, 40, "only %d figures checked", total);
}

/* The one formatter's rule, on the figures of the contract's examples. */
Test(render_figures, formatter_rounds_and_never_reaches_a_threshold_it_missed)
{
	char b[16];
	cr_assert_str_eq(pcibw_fmt_pct(b, sizeof b, 0.1264, NAN), "13");
	cr_assert_str_eq(pcibw_fmt_pct(b, sizeof b, 0.1264, 0.85), "13");
	cr_assert_str_eq(pcibw_fmt_pct(b, sizeof b, 0.946, 0.95), "94.6");
	cr_assert_str_eq(pcibw_fmt_pct(b, sizeof b, 0.946, NAN), "95");
	cr_assert_str_eq(pcibw_fmt_pct(b, sizeof b, 0.9499, 0.95), "94.9");
	cr_assert_str_eq(pcibw_fmt_pct(b, sizeof b, 0.944, 0.95), "94");
	cr_assert_str_eq(pcibw_fmt_pct(b, sizeof b, 0.95, 0.95), "95");
	cr_assert_str_eq(pcibw_fmt_pct(b, sizeof b, NAN, NAN), "?");
	cr_assert_str_eq(pcibw_fmt_pct(b, sizeof b, -1e-9, NAN), "0");
}

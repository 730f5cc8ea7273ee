/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CLI skeleton: --version, help for every command, exit code 2 for usage errors
 * (doc/cli-contract.md, "Commands" and "Exit codes"). */
#include "pcibw/version.h"
#include "support.h"
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Test(cli, version)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"--version", NULL});
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "pcibw " PCIBW_VERSION), "got: %s", r.out);
	run_free(&r);
}

Test(cli, help_every_command)
{
	const char *cmds[] = {"report", "model", "analyze"};
	for (int i = 0; i < 3; i++) {
		struct run_result r = run_pcibw(NULL, (const char *[]){cmds[i], "--help", NULL});
		cr_assert_eq(r.status, 0, "%s --help exit %d: %s", cmds[i], r.status, r.err);
		cr_assert(strstr(r.out, "Usage: pcibw"), "%s --help: %s", cmds[i], r.out);
		cr_assert(strstr(r.out, cmds[i]));
		run_free(&r);
		r = run_pcibw(NULL, (const char *[]){"help", cmds[i], NULL});
		cr_assert_eq(r.status, 0);
		cr_assert(strstr(r.out, cmds[i]));
		run_free(&r);
	}
}

Test(cli, unknown_command_is_usage_error)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"frobnicate", NULL});
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "frobnicate"), "stderr: %s", r.err);
	run_free(&r);
}

Test(cli, unknown_option_is_usage_error)
{
	const char *cmds[] = {"report", "model", "analyze"};
	for (int i = 0; i < 3; i++) {
		struct run_result r = run_pcibw(NULL, (const char *[]){cmds[i], "--no-such-option", NULL});
		cr_assert_eq(r.status, 2, "%s: exit %d", cmds[i], r.status);
		cr_assert(strstr(r.err, "no-such-option"), "%s stderr: %s", cmds[i], r.err);
		run_free(&r);
	}
}

Test(cli, bad_format_is_usage_error)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"model", "--format", "xml", NULL});
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "xml"));
	run_free(&r);
}

/* An interface named twice would be sampled twice and its packets counted twice against the
 * bus and the wire: a usage error (exit 2) naming it, live or on a recording (this one holds
 * lo and eth0: its meta file). */
Test(cli, watch_interface_given_twice_is_usage_error)
{
	const char *rec = test_data("../watch/data/real-vm-lo-udp");
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"watch", "--replay", rec, "lo", "eth0", "lo", NULL});
	cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "interface 'lo' given twice"), "%s", r.err);
	cr_expect_str_eq(r.out, "");
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"watch", "--replay", rec, "lo", "eth0", NULL});
	cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_free(&r);
}

/* A value option given twice, an argument after --version, an SVG plot named as another image
 * type: each a usage error (exit 2) that names what was wrong, never the last one silently. */
Test(cli, ambiguous_command_lines_are_usage_errors)
{
	const char *dump = test_data("pcie-intel-82576-x4-gen1.lspci");
	struct {
		const char *argv[8];
		const char *want;
	} cases[] = {
	    {{"report", "--dump", dump, "--dump", dump, NULL}, "--dump given twice"},
	    {{"model", "--bus", "gen3x8", "--bus", "gen2x8", NULL},
	     "--bus given twice ('gen3x8' and 'gen2x8')"},
	    {{"--version", "extra", NULL}, "--version takes no argument (got 'extra')"},
	    {{"model", "--bus", "gen3x8", "--plot", "out.png", NULL}, "the plot is SVG, not png"},
	    {{"model", "--bus", "gen3x8", "--plot", "a.svg", "--plot", "b.svg", NULL}, "--plot given twice"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct run_result r = run_pcibw(NULL, cases[i].argv);
		cr_expect_eq(r.status, 2, "case %u: exit %d: %s", i, r.status, r.err);
		cr_expect(strstr(r.err, cases[i].want), "case %u: want '%s' in: %s", i, cases[i].want, r.err);
		cr_expect_str_eq(r.out, "", "case %u printed: %s", i, r.out);
		run_free(&r);
	}
}

/* A usage error of `help` ends "Try 'pcibw help --help'.": that line must work, and an argument
 * help does not take is refused, never dropped (doc/cli-contract.md, "Exit codes"). */
Test(cli, help_help_is_the_main_help)
{
	const char *ok[][3] = {{"help", "--help", NULL}, {"help", "-h", NULL}, {"--help", NULL, NULL}};
	for (int i = 0; i < 3; i++) {
		struct run_result r = run_pcibw(NULL, (const char *[]){ok[i][0], ok[i][1], NULL});
		cr_expect_eq(r.status, 0, "%s %s: exit %d: %s", ok[i][0], ok[i][1] ? ok[i][1] : "", r.status,
			     r.err);
		cr_expect(strstr(r.out, "Usage: pcibw [COMMAND]"), "%s: %s", ok[i][0], r.out);
		run_free(&r);
	}
	struct run_result r = run_pcibw(NULL, (const char *[]){"help", "nosuch", NULL});
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "Try 'pcibw help --help'."), "%s", r.err);
	run_free(&r);
}

Test(cli, help_takes_one_command)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"help", "model", "analyze", NULL});
	cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "'analyze'"), "%s", r.err);
	cr_expect_eq(r.out[0], '\0', "printed: %s", r.out);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"help", "--help", "model", NULL});
	cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	run_free(&r);
	/* `pcibw --help model` is `pcibw help model` */
	r = run_pcibw(NULL, (const char *[]){"--help", "model", NULL});
	cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "Usage: pcibw model"), "%s", r.out);
	run_free(&r); /* and refuses what `help` refuses: an unknown command, a second argument */
	const char *bad[][3] = {
	    {"--help", "bogus", NULL}, {"-h", "bogus", NULL}, {"--help", "model", "extra"}};
	const char *want[] = {"unknown command 'bogus'", "unknown command 'bogus'", "'extra' after 'model'"};
	for (int i = 0; i < 3; i++) {
		r = run_pcibw(NULL, (const char *[]){bad[i][0], bad[i][1], bad[i][2], NULL});
		cr_expect_eq(r.status, 2, "%s %s: exit %d: %s", bad[i][0], bad[i][1], r.status, r.err);
		cr_expect(strstr(r.err, want[i]), "%s %s: %s", bad[i][0], bad[i][1], r.err);
		cr_expect_eq(r.out[0], '\0', "%s %s printed: %s", bad[i][0], bad[i][1], r.out);
		run_free(&r);
	}
}

/* --record-max takes K, M, G and T suffixes (parse_size): the help says all four */
Test(cli, record_max_help_names_its_suffixes)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"watch", "--help", NULL});
	cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "NUMBER with K, M, G or T"), "%s", r.out);
	run_free(&r);
}

/* One output format per run: a second --format, or --json beside --format csv, is exit 2, never
 * the last one silently (doc/cli-contract.md, "Exit codes": a one-value option given twice). */
Test(cli, output_format_given_twice_is_usage_error)
{
	const char *bad[][4] = {
	    {"--format", "csv", "--format", "json"},
	    {"--json", "--format", "csv", NULL},
	    {"--format", "text", "--json", NULL},
	    {"--format", "csv", "--format", "csv"},
	};
	for (int i = 0; i < 4; i++) {
		const char *a[10] = {"model", "--bus", "gen3x8", "--sizes", "64"};
		for (int k = 0; k < 4 && bad[i][k]; k++)
			a[5 + k] = bad[i][k];
		struct run_result r = run_pcibw(NULL, a);
		cr_expect_eq(r.status, 2, "case %d: exit %d: %s", i, r.status, r.err);
		cr_expect(strstr(r.err, "given twice"), "case %d: %s", i, r.err);
		cr_expect_eq(r.out[0], '\0', "case %d printed: %s", i, r.out);
		run_free(&r);
	}
	/* --json and --format json say the same thing */
	const char *same[][3] = {
	    {"--json", "--json", NULL}, {"--json", "--format", "json"}, {"--format", "json", "--json"}};
	for (int i = 0; i < 3; i++) {
		const char *a[9] = {"model", "--bus", "gen3x8", "--sizes", "64"};
		for (int k = 0; k < 3 && same[i][k]; k++)
			a[5 + k] = same[i][k];
		struct run_result r = run_pcibw(NULL, a);
		cr_expect_eq(r.status, 0, "same %d: exit %d: %s", i, r.status, r.err);
		cr_expect_eq(r.out[0], '{', "same %d: not JSON: %s", i, r.out);
		run_free(&r);
	}
}

/* The recipe has a text and a JSON form only (doc/cli-contract.md, `--explain`): with CSV it
 * would vanish without a word. */
Test(cli, explain_with_csv_is_usage_error)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8", "--sizes", "64",
							       "--explain", "--format", "csv", NULL});
	cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "--explain"), "%s", r.err);
	run_free(&r);
}

/* The repeatable NAME=VALUE options take each NAME once (doc/cli-contract.md, "Exit codes": never
 * the last one silently); different names are what they repeat for. */
Test(cli, repeatable_options_take_each_name_once)
{
	const char *csv = test_data("analyze/synthetic-case-f-xl710-gen2x4.csv");
	struct {
		const char *argv[12];
		const char *want; /* NULL: accepted */
	} cases[] = {
	    {{"analyze", csv, "--threshold", "bus=0.8", "--threshold", "bus=0.9", NULL},
	     "--threshold bus given twice ('bus=0.8' and 'bus=0.9')"},
	    {{"analyze", csv, "--threshold", "bus=0.8", "--threshold", "wire=0.9", NULL}, NULL},
	    {{"analyze", csv, "--col", "size=a", "--col", "size=b", NULL}, "--col size given twice"},
	    {{"analyze", csv, "--col", "size=a", "--col", "frame_bytes=b", NULL},
	     "--col frame_bytes given twice ('size=a' and 'frame_bytes=b')"},
	    {{"analyze", csv, "--col", "send_gbps=a", "--col", "send_mbps=b", NULL},
	     "--col send_mbps given twice ('send_gbps=a' and 'send_mbps=b')"},
	    {{"analyze", csv, "--col", "size=a", "--col", "gbps=a", NULL},
	     "column 'a' given two roles ('size' and 'gbps')"},
	    {{"model", "--bus", "gen3x8", "--sizes", "64", "--nic-set", "rx.desc_bytes=16", "--nic-set",
	      "rx.desc_bytes=32", NULL},
	     "NIC knob rx.desc_bytes given twice ('rx.desc_bytes=16' in --nic-set 'rx.desc_bytes=16' and "
	     "'rx.desc_bytes=32' in --nic-set 'rx.desc_bytes=32')"},
	    {{"model", "--bus", "gen3x8", "--sizes", "64", "--nic-set", "rx.desc_bytes=16, rx.desc_bytes=32",
	      NULL},
	     "NIC knob rx.desc_bytes given twice ('rx.desc_bytes=16' in --nic-set 'rx.desc_bytes=16, "
	     "rx.desc_bytes=32' and 'rx.desc_bytes=32' in --nic-set 'rx.desc_bytes=16, rx.desc_bytes=32')"},
	    {{"model", "--bus", "gen3x8", "--sizes", "64", "--nic-set", "rx.desc_bytes=16,tx.desc_bytes=16",
	      NULL},
	     NULL},
	    {{"model", "--bus", "gen3x8", "--sizes", "64", "--nic", "mlx5,rx_cqe_compress=on", "--nic-set",
	      "rx_cqe_compress=off", NULL},
	     "NIC knob rx_cqe_compress given twice ('rx_cqe_compress=on' in --nic mlx5,rx_cqe_compress=on "
	     "and 'rx_cqe_compress=off' in --nic-set 'rx_cqe_compress=off')"},
	    {{"model", "--bus", "gen3x8", "--sizes", "64", "--nic", "mlx5,rx_cqe_compress=on", "--nic-set",
	      "rx.desc_bytes=16", NULL},
	     NULL},
	    {{"model", "--bus", "gen3x8", "--nic", "simple", "--nic-set", "device.write_unit_bytes=128",
	      NULL},
	     "write_unit_bytes and write_unit_ns go together"},
	    {{"model", "--bus", "gen3x8", "--nic", "simple", "--nic-set", "device.write_unit_ns=17", NULL},
	     "write_unit_bytes and write_unit_ns go together"},
	    {{"model", "--bus", "gen3x8", "--nic", "simple", "--nic-set", "device.read_tags=4", NULL},
	     "read_latency_ns and read_tags go together"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct run_result r = run_pcibw(NULL, cases[i].argv);
		if (!cases[i].want) {
			cr_expect_eq(r.status, 0, "case %u: exit %d: %s", i, r.status, r.err);
		} else {
			cr_expect_eq(r.status, 2, "case %u: exit %d: %s", i, r.status, r.err);
			cr_expect(strstr(r.err, cases[i].want), "case %u: want '%s' in: %s", i, cases[i].want,
				  r.err);
			cr_expect_str_eq(r.out, "", "case %u printed: %s", i, r.out);
		}
		run_free(&r);
	}
}

/* One argument may hold several short options ("-hhhh"): more short options in one argument than
 * there are arguments must fit the parser's list, which is sized by the arguments. */
Test(cli, short_option_clusters_longer_than_argc)
{
	const char *cmds[] = {"report", "model", "analyze", "watch"};
	for (int i = 0; i < 4; i++) {
		struct run_result r =
		    run_pcibw(NULL, (const char *[]){cmds[i], "-hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh", NULL});
		cr_expect_eq(r.status, 0, "%s -hhh...: exit %d: %s", cmds[i], r.status, r.err);
		cr_expect(strstr(r.out, "Usage: pcibw"), "%s: %s", cmds[i], r.out);
		run_free(&r);
	}
}

/* Every command that takes --nic lists every profile of the profile directory in its --help
 * (mlx5-cx4 as much as mlx5): the names come from $PCIBW_DATA_DIR/nic, not from a list in the
 * help text that a new profile would miss. */
Test(cli, help_lists_every_profile)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/nic", getenv("PCIBW_DATA_DIR"));
	DIR *d = opendir(dir);
	cr_assert(d, "no %s", dir);
	const char *cmds[] = {"model", "analyze", "watch"};
	struct run_result r[3];
	for (int i = 0; i < 3; i++) {
		r[i] = run_pcibw(NULL, (const char *[]){cmds[i], "--help", NULL});
		cr_assert_eq(r[i].status, 0, "%s --help: %s", cmds[i], r[i].err);
		cr_assert(strstr(r[i].out, "NIC profiles (--nic NAME): "), "%s --help: %s", cmds[i],
			  r[i].out);
	}
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".ini") || e->d_name[0] == '.')
			continue;
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(l - 4), e->d_name);
		n++;
		for (int i = 0; i < 3; i++) {
			/* the name whole: "mlx5" inside "mlx5-cx4" or "dpdk-mlx5" does not count */
			/* the list runs to the blank line before the footer */
			const char *from = strstr(r[i].out, "NIC profiles (--nic NAME): ") + 27;
			const char *to = strstr(from, "\n\n");
			char *list = strndup(from, to ? (size_t)(to - from) : strlen(from));
			bool found = false;
			for (char *s = NULL, *t = strtok_r(list, ", \n", &s); t && !found;
			     t = strtok_r(NULL, ", \n", &s))
				found = !strcmp(t, name);
			cr_expect(found, "%s --help does not list profile '%s': %s", cmds[i], name, r[i].out);
			free(list);
		}
	}
	closedir(d);
	cr_expect_geq(n, 20, "only %d profiles in %s", n, dir);
	for (int i = 0; i < 3; i++)
		run_free(&r[i]);
	/* report takes no --nic: no list */
	struct run_result rr = run_pcibw(NULL, (const char *[]){"report", "--help", NULL});
	cr_expect(!strstr(rr.out, "NIC profiles"), "%s", rr.out);
	run_free(&rr);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The option table against what users see: getopt accepts exactly the table's rows for a
 * command, each command's --help lists exactly those, and the man page (doc/pcibw.1.scd)
 * describes every option of the table and no other. A new option without its man page entry, or
 * a man page entry for an option that does not exist, fails here.
 */
#include "pcibw/options.h"
#include "support.h"
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct pcibw_command_info *cmd_at(int i)
{
	return &pcibw_commands[i];
}

Test(options, table_rows_are_complete)
{
	for (int i = 0; i < pcibw_n_options; i++) {
		const struct pcibw_option *o = &pcibw_options[i];
		const char *l = pcibw_option_label(o);
		cr_assert(o->name || o->short_name, "row %d has no name", i);
		cr_assert(o->help && o->help[0], "%s: no help", l);
		cr_assert(o->commands, "%s: no command takes it", l);
		cr_assert(o->group < PCIBW_GRP_N, "%s: no group", l);
		cr_assert(o->type != PCIBW_OPT_FLAG || !o->metavar, "%s: a flag takes no value", l);
		cr_assert(o->metavar || o->type == PCIBW_OPT_FLAG || o->type == PCIBW_OPT_CALL,
			  "%s: a value type without a value", l);
		if (o->type == PCIBW_OPT_CALL)
			cr_assert(o->parse, "%s: CALL without a parser", l);
		if (o->type == PCIBW_OPT_INT || o->type == PCIBW_OPT_REAL)
			cr_assert(o->lo <= o->hi && o->name, "%s: empty range", l);
		for (int j = i + 1; j < pcibw_n_options; j++) {
			const struct pcibw_option *p = &pcibw_options[j];
			bool same = (o->name && p->name && !strcmp(o->name, p->name)) ||
				    (o->short_name && o->short_name == p->short_name);
			if (!same)
				continue;
			cr_assert_not(o->commands & p->commands, "%s: two rows for one command", l);
			cr_assert(o->type == p->type && o->target == p->target && o->parse == p->parse &&
				      !o->metavar == !p->metavar,
				  "%s: rows for different commands must mean the same", l);
		}
	}
}

/* The option labels at the start of each option line of `pcibw CMD --help` ("  --bus SPEC   ..."
 * or "  -h, --help"), one string each. */
static int help_labels(const char *help, char labels[][48], int max)
{
	int n = 0;
	for (const char *line = help; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "  -", 3))
			continue;
		const char *p = line + 2;
		while (*p == '-' && n < max) {
			size_t len = strcspn(p, " ,\n");
			snprintf(labels[n++], sizeof labels[0], "%.*s", (int)len, p);
			p += len;
			if (strncmp(p, ", -", 3))
				break;
			p += 2;
		}
	}
	return n;
}

Test(options, help_lists_what_getopt_takes)
{
	for (int c = 0; c < pcibw_n_commands; c++) {
		const struct pcibw_command_info *ci = cmd_at(c);
		struct run_result r = run_pcibw(NULL, (const char *[]){ci->name, "--help", NULL});
		cr_assert_eq(r.status, 0, "%s --help: %s", ci->name, r.err);
		char labels[128][48];
		int n = help_labels(r.out, labels, 128);
		/* every row of the command is in the help ... */
		int rows = 0;
		for (int i = 0; i < pcibw_n_options; i++) {
			const struct pcibw_option *o = &pcibw_options[i];
			if (!(o->commands & ci->bit))
				continue;
			rows += (o->name != NULL) + (o->short_name != 0);
			char want[48];
			bool found_long = !o->name, found_short = !o->short_name;
			for (int k = 0; k < n; k++) {
				snprintf(want, sizeof want, "--%s", o->name ? o->name : "");
				found_long |= o->name && !strcmp(labels[k], want);
				snprintf(want, sizeof want, "-%c", o->short_name);
				found_short |= o->short_name && !strcmp(labels[k], want);
			}
			cr_assert(found_long && found_short, "%s --help does not list %s:\n%s", ci->name,
				  pcibw_option_label(o), r.out);
		}
		/* ... and the help lists nothing else, each once */
		cr_assert_eq(n, rows, "%s --help lists %d option names, the table %d:\n%s", ci->name, n, rows,
			     r.out);
		/* and the binary takes each one it lists */
		for (int k = 0; k < n; k++) {
			struct run_result u =
			    run_pcibw(NULL, (const char *[]){ci->name, labels[k], "x", "--help", NULL});
			cr_assert_not(strstr(u.err, "unknown option"), "%s %s: %s", ci->name, labels[k],
				      u.err);
			run_free(&u);
		}
		run_free(&r);
	}
}

Test(options, unknown_option_is_refused_by_every_command)
{
	for (int c = 0; c < pcibw_n_commands; c++) {
		struct run_result r =
		    run_pcibw(NULL, (const char *[]){cmd_at(c)->name, "--no-such-option", NULL});
		cr_assert_eq(r.status, 2);
		cr_assert(strstr(r.err, "unknown option '--no-such-option'"), "%s", r.err);
		run_free(&r);
	}
}

/* Option names the man page defines: "*--name*" or "*-x*" at the start of a definition line
 * (and after ", " on the same line: "*-h*, *--help*"). */
static int man_options(const char *man, char names[][48], int max)
{
	int n = 0;
	for (const char *line = man; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *p = line;
		while (!strncmp(p, "*-", 2) && n < max) {
			size_t len = strcspn(p + 1, "*\n");
			snprintf(names[n++], sizeof names[0], "%.*s", (int)len, p + 1);
			p += 1 + len + (p[1 + len] == '*');
			const char *next = strstr(p, ", *-");
			if (!next || memchr(p, '\n', (size_t)(next - p)))
				break;
			p = next + 2;
		}
	}
	return n;
}

Test(options, man_page_lists_every_option)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/doc/pcibw.1.scd", getenv("PCIBW_SOURCE_ROOT"));
	char *man = slurp(path, NULL);
	cr_assert(man, "cannot read %s", path);
	char names[256][48];
	int n = man_options(man, names, 256);
	cr_assert_gt(n, 10, "no option definitions found in %s", path);
	for (int i = 0; i < pcibw_n_options; i++) {
		const struct pcibw_option *o = &pcibw_options[i];
		char want[48];
		for (int form = 0; form < 2; form++) {
			if (form == 0 && !o->name)
				continue;
			if (form == 1 && !o->short_name)
				continue;
			if (form == 0)
				snprintf(want, sizeof want, "--%s", o->name);
			else
				snprintf(want, sizeof want, "-%c", o->short_name);
			bool found = false;
			for (int k = 0; k < n; k++)
				found |= !strcmp(names[k], want);
			cr_assert(found, "doc/pcibw.1.scd has no entry for %s", want);
		}
	}
	for (int k = 0; k < n; k++) {
		bool found = false;
		for (int i = 0; i < pcibw_n_options; i++) {
			const struct pcibw_option *o = &pcibw_options[i];
			found |= (o->name && names[k][1] == '-' && !strcmp(names[k] + 2, o->name)) ||
				 (o->short_name && names[k][1] == o->short_name && !names[k][2]);
		}
		cr_assert(found, "doc/pcibw.1.scd describes %s, which no command takes", names[k]);
	}
	free(man);
}

/* Every help text fits 100 columns, as the rest of the text output does (doc/cli-contract.md:
 * text within 100 columns); a long option's help is written in lines for it. */
Test(options, help_fits_100_columns)
{
	for (int c = -1; c < pcibw_n_commands; c++) {
		struct run_result r = c < 0
					  ? run_pcibw(NULL, (const char *[]){"--help", NULL})
					  : run_pcibw(NULL, (const char *[]){"help", cmd_at(c)->name, NULL});
		cr_assert_eq(r.status, 0, "%s", r.err);
		for (const char *l = r.out; *l;) {
			const char *e = strchr(l, '\n');
			size_t n = e ? (size_t)(e - l) : strlen(l);
			cr_expect(n <= 100, "help %s: a line of %zu columns: %.*s",
				  c < 0 ? "" : cmd_at(c)->name, n, (int)n, l);
			l += n + (e != NULL);
		}
		run_free(&r);
	}
}

/* One measurement file named twice, by the same name or through a link, is a usage error
 * (exit 2), as an interface named twice is for watch: its rows would group as one row of count 2,
 * a repetition the file does not hold. Two copies of the file are two inputs, as the user said. */
Test(options, an_analyze_input_given_twice_is_refused)
{
	char dir[] = "/tmp/pcibw-twice-XXXXXX";
	cr_assert(mkdtemp(dir));
	char csv[64], lnk[64], copy[64];
	snprintf(csv, sizeof csv, "%s/a.csv", dir);
	snprintf(lnk, sizeof lnk, "%s/b.csv", dir);
	snprintf(copy, sizeof copy, "%s/c.csv", dir);
	static const char text[] = "frame_bytes,pps\n64,1000\n";
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(i ? copy : csv, "w");
		cr_assert(f);
		fputs(text, f);
		cr_assert_eq(fclose(f), 0);
	}
	cr_assert_eq(symlink("a.csv", lnk), 0);
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", csv, csv, NULL});
	cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "is given twice: its rows would count twice"), "%s", r.err);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"analyze", csv, lnk, NULL});
	cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "is given twice (also as ") && strstr(r.err, lnk), "%s", r.err);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"analyze", csv, copy, NULL});
	cr_expect_eq(r.status, 0, "two files: %s", r.err);
	run_free(&r);
	unlink(lnk);
	unlink(copy);
	unlink(csv);
	rmdir(dir);
}

/* An unknown long option near one the command takes names it: "did you mean --json?" (the
 * table's names, one or two slips away), for every command; a name near none gets no guess. */
Test(options, unknown_option_suggests_the_nearest)
{
	static const char *const cases[][3] = {
	    {"report", "--jsn", "(did you mean --json?)"},
	    {"report", "--jsn=1", "(did you mean --json?)"},
	    {"report", "--dmp", "(did you mean --dump?)"},
	    {"model", "--sise", "(did you mean --sizes?)"},
	    {"analyze", "--line-rtae", "(did you mean --line-rate?)"},
	    {"watch", "--intervall", "(did you mean --interval?)"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct run_result r = run_pcibw(NULL, (const char *[]){cases[i][0], cases[i][1], NULL});
		cr_expect_eq(r.status, 2, "%s %s: %d", cases[i][0], cases[i][1], r.status);
		cr_expect(strstr(r.err, cases[i][2]), "%s %s: %s", cases[i][0], cases[i][1], r.err);
		run_free(&r);
	}
	/* every long option of every command, its last two letters swapped, gets a suggestion */
	for (int c = 0; c < pcibw_n_commands; c++) {
		const struct pcibw_command_info *ci = cmd_at(c);
		for (int i = 0; i < pcibw_n_options; i++) {
			const struct pcibw_option *o = &pcibw_options[i];
			size_t l = o->name ? strlen(o->name) : 0;
			if (!(o->commands & ci->bit) || l < 4 || o->name[l - 1] == o->name[l - 2])
				continue;
			char typo[64];
			snprintf(typo, sizeof typo, "--%s", o->name);
			char t = typo[l + 1];
			typo[l + 1] = typo[l];
			typo[l] = t;
			struct run_result r = run_pcibw(NULL, (const char *[]){ci->name, typo, "x", NULL});
			cr_expect(strstr(r.err, "(did you mean --"), "%s %s: %s", ci->name, typo, r.err);
			run_free(&r);
		}
	}
	struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--no-such-option", NULL});
	cr_expect(!strstr(r.err, "did you mean"), "%s", r.err);
	run_free(&r);
}

/* An option of one value (a number, a rate, a mode) given twice is exit 2 naming both values, as
 * a file or a name given twice is: the last one winning would model another card or host than the
 * command line reads as (doc/cli-contract.md "Exit codes"). Flags and the repeatable options
 * (--nic-set, --col, --threshold) may repeat. */
Test(options, a_value_option_given_twice_is_refused)
{
	static const char *const twice[][9] = {
	    {"slots", "--nic", "ixgbe", "--line-rate", "10G", "--ports", "2", "--ports", "4"},
	    {"slots", "--nic", "ixgbe", "--line-rate", "10G", "--line-rate", "1G", NULL},
	    {"model", "--bus", "gen3x8,mps=256", "--pattern", "rx", "--pattern", "tx", NULL},
	    {"analyze", "x.csv", "--cpu-ghz", "2", "--cpu-ghz", "3", NULL},
	    {"watch", "--interval", "1", "--interval", "2", NULL},
	};
	static const char *const want[] = {
	    "--ports given twice ('2' and '4')", "--line-rate given twice ('10G' and '1G')",
	    "--pattern given twice ('rx' and 'tx')", "--cpu-ghz given twice ('2' and '3')",
	    "--interval given twice ('1' and '2')"};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *argv[10] = {0};
		for (int k = 0; k < 9 && twice[i][k]; k++)
			argv[k] = twice[i][k];
		struct run_result r = run_pcibw(NULL, argv);
		cr_expect_eq(r.status, 2, "%s: exit %d: %s", want[i], r.status, r.err);
		cr_expect(strstr(r.err, want[i]), "want '%s': %s", want[i], r.err);
		run_free(&r);
	}
	/* a repeatable option takes two names */
	struct run_result r = run_pcibw(
	    NULL, (const char *[]){"model", "--bus", "gen3x8,mps=256", "--nic", "mlx5", "--nic-set",
				   "rx.desc_bytes=16", "--nic-set", "tx.desc_bytes=16", "--json", NULL});
	cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_free(&r);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bad-input catalogue, tests/data/bad/catalogue.tsv: every file of tests/data/bad (and the
 * reproducers of tests/data/repro it names) with the command that reads it, the exit code the
 * contract gives (doc/cli-contract.md "Exit codes": 3 bad input, 2 a bad option value) and a
 * fragment its message must hold (file:line:column where the contract promises one). Never a
 * crash, a hang, a sanitizer report or exit 0 for a refused input.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 256

struct row {
	char file[256], command[512], message[512];
	int exit;
};

static int load(struct row *rows)
{
	char path[1024];
	snprintf(path, sizeof path, "%s", test_data("bad/catalogue.tsv"));
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "cannot open %s", path);
	char line[2048];
	int n = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0] || !strncmp(line, "file\t", 5))
			continue;
		cr_assert_lt(n, MAX_ROWS);
		char *save = NULL, *col[5] = {0};
		for (int i = 0; i < 5; i++)
			col[i] = strtok_r(i ? NULL : line, "\t", &save);
		cr_assert(col[0] && col[1] && col[2] && col[3] && col[4],
			  "catalogue row %d has not 5 columns", n + 1);
		snprintf(rows[n].file, sizeof rows[n].file, "%s", col[0]);
		snprintf(rows[n].command, sizeof rows[n].command, "%s", col[1]);
		rows[n].exit = atoi(col[2]);
		snprintf(rows[n].message, sizeof rows[n].message, "%s", col[3]);
		n++;
	}
	fclose(f);
	return n;
}

/* "{}" in s replaced by file */
static void expand(char *out, size_t len, const char *s, const char *file)
{
	size_t o = 0;
	for (; *s && o + 1 < len; s++) {
		if (s[0] == '{' && s[1] == '}') {
			o += (size_t)snprintf(out + o, len - o, "%s", file);
			s++;
			if (o >= len)
				o = len - 1;
		} else {
			out[o++] = *s;
		}
	}
	out[o] = '\0';
}

Test(bad_catalogue, every_file_listed_and_at_least_60)
{
	static struct row rows[MAX_ROWS];
	int n = load(rows);
	DIR *d = opendir(test_data("bad"));
	cr_assert_not_null(d);
	struct dirent *e;
	int files = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md") ||
		    !strcmp(e->d_name, "catalogue.tsv"))
			continue;
		files++;
		int found = 0;
		for (int i = 0; i < n && !found; i++)
			found = !strcmp(rows[i].file, e->d_name);
		cr_expect(found, "%s is not in catalogue.tsv", e->d_name);
	}
	closedir(d);
	cr_expect_geq(files, 60, "%d bad inputs in tests/data/bad", files);
}

Test(bad_catalogue, each_input_refused_as_listed, .timeout = 600)
{
	static struct row rows[MAX_ROWS];
	int n = load(rows);
	for (int i = 0; i < n; i++) {
		char cmd[1024], script[2048], want[1024];
		expand(cmd, sizeof cmd, rows[i].command, rows[i].file);
		expand(want, sizeof want, rows[i].message, rows[i].file);
		snprintf(script, sizeof script,
			 "cd \"$PCIBW_TEST_DATA/bad\" && timeout 20 \"$PCIBW_EXE\" %s >/dev/null", cmd);
		struct run_result r = run_cmd(NULL, (const char *[]){"bash", "-c", script, NULL});
		cr_expect_eq(r.status, rows[i].exit, "%s: `%s`: exit %d, expected %d; stderr: %s",
			     rows[i].file, cmd, r.status, rows[i].exit, r.err);
		cr_expect(strstr(r.err, want), "%s: `%s`: stderr lacks '%s': %s", rows[i].file, cmd, want,
			  r.err);
		cr_expect(!strstr(r.err, "Sanitizer") && !strstr(r.err, "runtime error"), "%s: `%s`: %s",
			  rows[i].file, cmd, r.err);
		run_free(&r);
	}
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw analyze --json` writes its groups and rows one at a time; the document must still be
 * exactly what jansson writes for the whole tree (two-space indent, keys in order, 10 significant
 * digits): parsed and dumped again by jansson with those flags, it comes back byte for byte. Each
 * row's verdict is the text table's for the same row; a generated input's rows carry the sizes
 * and rates its lines give; a write that fails midway is exit 1 with the reason.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_PRESERVE_ORDER)

/* the document, checked to be jansson's own dump of itself; NULL when analyze refused the input */
static json_t *streamed_doc(const char *const *args)
{
	struct run_result r = run_pcibw(NULL, args);
	if (r.status != 0) {
		cr_assert_eq(r.status, 3, "%s: exit %d: %s", args[1], r.status, r.err);
		run_free(&r);
		return NULL;
	}
	json_error_t e;
	json_t *doc = json_loads(r.out, 0, &e);
	cr_assert(doc, "%s: not JSON: line %d: %s", args[1], e.line, e.text);
	char *again = json_dumps(doc, DUMP_FLAGS);
	size_t n = strlen(again);
	cr_assert(strlen(r.out) == n + 1 && !memcmp(r.out, again, n) && r.out[n] == '\n',
		  "%s: the streamed document differs from jansson's dump of it", args[1]);
	free(again);
	run_free(&r);
	return doc;
}

/* Each group's row indices are rows of the document, none in two groups. */
static void groups_index_rows(json_t *doc, const char *what)
{
	size_t n = json_array_size(json_object_get(doc, "rows")), g, k;
	char *seen = calloc(n + 1, 1);
	json_t *gr, *ix;
	json_array_foreach(json_object_get(doc, "groups"), g, gr)
	{
		json_array_foreach(json_object_get(gr, "rows"), k, ix)
		{
			json_int_t i = json_integer_value(ix);
			cr_assert(json_is_integer(ix) && i >= 0 && (size_t)i < n, "%s: group %zu: row %lld",
				  what, g, (long long)i);
			cr_assert(!seen[i]++, "%s: row %lld in two groups", what, (long long)i);
		}
	}
	free(seen);
}

/* The text table's verdict of each row (its lines "  N series size ... verdict", N from 1), in
 * order; returns how many rows the table lists. */
static int text_verdicts(const char *text, char verdicts[][16], int max)
{
	const char *p = strstr(text, "\n  # ");
	int n = 0;
	if (!p)
		return 0;
	p = strchr(p + 1, '\n');
	while (p && p[1] && p[1] != '\n' && n < max) {
		const char *line = p + 1, *end = strchr(line, '\n');
		if (!end)
			break;
		int num = 0, used = 0;
		if (sscanf(line, " %d%n", &num, &used) == 1 && num == n + 1) {
			const char *last = end;
			while (last > line && last[-1] != ' ')
				last--;
			snprintf(verdicts[n], sizeof verdicts[n], "%.*s", (int)(end - last), last);
			n++;
		}
		p = end;
	}
	return n;
}

static void verdicts_agree(const char *path, json_t *doc)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", path, "--bus", "gen3x8,mps=256",
							       "--line-rate", "10G", "--wide", NULL});
	cr_assert_eq(r.status, 0, "%s: text exit %d: %s", path, r.status, r.err);
	static char v[4096][16];
	int n = text_verdicts(r.out, v, 4096);
	json_t *rows = json_object_get(doc, "rows"), *row;
	cr_assert_eq((size_t)n, json_array_size(rows), "%s: the text lists %d rows, the JSON %zu", path, n,
		     json_array_size(rows));
	size_t i;
	json_array_foreach(rows, i, row)
	{
		const char *jv = json_string_value(json_object_get(row, "verdict"));
		cr_assert(jv && !strcmp(jv, v[i]), "%s: row %zu: JSON %s, text %s", path, i + 1, jv, v[i]);
	}
	run_free(&r);
}

/* Every bundled benchmark capture and analyze input: the streamed document, its groups, and
 * each row's verdict against the text table's. */
Test(analyze_json, bundled_inputs_as_jansson_writes_them)
{
	static const char *const dirs[] = {"analyze", "bench"};
	int checked = 0;
	for (unsigned d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
		char dir[1024];
		snprintf(dir, sizeof dir, "%s", test_data(dirs[d]));
		DIR *dh = opendir(dir);
		cr_assert(dh, "%s", dir);
		struct dirent *e;
		while ((e = readdir(dh))) {
			size_t len = strlen(e->d_name);
			if (e->d_name[0] == '.' || (len > 4 && !strcmp(e->d_name + len - 4, ".src")) ||
			    (len > 3 && !strcmp(e->d_name + len - 3, ".md")))
				continue;
			char path[2048];
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			json_t *doc =
			    streamed_doc((const char *[]){"analyze", path, "--bus", "gen3x8,mps=256",
							  "--line-rate", "10G", "--json", NULL});
			if (!doc)
				continue; /* not an analyze input (a watch recording's part) */
			groups_index_rows(doc, path);
			verdicts_agree(path, doc);
			json_decref(doc);
			checked++;
		}
		closedir(dh);
	}
	cr_assert_geq(checked, 40, "only %d inputs checked", checked);
}

/* n rows of distinct frame sizes (64 + i B) at one packet rate (1000 kpps) and 50 % CPU */
static char *distinct_sizes(int n)
{
	size_t cap = 32 + (size_t)n * 24, len = 0;
	char *s = malloc(cap);
	len += (size_t)snprintf(s, cap, "frame_bytes,kpps,cpu_pct\n");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "%d,1000,50\n", 64 + i);
	return s;
}

/* 6,000 rows: every row is the line that gave it, the groups together hold each row once (the
 * one group of a long flat run writes its indices out as it goes: more than 64 KiB of them) */
Test(analyze_json, long_input_rows_from_its_lines)
{
	enum { N = 6000 };
	char *csv = distinct_sizes(N);
	const char *path = temp_file(csv, ".csv");
	free(csv);
	json_t *doc = streamed_doc((const char *[]){"analyze", path, "--bus", "gen3x8,mps=256", "--line-rate",
						    "10G", "--json", NULL});
	cr_assert(doc);
	json_t *rows = json_object_get(doc, "rows"), *row;
	cr_assert_eq(json_array_size(rows), N);
	size_t i;
	json_array_foreach(rows, i, row)
	{
		cr_assert_eq(json_number_value(json_object_get(row, "size_bytes")), 64.0 + (double)i);
		cr_assert_eq(json_integer_value(json_object_get(row, "line")), (json_int_t)i + 2);
		cr_assert_eq(json_integer_value(json_object_get(row, "count")), 1);
		/* 1000 kpps is 1 Mpps; cpu_pct 50 is half of all CPUs */
		cr_assert(fabs(json_number_value(json_object_get(row, "measured_mpps")) - 1.0) < 1e-9);
		cr_assert(fabs(json_number_value(json_object_get(row, "cpu_utilisation")) - 0.5) < 1e-9);
	}
	size_t total = 0, g;
	json_t *gr;
	json_array_foreach(json_object_get(doc, "groups"), g, gr) total +=
	    json_array_size(json_object_get(gr, "rows"));
	cr_assert_eq(total, N, "the groups hold %zu rows", total);
	groups_index_rows(doc, path);
	json_t *counts = json_object_get(doc, "counts"), *c;
	const char *k;
	size_t sum = 0;
	json_object_foreach(counts, k, c) sum += (size_t)json_integer_value(c);
	cr_assert_eq(sum, N, "counts add up to %zu", sum);
	json_decref(doc);
	unlink(path);
}

/* A full disk met midway through the rows: exit 1, the reason said once, never exit 0. */
Test(analyze_json, full_disk_midway_is_exit_1)
{
	char *csv = distinct_sizes(3000);
	const char *path = temp_file(csv, ".csv");
	free(csv);
	char line[1024];
	snprintf(line, sizeof line, "\"$PCIBW_EXE\" analyze '%s' --bus gen3x8,mps=256 --json >/dev/full",
		 path);
	struct run_result r = run_cmd(NULL, (const char *[]){"sh", "-c", line, NULL});
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "pcibw: cannot write output: No space left on device"), "%s", r.err);
	run_free(&r);
	unlink(path);
}

/* A file name that is not UTF-8 is still a string in every place it is named (no key missing):
 * its byte 0xff written as '?'. */
Test(analyze_json, file_name_not_utf8_is_a_string)
{
	char path[] = "/tmp/pcibw-json-\xff-XXXXXX.csv";
	int fd = mkstemps(path, 4);
	cr_assert(fd >= 0);
	const char csv[] = "frame_bytes,kpps\n64,1000\n1518,500\n";
	cr_assert_eq(write(fd, csv, sizeof csv - 1), (ssize_t)(sizeof csv - 1));
	close(fd);
	json_t *doc =
	    streamed_doc((const char *[]){"analyze", path, "--bus", "gen3x8,mps=256", "--json", NULL});
	cr_assert(doc);
	char want[sizeof path];
	snprintf(want, sizeof want, "%s", path);
	*strchr(want, '\xff') = '?';
	cr_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(json_object_get(doc, "inputs"), 0), "file")),
	    want);
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(doc, "rows"), i, row)
	    cr_assert_str_eq(json_string_value(json_object_get(row, "source")), want);
	json_t *key = json_object_get(json_array_get(json_object_get(doc, "groups"), 0), "key");
	cr_assert_str_eq(json_string_value(json_object_get(key, "source")), want);
	json_decref(doc);
	unlink(path);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every evidence line of `pcibw watch --json` comes with its reasons: in each interval and in the
 * summary, at the top level, in interfaces[] and in shared[], each evidence line k has a reason with
 * evidence_index k, and every reason's code is one doc/json.md lists. And one figure, one value: a
 * CPU or busiest-core share that an interface's evidence prints is the figure the text line of that
 * interface and interval prints (the bus and wire too, where one direction moved packets: the text
 * column is the larger of the two). Every recording of tests/watch/data is replayed; the expected
 * figures are the text output's own, so this checks agreement, not values.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

static char *json_doc;

static void check_reasons(json_t *o, const char *what)
{
	json_t *ev = json_object_get(o, "evidence"), *rs = json_object_get(o, "reasons");
	cr_assert(json_is_array(ev), "%s: no evidence", what);
	cr_assert(json_is_array(rs), "%s: no reasons beside its evidence", what);
	for (size_t k = 0; k < json_array_size(ev); k++) {
		bool found = false;
		size_t i;
		json_t *r;
		json_array_foreach(rs, i, r)
		{
			json_t *ix = json_object_get(r, "evidence_index");
			found |= json_is_integer(ix) && (size_t)json_integer_value(ix) == k;
		}
		cr_assert(found, "%s: evidence line %zu (%s) has no reason", what, k,
			  json_string_value(json_array_get(ev, k)));
	}
	size_t i;
	json_t *r;
	json_array_foreach(rs, i, r)
	{
		const char *code = json_string_value(json_object_get(r, "code"));
		cr_assert(code, "%s: reason %zu without a code", what, i);
		char quoted[80];
		snprintf(quoted, sizeof quoted, "`%s`", code);
		cr_assert(strstr(json_doc, quoted), "%s: reason code %s is not in doc/json.md", what, code);
		json_t *ix = json_object_get(r, "evidence_index");
		cr_assert(json_is_integer(ix) && (size_t)json_integer_value(ix) < json_array_size(ev),
			  "%s: reason %s names no evidence line", what, code);
	}
}

static void check_object(json_t *o, const char *rec, int line)
{
	char what[256];
	snprintf(what, sizeof what, "%s line %d (%s)", rec, line,
		 json_string_value(json_object_get(o, "type")));
	check_reasons(o, what);
	const char *lists[] = {"interfaces", "shared"};
	for (int l = 0; l < 2; l++) {
		size_t i;
		json_t *x;
		json_array_foreach(json_object_get(o, lists[l]), i, x)
		{
			char w[320];
			snprintf(w, sizeof w, "%s %s[%zu]", what, lists[l], i);
			check_reasons(x, w);
		}
	}
}

/* the 8-column name of the text line ("enp1~np0") */
static void short_name(const char *name, char out[9])
{
	size_t len = strlen(name);
	if (len <= 8)
		snprintf(out, 9, "%s", name);
	else
		snprintf(out, 9, "%.4s~%s", name, name + len - 3);
}

enum { WIRE, BUS, CPU, CORE };

struct pattern {
	const char *re; /* group 2: the figure */
	int col;
	bool below;
};

static const struct pattern patterns[] = {
    {"(^|[(,] ?)wire ([0-9.]+) % < ", WIRE, true},
    {"(^|[(,] ?)bus ([0-9.]+) % < ", BUS, true},
    {"(^|[(,] ?)CPU ([0-9.]+) % < ", CPU, true},
    {"(^|[(,] ?)busiest core ([0-9.]+) % < ", CORE, true},
    {"()carries ([0-9.]+) % of its ceiling", BUS, false},
    {"()the CPUs are ([0-9.]+) % busy", CPU, false},
    {"()the busiest core is ([0-9.]+) % busy", CORE, false},
    {"()the CPU, at ([0-9.]+) %", CPU, false},
    {"()the CPUs ([0-9.]+) %", CPU, false},
    {"()the busiest core ([0-9.]+) %", CORE, false},
};

/* the figures of one interface's evidence against its text line's columns (cols[k] NULL: not
 * comparable) */
static int check_figures(json_t *ev, const char *cols[4], const char *ctx)
{
	int checked = 0;
	size_t i;
	json_t *e;
	json_array_foreach(ev, i, e)
	{
		const char *s = json_string_value(e);
		for (size_t k = 0; k < sizeof patterns / sizeof patterns[0]; k++) {
			if (!cols[patterns[k].col])
				continue;
			regex_t re;
			cr_assert_eq(regcomp(&re, patterns[k].re, REG_EXTENDED), 0);
			regmatch_t m[3];
			const char *p = s;
			while (regexec(&re, p, 3, m, p == s ? 0 : REG_NOTBOL) == 0) {
				char f[16];
				snprintf(f, sizeof f, "%.*s", (int)(m[2].rm_eo - m[2].rm_so), p + m[2].rm_so);
				const char *cell = cols[patterns[k].col];
				if (strchr(f, '.')) {
					cr_assert(patterns[k].below,
						  "%s: %s: a decimal only below a threshold", ctx, s);
					cr_assert(fabs(atof(f) - atof(cell)) <= 0.5 + 1e-9,
						  "%s: %s %% vs text %s: %s", ctx, f, cell, s);
				} else {
					cr_assert_str_eq(f, cell, "%s: %s %% vs text %s: %s", ctx, f, cell,
							 s);
				}
				checked++;
				p += m[0].rm_eo;
			}
			regfree(&re);
		}
	}
	return checked;
}

/* the interface lines of watch's text, in order: "time iface rx.. tx.. wire bus cpu core @cpu si
 * verdict [flags]" */
struct text_line {
	char name[64], wire[64], bus[64], cpu[64], core[64];
};

static int text_lines(char *out, struct text_line **v)
{
	int n = 0, cap = 0;
	*v = NULL;
	for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		/* the time right-aligned in 6 columns, the name from column 8 (a wrapped note is
		 * indented deeper) */
		if (strlen(l) < 8 || !isdigit((unsigned char)l[5]) || l[6] != ' ' || l[7] == ' ')
			continue;
		char tok[16][64];
		int k = 0;
		for (char *s2 = NULL, *t = strtok_r(l, " ", &s2); t && k < 16; t = strtok_r(NULL, " ", &s2))
			snprintf(tok[k++], sizeof tok[0], "%s", t);
		if (k < 15 || !isdigit((unsigned char)tok[0][0]) || !strncmp(tok[1], "hop", 3) ||
		    strchr(tok[0], '|'))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			*v = realloc(*v, (size_t)cap * sizeof **v);
			cr_assert(*v);
		}
		struct text_line *x = &(*v)[n++];
		snprintf(x->name, sizeof x->name, "%s", tok[1]);
		snprintf(x->wire, sizeof x->wire, "%s", tok[8]);
		snprintf(x->bus, sizeof x->bus, "%s", tok[9]);
		snprintf(x->cpu, sizeof x->cpu, "%s", tok[10]);
		snprintf(x->core, sizeof x->core, "%s", tok[11]);
	}
	return n;
}

static bool moved(json_t *iface, const char *dir)
{
	json_t *pps = json_object_get(json_object_get(iface, dir), "pps");
	return json_is_number(pps) && json_number_value(pps) > 0;
}

Test(watch_reasons, every_evidence_line_has_a_reason_and_its_figures_are_the_texts)
{
	char doc[1024];
	snprintf(doc, sizeof doc, "%s/doc/json.md", getenv("PCIBW_SOURCE_ROOT"));
	json_doc = slurp(doc, NULL);
	cr_assert(json_doc, "%s", doc);
	struct run_result ls = run_cmd(NULL, (const char *[]){"sh", "-c",
							      "cd \"$PCIBW_TEST_DATA\" && for d in */; do "
							      "echo \"${d%/}\"; done",
							      NULL});
	cr_assert_eq(ls.status, 0, "%s", ls.err);
	int recs = 0, objects = 0, figures = 0;
	for (char *save = NULL, *d = strtok_r(ls.out, "\n", &save); d; d = strtok_r(NULL, "\n", &save)) {
		char dir[1024];
		snprintf(dir, sizeof dir, "%s/%s", getenv("PCIBW_TEST_DATA"), d);
		struct run_result j =
		    run_pcibw(NULL, (const char *[]){"watch", "--replay", dir, "--json", NULL});
		cr_assert_eq(j.status, 0, "%s: exit %d: %s", d, j.status, j.err);
		struct run_result t = run_pcibw(NULL, (const char *[]){"watch", "--replay", dir, NULL});
		cr_assert_eq(t.status, 0, "%s: exit %d: %s", d, t.status, t.err);
		/* the interval lines end where the summary begins */
		char *sum = strstr(t.out, "\nsummary: ");
		if (sum)
			*sum = '\0';
		struct text_line *tl;
		int n_tl = text_lines(t.out, &tl), at = 0, line = 0;
		for (char *s2 = NULL, *l = strtok_r(j.out, "\n", &s2); l; l = strtok_r(NULL, "\n", &s2)) {
			json_error_t e;
			json_t *o = json_loads(l, 0, &e);
			cr_assert(o, "%s: %s", d, e.text);
			check_object(o, d, ++line);
			objects++;
			if (!strcmp(json_string_value(json_object_get(o, "type")), "interval")) {
				size_t i;
				json_t *x;
				json_array_foreach(json_object_get(o, "interfaces"), i, x)
				{
					char sn[9], ctx[256];
					short_name(json_string_value(json_object_get(x, "name")), sn);
					cr_assert_lt(at, n_tl, "%s: fewer text lines than JSON interfaces",
						     d);
					const struct text_line *tx = &tl[at++];
					cr_assert_str_eq(tx->name, sn, "%s line %d", d, line);
					/* the text's bus and wire are the larger direction's: comparable when
					 * only one moved packets */
					bool one = moved(x, "rx") != moved(x, "tx");
					const char *cols[4] = {one ? tx->wire : NULL, one ? tx->bus : NULL,
							       tx->cpu, tx->core};
					snprintf(ctx, sizeof ctx, "%s interval line %d %s", d, line, sn);
					figures += check_figures(json_object_get(x, "evidence"), cols, ctx);
				}
			}
			json_decref(o);
		}
		cr_assert_eq(at, n_tl, "%s: %d text lines, %d JSON interfaces", d, n_tl, at);
		free(tl);
		run_free(&t);
		run_free(&j);
		recs++;
	}
	run_free(&ls);
	free(json_doc);
	cr_assert_geq(recs, 15);
	/* the recordings load the CPUs and the bus: a test that found no figure would check nothing */
	cr_assert_gt(figures, 20, "only %d figures checked", figures);
	cr_log_info("%d recordings, %d JSON objects, %d figures", recs, objects, figures);
}

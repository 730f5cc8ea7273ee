/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The edit distance behind "did you mean": each insertion, deletion, substitution and swap of
 * two neighbours counts one (Damerau's optimal string alignment; the distances below are
 * counted by hand from that definition). */
#include "src/util/nearest.h"
#include <criterion/criterion.h>
#include <string.h>

static int dist(const char *a, const char *b)
{
	return pcibw_edit_distance(a, strlen(a), b, strlen(b));
}

Test(nearest, distance_counts_each_slip_once)
{
	cr_expect_eq(dist("json", "json"), 0);
	cr_expect_eq(dist("jsn", "json"), 1);		 /* one deletion */
	cr_expect_eq(dist("jsoon", "json"), 1);		 /* one insertion */
	cr_expect_eq(dist("jsan", "json"), 1);		 /* one substitution */
	cr_expect_eq(dist("jsno", "json"), 1);		 /* one swap */
	cr_expect_eq(dist("sise", "sizes"), 2);		 /* substitution + deletion */
	cr_expect_eq(dist("", "dump"), 4);		 /* four insertions */
	cr_expect_eq(dist("kitten", "sitting"), 3);	 /* the textbook pair */
	cr_expect_eq(dist("no-such-option", "json"), 9); /* capped */
}

Test(nearest, nearest_within_one_or_two_slips)
{
	const char *names[] = {"json", "dump", NULL, "sizes", "interval", "ip"};
	size_t n = sizeof names / sizeof names[0];
	cr_expect_str_eq(pcibw_nearest_name("jsn", 3, names, n), "json");
	cr_expect_str_eq(pcibw_nearest_name("jsn=1", 3, names, n), "json");
	cr_expect_str_eq(pcibw_nearest_name("sise", 4, names, n), "sizes");
	cr_expect_str_eq(pcibw_nearest_name("intervall", 9, names, n), "interval");
	/* two slips in a name of 4 is a different word, not a typo */
	cr_expect_null(pcibw_nearest_name("jo", 2, names, n));
	cr_expect_null(pcibw_nearest_name("zzzz", 4, names, n));
	/* a name given exactly is not a typo of another */
	cr_expect_null(pcibw_nearest_name("ip", 2, names, n));
	cr_expect_null(pcibw_nearest_name("x", 1, names, 0));
}

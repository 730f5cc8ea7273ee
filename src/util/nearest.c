/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Edit distance (Damerau's optimal string alignment) and the nearest name. */
#include "nearest.h"
#include <string.h>

#define MAX_LEN 63

int pcibw_edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	if (la > MAX_LEN)
		la = MAX_LEN;
	if (lb > MAX_LEN)
		lb = MAX_LEN;
	int d[MAX_LEN + 1][MAX_LEN + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	return d[la][lb] > 9 ? 9 : d[la][lb];
}

const char *pcibw_nearest_name(const char *typed, size_t len, const char *const *names, size_t n)
{
	const char *best = NULL;
	int best_d = 10;
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		size_t l = strlen(names[i]);
		int d = pcibw_edit_distance(typed, len, names[i], l);
		if (d == 0)
			return NULL;
		/* one slip in a short name, two in a longer one: "--jsn" is --json, "--in" is not --ip */
		int room = l <= 4 ? 1 : 2;
		if (d <= room && d < best_d) {
			best = names[i];
			best_d = d;
		}
	}
	return best;
}

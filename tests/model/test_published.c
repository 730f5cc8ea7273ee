/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Published packet rates (tests/data/published-*.csv, each with its citation) against the bus
 * ceilings of the profiles that model those drivers with their defaults (plus the driver flags the
 * publication says it set): no published measurement may be above the model's ceiling, or
 * `analyze` would call a peer-reviewed result impossible.
 */
#include "model_helpers.h"
#include "support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* split one CSV line into at most n fields (double quotes group a field with commas) */
static int fields(char *line, char **f, int n)
{
	int k = 0;
	for (char *p = line; *p && k < n;) {
		if (*p == '"') {
			f[k++] = ++p;
			p = strchr(p, '"');
			if (!p)
				return -1;
			*p++ = '\0';
		} else
			f[k++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return k;
}

Test(published, not_impossible)
{
	FILE *fp = fopen(test_data("published-64b-mlx5-xdp-paper.csv"), "r");
	cr_assert(fp);
	char line[512];
	int rows = 0;
	bool header = true;
	while (fgets(line, sizeof line, fp)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		if (header) {
			header = false;
			continue;
		}
		char *f[8];
		cr_assert_eq(fields(line, f, 8), 7, "%s", line);
		struct pcibw_nic nic = load_nic(f[1]);
		struct pcibw_bus bus = parse_bus(f[3]);
		const char *sets[4];
		int ns = 0;
		for (char *s = NULL, *t = strtok_r(f[2], " ", &s); t && ns < 4; t = strtok_r(NULL, " ", &s))
			sets[ns++] = t;
		struct pcibw_err e = {0};
		cr_assert_eq(pcibw_nic_configure(&nic, &bus, 0, sets, ns, &e), 0, "%s", e.msg);
		enum pcibw_pattern pat;
		cr_assert_eq(pcibw_pattern_parse(f[4], &pat, &e), 0);
		struct pcibw_model_row r = eval(&bus, &nic, pat, PCIBW_SIZE_FRAME, 0, atof(f[5]));
		cr_expect_geq(r.bus_mpps, atof(f[6]), "%s: %s ceiling %.2f Mpps below the published %.2f",
			      f[0], f[1], r.bus_mpps, atof(f[6]));
		rows++;
	}
	fclose(fp);
	cr_assert_geq(rows, 4);
}

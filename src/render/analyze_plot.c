/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw analyze --plot FILE.svg`: the measured points (Gbit/s in the size convention) over the
 * bus and wire ceilings at the same sizes, against packet size on a log axis: a roofline. Drawn
 * with the shared plotter (plot.h). */
#include "analyze_render.h"
#include "plot.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SERIES 8

static int by_size(const void *a, const void *b, void *ctx)
{
	const struct pcibw_row *v = ctx;
	double x = v[*(const int *)a].size_bytes, y = v[*(const int *)b].size_bytes;
	return (x > y) - (x < y);
}

/* "measured: send", "measured: run.csv dma-read": what tells a measured series from the others */
static void measured_label(char *buf, size_t n, const struct pcibw_row *r, bool with_src, bool with_ser,
			   bool with_pat)
{
	const char *base = strrchr(r->source, '/');
	base = base ? base + 1 : r->source;
	with_ser = with_ser && r->series[0];
	snprintf(buf, n, "measured%s%.28s%s%.24s%s%s", with_src ? " " : "", with_src ? base : "",
		 with_ser ? " " : "", with_ser ? r->series : "", with_pat ? " " : "",
		 with_pat ? pcibw_analyze_pattern_name(r->pattern) : "");
}

int pcibw_analyze_render_plot(const char *path, const struct pcibw_analyze_view *v, struct pcibw_err *err)
{
	const struct pcibw_rows *rs = v->rows;
	int n = rs->n;
	int *idx = malloc(sizeof *idx * (size_t)(n ? n : 1));
	double *buf = malloc(sizeof *buf * (size_t)(n ? n : 1) * 2 * MAX_SERIES);
	char(*names)[96] = calloc(MAX_SERIES, sizeof *names);
	struct pcibw_plot_series ser[MAX_SERIES];
	int ns = 0, st;
	if (!idx || !buf || !names) {
		st = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		goto out;
	}
	int m = 0;
	for (int i = 0; i < n; i++)
		if (rs->v[i].size_bytes > 0 && rs->v[i].gbps > 0)
			idx[m++] = i;
	if (!m) {
		st = pcibw_fail(err, PCIBW_EUSAGE, "--plot: no row has both a size and a rate to draw");
		goto out;
	}
	qsort_r(idx, (size_t)m, sizeof *idx, by_size, rs->v);
	/* measured series are told apart by source, series and pattern; a label names only what varies */
	bool many_src = false, many_pat = false, many_ser = false;
	for (int i = 1; i < m; i++) {
		many_src |= strcmp(rs->v[idx[i]].source, rs->v[idx[0]].source) != 0;
		many_ser |= strcmp(rs->v[idx[i]].series, rs->v[idx[0]].series) != 0;
		many_pat |= rs->v[idx[i]].pattern != rs->v[idx[0]].pattern;
	}
	/* ceilings per pattern, then measured points per source and series */
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < m && ns < MAX_SERIES; i++) {
			const struct pcibw_row *r0 = &rs->v[idx[i]];
			char name[96];
			if (pass == 0)
				snprintf(name, sizeof name, "bus ceiling (%s)",
					 pcibw_analyze_pattern_name(r0->pattern));
			else if (pass == 1)
				snprintf(name, sizeof name, "wire ceiling");
			else
				measured_label(name, sizeof name, r0, many_src || !(many_ser || many_pat),
					       many_ser, many_pat);
			bool seen = false;
			for (int s = 0; s < ns; s++)
				seen |= !strcmp(names[s], name);
			if (seen)
				continue;
			double *x = buf + (size_t)ns * 2 * (size_t)n, *y = x + n;
			int k = 0;
			for (int j = 0; j < m; j++) {
				const struct pcibw_row *r = &rs->v[idx[j]];
				double val;
				if (pass == 0) {
					if (r->pattern != r0->pattern)
						continue;
					val = r->bus_gbps;
				} else if (pass == 1) {
					val = r->wire_gbps;
				} else {
					if (strcmp(r->source, r0->source) || strcmp(r->series, r0->series) ||
					    r->pattern != r0->pattern)
						continue;
					val = r->gbps;
				}
				if (k && x[k - 1] == r->size_bytes)
					continue;
				x[k] = r->size_bytes;
				y[k] = val;
				k++;
			}
			bool any = false;
			for (int j = 0; j < k; j++)
				any |= !isnan(y[j]);
			if (!any)
				continue;
			snprintf(names[ns], sizeof names[0], "%s", name);
			ser[ns] = (struct pcibw_plot_series){names[ns], x, y, k, pass == 2};
			ns++;
		}
	}
	struct pcibw_plot p = {
	    .title = "pcibw analyze: measured against the bus and wire ceilings",
	    .xlabel = "packet size (bytes)",
	    .ylabel = "Gbit/s",
	    .logx = true,
	    .series = ser,
	    .n_series = ns,
	};
	st = pcibw_plot_svg(path, &p, err);
out:
	free(idx);
	free(buf);
	free(names);
	return st;
}

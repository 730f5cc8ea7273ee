/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small generic plotter: named line series and point series against a linear or log x axis,
 * axis labels, a legend; drawn with cairo's SVG surface. Shared by `model` and `analyze`.
 */
#ifndef PCIBW_PLOT_H
#define PCIBW_PLOT_H

#include "pcibw/error.h"
#include <stdbool.h>

struct pcibw_plot_series {
	const char *name;    /* legend text */
	const double *x, *y; /* n points; NAN y values are skipped (a gap in a line) */
	int n;
	bool points; /* draw markers instead of a line (measured data) */
};

struct pcibw_plot {
	const char *title, *xlabel, *ylabel;
	bool logx; /* x > 0 required on a log axis; other points are skipped */
	const struct pcibw_plot_series *series;
	int n_series;		    /* at most 8 distinct colours; more series reuse them */
	double width_pt, height_pt; /* 0 = 720 x 450 */
};

/*
 * pcibw_plot_svg - write the plot to path. Returns PCIBW_OK; PCIBW_ENOTHERE when pcibw was built
 * without cairo (message says so); PCIBW_EINPUT when the file cannot be written; PCIBW_EUSAGE
 * when there is nothing to draw.
 */
int pcibw_plot_svg(const char *path, const struct pcibw_plot *p, struct pcibw_err *err);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw model --plot FILE.svg`: the bus and wire ceilings against packet size (log axis). */
#include "model_render.h"
#include "plot.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int pcibw_model_render_plot(const char *path, const struct pcibw_model_view *v, struct pcibw_err *err)
{
	double *x = calloc((size_t)v->n + 1, sizeof *x), *bus = calloc((size_t)v->n + 1, sizeof *bus),
	       *wire = calloc((size_t)v->n + 1, sizeof *wire);
	if (!x || !bus || !wire) {
		free(x), free(bus), free(wire);
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	}
	for (int i = 0; i < v->n; i++) {
		x[i] = v->rows[i].size_bytes;
		bus[i] = v->rows[i].bus_gbps;
		wire[i] = v->rows[i].wire_gbps;
	}
	char spec[160], title[400], xl[64], bname[200], wname[64];
	pcibw_bus_format(v->bus, spec, sizeof spec);
	snprintf(title, sizeof title, "%s, nic %s, pattern %s", spec, v->nic->name,
		 pcibw_pattern_name(v->pattern));
	snprintf(xl, sizeof xl, "packet size (%s bytes)", pcibw_size_is_name(v->size_is));
	snprintf(bname, sizeof bname, "bus ceiling (%s)", pcibw_bus_kind_name(v->bus->kind));
	bool mix = v->n == 1 && v->labels && v->labels[0];
	snprintf(wname, sizeof wname, "wire ceiling (%g Gbit/s line rate)", v->line_rate_gbps);
	struct pcibw_plot_series s[2] = {
	    {bname, x, bus, v->n, mix},
	    {wname, x, wire, v->n, mix},
	};
	struct pcibw_plot p = {title, xl, v->pattern == PCIBW_PAT_BOTH ? "Gbit/s per direction" : "Gbit/s",
			       true,  s,  v->line_rate_gbps > 0 ? 2 : 1,
			       0,     0};
	int rc = pcibw_plot_svg(path, &p, err);
	free(x), free(bus), free(wire);
	return rc;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw model --format csv`: one header line, one line per size; fields quoted by libcsv. */
#include "model_render.h"
#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void field(FILE *o, const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n"))
		csv_fwrite(o, s, strlen(s)); /* quotes it and doubles inner quotes (RFC 4180) */
	else
		fputs(s, o);
	fputc(last ? '\n' : ',', o);
}

static void numf(FILE *o, double v, bool last)
{
	char buf[48] = "";
	if (isfinite(v))
		snprintf(buf, sizeof buf, "%.6g", v);
	fputs(buf, o); /* empty = unknown */
	fputc(last ? '\n' : ',', o);
}

int pcibw_model_render_csv(FILE *o, const struct pcibw_model_view *v)
{
	static const char *hdr[] = {"size_bytes",
				    "label",
				    "bus_gbps",
				    "bus_mpps",
				    "wire_gbps",
				    "wire_mpps",
				    "limit",
				    "headroom_pct",
				    "to_device_bytes",
				    "to_host_bytes",
				    "bus_share",
				    "bound_by",
				    "bus_ns_per_packet",
				    "cpu_stall_ns_per_packet",
				    "bus_gbps_low",
				    "bus_gbps_high",
				    "bus_mpps_low",
				    "bus_mpps_high"};
	int nh = (int)(sizeof hdr / sizeof hdr[0]);
	for (int i = 0; i < nh; i++)
		field(o, hdr[i], i == nh - 1);
	for (int i = 0; i < v->n; i++) {
		const struct pcibw_model_row *r = &v->rows[i];
		numf(o, r->size_bytes, false);
		field(o, v->labels && v->labels[i] ? v->labels[i] : "", false);
		numf(o, r->bus_gbps, false);
		numf(o, r->bus_mpps, false);
		numf(o, r->wire_gbps, false);
		numf(o, r->wire_mpps, false);
		field(o,
		      !isfinite(r->bus_gbps) && !(v->line_rate_gbps > 0) ? ""
		      : r->limit == PCIBW_LIMIT_BUS			 ? "bus"
									 : "wire",
		      false);
		numf(o, pcibw_model_headroom_pct(r), false);
		numf(o, r->to_device_bytes, false);
		numf(o, r->to_host_bytes, false);
		numf(o, r->bus_share, false);
		field(o, r->bound_by ? r->bound_by : "", false);
		numf(o, r->bus_ns_per_packet, false);
		numf(o, r->cpu_stall_ns_per_packet, false);
		numf(o, r->bus_gbps_low, false);
		numf(o, r->bus_gbps_high, false);
		numf(o, r->bus_mpps_low, false);
		numf(o, r->bus_mpps_high, true);
	}
	return ferror(o) ? PCIBW_EINTERNAL : PCIBW_OK;
}

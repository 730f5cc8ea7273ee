/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw analyze --format csv`: one line per row, the JSON row keys as the header; text fields
 * quoted by libcsv (csv_fwrite). Evidence strings are joined with " | ". */
#include "analyze_render.h"
#include "pcibw/measure.h"
#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void cell_text(FILE *out, const char *s, bool last)
{
	csv_fwrite(out, s, strlen(s));
	fputc(last ? '\n' : ',', out);
}

static void cell_num(FILE *out, double v)
{
	if (isnan(v))
		fputs(",", out);
	else
		fprintf(out, "%.10g,", v);
}

int pcibw_analyze_render_csv(FILE *out, const struct pcibw_analyze_view *v)
{
	fputs("source,series,size_bytes,size_is,direction,work,cpu_mhz,count,measured_gbps,measured_mpps,"
	      "bus_gbps,bus_utilisation,bus_gbps_low,bus_gbps_high,bus_utilisation_low,"
	      "bus_utilisation_high,wire_gbps,wire_utilisation,cpu_utilisation,core_max_utilisation,"
	      "cycles_per_packet,service_demand_us_per_kb,elasticity,verdict,evidence\n",
	      out);
	for (int i = 0; i < v->rows->n; i++) {
		const struct pcibw_row *r = &v->rows->v[i];
		cell_text(out, r->source, false);
		cell_text(out, r->series, false);
		cell_num(out, r->size_bytes);
		cell_text(out,
			  r->size_conv == PCIBW_SIZE_OPTION  ? v->size_is
			  : r->size_conv == PCIBW_SIZE_WRITE ? "tcp-write"
							     : pcibw_size_is_name(r->size_conv),
			  false);
		cell_text(out, pcibw_analyze_pattern_name(r->pattern), false);
		cell_num(out, r->work);
		cell_num(out, r->cpu_mhz);
		fprintf(out, "%ld,", r->count);
		cell_num(out, r->gbps);
		cell_num(out, r->pps / 1e6);
		cell_num(out, r->bus_gbps);
		cell_num(out, r->bus_util);
		cell_num(out, r->bus_gbps_low);
		cell_num(out, r->bus_gbps_high);
		cell_num(out, r->bus_util_low);
		cell_num(out, r->bus_util_high);
		cell_num(out, r->wire_gbps);
		cell_num(out, r->wire_util);
		cell_num(out, r->cpu_util);
		cell_num(out, r->core_util);
		cell_num(out, r->cycles_per_packet);
		cell_num(out, r->sd_us_per_kb);
		cell_num(out, r->elasticity);
		cell_text(out, pcibw_verdict_name(r->verdict), false);
		char ev[4096] = "";
		size_t o = 0;
		for (int k = 0; k < r->n_evidence && o < sizeof ev; k++)
			o += (size_t)snprintf(ev + o, sizeof ev - o, "%s%s", k ? " | " : "", r->evidence[k]);
		cell_text(out, ev, true);
	}
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw analyze` as text: what was compared with what, a table of rows, each row's evidence,
 * and the answer in plain words. Unknown values print as "-". */
#include "analyze_render.h"
#include "pcibw/nic.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *pcibw_analyze_pattern_name(int p)
{
	static const char *names[] = {"rx", "tx", "both", "dma-read", "dma-write", "dma-rw"};
	return p >= 0 && p < (int)(sizeof names / sizeof names[0]) ? names[p] : "?";
}

static const char *f(char *buf, size_t n, const char *fmt, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, fmt, v);
	return buf;
}

int pcibw_analyze_render_text(FILE *out, const struct pcibw_analyze_view *v)
{
	const struct pcibw_machine *m = v->machine;
	fprintf(out, "bus      %s%s%s\n", v->bus_spec ? v->bus_spec : "none given (no bus ceiling)",
		v->bus_from ? " from " : "", v->bus_from ? v->bus_from : "");
	fprintf(out, "nic      %s, pattern %s (unless a row says), sizes are %s unless a column says\n",
		v->nic ? v->nic : "-", v->pattern, v->size_is);
	if (m->line_rate_gbps > 0)
		fprintf(out, "wire     %g Gbit/s\n", m->line_rate_gbps);
	else
		fprintf(out, "wire     no line rate given\n");
	if (m->cpus > 0 || !isnan(m->cpu_mhz)) {
		char n[16], c[32];
		fprintf(out, "cpu      %s CPU(s) at %s MHz (%s)\n",
			f(n, sizeof n, "%.0f", m->cpus > 0 ? m->cpus : NAN), f(c, sizeof c, "%g", m->cpu_mhz),
			v->cpu_origin);
	}
	for (int i = 0; i < v->n_inputs; i++) {
		const struct pcibw_ingest_stats *s = &v->inputs[i].stats;
		fprintf(out, "input    %s (%s): %ld %s from %ld %s", v->inputs[i].path,
			pcibw_format_name(s->format), s->rows, s->rows == 1 ? "row" : "rows", s->lines,
			s->format == PCIBW_FMT_IPERF3 ? (s->lines == 1 ? "interval" : "intervals")
						      : (s->lines == 1 ? "result line" : "result lines"));
		if (s->skipped)
			fprintf(out, ", %ld skipped (first: %s)", s->skipped, s->first_skip);
		fputc('\n', out);
		if (s->n_columns) {
			char item[160];
			int col = fprintf(out, "         columns ");
			bool first = true;
			for (int k = 0; k < s->n_columns; k++) {
				if (!s->columns[k].use[0])
					continue;
				int n = snprintf(item, sizeof item, "%s%s = %s", first ? "" : ", ",
						 s->columns[k].header, s->columns[k].use);
				if (col + n > 100 && !first) {
					fputs(",\n                ", out);
					col = 16;
					n = snprintf(item, sizeof item, " %s = %s", s->columns[k].header,
						     s->columns[k].use);
				}
				col += fprintf(out, "%s", item);
				first = false;
			}
			fputc('\n', out);
		}
		for (int k = 0; k < s->n_warnings; k++)
			fprintf(out, "         warning: %s\n", s->warnings[k]);
		for (int k = 0; k < s->n_notes; k++)
			fprintf(out, "         note: %s\n", s->notes[k]);
	}
	/* rows that differ only by work or cpu_mhz (an elasticity sweep) need those columns to be told apart
	 */
	bool has_work = false, has_mhz = false;
	for (int i = 0; i < v->rows->n; i++) {
		has_work |= !isnan(v->rows->v[i].work);
		has_mhz |= !isnan(v->rows->v[i].cpu_mhz);
	}
	fprintf(out, "\n%4s %-22s %-16s %7s %5s %4s %9s %8s %10s %5s %5s %5s %5s %8s  ", "#", "source",
		"series", "size", "dir", "n", "Gbit/s", "Mpps", "bus Gbit/s", "bus%", "wire%", "cpu%",
		"core%", "cyc/pkt");
	if (has_work)
		fprintf(out, "%8s  ", "work");
	if (has_mhz)
		fprintf(out, "%8s  ", "cpu MHz");
	fprintf(out, "verdict\n");
	char a[32], b[32], c[32], d[32], e[32], g[32], h[32], k[32], l[32];
	for (int i = 0; i < v->rows->n; i++) {
		const struct pcibw_row *r = &v->rows->v[i];
		const char *base = strrchr(r->source, '/');
		fprintf(out, "%4d %-22.22s %-16.16s %7s %5s %4ld %9s %8s %10s %5s %5s %5s %5s %8s  ", i + 1,
			base ? base + 1 : r->source, r->series[0] ? r->series : "-",
			f(a, sizeof a, "%g", r->size_bytes), pcibw_analyze_pattern_name(r->pattern), r->count,
			f(b, sizeof b, "%.4g", r->gbps), f(c, sizeof c, "%.4g", r->pps / 1e6),
			f(d, sizeof d, "%.4g", r->bus_gbps), f(e, sizeof e, "%.0f", r->bus_util * 100),
			f(g, sizeof g, "%.0f", r->wire_util * 100), f(h, sizeof h, "%.0f", r->cpu_util * 100),
			f(k, sizeof k, "%.0f", r->core_util * 100),
			f(l, sizeof l, "%.0f", r->cycles_per_packet));
		if (has_work)
			fprintf(out, "%8s  ", f(a, sizeof a, "%g", r->work));
		if (has_mhz)
			fprintf(out, "%8s  ", f(a, sizeof a, "%g", r->cpu_mhz));
		fprintf(out, "%s\n", pcibw_verdict_name(r->verdict));
	}
	fputc('\n', out);
	for (int i = 0; i < v->rows->n; i++) {
		const struct pcibw_row *r = &v->rows->v[i];
		for (int j = 0; j < r->n_evidence; j++)
			fprintf(out, "%4d %s\n", i + 1, r->evidence[j]);
	}
	fprintf(out, "\nverdict  %s\n", pcibw_verdict_name(v->summary->verdict));
	for (int i = 0; i < v->summary->n_evidence; i++)
		fprintf(out, "%s%s\n", i ? "         " : "         ", v->summary->evidence[i]);
	if (v->skipped)
		fprintf(out, "         %ld input line(s) skipped\n", v->skipped);
	for (int i = 0; i < v->n_warnings; i++)
		fprintf(out, "warning: %s\n", v->warnings[i]);
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

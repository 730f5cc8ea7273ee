/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw analyze` as text: what was compared with what, a table of rows, each row's evidence,
 * and the answer in plain words. Unknown values print as "-". */
#include "analyze_render.h"
#include "pcibw/nic.h"
#include "pcibw/words.h"
#include "text_wrap.h"
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

/* a share as the evidence prints it (pcibw_fmt_pct), "-" when unknown */
static const char *share(char *buf, size_t n, double v)
{
	return isnan(v) ? (snprintf(buf, n, "-"), buf) : pcibw_fmt_pct(buf, n, v, NAN);
}

/* An optional column: shown when a row carries data in it (or with --wide). */
struct optcol {
	const char *head;
	int width;
	const char *fmt;
	bool show;
};

static double key_value(const struct pcibw_row *r, int k)
{
	const double vals[] = {r->work, r->cpu_mhz, r->cores, r->queues, r->threads, r->streams};
	return vals[k];
}

/* "eth1 UDP_STREAM send": the interface, test and series a row is of (the words its group's
 * evidence is named by), "" when none */
static const char *series_cell(char *buf, size_t n, const struct pcibw_row *r)
{
	char raw[4 * sizeof r->iface + 2 * PCIBW_MEASURE_TEXT + 4];
	snprintf(raw, sizeof raw, "%s%s%s%s%s", r->iface,
		 r->iface[0] && (r->test[0] || r->series[0]) ? " " : "", r->test,
		 r->test[0] && r->series[0] ? " " : "", r->series);
	return pcibw_text_visible(raw, buf, n); /* a CSV field may hold a newline */
}

/* The table: 90 columns for the fixed part. The optional columns come while the line stays
 * within 100 (all of them with --wide): first the keys rows differ by (work, cpu MHz, cores,
 * ...), then the bus ceiling, then cycles per packet, each only when a row has a value in it; the
 * source only with several inputs. */
static void table(FILE *out, const struct pcibw_analyze_view *v)
{
	const struct pcibw_rows *rs = v->rows;
	struct optcol keys[] = {
	    {"work", 8, "%g", false},	{"cpu MHz", 7, "%g", false}, {"cores", 5, "%g", false},
	    {"queues", 6, "%g", false}, {"threads", 7, "%g", false}, {"streams", 7, "%g", false},
	};
	bool has_bus = false, has_cyc = false;
	int series_w = 6, dir_w = 4;
	for (int i = 0; i < rs->n; i++) {
		const struct pcibw_row *r = &rs->v[i];
		for (int k = 0; k < 6; k++)
			keys[k].show |= !isnan(key_value(r, k));
		has_bus |= !isnan(r->bus_gbps);
		has_cyc |= !isnan(r->cycles_per_packet);
		char cell[160];
		int w = (int)strlen(series_cell(cell, sizeof cell, r));
		if (w > series_w)
			series_w = w;
		/* pcie-bench's dma-read/dma-write are wider than rx, tx, both */
		int dw = (int)strlen(pcibw_analyze_pattern_name(r->pattern));
		if (dw > dir_w)
			dir_w = dw;
	}
	if (series_w > (v->wide ? 32 : 16))
		series_w = v->wide ? 32 : 16;
	int width = 90 - 16 + series_w - 4 + dir_w;
	bool src = v->n_inputs > 1 || v->wide;
	if (src)
		width += 17;
	for (int k = 0; k < 6; k++)
		if (keys[k].show && !v->wide && width + keys[k].width + 1 > 100)
			keys[k].show = false;
		else if (keys[k].show)
			width += keys[k].width + 1;
	bool bus = v->wide || (has_bus && width + 9 <= 100);
	if (bus)
		width += 9;
	bool cyc = v->wide || (has_cyc && width + 8 <= 100);
	fprintf(out, "\n%3s ", "#");
	if (src)
		fprintf(out, "%-16s ", "source");
	fprintf(out, "%-*s %6s %*s %3s %8s %8s ", series_w, "series", "size", dir_w, "dir", "n", "Gbit/s",
		"Mpps");
	if (bus)
		fprintf(out, "%8s ", "bus Gb/s");
	fprintf(out, "%4s %5s %4s %5s ", "bus%", "wire%", "cpu%", "core%");
	if (cyc)
		fprintf(out, "%7s ", "cyc/pkt");
	for (int k = 0; k < 6; k++)
		if (keys[k].show)
			fprintf(out, "%*s ", keys[k].width, keys[k].head);
	fprintf(out, " verdict\n");
	char a[32], b[32], c[32], d[32], e[32], g[32], h[32], k2[32], l[32], ser[160];
	for (int i = 0; i < rs->n; i++) {
		const struct pcibw_row *r = &rs->v[i];
		const char *base = strrchr(r->source, '/');
		fprintf(out, "%3d ", i + 1);
		if (src)
			fprintf(out, "%-16.16s ", base ? base + 1 : r->source);
		series_cell(ser, sizeof ser, r);
		fprintf(
		    out, "%-*.*s %6s %*s %3ld %8s %8s ", series_w, series_w, ser[0] ? ser : "-",
		    f(a, sizeof a, "%g", !isnan(r->input_size_bytes) ? r->input_size_bytes : r->size_bytes),
		    dir_w, pcibw_analyze_pattern_name(r->pattern), r->count, f(b, sizeof b, "%.3g", r->gbps),
		    f(c, sizeof c, "%.3g", r->pps / 1e6));
		if (bus)
			fprintf(out, "%8s ", f(d, sizeof d, "%.4g", r->bus_gbps));
		fprintf(out, "%4s %5s %4s %5s ", share(e, sizeof e, r->bus_util),
			share(g, sizeof g, r->wire_util), share(h, sizeof h, r->cpu_util),
			share(k2, sizeof k2, r->core_util));
		if (cyc)
			fprintf(out, "%7s ", f(l, sizeof l, "%.0f", r->cycles_per_packet));
		for (int k = 0; k < 6; k++)
			if (keys[k].show)
				fprintf(out, "%*s ", keys[k].width,
					f(a, sizeof a, keys[k].fmt, key_value(r, k)));
		fprintf(out, " %s\n", pcibw_verdict_name(r->verdict));
	}
}

static bool in_group(const struct pcibw_group *g, const char *e)
{
	for (int k = 0; k < g->n_evidence; k++)
		if (!strcmp(g->evidence[k], e))
			return true;
	return false;
}

/* Evidence once per group: the group's (its representative row's) under a line naming the
 * group, then only what a row adds to it. */
static void evidence(FILE *out, const struct pcibw_analyze_view *v)
{
	const struct pcibw_rows *rs = v->rows;
	const struct pcibw_summary *s = v->summary;
	if (s->n_groups == 0)
		return;
	fputc('\n', out);
	bool sources = false;
	for (int gi = 1; gi < s->n_groups; gi++)
		sources |=
		    strcmp(rs->v[s->groups[gi].key_row].source, rs->v[s->groups[0].key_row].source) != 0;
	for (int gi = 0; gi < s->n_groups; gi++) {
		const struct pcibw_group *g = &s->groups[gi];
		/* the words the headline names the group by (interface, test, series or direction) */
		char ser[320], sz[64] = "";
		pcibw_group_label(rs, g, sources, ser, sizeof ser);
		if (!isnan(g->size_min) && g->size_min == g->size_max)
			snprintf(sz, sizeof sz, " %g B", g->size_min);
		else if (!isnan(g->size_min))
			snprintf(sz, sizeof sz, " %g-%g B", g->size_min, g->size_max);
		if (s->n_groups > 1 || g->n_rows > 1) {
			char list[96];
			size_t o = 0;
			for (int k = 0; k < g->n_rows && o < 80; k++)
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%d", k ? "," : "",
						      g->rows[k] + 1);
			if (o >= 80)
				snprintf(list + 76, sizeof list - 76, ",...");
			fprintf(out, "%s%s%s (%s %s): %s\n", ser, sz[0] ? "," : "", sz,
				g->n_rows == 1 ? "row" : "rows", list, pcibw_verdict_name(g->verdict));
		}
		const char *indent = s->n_groups > 1 || g->n_rows > 1 ? "   " : "";
		char pre[32];
		snprintf(pre, sizeof pre, "%s%4d ", indent, g->representative + 1);
		for (int k = 0; k < g->n_evidence; k++)
			pcibw_text_wrapped(out, pre, g->evidence[k]);
		for (int k = 0; k < g->n_rows; k++) {
			const struct pcibw_row *r = &rs->v[g->rows[k]];
			if (g->rows[k] == g->representative)
				continue;
			snprintf(pre, sizeof pre, "%s%4d ", indent, g->rows[k] + 1);
			for (int j = 0; j < r->n_evidence; j++)
				if (!in_group(g, r->evidence[j]))
					pcibw_text_wrapped(out, pre, r->evidence[j]);
		}
	}
}

int pcibw_analyze_render_text(FILE *out, const struct pcibw_analyze_view *v)
{
	const struct pcibw_machine *m = v->machine;
	fprintf(out, "bus      %s%s%s\n", v->bus_spec ? v->bus_spec : "none given (no bus ceiling)",
		v->bus_from ? " from " : "", v->bus_from ? v->bus_from : "");
	/* interfaces the input gives a machine of their own: their rows are set against it */
	for (int i = 0; i < v->n_series; i++) {
		const struct pcibw_resolved *r = &v->series[i].res;
		char shown[4 * sizeof v->series[i].iface];
		fprintf(out, "  %-6s %s, nic %s",
			v->series[i].iface[0] ? pcibw_text_visible(v->series[i].iface, shown, sizeof shown)
					      : "(all)",
			r->have_bus ? r->bus_spec : "no bus", r->nic_name);
		if (r->in.line_rate_gbps > 0)
			fprintf(out, ", wire %g Gbit/s", r->in.line_rate_gbps);
		/* a machine stated mid-file is that interface's only for the rows after its line (and
		 * after each line stating it again), not for the whole file */
		if (v->series[i].machine_no && r->bus_from[0])
			fprintf(out, " (rows after %s)\n", r->bus_from);
		else
			fprintf(out, " (from %s)\n", r->bus_from[0] ? r->bus_from : "options");
	}
	fprintf(out, "nic      %s, pattern %s (unless a row says), sizes are %s unless a column says\n",
		v->nic ? v->nic : "-", v->pattern, v->size_is);
	if (m->line_rate_gbps > 0)
		fprintf(out, "wire     %g Gbit/s\n", m->line_rate_gbps);
	else
		fprintf(out, "wire     no line rate given\n");
	if (m->cpus > 0 || !isnan(m->cpu_mhz)) {
		char n[16], c[32];
		/* cycles per packet need both: say which one is missing rather than print "-" */
		char line[1400];
		snprintf(line, sizeof line, "%s CPU(s) at %s MHz (%s)%s",
			 f(n, sizeof n, "%.0f", m->cpus > 0 ? m->cpus : NAN),
			 f(c, sizeof c, "%g", m->cpu_mhz), v->cpu_origin,
			 m->cpus <= 0	     ? "; no CPU count (--cpus): no cycles per packet"
			 : isnan(m->cpu_mhz) ? "; no clock (--cpu-ghz): no cycles per packet"
					     : "");
		pcibw_text_wrapped(out, "cpu      ", line);
	}
	for (int i = 0; i < v->n_inputs; i++) {
		const struct pcibw_ingest_stats *s = &v->inputs[i].stats;
		char line[1400];
		int o = snprintf(
		    line, sizeof line, "%s (%s): %ld %s from %ld %s", v->inputs[i].path,
		    pcibw_format_name(s->format), s->rows, s->rows == 1 ? "row" : "rows", s->lines,
		    s->format == PCIBW_FMT_IPERF3 ? (s->lines == 1 ? "interval" : "intervals")
						  : (s->lines == 1 ? "result line" : "result lines"));
		if (s->skipped && o > 0 && (size_t)o < sizeof line)
			snprintf(line + o, sizeof line - (size_t)o, ", %ld skipped (first: %s)", s->skipped,
				 s->first_skip);
		pcibw_text_wrapped(out, "input    ", line);
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
		if (s->cpu.valid) {
			char cpu[320];
			snprintf(cpu, sizeof cpu,
				 "all CPUs %.1f %% busy (irq+softirq %.1f %%), %d CPU(s) listed",
				 s->cpu.all_busy, s->cpu.all_irq, s->cpu.n_cpus);
			pcibw_text_wrapped(out, "         cpu of the run: ", cpu);
		}
		for (int k = 0; k < s->n_warnings; k++)
			pcibw_text_wrapped(out, "         warning: ", s->warnings[k]);
		for (int k = 0; k < s->n_notes; k++)
			pcibw_text_wrapped(out, "         note: ", s->notes[k]);
	}
	table(out, v);
	evidence(out, v);
	fprintf(out, "\nverdict  %s\n", pcibw_verdict_name(v->summary->verdict));
	for (int i = 0; i < v->summary->n_evidence; i++)
		pcibw_text_wrapped(out, "         ", v->summary->evidence[i]);
	if (v->skipped)
		fprintf(out, "         %ld input line(s) skipped\n", v->skipped);
	for (int i = 0; i < v->n_warnings; i++)
		fprintf(out, "warning: %s\n", v->warnings[i]);
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw analyze --format json`, built with jansson. Contract keys (doc/cli-contract.md
 * "analyze JSON") plus the ones doc/json.md lists; every key is present, null when unknown. */
#include "analyze_render.h"
#include "json_reasons.h"
#include "json_stream.h"
#include "json_warnings.h"
#include "json_writer.h"
#include "pcibw/measure.h"
#include "pcibw/nic.h"
#include "pcibw/version.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* A string that may not be UTF-8 (a file name) still becomes a string: bytes jansson refuses
 * are written as '?', so no key goes missing (the writer of the rows does the same). */
static json_t *safe_string(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char *c = strdup(s);
	if (!c)
		return NULL;
	for (char *p = c; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

static json_t *str_or_null(const char *s)
{
	return s && *s ? safe_string(s) : json_null();
}

static json_t *strings(char *const *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, safe_string(v[i]));
	return a;
}

static json_t *strings_fixed(const char (*v)[320], int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, safe_string(v[i]));
	return a;
}

/* the bus spec a row was set against: its interface's or stated machine's, else the run's; NULL
 * with none (a virtual NIC has no bus ceiling) */
static const char *row_bus(const struct pcibw_analyze_view *v, const struct pcibw_row *r)
{
	for (int k = 0; r->machine && k < v->n_series; k++)
		if (r->machine == &v->series[k].machine)
			return r->machine->have_bus ? v->series[k].res.bus_spec : NULL;
	return v->machine->have_bus && v->bus_spec && *v->bus_spec ? v->bus_spec : NULL;
}

static void key_num(struct pcibw_jw *w, const char *key, double v)
{
	pcibw_jw_key(w, key);
	pcibw_jw_num(w, v);
}

static void key_str(struct pcibw_jw *w, const char *key, const char *s)
{
	pcibw_jw_key(w, key);
	pcibw_jw_str(w, s);
}

static void key_int(struct pcibw_jw *w, const char *key, long long v)
{
	pcibw_jw_key(w, key);
	pcibw_jw_int(w, v);
}

static void key_bool(struct pcibw_jw *w, const char *key, bool v)
{
	pcibw_jw_key(w, key);
	pcibw_jw_bool(w, v);
}

/* a string, null for NULL or "" */
static void key_opt(struct pcibw_jw *w, const char *key, const char *s)
{
	key_str(w, key, s && *s ? s : NULL);
}

static void put_strings(struct pcibw_jw *w, char *const *v, int n)
{
	pcibw_jw_open(w, '[');
	for (int i = 0; i < n; i++) {
		pcibw_jw_item(w);
		pcibw_jw_str(w, v[i]);
	}
	pcibw_jw_close(w, ']');
}

/* tcp_path: a TCP row's window bound and the figures behind it (doc/cli-contract.md "analyze
 * JSON"); null for a row without them */
static void tcp_path(struct pcibw_jw *w, const struct pcibw_row *r)
{
	const struct pcibw_tcp_path *p = &r->tcp_path;
	pcibw_jw_key(w, "tcp_path");
	if (!r->tcp || !pcibw_tcp_path_known(p)) {
		pcibw_jw_null(w);
		return;
	}
	bool sampled = p->samples > 0 && p->window_gbps > 0;
	pcibw_jw_open(w, '{');
	key_num(w, "window_bound_gbps", sampled ? p->window_gbps : p->max_window_gbps);
	key_str(w, "window_bound_from", sampled ? "samples" : "max_snd_cwnd");
	key_num(w, "measured_share", r->tcp_window_share);
	key_bool(w, "limit", r->tcp_limit);
	key_int(w, "samples", p->samples);
	key_num(w, "mean_window_bytes", p->window_bytes);
	key_str(w, "window_of", sampled ? (p->rwnd_limited ? "snd_wnd" : "snd_cwnd") : NULL);
	key_num(w, "max_snd_cwnd_bytes", p->max_cwnd_bytes);
	key_num(w, "max_window_gbps", p->max_window_gbps);
	key_num(w, "rtt_mean_us", p->rtt_us);
	key_num(w, "rtt_min_us", p->rtt_min_us);
	key_num(w, "rtt_max_us", p->rtt_max_us);
	key_num(w, "rttvar_mean_us", p->rttvar_us);
	key_num(w, "retransmits", p->retransmits);
	key_num(w, "segments", p->segments);
	key_num(w, "pmtu_bytes", p->pmtu);
	pcibw_jw_close(w, '}');
}

/* limits: every resource at or above its threshold, in the verdict order */
static void put_limits(struct pcibw_jw *w, unsigned limits)
{
	const char *names[PCIBW_RES_N];
	int n = pcibw_limits_names(limits, names, PCIBW_RES_N);
	pcibw_jw_key(w, "limits");
	pcibw_jw_open(w, '[');
	for (int i = 0; i < n; i++) {
		pcibw_jw_item(w);
		pcibw_jw_str(w, names[i]);
	}
	pcibw_jw_close(w, ']');
}

static void row_json(struct pcibw_jw *w, const struct pcibw_analyze_view *v, const struct pcibw_row *r)
{
	pcibw_jw_open(w, '{');
	key_str(w, "source", r->source);
	key_opt(w, "series", r->series);
	key_opt(w, "iface", r->iface);
	pcibw_jw_key(w, "line");
	if (r->first_line)
		pcibw_jw_int(w, r->first_line);
	else
		pcibw_jw_null(w);
	key_opt(w, "test", r->test);
	key_num(w, "size_bytes", r->size_bytes);
	key_str(w, "size_is",
		r->size_conv == PCIBW_SIZE_OPTION  ? v->size_is
		: r->size_conv == PCIBW_SIZE_WRITE ? "tcp-write"
						   : pcibw_size_is_name(r->size_conv));
	key_str(w, "direction", pcibw_analyze_pattern_name(r->pattern));
	key_bool(w, "concurrent", r->concurrent);
	pcibw_jw_key(w, "poll_mode");
	if (r->poll_mode == PCIBW_NULL)
		pcibw_jw_null(w);
	else
		pcibw_jw_bool(w, r->poll_mode);
	key_num(w, "input_size_bytes", r->input_size_bytes);
	key_num(w, "tcp_segment_bytes", r->segment_bytes);
	pcibw_jw_key(w, "ip_fragments");
	if (r->fragments)
		pcibw_jw_int(w, r->fragments);
	else
		pcibw_jw_null(w);
	key_num(w, "work", r->work);
	key_num(w, "cpu_mhz", r->cpu_mhz);
	key_num(w, "cores", r->cores);
	key_num(w, "queues", r->queues);
	key_num(w, "threads", r->threads);
	key_num(w, "streams", r->streams);
	key_int(w, "count", r->count);
	key_num(w, "measured_gbps", r->gbps);
	key_num(w, "measured_mpps", r->pps / 1e6);
	key_num(w, "bus_gbps", r->bus_gbps);
	key_num(w, "bus_mpps", r->bus_mpps);
	key_num(w, "bus_utilisation", r->bus_util);
	key_num(w, "bus_gbps_low", r->bus_gbps_low);
	key_num(w, "bus_gbps_high", r->bus_gbps_high);
	key_num(w, "bus_mpps_low", r->bus_mpps_low);
	key_num(w, "bus_mpps_high", r->bus_mpps_high);
	key_num(w, "bus_utilisation_low", r->bus_util_low);
	key_num(w, "bus_utilisation_high", r->bus_util_high);
	key_opt(w, "bus_bound_by", r->bound_by);
	key_str(w, "bus_modelled", row_bus(v, r));
	/* pcie-bench sweeps: the per-size error of the model (measured / model - 1) */
	key_num(w, "model_error", r->pattern >= PCIBW_PAT_DMA_READ ? r->bus_util - 1 : NAN);
	key_num(w, "wire_gbps", r->wire_gbps);
	key_num(w, "wire_utilisation", r->wire_util);
	key_num(w, "cpu_utilisation", r->cpu_util);
	key_num(w, "core_max_utilisation", r->core_util);
	key_num(w, "remote_cpu_utilisation", r->remote_util);
	key_num(w, "cycles_per_packet", r->cycles_per_packet);
	key_num(w, "service_demand_us_per_kb", r->sd_us_per_kb);
	key_num(w, "elasticity", r->elasticity);
	key_str(w, "elasticity_of", isnan(r->elasticity) ? NULL : r->elasticity_of);
	key_bool(w, "per_packet_limit", r->per_packet);
	tcp_path(w, r);
	key_str(w, "verdict", pcibw_verdict_name(r->verdict));
	put_limits(w, r->limits);
	pcibw_jw_key(w, "evidence");
	put_strings(w, r->evidence, r->n_evidence);
	pcibw_jw_key(w, "reasons");
	pcibw_jw_reasons(w, r->reasons, r->n_reasons);
	pcibw_jw_close(w, '}');
}

/* A sysstat report's CPU as read (doc/cli-contract.md "analyze input": inputs[].cpu). */
static json_t *cpu_sample(const struct pcibw_cpu_sample *cs)
{
	json_t *c = json_object();
	json_object_set_new(c, "cpus_listed", json_integer(cs->n_cpus));
	json_object_set_new(c, "all_busy_pct", num(cs->all_busy));
	json_object_set_new(c, "all_irq_softirq_pct", num(cs->all_irq));
	json_object_set_new(c, "busiest_cpu", cs->core_id >= 0 ? json_integer(cs->core_id) : json_null());
	json_object_set_new(c, "busiest_cpu_busy_pct", num(cs->core_busy));
	return c;
}

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))

/* What the groups and rows are written with: one buffer, reused element to element. */
struct put_ctx {
	const struct pcibw_analyze_view *v;
	struct pcibw_jw w;
	int next_vr; /* the row after the last verdict_rows element written */
};

/* verdict_rows[i], at depth 2: the i-th row holding the headline verdict (called for i = 0, 1,
 * ... in turn) */
static int put_verdict_row(FILE *out, int i, void *ctx)
{
	struct put_ctx *c = ctx;
	(void)i;
	const struct pcibw_rows *rows = c->v->rows;
	while (c->next_vr < rows->n && rows->v[c->next_vr].verdict != c->v->summary->verdict)
		c->next_vr++;
	if (c->next_vr >= rows->n)
		return -1;
	return fprintf(out, "%d", c->next_vr++) < 0;
}

/* groups[i], at depth 2; a group's row indices are written out as they go (one group may hold
 * every row) */
static int put_group(FILE *out, int i, void *ctx)
{
	struct put_ctx *c = ctx;
	const struct pcibw_analyze_view *v = c->v;
	const struct pcibw_group *gr = &v->summary->groups[i];
	const struct pcibw_row *kr = &v->rows->v[gr->key_row];
	struct pcibw_jw *w = &c->w;
	pcibw_jw_reset(w, 2);
	pcibw_jw_open(w, '{');
	pcibw_jw_key(w, "key");
	pcibw_jw_open(w, '{');
	key_str(w, "source", kr->source);
	key_opt(w, "series", kr->series);
	key_opt(w, "test", kr->test);
	/* two interfaces' groups have keys of their own, not two alike */
	key_opt(w, "iface", kr->iface);
	key_str(w, "direction", pcibw_analyze_pattern_name(kr->pattern));
	/* the machine is part of the key: the rows after a link retrained group apart */
	key_str(w, "bus_modelled", row_bus(v, kr));
	pcibw_jw_close(w, '}');
	key_num(w, "size_min", gr->size_min);
	key_num(w, "size_max", gr->size_max);
	pcibw_jw_key(w, "rows");
	pcibw_jw_open(w, '[');
	int rc = 0;
	for (int k = 0; k < gr->n_rows && !rc; k++) {
		pcibw_jw_item(w);
		pcibw_jw_int(w, gr->rows[k]);
		if (w->len >= 1 << 16) /* written as it goes: the writer keeps its place */
			rc = pcibw_jw_drain(w, out);
	}
	pcibw_jw_close(w, ']');
	key_str(w, "verdict", pcibw_verdict_name(gr->verdict));
	put_limits(w, gr->representative >= 0 ? v->rows->v[gr->representative].limits : 0);
	pcibw_jw_key(w, "evidence");
	put_strings(w, gr->evidence, gr->n_evidence);
	pcibw_jw_key(w, "reasons");
	pcibw_jw_reasons(w, gr->reasons, gr->n_reasons);
	/* the figures behind the evidence's TCP window line: its representative row's */
	if (gr->representative >= 0) {
		tcp_path(w, &v->rows->v[gr->representative]);
	} else {
		pcibw_jw_key(w, "tcp_path");
		pcibw_jw_null(w);
	}
	pcibw_jw_close(w, '}');
	return rc || pcibw_jw_write(w, out);
}

/* rows[i], at depth 2 */
static int put_row(FILE *out, int i, void *ctx)
{
	struct put_ctx *c = ctx;
	pcibw_jw_reset(&c->w, 2);
	row_json(&c->w, c->v, &c->v->rows->v[i]);
	return pcibw_jw_write(&c->w, out);
}

/*
 * The document is jansson's own dump of the whole object (two-space indent, keys in order), but
 * the groups and the rows go out one at a time: the head is dumped with their arrays empty and
 * each element is built, written and freed where its array stands. Memory holds the rows the
 * verdict judged and one element's tree, not the document's.
 */
int pcibw_analyze_render_json(FILE *out, const struct pcibw_analyze_view *v)
{
	json_t *root = json_object();
	json_object_set_new(root, "pcibw_version", json_string(PCIBW_VERSION));
	json_object_set_new(root, "verdict", json_string(pcibw_verdict_name(v->summary->verdict)));
	json_object_set_new(root, "evidence", strings(v->summary->evidence, v->summary->n_evidence));
	json_object_set_new(root, "reasons", pcibw_json_reasons(v->summary->reasons, v->summary->n_reasons));
	json_object_set_new(root, "bus", str_or_null(v->bus_spec));
	json_object_set_new(root, "bus_from", str_or_null(v->bus_from));
	json_object_set_new(root, "virtual", json_boolean(v->machine->bus_virtual));
	json_object_set_new(root, "nic", str_or_null(v->nic));
	json_object_set_new(root, "pattern", str_or_null(v->pattern));
	json_object_set_new(root, "size_is", str_or_null(v->size_is));
	json_object_set_new(root, "line_rate_gbps",
			    v->machine->line_rate_gbps > 0 ? json_real(v->machine->line_rate_gbps)
							   : json_null());
	json_object_set_new(root, "cpus",
			    v->machine->cpus > 0 ? json_integer(v->machine->cpus) : json_null());
	json_object_set_new(root, "cpu_mhz", num(v->machine->cpu_mhz));
	json_object_set_new(root, "skipped_lines", json_integer(v->skipped));
	json_t *ins = json_array();
	for (int i = 0; i < v->n_inputs; i++) {
		const struct pcibw_analyze_input *in = &v->inputs[i];
		json_t *o = json_object();
		json_object_set_new(o, "file", safe_string(in->path));
		json_object_set_new(o, "format", json_string(pcibw_format_name(in->stats.format)));
		json_object_set_new(o, "rows", json_integer(in->stats.rows));
		json_object_set_new(o, "lines", json_integer(in->stats.lines));
		json_object_set_new(o, "skipped_lines", json_integer(in->stats.skipped));
		json_object_set_new(o, "first_skipped", str_or_null(in->stats.first_skip));
		json_t *notes = json_array();
		for (int k = 0; k < in->stats.n_notes; k++)
			json_array_append_new(notes, safe_string(in->stats.notes[k]));
		json_object_set_new(o, "notes", notes);
		json_t *cols = json_array();
		for (int k = 0; k < in->stats.n_columns; k++) {
			json_t *c = json_object();
			json_object_set_new(c, "header", safe_string(in->stats.columns[k].header));
			json_object_set_new(c, "use", str_or_null(in->stats.columns[k].use));
			json_array_append_new(cols, c);
		}
		json_object_set_new(o, "columns", cols);
		if (in->stats.cpu.valid)
			json_object_set_new(o, "cpu", cpu_sample(&in->stats.cpu));
		json_object_set_new(o, "warnings", strings_fixed(in->stats.warnings, in->stats.n_warnings));
		json_array_append_new(ins, o);
	}
	json_object_set_new(root, "inputs", ins);
	/* the --cpu-from file is no input row source, but the CPU of rows came from it */
	json_t *cf = json_null();
	if (v->cpu_from) {
		cf = cpu_sample(v->cpu_from);
		json_object_set_new(cf, "file", safe_string(v->cpu_from->source));
	}
	json_object_set_new(root, "cpu_from", cf);
	json_t *counts = json_object();
	for (int k = 0; k < PCIBW_V_N; k++)
		json_object_set_new(counts, pcibw_verdict_name((enum pcibw_verdict)k),
				    json_integer(v->summary->counts[k]));
	json_object_set_new(root, "counts", counts);
	/* the rows holding the headline verdict (0-based): fewer than half of all, the headline
	 * says so; they, the groups and the rows go out one at a time where their empty arrays
	 * stand (put_verdict_row, put_group, put_row) */
	int n_vr = 0;
	for (int i = 0; i < v->rows->n; i++)
		n_vr += v->rows->v[i].verdict == v->summary->verdict;
	json_object_set_new(root, "verdict_rows", json_array());
	json_object_set_new(root, "groups", json_array());
	json_object_set_new(root, "rows", json_array());
	pcibw_json_warnings(root, v->warnings, v->warning_codes, v->n_warnings);
	json_t *sm = json_array();
	for (int i = 0; i < v->n_series; i++) {
		const struct pcibw_resolved *r = &v->series[i].res;
		json_t *x = json_object();
		json_object_set_new(x, "iface", safe_string(v->series[i].iface));
		json_object_set_new(x, "bus", r->have_bus ? json_string(r->bus_spec) : json_null());
		json_object_set_new(x, "bus_from", safe_string(r->bus_from));
		json_object_set_new(x, "nic", json_string(r->nic_name));
		json_object_set_new(x, "line_rate_gbps",
				    r->in.line_rate_gbps > 0 ? json_real(r->in.line_rate_gbps) : json_null());
		json_array_append_new(sm, x);
	}
	json_object_set_new(root, "iface_machines", sm);
	struct put_ctx c = {.v = v};
	const struct pcibw_json_slot slots[] = {
	    {"verdict_rows", n_vr, put_verdict_row, &c},
	    {"groups", v->summary->n_groups, put_group, &c},
	    {"rows", v->rows->n, put_row, &c},
	};
	int r = pcibw_json_stream_at(out, root, DUMP_FLAGS, 0, slots, 3);
	json_decref(root);
	pcibw_jw_free(&c.w);
	if (r == 0 && fputc('\n', out) == EOF)
		r = -1;
	return r || ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw analyze --format json`, built with jansson. Contract keys (doc/cli-contract.md
 * "analyze JSON") plus the ones doc/json.md lists; every key is present, null when unknown. */
#include "analyze_render.h"
#include "json_reasons.h"
#include "json_warnings.h"
#include "pcibw/measure.h"
#include "pcibw/nic.h"
#include "pcibw/version.h"
#include <jansson.h>
#include <math.h>

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *strings(char *const *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *strings_fixed(const char (*v)[320], int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/* the bus spec a row was set against: its interface's or stated machine's, else the run's; null
 * with none (a virtual NIC has no bus ceiling) */
static json_t *row_bus(const struct pcibw_analyze_view *v, const struct pcibw_row *r)
{
	for (int k = 0; r->machine && k < v->n_series; k++)
		if (r->machine == &v->series[k].machine)
			return r->machine->have_bus ? json_string(v->series[k].res.bus_spec) : json_null();
	return v->machine->have_bus ? str_or_null(v->bus_spec) : json_null();
}

/* tcp_path: a TCP row's window bound and the figures behind it (doc/cli-contract.md "analyze
 * JSON"); null for a row without them */
static json_t *tcp_path_json(const struct pcibw_row *r)
{
	const struct pcibw_tcp_path *p = &r->tcp_path;
	if (!r->tcp || !pcibw_tcp_path_known(p))
		return json_null();
	bool sampled = p->samples > 0 && p->window_gbps > 0;
	json_t *o = json_object();
	json_object_set_new(o, "window_bound_gbps", num(sampled ? p->window_gbps : p->max_window_gbps));
	json_object_set_new(o, "window_bound_from", json_string(sampled ? "samples" : "max_snd_cwnd"));
	json_object_set_new(o, "measured_share", num(r->tcp_window_share));
	json_object_set_new(o, "limit", json_boolean(r->tcp_limit));
	json_object_set_new(o, "samples", json_integer(p->samples));
	json_object_set_new(o, "mean_window_bytes", num(p->window_bytes));
	json_object_set_new(o, "window_of",
			    sampled ? json_string(p->rwnd_limited ? "snd_wnd" : "snd_cwnd") : json_null());
	json_object_set_new(o, "max_snd_cwnd_bytes", num(p->max_cwnd_bytes));
	json_object_set_new(o, "max_window_gbps", num(p->max_window_gbps));
	json_object_set_new(o, "rtt_mean_us", num(p->rtt_us));
	json_object_set_new(o, "rtt_min_us", num(p->rtt_min_us));
	json_object_set_new(o, "rtt_max_us", num(p->rtt_max_us));
	json_object_set_new(o, "rttvar_mean_us", num(p->rttvar_us));
	json_object_set_new(o, "retransmits", num(p->retransmits));
	json_object_set_new(o, "segments", num(p->segments));
	json_object_set_new(o, "pmtu_bytes", num(p->pmtu));
	return o;
}

/* limits: every resource at or above its threshold, in the verdict order */
static json_t *limits_json(unsigned limits)
{
	const char *names[PCIBW_RES_N];
	int n = pcibw_limits_names(limits, names, PCIBW_RES_N);
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_string(names[i]));
	return a;
}

static json_t *row_json(const struct pcibw_analyze_view *v, const struct pcibw_row *r, const char *size_is)
{
	json_t *o = json_object();
	json_object_set_new(o, "source", json_string(r->source));
	json_object_set_new(o, "series", str_or_null(r->series));
	json_object_set_new(o, "iface", str_or_null(r->iface));
	json_object_set_new(o, "line", r->first_line ? json_integer(r->first_line) : json_null());
	json_object_set_new(o, "test", str_or_null(r->test));
	json_object_set_new(o, "size_bytes", num(r->size_bytes));
	json_object_set_new(o, "size_is",
			    json_string(r->size_conv == PCIBW_SIZE_OPTION ? size_is
					: r->size_conv == PCIBW_SIZE_WRITE
					    ? "tcp-write"
					    : pcibw_size_is_name(r->size_conv)));
	json_object_set_new(o, "direction", json_string(pcibw_analyze_pattern_name(r->pattern)));
	json_object_set_new(o, "concurrent", json_boolean(r->concurrent));
	json_object_set_new(o, "poll_mode",
			    r->poll_mode == PCIBW_NULL ? json_null() : json_boolean(r->poll_mode));
	json_object_set_new(o, "input_size_bytes", num(r->input_size_bytes));
	json_object_set_new(o, "tcp_segment_bytes", num(r->segment_bytes));
	json_object_set_new(o, "ip_fragments", r->fragments ? json_integer(r->fragments) : json_null());
	json_object_set_new(o, "work", num(r->work));
	json_object_set_new(o, "cpu_mhz", num(r->cpu_mhz));
	json_object_set_new(o, "cores", num(r->cores));
	json_object_set_new(o, "queues", num(r->queues));
	json_object_set_new(o, "threads", num(r->threads));
	json_object_set_new(o, "streams", num(r->streams));
	json_object_set_new(o, "count", json_integer(r->count));
	json_object_set_new(o, "measured_gbps", num(r->gbps));
	json_object_set_new(o, "measured_mpps", num(r->pps / 1e6));
	json_object_set_new(o, "bus_gbps", num(r->bus_gbps));
	json_object_set_new(o, "bus_mpps", num(r->bus_mpps));
	json_object_set_new(o, "bus_utilisation", num(r->bus_util));
	json_object_set_new(o, "bus_gbps_low", num(r->bus_gbps_low));
	json_object_set_new(o, "bus_gbps_high", num(r->bus_gbps_high));
	json_object_set_new(o, "bus_mpps_low", num(r->bus_mpps_low));
	json_object_set_new(o, "bus_mpps_high", num(r->bus_mpps_high));
	json_object_set_new(o, "bus_utilisation_low", num(r->bus_util_low));
	json_object_set_new(o, "bus_utilisation_high", num(r->bus_util_high));
	json_object_set_new(o, "bus_bound_by", str_or_null(r->bound_by));
	json_object_set_new(o, "bus_modelled", row_bus(v, r));
	/* pcie-bench sweeps: the per-size error of the model (measured / model - 1) */
	json_object_set_new(o, "model_error",
			    r->pattern >= PCIBW_PAT_DMA_READ ? num(r->bus_util - 1) : json_null());
	json_object_set_new(o, "wire_gbps", num(r->wire_gbps));
	json_object_set_new(o, "wire_utilisation", num(r->wire_util));
	json_object_set_new(o, "cpu_utilisation", num(r->cpu_util));
	json_object_set_new(o, "core_max_utilisation", num(r->core_util));
	json_object_set_new(o, "remote_cpu_utilisation", num(r->remote_util));
	json_object_set_new(o, "cycles_per_packet", num(r->cycles_per_packet));
	json_object_set_new(o, "service_demand_us_per_kb", num(r->sd_us_per_kb));
	json_object_set_new(o, "elasticity", num(r->elasticity));
	json_object_set_new(o, "elasticity_of",
			    isnan(r->elasticity) ? json_null() : json_string(r->elasticity_of));
	json_object_set_new(o, "per_packet_limit", json_boolean(r->per_packet));
	json_object_set_new(o, "tcp_path", tcp_path_json(r));
	json_object_set_new(o, "verdict", json_string(pcibw_verdict_name(r->verdict)));
	json_object_set_new(o, "limits", limits_json(r->limits));
	json_object_set_new(o, "evidence", strings(r->evidence, r->n_evidence));
	json_object_set_new(o, "reasons", pcibw_json_reasons(r->reasons, r->n_reasons));
	return o;
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
		json_object_set_new(o, "file", json_string(in->path));
		json_object_set_new(o, "format", json_string(pcibw_format_name(in->stats.format)));
		json_object_set_new(o, "rows", json_integer(in->stats.rows));
		json_object_set_new(o, "lines", json_integer(in->stats.lines));
		json_object_set_new(o, "skipped_lines", json_integer(in->stats.skipped));
		json_object_set_new(o, "first_skipped", str_or_null(in->stats.first_skip));
		json_t *notes = json_array();
		for (int k = 0; k < in->stats.n_notes; k++)
			json_array_append_new(notes, json_string(in->stats.notes[k]));
		json_object_set_new(o, "notes", notes);
		json_t *cols = json_array();
		for (int k = 0; k < in->stats.n_columns; k++) {
			json_t *c = json_object();
			json_object_set_new(c, "header", json_string(in->stats.columns[k].header));
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
		json_object_set_new(cf, "file", json_string(v->cpu_from->source));
	}
	json_object_set_new(root, "cpu_from", cf);
	json_t *counts = json_object();
	for (int k = 0; k < PCIBW_V_N; k++)
		json_object_set_new(counts, pcibw_verdict_name((enum pcibw_verdict)k),
				    json_integer(v->summary->counts[k]));
	json_object_set_new(root, "counts", counts);
	/* the rows holding the headline verdict (0-based): fewer than half of all, the headline says so */
	json_t *vr = json_array();
	for (int i = 0; i < v->rows->n; i++)
		if (v->rows->v[i].verdict == v->summary->verdict)
			json_array_append_new(vr, json_integer(i));
	json_object_set_new(root, "verdict_rows", vr);
	json_t *groups = json_array();
	for (int g = 0; g < v->summary->n_groups; g++) {
		const struct pcibw_group *gr = &v->summary->groups[g];
		const struct pcibw_row *kr = &v->rows->v[gr->key_row];
		json_t *o = json_object(), *key = json_object(), *idx = json_array();
		json_object_set_new(key, "source", json_string(kr->source));
		json_object_set_new(key, "series", str_or_null(kr->series));
		json_object_set_new(key, "test", str_or_null(kr->test));
		/* two interfaces' groups have keys of their own, not two alike */
		json_object_set_new(key, "iface", str_or_null(kr->iface));
		json_object_set_new(key, "direction", json_string(pcibw_analyze_pattern_name(kr->pattern)));
		/* the machine is part of the key: the rows after a link retrained group apart */
		json_object_set_new(key, "bus_modelled", row_bus(v, kr));
		json_object_set_new(o, "key", key);
		json_object_set_new(o, "size_min", num(gr->size_min));
		json_object_set_new(o, "size_max", num(gr->size_max));
		for (int k = 0; k < gr->n_rows; k++)
			json_array_append_new(idx, json_integer(gr->rows[k]));
		json_object_set_new(o, "rows", idx);
		json_object_set_new(o, "verdict", json_string(pcibw_verdict_name(gr->verdict)));
		json_object_set_new(
		    o, "limits",
		    limits_json(gr->representative >= 0 ? v->rows->v[gr->representative].limits : 0));
		json_object_set_new(o, "evidence", strings(gr->evidence, gr->n_evidence));
		json_object_set_new(o, "reasons", pcibw_json_reasons(gr->reasons, gr->n_reasons));
		/* the figures behind the evidence's TCP window line: its representative row's */
		json_object_set_new(o, "tcp_path",
				    gr->representative >= 0 ? tcp_path_json(&v->rows->v[gr->representative])
							    : json_null());
		json_array_append_new(groups, o);
	}
	json_object_set_new(root, "groups", groups);
	json_t *rows = json_array();
	for (int i = 0; i < v->rows->n; i++)
		json_array_append_new(rows, row_json(v, &v->rows->v[i], v->size_is));
	json_object_set_new(root, "rows", rows);
	pcibw_json_warnings(root, v->warnings, v->warning_codes, v->n_warnings);
	json_t *sm = json_array();
	for (int i = 0; i < v->n_series; i++) {
		const struct pcibw_resolved *r = &v->series[i].res;
		json_t *x = json_object();
		json_object_set_new(x, "iface", json_string(v->series[i].iface));
		json_object_set_new(x, "bus", r->have_bus ? json_string(r->bus_spec) : json_null());
		json_object_set_new(x, "bus_from", json_string(r->bus_from));
		json_object_set_new(x, "nic", json_string(r->nic_name));
		json_object_set_new(x, "line_rate_gbps",
				    r->in.line_rate_gbps > 0 ? json_real(r->in.line_rate_gbps) : json_null());
		json_array_append_new(sm, x);
	}
	json_object_set_new(root, "iface_machines", sm);
	int r = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (r == 0 && fputc('\n', out) == EOF)
		r = -1;
	return r ? PCIBW_EINTERNAL : PCIBW_OK;
}

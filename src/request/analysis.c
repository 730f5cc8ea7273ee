/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analyze's pipeline below the command line: read the inputs, group the rows, give each the
 * model's bus ceiling and the wire's, run the verdict. No output here.
 */
#include "pcibw/request.h"
#include "pcibw/words.h"
#include "stated.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes one packet of r counts in its rate basis: its own convention's, or a named layer's. */
static double basis_bytes(const struct pcibw_row *r, enum pcibw_size_is s)
{
	switch (r->gbps_basis) {
	case PCIBW_BASIS_SIZE:
		return r->size_bytes;
	case PCIBW_BASIS_WIRE:
		return pcibw_wire_bytes(pcibw_frame_bytes(r->size_bytes, s));
	case PCIBW_BASIS_FRAME:
		return pcibw_frame_bytes(r->size_bytes, s);
	case PCIBW_BASIS_L3:
		return pcibw_size_bytes_as(r->size_bytes, s, PCIBW_SIZE_L3);
	case PCIBW_BASIS_PAYLOAD:
		return pcibw_size_bytes_as(r->size_bytes, s, PCIBW_SIZE_UDP_PAYLOAD);
	}
	return NAN;
}

void pcibw_rows_ceilings(struct pcibw_rows *rs, const struct pcibw_resolved *res)
{
	for (int i = 0; i < rs->n; i++)
		pcibw_row_ceilings(&rs->v[i], res);
}

/* An estimate, not physics: the NIC profile's device limits (read-request tags over read latency,
 * transactions per second) and the root complex's whole-cache-line charge, which are models of
 * one device and one host; the link directions and a PCI/PCI-X segment's clocks are not. */
static bool estimate(const struct pcibw_model_loads *l, int k)
{
	return !l->bus[k] || !strcmp(l->name[k], "root-complex");
}

/*
 * A measurement above an estimate refutes the estimate, never the measurement: the row is then
 * set against the physical resources alone (the busiest link direction or segment), and says
 * which estimate the device or host beat, so that a model too pessimistic for a device or a
 * root complex never calls a real figure impossible. Above the physical ceiling, the row stays
 * as it is.
 */
static void estimate_refuted(struct pcibw_row *r, const struct pcibw_model_in *in)
{
	if (isnan(r->gbps) || !(r->bus_gbps > 0) || r->gbps <= r->bus_gbps)
		return;
	struct pcibw_model_loads l;
	struct pcibw_err e = {0};
	if (pcibw_model_loads(in, r->size_bytes, &l, &e) || l.n == 0)
		return;
	double est = 0, phys = 0;
	const char *est_name = NULL, *phys_name = NULL;
	for (int k = 0; k < l.n; k++) {
		if (estimate(&l, k) && l.s[k] > est)
			est = l.s[k], est_name = l.name[k];
		if (!estimate(&l, k) && l.s[k] > phys)
			phys = l.s[k], phys_name = l.name[k];
	}
	if (!(est > phys) || !(phys > 0) || !r->bound_by || strcmp(r->bound_by, est_name))
		return; /* a physical resource binds: the measurement is judged against it */
	double was = r->bus_gbps, scale = est / phys;
	r->bus_gbps *= scale;
	r->bus_mpps *= scale;
	r->bound_by = phys_name;
	/* the words name the estimate (name) and the link the row is now set against (bound_by) */
	struct pcibw_reason *x =
	    pcibw_row_reason(r, false, PCIBW_R_ESTIMATE_EXCEEDED,
			     !strcmp(est_name, "root-complex") ? PCIBW_RES_ROOT_COMPLEX : PCIBW_RES_NIC,
			     r->gbps, was, r->gbps / was, NAN, "Gbit/s");
	if (x)
		snprintf(x->name, sizeof x->name, "%s", est_name);
}

void pcibw_row_ceilings(struct pcibw_row *r, const struct pcibw_resolved *res)
{
	{
		enum pcibw_pattern pat =
		    r->direction != PCIBW_DIR_UNSET ? (enum pcibw_pattern)r->direction : res->in.pattern;
		r->pattern = (int)pat;
		bool sized = r->size_conv != PCIBW_SIZE_WRITE && !isnan(r->size_bytes);
		enum pcibw_size_is s = !sized				   ? r->size_conv
				       : r->size_conv == PCIBW_SIZE_OPTION ? res->in.size_is
									   : r->size_conv;
		if (sized) {
			r->packet_bytes = r->size_bytes;
			r->basis_bytes = basis_bytes(r, s);
		}
		pcibw_row_rates(r);
		double mpps, gbps;
		pcibw_wire_ceiling(sized ? r->size_bytes : NAN, sized ? s : PCIBW_SIZE_WRITE, pat,
				   res->in.line_rate_gbps, &mpps, &gbps);
		if (!isnan(gbps))
			r->wire_gbps = gbps;
		if (!isnan(mpps))
			r->wire_mpps = mpps;
		if (!sized || !res->have_bus || res->bus.kind == PCIBW_BUS_VIRTUAL)
			return;
		struct pcibw_model_in in = res->in;
		in.pattern = pat;
		in.size_is = s;
		in.line_rate_gbps = 0;
		struct pcibw_model_row mr;
		struct pcibw_err e = {0};
		if (pcibw_model_eval(&in, r->size_bytes, &mr, &e) == PCIBW_OK) {
			r->bus_mpps = mr.bus_mpps;
			r->bus_gbps = mr.bus_gbps;
			r->bus_mpps_low = mr.bus_mpps_low, r->bus_mpps_high = mr.bus_mpps_high;
			r->bus_gbps_low = mr.bus_gbps_low, r->bus_gbps_high = mr.bus_gbps_high;
			r->bound_by = mr.bound_by;
			estimate_refuted(r, &in);
			/* set against the link alone, the band still holds the ceiling */
			r->bus_mpps_low = fmin(r->bus_mpps_low, r->bus_mpps);
			r->bus_gbps_low = fmin(r->bus_gbps_low, r->bus_gbps);
			r->bus_mpps_high = fmax(r->bus_mpps_high, r->bus_mpps);
			r->bus_gbps_high = fmax(r->bus_gbps_high, r->bus_gbps);
		} else {
			snprintf(r->model_note, sizeof r->model_note, "%.200s", e.msg);
		}
	}
}

/* Inputs that state a machine per interface, or again mid-file: those rows get theirs. */
static int series_machines(const struct pcibw_request *req, const struct stated *sd,
			   struct pcibw_analysis *out, struct pcibw_err *err)
{
	int st, total = sd->n;
	/* counted first: a resolution points into itself and is never moved */
	for (int k = 0; k < sd->n_lead; k++)
		total += sd->lead[k].d.iface[0] != '\0';
	if (!total)
		return PCIBW_OK;
	if (!(out->series = calloc((size_t)total, sizeof *out->series)))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	for (int k = 0; k < sd->n_lead && out->n_series < total; k++) {
		const struct stated_machine *l = &sd->lead[k];
		if (!l->d.iface[0])
			continue;
		struct pcibw_series_machine *sm = &out->series[out->n_series];
		sm->path = req->files[l->file];
		snprintf(sm->iface, sizeof sm->iface, "%s", l->d.iface);
		st = pcibw_request_resolve_defaults(req, &l->d, &sm->res, err);
		out->n_series++;
		if (st)
			return st;
		pcibw_machine_of(&sm->res, &sm->machine);
	}
	for (int k = 0; k < sd->n && out->n_series < total; k++) {
		struct pcibw_series_machine *sm = &out->series[out->n_series++];
		sm->path = req->files[sd->v[k].file];
		sm->machine_no = sd->v[k].no;
		snprintf(sm->iface, sizeof sm->iface, "%s", sd->v[k].d.iface);
		if ((st = pcibw_request_resolve_defaults(req, &sd->v[k].d, &sm->res, err)))
			return st;
		pcibw_machine_of(&sm->res, &sm->machine);
	}
	if (!out->n_series)
		return PCIBW_OK;
	/* the rows are in place now: the machines may be pointed at */
	for (int i = 0; i < out->rows.n; i++) {
		struct pcibw_row *row = &out->rows.v[i];
		for (int k = 0; k < out->n_series; k++) {
			const struct pcibw_series_machine *sm = &out->series[k];
			if (row->machine_no != sm->machine_no ||
			    (sm->iface[0] && strcmp(row->iface, sm->iface)) || strcmp(row->source, sm->path))
				continue;
			pcibw_row_ceilings(row, &sm->res);
			row->machine = &sm->machine;
			break;
		}
	}
	struct pcibw_machine *ms = calloc((size_t)(unsigned)out->n_series + 1, sizeof *ms);
	if (!ms)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	for (int k = 0; k < out->n_series; k++)
		ms[k] = out->series[k].machine;
	pcibw_machine_merge(ms, out->n_series, &out->machine);
	free(ms);
	return PCIBW_OK;
}

struct reading {
	struct pcibw_rows *rows;
	struct stated *stated;
};

static int add_row(const struct pcibw_measured *m, void *ctx, struct pcibw_err *err)
{
	struct reading *rd = ctx;
	unsigned no = request_stated_no(rd->stated, m->iface);
	if (!no)
		return pcibw_rows_add(rd->rows, m, err);
	struct pcibw_measured c = *m;
	c.machine_no = no;
	return pcibw_rows_add(rd->rows, &c, err);
}

static int read_inputs(const struct pcibw_request *req, struct stated *sd, struct pcibw_analysis *out,
		       struct pcibw_err *err)
{
	struct pcibw_ingest_opts o = req->ingest;
	o.on_bus_line = request_stated_line;
	o.on_bus_ctx = sd;
	struct reading rd = {.rows = &out->rows, .stated = sd};
	int st;
	for (int i = 0; i < req->n_files; i++) {
		out->inputs[i].path = req->files[i];
		request_stated_next_file(sd, i);
		if ((st = pcibw_ingest_file(req->files[i], &o, add_row, &rd, &out->inputs[i].stats, err)))
			return st;
		out->skipped += out->inputs[i].stats.skipped;
	}
	return PCIBW_OK;
}

static int analyze_rows(const struct pcibw_request *req, const struct pcibw_resolved *r,
			const struct stated *sd, struct pcibw_analysis *out, struct pcibw_err *err);

/* --cpu-from fills the rows that measured no host CPU (none, or one process's as iperf3's): when
 * every row measured the host itself, the file changed nothing, and the user who gave it is told
 * so rather than left to assume it was used. */
static void cpu_from_unused(const struct pcibw_request *req, struct pcibw_analysis *out)
{
	for (int i = 0; i < out->rows.n; i++)
		if (out->rows.v[i].cpu_from == &out->cpu_from)
			return;
	struct pcibw_ingest_stats *st = &out->inputs[0].stats;
	if (st->n_notes >= (int)(sizeof st->notes / sizeof st->notes[0]))
		return;
	snprintf(st->notes[st->n_notes++], sizeof st->notes[0],
		 "--cpu-from %s not used: every row measured the host's CPU in its own columns (of two "
		 "host figures the row's own wins)",
		 req->cpu_from);
}

int pcibw_request_analyze(const struct pcibw_request *req, const struct pcibw_resolved *r,
			  struct pcibw_analysis *out, struct pcibw_err *err)
{
	memset(out, 0, sizeof *out);
	pcibw_machine_of(r, &out->machine);
	out->inputs = calloc((size_t)req->n_files + 1, sizeof *out->inputs);
	if (!out->inputs)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	out->n_inputs = req->n_files;
	struct stated *sd = calloc(1, sizeof *sd);
	if (!sd)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	int st = read_inputs(req, sd, out, err);
	if (!st)
		st = analyze_rows(req, r, sd, out, err);
	request_stated_free(sd);
	free(sd);
	return st;
}

static int analyze_rows(const struct pcibw_request *req, const struct pcibw_resolved *r,
			const struct stated *sd, struct pcibw_analysis *out, struct pcibw_err *err)
{
	int st;
	if (out->rows.n == 0) {
		const struct pcibw_ingest_stats *s0 = req->n_files ? &out->inputs[0].stats : NULL;
		if (s0 && !out->skipped && s0->header_line && !s0->lines)
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%u: no measured rows: the header on this line is followed by "
					  "no data line (expected one line of values per measurement under "
					  "it)%s",
					  req->files[0], s0->header_line,
					  req->n_files > 1 ? "; the other inputs gave no rows either" : "");
		const char *first = "";
		for (int i = 0; i < req->n_files && !first[0]; i++)
			first = out->inputs[i].stats.first_skip;
		return pcibw_fail(err, PCIBW_EINPUT, "%s%s: no measured rows (every line was skipped%s%s)",
				  req->n_files ? req->files[0] : "-",
				  req->n_files > 1 ? " and the other inputs" : "",
				  first[0] ? "; first: " : "", first);
	}
	pcibw_rows_finish(&out->rows);
	pcibw_rows_packets(&out->rows, req->mtu, req->size_is);
	/* the run's CPU from a sysstat report, for rows that measured none */
	if (req->cpu_from && (st = pcibw_cpustat_read(req->cpu_from, &out->cpu_from, err)))
		return st;
	pcibw_rows_cpu(&out->rows, &out->cpu_from);
	if (req->cpu_from && req->n_files > 0)
		cpu_from_unused(req, out);
	for (int i = 0; i < req->n_files; i++)
		pcibw_rows_cpu(&out->rows, &out->inputs[i].stats.cpu);
	pcibw_rows_ceilings(&out->rows, r);
	if ((st = series_machines(req, sd, out, err)))
		return st;
	if ((st = pcibw_verdict_run(&out->rows, &req->thresholds, &out->machine, &out->summary, err)))
		return st;
	pcibw_verdict_words(&out->rows, &out->machine, &out->summary);
	return PCIBW_OK;
}

void pcibw_analysis_free(struct pcibw_analysis *a)
{
	pcibw_summary_free(&a->summary);
	pcibw_rows_free(&a->rows);
	free(a->inputs);
	a->inputs = NULL;
	for (int k = 0; k < a->n_series; k++)
		pcibw_resolved_free(&a->series[k].res);
	free(a->series);
	a->series = NULL;
	a->n_series = 0;
	a->n_inputs = 0;
}

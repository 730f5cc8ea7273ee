/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw model --explain`: the bus operations behind each row, as text and as JSON arrays. */
#include "model_recipe.h"
#include <jansson.h>
#include <math.h>
#include <string.h>

static const char *path_name(enum pcibw_path p)
{
	return p == PCIBW_PATH_TX ? "tx" : "rx";
}

/* Why a read costs the completions it does: a bigger read can cost fewer (PCIe Base 5.0
 * sec. 2.3.1.1), which the bytes columns alone do not show. */
static void render_read_split(FILE *o, const struct pcibw_bus *b, const struct pcibw_explain_op *e)
{
	const struct pcibw_read_split *r = &e->read;
	double per = r->completions / r->requests;
	fprintf(o, "  %-16s %.4g request%s (mrrs %d B), %.4g completion%s per request, sized by %s\n", "",
		r->requests, r->requests == 1 ? "" : "s", b->mrrs_bytes, per, per == 1 ? "" : "s",
		pcibw_cpl_set_by_name(r->set_by));
	/* the completer sees a request's length: whether it coalesces is a count of RCB blocks */
	long k = pcibw_cpl_coalesce_blocks(b);
	fprintf(o, "  %-16s (", "");
	const char *sep = "";
	if (r->set_by & PCIBW_CPL_BY_RCB) {
		if (b->rcb_chunks)
			fprintf(o, "rcb_chunks: every completion one %d B rcb block", b->rcb_bytes);
		else
			fprintf(o,
				"a request over fewer than %ld rcb blocks of %d B: one completion per block",
				k, b->rcb_bytes);
		sep = "; ";
	}
	if (r->set_by & PCIBW_CPL_BY_MPS) {
		fprintf(o, "%sa request over %ld rcb blocks or more: pieces of mps, %d B", sep, k,
			b->mps_bytes);
		sep = "; ";
	}
	if (r->set_by & PCIBW_CPL_BY_MRRS)
		fprintf(o, "%sa request over %ld rcb blocks or more, mrrs no bigger than mps: one completion",
			sep, k);
	fprintf(o, ")\n");
}

/* What the byte columns count, which differs by bus (doc/model.md, doc/model-pci.md). */
static const char *total_unit(const struct pcibw_bus *b)
{
	switch (b->kind) {
	case PCIBW_BUS_PCIE:
		return b->flit ? "flit bytes: TLP bytes in 256 B flits of 236 TLP bytes; DLLPs, CRC and FEC "
				 "are in the flits"
			       : "TLP bytes; DLLPs and SKPs are in the link budget";
	case PCIBW_BUS_PCI:
	case PCIBW_BUS_PCIX:
		return "bus clocks x bytes per clock, every clock a transaction holds the bus; one "
		       "budget for both directions";
	default:
		return "no bus ceiling: a paravirtual device";
	}
}

void pcibw_model_render_recipe_text(FILE *o, const struct pcibw_model_view *v, int i)
{
	const struct pcibw_explain_op *ops = v->recipe + (size_t)i * v->recipe_max;
	double dev = 0, host = 0;
	fprintf(o, "  %-16s %8s %8s %10s %10s  %s\n", "operation", "bytes", "per pkt", "to-device", "to-host",
		"set by");
	for (int k = 0; k < v->recipe_n[i]; k++) {
		const struct pcibw_explain_op *e = &ops[k];
		char name[40];
		snprintf(name, sizeof name, "%s %s", path_name(e->op.path), pcibw_op_name(&e->op));
		fprintf(o, "  %-16s %8.1f %8.4g %10.3f %10.3f  %s%s\n", name, e->op.bytes, e->op.per_packet,
			e->to_device_bytes, e->to_host_bytes, e->knob ? "knob " : "",
			e->knob ? e->knob : e->op.keys);
		if (e->is_read_split)
			render_read_split(o, v->bus, e);
		dev += e->to_device_bytes;
		host += e->to_host_bytes;
	}
	fprintf(o, "  %-16s %8s %8s %10.3f %10.3f  (%s)\n", "total", "", "", dev, host, total_unit(v->bus));
}

/* Knob sources, once each, for the text output's last lines. */
void pcibw_model_render_recipe_sources(FILE *o, const struct pcibw_model_view *v)
{
	fprintf(o, "\nsources: profile %s: %s\n", v->nic->name, v->nic->source);
	for (int k = 0; k < v->nic->n_knobs; k++) {
		const struct pcibw_nic_knob *kn = &v->nic->knobs[k];
		fprintf(o, "  knob %s = %s (%s): %s\n", kn->name, kn->value, kn->why, kn->source);
	}
}

json_t *pcibw_model_recipe_json(const struct pcibw_model_view *v, int i)
{
	json_t *a = json_array();
	const struct pcibw_explain_op *ops = v->recipe + (size_t)i * v->recipe_max;
	for (int k = 0; k < v->recipe_n[i]; k++) {
		const struct pcibw_explain_op *e = &ops[k];
		const double bytes[2] = {e->to_device_bytes, e->to_host_bytes};
		static const char *const dirs[2] = {"to-device", "to-host"};
		char op[40];
		snprintf(op, sizeof op, "%s.%s", path_name(e->op.path), pcibw_op_name(&e->op));
		for (int d = 0; d < 2; d++) {
			if (!(bytes[d] > 0))
				continue;
			json_t *o = json_object();
			json_object_set_new(o, "op", json_string(op));
			json_object_set_new(o, "dir", json_string(dirs[d]));
			json_object_set_new(o, "bytes_per_packet", json_real(bytes[d]));
			json_object_set_new(o, "key", json_string(e->knob ? e->knob : e->op.keys));
			json_object_set_new(o, "source", json_string(e->source ? e->source : ""));
			if (e->is_read_split) {
				json_object_set_new(o, "read_requests", json_real(e->read.requests));
				json_object_set_new(o, "completions_per_request",
						    json_real(e->read.completions / e->read.requests));
				json_object_set_new(o, "completions_set_by",
						    json_string(pcibw_cpl_set_by_name(e->read.set_by)));
			}
			json_array_append_new(a, o);
		}
	}
	return a;
}

json_t *pcibw_model_nic_json(const struct pcibw_nic *n, json_t **knobs)
{
	json_t *ov = json_array();
	*knobs = json_object();
	for (int i = 0; i < n->n_overrides; i++)
		json_array_append_new(ov, json_string(n->overrides[i]));
	for (int i = 0; i < n->n_knobs; i++)
		json_object_set_new(*knobs, n->knobs[i].name, json_string(n->knobs[i].value));
	return ov;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw model --format json` (keys: doc/cli-contract.md "model JSON"; doc/json.md). */
#include "model_render.h"
#include "pcibw/version.h"
#include <jansson.h>
#include <math.h>

static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}
static json_t *jint(int v, bool known)
{
	return known ? json_integer(v) : json_null();
}

static json_t *bus_json(const struct pcibw_bus *b)
{
	char spec[160];
	bool e = b->kind == PCIBW_BUS_PCIE, s = b->kind == PCIBW_BUS_PCI || b->kind == PCIBW_BUS_PCIX;
	pcibw_bus_format(b, spec, sizeof spec);
	json_t *o = json_object();
	json_object_set_new(o, "spec", json_string(spec));
	json_object_set_new(o, "kind", json_string(pcibw_bus_kind_name(b->kind)));
	json_object_set_new(o, "raw_gbps", e || s ? jreal(pcibw_bus_raw_gbps(b)) : json_null());
	json_object_set_new(o, "gts", e ? json_real(b->gts) : json_null());
	json_object_set_new(o, "lanes", jint(b->lanes, e));
	json_object_set_new(o, "mps_bytes", jint(b->mps_bytes, e));
	json_object_set_new(o, "mrrs_bytes", jint(b->mrrs_bytes, e));
	json_object_set_new(o, "rcb_bytes", jint(b->rcb_bytes, e));
	json_object_set_new(o, "ecrc", e ? json_boolean(b->ecrc) : json_null());
	json_object_set_new(o, "flit", e ? json_boolean(b->flit) : json_null());
	json_object_set_new(o, "addr32", json_boolean(b->addr32));
	json_object_set_new(o, "clock_mhz", jint(b->clock_mhz, s));
	json_object_set_new(o, "width_bits", jint(b->width_bits, s));
	json_object_set_new(o, "mmrbc_bytes", jint(b->mmrbc_bytes, b->kind == PCIBW_BUS_PCIX));
	json_object_set_new(o, "splits", jint(b->splits, b->kind == PCIBW_BUS_PCIX));
	json_object_set_new(o, "latency_timer", jint(b->latency_timer, s));
	/* the Cache Line Size the PCI model prefetches delayed reads in (doc/model-pci.md) */
	json_object_set_new(o, "cacheline_bytes", jint(b->cacheline_bytes, s && b->cacheline_bytes > 0));
	return o;
}

int pcibw_model_render_json(FILE *out, const struct pcibw_model_view *v)
{
	json_t *root = json_object(), *rows = json_array(), *warn = json_array();
	json_object_set_new(root, "pcibw_version", json_string(PCIBW_VERSION));
	json_object_set_new(root, "bus", bus_json(v->bus));
	json_object_set_new(root, "bus_from", json_string(v->bus_from ? v->bus_from : "--bus"));
	json_object_set_new(root, "nic", json_string(v->nic->name));
	json_object_set_new(root, "pattern", json_string(pcibw_pattern_name(v->pattern)));
	json_object_set_new(root, "size_is", json_string(pcibw_size_is_name(v->size_is)));
	json_object_set_new(root, "line_rate_gbps",
			    v->line_rate_gbps > 0 ? json_real(v->line_rate_gbps) : json_null());
	json_object_set_new(root, "compat",
			    v->compat == PCIBW_COMPAT_PCIE_BENCH ? json_string("pcie-bench") : json_null());
	for (int i = 0; i < v->n; i++) {
		const struct pcibw_model_row *r = &v->rows[i];
		json_t *o = json_object();
		json_object_set_new(o, "size_bytes", json_real(r->size_bytes));
		json_object_set_new(o, "label",
				    v->labels && v->labels[i] ? json_string(v->labels[i]) : json_null());
		json_object_set_new(o, "bus_gbps", jreal(r->bus_gbps));
		json_object_set_new(o, "bus_mpps", jreal(r->bus_mpps));
		json_object_set_new(o, "wire_gbps", jreal(r->wire_gbps));
		json_object_set_new(o, "wire_mpps", jreal(r->wire_mpps));
		/* no ceiling at all (a virtual bus and no line rate): unknown, not "bus" */
		json_object_set_new(o, "limit",
				    !isfinite(r->bus_gbps) && !(v->line_rate_gbps > 0)
					? json_null()
					: json_string(r->limit == PCIBW_LIMIT_BUS ? "bus" : "wire"));
		json_object_set_new(o, "headroom_pct", jreal(pcibw_model_headroom_pct(r)));
		json_object_set_new(o, "to_device_bytes", jreal(r->to_device_bytes));
		json_object_set_new(o, "to_host_bytes", jreal(r->to_host_bytes));
		json_object_set_new(o, "bus_share", jreal(r->bus_share));
		json_object_set_new(o, "bus_ns_per_packet", jreal(r->bus_ns_per_packet));
		json_object_set_new(o, "cpu_stall_ns_per_packet", jreal(r->cpu_stall_ns_per_packet));
		json_object_set_new(o, "bound_by", r->bound_by ? json_string(r->bound_by) : json_null());
		json_array_append_new(rows, o);
	}
	json_object_set_new(root, "rows", rows);
	for (int i = 0; i < v->n_warnings; i++)
		json_array_append_new(warn, json_string(v->warnings[i]));
	json_object_set_new(root, "warnings", warn);
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_PRESERVE_ORDER);
	json_decref(root);
	fputc('\n', out);
	return rc || ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

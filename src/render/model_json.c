/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw model --format json` (keys: doc/cli-contract.md "model JSON"; doc/json.md). */
#include "json_stream.h"
#include "json_warnings.h"
#include "model_recipe.h"
#include "pcibw/version.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	static const char *const aspm[] = {"off", "l0s", "l1", "l0s-l1"};
	json_object_set_new(o, "aspm",
			    e && b->aspm >= 0 && b->aspm <= 3 ? json_string(aspm[b->aspm]) : json_null());
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

/*
 * A row as its keys in order and their values (any JSON, nested ones too). Numbers go in the
 * slot's own real, kept from row to row (json_real_set), so a sweep allocates no value per
 * number; other values are owned by the row and released after it is written.
 */
#define ROW_KEYS 24
struct row_fields {
	const char *key[ROW_KEYS];
	json_t *val[ROW_KEYS];
	bool owned[ROW_KEYS];
	json_t *real[ROW_KEYS];
	int n;
};

static void field(struct row_fields *f, const char *key, json_t *val)
{
	f->key[f->n] = key;
	f->owned[f->n] = true;
	f->val[f->n++] = val;
}

/* a number, or null when not finite */
static void field_num(struct row_fields *f, const char *key, double v)
{
	if (!isfinite(v)) {
		field(f, key, json_null());
		return;
	}
	json_t **r = &f->real[f->n];
	if (!*r)
		*r = json_real(v);
	else
		json_real_set(*r, v);
	f->key[f->n] = key;
	f->owned[f->n] = false;
	f->val[f->n++] = *r;
}

static void row_fields_release(struct row_fields *f)
{
	for (int k = 0; k < f->n; k++)
		if (f->owned[k])
			json_decref(f->val[k]);
	f->n = 0;
}

static void row_fields(const struct pcibw_model_view *v, int i, struct row_fields *f)
{
	const struct pcibw_model_row *r = &v->rows[i];
	field_num(f, "size_bytes", r->size_bytes);
	field(f, "label", v->labels && v->labels[i] ? json_string(v->labels[i]) : json_null());
	field_num(f, "bus_gbps", r->bus_gbps);
	field_num(f, "bus_mpps", r->bus_mpps);
	field_num(f, "bus_gbps_low", r->bus_gbps_low);
	field_num(f, "bus_gbps_high", r->bus_gbps_high);
	field_num(f, "bus_mpps_low", r->bus_mpps_low);
	field_num(f, "bus_mpps_high", r->bus_mpps_high);
	field_num(f, "wire_gbps", r->wire_gbps);
	field_num(f, "wire_mpps", r->wire_mpps);
	/* no ceiling at all (a virtual bus and no line rate): unknown, not "bus" */
	field(f, "limit",
	      !isfinite(r->bus_gbps) && !(v->line_rate_gbps > 0)
		  ? json_null()
		  : json_string(r->limit == PCIBW_LIMIT_BUS ? "bus" : "wire"));
	field_num(f, "headroom_pct", pcibw_model_headroom_pct(r));
	field_num(f, "to_device_bytes", r->to_device_bytes);
	field_num(f, "to_host_bytes", r->to_host_bytes);
	field_num(f, "bus_share", r->bus_share);
	field_num(f, "bus_ns_per_packet", r->bus_ns_per_packet);
	field_num(f, "cpu_stall_ns_per_packet", r->cpu_stall_ns_per_packet);
	field(f, "bound_by", r->bound_by ? json_string(r->bound_by) : json_null());
	if (v->recipe)
		field(f, "recipe", pcibw_model_recipe_json(v, i));
	if (v->band_terms)
		field(f, "band_terms", pcibw_model_band_json(v, i));
}

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_PRESERVE_ORDER)

/* A row's text, built whole and written with one fwrite. */
struct rowbuf {
	char *p;
	size_t len, cap;
};

static int reserve(struct rowbuf *b, size_t more)
{
	if (b->len + more <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more)
		cap *= 2;
	char *np = realloc(b->p, cap);
	if (!np)
		return -1;
	b->p = np;
	b->cap = cap;
	return 0;
}

static int append(struct rowbuf *b, const char *s, size_t n)
{
	if (reserve(b, n))
		return -1;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

/* One value, encoded by jansson at the end of b; a value spanning lines (an object or array)
 * gets `indent` more spaces on each new line (at most 16), so it lines up in the document. */
static int append_value(struct rowbuf *b, const json_t *val, int indent)
{
	size_t n;
	for (;;) {
		n = json_dumpb(val, b->p + b->len, b->cap - b->len, DUMP_FLAGS | JSON_ENCODE_ANY);
		if (!n)
			return -1;
		if (b->len + n <= b->cap)
			break;
		if (reserve(b, n))
			return -1;
	}
	char *v = b->p + b->len, *nl = memchr(v, '\n', n);
	if (!nl) {
		b->len += n;
		return 0;
	}
	/* rare: copy the dump out and put it back line by line */
	char *copy = malloc(n);
	if (!copy)
		return -1;
	memcpy(copy, v, n);
	static const char spaces[] = "                ";
	int rc = 0;
	for (size_t at = 0; at < n && !rc;) {
		const char *e = memchr(copy + at, '\n', n - at);
		size_t k = e ? (size_t)(e - (copy + at)) + 1 : n - at;
		rc = append(b, copy + at, k) || (e && append(b, spaces, (size_t)indent));
		at += k;
	}
	free(copy);
	return rc;
}

/*
 * One row object, laid out as jansson lays out an object at depth 2 (keys are fixed ASCII
 * names, so they need no escaping): building and dumping a whole jansson object per row costs
 * more than twice its values (hashing, key copies, a callback per token); the values are still
 * encoded by jansson.
 */
static int put_row(FILE *out, const struct row_fields *f, struct rowbuf *b)
{
	b->len = 0;
	int rc = append(b, "{", 1);
	for (int k = 0; k < f->n && !rc; k++) {
		rc = append(b, k ? ",\n      \"" : "\n      \"", k ? 9 : 8) ||
		     append(b, f->key[k], strlen(f->key[k])) || append(b, "\": ", 3) ||
		     (f->val[k] ? append_value(b, f->val[k], 6) : append(b, "null", 4));
	}
	rc = rc || append(b, "\n    }", 6);
	return rc || fwrite(b->p, 1, b->len, out) != b->len;
}

/* The row buffer and the fields' reals are reused from row to row. */
struct row_ctx {
	const struct pcibw_model_view *v;
	struct rowbuf b;
	struct row_fields f;
};

static int put_nth_row(FILE *out, int i, void *ctx)
{
	struct row_ctx *c = ctx;
	row_fields(c->v, i, &c->f);
	int rc = put_row(out, &c->f, &c->b);
	row_fields_release(&c->f);
	return rc;
}

/*
 * The document is jansson's own dump of the whole object (two-space indent, keys in order), but
 * the rows go out one at a time: the head (bus, inputs, warnings) is dumped with an empty
 * "rows" array, and each row is written and freed where that array stands. Memory stays
 * at one row's tree, however long the sweep.
 */
int pcibw_model_render_json(FILE *out, const struct pcibw_model_view *v)
{
	json_t *root = json_object();
	json_object_set_new(root, "pcibw_version", json_string(PCIBW_VERSION));
	json_object_set_new(root, "bus", bus_json(v->bus));
	json_object_set_new(root, "bus_from", json_string(v->bus_from ? v->bus_from : "--bus"));
	json_object_set_new(root, "nic", json_string(v->nic->name));
	json_t *knobs;
	json_object_set_new(root, "nic_overrides", pcibw_model_nic_json(v->nic, &knobs));
	json_object_set_new(root, "nic_knobs", knobs);
	json_object_set_new(root, "pattern", json_string(pcibw_pattern_name(v->pattern)));
	json_object_set_new(root, "size_is", json_string(pcibw_size_is_name(v->size_is)));
	json_object_set_new(root, "line_rate_gbps",
			    v->line_rate_gbps > 0 ? json_real(v->line_rate_gbps) : json_null());
	json_object_set_new(root, "compat",
			    v->compat == PCIBW_COMPAT_PCIE_BENCH ? json_string("pcie-bench") : json_null());
	json_object_set_new(root, "rows", json_array());
	pcibw_json_warnings(root, v->warnings, v->warning_codes, v->n_warnings);
	struct row_ctx c = {.v = v};
	int rc = pcibw_json_stream(out, root, DUMP_FLAGS, "rows", v->n, put_nth_row, &c);
	json_decref(root);
	for (int k = 0; k < ROW_KEYS; k++)
		json_decref(c.f.real[k]);
	free(c.b.p);
	return rc || ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

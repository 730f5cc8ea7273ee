/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw slots --json`: every key present, null when unknown (doc/json.md "slots"). */
#include "pcibw/version.h"
#include "report_parts.h"
#include "slots_render.h"
#include <jansson.h>
#include <math.h>
#include <string.h>

const char *pcibw_slot_port_type_name(int type)
{
	return type == PCI_EXP_TYPE_ROOT_PORT	 ? "root-port"
	       : type == PCI_EXP_TYPE_DOWNSTREAM ? "downstream-port"
						 : NULL;
}

static json_t *jint(int v)
{
	return v == PCIBW_NULL ? json_null() : json_integer(v);
}

static json_t *jreal(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* a string from a source that may not be UTF-8: bytes jansson refuses become '?' */
static json_t *jstr(const char *s)
{
	if (!s || !*s)
		return json_null();
	json_t *j = json_string(s);
	if (j)
		return j;
	char buf[300];
	size_t i = 0;
	for (; s[i] && i < sizeof buf - 1; i++)
		buf[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
	buf[i] = '\0';
	return json_string(buf);
}

static json_t *jbool3(int v)
{
	return v == PCIBW_NULL ? json_null() : json_boolean(v);
}

static json_t *slot_json(const struct pcibw_slots *s, const struct pcibw_slot *sl)
{
	json_t *o = json_object();
	json_object_set_new(o, "port", json_string(sl->port));
	json_object_set_new(o, "name", jstr(sl->name));
	json_object_set_new(o, "name_from", sl->name_from ? json_string(sl->name_from) : json_null());
	json_object_set_new(o, "physical_slot", jint(sl->physical_slot));
	json_object_set_new(o, "sysfs_name", jstr(sl->os_name));
	json_object_set_new(o, "smbios_designation", jstr(sl->smbios_name));
	const char *t = pcibw_slot_port_type_name(sl->port_type);
	json_object_set_new(o, "port_type", t ? json_string(t) : json_null());
	json_object_set_new(o, "slot_implemented", jbool3(sl->slot_implemented));
	json_object_set_new(o, "bus_kind", json_string(sl->kind_known ? "pcie" : "unknown"));
	json_object_set_new(o, "numa_node", jint(sl->numa_node));
	json_t *cap = json_object();
	json_object_set_new(cap, "speed_gts", jreal(sl->cap_gts));
	json_object_set_new(cap, "width", jint(sl->cap_width));
	json_object_set_new(cap, "from", sl->cap_from ? json_string(sl->cap_from) : json_null());
	json_object_set_new(o, "capability", cap);
	json_object_set_new(o, "link_speed_gts", jreal(sl->link_gts));
	json_object_set_new(o, "link_width", jint(sl->link_width));
	json_object_set_new(o, "empty", json_boolean(sl->empty));
	json_object_set_new(o, "link_cause", sl->link_cause ? json_string(sl->link_cause) : json_null());
	json_object_set_new(o, "parent_slot",
			    sl->parent_slot >= 0 ? json_string(s->v[sl->parent_slot].port) : json_null());
	json_t *path = json_array();
	for (int k = 0; k < sl->n_path; k++)
		json_array_append_new(path, render_hop_json(&sl->path[k]));
	json_object_set_new(o, "path", path);
	json_object_set_new(o, "path_gbps", jreal(sl->path_gbps));
	json_object_set_new(o, "path_bottleneck", jstr(sl->path_bottleneck));
	json_t *sh = json_array();
	for (int k = 0; k < sl->n_shared; k++) {
		const struct pcibw_slot_share *h = &sl->shared[k];
		json_t *e = render_hop_json(&h->link);
		json_t *others = json_array();
		for (int m = 0; m < h->n_others; m++)
			json_array_append_new(others, json_string(s->v[h->others[m]].port));
		json_object_set_new(e, "slots", others);
		json_array_append_new(sh, e);
	}
	json_object_set_new(o, "shared_with", sh);
	if (sl->n_occupants) {
		const struct pcibw_slot_occupant *oc = &sl->occupants[0];
		json_t *occ = json_object();
		json_object_set_new(occ, "slot", json_string(oc->slot));
		json_object_set_new(occ, "class",
				    oc->class_id == PCIBW_NULL
					? json_null()
					: json_sprintf("0x%04x", (unsigned)oc->class_id));
		json_object_set_new(occ, "name", jstr(oc->name));
		json_t *fns = json_array();
		for (int k = 0; k < sl->n_occupants; k++)
			json_array_append_new(fns, json_string(sl->occupants[k].slot));
		json_object_set_new(occ, "functions", fns);
		json_object_set_new(o, "occupant", occ);
	} else {
		json_object_set_new(o, "occupant", json_null());
	}
	json_object_set_new(o, "port_fit", render_port_fit_json(&sl->fit));
	json_object_set_new(o, "port_fit_why", s->card && !sl->fit.known ? jstr(sl->fit.why) : json_null());
	json_object_set_new(o, "rank", sl->rank ? json_integer(sl->rank) : json_null());
	return o;
}

int pcibw_slots_render_json(FILE *out, const struct pcibw_report *r, const struct pcibw_slots *s)
{
	json_t *root = json_object();
	json_object_set_new(root, "pcibw_version", json_string(PCIBW_VERSION));
	json_object_set_new(root, "source", jstr(r->source));
	json_t *w = json_array(), *codes = json_array();
	for (int i = 0; i < r->n_warnings; i++) {
		if (r->warnings[i].slot[0])
			continue; /* about one device: `pcibw report` says it */
		json_array_append_new(w, jstr(r->warnings[i].text));
		json_array_append_new(codes, json_string(r->warnings[i].code));
	}
	if (s->smbios_unmatched) {
		json_array_append_new(w,
				      json_sprintf("%d SMBIOS slot record%s name%s no port of the source "
						   "(its Bus Address is no port, no device below one and no "
						   "port's secondary bus)",
						   s->smbios_unmatched, s->smbios_unmatched == 1 ? "" : "s",
						   s->smbios_unmatched == 1 ? "s" : ""));
		json_array_append_new(codes, json_string("smbios-unmatched"));
	}
	json_object_set_new(root, "warnings", w);
	json_object_set_new(root, "warning_codes", codes);
	if (s->card) {
		json_t *c = json_object();
		json_object_set_new(c, "nic", json_string(s->nic));
		json_object_set_new(c, "ports", json_integer(s->ports));
		json_object_set_new(c, "line_rate_gbps", jreal(s->line_rate_gbps));
		json_object_set_new(c, "max_link_speed_gts", jreal(s->card_gts));
		json_object_set_new(c, "max_link_width", jint(s->card_width));
		json_object_set_new(c, "capability_from", jstr(s->card_from));
		json_object_set_new(root, "card", c);
		const struct pcibw_slot *b = s->n ? &s->v[s->order[0]] : NULL;
		bool carries = b && b->rank && b->fit.known && b->fit.ratio_1518 >= 1;
		json_object_set_new(root, "best", carries ? json_string(b->port) : json_null());
	} else {
		json_object_set_new(root, "card", json_null());
		json_object_set_new(root, "best", json_null());
	}
	json_t *arr = json_array();
	for (int k = 0; k < s->n; k++)
		json_array_append_new(arr, slot_json(s, &s->v[s->card ? s->order[k] : k]));
	json_object_set_new(root, "slots", arr);
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (rc || fputc('\n', out) == EOF)
		return PCIBW_EINTERNAL;
	return PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reasons as JSON (json_reasons.h). */
#include "json_reasons.h"
#include <math.h>

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

json_t *pcibw_json_reasons(const struct pcibw_reason *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++) {
		const struct pcibw_reason *x = &v[i];
		const char *res = pcibw_resource_name(x->resource);
		json_t *o = json_object();
		json_object_set_new(o, "code", json_string(pcibw_reason_code_name(x->code)));
		json_object_set_new(o, "resource", res ? json_string(res) : json_null());
		json_object_set_new(o, "value", num(x->value));
		json_object_set_new(o, "ceiling", num(x->ceiling));
		json_object_set_new(o, "share", num(x->share));
		json_object_set_new(o, "threshold", num(x->threshold));
		json_object_set_new(o, "unit", x->unit ? json_string(x->unit) : json_null());
		if (x->group >= 0)
			json_object_set_new(o, "group", json_integer(x->group));
		else
			json_object_set_new(o, "row", x->row >= 0 ? json_integer(x->row) : json_null());
		json_object_set_new(o, "evidence_index", json_integer(x->evidence_index));
		json_object_set_new(o, "name", x->name[0] ? json_string(x->name) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

/* the members of pcibw_json_reasons above, in its order */
void pcibw_jw_reasons(struct pcibw_jw *w, const struct pcibw_reason *v, int n)
{
	pcibw_jw_open(w, '[');
	for (int i = 0; i < n; i++) {
		const struct pcibw_reason *x = &v[i];
		pcibw_jw_item(w);
		pcibw_jw_open(w, '{');
		pcibw_jw_key(w, "code");
		pcibw_jw_str(w, pcibw_reason_code_name(x->code));
		pcibw_jw_key(w, "resource");
		pcibw_jw_str(w, pcibw_resource_name(x->resource));
		pcibw_jw_key(w, "value");
		pcibw_jw_num(w, x->value);
		pcibw_jw_key(w, "ceiling");
		pcibw_jw_num(w, x->ceiling);
		pcibw_jw_key(w, "share");
		pcibw_jw_num(w, x->share);
		pcibw_jw_key(w, "threshold");
		pcibw_jw_num(w, x->threshold);
		pcibw_jw_key(w, "unit");
		pcibw_jw_str(w, x->unit);
		if (x->group >= 0) {
			pcibw_jw_key(w, "group");
			pcibw_jw_int(w, x->group);
		} else {
			pcibw_jw_key(w, "row");
			if (x->row >= 0)
				pcibw_jw_int(w, x->row);
			else
				pcibw_jw_null(w);
		}
		pcibw_jw_key(w, "evidence_index");
		pcibw_jw_int(w, x->evidence_index);
		pcibw_jw_key(w, "name");
		pcibw_jw_str(w, x->name[0] ? x->name : NULL);
		pcibw_jw_close(w, '}');
	}
	pcibw_jw_close(w, ']');
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON pieces report and slots share (report_parts.h). */
#include "report_parts.h"
#include "report_render.h"
#include <math.h>

static json_t *int_or_null(int v)
{
	return v == PCIBW_NULL ? json_null() : json_integer(v);
}

static json_t *real_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

json_t *render_port_fit_json(const struct pcibw_port_fit *f)
{
	if (!f->known)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "ports", json_integer(f->ports));
	json_object_set_new(o, "line_rate_gbps", real_or_null(f->line_rate_gbps));
	json_object_set_new(o, "line_rate_assumed", json_boolean(f->line_rate_assumed));
	json_object_set_new(o, "ratio_64", real_or_null(f->ratio_64));
	json_object_set_new(o, "ratio_1518", real_or_null(f->ratio_1518));
	json_object_set_new(o, "ratio_64_low", real_or_null(f->ratio_64_low));
	json_object_set_new(o, "ratio_64_high", real_or_null(f->ratio_64_high));
	json_object_set_new(o, "ratio_1518_low", real_or_null(f->ratio_1518_low));
	json_object_set_new(o, "ratio_1518_high", real_or_null(f->ratio_1518_high));
	json_object_set_new(o, "min_line_rate_bytes", int_or_null(f->min_line_rate_bytes));
	/* what was modelled, and which of its registers the source did not hold */
	char spec[256], assumed[160];
	json_object_set_new(o, "bus_modelled", json_string(pcibw_bus_format(&f->bus, spec, sizeof spec)));
	json_object_set_new(o, "bus_assumed",
			    *pcibw_port_fit_assumed(f, assumed, sizeof assumed) ? json_string(assumed)
										: json_null());
	return o;
}

json_t *render_hop_json(const struct pcibw_hop *h)
{
	json_t *p = json_object();
	json_object_set_new(p, "slot", json_string(h->slot));
	json_object_set_new(p, "bus_kind", json_string(pcibw_device_kind_name(h->bus_kind)));
	json_object_set_new(p, "link_speed_gts", real_or_null(h->link_speed_gts));
	json_object_set_new(p, "link_width", int_or_null(h->link_width));
	json_object_set_new(p, "bus_mhz", int_or_null(h->bus_mhz));
	json_object_set_new(p, "bus_width_bits", int_or_null(h->bus_width_bits));
	json_object_set_new(p, "gbps", real_or_null(h->gbps));
	json_object_set_new(p, "shared", json_boolean(h->shared));
	json_object_set_new(p, "mps_supported_bytes", int_or_null(h->mps_supported_bytes));
	return p;
}

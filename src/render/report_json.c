/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw report --format json`: every key of the contract present, null when unknown. */
#include "json_stream.h"
#include "pcibw/version.h"
#include "report_notes.h"
#include "report_parts.h"
#include "report_render.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *pcibw_pcix_mode_name(enum pcibw_pcix_mode m)
{
	switch (m) {
	case PCIBW_PCIX_MODE_CONVENTIONAL:
		return "conventional";
	case PCIBW_PCIX_MODE_PCIX:
		return "pci-x";
	case PCIBW_PCIX_MODE_PCIX_ECC:
		return "pci-x-ecc";
	case PCIBW_PCIX_MODE_PCIX_266:
		return "pci-x-266";
	case PCIBW_PCIX_MODE_PCIX_533:
		return "pci-x-533";
	default:
		return NULL;
	}
}

const char *pcibw_device_kind_name(enum pcibw_bus_kind k)
{
	switch (k) {
	case PCIBW_BUS_PCI:
		return "pci";
	case PCIBW_BUS_PCIX:
		return "pci-x";
	case PCIBW_BUS_PCIE:
		return "pcie";
	default:
		return "unknown";
	}
}

static json_t *jint(int v)
{
	return v == PCIBW_NULL ? json_null() : json_integer(v);
}
static json_t *jll(long long v)
{
	return v == PCIBW_NULL ? json_null() : json_integer((json_int_t)v);
}
static json_t *jreal(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}
static json_t *jbool3(int v)
{
	return v == PCIBW_NULL ? json_null() : json_boolean(v);
}
/* A string that may not be UTF-8 (a file name, a name from an old pci.ids) still becomes a
 * string: bytes jansson refuses are replaced by '?', so no key ever goes missing. */
static json_t *jsafe(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char buf[1200];
	size_t i = 0;
	for (; s[i] && i < sizeof buf - 1; i++)
		buf[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
	buf[i] = '\0';
	return json_string(buf);
}

static json_t *jstr(const char *s)
{
	return s && *s ? jsafe(s) : json_null();
}

static json_t *jhex(int v)
{
	return v == PCIBW_NULL ? json_null() : json_sprintf("0x%04x", (unsigned)v);
}

static json_t *jaspm(int v, bool none_word)
{
	return jstr(pcibw_aspm_name(v, none_word));
}

/* enabled L1 PM Substates in the contract's order; null when unknown */
static json_t *jl1ss(int v)
{
	if (v == PCIBW_NULL)
		return json_null();
	static const struct {
		int bit;
		const char *name;
	} ss[] = {{PCIBW_L1SS_ASPM_L11, "l1.1"},
		  {PCIBW_L1SS_ASPM_L12, "l1.2"},
		  {PCIBW_L1SS_PCIPM_L11, "pcipm-l1.1"},
		  {PCIBW_L1SS_PCIPM_L12, "pcipm-l1.2"}};
	json_t *a = json_array();
	for (unsigned i = 0; i < sizeof ss / sizeof ss[0]; i++)
		if (v & ss[i].bit)
			json_array_append_new(a, json_string(ss[i].name));
	return a;
}

static json_t *device_json(const struct pcibw_device *d, const struct report_notes *notes)
{
	json_t *o = json_object();
	json_object_set_new(o, "slot", json_string(d->slot));
	json_object_set_new(o, "vendor_id", jhex(d->vendor_id));
	json_object_set_new(o, "device_id", jhex(d->device_id));
	json_object_set_new(o, "class", jhex(d->class_id));
	json_object_set_new(o, "revision",
			    d->revision == PCIBW_NULL ? json_null()
						      : json_sprintf("0x%02x", (unsigned)d->revision));
	json_object_set_new(o, "name", jstr(d->name));
	json_object_set_new(o, "virtual", json_boolean(d->is_virtual));
	json_object_set_new(o, "bus_kind", json_string(pcibw_device_kind_name(d->bus_kind)));
	json_object_set_new(o, "pcie_port_type", jstr(pcibw_pcie_type_name(d->pcie_port_type)));
	json_object_set_new(o, "pcix_capable", json_boolean(d->pcix_capable));
	json_object_set_new(o, "pcix_mode", jstr(pcibw_pcix_mode_name(d->pcix_mode)));
	json_object_set_new(o, "bus_mhz", jint(d->bus_mhz));
	json_object_set_new(o, "bus_width_bits", jint(d->bus_width_bits));
	json_object_set_new(o, "mmrbc_bytes", jint(d->mmrbc_bytes));
	json_object_set_new(o, "pcix_splits", jint(d->pcix_splits));
	json_object_set_new(o, "pcix_designed_mmrbc_bytes", jint(d->pcix_designed_mmrbc_bytes));
	json_object_set_new(o, "pcix_designed_splits", jint(d->pcix_designed_splits));
	json_object_set_new(o, "pcix_64bit", jbool3(d->pcix_64bit));
	json_object_set_new(o, "pcix_133_capable", jbool3(d->pcix_133));
	json_object_set_new(o, "pcix_266_capable", jbool3(d->pcix_266));
	json_object_set_new(o, "pcix_533_capable", jbool3(d->pcix_533));
	json_object_set_new(o, "latency_timer", jint(d->latency_timer));
	json_object_set_new(o, "cacheline_bytes", jint(d->cacheline_bytes));
	json_object_set_new(o, "link_speed_gts", jreal(d->link_speed_gts));
	json_object_set_new(o, "link_width", jint(d->link_width));
	json_object_set_new(o, "max_link_speed_gts", jreal(d->max_link_speed_gts));
	json_object_set_new(o, "max_link_width", jint(d->max_link_width));
	json_object_set_new(o, "downgraded", jbool3(d->downgraded));
	json_object_set_new(o, "mps_bytes", jint(d->mps_bytes));
	json_object_set_new(o, "mrrs_bytes", jint(d->mrrs_bytes));
	json_object_set_new(o, "rcb_bytes", jint(d->rcb_bytes));
	json_object_set_new(o, "relaxed_ordering", jbool3(d->relaxed_ordering));
	json_object_set_new(o, "ext_tags", jbool3(d->ext_tags));
	json_object_set_new(o, "tags_10bit", jbool3(d->tags_10bit));
	json_object_set_new(o, "flit_mode", jbool3(d->flit_mode));
	json_object_set_new(o, "aspm", jaspm(d->aspm, false));
	json_object_set_new(o, "aspm_link", jaspm(d->aspm_link, false));
	json_object_set_new(o, "aspm_supported", jaspm(d->aspm_supported, true));
	json_object_set_new(o, "l0s_exit_latency_ns", jint(d->l0s_exit_latency_ns));
	json_object_set_new(o, "l1_exit_latency_ns", jint(d->l1_exit_latency_ns));
	json_object_set_new(o, "l1_substates", jl1ss(d->l1_substates));
	json_object_set_new(o, "clock_pm", jbool3(d->clock_pm));
	json_object_set_new(o, "mps_supported_bytes", jint(d->mps_supported_bytes));
	json_object_set_new(o, "numa_node", jint(d->numa_node));
	json_object_set_new(o, "local_cpus", jstr(d->local_cpus));
	json_t *ifs = json_array();
	for (int i = 0; i < d->n_interfaces; i++)
		json_array_append_new(ifs, jsafe(d->interfaces[i]));
	json_object_set_new(o, "interfaces", ifs);
	json_object_set_new(o, "driver", jstr(d->driver));
	json_object_set_new(o, "interface_driver", jstr(d->iface_driver));
	json_object_set_new(o, "firmware", jstr(d->firmware));
	json_t *path = json_array();
	for (int i = 0; i < d->n_path; i++) {
		json_array_append_new(path, render_hop_json(&d->path[i]));
	}
	json_object_set_new(o, "path", path);
	json_object_set_new(o, "bottleneck_slot", jstr(d->bottleneck_slot));
	json_object_set_new(o, "bottleneck_gbps", jreal(d->bottleneck_gbps));
	json_object_set_new(o, "bottleneck_shared", jbool3(d->bottleneck_shared));
	json_t *peers = json_array();
	for (int i = 0; i < d->n_peers; i++)
		json_array_append_new(peers, json_string(d->peers[i]));
	json_object_set_new(o, "segment_peers", peers);
	json_object_set_new(o, "port_fit", render_port_fit_json(&d->port_fit));
	json_object_set_new(o, "empty", json_boolean(d->empty == 1));
	json_object_set_new(o, "secondary_bus", jint(d->secondary_bus));
	if (d->link_cause.code) {
		json_t *c = json_object();
		json_object_set_new(c, "code", json_string(d->link_cause.code));
		json_object_set_new(c, "evidence", jsafe(d->link_cause.evidence));
		json_object_set_new(c, "fix", jsafe(d->link_cause.fix));
		json_object_set_new(o, "link_cause", c);
	} else {
		json_object_set_new(o, "link_cause", json_null());
	}
	if (d->aer.correctable == PCIBW_NULL && d->aer.nonfatal == PCIBW_NULL && d->aer.fatal == PCIBW_NULL) {
		json_object_set_new(o, "aer", json_null());
	} else {
		json_t *a = json_object();
		json_object_set_new(a, "correctable", jll(d->aer.correctable));
		json_object_set_new(a, "nonfatal", jll(d->aer.nonfatal));
		json_object_set_new(a, "fatal", jll(d->aer.fatal));
		json_object_set_new(o, "aer", a);
	}
	json_t *prov = json_object();
	for (int i = 0; i < d->n_prov; i++)
		json_object_set_new(prov, d->prov[i].field, json_string(d->prov[i].origin));
	json_object_set_new(o, "provenance", prov);
	json_t *jn = json_array();
	int count;
	const int *mine = render_report_notes_of(notes, d->slot, &count);
	for (int k = 0; k < count; k++) {
		const struct pcibw_warning *w = &notes->r->warnings[mine[k]];
		json_t *n = json_object();
		json_object_set_new(n, "code", json_string(w->code));
		json_object_set_new(n, "text", jsafe(w->text));
		json_array_append_new(jn, n);
	}
	json_object_set_new(o, "notes", jn);
	return o;
}

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

/* One device's object where it stands in the document: at depth 2, so every line after its
 * first is indented 4 more spaces (a newline inside a string is escaped: each one in the dump
 * is jansson's own). */
static int put_device(FILE *out, const json_t *dev)
{
	char *text = json_dumps(dev, DUMP_FLAGS);
	if (!text)
		return -1;
	int rc = 0;
	const char *p = text;
	for (const char *q; !rc && (q = strchr(p, '\n')); p = q + 1)
		rc = fwrite(p, 1, (size_t)(q - p + 1), out) != (size_t)(q - p + 1) || fputs("    ", out) < 0;
	rc = rc || fputs(p, out) < 0;
	free(text);
	return rc;
}

struct device_ctx {
	const struct pcibw_report *r;
	const struct report_notes *notes;
};

static int put_nth_device(FILE *out, int i, void *ctx)
{
	const struct device_ctx *c = ctx;
	json_t *dev = device_json(&c->r->devices[i], c->notes);
	int rc = !dev || put_device(out, dev);
	json_decref(dev);
	return rc;
}

/*
 * The document is jansson's own dump of the whole object (two-space indent, keys in order), but
 * the devices go out one at a time: the head (source, warnings) is dumped with an empty
 * "devices" array, and each device is built, written and freed where that array stands, so
 * memory holds one device's tree, however many devices the report has.
 */
int pcibw_report_render_json(FILE *out, const struct pcibw_report *r)
{
	json_t *root = json_object();
	json_object_set_new(root, "pcibw_version", json_string(PCIBW_VERSION));
	json_object_set_new(root, "source", jsafe(r->source));
	json_t *w = json_array(), *codes = json_array();
	for (int i = 0; i < r->n_warnings; i++) {
		char s[1100];
		json_array_append_new(w, jsafe(pcibw_warning_string(&r->warnings[i], s, sizeof s)));
		json_array_append_new(codes, json_string(r->warnings[i].code));
	}
	json_object_set_new(root, "warnings", w);
	json_object_set_new(root, "warning_codes", codes);
	json_object_set_new(root, "aspm_policy", jstr(r->aspm_policy));
	json_object_set_new(root, "devices", json_array());
	struct report_notes notes;
	if (render_report_notes_build(&notes, r)) {
		json_decref(root);
		return PCIBW_EINTERNAL;
	}
	struct device_ctx c = {r, &notes};
	int rc = pcibw_json_stream(out, root, DUMP_FLAGS, "devices", r->n_devices, put_nth_device, &c);
	json_decref(root);
	render_report_notes_free(&notes);
	if (rc)
		return PCIBW_EINTERNAL;
	return PCIBW_OK;
}

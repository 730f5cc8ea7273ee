/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Device and report bookkeeping: null values, provenance, warnings, sorting. */
#include "pcibw/device.h"
#include "pcibw/probe.h"
#include "src/util/grow.h"
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pcibw_device_init(struct pcibw_device *d)
{
	memset(d, 0, sizeof *d);
	d->domain = d->bus = d->dev = d->fn = PCIBW_NULL;
	d->vendor_id = d->device_id = d->class_id = d->revision = PCIBW_NULL;
	d->pcie_port_type = PCIBW_NULL;
	d->bus_kind = PCIBW_BUS_UNKNOWN;
	d->pcix_mode = PCIBW_PCIX_MODE_NULL;
	d->bus_mhz = d->bus_width_bits = d->mmrbc_bytes = d->pcix_splits = PCIBW_NULL;
	d->pcix_designed_mmrbc_bytes = d->pcix_designed_splits = PCIBW_NULL;
	d->pcix_64bit = d->pcix_133 = d->pcix_266 = d->pcix_533 = PCIBW_NULL;
	d->latency_timer = d->cacheline_bytes = PCIBW_NULL;
	d->link_speed_gts = d->max_link_speed_gts = NAN;
	d->link_width = d->max_link_width = d->downgraded = PCIBW_NULL;
	d->mps_bytes = d->mrrs_bytes = d->rcb_bytes = PCIBW_NULL;
	d->relaxed_ordering = d->ext_tags = d->tags_10bit = d->flit_mode = PCIBW_NULL;
	d->aspm = d->aspm_link = d->aspm_supported = PCIBW_NULL;
	d->l0s_exit_latency_ns = d->l1_exit_latency_ns = d->l1_substates = d->clock_pm = PCIBW_NULL;
	d->mps_supported_bytes = PCIBW_NULL;
	for (int i = 0; i < PCIBW_MAX_IFACES; i++)
		d->iface_speed_mbps[i] = d->iface_max_mbps[i] = PCIBW_NULL;
	d->port_fit.min_line_rate_bytes = PCIBW_NULL;
	snprintf(d->port_fit.why, sizeof d->port_fit.why, "not a network controller");
	d->numa_node = PCIBW_NULL;
	d->secondary_bus = PCIBW_NULL;
	d->bottleneck_gbps = NAN;
	d->bottleneck_shared = PCIBW_NULL;
	d->lreg.target_speed_gts = NAN;
	d->lreg.hasd = d->lreg.lbms = d->lreg.labs = d->lreg.eq_8gt_complete = PCIBW_NULL;
	d->lreg.dll_active = d->lreg.slot_implemented = d->lreg.physical_slot = PCIBW_NULL;
	d->lreg.presence = d->lreg.power_state = PCIBW_NULL;
	d->lreg.aer_cor_status = d->lreg.aer_unc_status = PCIBW_NULL;
	d->aer.correctable = d->aer.nonfatal = d->aer.fatal = PCIBW_NULL;
}

const char *pcibw_aspm_name(int bits, bool none_word)
{
	static const char *const names[] = {"off", "l0s", "l1", "l0s-l1"};
	if (bits < 0 || bits > 3)
		return NULL;
	return bits == 0 && none_word ? "none" : names[bits];
}

void pcibw_device_set_prov(struct pcibw_device *d, const char *field, const char *origin)
{
	for (int i = 0; i < d->n_prov; i++)
		if (!strcmp(d->prov[i].field, field)) {
			d->prov[i].origin = origin;
			return;
		}
	if (d->n_prov < PCIBW_MAX_PROV)
		d->prov[d->n_prov++] = (struct pcibw_provenance){field, origin};
}

const char *pcibw_device_prov(const struct pcibw_device *d, const char *field)
{
	for (int i = 0; i < d->n_prov; i++)
		if (!strcmp(d->prov[i].field, field))
			return d->prov[i].origin;
	return NULL;
}

static uint64_t warn_hash(const char *slot, const char *code, const char *text)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a over the three strings and their ends */
	for (const char *p[3] = {slot, code, text}, **q = p; q < p + 3; q++) {
		for (const unsigned char *c = (const unsigned char *)*q; *c; c++)
			h = (h ^ *c) * 0x100000001b3ull;
		h = (h ^ 0xff) * 0x100000001b3ull;
	}
	return h;
}

static size_t index_slot(const struct pcibw_report *r, uint64_t h)
{
	return (size_t)((h ^ h >> 29) & (uint64_t)(r->cap_index - 1));
}

static void index_put(struct pcibw_report *r, int i)
{
	const struct pcibw_warning *w = &r->warnings[i];
	size_t at = index_slot(r, warn_hash(w->slot, w->code, w->text));
	while (r->warn_index[at])
		at = (at + 1) & (size_t)(r->cap_index - 1);
	r->warn_index[at] = i + 1;
}

/* Room for one more warning in the index, which then covers warnings[0..n_warnings). */
static int index_ready(struct pcibw_report *r)
{
	int cap = r->cap_index;
	while (2 * (r->n_warnings + 1) > cap)
		cap = cap ? 2 * cap : 64;
	if (cap == r->cap_index && r->n_indexed == r->n_warnings)
		return 0;
	int *v = cap == r->cap_index ? r->warn_index : malloc((size_t)cap * sizeof *v);
	if (!v)
		return -1;
	if (v != r->warn_index)
		free(r->warn_index);
	memset(v, 0, (size_t)cap * sizeof *v);
	r->warn_index = v;
	r->cap_index = cap;
	for (int i = 0; i < r->n_warnings; i++)
		index_put(r, i);
	r->n_indexed = r->n_warnings;
	return 0;
}

int pcibw_report_warn(struct pcibw_report *r, const char *slot, const char *code, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!slot)
		slot = "";
	if (index_ready(r))
		return PCIBW_EINTERNAL;
	for (size_t at = index_slot(r, warn_hash(slot, code, buf)); r->warn_index[at];
	     at = (at + 1) & (size_t)(r->cap_index - 1)) {
		const struct pcibw_warning *w = &r->warnings[r->warn_index[at] - 1];
		if (!strcmp(w->slot, slot) && !strcmp(w->code, code) && !strcmp(w->text, buf))
			return 0;
	}
	if (pcibw_grow(&r->warnings, &r->cap_warnings, r->n_warnings + 1, sizeof *r->warnings))
		return PCIBW_EINTERNAL;
	struct pcibw_warning *n = &r->warnings[r->n_warnings];
	snprintf(n->slot, sizeof n->slot, "%s", slot);
	n->code = code;
	if (!(n->text = strdup(buf)))
		return PCIBW_EINTERNAL;
	index_put(r, r->n_warnings++);
	r->n_indexed = r->n_warnings;
	return 0;
}

int pcibw_report_drop(struct pcibw_report *r, int first, const char *code, const char *slot)
{
	int k = first < 0 ? 0 : first, dropped = 0;
	for (int i = k; i < r->n_warnings; i++) {
		struct pcibw_warning *w = &r->warnings[i];
		if (!strcmp(w->code, code) && (!slot || !strcmp(w->slot, slot))) {
			free(w->text);
			dropped++;
			continue;
		}
		r->warnings[k++] = *w;
	}
	r->n_warnings = k;
	r->n_indexed = -1; /* positions moved: rebuilt at the next warning */
	return dropped;
}

char *pcibw_warning_string(const struct pcibw_warning *w, char *buf, unsigned len)
{
	if (len)
		snprintf(buf, len, "%s%s%s", w->slot, w->slot[0] ? ": " : "", w->text);
	return buf;
}

struct pcibw_device *pcibw_report_add(struct pcibw_report *r, const struct pcibw_device *d)
{
	if (pcibw_grow(&r->devices, &r->cap_devices, r->n_devices + 1, sizeof *r->devices))
		return NULL;
	r->devices[r->n_devices] = *d;
	return &r->devices[r->n_devices++];
}

static int cmp_dev(const void *a, const void *b)
{
	const struct pcibw_device *x = a, *y = b;
	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	if (x->bus != y->bus)
		return x->bus < y->bus ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (x->fn > y->fn) - (x->fn < y->fn);
}

void pcibw_report_sort(struct pcibw_report *r)
{
	if (r->n_devices > 1)
		qsort(r->devices, (size_t)r->n_devices, sizeof *r->devices, cmp_dev);
}

void pcibw_report_free(struct pcibw_report *r)
{
	for (int i = 0; i < r->n_warnings; i++)
		free(r->warnings[i].text);
	free(r->warnings);
	free(r->devices);
	free(r->warn_index);
	r->warnings = NULL;
	r->devices = NULL;
	r->warn_index = NULL;
	r->cap_index = r->n_indexed = 0;
	r->n_warnings = r->n_devices = r->cap_warnings = r->cap_devices = 0;
}

char *pcibw_format_slot(char *buf, int domain, int bus, int dev, int fn)
{
	snprintf(buf, 32, "%04x:%02x:%02x.%x", (unsigned)domain, (unsigned)bus & 0xff, (unsigned)dev & 0x1f,
		 (unsigned)fn & 7);
	return buf;
}

bool pcibw_is_network_class(int class_id)
{
	return class_id >= 0 && ((class_id >> 8) == 0x02 || class_id == 0x0c06);
}

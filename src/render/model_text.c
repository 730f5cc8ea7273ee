/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw model` as a table a person reads at a glance. */
#include <math.h>
#include "model_render.h"

double pcibw_model_headroom_pct(const struct pcibw_model_row *r)
{
	if (!isfinite(r->wire_gbps) || !(r->wire_gbps > 0) || !isfinite(r->bus_gbps))
		return NAN;
	return (r->bus_gbps / r->wire_gbps - 1.0) * 100.0;
}

static void num(FILE *o, int w, int prec, double v)
{
	if (isfinite(v))
		fprintf(o, " %*.*f", w, prec, v);
	else
		fprintf(o, " %*s", w, "-");
}

int pcibw_model_render_text(FILE *o, const struct pcibw_model_view *v)
{
	char spec[160];
	const struct pcibw_bus *b = v->bus;
	pcibw_bus_format(b, spec, sizeof spec);
	if (b->kind == PCIBW_BUS_VIRTUAL)
		fprintf(o, "bus      none: a paravirtual device (no bus ceiling) from %s\n",
			v->bus_from ? v->bus_from : "--bus");
	else
		fprintf(o, "bus      %s (%s, %.3f Gbit/s raw%s) from %s\n", spec, pcibw_bus_kind_name(b->kind),
			pcibw_bus_raw_gbps(b), b->kind == PCIBW_BUS_PCIE ? " per direction" :
			", shared by both directions", v->bus_from ? v->bus_from : "--bus");
	fprintf(o, "nic      %s: %s\n", v->nic->name, v->nic->description);
	fprintf(o, "pattern  %s%s, sizes are %s bytes", pcibw_pattern_name(v->pattern),
		v->pattern == PCIBW_PAT_BOTH ? " (rates per direction)" : "", pcibw_size_is_name(v->size_is));
	if (v->line_rate_gbps > 0)
		fprintf(o, ", line rate %g Gbit/s", v->line_rate_gbps);
	if (v->compat == PCIBW_COMPAT_PCIE_BENCH)
		fprintf(o, ", pcie-bench compatible accounting");
	fprintf(o, "\n\n");
	/* bus time per packet and the CPU's stall on register reads: what a shared PCI/PCI-X
	 * segment and an interrupt handler's ICR reads cost (doc/model-pci.md) */
	bool stall = false;
	for (int i = 0; i < v->n; i++)
		stall = stall || v->rows[i].cpu_stall_ns_per_packet > 0;
	fprintf(o, "%8s %10s %11s %10s %11s %6s %9s %10s", "size", "bus Mpps", "bus Gbit/s", "wire Mpps",
		"wire Gbit/s", "limit", "headroom", "bus ns/pkt");
	if (stall)
		fprintf(o, " %9s", "stall ns");
	fprintf(o, "  %s\n", "bus bound by");
	for (int i = 0; i < v->n; i++) {
		const struct pcibw_model_row *r = &v->rows[i];
		const char *lab = v->labels ? v->labels[i] : NULL;
		if (lab)
			fprintf(o, "%8s", lab);
		else
			fprintf(o, "%8.0f", r->size_bytes);
		num(o, 10, 3, r->bus_mpps);
		num(o, 11, 3, r->bus_gbps);
		num(o, 10, 3, r->wire_mpps);
		num(o, 11, 3, r->wire_gbps);
		fprintf(o, " %6s", !isfinite(r->bus_gbps) && !(v->line_rate_gbps > 0) ? "-" :
				   r->limit == PCIBW_LIMIT_BUS ? "bus" : "wire");
		double h = pcibw_model_headroom_pct(r);
		if (isfinite(h))
			fprintf(o, " %+8.1f%%", h);
		else
			fprintf(o, " %9s", "-");
		num(o, 10, 1, r->bus_ns_per_packet > 0 ? r->bus_ns_per_packet : NAN);
		if (stall)
			num(o, 9, 1, r->cpu_stall_ns_per_packet);
		fprintf(o, "  %s\n", r->bound_by ? r->bound_by : "-");
	}
	if (v->line_rate_gbps > 0)
		fprintf(o, "\nheadroom: how far the bus ceiling sits above (+) or below (-) the wire ceiling.\n");
	for (int i = 0; i < v->n_warnings; i++)
		fprintf(o, "warning: %s\n", v->warnings[i]);
	return ferror(o) ? PCIBW_EINTERNAL : PCIBW_OK;
}

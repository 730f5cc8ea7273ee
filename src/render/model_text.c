/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw model` as a table a person reads at a glance. */
#include "model_recipe.h"
#include <math.h>
#include <string.h>

double pcibw_model_headroom_pct(const struct pcibw_model_row *r)
{
	if (!isfinite(r->wire_gbps) || !(r->wire_gbps > 0) || !isfinite(r->bus_gbps))
		return NAN;
	return (r->bus_gbps / r->wire_gbps - 1.0) * 100.0;
}

char *pcibw_model_band_text(const struct pcibw_model_row *r, char *buf, size_t len)
{
	if (!len)
		return buf;
	buf[0] = '\0';
	if (isfinite(r->bus_gbps) && r->bus_gbps > 0 && isfinite(r->bus_gbps_low) &&
	    isfinite(r->bus_gbps_high) && r->bus_gbps_high - r->bus_gbps_low > 0.02 * r->bus_gbps)
		snprintf(buf, len, "(%.3g-%.3g)", r->bus_gbps_low, r->bus_gbps_high);
	return buf;
}

static void num(FILE *o, int w, int prec, double v)
{
	if (isfinite(v))
		fprintf(o, " %*.*f", w, prec, v);
	else
		fprintf(o, " %*s", w, "-");
}

/* What each "bus bound by" value means (pcibw_model_row.bound_by). */
static const char *const bound_notes[][2] = {
    {"to-host", "the device->host direction of the link is full (receive data, write-backs, MSI)"},
    {"to-device", "the host->device direction of the link is full (transmit data, doorbells)"},
    {"root-complex", "the root complex moves whole 64 B cache lines: packet data that ends mid-line costs "
		     "the whole line"},
    {"shared", "the PCI/PCI-X segment's clocks are all used (both directions share them)"},
    {"device-tps", "the device's write engine is busy: its TLP issue rate, the time it takes to move "
		   "each write's data, or its bursts and the gaps after them (profile max_dma_tps, "
		   "write_unit_*, write_burst_*)"},
    {"read-latency", "reads in flight x their latency bound the device (profile read_tags, PCI-X splits)"},
    {"virtual", "a paravirtual device: no bus ceiling"},
};

/* The lines under the table: the answer (which sizes the bus cannot carry at the line rate)
 * and what the less obvious columns mean. */
static void notes(FILE *o, const struct pcibw_model_view *v, bool stall)
{
	bool any = false;
	int nwire = 0;
	for (int i = 0; i < v->n; i++)
		nwire += isfinite(v->rows[i].wire_gbps);
	if (v->line_rate_gbps > 0 && nwire == 0) {
		fprintf(o, "\nno wire ceiling: a %s test moves data over the bus only, not over the wire.\n",
			pcibw_pattern_name(v->pattern));
		any = true;
	} else if (v->line_rate_gbps > 0) {
		int nbus = 0;
		for (int i = 0; i < v->n; i++)
			nbus += isfinite(v->rows[i].bus_gbps) && v->rows[i].limit == PCIBW_LIMIT_BUS;
		fprintf(o, "\n");
		any = true;
		if (v->bus->kind == PCIBW_BUS_VIRTUAL) {
			fprintf(o, "no bus ceiling: only the wire's %g Gbit/s applies.\n", v->line_rate_gbps);
		} else if (nbus == 0) {
			fprintf(o, "the bus carries %g Gbit/s at every size shown: the wire binds.\n",
				v->line_rate_gbps);
		} else {
			fprintf(o, "the bus cannot carry %g Gbit/s at %s", v->line_rate_gbps,
				nbus == v->n ? "any size shown" : "");
			int shown = 0;
			for (int i = 0; i < v->n && nbus != v->n; i++) {
				const struct pcibw_model_row *r = &v->rows[i];
				if (!(isfinite(r->bus_gbps) && r->limit == PCIBW_LIMIT_BUS))
					continue;
				if (shown == 8) {
					fprintf(o, ", ... (%d sizes in all)", nbus);
					break;
				}
				if (v->labels && v->labels[i])
					fprintf(o, "%s%s", shown ? ", " : "", v->labels[i]);
				else
					fprintf(o, "%s%.0f B", shown ? ", " : "", r->size_bytes);
				shown++;
			}
			fprintf(o, ".\n");
		}
		fprintf(o,
			"headroom: how far the bus ceiling sits above (+) or below (-) the wire ceiling.\n");
	}
	bool held = false;
	for (int i = 0; i < v->n; i++)
		held = held || v->rows[i].bus_ns_per_packet > 0;
	if (held) {
		if (!any)
			fprintf(o, "\n");
		any = true;
		/* doc/json.md bus_ns_per_packet; in pattern both a row's rates are per direction */
		fprintf(o, "bus ns/pkt: how long one packet's transactions hold the bus%s%s.\n",
			v->bus->kind == PCIBW_BUS_PCIE ? " (its busier direction)" : "",
			v->pattern == PCIBW_PAT_BOTH ? "; pattern both: one packet each way" : "");
	}
	if (stall) {
		if (!any)
			fprintf(o, "\n");
		any = true;
		fprintf(o, "stall ns/pkt: CPU time one packet costs in register reads (interrupt cause, head "
			   "pointer), each stalling the CPU for its whole latency.\n");
	}
	for (size_t k = 0; k < sizeof bound_notes / sizeof bound_notes[0]; k++) {
		bool used = false;
		for (int i = 0; i < v->n && !used; i++)
			used = v->rows[i].bound_by && !strcmp(v->rows[i].bound_by, bound_notes[k][0]);
		if (!used)
			continue;
		if (!any)
			fprintf(o, "\n");
		any = true;
		fprintf(o, "%s: %s.\n", bound_notes[k][0], bound_notes[k][1]);
	}
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
		fprintf(o, "bus      %s (%s, %.3f Gbit/s raw%s) from %s\n", spec,
			pcibw_bus_kind_name(b->kind), pcibw_bus_raw_gbps(b),
			b->kind == PCIBW_BUS_PCIE ? " per direction" : ", shared by both directions",
			v->bus_from ? v->bus_from : "--bus");
	fprintf(o, "nic      %s: %s\n", v->nic->name, v->nic->description);
	if (v->nic->n_knobs > 0) {
		fprintf(o, "knobs   ");
		for (int k = 0; k < v->nic->n_knobs; k++)
			fprintf(o, " %s=%s", v->nic->knobs[k].name, v->nic->knobs[k].value);
		fprintf(o, "\n");
	}
	for (int k = 0; k < v->nic->n_overrides; k++)
		fprintf(o, "%s%s", k ? ", " : "set      ", v->nic->overrides[k]);
	if (v->nic->n_overrides > 0)
		fprintf(o, "\n");
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
	/* headroom is +-99.9 % near the crossing but can reach +10^7 % against a 1 Mbit/s wire:
	 * size the column to its widest value rather than break the table */
	int hw = 9;
	for (int i = 0; i < v->n; i++) {
		char tmp[64];
		double h = pcibw_model_headroom_pct(&v->rows[i]);
		if (isfinite(h)) {
			int w = snprintf(tmp, sizeof tmp, "%+.1f%%", h);
			hw = w > hw ? w : hw;
		}
	}
	/* the band column, where any row's band is wider than 2 % */
	int bw = 0;
	for (int i = 0; i < v->n; i++) {
		char tmp[64];
		int w = (int)strlen(pcibw_model_band_text(&v->rows[i], tmp, sizeof tmp));
		bw = w > bw ? w : bw;
	}
	if (bw)
		bw = bw < 15 ? 15 : bw;
	fprintf(o, "%8s %10s %11s", "size", "bus Mpps", "bus Gbit/s");
	if (bw)
		fprintf(o, " %*s", bw, "bus band Gbit/s");
	fprintf(o, " %10s %11s %6s %*s %10s", "wire Mpps", "wire Gbit/s", "limit", hw, "headroom",
		"bus ns/pkt");
	if (stall)
		fprintf(o, " %12s", "stall ns/pkt");
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
		if (bw) {
			char band[64];
			pcibw_model_band_text(r, band, sizeof band);
			fprintf(o, " %*s", bw, *band ? band : "-");
		}
		num(o, 10, 3, r->wire_mpps);
		num(o, 11, 3, r->wire_gbps);
		fprintf(o, " %6s",
			!isfinite(r->bus_gbps) && !(v->line_rate_gbps > 0) ? "-"
			: r->limit == PCIBW_LIMIT_BUS			   ? "bus"
									   : "wire");
		double h = pcibw_model_headroom_pct(r);
		if (isfinite(h))
			fprintf(o, " %+*.1f%%", hw - 1, h);
		else
			fprintf(o, " %*s", hw, "-");
		num(o, 10, 1, r->bus_ns_per_packet > 0 ? r->bus_ns_per_packet : NAN);
		if (stall)
			num(o, 12, 1, r->cpu_stall_ns_per_packet);
		fprintf(o, "  %s\n", r->bound_by ? r->bound_by : "-");
	}
	notes(o, v, stall);
	if (v->recipe) {
		for (int i = 0; i < v->n; i++) {
			if (v->labels && v->labels[i])
				fprintf(o, "\nrecipe at %s: not per size (a mix); give its sizes as a list\n",
					v->labels[i]);
			else {
				fprintf(o, "\nrecipe at %.0f B, bus bytes per packet:\n",
					v->rows[i].size_bytes);
				pcibw_model_render_recipe_text(o, v, i);
				pcibw_model_render_band_text(o, v, i);
			}
		}
		pcibw_model_render_recipe_sources(o, v);
	}
	for (int i = 0; i < v->n_warnings; i++)
		fprintf(o, "warning: %s\n", v->warnings[i]);
	return ferror(o) ? PCIBW_EINTERNAL : PCIBW_OK;
}

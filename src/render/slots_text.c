/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw slots` as text: a block per slot port, then, with a card, the ranking. */
#include "slots_render.h"
#include "text_wrap.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *gts_text(double gts, char *b, size_t n)
{
	if (isnan(gts))
		snprintf(b, n, "? GT/s");
	else
		snprintf(b, n, "%g GT/s", gts);
	return b;
}

static const char *link_text(double gts, int w, char *b, size_t n)
{
	char g[32];
	if (w == PCIBW_NULL)
		snprintf(b, n, "%s x?", gts_text(gts, g, sizeof g));
	else
		snprintf(b, n, "%s x%d", gts_text(gts, g, sizeof g), w);
	return b;
}

/* "slot 2" / "slot 'CPU1 Slot3 PCI-E 3.0 X8'" / "no slot name" */
static const char *slot_label(const struct pcibw_slot *sl, char *b, size_t n)
{
	char v[200];
	if (!sl->name[0])
		snprintf(b, n, "%s", sl->port);
	else
		snprintf(b, n, "%s (slot %s)", sl->port, pcibw_text_visible(sl->name, v, sizeof v));
	return b;
}

static const char *name_source(const char *from)
{
	if (!from)
		return "";
	if (!strcmp(from, "sltcap"))
		return "Slot Capabilities Physical Slot Number";
	if (!strcmp(from, "sysfs"))
		return "sysfs slots/";
	return "SMBIOS type 9";
}

static bool same_others(const struct pcibw_slot_share *a, const struct pcibw_slot_share *b)
{
	return a->n_others == b->n_others &&
	       !memcmp(a->others, b->others, (size_t)a->n_others * sizeof a->others[0]);
}

static void slot_block(FILE *o, const struct pcibw_slots *s, const struct pcibw_slot *sl)
{
	char lab[300], a[64], b[64], line[1400];
	const char *t = pcibw_slot_port_type_name(sl->port_type);
	fprintf(o, "%s", slot_label(sl, lab, sizeof lab));
	if (sl->name[0])
		fprintf(o, " from %s", name_source(sl->name_from));
	fprintf(o, "\n");
	snprintf(line, sizeof line, "%s%s, NUMA node %s%s%s",
		 t ? t
		 : sl->kind_known
		     ? "PCIe bridge (type unknown: no PCI Express Capabilities in the source)"
		     : "bridge of unknown kind (no config space in the source: PCIe or PCI not known)",
		 sl->slot_implemented == PCIBW_NULL && t ? " (Slot Implemented unknown)" : "",
		 sl->numa_node == PCIBW_NULL ? "unknown" : (snprintf(a, sizeof a, "%d", sl->numa_node), a),
		 sl->parent_slot >= 0 ? ", behind slot port " : "",
		 sl->parent_slot >= 0 ? s->v[sl->parent_slot].port : "");
	pcibw_text_wrapped(o, "  port        ", line);
	const char *from = sl->cap_from && !strcmp(sl->cap_from, "sysfs")   ? "sysfs max_link_speed/width"
			   : sl->cap_from && !strcmp(sl->cap_from, "hwloc") ? "the hwloc export"
									    : "Link Capabilities";
	int o2 = isnan(sl->cap_gts) && sl->cap_width == PCIBW_NULL
		     ? snprintf(line, sizeof line, "unknown (the source shows no link capability)")
		     : snprintf(line, sizeof line, "PCIe %s (%s)",
				link_text(sl->cap_gts, sl->cap_width, a, sizeof a), from);
	if (!sl->empty && (!isnan(sl->link_gts) || sl->link_width != PCIBW_NULL))
		o2 += snprintf(line + o2, sizeof line - (size_t)o2, ", runs %s now%s%s%s",
			       link_text(sl->link_gts, sl->link_width, b, sizeof b),
			       sl->link_cause ? " (" : "", sl->link_cause ? sl->link_cause : "",
			       sl->link_cause ? ": pcibw report -s PORT says why)" : "");
	if (!isnan(sl->path_gbps))
		snprintf(line + o2, sizeof line - (size_t)o2,
			 "; a card here gets at most %.4g Gbit/s per direction%s%s", sl->path_gbps,
			 strcmp(sl->path_bottleneck, sl->port) ? ", set by " : "",
			 strcmp(sl->path_bottleneck, sl->port) ? sl->path_bottleneck : "");
	pcibw_text_wrapped(o, "  capability  ", line);
	if (!sl->n_occupants && sl->empty) {
		fprintf(o, "  in it       nothing: an empty slot\n");
	} else if (!sl->n_occupants) {
		pcibw_text_wrapped(o, "  in it       ",
				   "unknown: the link is up, but the source holds no device below the port");
	} else {
		const struct pcibw_slot_occupant *oc = &sl->occupants[0];
		snprintf(line, sizeof line, "%s %s%s", oc->slot, oc->name[0] ? oc->name : "(no name)",
			 sl->n_occupants > 1
			     ? (snprintf(a, sizeof a, " (+%d more on its bus)", sl->n_occupants - 1), a)
			     : "");
		pcibw_text_wrapped(o, "  in it       ", line);
	}
	for (int k = 0, shown = 0; k < sl->n_shared; k++) {
		const struct pcibw_slot_share *h = &sl->shared[k];
		if (k && same_others(&sl->shared[k - 1], h))
			continue; /* said with the hop below it */
		int n = 0;
		for (int j = k;
		     j < sl->n_shared && (j == k || same_others(&sl->shared[j - 1], &sl->shared[j])); j++) {
			const struct pcibw_slot_share *x = &sl->shared[j];
			n += snprintf(line + n, sizeof line - (size_t)n, "%s%s (%s%s%s, %.4g Gbit/s)",
				      j > k ? " and " : "", x->hop,
				      x->link.bus_kind == PCIBW_BUS_PCIE
					  ? "PCIe "
					  : pcibw_bus_kind_name(x->link.bus_kind),
				      x->link.bus_kind == PCIBW_BUS_PCIE ? "" : " ",
				      x->link.bus_kind == PCIBW_BUS_PCIE
					  ? link_text(x->link.link_speed_gts, x->link.link_width, a, sizeof a)
					  : "",
				      x->link.gbps);
		}
		n += snprintf(line + n, sizeof line - (size_t)n, " with");
		for (int m = 0; m < h->n_others && n < (int)sizeof line - 80; m++) {
			const struct pcibw_slot *x = &s->v[h->others[m]];
			n += snprintf(line + n, sizeof line - (size_t)n, "%s %s%s%s%s", m ? "," : "", x->port,
				      x->n_occupants ? " (" : " (empty)",
				      x->n_occupants ? x->occupants[0].slot : "", x->n_occupants ? ")" : "");
		}
		pcibw_text_wrapped(o, shown++ ? "              " : "  shares      ", line);
	}
}

static void fit_line(FILE *o, const struct pcibw_slots *s, const struct pcibw_slot *sl)
{
	char lab[300], line[1400], pre[16];
	if (sl->rank)
		snprintf(pre, sizeof pre, "  %2d. ", sl->rank);
	else
		snprintf(pre, sizeof pre, "   -  ");
	if (!sl->rank && sl->n_occupants) {
		snprintf(line, sizeof line, "%s: holds the switch %s, whose ports are the slots below it",
			 slot_label(sl, lab, sizeof lab), sl->occupants[0].slot);
		pcibw_text_wrapped(o, pre, line);
		return;
	}
	const struct pcibw_port_fit *f = &sl->fit;
	if (!f->known) {
		snprintf(line, sizeof line, "%s: port fit unknown (%s)", slot_label(sl, lab, sizeof lab),
			 f->why);
		pcibw_text_wrapped(o, pre, line);
		return;
	}
	int n = snprintf(line, sizeof line, "%s: x%d Gen%d path: ", slot_label(sl, lab, sizeof lab),
			 f->bus.lanes, f->bus.gen);
	if (f->min_line_rate_bytes == PCIBW_PORT_FIT_MIN_FRAME)
		n += snprintf(line + n, sizeof line - (size_t)n, "line rate at every frame size");
	else if (f->min_line_rate_bytes != PCIBW_NULL)
		n += snprintf(line + n, sizeof line - (size_t)n, "line rate from %d B",
			      f->min_line_rate_bytes);
	else
		n += snprintf(line + n, sizeof line - (size_t)n, "below line rate at every frame size");
	n += snprintf(line + n, sizeof line - (size_t)n, " (%.0f %% of it at 64 B, %.0f %% at 1518 B)",
		      f->ratio_64 * 100, f->ratio_1518 * 100);
	if (sl->n_occupants)
		n += snprintf(line + n, sizeof line - (size_t)n, "; in use by %s", sl->occupants[0].slot);
	for (int k = 0; k < sl->n_shared && n < (int)sizeof line - 120; k++) {
		const struct pcibw_slot_share *h = &sl->shared[k];
		bool last = k + 1 == sl->n_shared || !same_others(h, &sl->shared[k + 1]);
		bool first = !k || !same_others(&sl->shared[k - 1], h);
		n += snprintf(line + n, sizeof line - (size_t)n, "%s%s", first ? "; shares " : " and ",
			      h->hop);
		if (last)
			n += snprintf(line + n, sizeof line - (size_t)n, " with %d other slot%s", h->n_others,
				      h->n_others == 1 ? "" : "s");
	}
	(void)s;
	pcibw_text_wrapped(o, pre, line);
}

int pcibw_slots_render_text(FILE *o, const struct pcibw_report *r, const struct pcibw_slots *s)
{
	fprintf(o, "%d slot port%s (", s->n, s->n == 1 ? "" : "s");
	pcibw_text_put_visible(o, r->source);
	fprintf(o, ")\n");
	for (int i = 0; i < r->n_warnings; i++)
		if (!r->warnings[i].slot[0])
			pcibw_text_wrapped(o, "warning: ", r->warnings[i].text);
	if (s->smbios_unmatched) {
		char w[200];
		snprintf(w, sizeof w,
			 "%d SMBIOS slot record%s name%s no port of the source (its Bus Address is no port, "
			 "no device below one and no port's secondary bus)",
			 s->smbios_unmatched, s->smbios_unmatched == 1 ? "" : "s",
			 s->smbios_unmatched == 1 ? "s" : "");
		pcibw_text_wrapped(o, "warning: ", w);
	}
	for (int i = 0; i < s->n; i++) {
		fputc('\n', o);
		slot_block(o, s, &s->v[i]);
	}
	if (s->card) {
		char line[600], a[64];
		fputc('\n', o);
		snprintf(line, sizeof line,
			 "%d x %.4gG (%.4g Gbit/s per direction), profile %s, %s:", s->ports,
			 s->line_rate_gbps / s->ports, s->line_rate_gbps, s->nic,
			 s->card_from[0]
			     ? (snprintf(line + 400, 200, "the card's Link Capabilities %s from %s",
					 link_text(s->card_gts, s->card_width, a, sizeof a), s->card_from),
				line + 400)
			     : "the card taken to train at each slot's capability");
		pcibw_text_wrapped(o, "A card of ", line);
		for (int k = 0; k < s->n; k++)
			fit_line(o, s, &s->v[s->order[k]]);
		const struct pcibw_slot *b = s->n ? &s->v[s->order[0]] : NULL;
		char lab[300];
		if (b && b->rank && b->fit.known && b->fit.ratio_1518 >= 1) {
			snprintf(line, sizeof line, "%s carries the ports at line rate %s%s%s",
				 slot_label(b, lab, sizeof lab),
				 b->fit.min_line_rate_bytes == PCIBW_PORT_FIT_MIN_FRAME
				     ? "at every frame size"
				     : "from ",
				 b->fit.min_line_rate_bytes == PCIBW_PORT_FIT_MIN_FRAME
				     ? ""
				     : (snprintf(a, sizeof a, "%d B", b->fit.min_line_rate_bytes), a),
				 b->n_shared ? "; it shares the hops above it (listed with the slot)"
					     : ", sharing no hop with another slot");
			pcibw_text_wrapped(o, "Best: ", line);
		} else {
			pcibw_text_wrapped(
			    o, "Best: ", "no slot carries the ports at line rate, even at 1518 B frames");
		}
	}
	return ferror(o) ? PCIBW_EINTERNAL : PCIBW_OK;
}

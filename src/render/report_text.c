/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw report` for a person: one block per device, the facts a verdict turns on first (the
 * bus it runs on, the limiting hop and its bandwidth), then the path, registers and identity
 * details, then notes on that device's unknown facts (its warnings); warnings about no single
 * device come last. */
#include "pcibw/probe.h"
#include "report_notes.h"
#include "report_render.h"
#include "text_wrap.h"
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void fmt_gts(char *b, size_t n, double gts)
{
	if (isnan(gts))
		snprintf(b, n, "?");
	else
		snprintf(b, n, "%g GT/s", gts);
}

static void link_str(char *b, size_t n, double gts, int width)
{
	char s[32];
	fmt_gts(s, sizeof s, gts);
	if (width == PCIBW_NULL)
		snprintf(b, n, "%s x?", s);
	else
		snprintf(b, n, "%s x%d", s, width);
}

static const char *onoff(int v)
{
	return v == PCIBW_NULL ? "?" : v ? "on" : "off";
}

/* A capability bit (what the device can do, not what it runs at): "yes", "no", "?" */
static const char *yesno(int v)
{
	return v == PCIBW_NULL ? "?" : v ? "yes" : "no";
}

/* An integer register value, "?" when unknown (never "-1"). b holds >= 16 bytes. */
static const char *num(char *b, int v)
{
	if (v == PCIBW_NULL)
		return "?";
	snprintf(b, 16, "%d", v);
	return b;
}

static void bus_line(FILE *o, const struct pcibw_device *d, const struct report_notes *notes)
{
	char a[64], b[64];
	if (d->is_virtual && d->bus_kind != PCIBW_BUS_PCIE) {
		/* 64 bytes of config space (not root) hold no capability list: the kind stays unknown */
		if (d->bus_kind != PCIBW_BUS_PCI && d->bus_kind != PCIBW_BUS_PCIX)
			fprintf(o, "  bus:         emulated, of a kind the source does not show (no clock, "
				   "no ceiling)\n");
		else
			fprintf(o,
				"  bus:         %s as the guest sees it (emulated: no clock, no ceiling)\n",
				d->bus_kind == PCIBW_BUS_PCI ? "PCI" : "PCI-X");
		return;
	}
	switch (d->bus_kind) {
	case PCIBW_BUS_PCIE:
		if (pcibw_pcie_type_rc_integrated(d->pcie_port_type)) {
			fprintf(o, "  bus:         PCIe, integrated in the root complex (no link of its "
				   "own)\n");
			break;
		}
		link_str(b, sizeof b, d->max_link_speed_gts, d->max_link_width);
		if (d->empty == 1) {
			fprintf(o,
				"  bus:         PCIe, empty %s (no device, no link trained), capable of %s\n",
				d->lreg.slot_implemented == 1 ? "slot" : "port", b);
			break;
		}
		link_str(a, sizeof a, d->link_speed_gts, d->link_width);
		fprintf(o, "  bus:         PCIe %s (capable of %s)%s\n", a, b,
			d->downgraded == 1 ? " DOWNGRADED" : "");
		break;
	case PCIBW_BUS_PCI:
	case PCIBW_BUS_PCIX:
		fprintf(o, "  bus:         %s", d->bus_kind == PCIBW_BUS_PCI ? "PCI" : "PCI-X");
		if (d->bus_mhz != PCIBW_NULL)
			fprintf(o, " %d MHz", d->bus_mhz);
		if (d->bus_width_bits != PCIBW_NULL)
			fprintf(o, " %d-bit", d->bus_width_bits);
		else if (!d->is_virtual)
			fprintf(o, " width ?");
		if (d->pcix_mode != PCIBW_PCIX_MODE_NULL)
			fprintf(o, " (mode %s)", pcibw_pcix_mode_name(d->pcix_mode));
		fprintf(o, ", shared%s\n",
			d->pcix_capable && d->bus_kind == PCIBW_BUS_PCI ? "; the device is PCI-X capable"
									: "");
		break;
	default: {
		/* the reason is the device's own note, or a warning about the whole source (an hwloc
		 * export holds no config space): point at the one that is there */
		int n = 0, said = 0;
		const int *mine = render_report_notes_of(notes, d->slot, &n);
		for (int k = 0; k < n; k++)
			said += strcmp(notes->r->warnings[mine[k]].code, "port-fit-unknown") != 0;
		fprintf(o, "  bus:         unknown (%s)\n",
			said ? "see the notes" : "the source does not show it: see the warnings");
	}
	}
}

/* as lspci writes exit latencies: "512ns", "4us" */
static const char *latency(char *b, int ns)
{
	if (ns >= 1000)
		snprintf(b, 32, "%dus", ns / 1000);
	else
		snprintf(b, 32, "%dns", ns);
	return b;
}

static const char *aspm_text(int v, bool none_word)
{
	const char *s = pcibw_aspm_name(v, none_word);
	return s ? s : "?";
}

/* ASPM and the other link power states, as lspci -vv shows them in LnkCap/LnkCtl/L1SubCtl1 */
static void pm_line(FILE *o, const struct pcibw_device *d)
{
	if (d->aspm == PCIBW_NULL && d->aspm_link == PCIBW_NULL && d->aspm_supported == PCIBW_NULL)
		return;
	fprintf(o, "  power:       ASPM %s", aspm_text(d->aspm, false));
	fprintf(o, " (link %s", aspm_text(d->aspm_link, false));
	fprintf(o, ", supported %s", aspm_text(d->aspm_supported, true));
	char t[32];
	if (d->l0s_exit_latency_ns != PCIBW_NULL)
		fprintf(o, ", L0s exit <%s", latency(t, d->l0s_exit_latency_ns));
	if (d->l1_exit_latency_ns != PCIBW_NULL)
		fprintf(o, ", L1 exit <%s", latency(t, d->l1_exit_latency_ns));
	fprintf(o, "), L1 substates ");
	if (d->l1_substates == PCIBW_NULL)
		fprintf(o, "?");
	else if (!d->l1_substates)
		fprintf(o, "none");
	else {
		static const struct {
			int bit;
			const char *name;
		} ss[] = {{PCIBW_L1SS_ASPM_L11, "ASPM-L1.1"},
			  {PCIBW_L1SS_ASPM_L12, "ASPM-L1.2"},
			  {PCIBW_L1SS_PCIPM_L11, "PCI-PM-L1.1"},
			  {PCIBW_L1SS_PCIPM_L12, "PCI-PM-L1.2"}};
		bool first = true;
		for (unsigned i = 0; i < sizeof ss / sizeof ss[0]; i++)
			if (d->l1_substates & ss[i].bit) {
				fprintf(o, "%s%s", first ? "" : " ", ss[i].name);
				first = false;
			}
	}
	fprintf(o, ", clock PM %s\n", onoff(d->clock_pm));
}

/* "10G", "2.5G", "100M" */
static const char *rate(char *b, double gbps)
{
	if (gbps < 1)
		snprintf(b, 32, "%gM", gbps * 1000);
	else
		snprintf(b, 32, "%gG", gbps);
	return b;
}

/* "2 x 10G on this x4 Gen2 link: line rate from 128 B; at 64 B the bus carries 9.6 Mpps, 32 % of
 * the 29.8 Mpps line rate" */
static void port_fit_line(FILE *o, const struct pcibw_device *d)
{
	if (!pcibw_is_network_class(d->class_id))
		return;
	const struct pcibw_port_fit *f = &d->port_fit;
	if (!f->known) {
		fprintf(o, "  port fit:    unknown (%s)\n", f->why);
		return;
	}
	char r1[32], what[96];
	double each = f->ports > 0 ? f->line_rate_gbps / f->ports : f->line_rate_gbps;
	const struct pcibw_bus *b = &f->bus;
	/* an on-package MAC is modelled on the chipset's uplink, not on the link its card shows */
	bool uplink = b->kind == PCIBW_BUS_PCIE && b->note[0] && d->n_path > 0 &&
		      pcibw_device_is_onpackage(d->vendor_id, d->device_id);
	if (b->kind == PCIBW_BUS_PCIE)
		snprintf(what, sizeof what, "%sx%d Gen%d link", uplink ? ", " : "", b->lanes, b->gen);
	else
		snprintf(what, sizeof what, "%s %d MHz%s %d-bit bus",
			 b->kind == PCIBW_BUS_PCIX ? "PCI-X" : "PCI", b->clock_mhz,
			 b->transfers_per_clock == 4   ? " QDR"
			 : b->transfers_per_clock == 2 ? " DDR"
						       : "",
			 b->width_bits);
	char r2[32], r3[32], count[160];
	if (f->port_gbps_max > f->port_gbps_min && f->port_gbps_min > 0)
		snprintf(count, sizeof count, "%d ports (%s to %s, %s in all)", f->ports,
			 rate(r1, f->port_gbps_min), rate(r2, f->port_gbps_max), rate(r3, f->line_rate_gbps));
	else
		snprintf(count, sizeof count, "%d x %s", f->ports, rate(r1, each));
	fprintf(o, "  port fit:    %s%s on %s%s%s: ", count,
		f->line_rate_assumed ? " (assumed from the ports table)" : "",
		uplink ? "the chipset's uplink " : "this ", uplink ? d->path[d->n_path - 1].slot : "", what);
	if (f->min_line_rate_bytes == PCIBW_PORT_FIT_MIN_FRAME)
		fprintf(o, "line rate at every frame size");
	else if (f->min_line_rate_bytes != PCIBW_NULL)
		fprintf(o, "line rate from %d B", f->min_line_rate_bytes);
	else
		fprintf(o, "below line rate at every frame size up to %d B (%.0f %% of it at %d B)",
			PCIBW_PORT_FIT_MAX_FRAME, f->ratio_1518 * 100, PCIBW_PORT_FIT_MAX_FRAME);
	/* the ratio as a share of line rate, so one above 1 does not read "38.1 of 16.4 Mpps" */
	fprintf(o, "; at 64 B the bus carries %.3g Mpps, %.0f %% of the %.3g Mpps line rate, profile %s",
		f->bus_mpps_64, f->ratio_64 * 100, f->need_mpps_64, f->nic);
	char assumed[160];
	if (*pcibw_port_fit_assumed(f, assumed, sizeof assumed))
		fprintf(o, "; %s assumed (not in the source)", assumed);
	fputc('\n', o);
}

/* The kind of bus at the bottleneck: the device's own, or that of the hop named. */
static enum pcibw_bus_kind bottleneck_kind(const struct pcibw_device *d)
{
	if (!strcmp(d->bottleneck_slot, d->slot))
		return d->bus_kind;
	for (int i = 0; i < d->n_path; i++)
		if (!strcmp(d->path[i].slot, d->bottleneck_slot))
			return d->path[i].bus_kind;
	return PCIBW_BUS_UNKNOWN;
}

/* "9.85 Gbit/s per direction at 0000:00:01.0"; a hop of unknown kind (an hwloc export stores a
 * speed but no config space) says only that: neither duplex nor shared is known, and the figure
 * is the source's, not a ceiling of a bus pcibw could model */
static void bottleneck_line(FILE *o, const struct pcibw_device *d)
{
	if (d->empty == 1) {
		fprintf(o, "  bottleneck:  none: an empty slot carries no traffic\n");
		return;
	}
	if (!d->bottleneck_slot[0]) {
		fprintf(o, "  bottleneck:  unknown\n");
		return;
	}
	bool own = !strcmp(d->bottleneck_slot, d->slot);
	enum pcibw_bus_kind k = bottleneck_kind(d);
	if (k == PCIBW_BUS_UNKNOWN) {
		const char *from = pcibw_device_prov(d, "bottleneck_gbps");
		fprintf(o,
			"  bottleneck:  %.2f Gbit/s at %s (%sbus kind unknown: the link speed %s stored, "
			"no bus ceiling)\n",
			d->bottleneck_gbps, d->bottleneck_slot, own ? "itself; " : "",
			from && !strcmp(from, "hwloc") ? "hwloc" : "the source");
		return;
	}
	/* a chipset MAC's own link is on-package: the block's port fit uses the uplink instead, so
	 * the headline says why the two differ */
	bool onpkg = k == PCIBW_BUS_PCIE && d->n_path > 0 &&
		     pcibw_device_is_onpackage(d->vendor_id, d->device_id) &&
		     strcmp(d->bottleneck_slot, d->path[d->n_path - 1].slot) != 0;
	fprintf(o, "  bottleneck:  %.2f Gbit/s%s at %s%s%s\n", d->bottleneck_gbps,
		d->bottleneck_shared == 1 ? " shared, half duplex" : " per direction", d->bottleneck_slot,
		!own		      ? ""
		: k == PCIBW_BUS_PCIE ? " (its own link)"
				      : " (its own bus)",
		onpkg ? " (its on-package link, which may not be a physical ceiling: see the warnings)" : "");
}

static void device_text(FILE *o, const struct pcibw_device *d, const struct report_notes *notes)
{
	fprintf(o, "%s  %s", d->slot, d->name[0] ? d->name : "(unknown device)");
	if (d->vendor_id != PCIBW_NULL)
		fprintf(o, "  [%04x:%04x]", (unsigned)d->vendor_id, (unsigned)d->device_id);
	fputc('\n', o);
	if (d->is_virtual)
		fprintf(o, "  VIRTUAL:     paravirtual device, no bus ceiling of its own\n");
	bus_line(o, d, notes);
	if (!d->is_virtual)
		bottleneck_line(o, d);
	if (d->link_cause.code) {
		char t[sizeof d->link_cause.evidence + sizeof d->link_cause.fix + 64];
		snprintf(t, sizeof t, "%s: %s", d->link_cause.code, d->link_cause.evidence);
		pcibw_text_wrapped(o, "  link cause:  ", t);
		pcibw_text_wrapped(o, "  fix:         ", d->link_cause.fix);
	}
	if (d->aer.correctable != PCIBW_NULL || d->aer.nonfatal != PCIBW_NULL || d->aer.fatal != PCIBW_NULL) {
		char c[3][24];
		const long long v[3] = {d->aer.correctable, d->aer.nonfatal, d->aer.fatal};
		for (int k = 0; k < 3; k++)
			if (v[k] == PCIBW_NULL)
				snprintf(c[k], sizeof c[k], "?");
			else
				snprintf(c[k], sizeof c[k], "%lld", v[k]);
		fprintf(o, "  AER:         %s correctable, %s non-fatal, %s fatal (since boot)\n", c[0], c[1],
			c[2]);
	}
	if (d->n_path) {
		fprintf(o, "  path:       ");
		for (int i = 0; i < d->n_path; i++) {
			const struct pcibw_hop *h = &d->path[i];
			char l[64] = "";
			if (h->bus_kind == PCIBW_BUS_PCIE)
				link_str(l, sizeof l, h->link_speed_gts, h->link_width);
			fprintf(o, "%s %s %s%s", i ? " ->" : "", h->slot, pcibw_device_kind_name(h->bus_kind),
				l[0] ? " " : "");
			fprintf(o, "%s", l);
			if (!isnan(h->gbps))
				fprintf(o, " (%.2f Gbit/s)", h->gbps);
		}
		fputc('\n', o);
	} else {
		fprintf(o, "  path:        (no upstream bridge in the source)\n");
	}
	if (d->n_peers) {
		fprintf(o, "  shares bus:  ");
		for (int i = 0; i < d->n_peers; i++)
			fprintf(o, "%s%s", i ? ", " : "", d->peers[i]);
		fputc('\n', o);
	}
	char n1[16], n2[16], n3[16], n4[16];
	if (d->bus_kind == PCIBW_BUS_PCIE)
		fprintf(o,
			"  registers:   MPS %s, MRRS %s, RCB %s, relaxed ordering %s, ext tags %s, "
			"10-bit tags %s, flit %s\n",
			num(n1, d->mps_bytes), num(n2, d->mrrs_bytes), num(n3, d->rcb_bytes),
			onoff(d->relaxed_ordering), onoff(d->ext_tags), onoff(d->tags_10bit),
			onoff(d->flit_mode));
	if (d->bus_kind == PCIBW_BUS_PCIE && d->mps_supported_bytes != PCIBW_NULL)
		fprintf(o, "  payload:     MPS %s of %d supported\n", num(n1, d->mps_bytes),
			d->mps_supported_bytes);
	if (d->bus_kind == PCIBW_BUS_PCIE)
		pm_line(o, d);
	if (d->bus_kind == PCIBW_BUS_PCI || d->bus_kind == PCIBW_BUS_PCIX)
		/* Latency Timer counts PCI bus clocks (PCI Local Bus 3.0 sec. 6.2.4) */
		fprintf(o, "  registers:   latency timer %s clocks, cache line %s%s\n",
			num(n1, d->latency_timer),
			d->cacheline_bytes == PCIBW_NULL ? "size not set" : num(n2, d->cacheline_bytes),
			d->cacheline_bytes == PCIBW_NULL ? "" : " bytes");
	if (d->pcix_capable)
		fprintf(o,
			"  PCI-X:       MMRBC %s (designed %s), splits %s (designed %s); capable of "
			"64-bit %s, 133 MHz %s, 266 %s, 533 %s\n",
			num(n1, d->mmrbc_bytes), num(n2, d->pcix_designed_mmrbc_bytes),
			num(n3, d->pcix_splits), num(n4, d->pcix_designed_splits), yesno(d->pcix_64bit),
			yesno(d->pcix_133), yesno(d->pcix_266), yesno(d->pcix_533));
	if (d->numa_node != PCIBW_NULL || d->n_interfaces) {
		fprintf(o, "  host:        NUMA node ");
		if (d->numa_node == PCIBW_NULL)
			fprintf(o, "?");
		else
			fprintf(o, "%d", d->numa_node);
		char shown[4 * sizeof d->interfaces[0]];
		for (int i = 0; i < d->n_interfaces; i++) /* a copy's names may hold any byte */
			fprintf(o, "%s%s", i ? ", " : ", interfaces ",
				pcibw_text_visible(d->interfaces[i], shown, sizeof shown));
		fputc('\n', o);
	}
	port_fit_line(o, d);
	/* the interfaces' driver where it is not the function's (virtio_net under virtio-pci):
	 * the name ethtool -i and watch give */
	bool other = d->iface_driver[0] && strcmp(d->iface_driver, d->driver);
	if (d->driver[0] || d->firmware[0] || other) {
		char drv[4 * sizeof d->driver], idrv[4 * sizeof d->iface_driver], fw[4 * sizeof d->firmware];
		fprintf(o, "  driver:      %s%s%s%s%s%s\n",
			d->driver[0] ? pcibw_text_visible(d->driver, drv, sizeof drv) : "?",
			other ? " (PCI), " : "",
			other ? pcibw_text_visible(d->iface_driver, idrv, sizeof idrv) : "",
			other ? " (interfaces)" : "", d->firmware[0] ? ", firmware " : "",
			pcibw_text_visible(d->firmware, fw, sizeof fw));
	}
	if (d->class_id != PCIBW_NULL)
		fprintf(o, "  class:       %04x, revision %02x\n", (unsigned)d->class_id,
			(unsigned)(d->revision < 0 ? 0 : d->revision));
	int n;
	const int *mine = render_report_notes_of(notes, d->slot, &n);
	for (int k = 0; k < n; k++) {
		const struct pcibw_warning *w = &notes->r->warnings[mine[k]];
		if (strcmp(w->code, "port-fit-unknown")) {
			fputs("  note:        ", o);
			pcibw_text_put_visible(o, w->text);
			fputc('\n', o);
		}
	}
}

int pcibw_report_render_text(FILE *o, const struct pcibw_report *r)
{
	fprintf(o, "source: %s\n", r->source);
	if (r->aspm_policy[0])
		fprintf(o, "ASPM policy: %s\n", r->aspm_policy);
	struct report_notes notes;
	if (render_report_notes_build(&notes, r))
		return PCIBW_EINTERNAL;
	for (int i = 0; i < r->n_devices; i++) {
		fputc('\n', o);
		device_text(o, &r->devices[i], &notes);
	}
	bool head = false;
	for (int i = 0; i < r->n_warnings; i++) {
		const struct pcibw_warning *w = &r->warnings[i];
		if (render_report_notes_is_device(&notes, w->slot))
			continue; /* printed in its device's block */
		if (!head)
			fprintf(o, "\nwarnings:\n");
		head = true;
		char s[1100];
		fputs("  - ", o);
		pcibw_text_put_visible(o, pcibw_warning_string(w, s, sizeof s));
		fputc('\n', o);
	}
	render_report_notes_free(&notes);
	return ferror(o) ? PCIBW_EINTERNAL : PCIBW_OK;
}

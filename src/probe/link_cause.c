/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why a PCIe link runs below its capability, and which ports are empty slots. The link's two
 * ends are the port that faces downstream (root or switch downstream port) and the device below
 * it; each cause reads registers of one or both (section numbers are PCIe Base 5.0's):
 *   partner-limited      the other end's Link Capabilities are the lower ones (sec. 7.5.3.6,
 *                        7.5.3.18): the link trained to what both ends support, no fault;
 *   target-capped        Link Control 2 Target Link Speed below both ends' capability (sec.
 *                        7.5.3.19): firmware or software set the ceiling;
 *   autonomous-disabled  Link Control 2 Hardware Autonomous Speed Disable (sec. 7.5.3.19): the
 *                        speed cannot change on its own, it stays where it was when set;
 *   lanes-lost           negotiated width below both ends' width (sec. 7.5.3.8): the slot's
 *                        wiring, a riser, or a lane that did not train;
 *   power-managed        Link Autonomous Bandwidth Status (sec. 7.5.3.8: a change for a reason
 *                        other than reliability), or a function out of D0 (PCI PM 1.2);
 *   reliability          AER correctable errors (sec. 7.8.4.5; the kernel's counts), Link
 *                        Status 2 Equalization 8.0 GT/s Complete clear at 8 GT/s and above (sec.
 *                        7.5.3.20), or Link Bandwidth Management Status without a software cap
 *                        (sec. 7.5.3.8: hardware changed the link to correct unreliable
 *                        operation, or software retrained it: a retrain sets LBMS too);
 *   unknown              none of these, with what the source did not show.
 */
#include "probe_int.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t o = strlen(buf);
	if (o >= len - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
}

static bool known_link(const struct pcibw_device *d)
{
	return !isnan(d->link_speed_gts) && d->link_width != PCIBW_NULL && !isnan(d->max_link_speed_gts) &&
	       d->max_link_width != PCIBW_NULL;
}

static bool has_caps(const struct pcibw_device *d)
{
	return !isnan(d->max_link_speed_gts) && d->max_link_width != PCIBW_NULL;
}

static double min_gts(double a, double b)
{
	return isnan(b) ? a : b < a ? b : a;
}

static int min_width(int a, int b)
{
	return b == PCIBW_NULL ? a : b < a ? b : a;
}

/* Where a device's link facts came from, named as the evidence reads them: the registers
 * (config space), the kernel's sysfs files (read without root), or an hwloc export. */
static const char *status_source(const struct pcibw_device *d)
{
	const char *o = pcibw_device_prov(d, "link_speed_gts");
	if (o && !strcmp(o, "sysfs"))
		return "sysfs current_link_speed/current_link_width";
	if (o && !strcmp(o, "hwloc"))
		return "the hwloc export's link";
	return "Link Status";
}

static const char *caps_source(const struct pcibw_device *d)
{
	const char *o = pcibw_device_prov(d, "max_link_speed_gts");
	if (o && !strcmp(o, "sysfs"))
		return "sysfs max_link_speed/max_link_width";
	if (o && !strcmp(o, "hwloc"))
		return "the hwloc export's capability";
	return "Link Capabilities";
}

/* the sections of the two registers, where both came from config space */
static const char *sections(const struct pcibw_device *d)
{
	bool cfg_s = !strcmp(status_source(d), "Link Status"),
	     cfg_c = !strcmp(caps_source(d), "Link Capabilities");
	return cfg_s && cfg_c ? " (sec. 7.5.3.8, 7.5.3.6)"
	       : cfg_s	      ? " (sec. 7.5.3.8)"
	       : cfg_c	      ? " (sec. 7.5.3.6)"
			      : "";
}

static void set(struct pcibw_link_cause *c, const char *code)
{
	c->code = code;
}

/* The AER facts of one end that speak of an unreliable link, appended to buf; true if any. */
static bool aer_evidence(const struct pcibw_device *d, char *buf, size_t len)
{
	bool any = false;
	if (d->aer.correctable > 0 || d->aer.nonfatal > 0 || d->aer.fatal > 0) {
		add(buf, len,
		    "%s%s: the kernel counted %lld correctable, %lld non-fatal, %lld fatal AER errors since "
		    "boot (sysfs aer_dev_*, sec. 7.8.4)",
		    buf[0] ? "; " : "", d->slot, d->aer.correctable > 0 ? d->aer.correctable : 0,
		    d->aer.nonfatal > 0 ? d->aer.nonfatal : 0, d->aer.fatal > 0 ? d->aer.fatal : 0);
		any = true;
	}
	static const struct {
		unsigned bit;
		const char *name;
	} ce[] = {{PCI_ERR_COR_RCVR, "Receiver Error"},
		  {PCI_ERR_COR_BAD_TLP, "Bad TLP"},
		  {PCI_ERR_COR_BAD_DLLP, "Bad DLLP"},
		  {PCI_ERR_COR_REP_ROLL, "REPLAY_NUM Rollover"},
		  {PCI_ERR_COR_REP_TIMER, "Replay Timer Timeout"}};
	if (d->lreg.aer_cor_status != PCIBW_NULL) {
		char names[160] = "";
		for (unsigned i = 0; i < sizeof ce / sizeof ce[0]; i++)
			if ((unsigned long long)d->lreg.aer_cor_status & ce[i].bit)
				add(names, sizeof names, "%s%s", names[0] ? ", " : "", ce[i].name);
		if (names[0]) {
			add(buf, len, "%s%s: AER Correctable Error Status 0x%08llx: %s (sec. 7.8.4.5)",
			    buf[0] ? "; " : "", d->slot, (unsigned long long)d->lreg.aer_cor_status, names);
			any = true;
		}
	}
	return any;
}

void probe_link_cause(const struct pcibw_device *self, const struct pcibw_device *partner,
		      struct pcibw_link_cause *out)
{
	memset(out, 0, sizeof *out);
	if (self->bus_kind != PCIBW_BUS_PCIE || self->empty == 1 || !known_link(self))
		return;
	double s = self->link_speed_gts;
	int w = self->link_width;
	if (!(s < self->max_link_speed_gts) && !(w < self->max_link_width))
		return; /* at its capability */
	if (partner && !has_caps(partner))
		partner = NULL;
	char *ev = out->evidence, *fix = out->fix;
	size_t evl = sizeof out->evidence, fixl = sizeof out->fix;
	bool self_down = pcibw_pcie_type_faces_downstream(self->pcie_port_type);
	/* the downstream-facing end: its Link Control 2 and Link Status bits rule the link */
	const struct pcibw_device *dsp = self_down ? self : partner;
	const struct pcibw_device *ends[2] = {self, partner};
	double cs = min_gts(self->max_link_speed_gts, partner ? partner->max_link_speed_gts : NAN);
	int cw = min_width(self->max_link_width, partner ? partner->max_link_width : PCIBW_NULL);
	bool speed_short = s < cs, width_short = w < cw;
	add(ev, evl, "%s %g GT/s x%d, %s %g GT/s x%d%s", status_source(self), s, w, caps_source(self),
	    self->max_link_speed_gts, self->max_link_width, sections(self));
	if (partner)
		add(ev, evl, "; the other end %s: %s %g GT/s x%d", partner->slot, caps_source(partner),
		    partner->max_link_speed_gts, partner->max_link_width);
	else
		add(ev, evl,
		    "; the other end of the link is not in the source, so its capability is unknown "
		    "(if it is the lower one the link is partner-limited)");

	if (partner && !speed_short && !width_short) {
		set(out, "partner-limited");
		add(ev, evl, ": the link runs at %g GT/s x%d, the most both ends support", cs, cw);
		double top_s = self->max_link_speed_gts > partner->max_link_speed_gts
				   ? self->max_link_speed_gts
				   : partner->max_link_speed_gts;
		int top_w = self->max_link_width > partner->max_link_width ? self->max_link_width
									   : partner->max_link_width;
		add(fix, fixl,
		    "none needed: not a fault; for more, a card and slot that both support %g GT/s x%d",
		    top_s, top_w);
		return;
	}
	/* the speed: a ceiling set in Link Control 2, then one frozen there */
	double target = dsp ? dsp->lreg.target_speed_gts : NAN;
	if (speed_short && !isnan(target) && target < cs && !(s > target)) {
		set(out, "target-capped");
		add(ev, evl,
		    "; %s Link Control 2 Target Link Speed %g GT/s (sec. 7.5.3.19), below %s %g GT/s",
		    dsp->slot, target, partner ? "both ends' capability" : "this end's capability", cs);
		if (dsp->lreg.lbms == 1)
			add(ev, evl,
			    "; Link Bandwidth Management Status set (sec. 7.5.3.8): the retrain that "
			    "applied the target sets it too");
		add(fix, fixl,
		    "firmware (a BIOS/UEFI PCIe link speed setting) or software (setpci, a driver, the "
		    "kernel's PCIe bandwidth controller) set the ceiling: set the slot to Auto or %g GT/s in "
		    "firmware, or write Target Link Speed %g GT/s into %s's Link Control 2 and retrain the "
		    "link (Link Control Retrain Link, sec. 7.5.3.7)",
		    cs, cs, dsp->slot);
		return;
	}
	for (int k = 0; speed_short && k < 2; k++) {
		const struct pcibw_device *e = ends[k];
		if (e && e->lreg.hasd == 1) {
			set(out, "autonomous-disabled");
			add(ev, evl,
			    "; %s Link Control 2 Hardware Autonomous Speed Disable set (sec. 7.5.3.19): "
			    "hardware may not change the speed on its own, so the link stays at the "
			    "%g GT/s it held",
			    e->slot, s);
			add(fix, fixl,
			    "clear Hardware Autonomous Speed Disable on %s (firmware or the driver that "
			    "set it) and retrain the link (Link Control Retrain Link, sec. 7.5.3.7)",
			    e->slot);
			return;
		}
	}
	if (partner && width_short) {
		set(out, "lanes-lost");
		add(ev, evl, "; x%d negotiated of the x%d both ends support", w, cw);
		add(fix, fixl,
		    "reseat the card; check that the slot is wired for x%d (many x16 slots carry x8 or "
		    "x4: the board manual) and the riser or cable; a lane that fails to train shows as "
		    "AER Receiver Errors",
		    cw);
		return;
	}
	/* power management, then reliability */
	for (int k = 0; k < 2; k++) {
		const struct pcibw_device *e = ends[k];
		if (!e)
			continue;
		if (e->lreg.labs == 1 && e == dsp) {
			set(out, "power-managed");
			add(ev, evl,
			    "; %s Link Status Link Autonomous Bandwidth Status set (sec. 7.5.3.8): hardware "
			    "changed the speed or width on its own for a reason other than reliability, "
			    "such as power management",
			    e->slot);
			add(fix, fixl,
			    "check the device's and the platform's power saving (the driver's, ASPM "
			    "policy, firmware); under load the link should return to %g GT/s x%d",
			    cs, cw);
			return;
		}
		if (e->lreg.power_state > 0) {
			set(out, "power-managed");
			add(ev, evl,
			    "; %s is in D%d (PCI PM Control/Status PowerState, PCI Bus Power Management "
			    "1.2 sec. 5.6.4.1): a function out of D0 may keep its link slow",
			    e->slot, e->lreg.power_state);
			add(fix, fixl,
			    "bring the device to D0 (load or bind its driver, use it) and read again");
			return;
		}
	}
	char rel[sizeof out->evidence] = "";
	bool reliability = false;
	for (int k = 0; k < 2; k++)
		if (ends[k])
			reliability |= aer_evidence(ends[k], rel, sizeof rel);
	for (int k = 0; k < 2; k++) {
		const struct pcibw_device *e = ends[k];
		if (e && e->lreg.eq_8gt_complete == 0 && cs >= 8) {
			add(rel, sizeof rel,
			    "%s%s: Link Status 2 Equalization 8.0 GT/s Complete clear (sec. 7.5.3.20): "
			    "equalization for 8 GT/s and above did not finish",
			    rel[0] ? "; " : "", e->slot);
			reliability = true;
		}
	}
	if (dsp && dsp->lreg.lbms == 1) {
		add(rel, sizeof rel,
		    "%s%s: Link Bandwidth Management Status set without a software cap (sec. 7.5.3.8): "
		    "hardware changed the speed or width to correct unreliable operation, or software "
		    "retrained the link (a retrain sets it too)",
		    rel[0] ? "; " : "", dsp->slot);
		reliability = true;
	}
	if (reliability) {
		set(out, "reliability");
		add(ev, evl, "; %s", rel);
		add(fix, fixl,
		    "reseat the card and check the riser, cable or retimer; if the errors keep growing, "
		    "move the card to another slot or replace the part");
		return;
	}
	set(out, "unknown");
	/* what the source did not show, and what to check */
	char miss[300] = "";
	if (!dsp)
		add(miss, sizeof miss, "the downstream port's Link Control 2 and Link Status");
	else if (isnan(dsp->lreg.target_speed_gts) || dsp->lreg.lbms == PCIBW_NULL)
		add(miss, sizeof miss, "%s's Link Control 2 and Link Status bits", dsp->slot);
	bool no_aer = self->aer.correctable == PCIBW_NULL && self->lreg.aer_cor_status == PCIBW_NULL;
	if (no_aer)
		add(miss, sizeof miss, "%sAER counts", miss[0] ? ", " : "");
	if (miss[0]) {
		const char *from = pcibw_device_prov(self, "link_speed_gts");
		add(ev, evl, "; the source does not show %s%s", miss,
		    from && !strcmp(from, "sysfs")
			? " (read without root, sysfs gives only current_link_* and max_link_* and the "
			  "AER counts; root reads Link Control 2, Link Status and Link Status 2 from "
			  "config space)"
			: "");
	} else {
		add(ev, evl,
		    "; no Target Link Speed cap, no Hardware Autonomous Speed Disable, no LABS or LBMS, "
		    "no AER errors");
	}
	add(fix, fixl,
	    "check the firmware's PCIe speed setting, the slot's wiring, the riser or cable%s, and read "
	    "again after a retrain",
	    miss[0] ? "; run as root (or save lspci -xxxx as root) to see the registers" : "");
}

/* A root or switch downstream port: the ports a card can sit below. */
static bool slot_port(const struct pcibw_device *d)
{
	return d->pcie_port_type == PCI_EXP_TYPE_ROOT_PORT || d->pcie_port_type == PCI_EXP_TYPE_DOWNSTREAM;
}

void probe_link_causes(struct probe_set *s)
{
	/* the first device below each bridge (the set is in slot order) */
	int *child = malloc((size_t)(s->n ? s->n : 1) * sizeof *child);
	if (!child)
		return;
	for (int i = 0; i < s->n; i++)
		child[i] = -1;
	for (int i = 0; i < s->n; i++) {
		int p = s->v[i].parent;
		if (p >= 0 && child[p] < 0)
			child[p] = i;
	}
	for (int i = 0; i < s->n; i++) {
		struct pcibw_device *d = &s->v[i].d;
		if (d->bus_kind != PCIBW_BUS_PCIE)
			continue;
		/* empty: nothing below, and the port says no card is there or no link trained
		 * (Presence Detect State, Data Link Layer Link Active, width x0) */
		bool port = slot_port(d) || (d->pcie_port_type == PCIBW_NULL && d->is_bridge);
		if (port && child[i] < 0) {
			d->empty =
			    d->lreg.presence == 0 || d->lreg.dll_active == 0 || d->link_width == PCIBW_NULL;
			if (d->empty)
				continue;
		}
		/* a bridge of unknown type (64 bytes of config) with no bridge above it in the source
		 * sits on a root bus: a root port; any other may be an upstream or downstream port */
		bool root_level = d->pcie_port_type == PCIBW_NULL && s->v[i].parent < 0;
		if (port && d->pcie_port_type == PCIBW_NULL && !root_level)
			continue;
		const struct pcibw_device *partner = NULL;
		if (slot_port(d) || (port && root_level)) {
			partner = child[i] >= 0 ? &s->v[child[i]].d : NULL;
		} else if (s->v[i].parent >= 0) {
			const struct pcibw_device *p = &s->v[s->v[i].parent].d;
			if (slot_port(p) ||
			    (p->pcie_port_type == PCIBW_NULL && p->bus_kind == PCIBW_BUS_PCIE))
				partner = p;
		}
		if (partner && partner->bus_kind != PCIBW_BUS_PCIE)
			partner = NULL;
		probe_link_cause(d, partner, &d->link_cause);
	}
	free(child);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interfaces behind one bottleneck hop, added up against it (shared_hop.h). Pure. */
#include "shared_hop.h"
#include "context.h"
#include "pcibw/words.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_segment(const struct pcibw_bus *b)
{
	return b->kind == PCIBW_BUS_PCI || b->kind == PCIBW_BUS_PCIX;
}

static bool is_costable(const struct pcibw_bus *b)
{
	return is_segment(b) || b->kind == PCIBW_BUS_PCIE;
}

/* "DDDD:BB:DD.F" without its function ("DDDD:BB:DD": every function of one device sits behind
 * the device's one link) or, for a segment, without its device too ("DDDD:BB": every device
 * on a PCI/PCI-X bus number shares that bus). */
static void slot_prefix(const char *slot, bool segment, char out[32])
{
	snprintf(out, 32, "%s", slot);
	char *p = strrchr(out, '.');
	if (p)
		*p = '\0';
	if (segment && (p = strrchr(out, ':')))
		*p = '\0';
}

/* The key an interface groups by; false when it joins no group. *own_hop: the hop is the
 * interface's own link or segment. */
static bool group_key(const struct watch_meta_if *mi, const struct pcibw_bus *hb, char key[32],
		      bool *inferred, bool *own_hop)
{
	const char *own = mi->pf[0] ? mi->pf : mi->wi.slot;
	*inferred = !mi->hop[0];
	*own_hop = false;
	if (mi->hop[0] && strcmp(mi->hop, mi->wi.slot) && strcmp(mi->hop, mi->pf)) {
		snprintf(key, 32, "%s", mi->hop);
		return true;
	}
	*own_hop = true;
	/* the hop is the function's own link or segment: its device's, shared by its functions */
	if (!own[0] || !is_costable(hb))
		return false;
	slot_prefix(own, is_segment(hb), key);
	return true;
}

static void vf_note(const struct watch_ctx *ctx, struct pcibw_watch_hop *g)
{
	char vfs[sizeof g->names] = "";
	size_t o = 0;
	for (int k = 0; k < g->n; k++)
		if (g->vf[k])
			o += (size_t)snprintf(vfs + o, sizeof vfs - o, "%s%s", o ? ", " : "",
					      ctx->meta.ifs[g->member[k]].wi.name);
	const char *s = g->n_vf > 1 ? "s" : "";
	if (g->pf_watched)
		snprintf(g->note, sizeof g->note, "VF%s %s counted with PF %s against the PF's link", s, vfs,
			 g->pf);
	else
		snprintf(g->note, sizeof g->note,
			 "VF%s %s of PF %s counted against the PF's link; the PF is not watched: its own "
			 "traffic (and that of any VF not watched) is not included",
			 s, vfs, g->pf);
}

int watch_shared_setup(struct watch_ctx *ctx, const char *where, struct pcibw_err *err)
{
	struct watch_shared *sh = &ctx->shared;
	memset(sh, 0, sizeof *sh);
	char keys[PCIBW_WATCH_MAX_HOPS][32];
	for (int i = 0; i < ctx->meta.n; i++) {
		const struct watch_meta_if *mi = &ctx->meta.ifs[i];
		struct pcibw_bus *hb = &sh->bus[i];
		if (ctx->m[i].virtual_nic)
			continue;
		if (mi->hop_bus[0]) {
			struct pcibw_err why = {0}; /* not err: it is the message being written */
			if (pcibw_bus_parse(mi->hop_bus, hb, &why))
				return pcibw_fail(err, where ? PCIBW_EINPUT : PCIBW_EUSAGE,
						  "%s%s%s: hop_bus '%s': %s", where ? where : "",
						  where ? ": " : "", mi->wi.name, mi->hop_bus, why.msg);
		} else if (mi->bus[0] && is_costable(&ctx->m[i].res.bus)) {
			*hb = ctx->m[i].res.bus;
		}
		char key[32];
		bool inferred, own_hop;
		if (!group_key(mi, hb, key, &inferred, &own_hop))
			continue;
		/* only a function whose own link attributes are read (not a VF's, nor a virtio
		 * parent's) follows its link's speed and width */
		sh->own_hop[i] = own_hop && mi->wi.own_link && !mi->pf[0] && hb->kind == PCIBW_BUS_PCIE;
		int g = 0;
		while (g < sh->n && strcmp(keys[g], key))
			g++;
		if (g == sh->n) {
			if (sh->n == PCIBW_WATCH_MAX_HOPS)
				continue;
			memset(&sh->g[g], 0, sizeof sh->g[g]);
			snprintf(keys[g], sizeof keys[g], "%s", key);
			snprintf(sh->g[g].hop, sizeof sh->g[g].hop, "%s", key);
			sh->g[g].inferred = inferred;
			sh->n++;
		}
		struct pcibw_watch_hop *gr = &sh->g[g];
		gr->vf[gr->n] = mi->pf[0] != '\0';
		if (mi->pf[0]) {
			gr->n_vf++;
			if (!gr->pf[0])
				snprintf(gr->pf, sizeof gr->pf, "%s", mi->pf);
		}
		gr->member[gr->n++] = i;
	}
	/* a group is two or more interfaces, or a VF alone (its PF's link carries traffic watch
	 * does not see, which the group says) */
	int kept = 0;
	for (int g = 0; g < sh->n; g++) {
		struct pcibw_watch_hop *gr = &sh->g[g];
		if (gr->n < 2 && gr->n_vf == 0)
			continue;
		size_t o = 0;
		gr->costed = true;
		for (int k = 0; k < gr->n; k++) {
			int i = gr->member[k];
			const struct watch_meta_if *mi = &ctx->meta.ifs[i];
			o += (size_t)snprintf(gr->names + o, sizeof gr->names - o, "%s%s", k ? ", " : "",
					      mi->wi.name);
			if (gr->pf[0] && !strcmp(mi->wi.slot, gr->pf))
				gr->pf_watched = true;
			if (!is_costable(&sh->bus[i]) && gr->costed) {
				gr->costed = false;
				snprintf(gr->why, sizeof gr->why, "%s: its bus on the hop is unknown",
					 mi->wi.name);
			} else if (!ctx->m[i].res.nic_name[0] && gr->costed) {
				gr->costed = false;
				snprintf(gr->why, sizeof gr->why, "%s: no NIC profile", mi->wi.name);
			}
		}
		const struct pcibw_bus *b0 = &sh->bus[gr->member[0]];
		gr->segment = is_segment(b0);
		if (is_costable(b0))
			pcibw_bus_format(b0, gr->hop_bus, sizeof gr->hop_bus);
		if (gr->n_vf) {
			char pfdev[32];
			slot_prefix(gr->pf, false, pfdev);
			if (gr->inferred || !strcmp(gr->hop, pfdev)) /* the PF's own link: named by the PF */
				snprintf(gr->hop, sizeof gr->hop, "%s", gr->pf);
			vf_note(ctx, gr);
		}
		if (kept != g)
			sh->g[kept] = *gr;
		kept++;
	}
	sh->n = kept;
	return PCIBW_OK;
}

/* Bus resources summed over members: a resource is named by its load name and which occurrence
 * of that name it is (the root complex appears once per direction, to-device first). */
struct res_acc {
	int n;
	const char *name[24];
	int occ[24];
	double both[24], dir[2][24];
};

static void acc_add(struct res_acc *a, const struct pcibw_model_loads *l, double pps, int d)
{
	for (int k = 0; k < l->n; k++) {
		if (!l->bus[k])
			continue;
		int occ = 0;
		for (int j = 0; j < k; j++)
			occ += !strcmp(l->name[j], l->name[k]);
		int r = 0;
		while (r < a->n && (strcmp(a->name[r], l->name[k]) || a->occ[r] != occ))
			r++;
		if (r == a->n) {
			if (a->n == 24)
				continue;
			a->name[r] = l->name[k];
			a->occ[r] = occ;
			a->n++;
		}
		a->both[r] += pps * l->s[k];
		a->dir[d][r] += pps * l->s[k];
	}
}

static double acc_max(const struct res_acc *a, const double *v, const char **name)
{
	double best = NAN;
	for (int r = 0; r < a->n; r++)
		if (isnan(best) || v[r] > best) {
			best = v[r];
			if (name)
				*name = a->name[r];
		}
	return best;
}

static void dir_nan(struct pcibw_watch_hop_dir *d)
{
	d->pps = d->gbps = d->frame_bytes = d->util = d->ceiling_mpps = NAN;
}

/* A hop that is the member's own link, read again this interval (a link that trained down under
 * load carries less): true when it now reads other than the bus modelled. */
static bool relink(struct pcibw_bus *b, const struct pcibw_watch_ifiv *f)
{
	if (!(f->link_gts > 0) || f->link_width <= 0 || pcibw_pcie_gen_of_gts(f->link_gts) == 0)
		return false;
	if (fabs(f->link_gts - b->gts) < 1e-6 && f->link_width == b->lanes)
		return false;
	b->gts = f->link_gts;
	b->lanes = f->link_width;
	b->gen = pcibw_pcie_gen_of_gts(b->gts);
	b->flit = b->flit || pcibw_pcie_flit_required(b->gts);
	return true;
}

/* The machine as the summed rows see it: the hop is their bus; no one wire carries them (each
 * member's own rows judge its wire). */
static void hop_machine(const struct watch_ctx *ctx, const struct pcibw_watch_hop *gr,
			struct pcibw_machine *mach)
{
	*mach = ctx->mach;
	mach->have_bus = true;
	mach->bus_virtual = false;
	mach->line_rate_gbps = 0;
	mach->bus_note[0] = '\0';
	/* 15 + 16 + 2 + 60 + 1 bytes fit bus_name: a slot and a whole spec, not one cut mid-key */
	snprintf(mach->bus_name, sizeof mach->bus_name, "shared %s %.16s (%.60s)",
		 gr->segment ? "segment" : "hop", gr->hop, gr->hop_bus);
}

/* The summed row through the shared engine: the hop as the row's bus, its summed packets at
 * the mean frame, the hop's ceiling at this mix, the interval's CPU. */
static int judge(const struct watch_ctx *ctx, const struct pcibw_watch_hop *gr,
		 const struct pcibw_watch_interval *iv, const struct pcibw_thresholds *t,
		 struct pcibw_watch_hop_iv *o, struct pcibw_err *err)
{
	double pps = o->rx.pps + o->tx.pps;
	double bytes = (o->rx.gbps + o->tx.gbps) * 1e9 / 8;
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = "shared";
	m.size_bytes = bytes / pps + 4;
	m.size_conv = PCIBW_SIZE_FRAME;
	m.direction = o->rx.pps >= o->tx.pps ? PCIBW_PAT_RX : PCIBW_PAT_TX;
	m.pps = pps;
	m.cpu_pct = isnan(iv->cpu_busy) ? NAN : iv->cpu_busy * 100;
	m.core_max_pct = isnan(iv->busiest_busy) ? NAN : iv->busiest_busy * 100;
	snprintf(m.iface, sizeof m.iface, "%.*s", (int)sizeof m.iface - 1, gr->hop);
	struct pcibw_rows rs = {0};
	struct pcibw_summary sum = {0};
	int st = pcibw_rows_add(&rs, &m, err);
	if (!st) {
		pcibw_rows_finish(&rs);
		struct pcibw_row *r = &rs.v[0];
		r->pattern = r->direction;
		r->packet_bytes = r->basis_bytes = r->size_bytes;
		pcibw_row_rates(r);
		r->bus_mpps = pps / o->util / 1e6;
		r->bus_gbps = r->bus_mpps * 1e6 * r->size_bytes * 8 / 1e9;
		r->bound_by = o->bound_by;
		struct pcibw_machine mach;
		hop_machine(ctx, gr, &mach);
		st = pcibw_verdict_run(&rs, t, &mach, &sum, err);
		if (!st)
			pcibw_verdict_words(&rs, &mach, &sum);
	}
	if (!st) {
		o->verdict = sum.verdict;
		for (int k = 0; k < sum.n_evidence && o->n_evidence < 4; k++)
			snprintf(o->evidence[o->n_evidence++], sizeof o->evidence[0], "%s", sum.evidence[k]);
		/* the reasons of the lines kept */
		for (int k = 0; k < sum.n_reasons && o->n_reasons < PCIBW_WATCH_HOP_REASONS; k++)
			if (sum.reasons[k].evidence_index < o->n_evidence)
				o->reasons[o->n_reasons++] = sum.reasons[k];
	}
	pcibw_summary_free(&sum);
	pcibw_rows_free(&rs);
	return st;
}

int watch_shared_interval(const struct watch_ctx *ctx, const struct pcibw_watch_interval *iv,
			  const struct pcibw_rows *own, const struct pcibw_thresholds *t,
			  struct pcibw_watch_hop_ivs *out, struct pcibw_err *err)
{
	const struct watch_shared *sh = &ctx->shared;
	out->n = sh->n;
	for (int g = 0; g < sh->n; g++) {
		const struct pcibw_watch_hop *gr = &sh->g[g];
		struct pcibw_watch_hop_iv *o = &out->g[g];
		memset(o, 0, sizeof *o);
		dir_nan(&o->rx);
		dir_nan(&o->tx);
		o->util = o->own_max = NAN;
		o->verdict = PCIBW_V_UNDETERMINED;
		if (!gr->costed)
			continue;
		struct res_acc acc;
		memset(&acc, 0, sizeof acc);
		double pps[2] = {0, 0}, bytes[2] = {0, 0};
		bool any = false, bad = false;
		/* masters contending for a segment: the members that moved packets */
		int active = 0;
		for (int k = 0; k < gr->n; k++) {
			int i = gr->member[k];
			const struct pcibw_watch_ifiv *f = i < iv->n_ifs ? &iv->ifs[i] : NULL;
			active += f && f->present && f->valid && (f->rx.pps > 0 || f->tx.pps > 0);
		}
		for (int k = 0; k < gr->n && !bad; k++) {
			int i = gr->member[k];
			if (i >= iv->n_ifs)
				continue;
			const struct pcibw_watch_ifiv *f = &iv->ifs[i];
			if (!f->present || !f->valid)
				continue;
			for (int d = 0; d < 2; d++) {
				const struct pcibw_watch_dir *wd = d == 0 ? &f->rx : &f->tx;
				const struct pcibw_row *r =
				    watch_row_of(own, f->name, d == 0 ? PCIBW_PAT_RX : PCIBW_PAT_TX);
				if (r && !isnan(r->bus_util) && !(r->bus_util <= o->own_max))
					o->own_max = r->bus_util;
				if (!(wd->pps > 0) || isnan(wd->frame_bytes))
					continue;
				struct pcibw_bus hb = sh->bus[i];
				if (sh->own_hop[i] && relink(&hb, f)) {
					o->relinked = true;
					snprintf(o->link, sizeof o->link, "%g GT/s x%d", hb.gts, hb.lanes);
				}
				/* the profile as settled for the member's link as it is this interval
				 * (a driver's slow-link defaults follow a link that trained down) */
				const struct pcibw_machine *mach;
				const struct pcibw_resolved *mr =
				    watch_link_res(ctx, i, ctx->m[i].link_now, &mach);
				struct pcibw_model_in in = {
				    .bus = &hb,
				    .nic = &mr->nic,
				    .pattern = d == 0 ? PCIBW_PAT_RX : PCIBW_PAT_TX,
				    .size_is = PCIBW_SIZE_FRAME,
				    .segment_devices = gr->segment && active > 1 ? active : 1,
				};
				struct pcibw_model_loads l;
				struct pcibw_err e = {0};
				if (pcibw_model_loads(&in, fmin(fmax(wd->frame_bytes, 1), 65536), &l, &e)) {
					snprintf(o->note, sizeof o->note, "%s: no model on the hop: %.250s",
						 f->name, e.msg);
					bad = true;
					break;
				}
				acc_add(&acc, &l, wd->pps, d);
				pps[d] += wd->pps;
				bytes[d] += wd->gbps * 1e9 / 8;
				any = true;
			}
		}
		if (bad || !any || acc.n == 0)
			continue;
		struct pcibw_watch_hop_dir *dirs[2] = {&o->rx, &o->tx};
		for (int d = 0; d < 2; d++) {
			struct pcibw_watch_hop_dir *x = dirs[d];
			x->pps = pps[d];
			x->gbps = bytes[d] * 8 / 1e9;
			x->util = acc_max(&acc, acc.dir[d], NULL);
			if (pps[d] > 0) {
				x->frame_bytes = bytes[d] / pps[d] + 4;
				x->ceiling_mpps = x->util > 0 ? pps[d] / x->util / 1e6 : NAN;
			}
		}
		o->util = acc_max(&acc, acc.both, &o->bound_by);
		if (!(o->util > 0))
			continue;
		o->valid = true;
		int st = judge(ctx, gr, iv, t, o, err);
		if (st)
			return st;
		o->limiting =
		    (o->verdict == PCIBW_V_IO || o->verdict == PCIBW_V_IMPOSSIBLE) && !(o->own_max >= t->bus);
		if (o->limiting || o->relinked)
			pcibw_hop_note_words(gr, o, o->note, sizeof o->note);
	}
	return PCIBW_OK;
}

static int grow(struct watch_shared_run *run, int g, int need, struct pcibw_err *err)
{
	if (need <= run->cap[g])
		return PCIBW_OK;
	int cap = run->cap[g] ? run->cap[g] * 2 : 8;
	while (cap < need)
		cap *= 2;
	double *s = realloc(run->ceil_sum[g], (size_t)cap * sizeof *s);
	if (s)
		run->ceil_sum[g] = s;
	long *n = realloc(run->ceil_n[g], (size_t)cap * sizeof *n);
	if (n)
		run->ceil_n[g] = n;
	if (!s || !n)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	for (int k = run->cap[g]; k < cap; k++) {
		s[k] = 0;
		n[k] = 0;
	}
	run->cap[g] = cap;
	return PCIBW_OK;
}

int watch_shared_remember(struct watch_shared_run *run, const struct watch_ctx *ctx,
			  const struct pcibw_watch_interval *iv, const struct pcibw_watch_hop_ivs *s,
			  struct pcibw_err *err)
{
	for (int g = 0; g < s->n; g++) {
		const struct pcibw_watch_hop_iv *o = &s->g[g];
		if (!o->valid)
			continue;
		if (o->limiting)
			run->out.limiting[g]++;
		if (run->out.peak_util[g] == 0 || o->util > run->out.peak_util[g]) {
			run->out.peak_util[g] = o->util;
			run->out.peak_t[g] = iv->t;
		}
		double pps = o->rx.pps + o->tx.pps;
		struct pcibw_measured m;
		pcibw_measured_init(&m);
		m.source = "shared";
		m.size_bytes = round((o->rx.gbps + o->tx.gbps) * 1e9 / 8 / pps + 4);
		m.size_conv = PCIBW_SIZE_FRAME;
		m.direction = o->rx.pps >= o->tx.pps ? PCIBW_PAT_RX : PCIBW_PAT_TX;
		m.pps = pps;
		m.cpu_pct = isnan(iv->cpu_busy) ? NAN : iv->cpu_busy * 100;
		m.core_max_pct = isnan(iv->busiest_busy) ? NAN : iv->busiest_busy * 100;
		snprintf(m.iface, sizeof m.iface, "%.*s", (int)sizeof m.iface - 1, ctx->shared.g[g].hop);
		/* a link that trained down is another ceiling: its intervals are rows of their own */
		snprintf(m.series, sizeof m.series, "%s", o->link);
		int st = pcibw_rows_add(&run->rows[g], &m, err);
		if (st)
			return st;
		int r = 0;
		const struct pcibw_rows *rs = &run->rows[g];
		while (r < rs->n &&
		       !(rs->v[r].size_bytes == m.size_bytes && rs->v[r].direction == m.direction &&
			 !strcmp(rs->v[r].series, m.series)))
			r++;
		if (r == rs->n || (st = grow(run, g, rs->n, err)))
			return st ? st : pcibw_fail(err, PCIBW_EINTERNAL, "shared row not found");
		run->ceil_sum[g][r] += pps / o->util;
		run->ceil_n[g][r]++;
	}
	return PCIBW_OK;
}

int watch_shared_finish(struct watch_shared_run *run, const struct watch_ctx *ctx,
			const struct pcibw_thresholds *t, struct pcibw_err *err)
{
	for (int g = 0; g < ctx->shared.n; g++) {
		struct pcibw_rows *rs = &run->rows[g];
		const struct pcibw_watch_hop *gr = &ctx->shared.g[g];
		if (!rs->n)
			continue;
		pcibw_rows_finish(rs);
		for (int k = 0; k < rs->n; k++) {
			struct pcibw_row *r = &rs->v[k];
			r->pattern = r->direction;
			r->packet_bytes = r->basis_bytes = r->size_bytes;
			pcibw_row_rates(r);
			if (k < run->cap[g] && run->ceil_n[g][k] > 0) {
				r->bus_mpps = run->ceil_sum[g][k] / (double)run->ceil_n[g][k] / 1e6;
				r->bus_gbps = r->bus_mpps * 1e6 * r->size_bytes * 8 / 1e9;
			}
		}
		struct pcibw_machine mach;
		hop_machine(ctx, gr, &mach);
		int st = pcibw_verdict_run(rs, t, &mach, &run->out.sum[g], err);
		if (st)
			return st;
		pcibw_verdict_words(rs, &mach, &run->out.sum[g]);
		run->out.have_sum[g] = true;
	}
	return PCIBW_OK;
}

void watch_shared_run_free(struct watch_shared_run *run)
{
	for (int g = 0; g < PCIBW_WATCH_MAX_HOPS; g++) {
		pcibw_rows_free(&run->rows[g]);
		pcibw_summary_free(&run->out.sum[g]);
		free(run->ceil_sum[g]);
		free(run->ceil_n[g]);
	}
	memset(run, 0, sizeof *run);
}

bool watch_hop_of_device(const struct pcibw_device *d, const struct pcibw_bus *own, char hop[32], char *spec,
			 unsigned len)
{
	hop[0] = '\0';
	if (len)
		spec[0] = '\0';
	if (!d->bottleneck_slot[0] || !is_costable(own))
		return false;
	struct pcibw_bus b = *own;
	if (pcibw_device_is_onpackage(d->vendor_id, d->device_id) && d->n_path > 0 && own->note[0]) {
		/* a MAC inside the chipset: its own link is no ceiling, and its bus already is the
		 * chipset's uplink, the root-most hop, which every port of it crosses */
		snprintf(hop, 32, "%s", d->path[d->n_path - 1].slot);
		pcibw_bus_format(own, spec, len);
		return true;
	}
	if (strcmp(d->bottleneck_slot, d->slot)) {
		const struct pcibw_hop *p = NULL;
		for (int k = 0; k < d->n_path && !p; k++)
			if (!strcmp(d->path[k].slot, d->bottleneck_slot))
				p = &d->path[k];
		if (!p)
			return false;
		if (p->bus_kind == PCIBW_BUS_PCIE) {
			if (isnan(p->link_speed_gts) || p->link_width <= 0)
				return false;
			if (own->kind != PCIBW_BUS_PCIE) {
				/* a PCI/PCI-X device's traffic on a PCIe link above its bridge: the
				 * bridge's registers are not known, so the contract's defaults */
				pcibw_bus_defaults(&b);
				b.kind = PCIBW_BUS_PCIE;
			}
			b.gts = p->link_speed_gts;
			b.lanes = p->link_width;
			b.gen = pcibw_pcie_gen_of_gts(b.gts);
			b.flit = b.flit || pcibw_pcie_flit_required(b.gts);
		} else if (p->bus_kind != own->kind || !(fabs(p->gbps - pcibw_bus_raw_gbps(own)) < 1e-9)) {
			/* a segment other than the device's own: the path gives its bandwidth, not
			 * the clock and width a model needs */
			return false;
		}
	}
	snprintf(hop, 32, "%s", d->bottleneck_slot);
	pcibw_bus_format(&b, spec, len);
	return true;
}

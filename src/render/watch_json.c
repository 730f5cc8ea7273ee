/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw watch --json`: one JSON object per line, "type" "interval" then "summary" (keys:
 * doc/cli-contract.md "watch"). Unknown numbers are null. */
#include "json_reasons.h"
#include "pcibw/nic.h"
#include "pcibw/version.h"
#include "watch_render.h"
#include <jansson.h>
#include <math.h>
#include <string.h>

static json_t *jnum(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *jint(long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *dir_obj(const struct pcibw_watch_dir *d, const struct pcibw_row *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "pps", jnum(d->pps));
	json_object_set_new(o, "gbps", jnum(d->gbps));
	json_object_set_new(o, "avg_bytes", jnum(d->avg_bytes));
	json_object_set_new(o, "frame_bytes", jnum(d->frame_bytes));
	json_object_set_new(o, "drops_per_s", jnum(d->drops_ps));
	json_object_set_new(o, "wire_utilisation", jnum(d->wire_util));
	json_object_set_new(o, "bus_utilisation", jnum(r ? r->bus_util : NAN));
	json_object_set_new(o, "bus_mpps", jnum(r ? r->bus_mpps : NAN));
	/* the ceiling's band and the share over its two ends (pcibw_row, as analyze rows) */
	json_object_set_new(o, "bus_mpps_low", jnum(r ? r->bus_mpps_low : NAN));
	json_object_set_new(o, "bus_mpps_high", jnum(r ? r->bus_mpps_high : NAN));
	json_object_set_new(o, "bus_utilisation_low", jnum(r ? r->bus_util_low : NAN));
	json_object_set_new(o, "bus_utilisation_high", jnum(r ? r->bus_util_high : NAN));
	json_object_set_new(o, "queues_active", jint(d->q_active));
	json_object_set_new(o, "queue_share_max", jnum(d->q_share_max));
	json_object_set_new(o, "busiest_queue", jint(d->q_busiest));
	return o;
}

static json_t *flags_arr(unsigned f)
{
	json_t *a = json_array();
	for (int i = 0; i < 17; i++)
		if (f & (1u << i))
			json_array_append_new(a, json_string(pcibw_watch_flag_name(1u << i)));
	return a;
}

static json_t *strs(char (*s)[200], int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_string(s[i]));
	return a;
}

static json_t *evidence(const struct pcibw_summary *s)
{
	json_t *a = json_array();
	for (int i = 0; s && i < s->n_evidence; i++)
		json_array_append_new(a, json_string(s->evidence[i]));
	return a;
}

static json_t *reasons(const struct pcibw_summary *s)
{
	return s ? pcibw_json_reasons(s->reasons, s->n_reasons) : json_array();
}

static json_t *group_obj(const struct pcibw_watch_setup *su, int g)
{
	const struct pcibw_watch_hop *gr = &su->hops[g];
	json_t *x = json_object();
	json_object_set_new(x, "hop", json_string(gr->hop));
	json_object_set_new(x, "hop_inferred", json_boolean(gr->inferred));
	json_object_set_new(x, "segment", json_boolean(gr->segment));
	json_object_set_new(x, "hop_bus", gr->hop_bus[0] ? json_string(gr->hop_bus) : json_null());
	json_t *ifs = json_array(), *vfs = json_array();
	for (int k = 0; k < gr->n; k++) {
		json_t *nm = json_string(su->ifs[gr->member[k]].name);
		json_array_append(ifs, nm);
		if (gr->vf[k])
			json_array_append(vfs, nm);
		json_decref(nm);
	}
	json_object_set_new(x, "interfaces", ifs);
	json_object_set_new(x, "vfs", vfs);
	json_object_set_new(x, "pf", gr->pf[0] ? json_string(gr->pf) : json_null());
	json_object_set_new(x, "pf_watched", gr->pf[0] ? json_boolean(gr->pf_watched) : json_null());
	json_object_set_new(x, "vf_note", gr->note[0] ? json_string(gr->note) : json_null());
	json_object_set_new(x, "costed", json_boolean(gr->costed));
	json_object_set_new(x, "why", gr->why[0] ? json_string(gr->why) : json_null());
	return x;
}

static json_t *shared_dir(const struct pcibw_watch_hop_dir *d)
{
	json_t *o = json_object();
	json_object_set_new(o, "pps", jnum(d->pps));
	json_object_set_new(o, "gbps", jnum(d->gbps));
	json_object_set_new(o, "frame_bytes", jnum(d->frame_bytes));
	json_object_set_new(o, "utilisation", jnum(d->util));
	json_object_set_new(o, "ceiling_mpps", jnum(d->ceiling_mpps));
	return o;
}

static json_t *shared_iv(const struct pcibw_watch_iv_result *v)
{
	json_t *a = json_array();
	for (int g = 0; v->hops && g < v->hops->n; g++) {
		const struct pcibw_watch_hop_iv *o = &v->hops->g[g];
		json_t *x = group_obj(v->setup, g);
		json_object_set_new(x, "rx", shared_dir(&o->rx));
		json_object_set_new(x, "tx", shared_dir(&o->tx));
		json_object_set_new(x, "utilisation", jnum(o->util));
		json_object_set_new(x, "bound_by", o->bound_by ? json_string(o->bound_by) : json_null());
		json_object_set_new(x, "own_utilisation_max", jnum(o->own_max));
		json_object_set_new(x, "link_now", o->link[0] ? json_string(o->link) : json_null());
		json_object_set_new(x, "verdict",
				    json_string(o->valid ? pcibw_verdict_name(o->verdict) : "undetermined"));
		json_t *ev = json_array();
		for (int k = 0; k < o->n_evidence; k++)
			json_array_append_new(ev, json_string(o->evidence[k]));
		json_object_set_new(x, "evidence", ev);
		json_object_set_new(x, "reasons", pcibw_json_reasons(o->reasons, o->n_reasons));
		json_object_set_new(x, "limiting", json_boolean(o->limiting));
		json_object_set_new(x, "note", o->note[0] ? json_string(o->note) : json_null());
		json_array_append_new(a, x);
	}
	return a;
}

static json_t *shared_summary(const struct pcibw_watch_summary_result *s)
{
	json_t *a = json_array();
	for (int g = 0; g < s->setup->n_hops; g++) {
		const struct pcibw_watch_hop_summary *r = s->hops;
		bool have = r && r->have_sum[g];
		json_t *x = group_obj(s->setup, g);
		json_object_set_new(
		    x, "verdict", json_string(have ? pcibw_verdict_name(r->sum[g].verdict) : "undetermined"));
		json_object_set_new(x, "evidence", evidence(have ? &r->sum[g] : NULL));
		json_object_set_new(x, "reasons", reasons(have ? &r->sum[g] : NULL));
		json_object_set_new(x, "peak_utilisation", jnum(have ? r->peak_util[g] : NAN));
		json_object_set_new(x, "peak_t", jnum(have ? r->peak_t[g] : NAN));
		json_object_set_new(x, "limiting_intervals", json_integer(r ? r->limiting[g] : 0));
		json_array_append_new(a, x);
	}
	return a;
}

/* an interface's own verdict, its evidence and their reasons, as the loop decided them */
static void iface_verdict(json_t *x, const struct pcibw_watch_if_verdict *v)
{
	json_t *ev = json_array();
	for (int k = 0; k < v->n_evidence; k++)
		json_array_append_new(ev, json_string(v->evidence[k]));
	json_object_set_new(x, "verdict", json_string(pcibw_verdict_name(v->verdict)));
	json_object_set_new(x, "evidence", ev);
	json_object_set_new(x, "reasons", pcibw_json_reasons(v->reasons, v->n_reasons));
}

static int emit(FILE *out, json_t *o)
{
	int r = json_dumpf(o, out, JSON_COMPACT | JSON_REAL_PRECISION(15));
	json_decref(o);
	fputc('\n', out);
	return r || ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

int render_watch_json(FILE *out, const struct pcibw_watch_iv_result *v)
{
	const struct pcibw_watch_interval *iv = v->iv;
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("interval"));
	json_object_set_new(o, "pcibw_version", json_string(PCIBW_VERSION));
	json_object_set_new(o, "index", json_integer(v->index));
	json_object_set_new(o, "t", jnum(iv->t));
	json_object_set_new(o, "dt", jnum(iv->dt));
	json_t *ifs = json_array();
	for (int i = 0; i < iv->n_ifs; i++) {
		const struct pcibw_watch_ifiv *f = &iv->ifs[i];
		json_t *x = json_object();
		json_object_set_new(x, "name", json_string(f->name));
		json_object_set_new(x, "present", json_boolean(f->present));
		const struct pcibw_watch_if_result *fr = &v->ifs[i];
		json_object_set_new(x, "virtual",
				    json_boolean(i < v->setup->n && v->setup->ifs[i].virtual_nic));
		json_object_set_new(x, "rx", dir_obj(&f->rx, fr->rx));
		json_object_set_new(x, "tx", dir_obj(&f->tx, fr->tx));
		json_object_set_new(x, "speed_mbps", jnum(f->speed_mbps));
		json_object_set_new(x, "link_speed_gts", jnum(f->link_gts));
		json_object_set_new(x, "link_width", jint(f->link_width));
		json_object_set_new(x, "irq_per_s", jnum(f->irq_ps));
		json_object_set_new(x, "vectors_active", jint(f->vec_active));
		json_object_set_new(x, "pci_stalled_rd_pct", jnum(f->stalled_rd_pct));
		json_object_set_new(x, "pci_stalled_wr_pct", jnum(f->stalled_wr_pct));
		json_object_set_new(x, "pci_buffer_overflow", jnum(f->overflow_d));
		json_object_set_new(x, "pci_signal_integrity", jnum(f->signal_d));
		iface_verdict(x, &fr->v);
		json_object_set_new(x, "bus_modelled",
				    fr->bus_modelled[0] ? json_string(fr->bus_modelled) : json_null());
		json_object_set_new(x, "link_changes", json_integer(fr->link_changes));
		json_array_append_new(ifs, x);
	}
	json_object_set_new(o, "interfaces", ifs);
	json_t *c = json_object();
	json_object_set_new(c, "cpus", json_integer(iv->n_cpus));
	json_object_set_new(c, "busy", jnum(iv->cpu_busy));
	json_object_set_new(c, "irq", (iv->flags & PCIBW_WF_NO_IRQTIME) ? json_null() : jnum(iv->cpu_irq));
	json_object_set_new(c, "softirq", jnum(iv->cpu_softirq));
	json_object_set_new(c, "steal", jnum(iv->cpu_steal));
	json_object_set_new(c, "busiest_cpu", jint(iv->busiest_cpu));
	json_object_set_new(c, "busiest_busy", jnum(iv->busiest_busy));
	json_object_set_new(c, "busiest_softirq", jnum(iv->busiest_softirq));
	json_object_set_new(c, "nic_irq_cpu", jint(iv->irq_cpu_max));
	json_object_set_new(c, "nic_irq_cpu_share", jnum(iv->irq_cpu_max_share));
	json_t *cores = json_array();
	for (int i = 0; i < PCIBW_WATCH_MAX_CPUS; i++)
		if (!isnan(iv->core_busy[i])) {
			json_t *k = json_object();
			json_object_set_new(k, "cpu", json_integer(i));
			json_object_set_new(k, "busy", jnum(iv->core_busy[i]));
			json_array_append_new(cores, k);
		}
	json_object_set_new(c, "cores", cores);
	json_object_set_new(o, "cpu", c);
	json_t *sn = json_object();
	json_object_set_new(sn, "time_squeeze", json_integer((json_int_t)iv->squeeze_d));
	json_object_set_new(sn, "dropped", json_integer((json_int_t)iv->softnet_drop_d));
	json_object_set_new(o, "softnet", sn);
	json_object_set_new(o, "flags", flags_arr(iv->flags));
	json_object_set_new(o, "notes", strs((char(*)[200])iv->notes, iv->n_notes));
	json_object_set_new(o, "verdict",
			    json_string(v->sum ? pcibw_verdict_name(v->sum->verdict) : "undetermined"));
	json_object_set_new(o, "evidence", evidence(v->sum));
	json_object_set_new(o, "reasons", reasons(v->sum));
	json_object_set_new(o, "shared", shared_iv(v));
	return emit(out, o);
}

int render_watch_summary_json(FILE *out, const struct pcibw_watch_summary_result *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("summary"));
	json_object_set_new(o, "pcibw_version", json_string(PCIBW_VERSION));
	json_object_set_new(o, "intervals", json_integer(s->intervals));
	json_object_set_new(o, "seconds", jnum(s->seconds));
	json_object_set_new(o, "verdict",
			    json_string(s->sum ? pcibw_verdict_name(s->sum->verdict) : "undetermined"));
	json_object_set_new(o, "evidence", evidence(s->sum));
	json_object_set_new(o, "reasons", reasons(s->sum));
	json_t *counts = json_object();
	for (int v = 0; s->sum && v < PCIBW_V_N; v++)
		json_object_set_new(counts, pcibw_verdict_name((enum pcibw_verdict)v),
				    json_integer(s->sum->counts[v]));
	json_object_set_new(o, "row_verdicts", counts);
	/* the rows the summary judged, as analyze lists those of the CSV */
	json_t *rows = json_array();
	for (int i = 0; s->rows && i < s->rows->n; i++) {
		const struct pcibw_row *r = &s->rows->v[i];
		json_t *x = json_object();
		json_object_set_new(x, "iface", json_string(r->iface));
		json_object_set_new(x, "direction", json_string(r->direction == PCIBW_PAT_RX ? "rx" : "tx"));
		json_object_set_new(x, "size_bytes", jnum(r->size_bytes));
		json_object_set_new(x, "count", json_integer(r->count));
		json_object_set_new(x, "bus_utilisation", jnum(r->bus_util));
		json_object_set_new(x, "wire_utilisation", jnum(r->wire_util));
		/* the bus it was set against: the link as it was while the row was measured */
		json_object_set_new(x, "bus_modelled",
				    s->row_bus && s->row_bus[i] ? json_string(s->row_bus[i]) : json_null());
		json_object_set_new(x, "bus_gbps", jnum(r->bus_gbps));
		json_object_set_new(x, "bus_gbps_low", jnum(r->bus_gbps_low));
		json_object_set_new(x, "bus_gbps_high", jnum(r->bus_gbps_high));
		json_object_set_new(x, "bus_utilisation_low", jnum(r->bus_util_low));
		json_object_set_new(x, "bus_utilisation_high", jnum(r->bus_util_high));
		json_object_set_new(x, "wire_gbps", jnum(r->wire_gbps));
		json_object_set_new(x, "verdict", json_string(pcibw_verdict_name(r->verdict)));
		json_array_append_new(rows, x);
	}
	json_object_set_new(o, "rows", rows);
	json_t *pk = json_object();
	json_object_set_new(pk, "t", jnum(s->peak_pps > 0 ? s->peak_t : NAN));
	json_object_set_new(pk, "iface", s->peak_pps > 0 ? json_string(s->peak_iface) : json_null());
	json_object_set_new(pk, "pps", jnum(s->peak_pps > 0 ? s->peak_pps : NAN));
	json_object_set_new(pk, "gbps", jnum(s->peak_pps > 0 ? s->peak_gbps : NAN));
	json_object_set_new(pk, "rx_pps", jnum(s->peak_pps > 0 ? s->peak_rx_pps : NAN));
	json_object_set_new(pk, "tx_pps", jnum(s->peak_pps > 0 ? s->peak_tx_pps : NAN));
	json_object_set_new(o, "peak", pk);
	json_t *bc = json_object();
	json_object_set_new(bc, "cpu", jint(s->busiest_cpu));
	json_object_set_new(bc, "busy", jnum(s->busiest_cpu >= 0 ? s->busiest_busy : NAN));
	json_object_set_new(bc, "t", jnum(s->busiest_cpu >= 0 ? s->busiest_t : NAN));
	json_object_set_new(o, "busiest_core", bc);
	json_t *ifs = json_array();
	for (int i = 0; i < s->setup->n; i++) {
		const struct pcibw_watch_setup_if *m = &s->setup->ifs[i];
		json_t *x = json_object();
		json_object_set_new(x, "name", json_string(m->name));
		json_object_set_new(x, "virtual", json_boolean(m->virtual_nic));
		json_object_set_new(x, "slot", m->slot[0] ? json_string(m->slot) : json_null());
		json_object_set_new(x, "driver", m->driver[0] ? json_string(m->driver) : json_null());
		json_object_set_new(x, "bus", m->bus[0] ? json_string(m->bus) : json_null());
		json_object_set_new(x, "nic", m->nic[0] ? json_string(m->nic) : json_null());
		json_object_set_new(x, "line_rate_gbps",
				    jnum(m->line_rate_gbps > 0 ? m->line_rate_gbps : NAN));
		iface_verdict(x, &s->ifs[i]);
		const struct pcibw_watch_link_run *l = &s->links[i];
		json_object_set_new(x, "link_changes", json_integer(l->changes));
		json_object_set_new(x, "link_intervals", json_integer(l->intervals));
		json_t *states = json_array();
		for (int k = 0; k < l->n_states; k++) {
			json_t *st = json_object();
			json_object_set_new(st, "speed_gts", json_real(l->gts[k]));
			json_object_set_new(st, "width", json_integer(l->width[k]));
			json_array_append_new(states, st);
		}
		json_object_set_new(x, "link_states", states);
		json_t *notes = json_array();
		for (int k = 0; k < s->setup->n_warnings; k++) {
			const struct pcibw_watch_warning *wn = &s->setup->warnings[k];
			if (!wn->slot[0] || strcmp(wn->slot, m->slot))
				continue;
			json_t *nt = json_object();
			json_object_set_new(nt, "code", json_string(wn->code));
			json_object_set_new(nt, "text", json_string(wn->text));
			json_array_append_new(notes, nt);
		}
		json_object_set_new(x, "notes", notes);
		json_array_append_new(ifs, x);
	}
	json_object_set_new(o, "interfaces", ifs);
	json_object_set_new(o, "shared", shared_summary(s));
	json_object_set_new(o, "flags", flags_arr(s->flags));
	json_object_set_new(o, "notes", strs((char(*)[200])s->notes, s->n_notes));
	json_t *w = json_array(), *codes = json_array();
	for (int i = 0; i < s->setup->n_warnings; i++) {
		json_array_append_new(w, json_string(s->setup->warnings[i].text));
		json_array_append_new(codes, json_string(s->setup->warnings[i].code));
	}
	json_object_set_new(o, "warnings", w);
	json_object_set_new(o, "warning_codes", codes);
	json_object_set_new(o, "stopped_by", s->stopped_by ? json_string(s->stopped_by) : json_null());
	json_object_set_new(o, "recording", s->recording ? json_string(s->recording) : json_null());
	json_object_set_new(o, "recording_full", json_boolean(s->recording_full));
	return emit(out, o);
}

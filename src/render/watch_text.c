/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw watch` text: vmstat-like lines that fit 100 columns, notes under the line that first
 * raises a flag, and a summary. */
#include "pcibw/nic.h"
#include "text_wrap.h"
#include "watch_render.h"
#include <math.h>
#include <string.h>

const struct pcibw_row *watch_row_of(const struct pcibw_rows *rows, const char *iface, int direction)
{
	for (int i = 0; rows && i < rows->n; i++)
		if (rows->v[i].direction == direction && !strcmp(rows->v[i].iface, iface))
			return &rows->v[i];
	return NULL;
}

/* "1.23M", "456k", "12" in 6 columns */
static const char *si(char *b, double v)
{
	if (isnan(v))
		return "-";
	if (v >= 999.5e6)
		snprintf(b, 16, "%.2fG", v / 1e9);
	else if (v >= 999.5e3)
		snprintf(b, 16, "%.2fM", v / 1e6);
	else if (v >= 999.5)
		snprintf(b, 16, "%.1fk", v / 1e3);
	else
		snprintf(b, 16, "%.0f", v);
	return b;
}

static const char *pct(char *b, double f)
{
	if (isnan(f))
		return "-";
	snprintf(b, 16, "%.0f", f * 100);
	return b;
}

static const char *num(char *b, const char *fmt, double v)
{
	if (isnan(v))
		return "-";
	snprintf(b, 16, fmt, v);
	return b;
}

/* flag letters, in a fixed order */
static void letters(unsigned f, char *b)
{
	static const char l[] = "HQDISZWRVNOOLPPPC";
	int o = 0;
	for (int i = 0; i < 17 && o < 7; i++)
		if (f & (1u << i))
			b[o++] = l[i];
	b[o] = '\0';
}

int watch_render_start_text(FILE *out, const struct watch_ctx *ctx)
{
	for (int i = 0; i < ctx->meta.n; i++) {
		const struct watch_meta_if *m = &ctx->meta.ifs[i];
		const struct watch_if_model *mm = &ctx->m[i];
		char line[32] = "line rate unknown";
		if (m->line_rate_gbps > 0)
			snprintf(line, sizeof line, "%g Gbit/s", m->line_rate_gbps);
		if (mm->virtual_nic)
			fprintf(out, "%s: virtual NIC (%s): no bus ceiling; watching the CPU side; %s\n",
				m->wi.name,
				m->wi.driver[0] ? m->wi.driver
				: m->wi.dev[0]	? m->wi.dev
						: "no device",
				line);
		else
			fprintf(out, "%s: bus %s%s%s, NIC profile %s, %s\n", m->wi.name,
				m->bus[0] ? m->bus : "unknown", m->bus_from[0] ? " from " : "", m->bus_from,
				m->nic[0] ? m->nic : "none", line);
	}
	for (int g = 0; g < ctx->shared.n; g++) {
		const struct watch_shared_group *gr = &ctx->shared.g[g];
		fprintf(out, "hop%d: %s added up on the shared %s %s%s (%s)%s%s\n", g + 1, gr->names,
			gr->segment ? "segment" : "hop", gr->hop,
			gr->inferred ? (gr->segment ? " (a bus number)" : " (one device's link)") : "",
			gr->hop_bus[0] ? gr->hop_bus : "bus unknown", gr->costed ? "" : ": not costed, ",
			gr->why);
		if (gr->note[0]) {
			char pre[32];
			snprintf(pre, sizeof pre, "  ! hop%d: ", g + 1);
			pcibw_text_wrapped(out, pre, gr->note);
		}
	}
	for (int i = 0; i < ctx->n_warnings; i++)
		fprintf(out, "warning: %s\n", ctx->warnings[i].text);
	fprintf(out, "flags: H hot core, Q one queue, D drops, I irq rate, S squeeze, Z no irq time, W wrap, "
		     "R reset,\n       V vanished, N renamed, O CPU off/online, L link, P NIC PCIe counters, "
		     "C clock\n");
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

int watch_render_text(FILE *out, const struct watch_view *v)
{
	const struct pcibw_watch_interval *iv = v->iv;
	long lines = *v->lines;
	for (int i = 0; i < iv->n_ifs; i++) {
		if (lines % 20 == 0)
			fprintf(out, "%7s %-8s %6s %6s %5s %6s %6s %5s %4s %4s %4s %4s %4s %4s %-12s %s\n",
				"time", "iface", "rx pps", "rxGb/s", "rx B", "tx pps", "txGb/s", "tx B",
				"wire", "bus%", "cpu%", "core", "@cpu", "si%", "verdict", "flags");
		lines++;
		const struct pcibw_watch_ifiv *f = &iv->ifs[i];
		const struct pcibw_row *rr = watch_row_of(v->rows, f->name, PCIBW_PAT_RX),
				       *rt = watch_row_of(v->rows, f->name, PCIBW_PAT_TX);
		double wire = fmax(isnan(f->rx.wire_util) ? -1 : f->rx.wire_util,
				   isnan(f->tx.wire_util) ? -1 : f->tx.wire_util);
		double bus = fmax(rr && !isnan(rr->bus_util) ? rr->bus_util : -1,
				  rt && !isnan(rt->bus_util) ? rt->bus_util : -1);
		char b[16][16], fl[8];
		letters(iv->flags, fl);
		/* each interface's own rows: one that moved no packet is idle, not judged */
		enum pcibw_verdict iv_v;
		const char *verdict = watch_iface_verdict(v->rows, f->name, &iv_v) ? pcibw_verdict_name(iv_v)
				      : f->valid				   ? "idle"
										   : "-";
		if (!f->present)
			verdict = "gone";
		char name[9];
		snprintf(name, sizeof name, "%s", f->name);
		fprintf(out, "%7.1f %-8s %6s %6s %5s %6s %6s %5s %4s %4s %4s %4s %4s %4s %-12s %s\n", iv->t,
			name, si(b[0], f->rx.pps), num(b[1], "%.2f", f->rx.gbps),
			num(b[2], "%.0f", f->rx.frame_bytes), si(b[3], f->tx.pps),
			num(b[4], "%.2f", f->tx.gbps), num(b[5], "%.0f", f->tx.frame_bytes),
			wire < 0 ? "-" : pct(b[6], wire), bus < 0 ? "-" : pct(b[7], bus),
			pct(b[8], iv->cpu_busy), pct(b[9], iv->busiest_busy),
			iv->busiest_cpu < 0 ? "-" : num(b[10], "%.0f", iv->busiest_cpu),
			pct(b[11], iv->busiest_softirq), verdict, fl);
	}
	for (int g = 0; v->shared && g < v->shared->n; g++) {
		const struct watch_shared_iv *o = &v->shared->g[g];
		if (!o->valid)
			continue;
		char b[12][16], name[9];
		snprintf(name, sizeof name, "hop%d", (g + 1) % 100);
		fprintf(out, "%7.1f %-8s %6s %6s %5s %6s %6s %5s %4s %4s %4s %4s %4s %4s %-12s %s\n", iv->t,
			name, si(b[0], o->rx.pps), num(b[1], "%.2f", o->rx.gbps),
			num(b[2], "%.0f", o->rx.frame_bytes), si(b[3], o->tx.pps),
			num(b[4], "%.2f", o->tx.gbps), num(b[5], "%.0f", o->tx.frame_bytes), "-",
			pct(b[6], o->util), pct(b[7], iv->cpu_busy), pct(b[8], iv->busiest_busy),
			iv->busiest_cpu < 0 ? "-" : num(b[9], "%.0f", iv->busiest_cpu),
			pct(b[10], iv->busiest_softirq), pcibw_verdict_name(o->verdict),
			o->bound_by ? o->bound_by : "");
		lines++;
	}
	*v->lines = lines;
	for (int g = 0; v->shared && g < v->shared->n && g < 32; g++)
		if ((v->shared_new & (1u << g)) && v->shared->g[g].note[0]) {
			char pre[32];
			snprintf(pre, sizeof pre, "        ! hop%d: ", g + 1);
			pcibw_text_wrapped(out, pre, v->shared->g[g].note);
		}
	/* a note is shown when its flag is new since the last interval: a steady condition is
	 * said once, and its letter stays in the flags column */
	for (int k = 0; k < iv->n_notes; k++)
		if (iv->note_flag[k] & v->new_flags)
			pcibw_text_wrapped(out, "        ! ", iv->notes[k]);
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

int watch_render_summary_text(FILE *out, const struct watch_summary_view *s)
{
	fprintf(out, "\nsummary: %ld interval%s over %.1f s%s%s: %s\n", s->intervals,
		s->intervals == 1 ? "" : "s", s->seconds, s->stopped_by ? ", stopped by " : "",
		s->stopped_by ? s->stopped_by : "",
		s->sum ? pcibw_verdict_name(s->sum->verdict) : "undetermined (no interval)");
	if (s->peak_pps > 0)
		fprintf(out, "  peak: %.0f packets/s (%.3f Gbit/s) at %.1f s on %s\n", s->peak_pps,
			s->peak_gbps, s->peak_t, s->peak_iface);
	if (s->busiest_cpu >= 0)
		fprintf(out, "  busiest core: CPU %d, %.0f %% at %.1f s\n", s->busiest_cpu,
			s->busiest_busy * 100, s->busiest_t);
	for (int i = 0; s->sum && i < s->sum->n_evidence; i++)
		pcibw_text_wrapped(out, "  - ", s->sum->evidence[i]);
	for (int g = 0; s->shared && g < s->ctx->shared.n; g++) {
		const struct watch_shared_group *gr = &s->ctx->shared.g[g];
		const struct watch_shared_run *r = s->shared;
		if (!r->have_sum[g]) {
			fprintf(out, "  hop%d %s (%s): no traffic costed%s%s\n", g + 1, gr->hop, gr->names,
				gr->why[0] ? ": " : "", gr->why);
			continue;
		}
		fprintf(
		    out,
		    "  hop%d %s (%s) carrying %s: %s; peak %.0f %% at %.1f s, the limit in %ld interval%s\n",
		    g + 1, gr->hop, gr->hop_bus, gr->names, pcibw_verdict_name(r->sum[g].verdict),
		    r->peak_util[g] * 100, r->peak_t[g], r->limiting[g], r->limiting[g] == 1 ? "" : "s");
		for (int k = 0; k < r->sum[g].n_evidence && k < 2; k++)
			fprintf(out, "    - %s\n", r->sum[g].evidence[k]);
		if (gr->note[0])
			pcibw_text_wrapped(out, "    ! ", gr->note);
	}
	for (int i = 0; i < s->n_notes; i++)
		pcibw_text_wrapped(out, "  ! ", s->notes[i]);
	if (s->recording)
		fprintf(out, "  recording: %s%s\n", s->recording,
			s->recording_full ? " (stopped at --record-max: later samples are not in it)" : "");
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw watch` text: vmstat-like lines that fit 100 columns, notes under the line that first
 * raises a flag, and a summary. */
#include "pcibw/nic.h"
#include "pcibw/words.h"
#include "text_wrap.h"
#include "watch_render.h"
#include <math.h>
#include <string.h>

/* v in at most w columns (w 4 or 5): as many decimals as fit, then k, M, G, T, P: "5.50M",
 * "81.3k", "162k", "1518", "0.00" */
static const char *fit(char *b, double v, int w, int decimals)
{
	if (isnan(v))
		return "-";
	static const char units[] = " kMGTP";
	double x = v;
	int u = 0;
	for (int d = decimals; d >= 0; d--) {
		int n = snprintf(b, 16, "%.*f", d, x);
		if (n <= w)
			return b;
	}
	/* too wide whole: scaled, one column for the unit */
	while (u < 5) {
		x /= 1000;
		u++;
		for (int d = 2; d >= 0; d--) {
			int n = snprintf(b, 16, "%.*f%c", d, x, units[u]);
			if (n <= w)
				return b;
		}
	}
	snprintf(b, 16, "%.*s", w, "+++++");
	return b;
}

/* a rate: "5.50M", "81.3k", "162k", "12" in 5 columns (scaled from 1000 up) */
static const char *si(char *b, double v)
{
	if (isnan(v))
		return "-";
	if (v < 999.5)
		return fit(b, v, 5, 0);
	static const char units[] = "kMGTP";
	double x = v / 1000;
	int u = 0;
	while (x >= 999.5 && u < 4) {
		x /= 1000;
		u++;
	}
	int d = x < 9.995 ? 2 : x < 99.95 ? 1 : 0;
	snprintf(b, 16, "%.*f%c", d, x, units[u]);
	return strlen(b) <= 5 ? b : "+++++";
}

/* a share as a whole percentage in 4 columns */
static const char *pct(char *b, double f)
{
	if (isnan(f))
		return "-";
	pcibw_fmt_pct(b, 16, f, NAN);
	return strlen(b) <= 4 ? b : "++++";
}

/* seconds since the start in 6 columns: 1 decimal up to 9999.9 s, then whole, then scaled */
static const char *secs(char *b, double t)
{
	return fit(b, t, 6, 1);
}

/* The letter of each flag (PCIBW_WF_* bit order; the help and the man page list them). Bits that
 * say one thing share a letter (O: a CPU went off- or online; P: the NIC's PCIe counters). */
static const char flag_letter[] = "HQDISZWRVNOOLPPPC";

/* the distinct flag letters of f, in the fixed order */
static void letters(unsigned f, char *b)
{
	int o = 0;
	for (int i = 0; i < (int)sizeof flag_letter - 1; i++)
		if ((f & (1u << i)) && !memchr(b, flag_letter[i], (size_t)o))
			b[o++] = flag_letter[i];
	b[o] = '\0';
}

/* an interface name in 8 columns: a longer one keeps its head and its tail ("enp1~0f1"), so two
 * ports of one NIC stay apart */
static void short_name(const char *name, char out[9])
{
	char n[4 * PCIBW_WATCH_IFNAME];
	pcibw_text_visible(name, n, sizeof n); /* a newline or an escape cannot reach the line */
	size_t len = strlen(n);
	if (len <= 8)
		snprintf(out, 9, "%s", n);
	else
		snprintf(out, 9, "%.4s~%s", n, n + len - 3);
}

/* the columns before the flags: 95; the flags column holds FLAGS_W letters up to column 100 */
#define LINE_FMT "%6s %-8s %5s %5s %5s %5s %5s %5s %4s %4s %4s %4s %4s %4s %-12s"
#define FLAGS_W 5

static void header(FILE *out)
{
	fprintf(out, "%15s%-17s %-17s %s\n", "", "|------ rx -----|", "|------ tx -----|",
		"% of ceiling, busy % of CPU");
	fprintf(out, LINE_FMT " %s\n", "time", "iface", "pps", "Gb/s", "B", "pps", "Gb/s", "B", "wire", "bus",
		"cpu", "core", "@cpu", "si", "verdict", "flags");
}

/* the flags column: the letters when they fit; else as many as fit but one and '+', the whole
 * set then spelled out on the next line (spell: the interval's first line, when its set is not
 * the interval before's; the flags are the interval's) */
static void flags_col(FILE *out, unsigned flags, bool spell)
{
	char fl[24];
	letters(flags, fl);
	if (strlen(fl) <= FLAGS_W) {
		fprintf(out, " %s\n", fl);
		return;
	}
	fprintf(out, " %.*s+\n", FLAGS_W - 1, fl);
	if (!spell)
		return;
	static const char *const names[] = {"hot-core",	   "one-queue",	 "drops", "irq-rate",  "squeeze",
					    "no-irq-time", "wrap",	 "reset", "vanished",  "renamed",
					    "cpu-offline", "cpu-online", "link",  "pci-stall", "pci-overflow",
					    "pci-signal",  "clock"};
	char text[400];
	size_t o = (size_t)snprintf(text, sizeof text, "flags %s:", fl);
	for (int i = 0; i < (int)(sizeof names / sizeof names[0]) && o < sizeof text; i++)
		if (flags & (1u << i))
			o += (size_t)snprintf(text + o, sizeof text - o, " %c %s,", flag_letter[i], names[i]);
	if (o < sizeof text && text[o - 1] == ',')
		text[o - 1] = '\0';
	pcibw_text_wrapped(out, "          + ", text);
}

int render_watch_start_text(FILE *out, const struct pcibw_watch_setup *s)
{
	if (s->listed_all) {
		char text[PCIBW_WATCH_MAX_IFACES * (PCIBW_WATCH_IFNAME + 1) + 64] = "";
		size_t at = 0;
		for (int i = 0; i < s->n && at < sizeof text; i++)
			at += (size_t)snprintf(text + at, sizeof text - at, "%s ", s->ifs[i].name);
		if (at < sizeof text)
			snprintf(text + at, sizeof text - at, "(every interface with a PCI device)");
		pcibw_text_wrapped(out, "watching ", text);
	}
	for (int i = 0; i < s->n; i++) {
		const struct pcibw_watch_setup_if *m = &s->ifs[i];
		char line[32] = "line rate unknown";
		if (m->line_rate_gbps > 0)
			snprintf(line, sizeof line, "%g Gbit/s", m->line_rate_gbps);
		char text[1024];
		if (m->virtual_nic)
			snprintf(text, sizeof text,
				 "%s: virtual NIC (%s): no bus ceiling; watching the CPU side; %s", m->name,
				 m->driver[0] ? m->driver
				 : m->dev[0]  ? m->dev
					      : "no device",
				 line);
		else
			snprintf(text, sizeof text, "%s: bus %s%s%.400s, NIC profile %s, %s", m->name,
				 m->bus[0] ? m->bus : "unknown", m->bus_from[0] ? " from " : "", m->bus_from,
				 m->nic[0] ? m->nic : "none", line);
		pcibw_text_wrapped(out, "", text);
	}
	for (int g = 0; g < s->n_hops; g++) {
		const struct pcibw_watch_hop *gr = &s->hops[g];
		char text[1024], pre[16];
		snprintf(pre, sizeof pre, "hop%d: ", g + 1);
		snprintf(text, sizeof text, "%s added up on the shared %s %s%s (%s)%s%s", gr->names,
			 gr->segment ? "segment" : "hop", gr->hop,
			 gr->inferred ? (gr->segment ? " (a bus number)" : " (one device's link)") : "",
			 gr->hop_bus[0] ? gr->hop_bus : "bus unknown", gr->costed ? "" : ": not costed, ",
			 gr->why);
		pcibw_text_wrapped(out, pre, text);
		if (gr->note[0]) {
			char pre[32];
			snprintf(pre, sizeof pre, "  ! hop%d: ", g + 1);
			pcibw_text_wrapped(out, pre, gr->note);
		}
	}
	for (int i = 0; i < s->n_warnings; i++)
		pcibw_text_wrapped(out, "warning: ", s->warnings[i].text);
	fprintf(out, "flags: H hot core, Q one queue, D drops, I irq rate, S squeeze, Z no irq time, W wrap, "
		     "R reset,\n       V vanished, N renamed, O CPU off/online, L link, P NIC PCIe counters, "
		     "C clock\n");
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

int render_watch_text(FILE *out, const struct pcibw_watch_iv_result *r, long *lines_so_far)
{
	const struct pcibw_watch_interval *iv = r->iv;
	long lines = *lines_so_far;
	for (int i = 0; i < iv->n_ifs; i++) {
		if (lines % 20 == 0)
			header(out);
		lines++;
		const struct pcibw_watch_ifiv *f = &iv->ifs[i];
		const struct pcibw_watch_if_result *x = &r->ifs[i];
		char b[16][16];
		const char *verdict = x->v.word;
		char name[9];
		short_name(f->name, name);
		fprintf(out, LINE_FMT, secs(b[12], iv->t), name, si(b[0], f->rx.pps),
			fit(b[1], f->rx.gbps, 5, 2), fit(b[2], f->rx.frame_bytes, 5, 0), si(b[3], f->tx.pps),
			fit(b[4], f->tx.gbps, 5, 2), fit(b[5], f->tx.frame_bytes, 5, 0),
			pct(b[6], x->wire_util), pct(b[7], x->bus_util), pct(b[8], iv->cpu_busy),
			pct(b[9], iv->busiest_busy),
			iv->busiest_cpu < 0 ? "-" : fit(b[10], iv->busiest_cpu, 4, 0),
			pct(b[11], iv->busiest_softirq), verdict);
		flags_col(out, iv->flags, i == 0 && iv->flags != r->prev_flags);
	}
	for (int g = 0; r->hops && g < r->hops->n; g++) {
		const struct pcibw_watch_hop_iv *o = &r->hops->g[g];
		if (!o->valid)
			continue;
		char b[12][16], name[9], by[24];
		snprintf(name, sizeof name, "hop%d", (g + 1) % 100);
		/* a hop has no wire and no CPU of its own (its members' lines give those): what binds
		 * it takes their columns */
		snprintf(by, sizeof by, "by %.16s", o->bound_by ? o->bound_by : "-");
		fprintf(out, "%6s %-8s %5s %5s %5s %5s %5s %5s %4s %4s %-19s %s\n", secs(b[11], iv->t), name,
			si(b[0], o->rx.pps), fit(b[1], o->rx.gbps, 5, 2), fit(b[2], o->rx.frame_bytes, 5, 0),
			si(b[3], o->tx.pps), fit(b[4], o->tx.gbps, 5, 2), fit(b[5], o->tx.frame_bytes, 5, 0),
			"-", pct(b[6], o->util), by, pcibw_verdict_name(o->verdict));
		lines++;
	}
	*lines_so_far = lines;
	for (int g = 0; r->hops && g < r->hops->n && g < 32; g++)
		if ((r->hops_new & (1u << g)) && r->hops->g[g].note[0]) {
			char pre[32];
			snprintf(pre, sizeof pre, "        ! hop%d: ", g + 1);
			pcibw_text_wrapped(out, pre, r->hops->g[g].note);
		}
	/* a note is shown when its flag is new since the last interval: a steady condition is
	 * said once, and its letter stays in the flags column */
	for (int k = 0; k < iv->n_notes; k++)
		if (iv->note_flag[k] & r->new_flags)
			pcibw_text_wrapped(out, "        ! ", iv->notes[k]);
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

/* "eth0: link changed in 14 of 60 intervals (32 -> 5 -> 2.5 GT/s): at least 14 retrains"; the
 * widths shown where they differ between the states */
static void link_run_line(FILE *out, const char *name, const struct pcibw_watch_link_run *l)
{
	if (l->changes <= 0)
		return;
	char text[600], states[400] = "";
	bool widths = false;
	for (int k = 1; k < l->n_states; k++)
		widths |= l->width[k] != l->width[0];
	size_t o = 0;
	for (int k = 0; k < l->n_states && o < sizeof states - 40; k++) {
		if (widths)
			o += (size_t)snprintf(states + o, sizeof states - o, "%s%g GT/s x%d", k ? " -> " : "",
					      l->gts[k], l->width[k]);
		else
			o += (size_t)snprintf(states + o, sizeof states - o, "%s%g%s", k ? " -> " : "",
					      l->gts[k], k + 1 == l->n_states ? " GT/s" : "");
	}
	char vis[4 * PCIBW_WATCH_IFNAME];
	snprintf(text, sizeof text, "%s: link changed in %ld of %ld interval%s%s%s%s: at least %ld retrain%s",
		 pcibw_text_visible(name, vis, sizeof vis), l->changes, l->intervals,
		 l->intervals == 1 ? "" : "s", states[0] ? " (" : "", states, states[0] ? ")" : "",
		 l->changes, l->changes == 1 ? "" : "s");
	pcibw_text_wrapped(out, "  ", text);
}

int render_watch_summary_text(FILE *out, const struct pcibw_watch_summary_result *s)
{
	char b16[16];
	fprintf(out, "\nsummary: %ld interval%s over %.1f s%s%s: %s\n", s->intervals,
		s->intervals == 1 ? "" : "s", s->seconds, s->stopped_by ? ", stopped by " : "",
		s->stopped_by ? s->stopped_by : "",
		s->sum ? pcibw_verdict_name(s->sum->verdict) : "undetermined (no interval)");
	if (s->peak_pps > 0) {
		/* a sum over directions (and interfaces), unlike the per-direction columns above */
		fprintf(out, "  peak: %.0f packets/s rx+tx (%.0f rx + %.0f tx), %.3f Gbit/s rx+tx, at %.1f s",
			s->peak_pps, s->peak_rx_pps, s->peak_tx_pps, s->peak_gbps, s->peak_t);
		char peak[4 * sizeof s->peak_iface];
		pcibw_text_visible(s->peak_iface, peak, sizeof peak);
		if (s->peak_ifaces > 1)
			fprintf(out, "\n        summed over %d interfaces, the most on %s\n", s->peak_ifaces,
				peak);
		else
			fprintf(out, " on %s\n", peak);
	}
	if (s->busiest_cpu >= 0)
		fprintf(out, "  busiest core: CPU %d, %s %% at %.1f s\n", s->busiest_cpu,
			pcibw_fmt_pct(b16, sizeof b16, s->busiest_busy, NAN), s->busiest_t);
	for (int i = 0; s->sum && i < s->sum->n_evidence; i++)
		pcibw_text_wrapped(out, "  - ", s->sum->evidence[i]);
	for (int i = 0; s->setup && i < s->setup->n && i < PCIBW_WATCH_MAX_IFACES; i++)
		link_run_line(out, s->setup->ifs[i].name, &s->links[i]);
	for (int g = 0; s->hops && g < s->setup->n_hops; g++) {
		const struct pcibw_watch_hop *gr = &s->setup->hops[g];
		const struct pcibw_watch_hop_summary *r = s->hops;
		if (!r->have_sum[g]) {
			char text[1024];
			snprintf(text, sizeof text, "hop%d %s (%s): no traffic costed%s%s", g + 1, gr->hop,
				 gr->names, gr->why[0] ? ": " : "", gr->why);
			pcibw_text_wrapped(out, "  ", text);
			continue;
		}
		char text[1024];
		snprintf(text, sizeof text,
			 "hop%d %s (%s) carrying %s: %s; peak %s %% at %.1f s, the limit in %ld interval%s",
			 g + 1, gr->hop, gr->hop_bus, gr->names, pcibw_verdict_name(r->sum[g].verdict),
			 pcibw_fmt_pct(b16, sizeof b16, r->peak_util[g], NAN), r->peak_t[g], r->limiting[g],
			 r->limiting[g] == 1 ? "" : "s");
		pcibw_text_wrapped(out, "  ", text);
		for (int k = 0; k < r->sum[g].n_evidence && k < 2; k++)
			pcibw_text_wrapped(out, "    - ", r->sum[g].evidence[k]);
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

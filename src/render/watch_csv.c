/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw watch --format csv`: a row per interval, interface and direction that moved packets,
 * in the columns `pcibw analyze` reads (frame_bytes, pps, cpu_pct, core_max_pct, direction,
 * iface), preceded by "# bus: SPEC nic: NAME line_rate: RATE cpus: N cpu_mhz: F" which analyze
 * takes as its defaults, then one such line per interface ending "iface: NAME", which analyze
 * applies to that interface's rows; when an interface's PCIe link retrains (current_link_speed or
 * _width), its line again with the bus as the link now reads, before the rows measured on it. The numbers are
 * the loop's (struct pcibw_watch_values), the very text the summary's rows were built from, so analyze on
 * this file reaches the summary's verdict.
 */
#include "pcibw/version.h"
#include "watch_render.h"
#include <math.h>

static void machine_line(FILE *out, const struct pcibw_watch_setup *su, const struct pcibw_watch_setup_if *m,
			 const char *bus, bool keyed)
{
	fprintf(out, "# bus: %s nic: %s", bus[0] ? bus : "unknown", m->nic[0] ? m->nic : "-");
	if (m->line_rate_gbps > 0)
		fprintf(out, " line_rate: %.15gG", m->line_rate_gbps);
	if (su->cpus > 0)
		fprintf(out, " cpus: %d", su->cpus);
	if (!isnan(su->cpu_mhz))
		fprintf(out, " cpu_mhz: %.15g", su->cpu_mhz);
	if (keyed)
		fprintf(out, " iface: %s", m->name);
	fprintf(out, "\n");
}

int render_watch_start_csv(FILE *out, const struct pcibw_watch_setup *s)
{
	fprintf(out, "# pcibw %s watch\n", PCIBW_VERSION);
	/* the first line is the file's (a reader that knows no iface key takes it for every row);
	 * then each interface's own, which analyze applies to that interface's rows */
	if (s->n)
		machine_line(out, s, &s->ifs[0], s->ifs[0].bus, false);
	for (int i = 0; i < s->n; i++)
		machine_line(out, s, &s->ifs[i], s->ifs[i].bus, true);
	fprintf(out, "time_s,iface,direction,frame_bytes,pps,cpu_pct,core_max_pct\n");
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

/* a value of a '# shared:' line holds no blank: "eth1, eth2" as "eth1,eth2" (with, 0: dropped),
 * "8 GT/s x4" as "8_GT/s_x4" */
static void no_blanks(const char *in, char with, char *out, size_t n)
{
	size_t o = 0;
	for (; *in && o + 1 < n; in++)
		if (*in != ' ')
			out[o++] = *in;
		else if (with)
			out[o++] = with;
	out[o] = '\0';
}

/* The hop rows are watch's alone: a hop's ceiling sums each member's cost at its own frame size
 * and NIC profile (and a segment's contention), which no one row of a size and a profile
 * carries, so analyze could not set a summed row against it. They are comment lines, which
 * analyze skips, in KEY=VALUE words. */
static void shared_lines(FILE *out, const struct pcibw_watch_iv_result *v)
{
	for (int g = 0; v->hops && g < v->hops->n; g++) {
		const struct pcibw_watch_hop_iv *o = &v->hops->g[g];
		const struct pcibw_watch_hop *gr = &v->setup->hops[g];
		if (!o->valid)
			continue;
		char names[sizeof gr->names], link[sizeof o->link];
		no_blanks(gr->names, 0, names, sizeof names);
		fprintf(out, "# shared: time_s=%.3f hop=%s hop_bus=%s interfaces=%s", v->iv->t, gr->hop,
			gr->hop_bus[0] ? gr->hop_bus : "unknown", names);
		fprintf(out, " rx_pps=%.1f tx_pps=%.1f", o->rx.pps, o->tx.pps);
		if (!isnan(o->rx.frame_bytes))
			fprintf(out, " rx_frame_bytes=%.0f", o->rx.frame_bytes);
		if (!isnan(o->tx.frame_bytes))
			fprintf(out, " tx_frame_bytes=%.0f", o->tx.frame_bytes);
		fprintf(out, " utilisation=%.6g bound_by=%s", o->util, o->bound_by ? o->bound_by : "-");
		if (o->relinked) {
			no_blanks(o->link, '_', link, sizeof link);
			fprintf(out, " link_now=%s", link);
		}
		fprintf(out, " verdict=%s limiting=%s\n", pcibw_verdict_name(o->verdict),
			o->limiting ? "yes" : "no");
	}
}

int render_watch_csv(FILE *out, const struct pcibw_watch_iv_result *v)
{
	const struct pcibw_watch_interval *iv = v->iv;
	/* a link that retrained: its interface's machine stated again, for the rows from here on
	 * (analyze keys them apart from the rows before and sets them against this bus) */
	for (int i = 0; i < v->setup->n; i++)
		if (v->ifs[i].link_changed)
			machine_line(out, v->setup, &v->setup->ifs[i], v->ifs[i].link_bus, true);
	for (int i = 0; i < iv->n_ifs; i++)
		for (int k = 0; k < 2; k++) {
			const struct pcibw_watch_values *x = &v->ifs[i].values[k];
			if (x->moved)
				fprintf(out, "%.3f,%s,%s,%s,%s,%s,%s\n", iv->t, iv->ifs[i].name,
					k == 0 ? "rx" : "tx", x->frame, x->pps, x->cpu, x->core);
		}
	shared_lines(out, v);
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

int render_watch_summary_csv(FILE *out, const struct pcibw_watch_summary_result *s)
{
	fprintf(out, "# summary: %ld intervals, verdict %s\n", s->intervals,
		s->sum ? pcibw_verdict_name(s->sum->verdict) : "undetermined");
	for (int g = 0; s->hops && g < s->setup->n_hops; g++) {
		const struct pcibw_watch_hop *gr = &s->setup->hops[g];
		if (!s->hops->have_sum[g])
			continue;
		char names[sizeof gr->names];
		no_blanks(gr->names, 0, names, sizeof names);
		fprintf(out,
			"# shared summary: hop=%s hop_bus=%s interfaces=%s verdict=%s peak_utilisation=%.6g "
			"peak_t=%.3f limiting_intervals=%ld\n",
			gr->hop, gr->hop_bus[0] ? gr->hop_bus : "unknown", names,
			pcibw_verdict_name(s->hops->sum[g].verdict), s->hops->peak_util[g],
			s->hops->peak_t[g], s->hops->limiting[g]);
	}
	return ferror(out) ? PCIBW_EINTERNAL : PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw watch --format prometheus`: each interval as one Prometheus text exposition (the
 * conventions of report_prom.c: pcibw_ prefix, base units, one HELP and TYPE per family, escaped
 * label values, no timestamps). Series are per interface and direction, `device` being the
 * interface as node_network_info names it; `pcibw_interface_info` (from `report`) maps it to
 * its PCI slot. With --textfile the file is replaced whole every interval.
 */
#include "pcibw/model.h"
#include "watch_render.h"
#include <math.h>
#include <time.h>

static void put_value(FILE *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', o);
		if (*s == '\n')
			fputs("\\n", o);
		else
			fputc(*s, o);
	}
}

static void family(FILE *o, const char *name, const char *help)
{
	fprintf(o, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

static void row_series(FILE *o, const char *name, const struct pcibw_row *r)
{
	fprintf(o, "%s{device=\"", name);
	put_value(o, r->iface);
	fprintf(o, "\",direction=\"%s\"", pcibw_pattern_name((enum pcibw_pattern)r->direction));
}

/* one number per row; rows where it is NAN are left out */
static void per_row(FILE *o, const struct pcibw_rows *rs, const char *name, const char *help, size_t off,
		    double scale)
{
	bool any = false;
	for (int i = 0; i < rs->n; i++) {
		double v = *(const double *)((const char *)&rs->v[i] + off);
		if (isnan(v))
			continue;
		if (!any)
			family(o, name, help);
		any = true;
		row_series(o, name, &rs->v[i]);
		fprintf(o, "} %.15g\n", v * scale);
	}
}

static void hop_labels(FILE *o, const char *name, const struct pcibw_watch_hop *gr)
{
	fprintf(o, "%s{hop=\"", name);
	put_value(o, gr->hop);
	fprintf(o, "\",interfaces=\"");
	put_value(o, gr->names);
	fputc('"', o);
}

/* groups of interfaces behind one bottleneck hop: its utilisation by their sum and its verdict */
static void shared_series(FILE *o, const struct pcibw_watch_iv_result *v)
{
	const struct pcibw_watch_hop *hops = v->setup->hops;
	bool any = false;
	for (int g = 0; v->hops && g < v->hops->n; g++) {
		if (!v->hops->g[g].valid)
			continue;
		if (!any)
			family(
			    o, "pcibw_watch_shared_hop_utilization_ratio",
			    "The summed traffic of the interfaces behind one bottleneck hop (switch uplink, "
			    "slot, PCI/PCI-X segment, an SR-IOV PF's link) over that hop's ceiling, both "
			    "directions, on its most loaded resource.");
		any = true;
		hop_labels(o, "pcibw_watch_shared_hop_utilization_ratio", &hops[g]);
		fprintf(o, "} %.15g\n", v->hops->g[g].util);
	}
	if (any)
		family(o, "pcibw_watch_shared_hop_verdict",
		       "The interval's verdict on the summed traffic at the shared hop, one series per "
		       "verdict, 1 for the one reached.");
	for (int g = 0; any && g < v->hops->n; g++) {
		if (!v->hops->g[g].valid)
			continue;
		for (int k = 0; k < PCIBW_V_N; k++) {
			hop_labels(o, "pcibw_watch_shared_hop_verdict", &hops[g]);
			fprintf(o, ",verdict=\"%s\"} %d\n", pcibw_verdict_name((enum pcibw_verdict)k),
				v->hops->g[g].verdict == (enum pcibw_verdict)k);
		}
	}
}

int render_watch_prometheus(FILE *o, const void *arg)
{
	const struct pcibw_watch_iv_result *v = arg;
	const struct pcibw_rows *rs = v->rows;
	per_row(o, rs, "pcibw_watch_packets_per_second",
		"Packets per second through the interface in the last interval, per direction.",
		offsetof(struct pcibw_row, pps), 1);
	per_row(o, rs, "pcibw_watch_bytes_per_second",
		"Frame bytes per second through the interface in the last interval, per direction.",
		offsetof(struct pcibw_row, gbps), 1e9 / 8);
	per_row(o, rs, "pcibw_watch_bus_utilization_ratio",
		"Measured rate over the bus ceiling the model gives at the interval's mean frame size "
		"(1 = the bus is full; above 1.10 the verdict is impossible).",
		offsetof(struct pcibw_row, bus_util), 1);
	per_row(o, rs, "pcibw_watch_wire_utilization_ratio",
		"Measured rate over the wire ceiling at the interval's mean frame size.",
		offsetof(struct pcibw_row, wire_util), 1);
	per_row(o, rs, "pcibw_watch_cpu_utilization_ratio",
		"Share of all CPUs busy in the interval (0 to 1).", offsetof(struct pcibw_row, cpu_util), 1);
	if (rs->n)
		family(o, "pcibw_watch_verdict",
		       "The interval's verdict for the interface and direction, one series per verdict, "
		       "1 for the one reached.");
	for (int i = 0; i < rs->n; i++)
		for (int k = 0; k < PCIBW_V_N; k++) {
			row_series(o, "pcibw_watch_verdict", &rs->v[i]);
			fprintf(o, ",verdict=\"%s\"} %d\n", pcibw_verdict_name((enum pcibw_verdict)k),
				rs->v[i].verdict == (enum pcibw_verdict)k);
		}
	if (v->sum) {
		family(o, "pcibw_watch_host_verdict",
		       "The interval's verdict over every interface, one series per verdict, 1 for the one "
		       "reached.");
		for (int k = 0; k < PCIBW_V_N; k++)
			fprintf(o, "pcibw_watch_host_verdict{verdict=\"%s\"} %d\n",
				pcibw_verdict_name((enum pcibw_verdict)k),
				v->sum->verdict == (enum pcibw_verdict)k);
	}
	shared_series(o, v);
	/* a link speed or width change between two re-reads is at least one retrain: a counter
	 * since watch started, per interface with a bus ceiling (a PCI device's link) */
	bool any = false;
	for (int i = 0; v->setup && i < v->iv->n_ifs && i < v->setup->n; i++) {
		if (!v->setup->ifs[i].have_bus)
			continue;
		if (!any)
			fprintf(
			    o,
			    "# HELP pcibw_link_retrains_total PCIe link speed or width changes pcibw watch "
			    "saw between its re-reads since it started (each at least one retrain).\n"
			    "# TYPE pcibw_link_retrains_total counter\n");
		any = true;
		fprintf(o, "pcibw_link_retrains_total{device=\"");
		put_value(o, v->setup->ifs[i].name);
		fprintf(o, "\"} %ld\n", v->ifs[i].link_changes);
	}
	family(o, "pcibw_watch_interval_seconds", "Length of the interval the figures cover, seconds.");
	fprintf(o, "pcibw_watch_interval_seconds %.6g\n", v->iv->dt);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	/* not report's pcibw_last_success_timestamp_seconds: both files sit in one textfile
	 * directory, and node_exporter drops a series two files carry (and any HELP that differs) */
	family(o, "pcibw_watch_last_success_timestamp_seconds",
	       "When pcibw watch last wrote these figures successfully (Unix time, seconds).");
	fprintf(o, "pcibw_watch_last_success_timestamp_seconds %.3f\n", now.tv_sec + now.tv_nsec / 1e9);
	return ferror(o) ? PCIBW_EINTERNAL : PCIBW_OK;
}

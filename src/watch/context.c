/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine side of `pcibw watch`: bus, NIC profile and line rate per interface, the CPUs. */
#include "context.h"
#include "pcibw/device.h"
#include "pcibw/ingest.h"
#include "pcibw/probe.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void warn(char (*w)[320], int *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn(char (*w)[320], int *n, const char *fmt, ...)
{
	if (*n >= 8)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w[(*n)++], 320, fmt, ap);
	va_end(ap);
}

static double sysfs_speed_gbps(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "/sys/class/net/%s/speed", name);
	FILE *f = fopen(path, "re");
	long v = -1;
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v > 0 ? (double)v / 1000 : 0;
}

int watch_probe_meta(const struct watch_sampler *s, const struct watch_overrides *o, double interval,
		     struct watch_meta *meta, char (*warnings)[320], int *n_warnings, struct pcibw_err *err)
{
	memset(meta, 0, sizeof *meta);
	meta->interval = interval;
	meta->n = s->n;
	double line = o->line_rate_gbps;
	struct pcibw_bus given;
	if (o->bus && strcmp(o->bus, "virtual") && pcibw_bus_parse(o->bus, &given, err))
		return PCIBW_EUSAGE;
	for (int i = 0; i < s->n; i++) {
		struct watch_meta_if *m = &meta->ifs[i];
		m->wi = s->ifs[i];
		m->vendor_id = m->device_id = -1;
		m->line_rate_gbps = line > 0 ? line : sysfs_speed_gbps(m->wi.name);
		if (o->bus) {
			snprintf(m->bus, sizeof m->bus, "%s", o->bus);
			snprintf(m->bus_from, sizeof m->bus_from, "--bus");
		} else if (m->wi.has_pci) {
			struct pcibw_probe_opts po = {.iface = m->wi.name};
			struct pcibw_report rep = {0};
			struct pcibw_err e = {0};
			if (pcibw_probe(&po, &rep, &e) == PCIBW_OK && rep.n_devices >= 1) {
				const struct pcibw_device *d = &rep.devices[0];
				struct pcibw_bus b;
				m->vendor_id = d->vendor_id;
				m->device_id = d->device_id;
				snprintf(m->bus_from, sizeof m->bus_from, "%.31s (%.120s)", d->slot,
					 rep.source);
				if (d->is_virtual || m->wi.virtual_nic)
					snprintf(m->bus, sizeof m->bus, "virtual");
				else if (pcibw_bus_from_device(d, &b, &e) == PCIBW_OK) {
					pcibw_bus_format(&b, m->bus, sizeof m->bus);
					watch_shared_probe(d, &b, m);
				} else
					warn(warnings, n_warnings, "%s: no bus model: %s", m->wi.name, e.msg);
			} else {
				warn(warnings, n_warnings, "%s: its PCI device %s could not be probed: %s",
				     m->wi.name, m->wi.slot, e.msg[0] ? e.msg : "no device");
			}
			pcibw_report_free(&rep);
		}
		if (m->wi.virtual_nic && !m->bus[0])
			snprintf(m->bus, sizeof m->bus, "virtual");
		if (o->nic)
			snprintf(m->nic, sizeof m->nic, "%s", o->nic);
		else if (m->vendor_id >= 0 &&
			 pcibw_nic_for_ids(m->vendor_id, m->device_id, NULL, m->nic, sizeof m->nic))
			;
		else if (strcmp(m->bus, "virtual") && m->bus[0]) {
			snprintf(m->nic, sizeof m->nic, "simple");
			warn(warnings, n_warnings,
			     "%s: no NIC profile matches %04x:%04x: the generic 'simple' profile is used "
			     "(give --nic)",
			     m->wi.name, (unsigned)m->vendor_id & 0xffff, (unsigned)m->device_id & 0xffff);
		}
	}
	struct pcibw_cpuinfo ci;
	pcibw_cpuinfo_live(&ci);
	meta->cpus = ci.cpus;
	meta->cpu_mhz = ci.mhz;
	return PCIBW_OK;
}

static void bus_words(const struct pcibw_bus *b, char *buf, size_t n)
{
	pcibw_bus_format(b, buf, (unsigned)n);
}

int watch_ctx_setup(struct watch_ctx *ctx, const char *where, struct pcibw_err *err)
{
	struct pcibw_machine *mach = &ctx->mach;
	memset(mach, 0, sizeof *mach);
	mach->cpus = ctx->meta.cpus > 0 ? ctx->meta.cpus : PCIBW_NULL;
	mach->cpu_mhz = ctx->meta.cpu_mhz;
	bool all_virtual = ctx->meta.n > 0;
	for (int i = 0; i < ctx->meta.n; i++) {
		const struct watch_meta_if *mi = &ctx->meta.ifs[i];
		struct watch_if_model *m = &ctx->m[i];
		memset(m, 0, sizeof *m);
		ctx->info[i].line_rate_gbps = mi->line_rate_gbps;
		m->virtual_nic = mi->wi.virtual_nic || !strcmp(mi->bus, "virtual");
		ctx->info[i].virtual_nic = m->virtual_nic;
		if (!m->virtual_nic)
			all_virtual = false;
		if (mi->nic[0]) {
			if (pcibw_nic_load(mi->nic, NULL, &m->nic, err))
				return pcibw_fail(err, where ? PCIBW_EINPUT : PCIBW_EUSAGE,
						  "%s%snic '%s': %s", where ? where : "", where ? ": " : "",
						  mi->nic, err->msg);
			m->have_nic = true;
		}
		if (m->virtual_nic) {
			snprintf(m->why, sizeof m->why,
				 "%s is a virtual NIC (%s): no bus ceiling; the CPU side only", mi->wi.name,
				 mi->wi.driver[0] ? mi->wi.driver
				 : mi->wi.dev[0]  ? mi->wi.dev
						  : "no device");
			continue;
		}
		if (!mi->bus[0]) {
			snprintf(m->why, sizeof m->why, "%s: bus unknown (give --bus SPEC)", mi->wi.name);
			continue;
		}
		if (pcibw_bus_parse(mi->bus, &m->bus, err))
			return pcibw_fail(err, where ? PCIBW_EINPUT : PCIBW_EUSAGE, "%s%sbus '%s': %s",
					  where ? where : "", where ? ": " : "", mi->bus, err->msg);
		m->have_bus = m->have_nic;
		if (!mach->have_bus && m->have_bus) {
			mach->have_bus = true;
			bus_words(&m->bus, mach->bus_name, sizeof mach->bus_name);
		}
		if (mach->line_rate_gbps == 0)
			mach->line_rate_gbps = mi->line_rate_gbps;
	}
	mach->bus_virtual = all_virtual;
	if (all_virtual)
		snprintf(mach->bus_name, sizeof mach->bus_name, "virtual NIC");
	return watch_shared_setup(ctx, where, err);
}

/* Printed values, fixed precision: what the CSV says is what the rows carry. */
bool watch_csv_values(const struct pcibw_watch_interval *iv, int i, bool rx, char frame[32], char pps[32],
		      char cpu[32], char core[32])
{
	const struct pcibw_watch_dir *d = rx ? &iv->ifs[i].rx : &iv->ifs[i].tx;
	if (!(d->pps > 0) || isnan(d->frame_bytes))
		return false;
	snprintf(frame, 32, "%.0f", d->frame_bytes);
	snprintf(pps, 32, "%.1f", d->pps);
	if (isnan(iv->cpu_busy))
		snprintf(cpu, 32, "%s", "");
	else
		snprintf(cpu, 32, "%.2f", iv->cpu_busy * 100);
	if (isnan(iv->busiest_busy))
		snprintf(core, 32, "%s", "");
	else
		snprintf(core, 32, "%.2f", iv->busiest_busy * 100);
	return true;
}

int watch_interval_rows(const struct pcibw_watch_interval *iv, const char *source, struct pcibw_rows *rs,
			struct pcibw_err *err)
{
	for (int i = 0; i < iv->n_ifs; i++)
		for (int k = 0; k < 2; k++) {
			char f[32], p[32], c[32], o[32];
			if (!watch_csv_values(iv, i, k == 0, f, p, c, o))
				continue;
			struct pcibw_measured m;
			pcibw_measured_init(&m);
			m.source = source;
			m.size_bytes = strtod(f, NULL);
			m.size_conv = PCIBW_SIZE_FRAME;
			m.direction = k == 0 ? PCIBW_PAT_RX : PCIBW_PAT_TX;
			m.pps = strtod(p, NULL);
			m.cpu_pct = c[0] ? strtod(c, NULL) : NAN;
			m.core_max_pct = o[0] ? strtod(o, NULL) : NAN;
			snprintf(m.iface, sizeof m.iface, "%s", iv->ifs[i].name);
			int st = pcibw_rows_add(rs, &m, err);
			if (st)
				return st;
		}
	return PCIBW_OK;
}

void watch_ceilings(struct pcibw_rows *rs, const struct watch_ctx *ctx)
{
	for (int r = 0; r < rs->n; r++) {
		struct pcibw_row *row = &rs->v[r];
		row->pattern = row->direction;
		row->packet_bytes = row->size_bytes;
		row->basis_bytes = row->size_bytes;
		pcibw_row_rates(row);
		int i = 0;
		while (i < ctx->meta.n && strcmp(ctx->meta.ifs[i].wi.name, row->iface))
			i++;
		if (i == ctx->meta.n || isnan(row->size_bytes))
			continue;
		double line = ctx->meta.ifs[i].line_rate_gbps;
		if (line > 0) {
			double wire = pcibw_wire_bytes(pcibw_frame_bytes(row->size_bytes, PCIBW_SIZE_FRAME));
			row->wire_mpps = line * 1e9 / (8 * wire) / 1e6;
			row->wire_gbps = row->wire_mpps * 1e6 * row->size_bytes * 8 / 1e9;
		}
		const struct watch_if_model *m = &ctx->m[i];
		if (!m->have_bus) {
			if (m->why[0])
				snprintf(row->model_note, sizeof row->model_note, "%.250s", m->why);
			continue;
		}
		struct pcibw_model_in in = {
		    .bus = &m->bus,
		    .nic = &m->nic,
		    .pattern = (enum pcibw_pattern)row->direction,
		    .size_is = PCIBW_SIZE_FRAME,
		    .segment_devices = 1,
		};
		struct pcibw_model_row mr;
		struct pcibw_err e = {0};
		if (pcibw_model_eval(&in, row->size_bytes, &mr, &e) == PCIBW_OK) {
			row->bus_mpps = mr.bus_mpps;
			row->bus_gbps = mr.bus_gbps;
			row->bound_by = mr.bound_by;
		} else {
			snprintf(row->model_note, sizeof row->model_note, "%.200s", e.msg);
		}
	}
}

int watch_verdict(struct pcibw_rows *rs, const struct watch_ctx *ctx, const struct pcibw_thresholds *t,
		  struct pcibw_summary *sum, struct pcibw_err *err)
{
	pcibw_rows_finish(rs);
	watch_ceilings(rs, ctx);
	return pcibw_verdict_run(rs, t, &ctx->mach, sum, err);
}

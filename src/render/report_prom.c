/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw report --format prometheus`: the Prometheus text exposition format (version 0.0.4) for
 * node_exporter's textfile collector. Conventions of the Prometheus docs ("Metric and label
 * naming", "Exposition formats"): a pcibw_ prefix, base units (bytes, seconds, transfers per
 * second), _info gauges of value 1 for metadata, every sample of a family together under one
 * HELP and one TYPE line, label values escaped (\\, \", \n), no timestamps (the textfile
 * collector refuses them).
 *
 * Labels: a device's series carry its PCI address as node_exporter's pcidevice collector
 * spells it (segment %04x, bus %02x, device %02x, function %x, from procfs's
 * PciDeviceLocation.Strings), so they join node_pcidevice_* on those four labels; its
 * interfaces come as pcibw_interface_info{device="IFACE",slot=...}, `device` being the
 * interface name as node_network_info has it. A fact the source does not show is left out
 * (no sample), never written as 0.
 */
#include "pcibw/portfit.h"
#include "report_render.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* a label value, escaped as the exposition format requires */
static void put_value(FILE *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", o);
		else if (*s == '"')
			fputs("\\\"", o);
		else if (*s == '\n')
			fputs("\\n", o);
		else
			fputc(*s, o);
	}
}

static void family(FILE *o, const char *name, const char *help)
{
	fprintf(o, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* name{segment="0000",bus="01",device="00",function="0"[,k="v"]...}: n extra label pairs */
static void series(FILE *o, const char *name, const struct pcibw_device *d, int n, const char *const *kv)
{
	fprintf(o, "%s{segment=\"%04x\",bus=\"%02x\",device=\"%02x\",function=\"%x\"", name,
		(unsigned)d->domain, (unsigned)d->bus, (unsigned)d->dev, (unsigned)d->fn);
	for (int i = 0; i < n; i++) {
		fprintf(o, ",%s=\"", kv[2 * i]);
		put_value(o, kv[2 * i + 1] ? kv[2 * i + 1] : "");
		fputc('"', o);
	}
	fputc('}', o);
}

static void sample(FILE *o, double v)
{
	fprintf(o, " %.15g\n", v);
}

static bool has_address(const struct pcibw_device *d)
{
	return d->domain >= 0 && d->bus >= 0 && d->dev >= 0 && d->fn >= 0 && d->domain != PCIBW_NULL &&
	       d->bus != PCIBW_NULL && d->dev != PCIBW_NULL && d->fn != PCIBW_NULL;
}

/* one family of one number per device; get returns NAN where the device has none */
static void per_device(FILE *o, const struct pcibw_report *r, const char *name, const char *help,
		       double (*get)(const struct pcibw_device *))
{
	bool any = false;
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		double v = get(d);
		if (!has_address(d) || isnan(v))
			continue;
		if (!any)
			family(o, name, help);
		any = true;
		series(o, name, d, 0, NULL);
		sample(o, v);
	}
}

static double known(int v)
{
	return v == PCIBW_NULL ? NAN : v;
}

static double cur_ts(const struct pcibw_device *d)
{
	return d->link_speed_gts * 1e9;
}
static double max_ts(const struct pcibw_device *d)
{
	return d->max_link_speed_gts * 1e9;
}
static double cur_width(const struct pcibw_device *d)
{
	return known(d->link_width);
}
static double max_width(const struct pcibw_device *d)
{
	return known(d->max_link_width);
}
static double downgraded(const struct pcibw_device *d)
{
	return known(d->downgraded);
}
static double mps(const struct pcibw_device *d)
{
	return known(d->mps_bytes);
}
static double mrrs(const struct pcibw_device *d)
{
	return known(d->mrrs_bytes);
}
static double bus_hz(const struct pcibw_device *d)
{
	return d->bus_mhz == PCIBW_NULL ? NAN : d->bus_mhz * 1e6;
}

/* the ASPM state of the link: the effective one (both ends) where known, else this end's */
static int aspm_state(const struct pcibw_device *d)
{
	return d->aspm_link != PCIBW_NULL ? d->aspm_link : d->aspm;
}

static void device_info(FILE *o, const struct pcibw_report *r)
{
	const char *name = "pcibw_device_info";
	bool any = false;
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		if (!has_address(d))
			continue;
		if (!any)
			family(o, name,
			       "A device pcibw reports on (value 1): slot, PCI ids, name, bus kind, the "
			       "path's bottleneck hop and the source read.");
		any = true;
		char ids[3][16] = {"", "", ""};
		if (d->vendor_id != PCIBW_NULL)
			snprintf(ids[0], sizeof ids[0], "0x%04x", (unsigned)d->vendor_id & 0xffff);
		if (d->device_id != PCIBW_NULL)
			snprintf(ids[1], sizeof ids[1], "0x%04x", (unsigned)d->device_id & 0xffff);
		if (d->class_id != PCIBW_NULL)
			snprintf(ids[2], sizeof ids[2], "0x%04x", (unsigned)d->class_id & 0xffff);
		const char *kv[] = {"slot",
				    d->slot,
				    "vendor_id",
				    ids[0],
				    "device_id",
				    ids[1],
				    "class_id",
				    ids[2],
				    "name",
				    d->name,
				    "bus_kind",
				    pcibw_device_kind_name(d->bus_kind),
				    "bottleneck_slot",
				    d->bottleneck_slot,
				    "source",
				    r->source};
		series(o, name, d, (int)(sizeof kv / sizeof *kv / 2), kv);
		sample(o, 1);
	}
}

static void interface_info(FILE *o, const struct pcibw_report *r)
{
	const char *name = "pcibw_interface_info";
	bool any = false;
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		for (int k = 0; k < d->n_interfaces; k++) {
			if (!any)
				family(o, name,
				       "A network interface (device, as node_network_info names it), the "
				       "PCI slot behind it and the interface's driver (driver, as ethtool -i "
				       "and "
				       "node_ethtool_info name it; absent when unknown) (value 1).");
			any = true;
			fprintf(o, "%s{device=\"", name);
			put_value(o, d->interfaces[k]);
			fputs("\",slot=\"", o);
			put_value(o, d->slot);
			if (d->iface_driver[0]) {
				fputs("\",driver=\"", o);
				put_value(o, d->iface_driver);
			}
			fputs("\"}", o);
			sample(o, 1);
		}
	}
}

static void aspm(FILE *o, const struct pcibw_report *r)
{
	static const int states[] = {0, PCIBW_ASPM_L0S, PCIBW_ASPM_L1, PCIBW_ASPM_L0S | PCIBW_ASPM_L1};
	const char *name = "pcibw_aspm_state";
	bool any = false;
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		int st = aspm_state(d);
		if (!has_address(d) || st == PCIBW_NULL)
			continue;
		if (!any)
			family(o, name,
			       "PCIe ASPM state of the device's link, one series per state, 1 for the one in "
			       "effect (both ends enable it; this end's Link Control where the other end "
			       "is not in the source).");
		any = true;
		for (unsigned k = 0; k < sizeof states / sizeof *states; k++) {
			const char *kv[] = {"state", pcibw_aspm_name(states[k], false)};
			series(o, name, d, 1, kv);
			sample(o, st == states[k]);
		}
	}
}

static void bottleneck(FILE *o, const struct pcibw_report *r)
{
	const char *name = "pcibw_bottleneck_bytes_per_second";
	bool any = false;
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		if (!has_address(d) || isnan(d->bottleneck_gbps))
			continue;
		if (!any)
			family(o, name,
			       "Raw bandwidth of the narrowest hop between the device and the root complex "
			       "(bytes/s per direction; the hop's slot in the label).");
		any = true;
		const char *kv[] = {"hop", d->bottleneck_slot};
		series(o, name, d, 1, kv);
		sample(o, d->bottleneck_gbps * 1e9 / 8);
	}
}

/* port_fit at both frame sizes (unclamped), one family */
static void port_fit(FILE *o, const struct pcibw_report *r)
{
	const char *name = "pcibw_port_fit_ratio";
	bool any = false;
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		const struct pcibw_port_fit *f = &d->port_fit;
		if (!has_address(d) || !f->known)
			continue;
		if (!any)
			family(o, name,
			       "Bus ceiling (pattern both, the NIC profile's costs) over the packet rate the "
			       "card's ports need at line rate, at this frame size; >= 1 means the slot "
			       "carries the ports, below 1 it cannot (not clamped).");
		any = true;
		const double v[2] = {f->ratio_64, f->ratio_1518};
		const char *sz[2] = {"64", "1518"};
		for (int k = 0; k < 2; k++) {
			if (isnan(v[k]))
				continue;
			const char *kv[] = {"frame_bytes", sz[k]};
			series(o, name, d, 1, kv);
			sample(o, v[k]);
		}
	}
}

/* why a link runs below its capability: one series of value 1 per such device */
static void link_cause(FILE *o, const struct pcibw_report *r)
{
	const char *name = "pcibw_link_cause";
	bool any = false;
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		if (!has_address(d) || !d->link_cause.code)
			continue;
		if (!any)
			family(o, name,
			       "Why the PCIe link runs below the device's capability (1; cause "
			       "partner-limited is no fault): partner-limited, target-capped, "
			       "autonomous-disabled, lanes-lost, power-managed, reliability, unknown.");
		any = true;
		const char *kv[] = {"cause", d->link_cause.code};
		series(o, name, d, 1, kv);
		sample(o, 1);
	}
}

/* the kernel's AER counts since boot, per severity */
static void aer(FILE *o, const struct pcibw_report *r)
{
	const char *name = "pcibw_aer_errors_total";
	bool any = false;
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		const long long v[3] = {d->aer.correctable, d->aer.nonfatal, d->aer.fatal};
		const char *sev[3] = {"correctable", "nonfatal", "fatal"};
		for (int k = 0; k < 3; k++) {
			if (!has_address(d) || v[k] == PCIBW_NULL)
				continue;
			if (!any)
				fprintf(
				    o,
				    "# HELP %s PCIe AER errors the kernel counted for the device since boot "
				    "(sysfs aer_dev_*), by severity.\n# TYPE %s counter\n",
				    name, name);
			any = true;
			const char *kv[] = {"severity", sev[k]};
			series(o, name, d, 1, kv);
			fprintf(o, " %lld\n", v[k]);
		}
	}
}

int pcibw_report_render_prometheus(FILE *o, const struct pcibw_report *r)
{
	device_info(o, r);
	interface_info(o, r);
	per_device(o, r, "pcibw_current_link_transfers_per_second",
		   "PCIe link speed now (LnkSta), transfers per second per lane.", cur_ts);
	per_device(
	    o, r, "pcibw_max_link_transfers_per_second",
	    "PCIe link speed the device supports (LnkCap2, else LnkCap), transfers per second per lane.",
	    max_ts);
	per_device(o, r, "pcibw_current_link_width", "PCIe link width now (LnkSta), lanes.", cur_width);
	per_device(o, r, "pcibw_max_link_width", "PCIe link width the device supports (LnkCap), lanes.",
		   max_width);
	per_device(o, r, "pcibw_link_downgraded",
		   "1 when the link trained below what both ends support (speed or width), else 0.",
		   downgraded);
	link_cause(o, r);
	aer(o, r);
	per_device(o, r, "pcibw_bus_clock_hertz", "Conventional PCI or PCI-X segment clock, hertz.", bus_hz);
	bottleneck(o, r);
	port_fit(o, r);
	per_device(o, r, "pcibw_max_payload_bytes", "PCIe Max_Payload_Size in effect (DevCtl), bytes.", mps);
	per_device(o, r, "pcibw_max_read_request_bytes",
		   "PCIe Max_Read_Request_Size in effect (DevCtl), bytes.", mrrs);
	aspm(o, r);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	family(o, "pcibw_last_success_timestamp_seconds",
	       "When pcibw last read the bus facts successfully (Unix time, seconds).");
	fprintf(o, "pcibw_last_success_timestamp_seconds %.3f\n", now.tv_sec + now.tv_nsec / 1e9);
	return ferror(o) ? PCIBW_EINTERNAL : PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw report --format csv`: one row per device, the contract's scalar keys as columns (an
 * empty field is null; `interfaces` joined by spaces, `path` slots joined by '>'). A field
 * holding a comma, quote or newline is quoted by libcsv. Warnings cannot live in a CSV body: they go to
 * standard error. */
#include "report_render.h"
#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const cols[] = {"slot",
				   "vendor_id",
				   "device_id",
				   "class",
				   "name",
				   "virtual",
				   "bus_kind",
				   "pcix_capable",
				   "pcix_mode",
				   "bus_mhz",
				   "bus_width_bits",
				   "mmrbc_bytes",
				   "link_speed_gts",
				   "link_width",
				   "max_link_speed_gts",
				   "max_link_width",
				   "downgraded",
				   "mps_bytes",
				   "mrrs_bytes",
				   "numa_node",
				   "interfaces",
				   "path",
				   "bottleneck_slot",
				   "bottleneck_gbps",
				   "bottleneck_shared",
				   "aspm",
				   "aspm_link",
				   "aspm_supported",
				   "l0s_exit_latency_ns",
				   "l1_exit_latency_ns",
				   "clock_pm",
				   "mps_supported_bytes",
				   "driver",
				   "interface_driver",
				   "firmware"};

static void field(FILE *o, int first, const char *s)
{
	if (!first)
		fputc(',', o);
	if (!s || !*s)
		return;
	if (strpbrk(s, ",\"\r\n"))
		csv_fwrite(o, s, strlen(s)); /* quotes, doubling inner quotes (RFC 4180) */
	else
		fputs(s, o);
}

static const char *i2s(char *b, int v, const char *fmt)
{
	if (v == PCIBW_NULL)
		return "";
	snprintf(b, 64, fmt, v);
	return b;
}

static const char *d2s(char *b, double v)
{
	if (isnan(v))
		return "";
	snprintf(b, 64, "%.15g", v);
	return b;
}

static const char *b3(int v)
{
	return v == PCIBW_NULL ? "" : v ? "true" : "false";
}

int pcibw_report_render_csv(FILE *o, const struct pcibw_report *r)
{
	for (unsigned c = 0; c < sizeof cols / sizeof *cols; c++)
		field(o, c == 0, cols[c]);
	fputc('\n', o);
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		char b[20][64], list[PCIBW_MAX_PATH * 33 + PCIBW_MAX_IFACES * 33];
		field(o, 1, d->slot);
		field(o, 0, i2s(b[0], d->vendor_id, "0x%04x"));
		field(o, 0, i2s(b[1], d->device_id, "0x%04x"));
		field(o, 0, i2s(b[2], d->class_id, "0x%04x"));
		field(o, 0, d->name);
		field(o, 0, d->is_virtual ? "true" : "false");
		field(o, 0, pcibw_device_kind_name(d->bus_kind));
		field(o, 0, d->pcix_capable ? "true" : "false");
		field(o, 0, pcibw_pcix_mode_name(d->pcix_mode));
		field(o, 0, i2s(b[3], d->bus_mhz, "%d"));
		field(o, 0, i2s(b[4], d->bus_width_bits, "%d"));
		field(o, 0, i2s(b[5], d->mmrbc_bytes, "%d"));
		field(o, 0, d2s(b[6], d->link_speed_gts));
		field(o, 0, i2s(b[7], d->link_width, "%d"));
		field(o, 0, d2s(b[8], d->max_link_speed_gts));
		field(o, 0, i2s(b[9], d->max_link_width, "%d"));
		field(o, 0, b3(d->downgraded));
		field(o, 0, i2s(b[10], d->mps_bytes, "%d"));
		field(o, 0, i2s(b[11], d->mrrs_bytes, "%d"));
		field(o, 0, i2s(b[12], d->numa_node, "%d"));
		list[0] = '\0';
		for (int k = 0; k < d->n_interfaces; k++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? " " : "",
				 d->interfaces[k]);
		field(o, 0, list);
		list[0] = '\0';
		for (int k = 0; k < d->n_path; k++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ">" : "",
				 d->path[k].slot);
		field(o, 0, list);
		field(o, 0, d->bottleneck_slot);
		field(o, 0, d2s(b[13], d->bottleneck_gbps));
		field(o, 0, b3(d->bottleneck_shared));
		field(o, 0, pcibw_aspm_name(d->aspm, false));
		field(o, 0, pcibw_aspm_name(d->aspm_link, false));
		field(o, 0, pcibw_aspm_name(d->aspm_supported, true));
		field(o, 0, i2s(b[14], d->l0s_exit_latency_ns, "%d"));
		field(o, 0, i2s(b[15], d->l1_exit_latency_ns, "%d"));
		field(o, 0, b3(d->clock_pm));
		field(o, 0, i2s(b[16], d->mps_supported_bytes, "%d"));
		field(o, 0, d->driver);
		field(o, 0, d->iface_driver);
		field(o, 0, d->firmware);
		fputc('\n', o);
	}
	char s[1100];
	for (int i = 0; i < r->n_warnings; i++)
		pcibw_put_message(stderr,
				  "pcibw: warning: ", pcibw_warning_string(&r->warnings[i], s, sizeof s));
	return ferror(o) ? PCIBW_EINTERNAL : PCIBW_OK;
}

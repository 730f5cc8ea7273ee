/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The OS-neutral part of the sysfs attributes: the parsers of the kernel's text and what the
 * attributes give a device. See sysfs_attr.h; the reads are sysfs_attr_linux.c's. */
#include "sysfs_attr.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pcibw_sysfs_parse_speed(const char *text, double *gts, int *col)
{
	const char *p = text;
	*gts = NAN;
	if (!strncmp(p, "Unknown", 7)) {
		p += 7;
		if (!strncmp(p, " speed", 6)) /* kernels before 4.13 */
			p += 6;
		goto tail;
	}
	/* Parsed by hand, not strtod(): a locale with a decimal comma must not turn "2.5" into 2. */
	double v = 0;
	if (*p < '0' || *p > '9')
		goto bad;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	if (*p == '.') {
		double scale = 0.1;
		p++;
		if (*p < '0' || *p > '9')
			goto bad;
		while (*p >= '0' && *p <= '9') {
			v += (*p++ - '0') * scale;
			scale /= 10;
		}
	}
	for (const char *unit = " GT/s"; *unit; unit++, p++)
		if (*p != *unit)
			goto bad;    /* *col then points at the first character that differs */
	if (!strncmp(p, " PCIe", 5)) /* pci_speed_string() since Linux 5.7 */
		p += 5;
	*gts = pcibw_pcie_gen_gts(pcibw_pcie_gen_of_gts(v));
	if (isnan(*gts)) {
		*col = 1;
		return -1;
	}
tail:
	while (*p == '\n' || *p == ' ' || *p == '\r')
		p++;
	if (*p)
		goto bad;
	return 0;
bad:
	*col = (int)(p - text) + 1;
	return -1;
}

int pcibw_sysfs_parse_width(const char *text, int *width, int *col)
{
	const char *p = text;
	long v = 0;
	*width = PCIBW_NULL;
	if (*p < '0' || *p > '9')
		goto bad;
	while (*p >= '0' && *p <= '9' && v < 1000)
		v = v * 10 + (*p++ - '0');
	while (*p == '\n' || *p == ' ')
		p++;
	if (*p)
		goto bad;
	if (v == 0)
		return 0; /* x0: no link trained */
	if (!pcibw_pcie_width_ok((int)v)) {
		*col = 1;
		return -1;
	}
	*width = (int)v;
	return 0;
bad:
	*col = (int)(p - text) + 1;
	return -1;
}

void pcibw_sysfs_apply_ids(struct pcibw_device *d, const struct pcibw_sysfs_attrs *a)
{
	if (a->has_numa && d->numa_node == PCIBW_NULL) {
		d->numa_node = a->numa_node;
		pcibw_device_set_prov(d, "numa_node", "sysfs");
		/* with numa_node -1 the kernel lists every online CPU: that is no locality */
		if (d->numa_node != PCIBW_NULL && a->local_cpulist[0]) {
			snprintf(d->local_cpus, sizeof d->local_cpus, "%s", a->local_cpulist);
			pcibw_device_set_prov(d, "local_cpus", "sysfs");
		}
	}
	if (a->driver[0] && !d->driver[0]) {
		snprintf(d->driver, sizeof d->driver, "%s", a->driver);
		pcibw_device_set_prov(d, "driver", "sysfs");
	}
	if (a->iface_driver[0] && !d->iface_driver[0]) {
		snprintf(d->iface_driver, sizeof d->iface_driver, "%s", a->iface_driver);
		pcibw_device_set_prov(d, "interface_driver", "sysfs");
	}
	if (a->is_vf)
		d->is_vf = true;
	if (a->n_ifaces && !d->n_interfaces) {
		for (int i = 0; i < a->n_ifaces; i++) {
			memcpy(d->interfaces[i], a->ifaces[i], sizeof d->interfaces[i]);
			d->iface_speed_mbps[i] = a->speed_mbps[i];
		}
		d->n_interfaces = a->n_ifaces;
		pcibw_device_set_prov(d, "interfaces", "sysfs");
	}
}

void pcibw_sysfs_apply_link(struct pcibw_device *d, const struct pcibw_sysfs_attrs *a)
{
	bool any = false;
	if (a->has_cur_speed) {
		d->link_speed_gts = a->cur_gts;
		pcibw_device_set_prov(d, "link_speed_gts", "sysfs");
		any = true;
	}
	if (a->has_cur_width) {
		d->link_width = a->cur_width;
		pcibw_device_set_prov(d, "link_width", "sysfs");
		any = true;
	}
	if (a->has_max_speed) {
		d->max_link_speed_gts = a->max_gts;
		pcibw_device_set_prov(d, "max_link_speed_gts", "sysfs");
		any = true;
	}
	if (a->has_max_width) {
		d->max_link_width = a->max_width;
		pcibw_device_set_prov(d, "max_link_width", "sysfs");
		any = true;
	}
	/* The kernel writes these files only for devices with a PCIe capability. */
	if (any && d->bus_kind == PCIBW_BUS_UNKNOWN) {
		d->bus_kind = PCIBW_BUS_PCIE;
		pcibw_device_set_prov(d, "bus_kind", "sysfs");
	}
	if (!d->is_bridge && a->has_cur_speed && a->has_max_speed && a->has_cur_width && a->has_max_width &&
	    !isnan(a->cur_gts) && !isnan(a->max_gts) && a->cur_width != PCIBW_NULL &&
	    a->max_width != PCIBW_NULL) {
		d->downgraded = a->cur_gts < a->max_gts || a->cur_width < a->max_width;
		pcibw_device_set_prov(d, "downgraded", "sysfs");
	}
}

void pcibw_sysfs_apply_pm(struct pcibw_device *d, const struct pcibw_sysfs_attrs *a)
{
	if (a->aspm_link != PCIBW_NULL && d->aspm_link == PCIBW_NULL) {
		d->aspm_link = a->aspm_link;
		pcibw_device_set_prov(d, "aspm_link", "sysfs");
	}
	if (a->l1_substates != PCIBW_NULL && d->l1_substates == PCIBW_NULL) {
		d->l1_substates = a->l1_substates;
		pcibw_device_set_prov(d, "l1_substates", "sysfs");
	}
	if (a->clock_pm != PCIBW_NULL && d->clock_pm == PCIBW_NULL) {
		d->clock_pm = a->clock_pm;
		pcibw_device_set_prov(d, "clock_pm", "sysfs");
	}
}

int pcibw_sysfs_parse_aer(const char *text, const char *total, long long *count, int *line, int *col)
{
	char want[32];
	snprintf(want, sizeof want, "TOTAL_%s ", total);
	*line = 1;
	*col = 1;
	bool found = false;
	for (const char *p = text; *p; (*line)++) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		/* the count is the last blank-separated field, a decimal number */
		const char *sp = NULL;
		for (size_t k = 0; k < len; k++)
			if (p[k] == ' ')
				sp = p + k;
		if (!sp || sp == p || sp + 1 == p + len) {
			*col = sp ? (int)(sp - p) + 2 : (int)len + 1;
			return -1;
		}
		long long v = 0;
		for (const char *q = sp + 1; q < p + len; q++) {
			if (*q < '0' || *q > '9' || v > (LLONG_MAX - 9) / 10) {
				*col = (int)(q - p) + 1;
				return -1;
			}
			v = v * 10 + (*q - '0');
		}
		if (!strncmp(p, want, strlen(want)) && (size_t)(sp - p) + 1 == strlen(want)) {
			*count = v;
			found = true;
		}
		if (!end)
			break;
		p = end + 1;
	}
	if (!found) {
		*col = 1;
		return -1;
	}
	return 0;
}

void pcibw_sysfs_apply_aer(struct pcibw_device *d, const struct pcibw_sysfs_attrs *a)
{
	if (a->aer_correctable == PCIBW_NULL && a->aer_nonfatal == PCIBW_NULL && a->aer_fatal == PCIBW_NULL)
		return;
	d->aer.correctable = a->aer_correctable;
	d->aer.nonfatal = a->aer_nonfatal;
	d->aer.fatal = a->aer_fatal;
	pcibw_device_set_prov(d, "aer", "sysfs");
}

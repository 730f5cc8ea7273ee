/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output of `pcibw report`: JSON (keys: doc/cli-contract.md "report JSON", doc/json.md) and
 * human text. Each returns PCIBW_OK or PCIBW_EINTERNAL (out of memory, write error). */
#ifndef PCIBW_REPORT_RENDER_H
#define PCIBW_REPORT_RENDER_H

#include "pcibw/device.h"
#include <stdio.h>

int pcibw_report_render_json(FILE *out, const struct pcibw_report *r);
int pcibw_report_render_text(FILE *out, const struct pcibw_report *r);
/* CSV: one row per device (columns: the contract's scalar keys), warnings on stderr. */
int pcibw_report_render_csv(FILE *out, const struct pcibw_report *r);
/* Prometheus text exposition for node_exporter's textfile collector (report_prom.c; metric
 * names, labels and units: doc/prometheus.md). Warnings are not metrics: the caller prints them. */
int pcibw_report_render_prometheus(FILE *out, const struct pcibw_report *r);

/* pcibw_pcix_mode_name - "conventional", "pci-x", "pci-x-ecc", "pci-x-266", "pci-x-533", or
 * NULL for PCIBW_PCIX_MODE_NULL. */
const char *pcibw_pcix_mode_name(enum pcibw_pcix_mode m);

/* pcibw_device_kind_name - bus_kind of a device as the contract spells it: "pci", "pci-x",
 * "pcie", "unknown" (a virtual device's bus_kind stays the bus it sits on). */
const char *pcibw_device_kind_name(enum pcibw_bus_kind k);

#endif

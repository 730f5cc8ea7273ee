/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON pieces `report` and `slots` both print, so a key added to one is in the other: a port
 * fit and a path hop (keys: doc/json.md "pcibw report"). */
#ifndef PCIBW_REPORT_PARTS_H
#define PCIBW_REPORT_PARTS_H

#include "pcibw/device.h"
#include "pcibw/portfit.h"
#include <jansson.h>

/* render_port_fit_json - the `port_fit` object of f, json null when f->known is false. A new
 * reference; NULL only when jansson cannot allocate. */
json_t *render_port_fit_json(const struct pcibw_port_fit *f);

/* render_hop_json - one `path` entry: slot, bus_kind, link_speed_gts, link_width, bus_mhz,
 * bus_width_bits, gbps, shared, mps_supported_bytes (null where unknown). A new reference. */
json_t *render_hop_json(const struct pcibw_hop *h);

#endif

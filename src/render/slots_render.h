/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output of `pcibw slots` (keys: doc/cli-contract.md "slots", doc/json.md). Each returns PCIBW_OK
 * or PCIBW_EINTERNAL (out of memory, write error). r is the report the slots were built from:
 * its source and its warnings about the whole source. */
#ifndef PCIBW_SLOTS_RENDER_H
#define PCIBW_SLOTS_RENDER_H

#include "pcibw/device.h"
#include "pcibw/slots.h"
#include <stdio.h>

int pcibw_slots_render_text(FILE *out, const struct pcibw_report *r, const struct pcibw_slots *s);
int pcibw_slots_render_json(FILE *out, const struct pcibw_report *r, const struct pcibw_slots *s);

/* pcibw_slot_port_type_name - "root-port", "downstream-port", or NULL (unknown). */
const char *pcibw_slot_port_type_name(int type);

#endif

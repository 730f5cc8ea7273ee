/* SPDX-License-Identifier: GPL-2.0-or-later */
/* segment.h - the PCI / PCI-X segment a device shares with the others on its bus (segment.c). */
#ifndef PCIBW_SEGMENT_H
#define PCIBW_SEGMENT_H

#include "probe_int.h"

struct seg {
	enum pcibw_bus_kind kind; /* PCI, PCIX or UNKNOWN */
	enum pcibw_pcix_mode mode;
	int mhz, width_bits; /* PCIBW_NULL when unknown */
	bool from_pcix_bridge;
	bool from_spec; /* clock/width set by the bus type's spec, not read (CardBus) */
	char why[300];	/* why kind or width is unknown */
};

/* seg_on_bus - node n sits on bus `bus` of `domain`. */
static inline bool seg_on_bus(const struct probe_node *n, int domain, int bus)
{
	return n->d.domain == domain && n->d.bus == bus;
}

/* probe_segment - the facts of bus `bus` in `domain`, driven by set->v[bridge] (-1: a root bus,
 * or a bridge missing from the source). g->why says what is unknown, when something is. */
void probe_segment(const struct probe_set *s, int domain, int bus, int bridge, struct seg *g);

/* probe_device_segment - set bus_kind, pcix_mode, bus_mhz, bus_width_bits of a device that is
 * not PCIe from its segment (needs every node's parent). */
void probe_device_segment(struct probe_set *s, int i);

/* probe_segment_warnings - the warnings a reader of device i needs about facts left null. */
void probe_segment_warnings(const struct probe_set *s, int i, struct pcibw_report *rep);

#endif

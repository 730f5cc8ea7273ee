/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interfaces that share one bottleneck hop, added up against it: ports of one multi-port NIC
 * behind its slot, NICs behind one PCIe switch uplink, devices on one PCI/PCI-X segment, and
 * SR-IOV VFs with their PF (a VF's traffic crosses its PF's link). Each interval the group's
 * packets are costed, member by member at its own frame size and NIC profile, on that hop's
 * bus; each bus resource (a link direction, the root complex, a segment's clocks) sums its
 * members' load (pcibw_model_loads), and the most loaded one is the hop's utilisation. The
 * verdict of that sum is the shared engine's (pcibw_verdict_run), as for any row.
 */
#ifndef PCIBW_WATCH_SHARED_HOP_H
#define PCIBW_WATCH_SHARED_HOP_H

#include "pcibw/device.h"
#include "pcibw/model.h"
#include "pcibw/verdict.h"
#include "pcibw/watch.h"
#include "pcibw/watch_result.h"

struct watch_ctx;
struct watch_meta_if;

struct watch_shared {
	int n;
	struct pcibw_watch_hop g[PCIBW_WATCH_MAX_HOPS];
	struct pcibw_bus bus[PCIBW_WATCH_MAX_IFACES]; /* each interface's bus on its group's hop */
	bool own_hop[PCIBW_WATCH_MAX_IFACES];	      /* that hop is the interface's own PCIe link
						       * (its device's), read again every interval */
};

/* The run's figures of each group, for the summary. */
struct watch_shared_run {
	struct pcibw_rows rows[PCIBW_WATCH_MAX_HOPS]; /* summed rows by whole frame size */
	double *ceil_sum[PCIBW_WATCH_MAX_HOPS];	      /* per row of rows[g]: summed ceilings (pps) */
	long *ceil_n[PCIBW_WATCH_MAX_HOPS];	      /* ... and how many */
	int cap[PCIBW_WATCH_MAX_HOPS];
	struct pcibw_watch_hop_summary out; /* what the summary prints (watch_shared_finish) */
};

/*
 * watch_shared_setup - the groups of ctx->meta (after the interfaces' own models are set up):
 * interfaces with the same bottleneck hop (meta `hop`), a VF with its PF's hop; with no `hop`
 * in the meta (older recordings), functions of one PCIe device (they share its link) and
 * devices on one PCI/PCI-X bus number (they share the segment). A group needs two members, or
 * one VF (counted against its PF's link even when the PF is not watched). Each member's bus on
 * the hop is its meta `hop_bus`, else its own bus. Returns PCIBW_OK, or PCIBW_EINPUT naming
 * where (a recording's meta; EUSAGE when where is NULL) for a hop_bus that does not parse.
 */
int watch_shared_setup(struct watch_ctx *ctx, const char *where, struct pcibw_err *err);

/*
 * watch_shared_interval - each group's sums in interval iv, its hop utilisation and verdict.
 * own: the interval's per-interface rows after their verdict (for each member's own bus
 * utilisation); t the thresholds. Pure. Returns PCIBW_OK or PCIBW_EINTERNAL (out of memory).
 */
int watch_shared_interval(const struct watch_ctx *ctx, const struct pcibw_watch_interval *iv,
			  const struct pcibw_rows *own, const struct pcibw_thresholds *t,
			  struct pcibw_watch_hop_ivs *out, struct pcibw_err *err);

/* watch_shared_remember - add an interval's group figures to the run (rows by whole frame size:
 * memory grows with the distinct sizes, not with intervals). PCIBW_OK or PCIBW_EINTERNAL. */
int watch_shared_remember(struct watch_shared_run *run, const struct watch_ctx *ctx,
			  const struct pcibw_watch_interval *iv, const struct pcibw_watch_hop_ivs *s,
			  struct pcibw_err *err);

/* watch_shared_finish - each group's verdict over the run (the whole-input rule over its rows). */
int watch_shared_finish(struct watch_shared_run *run, const struct watch_ctx *ctx,
			const struct pcibw_thresholds *t, struct pcibw_err *err);

/* watch_shared_run_free - free what the run holds; run is zeroed. */
void watch_shared_run_free(struct watch_shared_run *run);

/*
 * watch_hop_of_device - the bottleneck hop of a probed device (pcibw_probe's path and
 * bottleneck_slot: the narrowest hop to the root, ties to the root side) as meta's hop (its
 * slot, 32 bytes) and hop_bus (own, the device's bus from pcibw_bus_from_device, with the
 * hop's link or segment: PCIe speed and width from the path entry; the device's own bus when
 * the hop is its own link or segment; for an on-package MAC, pcibw_device_is_onpackage, the
 * root-most hop, whose link its bus already is). Pure. Returns false (hop and spec "") when the source
 * shows no bottleneck, or the hop's bus cannot carry the device's model (a PCI/PCI-X hop above
 * a PCIe device: no segment clock in the path).
 */
bool watch_hop_of_device(const struct pcibw_device *d, const struct pcibw_bus *own, char hop[32], char *spec,
			 unsigned len);

/* watch_shared_probe - fill m's hop, hop_bus and pf for the probed device d (own: its bus from
 * pcibw_bus_from_device): its bottleneck hop (watch_hop_of_device); for a VF (watch_physfn) its
 * PF's, probed by slot, else the PF's link as the VF reports it. Leaves them "" when unknown. */
void watch_shared_probe(const struct pcibw_device *d, const struct pcibw_bus *own, struct watch_meta_if *m);

/* watch_physfn - an SR-IOV VF's PF: the slot its sysfs `physfn` link names (pf, 32 bytes);
 * false for a PF or a plain function, or where sysfs is not there (physfn_linux.c); always
 * false on FreeBSD, where nothing a user can read names a VF's PF (physfn_freebsd.c). */
bool watch_physfn(const char *slot, char pf[32]);

#endif

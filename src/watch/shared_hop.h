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

struct watch_ctx;
struct watch_meta_if;

#define WATCH_MAX_SHARED PCIBW_WATCH_MAX_IFACES

struct watch_shared_group {
	char hop[32];			    /* the hop's slot; inferred: a device ("0000:03:00") or a
					     * segment ("0000:05") prefix */
	bool inferred;			    /* the meta named no hop: grouped by device or segment */
	bool segment;			    /* a shared PCI/PCI-X segment (half duplex: both
					     * directions on one budget) */
	char hop_bus[128];		    /* the hop as its first member's bus spec */
	int n;				    /* members, >= 1 */
	int member[PCIBW_WATCH_MAX_IFACES]; /* indices into meta.ifs, in meta order */
	bool vf[PCIBW_WATCH_MAX_IFACES];    /* that member is an SR-IOV VF */
	int n_vf;			    /* VFs among the members */
	char pf[32];			    /* the PF of its VFs, "" when none */
	bool pf_watched;		    /* that PF is a member */
	bool costed;			    /* every member has a bus on the hop and a NIC profile */
	char names[PCIBW_WATCH_MAX_IFACES * PCIBW_WATCH_IFNAME]; /* "eth0, eth1" */
	char why[256];						 /* why not costed, "" */
	char note[320]; /* about its VFs: grouped with the PF, or the PF unwatched */
};

struct watch_shared {
	int n;
	struct watch_shared_group g[WATCH_MAX_SHARED];
	struct pcibw_bus bus[PCIBW_WATCH_MAX_IFACES]; /* each interface's bus on its group's hop */
	bool own_hop[PCIBW_WATCH_MAX_IFACES];	      /* that hop is the interface's own PCIe link
						       * (its device's), read again every interval */
};

/* One direction's sum over a group's members in one interval. */
struct watch_shared_dir {
	double pps, gbps;    /* summed; gbps counts the kernel's bytes (no FCS), as each member's */
	double frame_bytes;  /* summed bytes / summed packets + 4 (FCS); NAN with no packets */
	double util;	     /* this direction's traffic alone on the hop's most loaded resource */
	double ceiling_mpps; /* summed packets/s the hop sustains at this mix, this direction alone */
};

#define WATCH_SHARED_REASONS 16

struct watch_shared_iv {
	bool valid;			/* costed and some member moved packets */
	struct watch_shared_dir rx, tx; /* NAN where unknown */
	double util;			/* both directions together on the most loaded resource */
	const char *bound_by;		/* that resource (pcibw_model_loads name), NULL */
	double own_max;			/* the highest member utilisation of its own bus; NAN */
	bool relinked;			/* a member's own link, the hop, reads other than modelled:
					 * costed at its current speed and width */
	char link[32];			/* that link as it reads now ("8 GT/s x4"), "" */
	enum pcibw_verdict verdict;	/* the shared engine's on the summed row */
	char evidence[4][320];
	int n_evidence;
	struct pcibw_reason reasons[WATCH_SHARED_REASONS]; /* those of the evidence kept */
	int n_reasons;
	bool limiting;	/* the hop is io-bound or impossible while no member's own bus is */
	char note[320]; /* says so, "" */
};

struct watch_shared_ivs {
	int n;
	struct watch_shared_iv g[WATCH_MAX_SHARED];
};

/* The run's figures of each group, for the summary. */
struct watch_shared_run {
	struct pcibw_rows rows[WATCH_MAX_SHARED]; /* summed rows by whole frame size */
	double *ceil_sum[WATCH_MAX_SHARED];	  /* per row of rows[g]: summed ceilings (pps) */
	long *ceil_n[WATCH_MAX_SHARED];		  /* ... and how many */
	int cap[WATCH_MAX_SHARED];
	double peak_util[WATCH_MAX_SHARED], peak_t[WATCH_MAX_SHARED]; /* NAN none */
	long limiting[WATCH_MAX_SHARED];			      /* intervals it was limiting */
	struct pcibw_summary sum[WATCH_MAX_SHARED];		      /* watch_shared_finish */
	bool have_sum[WATCH_MAX_SHARED];
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
			  struct watch_shared_ivs *out, struct pcibw_err *err);

/* watch_shared_remember - add an interval's group figures to the run (rows by whole frame size:
 * memory grows with the distinct sizes, not with intervals). PCIBW_OK or PCIBW_EINTERNAL. */
int watch_shared_remember(struct watch_shared_run *run, const struct watch_ctx *ctx,
			  const struct pcibw_watch_interval *iv, const struct watch_shared_ivs *s,
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

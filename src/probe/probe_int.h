/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe_int.h - the probe pipeline shared by every source (dump, live, --sysfs, hwloc XML).
 *
 *   1. read:    probe_libpci_read() scans through libpci with any access method (sysfs, the
 *               OS default), reads each device's config space (never writes) and decodes it
 *               into a probe_node (identity, PCI-X, PCIe, bridge bus numbers, 66 MHz bits).
 *               A dump is read by its strict scanner, which hands each device's bytes to
 *               probe_decode as libpci's dump method would (dump_read.c); a source without
 *               config space (hwloc XML) fills probe_nodes itself.
 *   2. augment: a source may then add facts config space cannot give (sysfs link attributes,
 *               numa_node, interface names) straight into node->d, recording provenance.
 *   3. finish:  probe_finish() builds the tree (parent bridges), sets each device's segment
 *               (bus_kind, clock, width, PCI-X mode), the path to the root, the bottleneck hop
 *               and the segment peers, then filters (class, -s, -i), sorts and moves the
 *               devices into the report.
 *
 * Live and --sysfs call probe_libpci_read() with their own method and parameters, then
 * probe_finish() (live_linux.c); --dump is dump_read.c's probe_dump().
 */
#ifndef PCIBW_PROBE_INT_H
#define PCIBW_PROBE_INT_H

#include "pcibw/device.h"
#include "pcibw/probe.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where the decoder asks for config bytes the first read did not take: fill buf with the n bytes
 * at offset at of the device ctx names. Returns 0, or -1 when the source does not hold them. */
typedef int (*probe_cfg_fetch)(void *ctx, int at, uint8_t *buf, int n);

/*
 * Raw config space of one device as read (pcibw never writes it). Each config read of a live
 * device is a trip to it (a trap to the hypervisor in a virtual machine), so the source reads
 * the header (64 bytes), the capability area below 0x100 only when Status says there is a
 * capability list, and extended space (0x100-0xfff) only dword by dword where a decoder asks
 * for it (probe_cfg_need). Bytes at and past 0x100 count as read only where got marks them.
 */
struct probe_cfg {
	uint8_t *b; /* 4096 bytes, owned by the source while it decodes (probe_libpci_read: one
		     * heap block per node, freed by probe_set_free; a dump: the reader's scratch,
		     * NULL once decoded, len kept); NULL with len 0 (hwloc XML) */
	int len;    /* bytes the source holds, from 0: 0 (no config space: hwloc XML), 64 (lspci -x,
		     * sysfs as non-root, or a device without a capability list), 128 (CardBus -x),
		     * 256 (conventional/PCI-X), 4096 (extended space found by probe_cfg_need) */
	uint32_t got[4096 / 4 / 32]; /* dwords read at and past 0x100, one bit each */
	probe_cfg_fetch fetch;	     /* NULL: nothing more can be read (the source is gone) */
	void *fetch_ctx;
};

/*
 * probe_cfg_need - make the n bytes at offset at (at >= 0x100, within one capability) readable
 * through cfg8/cfg16/cfg32: fetched from the source the first time, a dword at a time. The
 * first request tells whether the source holds extended space at all (its last dword, 0xffc,
 * reads), and then sets len to 4096. Returns 1 when the bytes are there, 0 when not (the
 * source has no extended space, or it cannot be read any more).
 */
int probe_cfg_need(struct probe_cfg *c, int at, int n);

/*
 * Where config byte `offset` of a device came from, for error messages: writes e.g.
 * "dump.lspci:123:17" (dump: file:line:column of the hex digits) or
 * "DIR/bus/pci/devices/0000:00:1c.0/config offset 0x51". NULL where = "SLOT offset 0x51".
 */
struct probe_locator {
	void (*where)(const void *ctx, int domain, int bus, int dev, int fn, int offset, char *buf,
		      size_t len);
	const void *ctx;
};

/* One device while the probe builds the report. */
struct probe_node {
	struct pcibw_device d; /* facts decoded so far (pcibw_device_init'ed) */
	struct probe_cfg cfg;
	int header_type;      /* config 0x0e bits 6:0: 0 normal, 1 PCI bridge, 2 CardBus; -1 unknown */
	int sec_bus, sub_bus; /* bridges: secondary/subordinate bus numbers; PCIBW_NULL otherwise */
	int status_66mhz;     /* Status bit 5 "66 MHz capable" (PCI LB 3.0 sec. 6.2.3); PCIBW_NULL unknown */
	int sec_status_66mhz; /* bridges: Secondary Status bit 5 (PCI-PCI Bridge 1.2 sec. 3.2.5.7) */
	int has_caps;	      /* Status bit 4 "Capabilities List"; PCIBW_NULL unknown */
	bool caps_read;	      /* the capability list was walked (config long enough) */
	bool ext_space;	      /* a PCIe or PCI-X capability: the function may have extended config
			       * space (PCIe Base 6.0 sec. 7.2.2; PCI-X 2.0 Mode 2); no other does */
	int pcix_bridge;      /* 1: has a PCI-X bridge capability (type-1 header + cap id 7) */
	int pcix_sec_status;  /* PCI-X bridge Secondary Status (16 bit), PCIBW_NULL if none */
	int parent;	      /* index of the upstream bridge in the set, -1 none (filled by finish) */
	uint32_t lnkcap;      /* PCIe Link Capabilities as read, when lnkcap_read */
	bool lnkcap_read;
};

struct probe_set {
	struct probe_node *v; /* heap */
	int n, cap;
	struct probe_fit_cache *fit;	 /* port_fit.c's look-ups by id and profile name (heap), NULL
					  * until the first; freed by probe_set_free */
	const struct probe_locator *loc; /* set by probe_libpci_read (may stay NULL): where config
					  * bytes came from, for probe_finish's messages */
};

/* probe_fit_cache_free - release port_fit.c's look-ups (NULL: nothing). */
struct probe_fit_cache;
void probe_fit_cache_free(struct probe_fit_cache *c);

/* probe_set_add - append a zeroed node with pcibw_device_init'ed facts; NULL on OOM.
 * The returned pointer is valid until the next probe_set_add. */
struct probe_node *probe_set_add(struct probe_set *s);
void probe_set_free(struct probe_set *s);

/*
 * probe_pci_ids_open - read the --pci-ids file once, whole (src/util/input.h: a directory or
 * device is refused, a pipe read as it comes) into a private copy for libpci to open by name
 * (pcibw_input_memfd): *fd stays open until libpci is done (after pci_cleanup, hand fd and path
 * to pcibw_input_memfd_close), path (len >= 64) receives the copy's name. Returns PCIBW_OK, PCIBW_EINPUT
 * ("FILE: what is wrong") or PCIBW_EINTERNAL.
 */
int probe_pci_ids_open(const char *pci_ids, int *fd, char *path, size_t len, struct pcibw_err *err);

/*
 * probe_libpci_read - scan devices through libpci and decode their config space into `set`.
 *   method:  a libpci access method (PCI_ACCESS_DUMP, PCI_ACCESS_SYS_BUS_PCI, PCI_ACCESS_AUTO...)
 *   params:  NULL-terminated list of name, value pairs for pci_set_param(), e.g.
 *            {"sysfs.path", "DIR/bus/pci", NULL} or {"dump.name", FILE, NULL}; may be NULL
 *   pci_ids: pci.ids path override or NULL (names come from pci.ids via pci_lookup_name, no hwdb)
 *   origin:  provenance string for every decoded field: "config"
 *   loc:     where config bytes came from, for error messages (may be NULL)
 *   rep:     receives warnings (what a 64-byte config cannot show, etc.)
 * libpci's error hook (declared noreturn) is left with longjmp, never exit(): a libpci failure
 * becomes PCIBW_EINPUT (dump) or PCIBW_ENOTHERE (other methods) with libpci's message.
 * Bad config space (capability list that loops or points outside config space, device reading
 * 0xffff) is PCIBW_EINPUT naming loc's position.
 */
int probe_libpci_read(unsigned method, const char *const *params, const char *pci_ids, const char *origin,
		      const struct probe_locator *loc, struct probe_set *set, struct pcibw_report *rep,
		      struct pcibw_err *err);

/*
 * probe_dump - the whole probe of --dump FILE (opts->dump_file): strict scan, decode, names,
 * probe_finish into out. Returns as probe_dump_scan (bad text: PCIBW_EINPUT at file:line:column),
 * probe_decode (bad config space, named in the file), probe_libpci_names and probe_finish.
 */
int probe_dump(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err);

/*
 * probe_pciconf - the whole probe of --pciconf FILE (opts->pciconf_file, "-" standard input):
 * FreeBSD pciconf -lvbc text with pciconf -r dumps where given (pciconf_scan.h), names (-v text,
 * else pci.ids), probe_finish into out, and one "pciconf-partial" warning saying what the text
 * does not hold. Returns as probe_pciconf_scan (PCIBW_EINPUT at file:line:column), probe_libpci_names
 * and probe_finish.
 */
int probe_pciconf(const struct pcibw_probe_opts *opts, struct pcibw_report *out, struct pcibw_err *err);

/*
 * probe_libpci_names - the pci.ids names (as probe_libpci_read gives them) of the nodes of set
 * above index stop (-1: all), looked up from the last node down, for a source read without
 * libpci's device list (a dump). pci_ids as for probe_libpci_read. Returns PCIBW_OK,
 * PCIBW_EINPUT (a --pci-ids file that cannot be read or parsed, named at its line) or
 * PCIBW_EINTERNAL.
 */
int probe_libpci_names(struct probe_set *set, int stop, const char *pci_ids, struct pcibw_err *err);

/*
 * probe_decode - decode n->cfg (n->cfg.len bytes) into n's fields and n->d: identity, header,
 * bridge bus numbers, 66 MHz bits, capability walk (loop and range checked), PCI-X, PCIe.
 * Used by probe_libpci_read; exposed for tests and for sources holding raw config bytes.
 */
int probe_decode(struct probe_node *n, const char *origin, const struct probe_locator *loc,
		 struct pcibw_report *rep, struct pcibw_err *err);

/*
 * probe_finish - tree, segments, paths, bottlenecks, peers (see top of file), then filter by
 * opts (all/slot_filter/iface), sort and append matching devices to out; when out holds no
 * device yet, set's array itself becomes out's (set is left empty). Virtual (paravirtual)
 * devices get no bus ceiling: bottleneck null. A bridge is the parent of the bus its Secondary
 * Bus Number names only when that bus is above the bridge's own (numbers grow away from the
 * root, so the tree has no cycle); a bridge with secondary bus 0 is unconfigured and ignored.
 * Returns PCIBW_OK, PCIBW_EUSAGE (bad -s), PCIBW_ENOMATCH (nothing matched: message says what
 * was looked for), PCIBW_EINPUT (a bridge read from config space whose bus numbers are invalid
 * as the kernel's pci_scan_bridge_extend() judges them: secondary not above its own bus or
 * above its subordinate; or two bridges claiming one secondary bus; the message names the
 * byte through set->loc).
 */
int probe_finish(struct probe_set *set, const struct pcibw_probe_opts *opts, struct pcibw_report *out,
		 struct pcibw_err *err);

/* probe_bad_config - PCIBW_EINPUT for bad config space of node n: "WHERE: SLOT: what", WHERE
 * being loc's position of config byte `offset` ("dump.lspci:12:17"), or "SLOT offset 0x19"
 * when loc is NULL. Returns PCIBW_EINPUT. */
int probe_bad_config(const struct probe_node *n, const struct probe_locator *loc, int offset,
		     struct pcibw_err *err, const char *what);

/* probe_is_paravirt - vendor:device of a paravirtual device with no bus of its own: virtio
 * (1af4:1000-107f), vmxnet3 (15ad:07b0), Hyper-V (1414:*), Xen platform (5853:*). */
bool probe_is_paravirt(int vendor_id, int device_id);

/* Decoders of one capability family each (cap_pcix.c, cap_pcie.c): fill n from the capability
 * at config offset `at` (the caller, probe_decode, has checked that the registers they read lie
 * below 0x100). They only read n->cfg. Reserved encodings (PCIe MPS/MRRS codes 6-7, link
 * widths other than x1-x32) leave the field null and add a warning to rep naming the register. */
void probe_cap_pcix(struct probe_node *n, int at, const char *origin);
void probe_cap_pcie(struct probe_node *n, int at, const char *origin, struct pcibw_report *rep);

/* probe_cap_l1pm - the L1 PM Substates extended capability (id 0x1e, PCIe Base 6.0 sec. 7.8.3)
 * at extended offset `at`: the substates Control 1 enables into n->d.l1_substates. */
void probe_cap_l1pm(struct probe_node *n, int at, const char *origin);

/* probe_linkpm - after the tree is built (n->parent set, path filled): the link's effective
 * ASPM state (this device's ASPM Control and its upstream port's), each PCIe hop's MPS
 * Supported, and, when warn, the warnings a reader of device i needs: an open-ended exit
 * latency for a supported state (code "exit-latency-open"), ASPM on a network controller's
 * link ("aspm-on"), an MPS below both the device's and the path's maximum ("mps-below-max"). */
void probe_linkpm(struct probe_set *s, int i, struct pcibw_report *rep, bool warn);

/* probe_link_cause - why self's link runs below self's own Link Capabilities (see
 * link_cause.c for the causes, their order and their registers): out->code NULL when it does
 * not, or when the source shows no link (an empty slot, a link of unknown speed or width).
 * partner is the link's other end, NULL when the source does not hold it (then the causes that
 * need both ends are not asserted and the evidence says so). */
void probe_link_cause(const struct pcibw_device *self, const struct pcibw_device *partner,
		      struct pcibw_link_cause *out);

/* probe_link_causes - after the tree is built (parents set): each root or downstream port with
 * no device below it and no link (Presence Detect State clear, Data Link Layer Link Active
 * clear, or width x0) gets d.empty = 1; every other PCIe device its link_cause, its partner
 * being the port above it or, for a port, the first device below it. */
void probe_link_causes(struct probe_set *s);

/* probe_port_fit - d->port_fit of network controller i (src/probe/port_fit.c): the card's
 * ports and line rate, its profile and the bus at its bottleneck, through pcibw_port_fit_eval;
 * when no answer can be given, port_fit stays unknown with a warning "port-fit-unknown" naming
 * why (no profile, no line rate, a virtual device or function, a bus of unknown speed). */
void probe_port_fit(struct probe_set *s, int i, struct pcibw_report *rep);

/* probe_hop_gbps - raw bandwidth of one hop in Gbit/s (see pcibw_bus_raw_gbps): PCIe per
 * direction, PCI/PCI-X whole shared segment; NAN when a needed fact is unknown. */
double probe_hop_gbps(enum pcibw_bus_kind kind, double gts, int width, int flit, int mhz, int width_bits,
		      enum pcibw_pcix_mode mode);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pciconf_scan.h - strict reader of FreeBSD pciconf(8) text: `pciconf -l` with any of -v, -b, -c
 * (and -B's bus range lines), in both device line formats, plus `pciconf -r` register dumps
 * given with their command line. It turns the text into the probe's nodes (probe_int.h) without
 * any system call, so it runs, and is tested, on any OS.
 *
 * Device lines (usr.sbin/pciconf/pciconf.c list_devs):
 *   old (FreeBSD <= 12): NAMEUNIT@pciD:B:D:F:<TAB>class=0xCCSSPP card=0xSSSSVVVV chip=0xDDDDVVVV
 *                        rev=0xRR hdr=0xHH
 *   new (FreeBSD >= 13): NAMEUNIT@pciD:B:D:F:<TAB>class=0xCCSSPP rev=0xRR hdr=0xHH vendor=0xVVVV
 *                        device=0xDDDD subvendor=0xVVVV subdevice=0xSSSS
 *   (before domains, FreeBSD 6 and older: NAMEUNIT@pciB:D:F:)
 * Indented lines of the device above: -v `vendor = '...'`, `device = '...'`, `class = ...`,
 * `subclass = ...`; -b `bar [RR] = type ..., range N, base 0x..., size N, enabled|disabled`;
 * -c `cap II[PP] = TEXT` and `ecap IIII[PPP] = TEXT`, each followed by its indented continuation
 * lines (cap.c prints a capability over several lines); -B `bus range = S-E` and `window[RR] = ...`.
 * Register dumps (pciconf.c readit): a line holding `pciconf -r [-b|-h] SELECTOR ADDR[:ADDR2]`
 * (after any shell prompt), then the values at ADDR, ADDR+W, ... ADDR2 (W = 4, or 2 with -h,
 * 1 with -b) as 2W hex digits each, four to a line, separated by one space. SELECTOR is
 * [NAME@]pci[D:]B:D[:F] (getsel) or a device name of the listing (em0).
 * Other lines: blank, '#' comments, and unindented lines naming `pciconf` (the -l command line).
 */
#ifndef PCIBW_PCICONF_SCAN_H
#define PCIBW_PCICONF_SCAN_H

#include "probe_int.h"
#include <stddef.h>
#include <stdint.h>

/* What one device's text held besides the facts in its probe_node. */
struct pciconf_dev {
	int line;	      /* its device line */
	char name[40];	      /* pciconf's device name and unit: "em0", "none3" */
	int pcix_at, pcie_at; /* offsets of its PCI-X / PCI Express capabilities, -1 none */
	uint8_t *reg;	      /* 4096 bytes read by pciconf -r, or NULL (heap) */
	uint32_t *reg_have;   /* which of reg's bytes were read (4096 bits, heap) */
	int *reg_line;	      /* line and column of each byte's hex digits (heap, 2 x 4096) */
	bool bus_range;	      /* a -B `bus range` line gave the bridge's bus numbers */
	bool named;	      /* a -v "device = ..." line named it (pciconf's database knew it) */
};

struct pciconf_file {
	const char *path;	     /* as given (not owned), for messages */
	const struct probe_set *set; /* the nodes, for probe_pciconf_where */
	struct pciconf_dev *dev;     /* parallel to set->v */
	int n, cap;		     /* devices in dev (set->n until probe_finish takes them) */
	bool caps_listed;	     /* some device has a cap line: the text is -c output */
	bool verbose;		     /* some device has -v lines */
	int n_regs;		     /* pciconf -r dumps read */
};

/*
 * probe_pciconf_scan - check text[0..len) (NUL-terminated) as described above and append one node per
 * device to set (identity, header type, the bridge flag, PCI-X and PCIe facts of the -c lines
 * with origin "pciconf", the names of the -v lines), then apply the registers of the -r dumps
 * (Status 66 MHz and capability bits, cache line and latency timer, bridge bus numbers and
 * Secondary Status, a PCI-X device's Command (MMRBC, splits), a PCI-X bridge's Secondary Status,
 * a PCIe device's Device Control MRRS where -c printed no "max read") with origin "config".
 * Returns PCIBW_OK or PCIBW_EINPUT "PATH:LINE:COLUMN: found ...: expected ..." (two devices with
 * one slot, a -r dump whose selector names no device of the listing or whose values do not match
 * its range, a header type above 2, a capability text that cap.c does not print).
 * f->dev is valid until pciconf_file_free; set is the caller's (probe_set_free).
 */
int probe_pciconf_scan(const char *text, size_t len, struct pciconf_file *f, struct probe_set *set,
		       struct pcibw_err *err);
void probe_pciconf_file_free(struct pciconf_file *f);

/* probe_pciconf_where - probe_locator callback (ctx = pciconf_file): "PATH:LINE:COLUMN" of a register
 * byte read by pciconf -r, else "PATH:LINE" of the device's line. */
void probe_pciconf_where(const void *ctx, int domain, int bus, int dev, int fn, int offset, char *buf,
			 size_t len);

#endif

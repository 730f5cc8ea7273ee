/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/busfacts.h - the facts of the bus specifications that the probe, the model and the
 * renderers all need, written once: PCIe link widths, signalling rates per generation, line
 * encodings and the Flit rule; conventional PCI nominal clocks; PCI-X transfers per clock;
 * PCIe Device/Port Types.
 *
 * Register offsets, bit masks and the Device/Port Type values are libpci's own
 * (<pci/header.h>: PCI_EXP_LNKCAP, PCI_EXP_TYPE_ROOT_PORT, ...), included here so that a file
 * needing them has one place to get them from.
 */
#ifndef PCIBW_BUSFACTS_H
#define PCIBW_BUSFACTS_H

#include <pci/header.h>
#include <stdbool.h>

/* PCI-X mode of a segment, as a PCI-X bridge's Secondary Status reports it (PCI-X 2.0a
 * sec. 8.6.2.2), or conventional PCI. */
enum pcibw_pcix_mode {
	PCIBW_PCIX_MODE_NULL = 0,
	PCIBW_PCIX_MODE_CONVENTIONAL, /* "conventional" */
	PCIBW_PCIX_MODE_PCIX,	      /* "pci-x"     (mode 1, parity) */
	PCIBW_PCIX_MODE_PCIX_ECC,     /* "pci-x-ecc" (mode 1, ECC) */
	PCIBW_PCIX_MODE_PCIX_266,     /* "pci-x-266" (mode 2, DDR) */
	PCIBW_PCIX_MODE_PCIX_533,     /* "pci-x-533" (mode 2, QDR) */
};

/* Highest PCIe generation pcibw knows: Gen6, 64 GT/s (PCIe Base 6.0). */
#define PCIBW_PCIE_GEN_MAX 6

/* pcibw_pcie_widths - the link widths PCIe defines, x1 x2 x4 x8 x12 x16 x32 (PCIe Base 6.0
 * sec. 4.2.1, and the LnkCap / LnkSta width encodings of sec. 7.5.3.6 and 7.5.3.8; x32 is
 * dropped from 6.0 but defined by the generations before it), ascending; *n receives 7. */
const int *pcibw_pcie_widths(int *n);

/* pcibw_pcie_width_ok - w is one of pcibw_pcie_widths(); 0 (LnkSta x0) and every reserved
 * encoding give false. */
bool pcibw_pcie_width_ok(int w);

/* pcibw_pcie_gen_gts - signalling rate in GT/s of PCIe generation gen 1..6 (2.5, 5, 8, 16, 32,
 * 64; PCIe Base 6.0 sec. 4.2). The same number is the Link Capabilities / Link Status speed
 * code and the bit of the LnkCap2 Supported Link Speeds Vector (sec. 7.5.3.6, 7.5.3.18).
 * Any other gen gives NAN. */
double pcibw_pcie_gen_gts(int gen);

/* pcibw_pcie_gen_of_gts - the generation (1..6) whose rate gts is, within 1e-6 GT/s; 0 when gts
 * is not a PCIe signalling rate (NAN included). The only conversion from GT/s to generation. */
int pcibw_pcie_gen_of_gts(double gts);

/* pcibw_pcie_flit_required - true at 64 GT/s and above: Flit mode is mandatory there (PCIe Base
 * 6.0 sec. 4.2.3), so such a link counts as Flit whether or not Link Status 2 was read. */
bool pcibw_pcie_flit_required(double gts);

/* pcibw_pcie_encoding - share (0..1] of a PCIe lane's bits left for data at gts GT/s: the line
 * code (8b/10b = 0.8 at 2.5 and 5 GT/s, 128b/130b at 8-32 GT/s, 1 for 64 GT/s PAM4; PCIe Base
 * 6.0 sec. 4.2), times 242/256 in Flit mode (236 TLP + 6 DLP bytes per 256-byte flit, sec.
 * 4.2.3.1). A non-standard rate gets its band's code (below 7 GT/s 8b/10b, below 60 128b/130b). */
double pcibw_pcie_encoding(double gts, bool flit);

/* pcibw_pci_clock_hz - nominal clock of a PCI / PCI-X segment graded mhz MHz, in Hz: the 33, 66
 * and 133 MHz grades are 33.33, 66.67 and 133.33 MHz (30, 15 and 7.5 ns; PCI LB 3.0 sec. 4.2.3.1,
 * PCI-X 2.0a sec. 1.1); any other grade (100) is mhz x 10^6. */
double pcibw_pci_clock_hz(int mhz);

/* pcibw_pcix_transfers_per_clock - data phases per clock: 2 in PCI-X 266 (DDR), 4 in PCI-X 533
 * (QDR) (PCI-X 2.0a sec. 1.1), 1 in every other mode, PCIBW_PCIX_MODE_NULL included. */
int pcibw_pcix_transfers_per_clock(enum pcibw_pcix_mode mode);

/* PCIe Device/Port Type (PCIe Base 6.0 sec. 7.5.3.2; values PCI_EXP_TYPE_* of <pci/header.h>).
 * Any value outside 0..10 (PCIBW_NULL included) gives false / NULL. */

/* pcibw_pcie_type_rc_integrated - a Root Complex Integrated Endpoint or Event Collector: no
 * link, so no Link registers. */
bool pcibw_pcie_type_rc_integrated(int type);

/* pcibw_pcie_type_bridge - a port that forwards to a bus below it: root port, switch upstream
 * or downstream port. */
bool pcibw_pcie_type_bridge(int type);

/* pcibw_pcie_type_faces_downstream - root port, downstream port, or a PCI/PCI-X-to-PCIe
 * bridge's PCIe side: the far end of its link may be empty or slower, so lspci never calls it
 * downgraded (ls-caps.c link_compare). */
bool pcibw_pcie_type_faces_downstream(int type);

/* pcibw_pcie_type_name - "endpoint", "legacy-endpoint", "root-port", "upstream-port",
 * "downstream-port", "pcie-to-pci-bridge", "pci-to-pcie-bridge", "rc-integrated-endpoint",
 * "rc-event-collector"; NULL for the reserved 2, 3 and anything out of range. */
const char *pcibw_pcie_type_name(int type);

#endif

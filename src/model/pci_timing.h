/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Clock accounting of single conventional PCI and PCI-X transactions: what one DMA write, DMA
 * read, register write or register read holds the shared bus for, in bus clocks. pcix.c sums
 * these over a packet's recipe. Not installed; tests build their own struct pcibw_pci_timing to check
 * each mechanism and the single-transaction efficiency b / (W x (ceil(b/W) + O)) of fixed
 * overheads O.
 *
 * Sources of the rules:
 *   PCI 2.3  - PCI Local Bus Specification 2.3: sec. 3.3.1 read turnaround, 3.3.3.2.2 retry and
 *              REQ# release, 3.4.3 bus parking, 3.5.1.1 16-clock initial latency, 3.5.4
 *              latency timer, 3.9 dual address cycle, 3.1.2 MR/MRL/MRM.
 *   PCI-X    - PCI-X Addendum 1.0a/2.0: attribute phase, decode A/B/C, split transactions,
 *              128-byte allowable disconnect boundaries (ADB), MMRBC, DDR/QDR data phases.
 *   bridges  - Pericom PI7C8140A sec. 2.6.4 table 2-4 (read prefetch boundaries of a delayed
 *              read: MR/MRL to the cache line, MRM to the second cache line), Intel 41210
 *              manual (split completions disconnect at ADBs).
 * Every default, and how it was calibrated against field figures, is in pcibw_pci_timing_defaults()
 * and doc/model-pci.md.
 */
#ifndef PCIBW_PCI_TIMING_H
#define PCIBW_PCI_TIMING_H

#include "pcibw/bus.h"
#include <stdbool.h>

/* Per-transaction costs in bus clocks; latencies in ns. All fields >= 0. */
struct pcibw_pci_timing {
	bool pcix;		   /* split reads, attribute phase, ADB disconnects */
	double clock_hz;	   /* segment clock (33.33, 66.67, 100, 133.33 MHz) */
	int bytes_per_clock;	   /* width/8 x transfers per clock (1, or 2/4 for PCI-X 266/533) */
	int dev_arb_clocks;	   /* a device's own transactions: REQ#-GNT# and bus hand-over */
	int host_arb_clocks;	   /* the host bridge's (register access, split completions) */
	int addr_clocks;	   /* address phase */
	int dac_clocks;		   /* second address phase of a 64-bit address (0 with addr32) */
	int attr_clocks;	   /* PCI-X attribute phase; 0 on PCI */
	int decode_clocks;	   /* DEVSEL# beyond the earliest: PCI fast 0 / medium 1 / slow 2;
				    * PCI-X decode A 1 / B 2 / C 3 */
	int write_wait_clocks;	   /* target's initial wait states before the first write data */
	int read_ta_clocks;	   /* AD turnaround between address and read data (PCI) */
	int turnaround_clocks;	   /* idle clock after every transaction */
	int stop_clocks;	   /* a retried attempt's STOP# data phase (PCI delayed read) */
	int req_gap_clocks;	   /* REQ# held off after a retry beyond the idle clock */
	int split_resp_clocks;	   /* PCI-X split response in place of the first data phase */
	int target_latency_clocks; /* FRAME# to first data of a register read by the CPU */
	double mem_latency_ns;	   /* host memory fetch behind a delayed read / split request */
	double host_path_ns;	   /* CPU stall of a register read outside this segment */
	int cacheline_bytes;	   /* Cache Line Size register (MRL boundary), pcibw_pci_cacheline_bytes() */
	int mrm_lines;		   /* cache lines a Memory Read Multiple's delayed read returns */
	int prefetch_bytes;	   /* what one delayed read returns for MRM, cut at addresses aligned
				    * to it; 0: mrm_lines lines (bus modifier prefetch=) */
	int offset_bytes;	   /* where the transfer starts in a page (bus dma_offset; the caller
				    * sets it for packet data, 0 for descriptors) */
	double bridge_ns;	   /* what the bridges between host and segment add to each read
				    * command, ns in all (bridges x bridge_ns) */
	int adb_bytes;		   /* PCI-X allowable disconnect boundary, 128 */
	int boundary_bytes;	   /* no burst crosses this (4 KB) */
	int latency_timer;	   /* master latency timer, clocks */
	bool lt_cuts;		   /* another master is waiting, so the timer ends long bursts */
	bool cpl_adb_disconnect;   /* split completions disconnect at every ADB */
	int mmrbc_bytes;	   /* PCI-X Maximum Memory Read Byte Count */
	int splits;		   /* PCI-X maximum outstanding split transactions */
};

/* What one transfer costs: bus clocks held, transactions, retried attempts. */
struct pcibw_pci_xfer {
	double clocks;
	int transactions; /* data-carrying transactions (bursts, completions) + split requests */
	int retries;	  /* retried delayed-read attempts (PCI) */
	int requests;	  /* PCI-X split read requests */
};

/*
 * pcibw_pci_timing_defaults - the documented defaults for bus (kind PCI or PCI-X; clock, width,
 * transfers per clock, MMRBC, splits and latency timer taken from bus) with segment_devices
 * (>= 1; values below 1 count as 1) devices moving traffic on the segment.
 */
void pcibw_pci_timing_defaults(const struct pcibw_bus *bus, int segment_devices, struct pcibw_pci_timing *t);

/* pcibw_pci_cacheline_bytes - the cache line delayed reads are prefetched in: bus->cacheline_bytes
 * (the device's Cache Line Size register, config 0x0c, in bytes) when it is a power of two
 * 16..512, else 64 (the --bus default; PCI LB 3.0 sec. 6.2.4: an unsupported value acts as 0). */
int pcibw_pci_cacheline_bytes(const struct pcibw_bus *bus);

/* pcibw_pci_dma_write - a device writes bytes (> 0) to host memory: memory write bursts, cut by the
 * boundary and, when lt_cuts, by the latency timer (PCI: after the timer's last data phase;
 * PCI-X: at the next ADB). */
struct pcibw_pci_xfer pcibw_pci_dma_write(const struct pcibw_pci_timing *t, double bytes);

/* pcibw_pci_dma_read - a device reads bytes (> 0) of host memory. PCI: delayed reads, MRL up to a
 * cache line or MRM up to mrm_lines lines each, every one retried until the memory latency has
 * passed. PCI-X: split requests of at most MMRBC bytes, each answered by split completions
 * (one per ADB when cpl_adb_disconnect). Bus clocks only: on PCI-X the latency is off the bus. */
struct pcibw_pci_xfer pcibw_pci_dma_read(const struct pcibw_pci_timing *t, double bytes);

/* pcibw_pci_mmio_write - the CPU writes a device register (doorbell): one posted write by the host
 * bridge, 32-bit address (BARs below 4 GB). */
struct pcibw_pci_xfer pcibw_pci_mmio_write(const struct pcibw_pci_timing *t, double bytes);

/* pcibw_pci_mmio_read - the CPU reads a device register: the target answers within
 * target_latency_clocks of FRAME#; the bus is held for this transaction only. */
struct pcibw_pci_xfer pcibw_pci_mmio_read(const struct pcibw_pci_timing *t, double bytes);

/* pcibw_pci_mmio_stall_ns - CPU time one register read of bytes stalls: host path + its bus time. */
double pcibw_pci_mmio_stall_ns(const struct pcibw_pci_timing *t, double bytes);

/* pcibw_pcix_read_time_ns - time one device spends on its own split reads of bytes, from the first
 * request to the last completion, with at most `splits` requests in flight: sum over the
 * requests of (request + memory latency + completions) / splits. 0 on conventional PCI, where
 * the retries already hold the bus through the latency. */
double pcibw_pcix_read_time_ns(const struct pcibw_pci_timing *t, double bytes);

/* pcibw_pci_bridge_hop_ns - the least one PCI-PCI bridge between the host bridge and the segment
 * adds to each read command when no bridge_ns is stated, ns: a bridge answers a read only with
 * data it has itself read on its primary bus (PCI LB 3.0 sec. 3.3.3.3: a delayed read is
 * completed on the destination bus before the master's retry takes it; PCI-X 2.0a: a bridge
 * forwards split completions ADB by ADB), so each such bridge adds its own primary-side
 * transaction: on PCI the read of one delayed-read chunk (address, DAC, turnaround, decode,
 * data, idle), on PCI-X a split request and the completion of one ADB. Costed at the segment's
 * own clock and width (the primary bus of a bridge chain is taken to be like the segment). */
double pcibw_pci_bridge_hop_ns(const struct pcibw_pci_timing *t);

#endif

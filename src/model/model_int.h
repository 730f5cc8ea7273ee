/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal interface between the model front (model.c: sizes, recipe, wire, limit) and the
 * per-bus cost models (pcie.c, pci.c/pcix.c). Not installed.
 */
#ifndef PCIBW_MODEL_INT_H
#define PCIBW_MODEL_INT_H

#include "pcibw/model.h"

/* What one packet costs a bus, and the packet rate the bus sustains. */
struct pcibw_bus_cost {
	double to_device_bytes;	  /* bus bytes per packet host->device (PCIe) or, on a shared bus,
				   * bytes-equivalent of the clocks spent moving data to the device */
	double to_host_bytes;	  /* the same, device->host */
	double pps;		  /* packets/s the bus sustains (the ceiling) */
	double bus_ns_per_packet; /* time the packet's transactions hold the bus */
	double cpu_stall_ns;	  /* CPU time stalled on MMIO reads per packet */
	const char *bound_by;	  /* "to-host", "to-device", "shared", "device-tps", "read-latency" */
	/* Optional (model.c zeroes the struct first; a cost model that leaves n_loads 0 is read as
	 * one load of 1/pps named bound_by): the seconds of each independent resource one packet
	 * uses -- one direction of a PCIe link, a shared PCI segment, the device's write engine...
	 * pps = 1 / max(load_s). A size mix averages each load over its packets (model.c). */
	int n_loads;
	double load_s[6];
	const char *load_name[6]; /* static strings, as bound_by */
};

/* Which setting band term t (PCIBW_TERM_*) takes in this evaluation: in->band where it moves,
 * EXPECTED where in->band_terms leaves it out or in --compat pcie-bench (one figure). A term the
 * bus states is fixed by the cost model itself. */
static inline enum pcibw_band pcibw_term_band(const struct pcibw_model_in *in, unsigned t)
{
	if (in->compat == PCIBW_COMPAT_PCIE_BENCH || (in->band_terms && !(in->band_terms & t)))
		return PCIBW_BAND_EXPECTED;
	return in->band;
}

/* PCIe (Gen1-5 TLP accounting, Gen6 Flit). data_bytes = bytes DMA'd per packet. */
int pcibw_pcie_cost(const struct pcibw_model_in *in, const struct pcibw_recipe *rc, double data_bytes,
		    struct pcibw_bus_cost *out, struct pcibw_err *err);

/* PCIe Flit mode: flits per packet in each direction, fractional (TLPs of successive packets share
 * flits: 236 TLP bytes per 256-byte flit, PCIe Base 6.0 sec. 4.2.3.1). For tests and doc/model.md. */
int pcibw_pcie_flits(const struct pcibw_model_in *in, const struct pcibw_recipe *rc, double *to_dev,
		     double *to_host);

/*
 * pcibw_pcie_read_split - the MRd requests and CplD completions of one DMA read op on a PCIe bus,
 * as pcibw_pcie_cost counts them (its placement and compat rules). Returns 1 with *out filled,
 * 0 (out zeroed) when op is no DMA read or in->bus no PCIe bus.
 */
int pcibw_pcie_read_split(const struct pcibw_model_in *in, const struct pcibw_op *op,
			  struct pcibw_read_split *out);

/* Conventional PCI and PCI-X: one shared, half-duplex budget of clocks. */
int pcibw_pcix_cost(const struct pcibw_model_in *in, const struct pcibw_recipe *rc, double data_bytes,
		    struct pcibw_bus_cost *out, struct pcibw_err *err);

#endif

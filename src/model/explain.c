/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A packet's recipe, one operation at a time, each costed alone on the bus: the bytes behind a
 * ceiling, with the profile key or driver knob that sets them (pcibw model --explain).
 */
#include "model_int.h"
#include <math.h>
#include <string.h>

/* Bytes the NIC DMAs for one packet of size in convention s (model.c's rule). */
static double dma_of(double size, enum pcibw_size_is s)
{
	return s == PCIBW_SIZE_DMA ? size : pcibw_frame_bytes(size, s) - 4;
}

const char *pcibw_cpl_set_by_name(unsigned set_by)
{
	static const char *const names[8] = {"",     "rcb",	 "mps",	     "mps+rcb",
					     "mrrs", "mrrs+rcb", "mps+mrrs", "mps+mrrs+rcb"};
	return names[set_by & 7u];
}

int pcibw_model_explain(const struct pcibw_model_in *in, double size, struct pcibw_explain_op *out, int max,
			int *n, struct pcibw_err *err)
{
	struct pcibw_model_row row;
	struct pcibw_recipe rc;
	int st = pcibw_model_eval(in, size, &row, err); /* validates in, size and the bus */
	if (st)
		return st;
	if ((st = pcibw_nic_recipe(in->nic, in->pattern, dma_of(size, in->size_is), &rc, err)))
		return st;
	if (rc.n > max)
		return pcibw_fail(err, PCIBW_EINTERNAL, "explain: %d operations, room for %d", rc.n, max);
	*n = 0;
	for (int i = 0; i < rc.n; i++) {
		struct pcibw_explain_op *e = &out[(*n)++];
		struct pcibw_recipe one = {.n = 1, .batch_packets = 1};
		struct pcibw_bus_cost c;
		memset(e, 0, sizeof *e);
		e->op = rc.ops[i];
		one.ops[0] = rc.ops[i];
		memset(&c, 0, sizeof c);
		if (in->bus->kind == PCIBW_BUS_PCIE)
			st = pcibw_pcie_cost(in, &one, 0, &c, err);
		else if (in->bus->kind == PCIBW_BUS_PCI || in->bus->kind == PCIBW_BUS_PCIX)
			st = pcibw_pcix_cost(in, &one, 0, &c, err);
		if (st)
			return st;
		e->to_device_bytes = c.to_device_bytes;
		e->to_host_bytes = c.to_host_bytes;
		const struct pcibw_nic_knob *k = pcibw_nic_key_knob(in->nic, e->op.keys);
		e->knob = k ? k->name : NULL;
		e->source = k ? k->source : in->nic->source;
		e->is_read_split = pcibw_pcie_read_split(in, &e->op, &e->read) == 1;
	}
	return PCIBW_OK;
}

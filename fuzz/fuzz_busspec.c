/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --bus SPEC: gen3x8,mps=256, pcix133, pci66x64, ... */
#include "fuzz_util.h"
#include "pcibw/bus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	if (!s)
		return 0;
	struct pcibw_bus b;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	if (pcibw_bus_parse(s, &b, &err) == PCIBW_OK)
		(void)pcibw_bus_raw_gbps(&b);
	free(s);
	return 0;
}

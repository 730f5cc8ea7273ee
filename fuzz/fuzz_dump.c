/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lspci -x/-xxx/-xxxx dumps: the strict scanner, libpci's dump reader, config-space decoding and
 * the capability walkers (PCI-X, PCIe, extended list), tree and hop arithmetic. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_probe(data, size, FUZZ_DUMP);
}

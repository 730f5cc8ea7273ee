/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwloc XML exports (--topology): the syntax check, hwloc's loader and the tree rebuilt from it. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_probe(data, size, FUZZ_TOPOLOGY);
}

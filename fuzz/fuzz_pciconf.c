/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FreeBSD pciconf -lvbc text with pciconf -r dumps: the strict scanner (device lines of both
 * formats, -v/-b/-c/-B lines, capability texts, register dumps and their selectors), the
 * registers' facts, tree and hop arithmetic. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_probe(data, size, FUZZ_PCICONF);
}

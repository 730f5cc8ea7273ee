/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lspci -x/-xxx/-xxxx dumps: the strict scanner, libpci's dump reader, config-space decoding and
 * the capability walkers (PCI-X, PCIe, extended list), tree and hop arithmetic. */
#include "fuzz_util.h"
#include "pcibw/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	struct pcibw_probe_opts o = {.dump_file = path, .all = true};
	struct pcibw_report rep = {0};
	struct pcibw_err err;
	pcibw_err_clear(&err);
	pcibw_probe(&o, &rep, &err);
	pcibw_report_free(&rep);
	close(fd);
	return 0;
}

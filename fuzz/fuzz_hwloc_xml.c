/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwloc XML exports (--topology): the syntax check, hwloc's loader and the tree rebuilt from it. */
#include "fuzz_util.h"
#include "pcibw/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	struct pcibw_probe_opts o = {.topology_file = path, .all = true};
	struct pcibw_report rep = {0};
	struct pcibw_err err;
	pcibw_err_clear(&err);
	pcibw_probe(&o, &rep, &err);
	pcibw_report_free(&rep);
	close(fd);
	return 0;
}

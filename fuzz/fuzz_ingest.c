/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One measurement reader (CSV, iperf3 -J, netperf classic, netperf omni, pcie-bench), chosen at
 * build time with -DFUZZ_FORMAT=PCIBW_FMT_...; the rows go through the row store as analyze does. */
#include "fuzz_util.h"
#include "pcibw/ingest.h"
#include "pcibw/verdict.h"

static int add(const struct pcibw_measured *m, void *ctx, struct pcibw_err *err)
{
	return pcibw_rows_add(ctx, m, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	struct pcibw_ingest_opts o = {.format = FUZZ_FORMAT};
	struct pcibw_ingest_stats st;
	struct pcibw_rows rows = {0};
	struct pcibw_err err;
	pcibw_err_clear(&err);
	pcibw_ingest_file(path, &o, add, &rows, &st, &err);
	pcibw_rows_free(&rows);
	close(fd);
	return 0;
}

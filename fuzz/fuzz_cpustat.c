/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --cpu-from FILE: mpstat -P ALL, sar -P ALL and sar -u ALL text (sysstat). */
#include "fuzz_util.h"
#include "pcibw/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	struct pcibw_cpu_sample s;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	if (pcibw_cpustat_read(path, &s, &err) == PCIBW_OK && s.valid)
		/* every share a reader found is a percentage or unknown */
		if (!(s.all_busy != s.all_busy) && (s.all_busy < -1e-9 || s.all_busy > 100 + 1e-9))
			__builtin_trap();
	close(fd);
	return 0;
}

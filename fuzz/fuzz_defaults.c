/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "# bus: SPEC nic: NAME line_rate: RATE cpus: N cpu_mhz: F [iface: NAME]" lines that
 * `pcibw watch --format csv` writes and `analyze` reads back as the machine's defaults. */
#include "fuzz_util.h"
#include "pcibw/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	struct pcibw_input_defaults d[8];
	int n = 0;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	if (pcibw_ingest_defaults_all(path, d, 8, &n, &err) == PCIBW_OK)
		for (int i = 0; i < n; i++)
			/* each string field is terminated where the reader says it is */
			if (memchr(d[i].bus, '\0', sizeof d[i].bus) == NULL ||
			    memchr(d[i].nic, '\0', sizeof d[i].nic) == NULL ||
			    memchr(d[i].iface, '\0', sizeof d[i].iface) == NULL)
				__builtin_trap();
	close(fd);
	return 0;
}

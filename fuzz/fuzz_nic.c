/* SPDX-License-Identifier: GPL-2.0-or-later */
/* NIC profiles (INI) and the --nic NAME,KNOB=VALUE / --nic-set overrides applied to them: the
 * input's first line is the list of overrides (comma-separated), the rest the profile. */
#include "fuzz_util.h"
#include "pcibw/bus.h"
#include "pcibw/nic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t head = nl ? (size_t)(nl - data) : 0;
	const uint8_t *body = nl ? nl + 1 : data;
	size_t body_len = size - (size_t)(body - data);
	char path[64];
	int fd = fuzz_file(body, body_len, path, sizeof path);
	if (fd < 0)
		return 0;
	struct pcibw_nic nic;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	if (pcibw_nic_load_file(path, &nic, &err) == PCIBW_OK) {
		char *sets = fuzz_string(data, head);
		const char *v[16];
		int n = 0;
		for (char *save = NULL, *t = sets ? strtok_r(sets, ",", &save) : NULL; t && n < 16;
		     t = strtok_r(NULL, ",", &save))
			v[n++] = t;
		struct pcibw_bus bus;
		if (pcibw_bus_parse("gen3x8", &bus, &err) == PCIBW_OK &&
		    pcibw_nic_configure(&nic, &bus, 0, v, n, &err) == PCIBW_OK) {
			struct pcibw_recipe r;
			pcibw_nic_recipe(&nic, PCIBW_PAT_TX, 64, &r, &err);
			pcibw_nic_recipe(&nic, PCIBW_PAT_RX, 1518, &r, &err);
		}
		free(sets);
	}
	close(fd);
	return 0;
}

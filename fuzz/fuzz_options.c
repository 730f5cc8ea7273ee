/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A whole command line: the first byte picks the command, the rest is argv split at NUL bytes,
 * through the option table's parser (every option's own value parser: bus specs, sizes, rates,
 * thresholds, --col, --nic-set, --record-max ...). For model with --bus, a request that names no
 * file and no device is resolved too (the bus spec, the profile, its knobs), as `pcibw model`
 * does. */
#include "fuzz_util.h"
#include "pcibw/options.h"
#include "pcibw/request.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 4096)
		return 0;
	static const enum pcibw_command cmds[] = {PCIBW_CMD_REPORT, PCIBW_CMD_MODEL, PCIBW_CMD_ANALYZE,
						  PCIBW_CMD_WATCH};
	enum pcibw_command cmd = cmds[data[0] % 4];
	char *s = fuzz_string(data + 1, size - 1);
	if (!s)
		return 0;
	char *argv[MAX_ARGS + 2] = {"pcibw"};
	int argc = 1;
	for (char *p = s, *end = s + (size - 1); p < end && argc <= MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	struct pcibw_request req;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	pcibw_request_init(&req, cmd);
	int st = pcibw_request_parse(&req, cmd, argc, argv, &err);
	const struct pcibw_probe_opts *p = &req.probe;
	bool names_files = req.nic_file || req.plot || req.textfile || req.cpu_from || req.n_files ||
			   p->dump_file || p->sysfs_dir || p->topology_file || p->slot_filter || p->iface ||
			   p->pci_ids;
	/* without --bus, model probes this machine: too slow per input, and not a parser */
	if (st == PCIBW_OK && cmd == PCIBW_CMD_MODEL && !req.help && !names_files && req.bus) {
		struct pcibw_resolved r;
		pcibw_request_resolve(&req, &r, &err);
		pcibw_resolved_free(&r);
	}
	pcibw_request_free(&req);
	free(s);
	return 0;
}

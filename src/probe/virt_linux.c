/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Virtual-machine detection from Linux's /proc/cpuinfo; see virt.h. */
#include "src/util/input.h"
#include "virt.h"
#include <stdio.h>
#include <string.h>

int probe_virt_hypervisor(const char *cpuinfo_path, char *evidence, size_t n)
{
	FILE *f;
	snprintf(evidence, n, "the CPU flag 'hypervisor' in %s", cpuinfo_path);
	/* on a copied tree the file is the copy's: never block on what sits there */
	if (pcibw_input_open(cpuinfo_path, "a /proc/cpuinfo copy",
			     PCIBW_INPUT_FILE_ONLY | PCIBW_INPUT_NO_STDIN, &f, NULL) ||
	    !f)
		return -1;
	char line[8192];
	int found = -1;
	while (found < 0 && fgets(line, sizeof line, f)) {
		if (strncmp(line, "flags", 5))
			continue;
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		found = 0;
		for (char *tok = strtok(colon + 1, " \t\n"); tok; tok = strtok(NULL, " \t\n"))
			if (!strcmp(tok, "hypervisor"))
				found = 1;
	}
	fclose(f);
	return found;
}

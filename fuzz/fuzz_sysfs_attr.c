/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysfs attribute files of one device: the input is split at NUL bytes into current_link_speed,
 * max_link_speed, current_link_width, max_link_width, numa_node, local_cpulist and link/l1_aspm,
 * written into a one-device tree and read back as a --sysfs copy would be. */
#include "fuzz_util.h"
#include "src/probe/sysfs_attr.h"
#include <sys/stat.h>

static const char *const names[] = {"current_link_speed", "max_link_speed", "current_link_width",
				    "max_link_width",	  "numa_node",	    "local_cpulist",
				    "link/l1_aspm"};
static char root[64];

static void put(const char *name, const uint8_t *p, size_t n)
{
	char path[256];
	snprintf(path, sizeof path, "%s/bus/pci/devices/0000:00:01.0/%s", root, name);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(p, 1, n, f);
		fclose(f);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[256];
	if (!root[0]) {
		snprintf(root, sizeof root, "/tmp/pcibw-fuzz-sysfs-%d", (int)getpid());
		const char *parts[] = {"",
				       "/bus",
				       "/bus/pci",
				       "/bus/pci/devices",
				       "/bus/pci/devices/0000:00:01.0",
				       "/bus/pci/devices/0000:00:01.0/link"};
		for (int i = 0; i < 6; i++) {
			snprintf(dir, sizeof dir, "%s%s", root, parts[i]);
			mkdir(dir, 0700);
		}
	}
	size_t start = 0;
	unsigned k = 0;
	for (; k < sizeof names / sizeof names[0]; k++) {
		size_t end = start;
		while (end < size && data[end])
			end++;
		if (start > size)
			break;
		put(names[k], data + start, end - start);
		start = end + 1;
	}
	for (; k < sizeof names / sizeof names[0]; k++) {
		char path[256];
		snprintf(path, sizeof path, "%s/bus/pci/devices/0000:00:01.0/%s", root, names[k]);
		unlink(path);
	}
	struct pcibw_sysfs_attrs a;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	pcibw_sysfs_read_attrs(root, "0000:00:01.0", &a, &err);
	/* the line parsers alone, on the whole input */
	char *s = fuzz_string(data, size);
	if (s) {
		double gts;
		int w, col;
		pcibw_sysfs_parse_speed(s, &gts, &col);
		pcibw_sysfs_parse_width(s, &w, &col);
		free(s);
	}
	return 0;
}

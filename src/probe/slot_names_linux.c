/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The names Linux gives PCI slots: /sys/bus/pci/slots/NAME/address, "DDDD:BB:DD" (the slot's
 * bus and device, no function: drivers/pci/slot.c address_read_file), registered by the hotplug
 * drivers (pciehp names a slot by its Physical Slot Number) and by ACPI/SMBIOS slot tables.
 */
#include "pcibw/slots.h"
#include "src/util/grow.h"
#include "src/util/input.h"
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_one(const char *dir, const char *name, struct pcibw_os_slots *out, struct pcibw_err *err)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s/address", dir, name) >= (int)sizeof path)
		return PCIBW_OK;
	char *data = NULL;
	size_t len = 0;
	struct pcibw_err e;
	if (pcibw_input_read(path, "a slot address",
			     PCIBW_INPUT_FILE_ONLY | PCIBW_INPUT_NO_STDIN | PCIBW_INPUT_OPTIONAL, 256, &data,
			     &len, &e) ||
	    !data)
		return PCIBW_OK;
	unsigned dom, bus, dev;
	char tail;
	int got = sscanf(data, "%x:%x:%x%c", &dom, &bus, &dev, &tail);
	free(data);
	if (got < 3 || (got == 4 && tail != '\n') || dom > 0x7fffffff || bus > 255 || dev > 31 ||
	    strlen(name) >= sizeof out->v->name)
		return PCIBW_OK;
	if (pcibw_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v))
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	struct pcibw_os_slot *s = &out->v[out->n++];
	snprintf(s->name, sizeof s->name, "%s", name);
	s->domain = (int)dom;
	s->bus = (int)bus;
	s->dev = (int)dev;
	return PCIBW_OK;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pcibw_os_slots_read(const char *root, struct pcibw_os_slots *out, struct pcibw_err *err)
{
	/* a copy's DIR may be the file-system root above sys/, or sys/ itself */
	const char *const under[] = {"sys/bus/pci/slots", "bus/pci/slots"};
	for (int u = 0; u < 2; u++) {
		char dir[PATH_MAX];
		if (snprintf(dir, sizeof dir, "%s/%s", root, under[u]) >= (int)sizeof dir)
			continue;
		DIR *d = opendir(dir);
		if (!d)
			continue;
		/* in name order, so the first of two names for one bus is always the same one */
		char **names = NULL;
		int n = 0, cap = 0, rc = PCIBW_OK;
		for (struct dirent *e; (e = readdir(d));) {
			if (e->d_name[0] == '.')
				continue;
			char *s = strdup(e->d_name);
			if (!s || pcibw_grow(&names, &cap, n + 1, sizeof *names)) {
				free(s);
				rc = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
				break;
			}
			names[n++] = s;
		}
		closedir(d);
		if (!rc && n > 1)
			qsort(names, (size_t)n, sizeof *names, cmp_name);
		for (int i = 0; i < n; i++) {
			if (!rc)
				rc = read_one(dir, names[i], out, err);
			free(names[i]);
		}
		free(names);
		return rc;
	}
	return PCIBW_OK;
}

void pcibw_os_slots_free(struct pcibw_os_slots *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

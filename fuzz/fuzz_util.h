/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the libFuzzer harnesses: the input as a file pcibw can open by name (a memfd seen
 * as /proc/self/fd/N), or as a NUL-terminated string. */
#ifndef PCIBW_FUZZ_UTIL_H
#define PCIBW_FUZZ_UTIL_H

#include "pcibw/probe.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The fuzzer's bytes in a memory file; path receives its name. Returns the fd (close it), -1 on
 * failure (the input is then skipped). */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	for (size_t o = 0; o < size;) {
		ssize_t w = write(fd, data + o, size - o);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		o += (size_t)w;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* A heap copy with a terminating NUL (free it). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

/* The whole probe pipeline over the fuzzer's bytes as the file of one source. */
enum fuzz_source { FUZZ_DUMP, FUZZ_TOPOLOGY, FUZZ_PCICONF };
static inline int fuzz_probe(const uint8_t *data, size_t size, enum fuzz_source src)
{
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	struct pcibw_probe_opts o = {.all = true};
	if (src == FUZZ_DUMP)
		o.dump_file = path;
	else if (src == FUZZ_PCICONF)
		o.pciconf_file = path;
	else
		o.topology_file = path;
	struct pcibw_report rep = {0};
	struct pcibw_err err;
	pcibw_err_clear(&err);
	pcibw_probe(&o, &rep, &err);
	pcibw_report_free(&rep);
	close(fd);
	return 0;
}

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the libFuzzer harnesses: the input as a file pcibw can open by name (a memfd seen
 * as /proc/self/fd/N), or as a NUL-terminated string. */
#ifndef PCIBW_FUZZ_UTIL_H
#define PCIBW_FUZZ_UTIL_H

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

#endif

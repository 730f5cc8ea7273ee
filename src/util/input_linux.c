/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linux: an input handed to a library by name is a sealed memfd (memfd_create(2), fcntl(2)
 * F_ADD_SEALS) named by /proc/self/fd/N (proc(5)): no file on disk, no name to clean up. */
#include "input.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int memfd_of(const char *data, size_t len, int *fd, struct pcibw_err *err)
{
	*fd = memfd_create("pcibw-input", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (*fd < 0)
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot hold an input in memory (memfd): %s",
				  strerror(errno));
	for (size_t o = 0; o < len;) {
		ssize_t w = write(*fd, data + o, len - o);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : ENOSPC;
			close(*fd);
			return pcibw_fail(err, PCIBW_EINTERNAL, "cannot hold an input in memory (memfd): %s",
					  strerror(e));
		}
		o += (size_t)w;
	}
	/* sealed: nothing, not even a library handed its name, can change the bytes checked */
	fcntl(*fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	if (lseek(*fd, 0, SEEK_SET) < 0) {
		int e = errno;
		close(*fd);
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot hold an input in memory (memfd): %s",
				  strerror(e));
	}
	return PCIBW_OK;
}

int pcibw_input_memfd(const char *data, size_t len, int *fd, char *path, size_t plen, struct pcibw_err *err)
{
	int rc = memfd_of(data, len, fd, err);
	if (rc)
		return rc;
	snprintf(path, plen, "/proc/self/fd/%d", *fd);
	if (access(path, R_OK)) {
		int e = errno;
		close(*fd);
		return pcibw_fail(err, PCIBW_EINTERNAL,
				  "%s: %s: /proc must be mounted to hand an input to libpci", path,
				  strerror(e));
	}
	return PCIBW_OK;
}

void pcibw_input_memfd_close(int fd, const char *path)
{
	(void)path; /* /proc/self/fd/N goes with the descriptor */
	close(fd);
}

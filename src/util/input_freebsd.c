/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FreeBSD: an input handed to a library by name (libpci's dump reader, its pci.ids) is a
 * private copy on disk: a directory made by mkdtemp(3) (mode 0700, only this user can enter
 * it) holding one file created with O_EXCL and mode 0400, written once with the bytes pcibw
 * checked; pcibw_input_memfd_close removes both once the library is done.
 * Why not the Linux form: FreeBSD's memfd_create(3) and shm_open(2) SHM_ANON make an anonymous
 * object, but a library that fopen()s a path can reach one only through /dev/fd/N, and beyond
 * descriptors 0-2 that exists only where fdescfs(5) is mounted (not by default); procfs(5) is
 * not mounted by default either and has no per-descriptor files. fdescfs without its "nodup"
 * option also hands out a duplicate sharing our file offset. A private file works on every
 * install; what it gives up is the seal (the owner, or root, could change it while libpci
 * reads: both could equally change pcibw itself) and, if pcibw is killed between the two
 * calls, a left-over directory pcibw.XXXXXX under $TMPDIR (or /tmp).
 */
#include "input.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COPY_NAME "input"

static const char *tmp_dir(void)
{
	const char *t = getenv("TMPDIR");
	return t && t[0] == '/' ? t : "/tmp";
}

int pcibw_input_memfd(const char *data, size_t len, int *fd, char *path, size_t plen, struct pcibw_err *err)
{
	const char *t = tmp_dir();
	int n = snprintf(path, plen, "%s/pcibw.XXXXXX", t);
	if (n < 0 || (size_t)n + sizeof "/" COPY_NAME > plen)
		return pcibw_fail(err, PCIBW_EINTERNAL,
				  "%s: temporary directory name too long to hand an input to libpci "
				  "(set TMPDIR to a shorter path)",
				  t);
	if (!mkdtemp(path))
		return pcibw_fail(err, PCIBW_EINTERNAL,
				  "%s: cannot make a private directory to hand an input to libpci: %s", path,
				  strerror(errno));
	strcat(path, "/" COPY_NAME);
	*fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
	int e = *fd < 0 ? errno : 0;
	for (size_t o = 0; !e && o < len;) {
		ssize_t w = write(*fd, data + o, len - o);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			e = w < 0 ? errno : ENOSPC;
		else
			o += (size_t)w;
	}
	if (!e && lseek(*fd, 0, SEEK_SET) < 0)
		e = errno;
	if (e) {
		int rc = pcibw_fail(err, PCIBW_EINTERNAL, "%s: cannot hold a copy of an input for libpci: %s",
				    path, strerror(e));
		pcibw_input_memfd_close(*fd, path);
		*fd = -1;
		return rc;
	}
	return PCIBW_OK;
}

void pcibw_input_memfd_close(int fd, const char *path)
{
	if (fd >= 0)
		close(fd);
	unlink(path); /* absent after a failed open: harmless */
	char dir[1024];
	size_t n = strlen(path);
	if (n >= sizeof dir || n < sizeof COPY_NAME)
		return;
	memcpy(dir, path, n - sizeof COPY_NAME); /* drop "/input" */
	dir[n - sizeof COPY_NAME] = '\0';
	rmdir(dir);
}

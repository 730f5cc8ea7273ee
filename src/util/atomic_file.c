/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "atomic_file.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
			     : "of another kind";
}

int pcibw_atomic_check(const char *path, struct pcibw_err *err)
{
	/* rename(2) replaces whatever the name points at: a device node, a FIFO or a socket would
	 * be swapped for a regular file (as root, /dev/full would be gone), a directory refuses
	 * only after the whole file was written. Only a regular file (or no file yet) is replaced. */
	struct stat st;
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "%s: is %s, not a regular file: expected a file "
				  "to replace (a path in node_exporter's textfile directory)",
				  path, file_kind(st.st_mode));
	return PCIBW_OK;
}

int pcibw_atomic_open(struct pcibw_atomic_file *a, const char *path, struct pcibw_err *err)
{
	a->f = NULL;
	a->tmp[0] = '\0';
	if (snprintf(a->path, sizeof a->path, "%s", path) >= (int)sizeof a->path)
		return pcibw_fail(err, PCIBW_EUSAGE, "%s: path too long", path);
	int r = pcibw_atomic_check(path, err);
	if (r)
		return r;
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path) + 1 : 0;
	if (snprintf(a->tmp, sizeof a->tmp, "%.*s.%s.XXXXXX", dirlen, path, slash ? slash + 1 : path) >=
	    (int)sizeof a->tmp)
		return pcibw_fail(err, PCIBW_EUSAGE, "%s: path too long", path);
	int fd = mkstemp(a->tmp);
	if (fd < 0) {
		int e = errno;
		a->tmp[0] = '\0';
		/* the output cannot be written (a missing or read-only directory): exit 1, as for a
		 * full disk, not a usage error */
		return pcibw_fail(err, PCIBW_EINTERNAL,
				  "cannot write output: %s: cannot create a temporary file in its "
				  "directory: %s",
				  path, strerror(e));
	}
	a->f = fdopen(fd, "w");
	if (!a->f) {
		int e = errno;
		close(fd);
		pcibw_atomic_abort(a);
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: %s: %s", path, strerror(e));
	}
	return PCIBW_OK;
}

int pcibw_atomic_commit(struct pcibw_atomic_file *a, struct pcibw_err *err)
{
	int e = 0;
	if (fflush(a->f) || ferror(a->f))
		e = errno ? errno : EIO;
	else if (fsync(fileno(a->f)) && errno != EINVAL && errno != EROFS)
		e = errno;
	else if (fchmod(fileno(a->f), 0644))
		e = errno;
	if (fclose(a->f) && !e)
		e = errno;
	a->f = NULL;
	if (!e && rename(a->tmp, a->path))
		e = errno;
	if (e) {
		unlink(a->tmp);
		a->tmp[0] = '\0';
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: %s: %s", a->path, strerror(e));
	}
	a->tmp[0] = '\0';
	return PCIBW_OK;
}

void pcibw_atomic_abort(struct pcibw_atomic_file *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	if (a->tmp[0])
		unlink(a->tmp);
	a->tmp[0] = '\0';
}

int pcibw_textfile_write(const char *path, int (*render)(FILE *f, const void *arg), const void *arg,
			 struct pcibw_err *err)
{
	struct pcibw_atomic_file tf;
	int st = pcibw_atomic_open(&tf, path, err);
	if (st)
		return st;
	errno = 0;
	if (render(tf.f, arg)) {
		int e = errno;
		pcibw_atomic_abort(&tf);
		/* a full disk fails the render's own writes: say why, as commit would */
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: %s: %s", path,
				  e ? strerror(e) : "write error");
	}
	return pcibw_atomic_commit(&tf, err) ? PCIBW_EINTERNAL : PCIBW_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the running binary lives (OS-specific: exe_dir_linux.c, exe_dir_freebsd.c). */
#ifndef PCIBW_UTIL_EXE_DIR_H
#define PCIBW_UTIL_EXE_DIR_H

#include <stddef.h>

/* pcibw_exe_dir - the directory of the running executable, symlinks resolved, into buf (len
 * bytes): Linux reads /proc/self/exe, FreeBSD the kern.proc.pathname sysctl. Returns 0, or -1
 * when the OS cannot say (no /proc) or buf is too short. */
int pcibw_exe_dir(char *buf, size_t len);

/* pcibw_exe_dir_cut - cut an absolute path to its directory in place ("/usr/bin/pcibw" ->
 * "/usr/bin", "/pcibw" -> "/"). Pure. Returns 0, or -1 when path holds no '/'. */
int pcibw_exe_dir_cut(char *path);

#endif

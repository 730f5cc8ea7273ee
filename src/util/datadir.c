/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the NIC profiles and examples are. An installed pcibw finds them from its own location
 * (prefix/bin/pcibw -> prefix/share/pcibw), so a tree copied or unpacked anywhere works as it
 * is; the configured datadir is the fallback where the OS cannot name the running binary. An
 * uninstalled build finds build/data (links the build makes to the checkout's data/): only a
 * binary still in its build directory sees those. Nothing is compiled in that points at the
 * build machine's source tree.
 */
#include "config.h"
#include "exe_dir.h"
#include "pcibw/nic.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DIRS 4

static struct {
	char dir[MAX_DIRS][PATH_MAX];
	const char *why[MAX_DIRS];
	int n, found; /* found: index of the first with a nic/ directory, or -1 */
} dirs;

static void add(const char *why, const char *a, const char *b)
{
	if (dirs.n < MAX_DIRS &&
	    snprintf(dirs.dir[dirs.n], PATH_MAX, "%s%s%s", a, b ? "/" : "", b ? b : "") < PATH_MAX)
		dirs.why[dirs.n++] = why;
}

/* Searched anew at each call ($PCIBW_DATA_DIR may change); the answer lives until the next. */
static void search(void)
{
	dirs.n = 0;
	const char *env = getenv("PCIBW_DATA_DIR");
	char exe[PATH_MAX];
	if (env && *env) {
		add("$PCIBW_DATA_DIR", env, NULL);
	} else {
		if (pcibw_exe_dir(exe, sizeof exe) == 0) {
			add("next to the binary", exe, PCIBW_DATA_FROM_BINDIR);
			add("the build tree", exe, "data");
		}
		add("the configured datadir", PCIBW_INSTALL_DATA_DIR, NULL);
	}
	dirs.found = -1;
	for (int i = 0; i < dirs.n && dirs.found < 0; i++) {
		char nic[PATH_MAX + 8];
		struct stat st;
		snprintf(nic, sizeof nic, "%s/nic", dirs.dir[i]);
		if (stat(nic, &st) == 0 && S_ISDIR(st.st_mode))
			dirs.found = i;
	}
}

const char *pcibw_data_dir(void)
{
	search();
	return dirs.found >= 0 ? dirs.dir[dirs.found] : NULL;
}

size_t pcibw_data_dirs_searched(char *buf, size_t len)
{
	search();
	size_t o = 0;
	if (len)
		buf[0] = '\0';
	for (int i = 0; i < dirs.n; i++) {
		int k = snprintf(buf + (o < len ? o : len), o < len ? len - o : 0, "%s%s/nic (%s)",
				 i ? ", " : "", dirs.dir[i], dirs.why[i]);
		o += k > 0 ? (size_t)k : 0;
	}
	return o;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers for Criterion tests: run the pcibw binary, find test data. */
#ifndef PCIBW_TEST_SUPPORT_H
#define PCIBW_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

struct run_result {
	int status; /* exit code, or 128+signal if killed (a crash is never a pass) */
	char *out;  /* captured stdout, NUL-terminated, heap */
	char *err;  /* captured stderr, NUL-terminated, heap */
};

/*
 * run_pcibw - run $PCIBW_EXE with the NULL-terminated argument list, stdin from stdin_file (or
 * /dev/null when NULL), with a 60 s time limit (a hang is killed and reported as status 124+128).
 */
struct run_result run_pcibw(const char *stdin_file, const char *const *args);

/* run_cmd - run an arbitrary argv (argv[0] searched in PATH), same capture rules. */
struct run_result run_cmd(const char *stdin_file, const char *const *argv);

/*
 * run_pcibw_as_nobody - run pcibw as uid/gid 65534 (setpriv). The build tree may sit under a
 * private directory (a clone in /root), so a copy of the binary (libpcibw is linked in) is run from a
 * fresh world-readable directory in /tmp; if share is not NULL, that file or tree is copied there
 * too and every argument equal to share is replaced by the copy's path. The data tree of
 * $PCIBW_DATA_DIR is copied as well and the command runs with that copy as PCIBW_DATA_DIR and the
 * fresh directory as its working directory, so nothing it touches lies under the caller's tree.
 * Everything is removed after.
 */
struct run_result run_pcibw_as_nobody(const char *share, const char *const *args);

void run_free(struct run_result *r);

/* test_data - "$PCIBW_TEST_DATA/name" in a static rotating buffer (8 slots). */
const char *test_data(const char *name);

/* temp_file - a new file in /tmp holding text, named pcibw-test-XXXXXX followed by suffix ("" or
 * ".csv"), its path in a static rotating buffer (8 slots); the caller unlinks it. Aborts when the
 * file cannot be written (a test cannot go on without its input). */
const char *temp_file(const char *text, const char *suffix);

/* xorshift64_next - the next value of Marsaglia's xorshift64* generator ("Xorshift RNGs", J. Stat.
 * Softw. 8(14), 2003; the * multiplier from Vigna 2016) at *state (never 0): reproducible
 * test data with no libc state. */
uint64_t xorshift64_next(uint64_t *state);

/* slurp - read a whole file into a heap string, NULL on error. */
char *slurp(const char *path, size_t *len);

/* squash_space - a heap copy of s with every run of white space (a wrapped line's newline and
 * indent) made one blank, so that a phrase can be found however the text output wrapped it
 * (wrapping depends on the length of the paths printed). NULL when out of memory. */
char *squash_space(const char *s);

#endif

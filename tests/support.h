/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers for Criterion tests: run the pcibw binary, find test data. */
#ifndef PCIBW_TEST_SUPPORT_H
#define PCIBW_TEST_SUPPORT_H

#include <stddef.h>

struct run_result {
	int status;   /* exit code, or 128+signal if killed (a crash is never a pass) */
	char *out;    /* captured stdout, NUL-terminated, heap */
	char *err;    /* captured stderr, NUL-terminated, heap */
};

/*
 * run_pcibw - run $PCIBW_EXE with the NULL-terminated argument list, stdin from stdin_file (or
 * /dev/null when NULL), with a 60 s time limit (a hang is killed and reported as status 124+128).
 */
struct run_result run_pcibw(const char *stdin_file, const char *const *args);

/* run_cmd - run an arbitrary argv (argv[0] searched in PATH), same capture rules. */
struct run_result run_cmd(const char *stdin_file, const char *const *argv);

void run_free(struct run_result *r);

/* test_data - "$PCIBW_TEST_DATA/name" in a static rotating buffer (8 slots). */
const char *test_data(const char *name);

/* slurp - read a whole file into a heap string, NULL on error. */
char *slurp(const char *path, size_t *len);

#endif

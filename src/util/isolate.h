/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * isolate.h - run a step that may crash on untrusted input (a library's parser: hwloc 2.9.0 dies
 * on some well-formed but wrong XML) in a forked child, so its death becomes an error message
 * and an exit code of pcibw's choosing instead of taking the process down.
 */
#ifndef PCIBW_UTIL_ISOLATE_H
#define PCIBW_UTIL_ISOLATE_H

enum pcibw_isolated_result {
	PCIBW_ISOLATED_OK = 0,	    /* fn returned 0 */
	PCIBW_ISOLATED_FAILED = 1,  /* fn returned non-zero (a clean refusal) */
	PCIBW_ISOLATED_CRASHED = 2, /* the child died: signal, sanitizer report, abort */
	PCIBW_ISOLATED_TIMEOUT = 3, /* the child ran past the time limit and was killed */
	PCIBW_ISOLATED_NOFORK = 4,  /* no child could be started */
};

/*
 * pcibw_isolated - fork, run fn(ctx) in the child with its standard error sent to /dev/null (the
 * library's own complaints, a sanitizer's report) and at most seconds of time (SIGALRM), and
 * wait for it. The child shares nothing back but its exit status and never flushes the parent's
 * stdio buffers (it leaves with _exit). *detail receives a short text for a message ("signal
 * 11, Segmentation fault"); detail may be NULL. Returns an enum pcibw_isolated_result.
 */
int pcibw_isolated(int (*fn)(void *ctx), void *ctx, unsigned seconds, char *detail, unsigned len);

#endif

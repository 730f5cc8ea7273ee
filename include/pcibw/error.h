/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/error.h - status codes and error reports shared by every pcibw function.
 *
 * The numeric values of enum pcibw_status are the process exit codes fixed by the
 * CLI contract (doc/cli-contract.md, "Exit codes"); scripts rely on them.
 */
#ifndef PCIBW_ERROR_H
#define PCIBW_ERROR_H

#include <stdarg.h>
#include <stdio.h>

enum pcibw_status {
	PCIBW_OK = 0,	     /* success */
	PCIBW_EINTERNAL = 1, /* a bug or an out-of-memory condition */
	PCIBW_EUSAGE = 2,    /* bad option, bad bus spec, bad size list, unknown profile */
	PCIBW_EINPUT = 3,    /* input file unreadable or malformed (message names file:line:column) */
	PCIBW_ENOMATCH = 4,  /* nothing matched: no such slot, no network device */
	PCIBW_ENOTHERE = 5,  /* not possible here: needs root, OS not supported */
};

/* Room for one human-readable message; callers keep it on the stack. */
struct pcibw_err {
	enum pcibw_status code; /* PCIBW_OK until a pcibw_fail() */
	char msg[1024];		/* NUL-terminated, truncated to fit; "" when code is PCIBW_OK */
};

/*
 * pcibw_fail - record an error and return its code, so a callee can write
 * `return pcibw_fail(err, PCIBW_EINPUT, "%s:%u:%u: expected ...", file, line, col);`.
 * err may be NULL (the message is dropped). The message is truncated to fit.
 * Returns: code.
 */
int pcibw_fail(struct pcibw_err *err, enum pcibw_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* pcibw_vfail - va_list form of pcibw_fail (err may be NULL; ap is consumed). Returns: code. */
int pcibw_vfail(struct pcibw_err *err, enum pcibw_status code, const char *fmt, va_list ap);

/*
 * pcibw_put_message - write prefix, msg and a newline to out (standard error), each control
 * byte of msg (below 0x20, and 0x7f) as \xHH: a message quotes file names and input tokens, and
 * a crafted one must neither forge a line (a newline, a carriage return) nor reach the terminal
 * (an escape sequence). prefix is the program's own text, written as it is. Write errors show
 * in ferror(out).
 */
void pcibw_put_message(FILE *out, const char *prefix, const char *msg);

/* pcibw_err_clear - set err to PCIBW_OK with an empty message. err may be NULL. */
void pcibw_err_clear(struct pcibw_err *err);

#endif

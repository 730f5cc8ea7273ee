/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Evidence lists (a row's, the summary's): heap strings in a fixed-size array. Not installed. */
#ifndef PCIBW_EVIDENCE_H
#define PCIBW_EVIDENCE_H

#include <stdarg.h>

/* evidence_vadd - append a formatted string to v[*n] unless the list already holds max (then the
 * string is dropped: the first pieces of evidence are the ones that explain the verdict). */
void evidence_vadd(char **v, int *n, int max, const char *fmt, va_list ap);

#endif

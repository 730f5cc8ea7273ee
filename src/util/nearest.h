/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The nearest of a set of names to a mistyped one, for "did you mean" suggestions. */
#ifndef PCIBW_UTIL_NEAREST_H
#define PCIBW_UTIL_NEAREST_H

#include <stddef.h>

/*
 * pcibw_edit_distance - the optimal-string-alignment distance between a[0..la) and b[0..lb):
 * insertions, deletions, substitutions and swaps of two neighbours (a typing slip) each count 1.
 * Names longer than 63 bytes are compared on their first 63. Capped at 9.
 */
int pcibw_edit_distance(const char *a, size_t la, const char *b, size_t lb);

/*
 * pcibw_nearest_name - the name of names[0..n) (NULL entries skipped) nearest to typed[0..len),
 * when it is near enough to be the one meant: one slip for a name of up to 4 bytes, two for a
 * longer one. The first in order wins a tie. NULL when none is near, or typed is one of them.
 */
const char *pcibw_nearest_name(const char *typed, size_t len, const char *const *names, size_t n);

#endif

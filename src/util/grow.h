/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grow.h - geometric growth of heap arrays. Growing by one element (or by a fixed step) per
 * append copies the whole array each time: n appends cost O(n^2) bytes moved, which a
 * 4,000-device dump turns into minutes under a sanitizer. Doubling makes it O(n).
 */
#ifndef PCIBW_UTIL_GROW_H
#define PCIBW_UTIL_GROW_H

#include <stddef.h>

/*
 * pcibw_grow - make room for at least need elements of elem bytes in *v, whose capacity is
 * *cap elements: nothing when need <= *cap, else the capacity doubles (at least 16, at least
 * need). *v may be NULL with *cap 0. need must be >= 0.
 * Returns 0, or -1 (out of memory or a size that overflows; *v and *cap unchanged).
 */
int pcibw_grow(void *v, int *cap, int need, size_t elem);

#endif

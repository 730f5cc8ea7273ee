/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef PCIBW_RENDER_TEXT_WRAP_H
#define PCIBW_RENDER_TEXT_WRAP_H

#include <stdio.h>

/* pcibw_text_wrapped - prefix, then text broken at blanks so that no line passes 100 columns (a
 * word longer than the room is printed whole; a unit after a number, "100 %", "64 B", "9.6 Gbit/s",
 * stays with it), then a newline; continuation lines are indented two more than the prefix.
 * Write errors show in ferror(out). */
void pcibw_text_wrapped(FILE *out, const char *prefix, const char *text);

#endif

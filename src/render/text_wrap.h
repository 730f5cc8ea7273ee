/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef PCIBW_RENDER_TEXT_WRAP_H
#define PCIBW_RENDER_TEXT_WRAP_H

#include <stddef.h>
#include <stdio.h>

/* pcibw_text_wrapped - prefix, then text broken at blanks so that no line passes 100 columns (a
 * word longer than the room is printed whole; a unit after a number, "100 %", "64 B", "9.6 Gbit/s",
 * stays with it), then a newline; continuation lines are indented two more than the prefix. Control
 * bytes in text are shown as pcibw_text_visible shows them.
 * Write errors show in ferror(out). */
void pcibw_text_wrapped(FILE *out, const char *prefix, const char *text);

/* pcibw_text_visible - s as text output prints a name taken from its source (an interface name
 * from a copied sysfs tree, a recording, a CSV column): each control byte (below 0x20, and 0x7f)
 * written as \xHH, so that a crafted name can neither split a line (a newline) nor reach the
 * terminal (an escape sequence); JSON, CSV and Prometheus escape such bytes their own way.
 * pcibw_text_wrapped applies it to its whole text. Writes at most n bytes with the NUL (a byte
 * whose escape does not fit ends the copy) and returns out. */
const char *pcibw_text_visible(const char *s, char *out, size_t n);

/* pcibw_text_put_visible - s written to out as pcibw_text_visible shows it, however long. Write
 * errors show in ferror(out). */
void pcibw_text_put_visible(FILE *out, const char *s);

#endif

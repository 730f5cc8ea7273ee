/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A command's --help, from the option table (pcibw/options.h). */
#ifndef PCIBW_HELP_RENDER_H
#define PCIBW_HELP_RENDER_H

#include "pcibw/options.h"
#include <stdio.h>

/* pcibw_help_render_text - the usage, the command's description, its options grouped as the
 * table says (one line per row, help in a column; continuation lines indented to it), for a
 * command taking --nic the profile names (profiles: pcibw_nic_names's list; NULL: none found,
 * said with how to point pcibw at them) and the footer. Returns PCIBW_OK, or PCIBW_EINTERNAL on
 * a write error. */
int pcibw_help_render_text(FILE *f, const struct pcibw_command_info *cmd, const char *profiles);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The words watch says of a shared hop (pcibw/words.h), beside the reasons' (reason_words.c). */
#include "pcibw/watch_result.h"
#include "pcibw/words.h"
#include <math.h>
#include <stdio.h>

const char *pcibw_hop_note_words(const struct pcibw_watch_hop *gr, const struct pcibw_watch_hop_iv *o,
				 char *buf, size_t n)
{
	char util[16], own[16];
	if (!o->limiting) {
		snprintf(
		    buf, n,
		    "%s: the shared link %s now reads other than %s: costed at its current speed and width",
		    gr->names, gr->hop, gr->hop_bus);
		return buf;
	}
	pcibw_fmt_pct(util, sizeof util, o->util, NAN);
	pcibw_fmt_pct(own, sizeof own, isnan(o->own_max) ? 0 : o->own_max, NAN);
	snprintf(
	    buf, n,
	    "%s together load the shared %s %s (%s) to %s %% (%s), while each is at most %s %% of its own "
	    "bus: the shared hop, not a NIC's own link, is the limit%s%s",
	    gr->names, gr->segment ? "segment" : "hop", gr->hop, gr->hop_bus, util,
	    o->bound_by ? o->bound_by : "?", own, o->relinked ? "; the link now reads " : "", o->link);
	return buf;
}

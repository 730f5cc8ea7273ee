/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machines a results file states after its rows began: a "# bus: ... iface: NAME" line again
 * (pcibw watch --format csv when a link retrains) applies to that interface's rows after it; one
 * without iface to every row after it. Each distinct machine stated so gets a number (its rows'
 * pcibw_measured.machine_no, so they never average with rows of another machine); a line that
 * states the file's leading machine again is number 0. Not a public API.
 */
#ifndef PCIBW_REQUEST_STATED_H
#define PCIBW_REQUEST_STATED_H

#include "pcibw/ingest.h"
#include "pcibw/watch.h"

/* at most this many distinct machines stated mid-file over all inputs: as many as watch can
 * write (one per link state of each interface it watches) */
#define PCIBW_MAX_STATED (PCIBW_WATCH_MAX_IFACES * PCIBW_WATCH_MAX_LINK_STATES)

/* at most this many leading "# bus:" lines per input: watch writes one for the file and one per
 * interface it watches */
#define PCIBW_MAX_LEADING (PCIBW_WATCH_MAX_IFACES + 1)

struct stated_machine {
	int file;		       /* index of its input */
	unsigned no;		       /* its rows' machine_no, 1.. */
	char text[1024];	       /* the line as written */
	struct pcibw_input_defaults d; /* as read (d.iface "" for every interface) */
};

struct stated {
	struct stated_machine *v; /* heap, n of cap */
	int n, cap;
	/* the leading "# bus:" lines of every input read (no 0), of its interfaces and the file's */
	struct stated_machine *lead;
	int n_lead;
	/* the input being read */
	int file;
	bool any;	 /* it stated a machine after its rows began */
	int n_lead_file; /* its leading lines */
	struct {
		char iface[64];
		unsigned no;
	} cur[64]; /* the machine of each interface's rows from here on */
	int n_cur;
	unsigned cur_all; /* ... of the other interfaces' */
};

/* request_stated_next_file - start reading input number file. */
void request_stated_next_file(struct stated *s, int file);

/* request_stated_line - the pcibw_ingest_opts.on_bus_line hook (ctx: struct stated). PCIBW_OK,
 * PCIBW_EINPUT for a line that does not parse, of 1024 bytes or more, more than PCIBW_MAX_LEADING
 * leading lines in one input, more than PCIBW_MAX_STATED machines, or PCIBW_EINTERNAL. */
int request_stated_line(const char *source, unsigned line, bool leading, const char *text, size_t len,
			void *ctx, struct pcibw_err *err);

/* request_stated_no - the machine_no of a row of iface read now. */
unsigned request_stated_no(const struct stated *s, const char *iface);

/* request_stated_free - free what s holds; s is zeroed. */
void request_stated_free(struct stated *s);

#endif

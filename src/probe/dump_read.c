/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --dump FILE: the strict scanner (dump_scan.c) reads the file once and hands over each device's
 * bytes as its block ends; each is decoded then, and only the decoded facts are kept (a 4096-byte
 * copy per device would dominate the memory of a large dump). The result is what reading the
 * same bytes through libpci's dump method gave: config space is taken as pci_read_block() would
 * return it (lib/dump.c dump_read: a read succeeds when it ends within the bytes dumped), and the
 * devices are decoded, their warnings raised and their names looked up in the order of libpci's
 * device list, the last device of the file first (lib/access.c pci_link_dev() prepends).
 */
#include "dump_scan.h"
#include "probe_int.h"
#include "src/util/grow.h"
#include <pci/pci.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stashed {
	int node;
	const char *code;
	char *text;
};

struct dump_read {
	struct probe_set *set;
	struct pcibw_err *err; /* the caller's, for a failure that stops the scan */
	const struct probe_locator *loc;
	struct pcibw_report tmp; /* the warnings of the device being decoded */
	struct stashed *w;	 /* every device's decode warnings, in file order */
	int nw, capw;
	int bad; /* index of the last device in the file whose decode failed, or -1 */
	struct pcibw_err bad_err;
	const uint8_t *src; /* the device's bytes, while it is decoded */
	int src_len;
	uint8_t cfg[4096];
};

static int fetch_dump(void *ctx, int at, uint8_t *buf, int n)
{
	const struct dump_read *r = ctx;
	if (at < 0 || n < 0 || at + n > r->src_len)
		return -1;
	memcpy(buf, r->src + at, (size_t)n);
	return 0;
}

/* What probe_libpci_read's first reads take: the header, then the capability area below 0x100
 * only when Status says there is a capability list (128 bytes of a CardBus -x dump). */
static void first_read(struct dump_read *r, struct probe_cfg *c)
{
	memcpy(c->b, r->src, 64);
	c->len = 64;
	if (!(c->b[PCI_STATUS] & PCI_STATUS_CAP_LIST))
		return;
	int to = r->src_len >= 256 ? 256 : r->src_len >= 128 ? 128 : 64;
	memcpy(c->b + 64, r->src + 64, (size_t)(to - 64));
	c->len = to;
}

static void drop_tmp(struct dump_read *r)
{
	for (int k = 0; k < r->tmp.n_warnings; k++)
		free(r->tmp.warnings[k].text);
	r->tmp.n_warnings = 0;
}

static int on_device(void *ctx, struct dump_index *x, int i, const uint8_t *bytes)
{
	struct dump_read *r = ctx;
	const struct dump_dev *dd = &x->v[i];
	struct probe_node *n = probe_set_add(r->set);
	if (!n)
		return pcibw_fail(r->err, PCIBW_EINTERNAL, "out of memory");
	struct pcibw_device *d = &n->d;
	d->domain = dd->domain;
	d->bus = dd->bus;
	d->dev = dd->dev;
	d->fn = dd->fn;
	pcibw_format_slot(d->slot, d->domain, d->bus, d->dev, d->fn);
	r->src = bytes;
	r->src_len = dd->len;
	n->cfg.b = r->cfg;
	first_read(r, &n->cfg);
	n->cfg.fetch = fetch_dump;
	n->cfg.fetch_ctx = r;
	struct pcibw_err err;
	int rc = probe_decode(n, "config", r->loc, &r->tmp, &err);
	n->cfg.b = NULL; /* the scratch is the next device's; cfg.len stays */
	n->cfg.fetch = NULL;
	n->cfg.fetch_ctx = NULL;
	if (rc) {
		/* libpci's order meets the file's last bad device first: it is the one reported,
		 * unless the scanner finds bad text later on */
		r->bad = r->set->n - 1;
		r->bad_err = err;
		drop_tmp(r);
		return 0;
	}
	if (pcibw_grow(&r->w, &r->capw, r->nw + r->tmp.n_warnings, sizeof *r->w)) {
		drop_tmp(r);
		return pcibw_fail(r->err, PCIBW_EINTERNAL, "out of memory");
	}
	for (int k = 0; k < r->tmp.n_warnings; k++)
		r->w[r->nw++] =
		    (struct stashed){r->set->n - 1, r->tmp.warnings[k].code, r->tmp.warnings[k].text};
	r->tmp.n_warnings = 0;
	return 0;
}

/* The decode warnings into out, the last device's first. */
static int raise_warnings(struct dump_read *r, struct pcibw_report *out)
{
	int rc = PCIBW_OK;
	for (int end = r->nw; end > 0;) {
		int start = end;
		while (start > 0 && r->w[start - 1].node == r->w[end - 1].node)
			start--;
		for (int k = start; k < end && !rc; k++)
			rc = pcibw_report_warn(out, r->set->v[r->w[k].node].d.slot, r->w[k].code, "%s",
					       r->w[k].text);
		end = start;
	}
	return rc;
}

int probe_dump(const struct pcibw_probe_opts *o, struct pcibw_report *out, struct pcibw_err *err)
{
	struct dump_index idx;
	struct probe_set set = {0};
	struct probe_locator loc = {probe_dump_where, &idx};
	struct dump_read r = {.set = &set, .err = err, .loc = &loc, .bad = -1};
	int rc = probe_dump_scan(o->dump_file, on_device, &r, &idx, err);
	if (rc)
		goto out;
	snprintf(out->source, sizeof out->source, "dump:%s", o->dump_file);
	set.loc = &loc;
	rc = probe_libpci_names(&set, r.bad, o->pci_ids, err);
	if (rc)
		goto out;
	if (r.bad >= 0) {
		*err = r.bad_err;
		rc = err->code;
		goto out;
	}
	if (raise_warnings(&r, out)) {
		rc = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		goto out;
	}
	rc = probe_finish(&set, o, out, err);
out:
	for (int k = 0; k < r.nw; k++)
		free(r.w[k].text);
	free(r.w);
	drop_tmp(&r);
	pcibw_report_free(&r.tmp);
	probe_set_free(&set);
	probe_dump_index_free(&idx);
	return rc;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcie-bench's bw_dma_sz_sweep.csv (github.com/pcie-bench/pcie-bench, the SIGCOMM 2018 paper's
 * harness): one DMA benchmark per line. Test BW_DMA_RD / BW_DMA_WR / BW_DMA_RW is the pattern
 * (dma-read / dma-write / dma-rw), SZ the transfer size (bytes DMA'd), Trans/s the transfer rate.
 * The column headed "BW (GB/s)" holds Gbit/s (64 B x 8,388,608 transfers in 134.14 ms =
 * 32.02 Gbit/s: the first line of pcie-bench/data's
 * nfp6000-1.2GHz_hsw-Xeon-E5-2620v3_dell-t630/bw_dma_sz_sweep.csv); it is read as Gbit/s.
 */
#include "ingest_int.h"
#include "pcibw/nic.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

struct pbctx {
	pcibw_row_cb cb;
	void *ctx;
	struct pcibw_ingest_stats *st;
	bool have_header;
	int ncols;
	int test, pat, cache, win, sz, bw, tps;
};

static int header(struct pbctx *c, const struct csvr_record *rec, struct pcibw_err *err)
{
	c->have_header = true;
	c->ncols = rec->n;
	c->test = ingest_csvr_column(rec, "Test");
	c->pat = ingest_csvr_column(rec, "PAT");
	c->cache = ingest_csvr_column(rec, "Cache");
	c->win = ingest_csvr_column(rec, "WinSZ");
	c->sz = ingest_csvr_column(rec, "SZ");
	c->bw = ingest_csvr_column(rec, "BW (GB/s)");
	c->tps = ingest_csvr_column(rec, "Trans/s");
	const char *missing = c->test < 0		? "Test"
			      : c->sz < 0		? "SZ"
			      : c->bw < 0 && c->tps < 0 ? "BW (GB/s)"
							: NULL;
	if (missing)
		return pcibw_fail(
		    err, PCIBW_EINPUT,
		    "%s:%u:1: pcie-bench sweep without a '%s' column "
		    "(expected Test,PAT,Cache,HO,DO,WinSZ,SZ,Time(cyc),Time,Bytes,Trans,BW (GB/s),Trans/s)",
		    rec->file, rec->line, missing);
	return PCIBW_OK;
}

static int record(const struct csvr_record *rec, void *vctx, struct pcibw_err *err)
{
	struct pbctx *c = vctx;
	if (!c->have_header)
		return header(c, rec, err);
	c->st->lines++;
	if (rec->n != c->ncols) {
		ingest_stats_skip(c->st, rec->file, rec->line, "field count differs from the header");
		return PCIBW_OK;
	}
	struct pcibw_measured m;
	pcibw_measured_init(&m);
	m.source = rec->file;
	m.line = rec->line;
	m.size_conv = PCIBW_SIZE_DMA;
	const char *t = rec->f[c->test];
	if (!strcmp(t, "BW_DMA_RD"))
		m.direction = PCIBW_PAT_DMA_READ;
	else if (!strcmp(t, "BW_DMA_WR"))
		m.direction = PCIBW_PAT_DMA_WRITE;
	else if (!strcmp(t, "BW_DMA_RW"))
		m.direction = PCIBW_PAT_DMA_RW;
	else
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:%u:%u: test '%s' (expected BW_DMA_RD, BW_DMA_WR or "
				  "BW_DMA_RW)",
				  rec->file, rec->line, ingest_csvr_col(rec, c->test), t);
	ingest_copy_text(m.test, t);
	/* access pattern, cache state and window tell apart sweeps a file may hold side by side */
	snprintf(m.series, sizeof m.series, "%s/%s/%s", c->pat >= 0 ? rec->f[c->pat] : "",
		 c->cache >= 0 ? rec->f[c->cache] : "", c->win >= 0 ? rec->f[c->win] : "");
	int st;
	if ((st = ingest_field_num(rec, c->sz, PCIBW_VAL_SIZE, &m.size_bytes, err)) ||
	    (st = ingest_field_num(rec, c->bw, PCIBW_VAL_GBPS, &m.gbps, err)) ||
	    (st = ingest_field_num(rec, c->tps, PCIBW_VAL_PPS, &m.pps, err)))
		return st;
	if (isnan(m.size_bytes) || (isnan(m.gbps) && isnan(m.pps))) {
		ingest_stats_skip(c->st, rec->file, rec->line, "no size or rate");
		return PCIBW_OK;
	}
	if ((st = c->cb(&m, c->ctx, err)))
		return st;
	c->st->rows++;
	return PCIBW_OK;
}

int ingest_pciebench(const struct ingest_src *src, const struct pcibw_ingest_opts *opts, pcibw_row_cb cb,
		     void *ctx, struct pcibw_ingest_stats *st, struct pcibw_err *err)
{
	(void)opts;
	struct pbctx c = {.cb = cb, .ctx = ctx, .st = st};
	return ingest_csvr_run(src, record, &c, err);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --explain names what split each DMA read into completions (PCIe Base 5.0 sec. 2.3.1.1), so a
 * bigger packet that is faster can be seen to be. kernel-82599 on gen3x8 (MPS 256, MRRS 512 and
 * RCB 64 by default), sizes as frames with FCS: the TX data read is the frame less its 4 B FCS.
 * 448 B: one 444 B request, shorter than its 512 B MRRS block (7 of its 8 RCB blocks), so one
 * completion per 64 B block: ceil(444 / 64) = 7. 512 B: one 508 B request touching all 8 RCB
 * blocks, so MPS pieces: ceil(508 / 256) = 2. With rcb_chunks both come back in RCB pieces.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <string.h>

static json_t *data_read(json_t *row)
{
	json_t *rec = json_object_get(row, "recipe");
	for (size_t i = 0; i < json_array_size(rec); i++) {
		json_t *o = json_array_get(rec, i);
		if (!strcmp(json_string_value(json_object_get(o, "op")), "tx.data-read"))
			return o;
	}
	return NULL;
}

static void expect_split(json_t *row, double reqs, double per_req, const char *by)
{
	json_t *o = data_read(row);
	cr_assert(o, "no tx.data-read in the recipe");
	/* its to-device bytes: the data and, per completion, 8 B of framing (STP token and sequence
	 * number, LCRC: PCIe Base 5.0 sec. 4.2.2) and a 12 B CplD header (sec. 2.2.9) */
	double data = json_real_value(json_object_get(row, "size_bytes")) - 4;
	cr_expect_float_eq(json_real_value(json_object_get(o, "bytes_per_packet")),
			   data + reqs * per_req * 20, 1e-9);
	cr_expect_float_eq(json_real_value(json_object_get(o, "read_requests")), reqs, 1e-9);
	cr_expect_float_eq(json_real_value(json_object_get(o, "completions_per_request")), per_req, 1e-9);
	cr_expect_str_eq(json_string_value(json_object_get(o, "completions_set_by")), by);
}

Test(explain_reads, json_completions_and_cause)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8,mps=256", "--nic", "kernel-82599",
					     "--sizes", "448,512", "--explain", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_error_t je;
	json_t *root = json_loads(r.out, 0, &je);
	cr_assert(root, "%s", je.text);
	json_t *rows = json_object_get(root, "rows");
	expect_split(json_array_get(rows, 0), 1, 7, "rcb");
	expect_split(json_array_get(rows, 1), 1, 2, "mps");
	/* a write has no completions: no split keys */
	json_t *rec = json_object_get(json_array_get(rows, 0), "recipe");
	for (size_t i = 0; i < json_array_size(rec); i++) {
		json_t *o = json_array_get(rec, i);
		if (strstr(json_string_value(json_object_get(o, "op")), "write"))
			cr_expect_null(json_object_get(o, "completions_set_by"), "%s",
				       json_string_value(json_object_get(o, "op")));
	}
	json_decref(root);
	run_free(&r);

	r = run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8,mps=256,rcb_chunks", "--nic",
					     "kernel-82599", "--sizes", "512", "--explain", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	root = json_loads(r.out, 0, &je);
	cr_assert(root, "%s", je.text);
	/* ceil(508 / 64) = 8 */
	expect_split(json_array_get(json_object_get(root, "rows"), 0), 1, 8, "rcb");
	json_decref(root);
	run_free(&r);
}

Test(explain_reads, text_names_the_cause)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8,mps=256", "--nic", "kernel-82599",
					     "--sizes", "448,512", "--explain", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	const char *at512 = strstr(r.out, "recipe at 512 B");
	cr_assert(at512, "%s", r.out);
	const char *rcb = strstr(r.out, "1 request (mrrs 512 B), 7 completions per request, sized by rcb");
	cr_expect(rcb && rcb < at512, "%s", r.out);
	cr_expect(strstr(r.out, "(a request over fewer than 8 rcb blocks of 64 B: one completion per block)"),
		  "%s", r.out);
	cr_expect(strstr(at512, "1 request (mrrs 512 B), 2 completions per request, sized by mps") &&
		      strstr(at512, "(a request over 8 rcb blocks or more: pieces of mps, 256 B)"),
		  "%s", r.out);
	run_free(&r);
}

/* The completer sees the request's length, not the requester's MRRS: at MRRS 4096 a 1024 B
 * buffer read is one request of 16 RCB blocks (>= 512 B / 64 B = 8), returned in 1024 / 256 = 4
 * MPS pieces, and the text says so (not "filling its 4096 B mrrs block", which it does not). */
Test(explain_reads, text_at_large_mrrs)
{
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8,mps=256,mrrs=4096", "--nic", "simple",
					     "--pattern", "dma-read", "--size-is", "dma", "--sizes", "1024",
					     "--explain", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "1 request (mrrs 4096 B), 4 completions per request, sized by mps"), "%s",
		  r.out);
	cr_expect(strstr(r.out, "(a request over 8 rcb blocks or more: pieces of mps, 256 B)"), "%s", r.out);
	cr_expect(!strstr(r.out, "mrrs block"), "%s", r.out);
	run_free(&r);
}

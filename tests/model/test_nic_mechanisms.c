/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One hand-computed bytes-per-packet check per NIC mechanism, from the driver's own arithmetic
 * (each profile's [knob] source names the function), on gen3 x8, MPS 256, MRRS 512, 64-bit
 * addresses: MWr/MRd cost 24 B of overhead, CplD 20 B, writes split by MPS, reads by MRRS. A 64 B
 * frame DMAs L = 60 B, a 1518 B one 1514 B. Then the knobs: defaults that follow the link,
 * overrides by knob and by section.key, and what is refused.
 */
#include "model_helpers.h"
#include "support.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct pcibw_nic knobbed(const char *name, const char *bus, const char *const *sets, int n)
{
	struct pcibw_nic nic = load_nic(name);
	struct pcibw_bus b = parse_bus(bus);
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_nic_configure(&nic, &b, 0, sets, n, &e), 0, "%s: %s", name, e.msg);
	return nic;
}

/* the operation called op ("desc-read", ...) on path p of the packet's recipe */
static struct pcibw_op op_of(const struct pcibw_nic *n, enum pcibw_pattern pat, double dma, enum pcibw_path p,
			     const char *op)
{
	struct pcibw_recipe r;
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_nic_recipe(n, pat, dma, &r, &e), 0, "%s", e.msg);
	for (int i = 0; i < r.n; i++)
		if (r.ops[i].path == p && !strcmp(pcibw_op_name(&r.ops[i]), op))
			return r.ops[i];
	return (struct pcibw_op){0};
}

static const char *const G3X8 = "gen3x8,mps=256,mrrs=512";

/* Striding RQ (en_rx.c mlx5e_handle_rx_cqe_mpwrq): a 64 B packet takes one 2048 B stride, 128 to
 * a 256 KB WQE: the 32 B WQE and the 640 B UMR WQE are read once per 128 packets. Cyclic RQ: a
 * 16 B WQE per packet, read 8 at a time. With 64 B strides a 1514 B packet takes ceil(1514/64) =
 * 24 strides: floor(128 / 24) = 5 packets per WQE. */
Test(mechanisms, striding_rq)
{
	struct pcibw_bus b = parse_bus(G3X8);
	const char *on[] = {"rx_striding_rq=on"}, *off[] = {"rx_striding_rq=off"};
	struct pcibw_nic s = knobbed("mlx5", G3X8, on, 1), c = knobbed("mlx5", G3X8, off, 1);
	struct pcibw_model_row rs = eval(&b, &s, PCIBW_PAT_RX, PCIBW_SIZE_FRAME, 0, 64);
	struct pcibw_model_row rc = eval(&b, &c, PCIBW_PAT_RX, PCIBW_SIZE_FRAME, 0, 64);
	/* to host: WQE 24/128 + UMR 24 x ceil(640/512) / 128 + data 84 + CQE 88 + MSI 28/64 + EQE 88/64 */
	cr_expect_float_eq(rs.to_host_bytes, 24.0 / 128 + 48.0 / 128 + 84 + 88 + 116.0 / 64, 1e-9);
	/* to device: ICOSQ doorbell 32/128 + WQE (32 + 20)/128 + re-arm 64/64 + UMR 640 B, requests of
	 * 512 + 128: the whole 512 B request in two MPS completions, the 128 B one in two 64 B RCB
	 * completions, (640 + 4 x 20)/128 */
	cr_expect_float_eq(rs.to_device_bytes, 32.0 / 128 + 52.0 / 128 + 720.0 / 128 + 1, 1e-9);
	/* cyclic: 8 x 16 B in one 128 B read, short of 512: 24/8 to host, (128 + 2 x 20)/8 to device */
	cr_expect_float_eq(rc.to_host_bytes, 3 + 84 + 88 + 116.0 / 64, 1e-9);
	cr_expect_float_eq(rc.to_device_bytes, 21 + 1, 1e-9);
	const char *small[] = {"rx_striding_rq=on", "rx.stride_bytes=64"};
	struct pcibw_nic t = knobbed("mlx5", G3X8, small, 2);
	struct pcibw_op d = op_of(&t, PCIBW_PAT_RX, 1514, PCIBW_PATH_RX, "desc-read");
	cr_expect_float_eq(d.per_packet, 1.0 / 5, 1e-12);
	cr_expect_float_eq(d.bytes, 32, 1e-12);
	cr_expect_float_eq(op_of(&t, PCIBW_PAT_RX, 60, PCIBW_PATH_RX, "desc-map").per_packet, 1.0 / 128,
			   1e-12);
}

/* CQE compression (en_rx.c mlx5e_decompress_cqes_start): a session of S packets writes a 64 B
 * title CQE and ceil((S - 1) / 8) slots of 8 mini CQEs. S = 7: 2 writes of 64 B per 7 packets,
 * (64 + 24) x 2 / 7 to the host instead of 88 per packet; S = 17: 1 + 2 = 3 per 17. */
Test(mechanisms, cqe_compression)
{
	struct pcibw_bus b = parse_bus(G3X8);
	const char *on[] = {"rx_cqe_compress=on"}, *s17[] = {"rx_cqe_compress=on", "rx.wb_session=17"};
	struct pcibw_nic n = knobbed("mlx5", G3X8, on, 1), m = knobbed("mlx5", G3X8, s17, 2);
	struct pcibw_model_row r = eval(&b, &n, PCIBW_PAT_RX, PCIBW_SIZE_FRAME, 0, 64);
	cr_expect_float_eq(r.to_host_bytes, 24.0 / 128 + 48.0 / 128 + 84 + 176.0 / 7 + 116.0 / 64, 1e-9);
	struct pcibw_op w = op_of(&m, PCIBW_PAT_RX, 60, PCIBW_PATH_RX, "desc-wb");
	cr_expect_float_eq(w.per_packet, 3.0 / 17, 1e-12);
	cr_expect_float_eq(w.bytes, 64, 1e-12);
}

/* Enhanced multi-packet send WQE (en_tx.c mlx5e_sq_xmit_mpwqe): 32 B of ctrl + eth segments and
 * a 16 B data segment per packet, closed when the stack stops batching (the doorbell) or at 15
 * basic blocks: doorbell every 32 packets -> one 544 B WQE and one CQE per 32; every 100 ->
 * (960 - 32) / 16 = 58 per 960 B WQE. */
Test(mechanisms, mpwqe)
{
	struct pcibw_bus b = parse_bus(G3X8);
	const char *d32[] = {"tx.doorbell_batch=32"}, *d100[] = {"tx.doorbell_batch=100"};
	struct pcibw_nic n = knobbed("mlx5", G3X8, d32, 1), m = knobbed("mlx5", G3X8, d100, 1);
	struct pcibw_model_row r = eval(&b, &n, PCIBW_PAT_TX, PCIBW_SIZE_FRAME, 0, 64);
	/* to device: doorbell 32/32 + WQE (544 + 3 x 20)/32 + data 80 + re-arm 64/64 */
	cr_expect_float_eq(r.to_device_bytes, 1 + 604.0 / 32 + 80 + 1, 1e-9);
	/* to host: WQE 2 x 24 / 32 + data 24 + CQE 88/32 + MSI, EQE 116/64 */
	cr_expect_float_eq(r.to_host_bytes, 48.0 / 32 + 24 + 88.0 / 32 + 116.0 / 64, 1e-9);
	struct pcibw_op w = op_of(&m, PCIBW_PAT_TX, 60, PCIBW_PATH_TX, "desc-read");
	cr_expect_float_eq(w.bytes, 960, 1e-12);
	cr_expect_float_eq(w.per_packet, 1.0 / 58, 1e-12);
	cr_expect_float_eq(op_of(&m, PCIBW_PAT_TX, 60, PCIBW_PATH_TX, "desc-wb").per_packet, 1.0 / 58, 1e-12);
	const char *off[] = {"skb_tx_mpwqe=off", "tx.doorbell_batch=32"};
	struct pcibw_nic o = knobbed("mlx5", G3X8, off, 2);
	struct pcibw_op one = op_of(&o, PCIBW_PAT_TX, 60, PCIBW_PATH_TX, "desc-read");
	cr_expect_float_eq(one.bytes, 64, 1e-12);
	cr_expect_float_eq(one.per_packet, 1, 1e-12);
}

/* Inline data (en/xdp.c mlx5e_xdp_mpwqe_add_dseg): a packet of at most 252 B travels in the WQE
 * as 4 B + data in 16 B units, so it needs no read of its own: 60 B -> a 64 B segment, 14 to a
 * WQE ((960 - 32) / 64). 253 B is too long: a data pointer and a read of its own. The L2 header
 * a ConnectX-4 inlines (18 B, MLX5E_MIN_INLINE) is not read again. */
Test(mechanisms, inline_data)
{
	struct pcibw_nic x = knobbed("mlx5-xdp", G3X8, NULL, 0);
	struct pcibw_op w = op_of(&x, PCIBW_PAT_TX, 60, PCIBW_PATH_TX, "desc-read");
	cr_expect_float_eq(w.bytes, 32 + 14 * 64, 1e-12);
	cr_expect_float_eq(w.per_packet, 1.0 / 14, 1e-12);
	cr_expect_float_eq(op_of(&x, PCIBW_PAT_TX, 60, PCIBW_PATH_TX, "data-read").per_packet, 0, 0);
	cr_expect_float_eq(op_of(&x, PCIBW_PAT_TX, 252, PCIBW_PATH_TX, "data-read").per_packet, 0, 0);
	cr_expect_float_eq(op_of(&x, PCIBW_PAT_TX, 253, PCIBW_PATH_TX, "data-read").bytes, 253, 1e-12);
	struct pcibw_nic c4 = load_nic("mlx5-cx4");
	cr_expect_float_eq(op_of(&c4, PCIBW_PAT_TX, 60, PCIBW_PATH_TX, "data-read").bytes, 42, 1e-12);
}

/* Completion events (mlx5 eq.c: a 64 B EQE and an MSI-X write per event; mlx5_cq_arm and
 * eq_update_ci: two 8 B doorbells to re-arm), one per NAPI poll of 64: 28/64 + 88/64 to the
 * host and 64/64 to the device. rx_cqe_moder only changes the timer: the same bytes either way. */
Test(mechanisms, completion_moderation)
{
	struct pcibw_bus b = parse_bus(G3X8);
	const char *on[] = {"rx_cqe_moder=on"}, *off[] = {"rx_cqe_moder=off"};
	struct pcibw_nic n = knobbed("mlx5", G3X8, on, 1), m = knobbed("mlx5", G3X8, off, 1);
	struct pcibw_op ev = op_of(&n, PCIBW_PAT_RX, 60, PCIBW_PATH_RX, "event-entry");
	cr_expect_float_eq(ev.bytes * ev.per_packet, 1, 1e-12);
	struct pcibw_op arm = op_of(&n, PCIBW_PAT_RX, 60, PCIBW_PATH_RX, "irq-arm");
	cr_expect_float_eq(arm.per_packet, 2.0 / 64, 1e-12);
	cr_expect_float_eq(eval(&b, &n, PCIBW_PAT_RX, PCIBW_SIZE_FRAME, 0, 64).to_host_bytes,
			   eval(&b, &m, PCIBW_PAT_RX, PCIBW_SIZE_FRAME, 0, 64).to_host_bytes, 0);
}

/* Doorbell batching (xmit_more; DPDK bursts): one 4 B tail write per k packets, (4 + 24)/k. */
Test(mechanisms, doorbell_batching)
{
	const char *k8[] = {"tx.doorbell_batch=8"};
	struct pcibw_nic n = knobbed("i40e", G3X8, k8, 1);
	struct pcibw_op d = op_of(&n, PCIBW_PAT_TX, 60, PCIBW_PATH_TX, "doorbell");
	cr_expect_float_eq(d.per_packet, 1.0 / 8, 1e-12);
	struct pcibw_bus b = parse_bus(G3X8);
	/* i40e TX to device: 28/8 + fetch (64 + 20)/4 + data 80 */
	cr_expect_float_eq(eval(&b, &n, PCIBW_PAT_TX, PCIBW_SIZE_FRAME, 0, 64).to_device_bytes, 3.5 + 21 + 80,
			   1e-9);
}

/* RS-bit interval and write-back modes: i40e's head write-back writes a 4 B head index once per
 * WB_STRIDE 4 (28/4 to the host); ice writes each RS descriptor back (16 + 24 per packet); DPDK's
 * tx_rs_thresh 64 writes one 16 B descriptor per 64 packets (40/64). */
Test(mechanisms, rs_interval_and_writeback)
{
	struct pcibw_nic i = load_nic("i40e"), c = load_nic("ice");
	struct pcibw_op h = op_of(&i, PCIBW_PAT_TX, 60, PCIBW_PATH_TX, "desc-wb");
	cr_expect_float_eq(h.bytes * h.per_packet, 1, 1e-12);
	struct pcibw_op d = op_of(&c, PCIBW_PAT_TX, 60, PCIBW_PATH_TX, "desc-wb");
	cr_expect_float_eq(d.bytes, 16, 0);
	cr_expect_float_eq(d.per_packet, 1, 0);
	const char *rs[] = {"tx_rs_thresh=64"};
	struct pcibw_nic p = knobbed("dpdk-i40e", G3X8, rs, 1);
	struct pcibw_bus b = parse_bus(G3X8);
	/* to host: fetch 24/4 + data 24 + write-back 40/64 */
	cr_expect_float_eq(eval(&b, &p, PCIBW_PAT_TX, PCIBW_SIZE_FRAME, 0, 64).to_host_bytes,
			   6 + 24 + 40.0 / 64, 1e-9);
}

/* Descriptor read batching and 16/32 B descriptors: i40e fetches 2 RX descriptors of 32 B (one
 * 64 B line) in one read, (64 + 20)/2 to the device; 16 B descriptors halve the bytes, (32 + 20)/2. */
Test(mechanisms, descriptor_size_and_fetch)
{
	struct pcibw_bus b = parse_bus(G3X8);
	struct pcibw_nic n = load_nic("dpdk-i40e");
	const char *d16[] = {"rx.desc_bytes=16"};
	struct pcibw_nic m = knobbed("dpdk-i40e", G3X8, d16, 1);
	/* RX to device: tail 28/32 + fetch */
	cr_expect_float_eq(eval(&b, &n, PCIBW_PAT_RX, PCIBW_SIZE_FRAME, 0, 64).to_device_bytes, 0.875 + 42,
			   1e-9);
	cr_expect_float_eq(eval(&b, &m, PCIBW_PAT_RX, PCIBW_SIZE_FRAME, 0, 64).to_device_bytes, 0.875 + 26,
			   1e-9);
	const char *f4[] = {"rx.desc_fetch_batch=4"};
	struct pcibw_nic q = knobbed("dpdk-i40e", G3X8, f4, 1);
	/* 4 x 32 = 128 B in one read, short of MRRS: two 64 B RCB completions, (128 + 2 x 20)/4 to the
	 * device, 24/4 to the host */
	struct pcibw_model_row r = eval(&b, &q, PCIBW_PAT_RX, PCIBW_SIZE_FRAME, 0, 64);
	cr_expect_float_eq(r.to_device_bytes, 0.875 + 42, 1e-9);
	cr_expect_float_eq(r.to_host_bytes, 6 + 84 + 56, 1e-9);
}

/* mlx5's slow_pci_heuristic: a 100 Gbit/s port on gen3 x4 (4 x 7.877 = 31.5 Gbit/s, under half)
 * turns CQE compression on and the striding RQ off; on gen3 x8 (63 Gbit/s) neither; a 25 Gbit/s
 * port (--line-rate) on x4 is not slow. */
Test(knobs, link_dependent_defaults)
{
	struct pcibw_nic slow = knobbed("mlx5", "gen3x4", NULL, 0), fast = knobbed("mlx5", "gen3x8", NULL, 0);
	cr_expect_str_eq(slow.knobs[0].name, "rx_striding_rq");
	cr_expect_str_eq(slow.knobs[0].value, "off");
	cr_expect_str_eq(slow.knobs[1].value, "on");
	cr_expect(strstr(slow.knobs[1].why, "half"), "%s", slow.knobs[1].why);
	cr_expect_str_eq(fast.knobs[0].value, "on");
	cr_expect_str_eq(fast.knobs[1].value, "off");
	struct pcibw_nic n = load_nic("mlx5");
	struct pcibw_bus x4 = parse_bus("gen3x4");
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_nic_configure(&n, &x4, 25, NULL, 0, &e), 0, "%s", e.msg);
	cr_expect_str_eq(n.knobs[1].value, "off");
	cr_expect_eq(n.rx_wb_compress, 1);
}

Test(knobs, overrides_and_refusals)
{
	struct pcibw_nic n = load_nic("mlx5");
	struct pcibw_bus b = parse_bus(G3X8);
	struct pcibw_err e = {0};
	/* raw keys after knobs, whatever the order given */
	const char *ok[] = {"rx.wb_session=32", "rx_cqe_compress=on"};
	cr_assert_eq(pcibw_nic_configure(&n, &b, 0, ok, 2, &e), 0, "%s", e.msg);
	cr_expect_eq(n.rx_wb_session, 32);
	cr_expect_eq(n.rx_wb_compress, 8);
	cr_expect_eq(n.n_overrides, 2);
	cr_expect_str_eq(n.overrides[0], "rx_cqe_compress=on");
	const char *bad[][1] = {{"rx_cqe_compres=on"},
				{"rx_cqe_compress=maybe"},
				{"rx.frob=1"},
				{"rx.desc_bytes=0"},
				{"profile.name=x"},
				{"=on"},
				{"device.write_burst_bytes=384"}};
	const char *needle[] = {"no knob 'rx_cqe_compres'",
				"expected on, off, got 'maybe'",
				"'rx.frob'",
				"desc_bytes: expected an integer 1..4096",
				"'profile.name'",
				"expected KNOB=VALUE",
				"write_burst_bytes: expected 0 (no limit) or a power of 2 in 64..4096"};
	for (int i = 0; i < 7; i++) {
		struct pcibw_nic m = load_nic("mlx5");
		e = (struct pcibw_err){0};
		cr_expect_eq(pcibw_nic_configure(&m, &b, 0, bad[i], 1, &e), PCIBW_EUSAGE, "%s", bad[i][0]);
		cr_expect(strstr(e.msg, needle[i]), "%s: %s", bad[i][0], e.msg);
	}
}

/* A what-if must keep the paired keys paired, as a profile file must: half a pair would leave the
 * model's figures unchanged without a word (the write engine and the read window each need both). */
Test(knobs, what_if_pairs_checked)
{
	struct pcibw_bus b = parse_bus(G3X8);
	const char *bad[][2] = {{"device.write_unit_bytes=128", NULL}, {"device.write_unit_ns=17", NULL},
				{"device.write_cmd_ns=4", NULL},       {"device.read_tags=4", NULL},
				{"device.read_latency_ns=500", NULL},  {"device.write_burst_bytes=512", NULL},
				{"device.write_burst_gap_ns=4", NULL}};
	const char *needle[] = {"write_unit_bytes and write_unit_ns go together",
				"write_unit_bytes and write_unit_ns go together",
				"write_cmd_ns needs them",
				"read_latency_ns and read_tags go together",
				"read_latency_ns and read_tags go together",
				"write_burst_bytes and write_burst_gap_ns go together",
				"write_burst_bytes and write_burst_gap_ns go together"};
	for (int i = 0; i < 7; i++) {
		struct pcibw_nic m = load_nic("simple");
		struct pcibw_err e = {0};
		cr_expect_eq(pcibw_nic_configure(&m, &b, 0, bad[i], 1, &e), PCIBW_EUSAGE, "%s", bad[i][0]);
		cr_expect(strstr(e.msg, needle[i]), "%s: %s", bad[i][0], e.msg);
	}
	/* both halves together are a what-if like any other */
	const char *ok[][3] = {
	    {"device.write_unit_bytes=128", "device.write_unit_ns=17", "device.write_cmd_ns=4"},
	    {"device.read_tags=4", "device.read_latency_ns=500", NULL},
	    {"device.write_burst_bytes=512", "device.write_burst_gap_ns=4", NULL}};
	const int n_ok[] = {3, 2, 2};
	for (int i = 0; i < 3; i++) {
		struct pcibw_nic m = load_nic("simple");
		struct pcibw_err e = {0};
		cr_expect_eq(pcibw_nic_configure(&m, &b, 0, ok[i], n_ok[i], &e), PCIBW_OK, "%s", e.msg);
	}
}

/* A knob whose values set different keys would leave a key wherever the last value put it. */
Test(knobs, profile_knob_checks)
{
	char path[] = "/tmp/pcibw-knob-XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs("[profile]\nname = x\nsource = synthetic: a knob whose two values set different keys\n"
	      "[tx]\ndesc_bytes = 16\n[rx]\ndesc_bytes = 16\n"
	      "[knob k]\ndefault = on\nsource = none\non = tx.wb_batch=2\noff = rx.wb_batch=2\n",
	      f);
	fclose(f);
	struct pcibw_nic n;
	struct pcibw_err e = {0};
	cr_expect_eq(pcibw_nic_load_file(path, &n, &e), PCIBW_EINPUT);
	cr_expect(strstr(e.msg, "every value must set the same keys"), "%s", e.msg);
	unlink(path);
}

/* The command line: --nic NAME,KNOB=V and --nic-set, JSON nic / nic_overrides / nic_knobs, exit 2
 * for an unknown knob, and --explain's recipe adding up to the row's bytes. */
Test(knobs, cli)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x16,mps=256", "--nic",
							       "mlx5-xdp,rx_cqe_compress=on", "--nic-set",
							       "rx_striding_rq=off", "--pattern", "rx",
							       "--sizes", "64", "--explain", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_error_t je;
	json_t *root = json_loads(r.out, 0, &je);
	cr_assert(root, "%s", je.text);
	cr_expect_str_eq(json_string_value(json_object_get(root, "nic")), "mlx5-xdp");
	json_t *ov = json_object_get(root, "nic_overrides");
	cr_assert_eq(json_array_size(ov), 2);
	cr_expect_str_eq(json_string_value(json_array_get(ov, 0)), "rx_cqe_compress=on");
	cr_expect_str_eq(json_string_value(json_array_get(ov, 1)), "rx_striding_rq=off");
	cr_expect_str_eq(
	    json_string_value(json_object_get(json_object_get(root, "nic_knobs"), "rx_striding_rq")), "off");
	json_t *row = json_array_get(json_object_get(root, "rows"), 0), *rec = json_object_get(row, "recipe");
	double host = 0, dev = 0;
	for (size_t i = 0; i < json_array_size(rec); i++) {
		json_t *o = json_array_get(rec, i);
		const char *dir = json_string_value(json_object_get(o, "dir"));
		double v = json_real_value(json_object_get(o, "bytes_per_packet"));
		cr_expect(json_string_value(json_object_get(o, "op")) &&
			  json_string_value(json_object_get(o, "key")) &&
			  json_string_value(json_object_get(o, "source")));
		*(strcmp(dir, "to-host") ? &dev : &host) += v;
	}
	cr_expect_float_eq(host, json_real_value(json_object_get(row, "to_host_bytes")), 1e-6);
	cr_expect_float_eq(dev, json_real_value(json_object_get(row, "to_device_bytes")), 1e-6);
	/* 64 B, compressed CQEs, cyclic RQ: 3 + 84 + 176/7 + 116/64 to the host */
	cr_expect_float_eq(host, 87 + 176.0 / 7 + 116.0 / 64, 1e-6);
	json_decref(root);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8", "--nic", "mlx5", "--nic-set",
					     "bogus=1", NULL});
	cr_expect_eq(r.status, 2, "%s", r.err);
	cr_expect(strstr(r.err, "no knob 'bogus'") && strstr(r.err, "rx_cqe_compress"), "%s", r.err);
	run_free(&r);
	r = run_pcibw(NULL,
		      (const char *[]){"model", "--bus", "gen3x8", "--nic", "i40e,rx_cqe_compress=on", NULL});
	cr_expect_eq(r.status, 2, "%s", r.err);
	cr_expect(strstr(r.err, "profile i40e has no knob"), "%s", r.err);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"model", "--bus", "gen3x8", "--nic", "mlx5", "--sizes", "64",
					     "--explain", NULL});
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "recipe at 64 B") &&
		      strstr(r.out, "knob rx_striding_rq = on (driver default)"),
		  "%s", r.out);
	run_free(&r);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One hand-computed bytes-per-packet check per NIC profile, from the defaults each profile cites
 * (data/nic/NAME.ini), on gen3 x8, MPS 256, MRRS 512, 64-bit addresses, default accounting:
 * MWr/MRd cost 24 B of overhead, CplD 20 B (PCIe Base 5.0 sec. 2.2); writes split by MPS, reads by MRRS.
 * Completions (doc/model.md sec. 3): a whole 512 B request comes back in MPS pieces (2), a
 * shorter request of r bytes in 64 B RCB pieces, ceil(r/64); write cpl(n) for a read of n bytes.
 * Frames 64 and 1518 B -> L = 60 and 1514 B DMA'd (FCS stripped / appended).
 * Writing c256 = ceil(L/256) (1 and 6) and c512 = ceil(L/512) (1 and 3); cpl(60) = 1 and
 * cpl(1514) = 2 + 2 + 2 (its last request, 490 B, spans all eight 64 B blocks of 512) = c256:
 *   data read (TX):  to_host 24 c512, to_device L + 20 cpl(L)
 *   data write (RX): to_host L + 24 c256
 *   a fetch of k descriptors of d bytes every k packets: to_host 24 ceil(kd/512)/k,
 *                    to_device (kd + 20 cpl(kd))/k
 *   a write-back of k x w bytes every k packets: (kw + 24 ceil(kw/256))/k to host
 *   doorbell of b bytes every k packets: (b + 24)/k to device; MSI every k: 28/k to host;
 *   head read every k: 24/k to device and 24/k to host.
 * A profile that is a renamed copy of another gives the other's numbers and fails here.
 */
#include "model_helpers.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* shared_irq: the profile's TX and RX rings share one vector (irq_shared), so `both` pays one
 * MSI (28 B to the host) per irq_batch packet pairs instead of one per path: that much less than
 * the two paths added. */
struct expect {
	const char *nic;
	double tx_dev[2], tx_host[2], rx_dev[2], rx_host[2];
	double shared_irq;     /* to the host: MSI, event entry, cause-register read completions */
	double shared_irq_dev; /* to the device: cause-register read requests, re-arm doorbells */
};

static const struct expect ex[] = {
    /* simple: TX 28 + 36 + data + 24 | 24 + data + 28 + 24; RX 28 + 36 + 24 | 24 + data + 40 + 28 + 24 */
    {"simple", {168, 1722}, {100, 148}, {88, 88}, {200, 1774}, 0, 0},
    /* kernel-82599: TX doorbell 28, fetch 40x16 = 640 B (48/40 host; 512 + 128: cpl 2 + 2, 720/40
     * dev), wb 8x16 152/8, MSI 28/32, head 24 | RX doorbell 28/32, fetch 24 + 36, wb 40, MSI 28/32,
     * head /8 */
    {"kernel-82599", {150, 1704}, {69.075, 117.075}, {39.875, 39.875}, {151.875, 1725.875}, 0, 0},
    /* dpdk: TX doorbell 28/32, fetch 18 + 1.2 (as kernel-82599), wb 19 | RX doorbell 28/32, fetch
     * 24 + 36, wb 40 */
    {"dpdk", {98.875, 1652.875}, {44.2, 92.2}, {36.875, 36.875}, {148, 1722}, 0, 0},
    /* igb: TX doorbell 28, fetch 8x16 = 128 B (3 host; cpl(128) = 2: 168/8 = 21 dev), wb 16x16
     * 280/16, MSI 28/64 | RX doorbell 28/16, fetch 8 (3, 21), wb 4x16 88/4, MSI 28/64 */
    {"igb", {129, 1683}, {44.9375, 92.9375}, {22.75, 22.75}, {109.4375, 1683.4375}, 28.0 / 64, 0},
    /* ixgbe: TX doorbell 28, fetch 32x16 (24/32, 552/32), wb 8x16 152/8, MSI 28/64 | RX doorbell
     * 28/16, fetch 1 (24, 36), wb 40, MSI 28/64 */
    {"ixgbe", {125.25, 1679.25}, {44.1875, 92.1875}, {37.75, 37.75}, {148.4375, 1722.4375}, 28.0 / 64, 0},
    /* i40e: TX doorbell 28, fetch 4x16 (24/4, 84/4), head write-back 4 B per 4: 28/4, MSI 28/64 |
     * RX doorbell 28/32, fetch 2x32 (24/2, 84/2), wb 32 B: 56, MSI 28/64 */
    {"i40e", {129, 1683}, {37.4375, 85.4375}, {42.875, 42.875}, {152.4375, 1726.4375}, 28.0 / 64, 0},
    /* i40e's head write-back is wb_bytes 4 per wb_stride 4: the same 28/4 as before */
    /* mlx5 (gen3 x8 carries 63 Gbit/s, over half of 100G: striding RQ on, CQE compression off;
     * skb MPWQE on, closed at each doorbell: one packet): TX doorbell 8 B: 32; WQE 32 + 16 = 48 B
     * (24 host, 68 dev); CQE 88; interrupt per 64: MSI 28 + EQE 88 = 116/64 host, two 8 B re-arm
     * doorbells 64/64 dev | RX ICOSQ doorbell 32/128; striding WQE of 128 packets: 32 B (24/128,
     * 52/128) + UMR 640 B (48/128; 512 + 128: cpl 2 + 2, 720/128); CQE 88; interrupt as TX */
    {"mlx5", {181, 1735}, {137.8125, 185.8125}, {7.28125, 7.28125}, {174.375, 1748.375}, 116.0 / 64, 1},
    /* mlx5-cx4: no MPWQE: 64 B WQE (24, 84); 18 B of header inline, data read L - 18 = 42, 1496
     * (24 c512 host; 42 + 20, 1496 + 120 dev); RX as mlx5 */
    {"mlx5-cx4", {179, 1733}, {137.8125, 185.8125}, {7.28125, 7.28125}, {174.375, 1748.375}, 116.0 / 64, 1},
    /* mlx5-xdp: TX doorbell per 64: 0.5; 64 B: inline segment 64, (960 - 32) / 64 = 14 per WQE of
     * 928 B (48/14 host; 512 + 416: cpl 2 + 7, 1108/14 dev), no data read, CQE 88/14; 1518 B: 58
     * 16 B pointers, 960 B WQE (48/58; 512 + 448: cpl 2 + 7, 1140/58), data (72, 1634), CQE 88/58
     * | RX: 4096 B strides, 64 per WQE: doorbell 32/64, WQE (24/64, 52/64), UMR (48/64, 720/64),
     * data, CQE 88; interrupts as mlx5 */
    {"mlx5-xdp",
     {1.5 + 1108.0 / 14, 1635.5 + 1140.0 / 58},
     {136.0 / 14 + 116.0 / 64, 72 + 136.0 / 58 + 116.0 / 64},
     {13.5625, 13.5625},
     {174.9375, 1748.9375},
     116.0 / 64,
     1},
    /* dpdk-mlx5: TX doorbell 32/32; eMPW closed per burst of 32: 32 + 32 x 16 = 544 B (48/32,
     * 604/32; 512 + 32: cpl 2 + 1); CQE 88/32; no interrupts | RX cyclic 8 x 16 = 128 B (3; cpl 2:
     * 21); compressed CQEs: a session of 7 writes 1 + ceil(6/8) = 2 entries of 64 B: 176/7 */
    {"dpdk-mlx5", {99.875, 1653.875}, {28.25, 76.25}, {21, 21}, {87 + 176.0 / 7, 1661 + 176.0 / 7}, 0, 0},
    /* dpdk-i40e: TX doorbell 28/32; fetch 4 x 16 (6, 21); RS every 32: one 16 B write-back 40/32
     * | RX tail 28/32; fetch 2 x 32 (12, 42); 32 B write-back 56 */
    {"dpdk-i40e", {101.875, 1655.875}, {31.25, 79.25}, {42.875, 42.875}, {152, 1726}, 0, 0},
    {"dpdk-ice", {101.875, 1655.875}, {31.25, 79.25}, {42.875, 42.875}, {152, 1726}, 0, 0},
    /* dpdk-ixgbe: TX doorbell 28/32; fetch 32 x 16 (24/32, 552/32); RS every 32: 40/32 | RX tail
     * 28/32; fetch 1 (24, 36); write-back 40 */
    {"dpdk-ixgbe", {98.125, 1652.125}, {26, 74}, {36.875, 36.875}, {148, 1722}, 0, 0},
    /* ice: TX doorbell 28; fetch 4 x 16 (6, 21); RS per packet: 40; MSI 28/64 | RX tail 28/16;
     * fetch 2 x 32 (12, 42); write-back 56; MSI 28/64 */
    {"ice", {129, 1683}, {70.4375, 118.4375}, {43.75, 43.75}, {152.4375, 1726.4375}, 28.0 / 64, 0},
    /* r8169: TX TxPoll 1 B: 25; descriptor (24, 36); 8 B write-back 32; per 64: MSI 28, IntrStatus
     * read (24 dev, 4 + 20 host), three 1 B mask/ack writes 75 dev | RX: no tail; FCS DMA'd (64,
     * 1518 B: 88, 1662 host); write-back 32 */
    {"r8169",
     {141 + 99.0 / 64, 1695 + 99.0 / 64},
     {80.8125, 128.8125},
     {36 + 99.0 / 64, 36 + 99.0 / 64},
     {144.8125, 1718.8125},
     52.0 / 64,
     99.0 / 64},
    /* atl1c: TX producer 2 B: 26; TPD (24, 36); no write-back; consumer-index read per 64 (24 dev,
     * 22 host); per 64: MSI 28, ISR read (24, 22), two 2 B writes 52 | RX RFD producer 26/64; 8 B
     * RFD (24, 28); FCS DMA'd (88, 1662); 16 B RRD 40 */
    {"atl1c",
     {142 + 100.0 / 64, 1696 + 100.0 / 64},
     {49.125, 97.125},
     {28 + 102.0 / 64, 28 + 102.0 / 64},
     {152.78125, 1726.78125},
     50.0 / 64,
     76.0 / 64},
    /* bnxt: TX doorbell 28; long BD 32 B (24, 52); tx_cmp 16 B: 40; per 64: MSI 28 + NQ entry 40,
     * one re-arm 28 | RX doorbell 28/64; rx_bd (24, 36); rx_cmp + ext 32 B: 56 */
    {"bnxt",
     {160.4375, 1714.4375},
     {89.0625, 137.0625},
     {36.875, 36.875},
     {165.0625, 1739.0625},
     68.0 / 64,
     28.0 / 64},
    /* virtio-net: data + 12 B virtio_net_hdr (D = 72, 1526; cpl(D) = 2 (two 64 B blocks), 6;
     * ceil(D/512) = 1, 3);
     * TX notify 2 B: 26, desc (24, 36), used elem 8 B: 32, MSI 28/64 | RX notify 26/64, desc, used 32 */
    {"virtio-net", {174, 1708}, {80.4375, 128.4375}, {36.40625, 36.40625}, {152.4375, 1726.4375}, 0, 0},
    /* nfp6000-pciebench: simple's rings (its device limits do not change bytes) */
    {"nfp6000-pciebench", {168, 1722}, {100, 148}, {88, 88}, {200, 1774}, 0, 0},
};

Test(profiles, bytes_per_packet)
{
	struct pcibw_bus b = parse_bus("gen3x8,mps=256,mrrs=512");
	static const double frame[2] = {64, 1518};
	for (unsigned k = 0; k < sizeof ex / sizeof ex[0]; k++) {
		struct pcibw_nic n = load_nic(ex[k].nic);
		for (int i = 0; i < 2; i++) {
			struct pcibw_model_row t = eval(&b, &n, PCIBW_PAT_TX, PCIBW_SIZE_FRAME, 0, frame[i]);
			struct pcibw_model_row r = eval(&b, &n, PCIBW_PAT_RX, PCIBW_SIZE_FRAME, 0, frame[i]);
			cr_expect_float_eq(t.to_device_bytes, ex[k].tx_dev[i], 1e-9,
					   "%s tx %g: to-device %.4f, hand %.4f", ex[k].nic, frame[i],
					   t.to_device_bytes, ex[k].tx_dev[i]);
			cr_expect_float_eq(t.to_host_bytes, ex[k].tx_host[i], 1e-9,
					   "%s tx %g: to-host %.4f, hand %.4f", ex[k].nic, frame[i],
					   t.to_host_bytes, ex[k].tx_host[i]);
			cr_expect_float_eq(r.to_device_bytes, ex[k].rx_dev[i], 1e-9,
					   "%s rx %g: to-device %.4f, hand %.4f", ex[k].nic, frame[i],
					   r.to_device_bytes, ex[k].rx_dev[i]);
			cr_expect_float_eq(r.to_host_bytes, ex[k].rx_host[i], 1e-9,
					   "%s rx %g: to-host %.4f, hand %.4f", ex[k].nic, frame[i],
					   r.to_host_bytes, ex[k].rx_host[i]);
			/* both = the two paths added, per direction (PCIe: one budget each way) */
			struct pcibw_model_row bo =
			    eval(&b, &n, PCIBW_PAT_BOTH, PCIBW_SIZE_FRAME, 0, frame[i]);
			cr_expect_float_eq(bo.to_host_bytes,
					   ex[k].tx_host[i] + ex[k].rx_host[i] - ex[k].shared_irq, 1e-9,
					   "%s both", ex[k].nic);
			cr_expect_float_eq(bo.to_device_bytes,
					   ex[k].tx_dev[i] + ex[k].rx_dev[i] - ex[k].shared_irq_dev, 1e-9,
					   "%s both", ex[k].nic);
		}
	}
}

/* Every bundled profile has a hand check above (e1000 has D's, tests/model/test_pci*.c), and no
 * two profiles share every number: a renamed copy is not a profile. */
Test(profiles, all_checked_and_distinct)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/nic", pcibw_data_dir());
	DIR *d = opendir(dir);
	cr_assert(d, "%s", dir);
	struct dirent *e;
	struct pcibw_nic *all = calloc(64, sizeof *all);
	int n = 0;
	cr_assert(all);
	while ((e = readdir(d)) && n < 64) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".ini"))
			continue;
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)l - 4, e->d_name);
		all[n++] = load_nic(name);
		bool checked = !strcmp(name, "e1000");
		for (unsigned k = 0; k < sizeof ex / sizeof ex[0]; k++)
			checked = checked || !strcmp(ex[k].nic, name);
		cr_expect(checked, "profile %s has no hand-computed bytes-per-packet check", name);
	}
	closedir(d);
	cr_assert_geq(n, 9, "the contract's nine profiles");
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			static struct pcibw_nic a, b;
			a = all[i], b = all[j];
			/* compare everything but the names and texts */
			memset(a.name, 0, sizeof a.name), memset(b.name, 0, sizeof b.name);
			memset(a.description, 0, sizeof a.description),
			    memset(b.description, 0, sizeof b.description);
			memset(a.source, 0, sizeof a.source), memset(b.source, 0, sizeof b.source);
			memset(a.match, 0, sizeof a.match), memset(b.match, 0, sizeof b.match);
			cr_expect(memcmp(&a, &b, sizeof a), "%s and %s are the same profile", all[i].name,
				  all[j].name);
		}
	free(all);
}

/* The profile by vendor:device (each profile's `match` list, with its cited driver id tables). */
Test(profiles, by_ids)
{
	char buf[64];
	cr_assert_str_eq(pcibw_nic_for_ids(0x8086, 0x10fb, NULL, buf, sizeof buf), "kernel-82599");
	cr_assert_str_eq(pcibw_nic_for_ids(0x8086, 0x1521, NULL, buf, sizeof buf), "igb");
	cr_assert_str_eq(pcibw_nic_for_ids(0x8086, 0x1563, NULL, buf, sizeof buf), "ixgbe");
	cr_assert_str_eq(pcibw_nic_for_ids(0x8086, 0x1583, NULL, buf, sizeof buf), "i40e");
	cr_assert_str_eq(pcibw_nic_for_ids(0x15b3, 0x1017, NULL, buf, sizeof buf), "mlx5");
	cr_assert_str_eq(pcibw_nic_for_ids(0x1af4, 0x1041, NULL, buf, sizeof buf), "virtio-net");
	cr_assert_null(pcibw_nic_for_ids(0x1234, 0x5678, NULL, buf, sizeof buf));
}

/* Every vendor:device id any profile lists maps to exactly one default profile: no pair in two
 * profiles' match lists, and pcibw_nic_for_ids returns that profile for each (so the choice by id
 * is unambiguous). Profiles of user-space drivers (dpdk-*) and of modes (mlx5-xdp) list none. */
Test(profiles, ids_unique)
{
	char dir[4096], seen[16384] = " ";
	snprintf(dir, sizeof dir, "%s/nic", pcibw_data_dir());
	DIR *d = opendir(dir);
	cr_assert(d, "%s", dir);
	struct dirent *e;
	int ids = 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".ini"))
			continue;
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)l - 4, e->d_name);
		struct pcibw_nic n = load_nic(name);
		if (!strncmp(name, "dpdk", 4) || !strcmp(name, "mlx5-xdp"))
			cr_expect_str_empty(n.match, "%s is chosen by name or driver only", name);
		char *save = NULL;
		for (char *t = strtok_r(n.match, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			char key[16], buf[64];
			unsigned v, dv;
			snprintf(key, sizeof key, " %s ", t);
			cr_assert_null(strstr(seen, key), "%s listed twice (again in %s)", t, name);
			strncat(seen, t, sizeof seen - strlen(seen) - 2);
			strcat(seen, " ");
			cr_assert_eq(sscanf(t, "%4x:%4x", &v, &dv), 2);
			cr_expect_str_eq(pcibw_nic_for_ids((int)v, (int)dv, NULL, buf, sizeof buf), name,
					 "%s", t);
			ids++;
		}
	}
	closedir(d);
	cr_assert_gt(ids, 100);
}

/* A user-space driver gets the profile's DPDK sibling; the kernel driver, or none known, the
 * profile itself; a profile without a sibling stays itself. */
Test(profiles, dpdk_by_driver)
{
	char buf[64];
	cr_assert_str_eq(pcibw_nic_default_name(0x8086, 0x1583, "vfio-pci", NULL, buf, sizeof buf),
			 "dpdk-i40e");
	cr_assert_str_eq(pcibw_nic_default_name(0x8086, 0x1583, "uio_pci_generic", NULL, buf, sizeof buf),
			 "dpdk-i40e");
	cr_assert_str_eq(pcibw_nic_default_name(0x8086, 0x1583, "i40e", NULL, buf, sizeof buf), "i40e");
	cr_assert_str_eq(pcibw_nic_default_name(0x8086, 0x1583, NULL, NULL, buf, sizeof buf), "i40e");
	cr_assert_str_eq(pcibw_nic_default_name(0x15b3, 0x1017, "igb_uio", NULL, buf, sizeof buf),
			 "dpdk-mlx5");
	cr_assert_str_eq(pcibw_nic_default_name(0x8086, 0x10fb, "vfio-pci", NULL, buf, sizeof buf),
			 "dpdk-ixgbe");
	cr_assert_str_eq(pcibw_nic_default_name(0x8086, 0x1592, "vfio-pci", NULL, buf, sizeof buf),
			 "dpdk-ice");
	cr_assert_str_eq(pcibw_nic_default_name(0x8086, 0x1521, "vfio-pci", NULL, buf, sizeof buf), "igb");
	cr_assert_str_eq(pcibw_nic_default_name(0x10ec, 0x8168, NULL, NULL, buf, sizeof buf), "r8169");
	cr_assert_str_eq(pcibw_nic_default_name(0x1969, 0x1083, NULL, NULL, buf, sizeof buf), "atl1c");
	cr_assert_str_eq(pcibw_nic_default_name(0x14e4, 0x16d7, NULL, NULL, buf, sizeof buf), "bnxt");
	cr_assert_str_eq(pcibw_nic_default_name(0x15b3, 0x1015, NULL, NULL, buf, sizeof buf), "mlx5-cx4");
	cr_assert_null(pcibw_nic_default_name(0x1234, 0x5678, "vfio-pci", NULL, buf, sizeof buf));
}

static const char *write_tmp(const char *name, const char *body, size_t len)
{
	static char path[8][256];
	static int k;
	char *p = path[k++ % 8];
	snprintf(p, 256, "/tmp/pcibw-profiles-%d-%s", (int)getpid(), name);
	FILE *f = fopen(p, "wb");
	cr_assert(f, "%s: %s", p, strerror(errno));
	fwrite(body, 1, len, f);
	fclose(f);
	return p;
}

#define HDR "; synthetic: a profile that is wrong on purpose (tests/model/test_profiles.c)\n"
#define GOOD "[profile]\nname = x\nsource = s\n[tx]\ndesc_bytes = 16\n[rx]\ndesc_bytes = 16\n"

static void expect_bad_profile(const char *path, const char *want)
{
	struct pcibw_nic n;
	struct pcibw_err e = {0};
	cr_expect_eq(pcibw_nic_load_file(path, &n, &e), PCIBW_EINPUT, "%s accepted", path);
	cr_expect(strstr(e.msg, want), "%s: want '%s', got: %s", path, want, e.msg);
}

/* What inih alone would get wrong: a NUL inside a line drops the rest of the line ("name = x\0zzz"
 * read as "x"); /dev/zero never returns (inih keeps asking for lines); a directory reads as an
 * empty file at "line 0"; a line over inih's 200-byte buffer is split and its tail parsed as a
 * key of its own; an unclosed "[profile" blames the next line's key; an empty file says
 * ":0:1: missing". Expected: exit 3 naming file:line:column and the real fault. */
Test(profiles, not_a_text_profile, .timeout = 30)
{
	static const char nul[] = HDR "[profile]\nname = x\0zzz\nsource = s\n";
	char want[512];
	const char *p = write_tmp("synthetic-nul.ini", nul, sizeof nul - 1);
	snprintf(want, sizeof want, "%s:3:9: control byte 0x00", p);
	expect_bad_profile(p, want);
	expect_bad_profile("/dev/zero", "/dev/zero: is a device: expected a NIC profile");
	expect_bad_profile("/tmp", "/tmp: is a directory: expected a NIC profile");
	p = write_tmp("synthetic-empty.ini", "", 0);
	expect_bad_profile(p, "empty file");
	/* a FIFO nobody writes: read at once as empty (never a hang in open()), and said to be a
	 * pipe or FIFO with nothing written, as every reader says it (src/util/input.h) */
	char fifo[256];
	snprintf(fifo, sizeof fifo, "/tmp/pcibw-profiles-%d-fifo.ini", (int)getpid());
	unlink(fifo);
	cr_assert_eq(mkfifo(fifo, 0600), 0, "%s: %s", fifo, strerror(errno));
	snprintf(want, sizeof want,
		 "%s: empty pipe or FIFO (no writer, or nothing written): expected a NIC profile", fifo);
	expect_bad_profile(fifo, want);
	unlink(fifo);
	char longline[600];
	snprintf(longline, sizeof longline, HDR "[profile]\nsource = %0400d\n", 7);
	p = write_tmp("synthetic-long.ini", longline, strlen(longline));
	snprintf(want, sizeof want, "%s:3:", p);
	expect_bad_profile(p, want);
	expect_bad_profile(p, "line longer than");
	static const char unclosed[] = HDR "[profile\nname = x\n";
	p = write_tmp("synthetic-unclosed.ini", unclosed, sizeof unclosed - 1);
	snprintf(want, sizeof want, "%s:2:1: '[' without ']'", p);
	expect_bad_profile(p, want);
	static const char before[] = HDR "name = x\n";
	p = write_tmp("synthetic-nosection.ini", before, sizeof before - 1);
	expect_bad_profile(p, "'name' comes before any [section]");
	/* 2 MiB of comment lines: not a profile, and not read to the end */
	size_t big = 2u << 20;
	char *huge = malloc(big);
	cr_assert(huge);
	for (size_t i = 0; i < big; i += 2)
		huge[i] = ';', huge[i + 1] = '\n';
	p = write_tmp("synthetic-huge.ini", huge, big);
	free(huge);
	expect_bad_profile(p, "larger than 1 MiB");
}

/* max_dma_tps = 1e-300 (a typo for 1e+300? for 47.4e6?) would print a ceiling of 0.000 Mpps: the
 * limits are 0 (no limit) or 1000..1e10 transactions/s; read latency 0 or 1..1e6 ns. */
Test(profiles, device_limits_bounded)
{
	char body[512], want[600];
	snprintf(body, sizeof body, HDR GOOD "[device]\nmax_dma_tps = 1e-300\n");
	const char *p = write_tmp("synthetic-tps.ini", body, strlen(body));
	snprintf(want, sizeof want, "%s:10:15: max_dma_tps: expected 0 (no limit) or a number 1000..1e+10",
		 p);
	expect_bad_profile(p, want);
	snprintf(body, sizeof body,
		 HDR GOOD "[device]\nmax_dma_tps = 0\nread_latency_ns = 0.001\nread_tags = 4\n");
	p = write_tmp("synthetic-lat.ini", body, strlen(body));
	expect_bad_profile(p, "read_latency_ns: expected 0 (no limit) or a number 1..1e+06");
	/* the write engine's unit needs its time, and a command time needs the unit */
	snprintf(body, sizeof body, HDR GOOD "[device]\nwrite_unit_bytes = 128\n");
	p = write_tmp("synthetic-unit.ini", body, strlen(body));
	expect_bad_profile(p, "write_unit_bytes and write_unit_ns go together");
	snprintf(body, sizeof body, HDR GOOD "[device]\nwrite_cmd_ns = 4\n");
	p = write_tmp("synthetic-cmd.ini", body, strlen(body));
	expect_bad_profile(p, "write_unit_bytes and write_unit_ns go together");
	snprintf(body, sizeof body, HDR GOOD "[device]\nwrite_unit_bytes = 8192\nwrite_unit_ns = 17\n");
	p = write_tmp("synthetic-unit-big.ini", body, strlen(body));
	expect_bad_profile(p, "write_unit_bytes: expected an integer 0..4096");
	/* bursts are cut at aligned host addresses: a size that is not a power of 2 cannot be, and
	 * the key's own line and column say so */
	snprintf(body, sizeof body, HDR GOOD "[device]\nwrite_burst_bytes = 512\n");
	p = write_tmp("synthetic-burst.ini", body, strlen(body));
	expect_bad_profile(p, "write_burst_bytes and write_burst_gap_ns go together");
	static const char *const burst[] = {"384", "32", "8192", "-64"};
	for (int i = 0; i < 4; i++) {
		snprintf(body, sizeof body,
			 HDR GOOD "[device]\nwrite_burst_gap_ns = 4\nwrite_burst_bytes = %s\n", burst[i]);
		p = write_tmp("synthetic-burst-bad.ini", body, strlen(body));
		snprintf(want, sizeof want,
			 "%s:11:21: write_burst_bytes: expected 0 (no limit) or a power of 2 in 64..4096", p);
		expect_bad_profile(p, want);
	}
}

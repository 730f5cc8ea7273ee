/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interfaces behind one bottleneck hop, added up against it: replays of the synthetic-shared-*
 * and synthetic-sriov-vfs recordings (synthetic-gen.py; each meta header says what was edited),
 * and the hop the probe finds for devices of saved dumps and a real sysfs copy.
 *
 * Expected figures by hand. The simple profile (data/nic/simple.ini: 16 B descriptors and
 * write-backs, 4 B doorbell, MSI and head read, every step once per packet) receiving a frame
 * of L counted bytes (the kernel's, no FCS: what the NIC DMAs) puts on the device->host
 * direction of a PCIe link, with 64-bit addresses (MRd/MWr 24 B of header and framing, CplD
 * 20 B, doc/model.md after PCIe Base 5.0 sec. 2.2): the descriptor read request 24, the data
 * in ceil(L / MPS) MWr (L + 24 each), the write-back 16 + 24, the MSI 4 + 24 and the head read's
 * completion 4 + 20. The root complex moves the data in whole 64 B lines (the resource that
 * binds here), so L counts rounded up to 64. Host->device: doorbell 4 + 24, descriptor CplD
 * 16 + 20, head read MRd 24 = 88 B, whose Ack/UpdateFC DLLPs load the other direction by
 * 2 x 8 B per 203 x 8 B (gen3 x8 MPS 256: every 203 symbol times). The budget per direction:
 * 8 GT/s x 8 lanes x 128/130, less SKP ordered sets (16 per 372 x 16 + 16 symbols), times the
 * model's link efficiency 0.9475 (doc/model.md "Calibration").
 */
#include "pcibw/probe.h"
#include "src/watch/shared_hop.h"
#include "support.h"
#include "watch_lines.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUDGET_BYTES (8e9 * 8 * 128.0 / 130 * (1 - 16.0 / (372 * 16 + 16)) * 0.9475 / 8)

/* device->host bytes per received packet of L counted bytes, simple profile, MPS 256 */
static double rx_host_bytes(double L)
{
	double lines = ceil(L / 64) * 64;
	return 24 + lines + ceil(L / 256) * 24 + (16 + 24) + (4 + 24) + (4 + 20) + 88 * 2.0 / 203;
}

static struct lines replay(const char *rec, const char *const *ifaces)
{
	const char *args[12] = {"watch", "--replay", test_data(rec), "--json"};
	int n = 4;
	for (int i = 0; ifaces && ifaces[i]; i++)
		args[n++] = ifaces[i];
	args[n] = NULL;
	return watch_lines(rec, args);
}

static double num(json_t *o, const char *path)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", path);
	json_t *x = o;
	for (char *save = NULL, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
		x = json_object_get(x, k);
	return json_is_number(x) ? json_number_value(x) : NAN;
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static json_t *iface(json_t *iv, const char *name)
{
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(iv, "interfaces"), i, x)
	{
		if (!strcmp(str(x, "name"), name))
			return x;
	}
	cr_assert_fail("no interface %s", name);
	return NULL;
}

static json_t *only_group(json_t *line)
{
	json_t *a = json_object_get(line, "shared");
	cr_assert(json_is_array(a), "a shared array");
	cr_assert_eq(json_array_size(a), 1, "one group, not %zu", json_array_size(a));
	return json_array_get(a, 0);
}

static void members_are(json_t *g, const char *key, const char *const *names)
{
	json_t *a = json_object_get(g, key);
	size_t n = 0;
	while (names[n])
		n++;
	cr_assert_eq(json_array_size(a), n, "%s: %zu members", key, json_array_size(a));
	for (size_t i = 0; i < n; i++)
		cr_assert_str_eq(json_string_value(json_array_get(a, i)), names[i]);
}

Test(shared, two_nics_behind_one_uplink)
{
	/* each 1.9 Mpps of 1518 B frames (1514 counted): 46 % of its own gen3 x8 link, 92 % of the
	 * uplink they share, so the hop is io-bound (>= bus 0.85) and it, not either link, limits */
	struct lines L = replay("synthetic-shared-uplink", NULL);
	double own = 1.9e6 * rx_host_bytes(1514) / BUDGET_BYTES;
	for (int i = 0; i < L.n - 1; i++) {
		json_t *g = only_group(L.v[i]);
		cr_assert_str_eq(str(g, "hop"), "0000:00:02.0");
		cr_assert(json_is_false(json_object_get(g, "hop_inferred")));
		members_are(g, "interfaces", (const char *[]){"eth1", "eth2", NULL});
		members_are(g, "vfs", (const char *[]){NULL});
		cr_assert_float_eq(num(g, "rx.pps"), 3.8e6, 3.8e6 * 1e-5);
		cr_assert_float_eq(num(g, "rx.frame_bytes"), 1518, 1e-6);
		cr_assert_float_eq(num(g, "utilisation"), 2 * own, 2 * own * 1e-5, "%f vs %f",
				   num(g, "utilisation"), 2 * own);
		cr_assert_float_eq(num(g, "rx.ceiling_mpps"), BUDGET_BYTES / rx_host_bytes(1514) / 1e6, 1e-6);
		cr_assert_str_eq(str(g, "bound_by"), "root-complex");
		cr_assert_float_eq(num(iface(L.v[i], "eth1"), "rx.bus_utilisation"), own, own * 1e-5);
		cr_assert_float_eq(num(g, "own_utilisation_max"), own, own * 1e-5);
		cr_assert_str_eq(str(g, "verdict"), "io-bound");
		cr_assert(json_is_true(json_object_get(g, "limiting")));
		cr_assert(strstr(str(g, "note"), "not a NIC's own link"), "%s", str(g, "note"));
	}
	json_t *s = only_group(L.v[L.n - 1]);
	cr_assert_str_eq(str(s, "verdict"), "io-bound");
	cr_assert_float_eq(num(s, "peak_utilisation"), 2 * own, 2 * own * 1e-5);
	cr_assert_eq(num(s, "limiting_intervals"), L.n - 1);
	lines_free(&L);
}

Test(shared, a_mix_of_frame_sizes_adds_per_packet_costs)
{
	/* 1.9 Mpps of 1518 B on eth1 and 16 Mpps of 64 B on eth2: each packet costs the hop at its
	 * own size, 0.459 + 0.440 = 0.899 of the uplink; the mean frame is the bytes summed */
	struct lines L = replay("synthetic-shared-mix", NULL);
	double a = 1.9e6 * rx_host_bytes(1514) / BUDGET_BYTES, b = 16e6 * rx_host_bytes(60) / BUDGET_BYTES;
	for (int i = 0; i < L.n - 1; i++) {
		json_t *g = only_group(L.v[i]);
		cr_assert_float_eq(num(g, "utilisation"), a + b, (a + b) * 1e-5, "%f vs %f",
				   num(g, "utilisation"), a + b);
		cr_assert_float_eq(num(g, "rx.pps"), 17.9e6, 17.9e6 * 1e-5);
		double mean = (1.9e6 * 1514 + 16e6 * 60) / 17.9e6 + 4;
		cr_assert_float_eq(num(g, "rx.frame_bytes"), mean, mean * 1e-5);
		cr_assert_str_eq(str(g, "verdict"), "io-bound");
		cr_assert_float_eq(num(iface(L.v[i], "eth2"), "rx.bus_utilisation"), b, b * 1e-5);
	}
	lines_free(&L);
}

Test(shared, vfs_count_against_their_pf_link_when_the_pf_is_not_watched)
{
	struct lines L = replay("synthetic-sriov-vfs", (const char *[]){"eth3", "eth4", NULL});
	double own = 1.9e6 * rx_host_bytes(1514) / BUDGET_BYTES;
	for (int i = 0; i < L.n; i++) {
		json_t *g = only_group(L.v[i]);
		cr_assert_str_eq(str(g, "hop"), "0000:81:00.0");
		cr_assert_str_eq(str(g, "pf"), "0000:81:00.0");
		cr_assert(json_is_false(json_object_get(g, "pf_watched")));
		members_are(g, "vfs", (const char *[]){"eth3", "eth4", NULL});
		cr_assert(strstr(str(g, "vf_note"), "its own traffic"), "%s", str(g, "vf_note"));
		if (i < L.n - 1)
			cr_assert_float_eq(num(g, "utilisation"), 2 * own, 2 * own * 1e-5);
	}
	lines_free(&L);
}

Test(shared, vfs_are_grouped_with_their_watched_pf)
{
	/* 1.9 + 1.9 + 0.3 Mpps of 1518 B on the PF's gen3 x8 link: 0.990 of it */
	struct lines L = replay("synthetic-sriov-vfs", NULL);
	double all = 4.1e6 * rx_host_bytes(1514) / BUDGET_BYTES;
	for (int i = 0; i < L.n - 1; i++) {
		json_t *g = only_group(L.v[i]);
		members_are(g, "interfaces", (const char *[]){"eth3", "eth4", "eth5", NULL});
		members_are(g, "vfs", (const char *[]){"eth3", "eth4", NULL});
		cr_assert(json_is_true(json_object_get(g, "pf_watched")));
		cr_assert_float_eq(num(g, "utilisation"), all, all * 1e-5);
		cr_assert_str_eq(str(g, "verdict"), "io-bound");
	}
	lines_free(&L);
}

Test(shared, two_ports_on_one_pci_segment_slow_each_other)
{
	/* The 82546EB's two functions on one PCI 33/32 segment, each receiving 30,000 pps of
	 * 1518 B frames (e1000 profile). Alone a packet holds the bus 451 clocks (73,910 pps); with
	 * two masters every transaction arbitrates and the latency timer (64) ends bursts at 240 B:
	 * 491 clocks (the arithmetic of tests/model/test_pci_model.c two_devices_slow_each_other,
	 * PCI LB 3.0 sec. 3.4, 3.5.4), so the segment is 2 x 30,000 x 491 x 30 ns = 88 % busy while
	 * each port alone would be 30,000 / 73,910 = 41 % of it: io-bound at the segment. */
	struct lines L = replay("synthetic-shared-pci", NULL);
	double shared = 2 * 30000 * 491 * 30e-9, own = 30000 / (100e6 / 3 / 451);
	for (int i = 0; i < L.n - 1; i++) {
		json_t *g = only_group(L.v[i]);
		cr_assert_str_eq(str(g, "hop"), "0000:00");
		cr_assert(json_is_true(json_object_get(g, "segment")));
		cr_assert_float_eq(num(g, "utilisation"), shared, shared * 1e-4, "%f vs %f",
				   num(g, "utilisation"), shared);
		cr_assert_float_eq(num(iface(L.v[i], "eth1"), "rx.bus_utilisation"), own, own * 1e-4);
		cr_assert_str_eq(str(g, "bound_by"), "shared");
		cr_assert_str_eq(str(g, "verdict"), "io-bound");
		cr_assert(json_is_true(json_object_get(g, "limiting")));
	}
	lines_free(&L);
}

Test(shared, an_older_recording_groups_ports_by_their_pcix_bus)
{
	/* no hop keys: functions 0 and 1 of 0000:02:01 on PCI-X are grouped by their bus number;
	 * the segment is one half-duplex budget, so sending adds to receiving there: the hop is
	 * busier than both ports' receive alone */
	struct lines L = replay("synthetic-shared-pcix", NULL);
	for (int i = 0; i < L.n - 1; i++) {
		json_t *g = only_group(L.v[i]);
		cr_assert_str_eq(str(g, "hop"), "0000:02");
		cr_assert(json_is_true(json_object_get(g, "hop_inferred")));
		cr_assert(json_is_true(json_object_get(g, "segment")));
		cr_assert_float_eq(num(g, "rx.pps"), 2 * 81274, 2 * 81274 * 1e-4);
		cr_assert_float_eq(num(g, "tx.pps"), 2 * 81274, 2 * 81274 * 1e-4);
		cr_assert_gt(num(g, "utilisation"), num(g, "rx.utilisation") * 1.5);
		cr_assert_str_eq(str(g, "bound_by"), "shared");
	}
	/* the summary names the segment's bus whole: the recording's bus=pcix133/64 with the spec's
	 * defaults where config space gives none (mmrbc=512, splits=1, latency_timer=64) */
	json_t *sg = json_array_get(json_object_get(L.v[L.n - 1], "shared"), 0);
	const char *ev = json_string_value(json_array_get(json_object_get(sg, "evidence"), 0));
	cr_assert(ev && strstr(ev,
			       "the shared segment 0000:02 (pcix133/64,mmrbc=512,splits=1,latency_timer=64) "
			       "is "),
		  "%s", ev ? ev : "(no evidence)");
	cr_assert(!strstr(ev, " on 0000:02"), "the hop is named once: %s", ev);
	lines_free(&L);
}

/* The ceilings carry the model's band, as analyze rows do: each port's transmit row on PCI-X
 * 133/64 at 1518 B has the band `pcibw model` gives that bus (the recording's spec with the
 * defaults it names) for one e1000 sending, and each interval's tx object the same in Mpps. */
Test(shared, rows_and_intervals_carry_the_band)
{
	struct lines L = replay("synthetic-shared-pcix", NULL);
	json_t *m = NULL;
	struct run_result r = run_pcibw(
	    NULL, (const char *[]){"model", "--bus", "pcix133/64,mmrbc=512,splits=1,latency_timer=64",
				   "--nic", "e1000", "--pattern", "tx", "--sizes", "1518", "--json", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	m = json_loads(r.out, 0, NULL);
	cr_assert(m);
	json_t *mr = json_array_get(json_object_get(m, "rows"), 0);
	double lo = num(mr, "bus_gbps_low"), hi = num(mr, "bus_gbps_high");
	cr_assert_lt(lo, hi, "PCI-X 133/64 transmit has a band (prefetch, ADB)");
	json_t *rows = json_object_get(L.v[L.n - 1], "rows");
	size_t i;
	json_t *x;
	int seen = 0;
	json_array_foreach(rows, i, x)
	{
		/* the ports' rows (lo, the loopback, has no bus) */
		if (strcmp(str(x, "direction"), "tx") || strncmp(str(x, "iface"), "eth", 3))
			continue;
		seen++;
		cr_assert_float_eq(num(x, "bus_gbps_low"), lo, lo * 1e-9, "%s", str(x, "iface"));
		cr_assert_float_eq(num(x, "bus_gbps_high"), hi, hi * 1e-9, "%s", str(x, "iface"));
		cr_assert_leq(num(x, "bus_utilisation_low"), num(x, "bus_utilisation"));
		cr_assert_geq(num(x, "bus_utilisation_high"), num(x, "bus_utilisation"));
	}
	cr_assert_eq(seen, 2, "eth1 and eth2 send");
	json_t *tx = json_object_get(iface(L.v[L.n - 2], "eth1"), "tx");
	double mid = num(tx, "bus_mpps");
	cr_assert(isfinite(mid));
	cr_assert_float_eq(num(tx, "bus_mpps_low"), lo * 1e3 / (8 * 1518), mid * 1e-6);
	cr_assert_float_eq(num(tx, "bus_mpps_high"), hi * 1e3 / (8 * 1518), mid * 1e-6);
	json_decref(m);
	run_free(&r);
	lines_free(&L);
}

Test(shared, a_recording_without_a_shared_hop_has_none)
{
	struct lines L = replay("real-vm-lo-udp", NULL);
	for (int i = 0; i < L.n; i++)
		cr_assert_eq(json_array_size(json_object_get(L.v[i], "shared")), 0);
	lines_free(&L);
}

/* The hop the probe finds, as watch records it */
static void hop_of(const char *dump, const char *sysfs, const char *slot, char hop[32], char spec[128])
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/data/%s", getenv("PCIBW_SOURCE_ROOT"), dump ? dump : sysfs);
	struct pcibw_probe_opts po = {.slot_filter = slot};
	if (dump)
		po.dump_file = path;
	else
		po.sysfs_dir = path;
	struct pcibw_report rep = {0};
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_probe(&po, &rep, &e), 0, "%s", e.msg);
	cr_assert_eq(rep.n_devices, 1);
	struct pcibw_bus b;
	cr_assert_eq(pcibw_bus_from_device(&rep.devices[0], &b, &e), 0, "%s", e.msg);
	cr_assert(watch_hop_of_device(&rep.devices[0], &b, hop, spec, 128), "%s: a hop", slot);
	pcibw_report_free(&rep);
}

Test(shared, the_probe_names_one_hop_for_both_functions_of_a_dual_port_nic)
{
	/* synthetic-pcie-2x10g-behind-x4-gen2.lspci (its header): 03:00.0 and 03:00.1 on 5 GT/s x8
	 * links below a 5 GT/s x4 link from root port 00:01.0 (a tie with 01:00.0 goes to the root
	 * side); DevCtl MPS 256, MRRS 512 */
	char h0[32], h1[32], s0[128], s1[128];
	hop_of("synthetic-pcie-2x10g-behind-x4-gen2.lspci", NULL, "03:00.0", h0, s0);
	hop_of("synthetic-pcie-2x10g-behind-x4-gen2.lspci", NULL, "03:00.1", h1, s1);
	cr_assert_str_eq(h0, "0000:00:01.0");
	cr_assert_str_eq(h1, "0000:00:01.0");
	struct pcibw_bus b;
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_bus_parse(s0, &b, &e), 0, "%s: %s", s0, e.msg);
	cr_assert_float_eq(b.gts, 5.0, 1e-12);
	cr_assert_eq(b.lanes, 4);
	cr_assert_eq(b.mps_bytes, 256);
	cr_assert_eq(b.mrrs_bytes, 512);
	cr_assert_str_eq(s0, s1);
}

Test(shared, a_vf_reports_the_link_of_its_pf)
{
	/* synthetic-pcie-82576-vf.lspci: PF 01:00.0 and VF 01:10.0 at 2.5 GT/s x4 below a root
	 * port whose link reads faster: each function's own link is the narrowest hop, and the
	 * VF's is the PF's (its LnkSta mirrors it), so a VF's hop on the PF's link has the PF's
	 * bus; a dump shows no physfn, so the VF keeps its own slot there */
	char h0[32], h1[32], s0[128], s1[128];
	hop_of("synthetic-pcie-82576-vf.lspci", NULL, "01:00.0", h0, s0);
	hop_of("synthetic-pcie-82576-vf.lspci", NULL, "01:10.0", h1, s1);
	cr_assert_str_eq(h0, "0000:01:00.0");
	cr_assert_str_eq(h1, "0000:01:10.0");
	cr_assert_str_eq(s1, s0);
	struct pcibw_bus b;
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_bus_parse(s0, &b, &e), 0, "%s: %s", s0, e.msg);
	cr_assert_float_eq(b.gts, 2.5, 1e-12);
	cr_assert_eq(b.lanes, 4);
}

Test(shared, the_two_ports_of_an_82546_share_their_pci_segment)
{
	/* lkml-2006-via-pm133-82546eb-conventional-pci.lspci (real): 00:12.0 and 00:12.1 on the
	 * root bus, conventional PCI 33 MHz: no bridge above, so each function's segment is its
	 * bottleneck (the key watch groups them by is the bus number) */
	char h0[32], h1[32], s0[128], s1[128];
	hop_of("lkml-2006-via-pm133-82546eb-conventional-pci.lspci", NULL, "00:12.0", h0, s0);
	hop_of("lkml-2006-via-pm133-82546eb-conventional-pci.lspci", NULL, "00:12.1", h1, s1);
	cr_assert_str_eq(h0, "0000:00:12.0");
	cr_assert_str_eq(h1, "0000:00:12.1");
	cr_assert_str_eq(s1, s0);
	cr_assert(!strncmp(s0, "pci33/32", 8), "%s", s0);
}

Test(shared, the_ports_of_an_on_package_mac_share_the_chipset_uplink)
{
	/* sysfs/skx-2s-cx4-x722 (real, hwloc's gather): the X722 ports 0000:60:00.0 and .1
	 * (8086:37d2) read 2.5 GT/s x1, an on-package link; their traffic leaves through the
	 * chipset's uplink, the root-most hop 0000:5d:02.0 at 8 GT/s x8 (its current_link_*) */
	char h0[32], h1[32], s0[128], s1[128];
	hop_of(NULL, "sysfs/skx-2s-cx4-x722", "60:00.0", h0, s0);
	hop_of(NULL, "sysfs/skx-2s-cx4-x722", "60:00.1", h1, s1);
	cr_assert_str_eq(h0, "0000:5d:02.0");
	cr_assert_str_eq(h1, h0);
	struct pcibw_bus b;
	struct pcibw_err e = {0};
	cr_assert_eq(pcibw_bus_parse(s0, &b, &e), 0, "%s: %s", s0, e.msg);
	cr_assert_float_eq(b.gts, 8.0, 1e-12);
	cr_assert_eq(b.lanes, 8);
}

Test(shared, a_bad_hop_bus_in_a_recording_is_refused)
{
	char dir[] = "/tmp/pcibw-shared-XXXXXX";
	cr_assert(mkdtemp(dir));
	char cmd[9000];
	snprintf(
	    cmd, sizeof cmd,
	    "cp %s/samples %s/ && sed 's/hop_bus=gen3x8,mps=256,mrrs=512/hop_bus=gen3x3/' %s/meta > %s/meta",
	    test_data("synthetic-shared-uplink"), dir, test_data("synthetic-shared-uplink"), dir);
	cr_assert_eq(system(cmd), 0);
	const char *args[] = {"watch", "--replay", dir, "--count=1", NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "/meta:") && strstr(r.err, "hop_bus 'gen3x3'"), "%s", r.err);
	run_free(&r);
	snprintf(cmd, sizeof cmd, "rm -r %s", dir);
	cr_assert_eq(system(cmd), 0);
}

Test(shared, text_gives_a_hop_line_per_interval_and_its_note_once)
{
	const char *args[] = {"watch", "--replay", test_data("synthetic-shared-uplink"), NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	int hop_lines = 0, notes = 0;
	char *flat = squash_space(r.out); /* a note is wrapped at 100 columns */
	cr_assert(strstr(flat, "! hop1:") && strstr(strstr(flat, "! hop1:"), "not a NIC's own link"), "%s",
		  flat);
	free(flat);
	for (char *save = NULL, *l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		cr_assert_leq(strlen(l), 100, "%zu columns: %s", strlen(l), l);
		double t;
		char name[16], verdict[32];
		/* time, hop1, rx and tx pps, Gb/s, B, wire, bus, "by RESOURCE", verdict */
		if (sscanf(l, "%lf %15s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %31s", &t, name, verdict) ==
			3 &&
		    !strcmp(name, "hop1")) {
			hop_lines++;
			cr_assert_str_eq(verdict, "io-bound", "%s", l);
		}
		notes += strstr(l, "! hop1:") != NULL;
	}
	cr_assert_eq(hop_lines, 6, "one hop line per interval (6 intervals): %d", hop_lines);
	cr_assert_eq(notes, 1, "the note when the hop starts to limit, once: %d", notes);
	run_free(&r);
}

Test(shared, a_shared_link_that_trains_down_is_costed_at_its_width_now)
{
	/* functions 0 and 1 of one NIC share its gen3 x8 link (the hop), 1 Mpps of 1518 B each:
	 * 2 x 10^6 x 1796.87 B / the x8 budget = 48 %; from sample 4 the link reads x4, half the
	 * lanes: twice that (within 0.1 %: the Ack/UpdateFC interval, under 0.05 % of the bytes
	 * here, is another at x4), 97 %, io-bound */
	struct lines L = replay("synthetic-shared-downshift", NULL);
	double x8 = 2e6 * rx_host_bytes(1514) / BUDGET_BYTES;
	for (int i = 0; i < L.n - 1; i++) {
		json_t *g = only_group(L.v[i]);
		cr_assert_str_eq(str(g, "hop"), "0000:03:00");
		double want = i < 3 ? x8 : 2 * x8;
		cr_assert_float_eq(num(g, "utilisation"), want, want * (i < 3 ? 1e-5 : 1e-3),
				   "interval %d: %f vs %f", i + 1, num(g, "utilisation"), want);
		cr_assert_str_eq(str(g, "verdict"), i < 3 ? "cpu-bound" : "io-bound", "interval %d", i + 1);
		if (i >= 3)
			cr_assert(strstr(str(g, "note"), "the link now reads 8 GT/s x4"), "%s",
				  str(g, "note"));
	}
	lines_free(&L);
}

Test(shared, the_csv_gives_each_hop_as_comment_lines_analyze_skips)
{
	/* synthetic-shared-uplink: eth1 and eth2 each 1.9 Mpps of 1518 B behind one gen3 x8 uplink.
	 * By hand (BUDGET_BYTES, rx_host_bytes above): 2 x 1.9e6 x rx_host_bytes(1514) / BUDGET_BYTES
	 * of the uplink, 91.7 %; io-bound (>= bus 0.85) and limiting, in each of the 6 intervals */
	char csv[128], script[1024];
	snprintf(csv, sizeof csv, "/tmp/pcibw-watch-shared-%d.csv", (int)getpid());
	snprintf(script, sizeof script, "\"$PCIBW_EXE\" watch --replay '%s' --format csv > %s",
		 test_data("synthetic-shared-uplink"), csv);
	struct run_result c = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);
	char *text = slurp(csv, NULL);
	cr_assert(text);
	double want = 2 * 1.9e6 * rx_host_bytes(1514) / BUDGET_BYTES;
	int lines = 0, summaries = 0;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		double t, pps, util;
		char verdict[32], limiting[8];
		if (sscanf(l,
			   "# shared: time_s=%lf hop=0000:00:02.0 hop_bus=gen3x8,mps=256,mrrs=512,rcb=64 "
			   "interfaces=eth1,eth2 rx_pps=%lf tx_pps=0.0 rx_frame_bytes=1518 utilisation=%lf "
			   "bound_by=root-complex verdict=%31s limiting=%7s",
			   &t, &pps, &util, verdict, limiting) == 5) {
			cr_assert_float_eq(pps, 3.8e6, 3.8e6 * 1e-5, "%s", l);
			cr_assert_float_eq(util, want, want * 1e-5, "%s", l);
			cr_assert_str_eq(verdict, "io-bound");
			cr_assert_str_eq(limiting, "yes");
			lines++;
		} else if (!strncmp(l, "# shared summary: hop=0000:00:02.0 ", 35)) {
			cr_assert(strstr(l, " interfaces=eth1,eth2 verdict=io-bound peak_utilisation=0.917"),
				  "%s", l);
			cr_assert(strstr(l, " limiting_intervals=6"), "%s", l);
			summaries++;
		} else {
			cr_assert(strncmp(l, "# shared", 8), "a shared line of another form: %s", l);
		}
	}
	cr_assert_eq(lines, 6, "a line per interval");
	cr_assert_eq(summaries, 1);
	free(text);
	/* analyze skips them: its rows are watch's per-interface rows, none skipped */
	struct run_result w =
	    run_pcibw(NULL, (const char *[]){"watch", "--replay", test_data("synthetic-shared-uplink"),
					     "--json", NULL});
	cr_assert_eq(w.status, 0, "%s", w.err);
	char *sum_line = NULL;
	for (char *save = NULL, *l = strtok_r(w.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		sum_line = l;
	json_error_t e;
	json_t *sum = json_loads(sum_line, 0, &e);
	cr_assert(sum, "%s", e.text);
	struct run_result a = run_pcibw(NULL, (const char *[]){"analyze", csv, "--json", NULL});
	cr_assert_eq(a.status, 0, "%s", a.err);
	json_t *an = json_loads(a.out, 0, &e);
	cr_assert(an, "%s", e.text);
	cr_assert_eq(json_array_size(json_object_get(an, "rows")),
		     json_array_size(json_object_get(sum, "rows")));
	cr_assert_eq(json_integer_value(json_object_get(an, "skipped_lines")), 0);
	cr_assert_str_eq(json_string_value(json_object_get(an, "verdict")),
			 json_string_value(json_object_get(sum, "verdict")));
	json_decref(sum);
	json_decref(an);
	run_free(&w);
	run_free(&a);
	unlink(csv);
}

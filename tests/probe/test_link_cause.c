/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why a link runs below its capability (`link_cause`), empty slots (`empty`) and the kernel's
 * AER counts (`aer`) in `pcibw report`. Expected values come from the registers as lspci -vv
 * decodes them (each dump's own text, or `lspci -F FILE -vv`, lspci 3.9.0, for the hex-only
 * ones) and the PCIe Base 5.0 definitions named in src/probe/link_cause.c; the synthetic inputs
 * say in their headers which fields they encode.
 */
#include "report_helpers.h"
#include <stdio.h>

static json_t *cause(json_t *d)
{
	json_t *c = json_object_get(d, "link_cause");
	cr_assert(json_is_object(c), "link_cause is not an object");
	return c;
}

static void cause_is(json_t *d, const char *code, const char *needle)
{
	json_t *c = cause(d);
	cr_assert_str_eq(str(c, "code"), code);
	if (needle)
		cr_assert(strstr(str(c, "evidence"), needle), "evidence lacks '%s': %s", needle,
			  str(c, "evidence"));
	cr_assert(strlen(str(c, "fix")) > 0);
}

/* pcie-rootport-5gt-x4-trained-2.5gt.lspci: "LnkCap: Port #1, Speed 5GT/s, Width x4", "LnkSta: Speed
 * 2.5GT/s, Width x4 ... BWMgmt+", "LnkCtl2: Target Link Speed: 2.5GT/s ... SpeedDis-"; the dump holds
 * the root port alone (its bus 01 is not in it). Target 2.5 < capability 5: target-capped (sec.
 * 7.5.3.19), the missing partner said, and LBMS explained as the retrain's. */
Test(link_cause, rootport_trained_below_by_its_target_speed)
{
	json_t *r = report_dump("pcie-rootport-5gt-x4-trained-2.5gt.lspci", "--all", NULL);
	json_t *d = device(r, "0000:00:01.0");
	cause_is(d, "target-capped", "Target Link Speed 2.5 GT/s");
	const char *ev = str(cause(d), "evidence");
	cr_assert(strstr(ev, "other end of the link is not in the source"), "%s", ev);
	cr_assert(strstr(ev, "Link Bandwidth Management Status set"), "%s", ev);
	cr_assert(strstr(str(cause(d), "fix"), "5 GT/s"));
	cr_assert(!boolean(d, "empty"));
	expect_null(d, "aer");
	json_decref(r);
}

/* tree-asus-p6t6-x58-rtl8111.lspci, per lspci -F -vv: 00:07.0 "LnkCap: Speed 5GT/s, Width x16",
 * "LnkSta: Speed 2.5GT/s, Width x16", below it 06:00.0 (GeForce 210) "LnkCap: Speed 2.5GT/s, Width
 * x16": partner-limited. 03:00.0 (NF200 downstream) "LnkCap: ... Width x16", "LnkSta: Speed 5GT/s,
 * Width x8", below it 04:00.0 (SAS2008) "LnkCap: Speed 5GT/s, Width x8": partner-limited. */
Test(link_cause, asus_p6t6_lower_ends_are_partners_not_faults)
{
	json_t *r = report_dump("tree-asus-p6t6-x58-rtl8111.lspci", "--all", NULL);
	cause_is(device(r, "0000:00:07.0"), "partner-limited",
		 "0000:06:00.0: Link Capabilities 2.5 GT/s x16");
	cause_is(device(r, "0000:03:00.0"), "partner-limited", "0000:04:00.0: Link Capabilities 5 GT/s x8");
	/* at capability: no cause */
	expect_null(device(r, "0000:06:00.0"), "link_cause");
	expect_null(device(r, "0000:00:03.0"), "link_cause");
	expect_null(device(r, "0000:04:00.0"), "link_cause");
	json_decref(r);
}

/* The same tree's empty ports: 00:01.0 "Root Port (Slot+)", "LnkCap: Speed 5GT/s, Width x4",
 * "LnkSta: Speed 2.5GT/s, Width x0", "Slot #1", "SltSta: ... PresDet-", nothing on bus 01; 00:1c.0
 * (ICH10, LnkCap 2.5GT/s x1, x0, PresDet-) and 03:02.0 (NF200, LnkCap 5GT/s x16, PresDet-, nothing
 * on bus 05). 00:1c.1 has PresDet+ and 08:00.0 below it: not empty. */
Test(link_cause, asus_p6t6_empty_ports_are_slots)
{
	json_t *r = report_dump("tree-asus-p6t6-x58-rtl8111.lspci", "--all", NULL);
	const char *empty[] = {"0000:00:01.0", "0000:00:1c.0", "0000:03:02.0"};
	for (int i = 0; i < 3; i++) {
		json_t *d = device(r, empty[i]);
		cr_assert(boolean(d, "empty"), "%s is empty", empty[i]);
		expect_null(d, "link_cause");
		cr_assert(noted(d, "slot-empty", NULL), "%s", empty[i]);
		cr_assert(!noted(d, "link-unknown", NULL), "%s: an empty slot is no unknown link", empty[i]);
	}
	cr_assert_eq(real(device(r, "0000:00:01.0"), "max_link_speed_gts"), 5.0);
	cr_assert_eq(integer(device(r, "0000:00:01.0"), "max_link_width"), 4);
	cr_assert(!boolean(device(r, "0000:00:1c.1"), "empty"));
	cr_assert(!boolean(device(r, "0000:00:07.0"), "empty"));
	json_decref(r);
	char *t = report_text("tree-asus-p6t6-x58-rtl8111.lspci", "00:01.0");
	cr_assert(strstr(t, "empty slot (no device, no link trained), capable of 5 GT/s x4"), "%s", t);
	cr_assert(!strstr(t, "bottleneck:  unknown"), "%s", t);
	free(t);
}

/* synthetic-pcie-link-causes.lspci: one cause per root port, from its header. */
Test(link_cause, synthetic_one_cause_each)
{
	json_t *r = report_dump("synthetic-pcie-link-causes.lspci", "--all", NULL);
	cause_is(device(r, "0000:00:01.0"), "autonomous-disabled", "Hardware Autonomous Speed Disable set");
	cause_is(device(r, "0000:01:00.0"), "autonomous-disabled", "0000:00:01.0 Link Control 2");
	cause_is(device(r, "0000:00:02.0"), "power-managed", "Link Autonomous Bandwidth Status set");
	cause_is(device(r, "0000:02:00.0"), "power-managed", NULL);
	json_t *d3 = device(r, "0000:00:03.0");
	cause_is(d3, "reliability", "Receiver Error, Bad DLLP");
	cr_assert(strstr(str(cause(d3), "evidence"), "Equalization 8.0 GT/s Complete clear"));
	cr_assert(strstr(str(cause(d3), "evidence"),
			 "Link Bandwidth Management Status set without a software cap"));
	cause_is(device(r, "0000:03:00.0"), "reliability", NULL);
	cause_is(device(r, "0000:00:04.0"), "lanes-lost", "x4 negotiated of the x8 both ends support");
	cause_is(device(r, "0000:04:00.0"), "lanes-lost", NULL);
	cause_is(device(r, "0000:00:05.0"), "target-capped", "Target Link Speed 5 GT/s");
	cause_is(device(r, "0000:05:00.0"), "target-capped", "below both ends' capability 8 GT/s");
	json_t *e = device(r, "0000:00:06.0");
	cr_assert(boolean(e, "empty"));
	cr_assert_eq(real(e, "max_link_speed_gts"), 8.0);
	cr_assert_eq(integer(e, "max_link_width"), 16);
	json_decref(r);
}

/* synthetic-pcie-downgraded.lspci: 00:1c.0 is a v1 root port (no Link Control 2); 01:00.0 runs
 * 2.5 GT/s x4 of the 5 GT/s x4 both ends support: nothing the source shows explains it (LnkSta
 * LBMS/LABS clear, no AER capability) -> unknown, saying what it lacks. 02:00.0 runs x1 of the x4
 * both support -> lanes-lost. */
Test(link_cause, unknown_says_what_the_source_lacks)
{
	json_t *r = report_dump("synthetic-pcie-downgraded.lspci", "--all", NULL);
	cause_is(device(r, "0000:01:00.0"), "unknown",
		 "the source does not show 0000:00:1c.0's Link Control 2");
	cause_is(device(r, "0000:02:00.0"), "lanes-lost", "x1 negotiated of the x4 both ends support");
	json_decref(r);
}

/* sysfs/synthetic-aer-nonroot (see its README.md): AER counts from aer_dev_*, reliability. */
Test(link_cause, sysfs_aer_counts_nonroot)
{
	const char *args[] = {"report", "--all", "--sysfs", test_data("sysfs/synthetic-aer-nonroot"), NULL};
	json_t *r = report_json(0, args);
	json_t *d = device(r, "0000:01:00.0");
	json_t *a = json_object_get(d, "aer");
	cr_assert(json_is_object(a));
	cr_assert_eq(integer(a, "correctable"), 15);
	cr_assert_eq(integer(a, "nonfatal"), 0);
	cr_assert_eq(integer(a, "fatal"), 0);
	cause_is(d, "reliability", "15 correctable");
	json_t *rp = device(r, "0000:00:1c.0");
	cr_assert_eq(integer(json_object_get(rp, "aer"), "correctable"), 0);
	cause_is(rp, "reliability", "0000:01:00.0: the kernel counted 15 correctable");
	cr_assert(warned(r, "a copy gathered as root would add", "Link Control 2 Target Link Speed"));
	json_decref(r);
}

/* sysfs/skx-2s-cx4-x722 (64-byte configs, sysfs link files): 60:00.0 X722 "2.5 GT/s" x1 of "8 GT/s"
 * x1, its port 5f:03.0 max_link_speed "2.5 GT/s": partner-limited from max_link_* alone. */
Test(link_cause, sysfs_partner_limited_without_root)
{
	const char *args[] = {"report", "--all",   "--sysfs", test_data("sysfs/skx-2s-cx4-x722"),
			      "-s",	"60:00.0", NULL};
	json_t *r = report_json(0, args);
	/* the capability came from sysfs max_link_*, and the evidence says so, not "Link Capabilities" */
	cause_is(device(r, "0000:60:00.0"), "partner-limited",
		 "0000:5f:03.0: sysfs max_link_speed/max_link_width 2.5 GT/s x1");
	cause_is(
	    device(r, "0000:60:00.0"), "partner-limited",
	    "sysfs current_link_speed/current_link_width 2.5 GT/s x1, sysfs max_link_speed/max_link_width "
	    "8 GT/s x1");
	json_decref(r);
}

/* Prometheus: one pcibw_link_cause series per cause, the AER counts as counters. */
Test(link_cause, prometheus_series)
{
	const char *a1[] = {"report",	  "--all",  "--format",
			    "prometheus", "--dump", test_data("pcie-rootport-5gt-x4-trained-2.5gt.lspci"),
			    NULL};
	struct run_result r = run_pcibw(NULL, a1);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "pcibw_link_cause{segment=\"0000\",bus=\"00\",device=\"01\",function=\"0\","
				"cause=\"target-capped\"} 1\n"),
		  "%s", r.out);
	run_free(&r);
	const char *a2[] = {"report",	  "--all",   "--format",
			    "prometheus", "--sysfs", test_data("sysfs/synthetic-aer-nonroot"),
			    NULL};
	r = run_pcibw(NULL, a2);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "# TYPE pcibw_aer_errors_total counter\n"), "%s", r.out);
	cr_assert(strstr(r.out,
			 "pcibw_aer_errors_total{segment=\"0000\",bus=\"01\",device=\"00\",function=\"0\","
			 "severity=\"correctable\"} 15\n"),
		  "%s", r.out);
	run_free(&r);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Link power states and payload limits in `pcibw report`. Expected values come from each dump's
 * own lspci -vv text (quoted per test), or for the hex-only dumps from `lspci -F FILE -vv` (lspci
 * 3.9.0) run on the same file; the synthetic inputs say in their headers which register fields
 * they encode and what follows.
 */
#include "report_helpers.h"
#include <stdio.h>

static void substates_are(json_t *d, const char *const *want, size_t n)
{
	json_t *a = json_object_get(d, "l1_substates");
	cr_assert(json_is_array(a), "l1_substates is not an array");
	cr_assert_eq(json_array_size(a), n);
	for (size_t i = 0; i < n; i++)
		cr_assert(str_is(json_array_get(a, i), want[i]), "l1_substates[%zu]", i);
}

/* pcie-intel-82576-x4-gen1.lspci (-xxxx): "DevCap: MaxPayload 512 bytes", "DevCtl: ... MaxPayload
 * 256 bytes", "LnkCap: ... ASPM L0s L1, Latency L0 <4us, L1 <64us / ClockPM-", "LnkCtl: ASPM L1
 * Enabled ... ClockPM-"; no L1 PM Substates capability in its 4096 bytes. No upstream port. */
Test(linkpm, intel_82576_against_its_lspci_text)
{
	json_t *r = report_dump("pcie-intel-82576-x4-gen1.lspci", NULL, NULL);
	json_t *d = device(r, "0000:01:00.0");
	cr_assert_str_eq(str(d, "aspm"), "l1");
	expect_null(d, "aspm_link");
	cr_assert_str_eq(str(d, "aspm_supported"), "l0s-l1");
	cr_assert_eq(integer(d, "l0s_exit_latency_ns"), 4000);
	cr_assert_eq(integer(d, "l1_exit_latency_ns"), 64000);
	cr_assert(!boolean(d, "clock_pm"));
	cr_assert_eq(integer(d, "mps_supported_bytes"), 512);
	cr_assert_eq(integer(d, "mps_bytes"), 256);
	substates_are(d, NULL, 0);
	cr_assert(noted(d, "aspm-on", NULL), "ASPM L1 on a NIC is flagged");
	cr_assert(warned(r, "0000:01:00.0: ASPM l1 is enabled", "upstream port is not in the source"));
	cr_assert(!noted(d, "mps-below-max", NULL), "no path in the source: the path's maximum is unknown");
	cr_assert_str_eq(prov(d, "aspm"), "config");
	json_decref(r);
}

/* tree-ich7-rtl8101e.lspci: 02:00.0 (AR928X, class 0x0280) "LnkCap: ... ASPM unknown, Latency L0
 * <512ns, L1 <64us" and "LnkCtl: ASPM L1 Enabled"; its port 00:1c.1 "LnkCtl: ASPM L1 Enabled".
 * The dump's old lspci calls ASPM Support code 2 "unknown" (PCIe 1.0 reserved it); lspci 3.9.0
 * reads the same bytes as "ASPM L1, Exit Latency L1 <64us". */
Test(linkpm, ich7_both_ends_enable_l1)
{
	json_t *r = report_dump("tree-ich7-rtl8101e.lspci", NULL, NULL);
	json_t *d = device(r, "0000:02:00.0");
	cr_assert_str_eq(str(d, "aspm"), "l1");
	cr_assert_str_eq(str(d, "aspm_link"), "l1");
	cr_assert_str_eq(str(d, "aspm_supported"), "l1");
	expect_null(d, "l0s_exit_latency_ns"); /* L0s not supported: lspci 3.9 prints none */
	cr_assert_eq(integer(d, "l1_exit_latency_ns"), 64000);
	cr_assert(noted(d, "aspm-on", NULL));
	/* 01:00.0 RTL8101E: "LnkCap: ... ASPM L0s L1, Latency L0 <512ns, L1 <64us / ClockPM+",
	 * "LnkCtl: ASPM Disabled ... ClockPM-", "DevCap: MaxPayload 256 bytes", DevCtl "MaxPayload 128
	 * bytes"; its port 00:1c.0 "DevCap: MaxPayload 128 bytes": 128 is the path's maximum. */
	json_t *e = device(r, "0000:01:00.0");
	cr_assert_str_eq(str(e, "aspm"), "off");
	cr_assert_str_eq(str(e, "aspm_link"), "off");
	cr_assert_str_eq(str(e, "aspm_supported"), "l0s-l1");
	cr_assert_eq(integer(e, "l0s_exit_latency_ns"), 512);
	cr_assert_eq(integer(e, "l1_exit_latency_ns"), 64000);
	cr_assert(!boolean(e, "clock_pm"), "LnkCap ClockPM+ is support; LnkCtl ClockPM- is the state");
	cr_assert_eq(integer(e, "mps_supported_bytes"), 256);
	json_t *hop = json_array_get(json_object_get(e, "path"), 0);
	cr_assert_eq(integer(hop, "mps_supported_bytes"), 128);
	cr_assert(!noted(e, "mps-below-max", NULL), "MPS 128 is the path's maximum");
	cr_assert(!noted(e, "aspm-on", NULL));
	json_decref(r);
}

/* pcie-connectx3pro-haswell-rootport.lspci: 03:00.0 "LnkCap: ... ASPM L0s, Exit Latency L0s
 * unlimited, L1 unlimited", "LnkCtl: ASPM Disabled"; root port 00:02.0 "DevCap: MaxPayload 256
 * bytes", "LnkCtl: ASPM Disabled". */
Test(linkpm, connectx3pro_open_ended_latency)
{
	json_t *r = report_dump("pcie-connectx3pro-haswell-rootport.lspci", NULL, NULL);
	json_t *d = device(r, "0000:03:00.0");
	cr_assert_str_eq(str(d, "aspm_supported"), "l0s");
	expect_null(d, "l0s_exit_latency_ns");
	expect_null(d, "l1_exit_latency_ns");
	cr_assert(noted(d, "exit-latency-open", NULL));
	cr_assert(warned(r, "0000:03:00.0: Link Capabilities", "L0s exit latency code 7 is open-ended"));
	/* text shows no exit latency: the warning says what the null means, and where it is */
	cr_assert(
	    warned(r, "0000:03:00.0: Link Capabilities",
		   "(more than 4 us, PCIe Base 6.0 sec. 7.5.3.6): pcibw gives no figure for it (--json: "
		   "l0s_exit_latency_ns null)"));
	cr_assert(!warned(r, "0000:03:00.0", "L1 exit latency"), "L1 is not supported: no warning");
	cr_assert_str_eq(str(d, "aspm_link"), "off");
	cr_assert_eq(integer(json_array_get(json_object_get(d, "path"), 0), "mps_supported_bytes"), 256);
	cr_assert_eq(integer(d, "mps_supported_bytes"), 256);
	cr_assert(!noted(d, "aspm-on", NULL));
	json_decref(r);
}

/* tree-fujitsu-p8010-88e8055.lspci (hex only; lspci 3.9.0 -F -vv): 04:00.0 88E8055 "LnkCap: ...
 * ASPM L0s L1, Exit Latency L0s <256ns, L1 unlimited", "LnkCtl: ASPM L0s Enabled ... ClockPM+";
 * its port 00:1c.0 "LnkCtl: ASPM L0s Enabled". */
Test(linkpm, fujitsu_l0s_link_and_clock_pm)
{
	json_t *r = report_dump("tree-fujitsu-p8010-88e8055.lspci", NULL, NULL);
	json_t *d = device(r, "0000:04:00.0");
	cr_assert_str_eq(str(d, "aspm"), "l0s");
	cr_assert_str_eq(str(d, "aspm_link"), "l0s");
	cr_assert_eq(integer(d, "l0s_exit_latency_ns"), 256);
	expect_null(d, "l1_exit_latency_ns");
	cr_assert(noted(d, "exit-latency-open", NULL), "L1 is supported with an open-ended latency");
	cr_assert(boolean(d, "clock_pm"));
	cr_assert(noted(d, "aspm-on", NULL));
	json_decref(r);
}

/* synthetic-pcie-mps-below-max.lspci: see its header. */
Test(linkpm, mps_below_both_maxima)
{
	json_t *r = report_dump("synthetic-pcie-mps-below-max.lspci", NULL, NULL);
	json_t *d = device(r, "0000:01:00.0");
	cr_assert_eq(integer(d, "mps_bytes"), 128);
	cr_assert_eq(integer(d, "mps_supported_bytes"), 512);
	cr_assert(noted(d, "mps-below-max", NULL));
	cr_assert(warned(r, "0000:01:00.0: MPS 128 bytes is below both", "could carry 512-byte payloads"));
	cr_assert_str_eq(str(d, "aspm_supported"), "none");
	expect_null(d, "l1_exit_latency_ns");
	cr_assert(!noted(d, "exit-latency-open", NULL), "no supported state: no latency warning");
	cr_assert_str_eq(str(d, "aspm_link"), "off");
	expect_null(d, "l1_substates"); /* 256 bytes: the extended capabilities are not in the source */
	json_t *e = device(r, "0000:02:00.0");
	cr_assert(!noted(e, "mps-below-max", NULL), "MPS 256 equals the path's 256");
	json_decref(r);
}

/* sysfs/synthetic-aspm-nonroot: see its README.md. */
Test(linkpm, sysfs_link_files_and_policy_without_root)
{
	const char *args[] = {"report", "--sysfs", test_data("sysfs/synthetic-aspm-nonroot"), NULL};
	json_t *r = report_json(0, args);
	cr_assert_str_eq(str(r, "aspm_policy"), "powersave");
	json_t *d = device(r, "0000:01:00.0");
	cr_assert_str_eq(str(d, "aspm_link"), "l1");
	expect_null(d, "aspm");
	expect_null(d, "aspm_supported");
	const char *ss[] = {"l1.1"};
	substates_are(d, ss, 1);
	cr_assert(boolean(d, "clock_pm"));
	cr_assert_str_eq(prov(d, "aspm_link"), "sysfs");
	cr_assert_str_eq(prov(d, "clock_pm"), "sysfs");
	cr_assert(noted(d, "aspm-on", NULL));
	cr_assert(warned(r, "ASPM l1 is enabled on this NIC's link", "(now powersave)"));
	json_decref(r);
}

/* text output: the power line as the JSON says it */
Test(linkpm, text_power_line)
{
	char *t = report_text("pcie-intel-82576-x4-gen1.lspci", "01:00.0");
	cr_assert(strstr(t, "payload:     MPS 256 of 512 supported"), "%s", t);
	cr_assert(strstr(t, "power:       ASPM l1 (link ?, supported l0s-l1, L0s exit <4us, L1 exit <64us), "
			    "L1 substates none, clock PM off"),
		  "%s", t);
	free(t);
}

/* A link/ file or the policy file holding what the kernel never writes is bad input naming it. */
static void bad_copy(const char *rel, const char *content, const char *want)
{
	char dir[] = "/tmp/pcibw-linkpm-XXXXXX";
	cr_assert(mkdtemp(dir));
	const char *cp[] = {"cp", "-a", test_data("sysfs/synthetic-aspm-nonroot/sys"), dir, NULL};
	struct run_result c = run_cmd(NULL, cp);
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	FILE *f = fopen(path, "w");
	cr_assert(f, "%s", path);
	fputs(content, f);
	fclose(f);
	const char *args[] = {"report", "--sysfs", dir, NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, want), "stderr: %s", r.err);
	run_free(&r);
	const char *rm[] = {"rm", "-rf", dir, NULL};
	c = run_cmd(NULL, rm);
	run_free(&c);
}

Test(linkpm, bad_sysfs_pm_files)
{
	bad_copy("sys/devices/pci0000:00/0000:00:1c.0/0000:01:00.0/link/l1_aspm", "2\n",
		 "0000:01:00.0/link/l1_aspm:1:1: expected 0 or 1");
	bad_copy("sys/module/pcie_aspm/parameters/policy", "default performance\n",
		 "parameters/policy:1:1: expected the policies with the one in force in brackets");
}

/* synthetic-pcie-l1pm-substates.lspci: see its header. lspci 3.9.0 -vv on the same file:
 * 00:1c.0 "L1SubCtl1: PCI-PM_L1.2+ PCI-PM_L1.1- ASPM_L1.2+ ASPM_L1.1-", 01:00.0 "L1SubCtl1:
 * PCI-PM_L1.2- PCI-PM_L1.1+ ASPM_L1.2- ASPM_L1.1+", 02:00.0 no L1 PM Substates capability. */
static void l1pm_substates_expected(json_t *r)
{
	const char *rp[] = {"l1.2", "pcipm-l1.2"}, *nic[] = {"l1.1", "pcipm-l1.1"};
	substates_are(device(r, "0000:00:1c.0"), rp, 2);
	substates_are(device(r, "0000:01:00.0"), nic, 2);
	substates_are(device(r, "0000:02:00.0"), NULL, 0);
	cr_assert_str_eq(prov(device(r, "0000:01:00.0"), "l1_substates"), "config");
}

Test(linkpm, l1pm_substates_down_the_extended_list)
{
	json_t *r = report_dump("synthetic-pcie-l1pm-substates.lspci", "--all", NULL);
	l1pm_substates_expected(r);
	json_decref(r);
}

/* The same bytes as 4096-byte sysfs config files (what the kernel shows root on a host with
 * extended config access): libpci's sysfs method reads them, extended space where it is used. */
Test(linkpm, l1pm_substates_from_sysfs_config_files)
{
	char root[] = "/tmp/pcibw-l1pm-XXXXXX";
	cr_assert(mkdtemp(root));
	char *dump = slurp(test_data("synthetic-pcie-l1pm-substates.lspci"), NULL);
	cr_assert(dump);
	FILE *f = NULL;
	char path[512];
	for (char *line = strtok(dump, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned off, b[16];
		char slot[16];
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%15[0-9a-f:.] ", slot) == 1 && strchr(slot, '.')) {
			if (f)
				fclose(f);
			snprintf(path, sizeof path, "%s/sys/bus/pci/devices/0000:%s", root, slot);
			struct run_result m = run_cmd(NULL, (const char *[]){"mkdir", "-p", path, NULL});
			cr_assert_eq(m.status, 0);
			run_free(&m);
			strcat(path, "/config");
			cr_assert((f = fopen(path, "wb")), "%s", path);
			continue;
		}
		if (sscanf(line, "%x: %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x", &off, &b[0], &b[1],
			   &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], &b[8], &b[9], &b[10], &b[11], &b[12],
			   &b[13], &b[14], &b[15]) == 17)
			for (int i = 0; i < 16; i++)
				fputc((int)b[i], f);
	}
	cr_assert(f);
	fclose(f);
	free(dump);
	snprintf(path, sizeof path, "%s/sys/bus/pci/devices/0000:01:00.0/config", root);
	size_t len = 0;
	free(slurp(path, &len));
	cr_assert_eq(len, 4096);
	snprintf(path, sizeof path, "%s/sys", root);
	const char *args[] = {"report", "--all", "--sysfs", path, NULL};
	json_t *r = report_json(0, args);
	l1pm_substates_expected(r);
	json_decref(r);
	struct run_result rm = run_cmd(NULL, (const char *[]){"rm", "-rf", root, NULL});
	run_free(&rm);
}

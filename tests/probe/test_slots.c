/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw slots on the bundled real trees. Expected values are the registers as `lspci -vv` decodes
 * them (PCI Express Capabilities "Root Port (Slot+)", SltCap "Slot #N", LnkCap, LnkSta) and the
 * spec's arithmetic (PCIe Base 5.0 sec. 4.2: 8b/10b at 2.5 and 5 GT/s), never pcibw's output.
 */
#include "pcibw/slots.h"
#include "report_helpers.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <string.h>

static json_t *slots_json(int want, const char *const *args)
{
	const char *argv[20] = {"slots", "--json"};
	int n = 2;
	while (args[n - 2] && n < 19) {
		argv[n] = args[n - 2];
		n++;
	}
	argv[n] = NULL;
	struct run_result r = run_pcibw(NULL, argv);
	cr_assert_eq(r.status, want, "exit %d (want %d); stderr: %s", r.status, want, r.err);
	json_t *j = NULL;
	if (!want) {
		json_error_t e;
		j = json_loads(r.out, 0, &e);
		cr_assert(j, "not JSON (%s): %.300s", e.text, r.out);
	}
	run_free(&r);
	return j;
}

static json_t *slot_at(json_t *root, const char *port)
{
	json_t *a = json_object_get(root, "slots"), *v;
	size_t i;
	json_array_foreach(a, i, v)
	{
		if (str_is(json_object_get(v, "port"), port))
			return v;
	}
	cr_assert_fail("no slot %s", port);
	return NULL;
}

static bool has_slot(json_t *root, const char *port)
{
	json_t *a = json_object_get(root, "slots"), *v;
	size_t i;
	json_array_foreach(a, i, v)
	{
		if (str_is(json_object_get(v, "port"), port))
			return true;
	}
	return false;
}

/* ASUS P6T6: lspci -vv shows Slot+ on 00:01.0 (#1, 5GT/s x4, LnkSta x0), 00:03.0 (#2, 5GT/s x16),
 * 00:07.0 (#5), 00:1c.0-2 (#0, 2.5GT/s x1), NF200 downstream ports 03:00.0 (#1) and 03:02.0 (#3);
 * 00:00.0 is "Root Port (Slot-)", 02:00.0 an Upstream Port, 00:1e.0 a PCI bridge. */
Test(slots, asus_p6t6_every_slot_port_and_only_those)
{
	json_t *j =
	    slots_json(0, (const char *[]){"--dump", test_data("tree-asus-p6t6-x58-rtl8111.lspci"), NULL});
	static const char *const ports[] = {"0000:00:01.0", "0000:00:03.0", "0000:00:07.0", "0000:00:1c.0",
					    "0000:00:1c.1", "0000:00:1c.2", "0000:03:00.0", "0000:03:02.0"};
	static const int psn[] = {1, 2, 5, 0, 0, 0, 1, 3};
	cr_assert_eq(json_array_size(json_object_get(j, "slots")), 8);
	for (int i = 0; i < 8; i++) {
		json_t *s = slot_at(j, ports[i]);
		cr_assert_eq(integer(s, "physical_slot"), psn[i], "%s", ports[i]);
		cr_assert(str_is(json_object_get(s, "name_from"), "sltcap"));
	}
	cr_assert_not(has_slot(j, "0000:00:00.0"));
	cr_assert_not(has_slot(j, "0000:02:00.0"));
	cr_assert_not(has_slot(j, "0000:00:1e.0"));
	/* the empty Gen2 x4 slot: LnkCap 5GT/s x4, 5 x 4 x 8/10 = 16 Gbit/s per direction */
	json_t *s1 = slot_at(j, "0000:00:01.0");
	cr_assert(boolean(s1, "empty"));
	cr_assert(json_is_null(json_object_get(s1, "occupant")));
	json_t *cap = json_object_get(s1, "capability");
	cr_assert_float_eq(real(cap, "speed_gts"), 5, 1e-9);
	cr_assert_eq(integer(cap, "width"), 4);
	cr_assert(str_is(json_object_get(cap, "from"), "config"));
	cr_assert_float_eq(real(s1, "path_gbps"), 16, 1e-9);
	/* what sits in slot 5: the GT218 at 06:00.0 with its audio function 06:00.1 */
	json_t *occ = json_object_get(slot_at(j, "0000:00:07.0"), "occupant");
	cr_assert(str_is(json_object_get(occ, "slot"), "0000:06:00.0"));
	cr_assert_eq(json_array_size(json_object_get(occ, "functions")), 2);
	/* slot 3 behind the NF200: it shares the switch's upstream link and root port 00:03.0 with
	 * slot 1 (03:00.0, the SAS2008) */
	json_t *s3 = slot_at(j, "0000:03:02.0");
	cr_assert(str_is(json_object_get(s3, "parent_slot"), "0000:00:03.0"));
	json_t *sh = json_object_get(s3, "shared_with");
	cr_assert_eq(json_array_size(sh), 2);
	cr_assert(str_is(json_object_get(json_array_get(sh, 0), "slot"), "0000:02:00.0"));
	cr_assert(str_is(json_array_get(json_object_get(json_array_get(sh, 0), "slots"), 0), "0000:03:00.0"));
	cr_assert(str_is(json_object_get(json_array_get(sh, 1), "slot"), "0000:00:03.0"));
	/* 5 GT/s x16 all the way up: 64 Gbit/s */
	cr_assert_float_eq(real(s3, "path_gbps"), 64, 1e-9);
	cr_assert(json_is_null(json_object_get(j, "card")));
	json_decref(j);
}

/* A 2 x 10G card: 2 x 10G x 1518/1538 = 19.74 Gbit/s of frames each way, more than the 16 Gbit/s
 * a Gen2 x4 slot carries at all and the 2 Gbit/s of a Gen1 x1 one, so neither reaches line rate
 * at 1518 B; the empty x16 Gen2 slot (64 Gbit/s) is the place, sharing the NF200's uplink. */
Test(slots, asus_p6t6_ranks_for_a_2x10g_card)
{
	json_t *j =
	    slots_json(0, (const char *[]){"--dump", test_data("tree-asus-p6t6-x58-rtl8111.lspci"), "--nic",
					   "ixgbe", "--line-rate", "10G", "--ports", "2", NULL});
	json_t *card = json_object_get(j, "card");
	cr_assert_eq(integer(card, "ports"), 2);
	cr_assert_float_eq(real(card, "line_rate_gbps"), 20, 1e-9);
	cr_assert(str_is(json_object_get(j, "best"), "0000:03:02.0"));
	json_t *first = json_array_get(json_object_get(j, "slots"), 0);
	cr_assert(str_is(json_object_get(first, "port"), "0000:03:02.0"));
	cr_assert_eq(integer(first, "rank"), 1);
	json_t *fit = json_object_get(first, "port_fit");
	cr_assert_geq(real(fit, "ratio_1518"), 1);
	cr_assert(!strncmp(str(fit, "bus_modelled"), "gen2x16,", 8), "%s", str(fit, "bus_modelled"));
	json_t *x4 = json_object_get(slot_at(j, "0000:00:01.0"), "port_fit");
	cr_assert_lt(real(x4, "ratio_1518"), 1);
	cr_assert_lt(real(x4, "ratio_64"), 1);
	for (const char *const *p =
		 (const char *const[]){"0000:00:1c.0", "0000:00:1c.1", "0000:00:1c.2", NULL};
	     *p; p++)
		cr_assert_lt(real(json_object_get(slot_at(j, *p), "port_fit"), "ratio_1518"), 0.2, "%s", *p);
	/* slot 2 holds the NF200 switch (a PCI-to-PCI bridge): its ports are the slots, no rank */
	cr_assert(json_is_null(json_object_get(slot_at(j, "0000:00:03.0"), "rank")));
	json_decref(j);
}

/* The root port trained to 2.5 GT/s: Slot #64, LnkCap 5GT/s x4, LnkSta 2.5GT/s x4 and
 * LnkCtl2 Target Link Speed 2.5GT/s (lspci -vv): its cause travels with the slot. */
Test(slots, trained_down_root_port_keeps_its_cause)
{
	json_t *j = slots_json(
	    0, (const char *[]){"--dump", test_data("pcie-rootport-5gt-x4-trained-2.5gt.lspci"), NULL});
	json_t *s = slot_at(j, "0000:00:01.0");
	cr_assert(str_is(json_object_get(s, "name"), "64"));
	cr_assert(str_is(json_object_get(s, "link_cause"), "target-capped"));
	cr_assert_float_eq(real(s, "link_speed_gts"), 2.5, 1e-9);
	cr_assert_float_eq(real(json_object_get(s, "capability"), "speed_gts"), 5, 1e-9);
	cr_assert_not(boolean(s, "empty"));
	json_decref(j);
}

/* skx-2s (non-root sysfs copy: no PCI Express Capabilities): the root ports sit on root buses, the
 * PLX 9797 downstream ports have no bridge below them; each ConnectX-4's slot shares the switch
 * uplink 18:00.0 and the root port 17:00.0 with the four Vector Engine slots (the copy's header). */
Test(slots, skx_plx_switch_ports_share_the_uplink)
{
	json_t *j = slots_json(0, (const char *[]){"--sysfs", test_data("sysfs/skx-2s-cx4-x722"), NULL});
	cr_assert_not(has_slot(j, "0000:18:00.0"));
	cr_assert_not(has_slot(j, "0000:5e:00.0"));
	json_t *cx4 = slot_at(j, "0000:19:04.0");
	cr_assert(json_is_null(json_object_get(cx4, "slot_implemented")));
	cr_assert(str_is(json_object_get(json_object_get(cx4, "occupant"), "slot"), "0000:1a:00.0"));
	json_t *sh = json_array_get(json_object_get(cx4, "shared_with"), 0);
	cr_assert(str_is(json_object_get(sh, "slot"), "0000:18:00.0"));
	cr_assert_eq(json_array_size(json_object_get(sh, "slots")), 4);
	cr_assert(str_is(json_object_get(json_object_get(cx4, "capability"), "from"), "sysfs"));
	/* max_link 8_GT/s/x16: 8 x 16 x 128/130 */
	cr_assert_float_eq(real(cx4, "path_gbps"), 8 * 16 * 128.0 / 130, 1e-6); /* JSON: 10 digits */
	cr_assert_eq(integer(cx4, "numa_node"), 0);
	json_decref(j);
}

/* The real dmidecode text (another machine of the platform): 18:00.1 and 3b:00.4 are no device of
 * the copy, so they name the ports whose secondary buses are 18 and 3b; d7 is no bus there. */
Test(slots, smbios_names_by_bus_number)
{
	json_t *j =
	    slots_json(0, (const char *[]){"--sysfs", test_data("sysfs/skx-2s-cx4-x722"), "--smbios",
					   test_data("smbios/truenas-pr14839-dmidecode-t9.txt"), NULL});
	cr_assert(str_is(json_object_get(slot_at(j, "0000:17:00.0"), "name"), "CPU1 Slot3 PCI-E 3.0 X8"));
	cr_assert(str_is(json_object_get(slot_at(j, "0000:17:00.0"), "name_from"), "smbios"));
	cr_assert(str_is(json_object_get(slot_at(j, "0000:3a:00.0"), "smbios_designation"),
			 "CPU1 Slot2 PCI-E 3.0 X16"));
	json_t *codes = json_object_get(j, "warning_codes"), *v;
	size_t i;
	int unmatched = 0;
	json_array_foreach(codes, i, v) unmatched += str_is(v, "smbios-unmatched");
	cr_assert_eq(unmatched, 1);
	json_decref(j);
}

Test(slots, smbios_reader_is_strict)
{
	struct pcibw_smbios s = {0};
	struct pcibw_err err;
	static const char good[] =
	    "# dmidecode 3.4\nGetting SMBIOS data from sysfs.\nSMBIOS 3.2.0 present.\n\n"
	    "Handle 0x0009, DMI type 9, 17 bytes\nSystem Slot Information\n\tDesignation: PCIEX16_1\n"
	    "\tType: x16 PCI Express\n\tCurrent Usage: Available\n\tID: 1\n\tCharacteristics:\n"
	    "\t\t3.3 V is provided\n\tBus Address: 0000:00:01.0\n";
	cr_assert_eq(pcibw_smbios_parse(good, sizeof good - 1, "t", &s, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(s.n, 1);
	cr_assert_str_eq(s.v[0].designation, "PCIEX16_1");
	cr_assert_eq(s.v[0].id, 1);
	cr_assert_not(s.v[0].in_use);
	cr_assert_eq(s.v[0].bus, 0);
	cr_assert_eq(s.v[0].dev, 1);
	pcibw_smbios_free(&s);
	static const char bad_addr[] = "Handle 0x0009, DMI type 9, 17 bytes\nSystem Slot Information\n"
				       "\tBus Address: 0000:00:1g.0\n";
	cr_assert_eq(pcibw_smbios_parse(bad_addr, sizeof bad_addr - 1, "t", &s, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "t:3:24: Bus Address"), "%s", err.msg);
	pcibw_smbios_free(&s);
	static const char other[] = "00:01.0 PCI bridge: Intel\n";
	cr_assert_eq(pcibw_smbios_parse(other, sizeof other - 1, "t", &s, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "t:1:1: expected dmidecode -t 9 text"), "%s", err.msg);
	pcibw_smbios_free(&s);
	/* through the command: exit 3 naming the file */
	const char *f = temp_file(other, ".txt");
	struct run_result r =
	    run_pcibw(NULL, (const char *[]){"slots", "--dump", test_data("tree-asus-p6t6-x58-rtl8111.lspci"),
					     "--smbios", f, NULL});
	cr_assert_eq(r.status, 3, "%s", r.err);
	cr_assert(strstr(r.err, ":1:1: expected dmidecode"), "%s", r.err);
	run_free(&r);
}

/* What a hostile or careless file holds: each refused at its line and column, never taken for a
 * table with no slots, a name cut short or the later of two values. */
static void smbios_refused(const char *text, const char *want)
{
	struct pcibw_smbios s = {0};
	struct pcibw_err err;
	cr_assert_eq(pcibw_smbios_parse(text, strlen(text), "t", &s, &err), PCIBW_EINPUT, "%s", want);
	cr_assert(strstr(err.msg, want), "want '%s', got '%s'", want, err.msg);
	pcibw_smbios_free(&s);
}

#define REC "Handle 0x0009, DMI type 9, 17 bytes\nSystem Slot Information\n"

Test(slots, smbios_reader_refuses_hostile_text)
{
	smbios_refused("", "t:1:1: empty file");
	smbios_refused("\n \n", "t:1:1: empty file");
	/* dmidecode 3.x run without root: its version and the /dev/mem scan on stdout, no table */
	smbios_refused("# dmidecode 3.4\nScanning /dev/mem for entry point.\n", "t:3:1: no SMBIOS table");
	/* ESC [ 3 1 m: column 19 is the ESC after "\tDesignation: PCIE" */
	smbios_refused(REC "\tDesignation: PCIE\x1b[31m\n", "t:3:19: Designation: a control byte");
	smbios_refused(REC "\tType: x16\x07\n", "t:3:11: Type: a control byte");
	char longer[256];
	snprintf(longer, sizeof longer, REC "\tDesignation: %064d\n", 0);
	/* the 64th byte of the value, at column 15 + 63 */
	smbios_refused(longer, "t:3:78: Designation: longer than the 63 bytes");
	smbios_refused(REC "\tDesignation: A\n\tDesignation: B\n",
		       "t:4:2: Designation given twice in one System Slot record (first on line 3)");
	smbios_refused(REC "\tBus Address: 0000:00:01.0\n\tBus Address: 0000:00:02.0\n",
		       "t:4:2: Bus Address given twice");
	smbios_refused(REC "\tID: 1\n\tID: 2\n", "t:4:2: ID given twice");
}

Test(slots, smbios_reader_takes_bom_crlf_and_63_bytes)
{
	struct pcibw_smbios s = {0};
	struct pcibw_err err;
	char text[512];
	snprintf(text, sizeof text,
		 "\xef\xbb\xbfSMBIOS 3.2.0 present.\r\n" REC "\tDesignation: %063d\r\n"
		 "\tBus Address: 0000:00:01.0\r\n" REC "\tDesignation: B\r\n",
		 0);
	cr_assert_eq(pcibw_smbios_parse(text, strlen(text), "t", &s, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(s.n, 2);
	cr_assert_eq(strlen(s.v[0].designation), 63);
	cr_assert_eq(s.v[0].dev, 1);
	/* a second record's keys are its own, not the first's given twice */
	cr_assert_str_eq(s.v[1].designation, "B");
	pcibw_smbios_free(&s);
}

Test(slots, card_options_come_together)
{
	const char *d = test_data("tree-asus-p6t6-x58-rtl8111.lspci");
	struct run_result r = run_pcibw(NULL, (const char *[]){"slots", "--dump", d, "--nic", "ixgbe", NULL});
	cr_assert_eq(r.status, 2, "%s", r.err);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"slots", "--dump", d, "--line-rate", "10G", NULL});
	cr_assert_eq(r.status, 2, "%s", r.err);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"slots", "--dump", d, "--nic", "ixgbe", "--line-rate", "2x10G",
					     "--ports", "2", NULL});
	cr_assert_eq(r.status, 2, "%s", r.err);
	run_free(&r);
	r = run_pcibw(NULL, (const char *[]){"slots", "--dump", d, "--format", "csv", NULL});
	cr_assert_eq(r.status, 2, "%s", r.err);
	run_free(&r);
	/* no PCIe port at all: the conventional-PCI nForce3 board */
	r = run_pcibw(NULL,
		      (const char *[]){"slots", "--dump",
				       test_data("lkml-2004-nforce3-rtl8169-conventional-pci.lspci"), NULL});
	cr_assert_eq(r.status, 4, "%s", r.err);
	run_free(&r);
	/* the text names the best slot */
	r = run_pcibw(NULL,
		      (const char *[]){"slots", "--dump", d, "--nic", "ixgbe", "--line-rate", "2x10G", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "Best: 0000:03:02.0 (slot 3) carries the ports at line rate"), "%s", r.out);
	run_free(&r);
}

/* An hwloc export holds no config space: the bridges of supermicro-x9drg (bridge_pci
 * 0000:[03-03], [04-04], [05-05] below host bridge 00, [81-82], [83-83], [84-84] below 80) stand
 * by the tree alone, of unknown kind and capability; 00:03.0 holds the Tesla M2075 (03:00.0). */
Test(slots, hwloc_export_bridges_by_the_tree)
{
	json_t *j = slots_json(
	    0, (const char *[]){"--topology", test_data("hwloc/supermicro-x9drg-i350-connectx4-wholeio.xml"),
				NULL});
	cr_assert_eq(json_array_size(json_object_get(j, "slots")), 6);
	json_t *s = slot_at(j, "0000:00:03.0");
	cr_assert(str_is(json_object_get(s, "bus_kind"), "unknown"));
	cr_assert(json_is_null(json_object_get(json_object_get(s, "capability"), "speed_gts")));
	cr_assert(str_is(json_object_get(json_object_get(s, "occupant"), "slot"), "0000:03:00.0"));
	cr_assert_not(has_slot(j, "0000:03:00.0"));
	json_decref(j);
}

/* sysfs/synthetic-slot-names (README): slots/3/address "0000:01:00" is the bus below root port
 * 00:1c.0, whose 64-byte config shows no Slot Capabilities: the OS's name stands. */
Test(slots, sysfs_slot_names_by_secondary_bus)
{
	json_t *j = slots_json(0, (const char *[]){"--sysfs", test_data("sysfs/synthetic-slot-names"), NULL});
	cr_assert_eq(json_array_size(json_object_get(j, "slots")), 1);
	json_t *s = slot_at(j, "0000:00:1c.0");
	cr_assert(str_is(json_object_get(s, "name"), "3"));
	cr_assert(str_is(json_object_get(s, "name_from"), "sysfs"));
	cr_assert(json_is_null(json_object_get(s, "physical_slot")));
	json_decref(j);
}

/* skx-2s: the only i40e function is the X722 inside the C620 chipset (8086:37d2), no card that
 * could move: a card of that profile is taken to train at each slot's capability, and the CX-4
 * slot 19:04.0 (max_link 8 GT/s x16) models it on gen3 x16 */
Test(slots, an_on_package_mac_is_no_card)
{
	json_t *j = slots_json(0, (const char *[]){"--sysfs", test_data("sysfs/skx-2s-cx4-x722"), "--nic",
						   "i40e", "--line-rate", "2x10G", NULL});
	cr_assert(json_is_null(json_object_get(json_object_get(j, "card"), "capability_from")));
	json_t *fit = json_object_get(slot_at(j, "0000:19:04.0"), "port_fit");
	cr_assert(!strncmp(str(fit, "bus_modelled"), "gen3x16,", 8), "%s", str(fit, "bus_modelled"));
	json_decref(j);
}

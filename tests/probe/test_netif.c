/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An interface no PCI device carries (loopback, veth, bridge, a device on another bus): `model -i`
 * and `report -i` say what it is, why there is no bus to model and what to do instead (exit 4, as
 * for any -i that matches nothing). Inputs: the saved copy sysfs/vm-netns-lo-veth-bridge (its
 * README gives each file's value, which the checks below quote), a copy of it with one interface
 * added on another bus, and this machine's own `lo` when it has one.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COPY "sysfs/vm-netns-lo-veth-bridge"

/* run pcibw CMD --sysfs COPY -i IFACE: exit 4, stderr holding every want[] */
static void expect_why(const char *cmd, const char *sysfs, const char *iface, const char *const *want)
{
	const char *args[] = {cmd, "--sysfs", sysfs, "-i", iface, NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 4, "%s -i %s: exit %d: %s", cmd, iface, r.status, r.err);
	cr_assert_str_empty(r.out, "%s", r.out);
	for (int i = 0; want[i]; i++)
		cr_assert(strstr(r.err, want[i]), "%s -i %s: no '%s' in: %s", cmd, iface, want[i], r.err);
	run_free(&r);
}

/* lo: flags 0x8 (IFF_LOOPBACK), type 772 (ARPHRD_LOOPBACK), no device link */
Test(netif, loopback)
{
	const char *want[] = {
	    "no device has interface lo in sysfs:",
	    "lo is the loopback interface (",
	    "/sys/class/net/lo: flags 0x8 has IFF_LOOPBACK, type 772 = ARPHRD_LOOPBACK)",
	    "cross no bus, so there is no bus to model",
	    "model a what-if instead with --bus and --nic (pcibw model --bus gen3x8 --nic ixgbe",
	    NULL};
	expect_why("model", test_data(COPY), "lo", want);
	expect_why("report", test_data(COPY), "lo", want);
	/* a copy is not this machine: watch (live only) is not offered for it */
	const char *args[] = {"model", "--sysfs", test_data(COPY), "-i", "lo", NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert(!strstr(r.err, "pcibw watch"), "%s", r.err);
	run_free(&r);
}

/* veth0: no device link, no DEVTYPE, iflink 2 = veth1's ifindex (its peer) */
Test(netif, veth_pair)
{
	const char *want[] = {"veth0 is a virtual interface (",
			      "/sys/class/net/veth0 has no device link: a software device with no PCI "
			      "function of its own)",
			      ", linked to veth1 (iflink 2: a veth pair's peer",
			      "so there is no bus to model",
			      "or the NIC its traffic leaves by with -i",
			      NULL};
	expect_why("model", test_data(COPY), "veth0", want);
}

/* br0: DEVTYPE=bridge, lower_veth1: the NIC below it is named as the -i to model */
Test(netif, bridge_names_its_port)
{
	const char *want[] = {"br0 is a virtual interface, a bridge by its uevent DEVTYPE (",
			      ", over veth1 (its lower_* links)",
			      "or a NIC below it with -i (pcibw model -i veth1)", NULL};
	expect_why("model", test_data(COPY), "br0", want);
}

Test(netif, no_such_interface)
{
	const char *want[] = {"/sys/class/net/eth9 does not exist: no interface of that name;", NULL};
	expect_why("model", test_data(COPY), "eth9", want);
	/* the copy's virtio NIC names none (its net/ is in another namespace); the KVM copy's names
	 * ens3 (sys/class/net/ens3 links to 0000:00:03.0/virtio0/net/ens3) */
	const char *none[] = {"(no PCI device there names an interface: select the device with -s SLOT)",
			      NULL};
	expect_why("model", test_data(COPY), "eth9", none);
	const char *ens3[] = {"no device has interface eth9 in sysfs:",
			      "kvm-virtio-pcidomain32 (the interfaces of its PCI devices: ens3): ", NULL};
	expect_why("model", test_data("sysfs/kvm-virtio-pcidomain32"), "eth9", ens3);
}

/* an lspci dump holds no interface names: -i can never match it, and the message says so */
Test(netif, dump_names_no_interface)
{
	const char *args[] = {"model", "--dump", test_data("pcie-intel-82576-x4-gen1.lspci"),
			      "-i",    "eth0",	 NULL};
	struct run_result r = run_pcibw(NULL, args);
	cr_assert_eq(r.status, 4, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "(an lspci dump holds config space only, no interface names: select the "
				"device with -s SLOT)"),
		  "%s", r.err);
	run_free(&r);
}

/* A device on another bus: the copy with usb0 added, its class/net link into a USB device whose
 * subsystem link is bus/usb (the layout Linux gives a USB NIC: net/core/net-sysfs.c links
 * `device` to the parent, drivers/base/core.c links `subsystem` to its bus). */
Test(netif, device_on_another_bus)
{
	char dir[] = "/tmp/pcibw-netif-XXXXXX";
	cr_assert(mkdtemp(dir));
	const char *cp[] = {"cp", "-a", test_data(COPY "/sys"), dir, NULL};
	struct run_result c = run_cmd(NULL, cp);
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);
	char p[640], q[640];
	snprintf(p, sizeof p, "%s/sys/devices/platform/usb1/1-1/net/usb0", dir);
	const char *mk[] = {"mkdir", "-p", p, NULL};
	c = run_cmd(NULL, mk);
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);
	snprintf(p, sizeof p, "%s/sys/bus/usb", dir);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/sys/devices/platform/usb1/1-1/subsystem", dir);
	cr_assert_eq(symlink("../../../../bus/usb", p), 0);
	snprintf(p, sizeof p, "%s/sys/devices/platform/usb1/1-1/net/usb0/device", dir);
	cr_assert_eq(symlink("../../../1-1", p), 0);
	snprintf(p, sizeof p, "%s/sys/class/net/usb0", dir);
	cr_assert_eq(symlink("../../devices/platform/usb1/1-1/net/usb0", p), 0);
	snprintf(q, sizeof q, "%s/sys/devices/platform/usb1/1-1/net/usb0/flags", dir);
	FILE *f = fopen(q, "w");
	cr_assert(f);
	fputs("0x1003\n", f); /* IFF_UP | IFF_BROADCAST | IFF_MULTICAST: no loopback bit */
	fclose(f);
	const char *want[] = {"usb0's device (",
			      "/devices/platform/usb1/1-1) is on the usb bus, not a PCI "
			      "function, so there is no PCI bus to model",
			      NULL};
	expect_why("model", dir, "usb0", want);
	const char *rm[] = {"rm", "-rf", dir, NULL};
	c = run_cmd(NULL, rm);
	run_free(&c);
}

/* This machine's lo, when it has one (a container without /sys/class/net/lo skips): the flags the
 * test reads there itself, and the advice to watch it (live only). */
Test(netif, live_loopback)
{
	FILE *f = fopen("/sys/class/net/lo/flags", "r");
	if (!f)
		cr_skip_test("no /sys/class/net/lo here");
	char flags[32] = "";
	cr_assert(fgets(flags, sizeof flags, f));
	fclose(f);
	flags[strcspn(flags, "\n")] = '\0';
	char has[96];
	snprintf(has, sizeof has, "/sys/class/net/lo: flags %s has IFF_LOOPBACK", flags);
	const char *args[] = {"model", "-i", "lo", NULL};
	struct run_result r = run_pcibw(NULL, args);
	if (r.status == 5) { /* no PCI access here at all (the probe says so before any -i) */
		run_free(&r);
		cr_skip_test("this machine offers no PCI access");
	}
	cr_assert_eq(r.status, 4, "exit %d: %s", r.status, r.err);
	const char *want[] = {"no device has interface lo on this machine (",
			      "): lo is the loopback interface (", has,
			      "pcibw watch lo still gives its packet rates and the CPU side"};
	for (int i = 0; i < 4; i++)
		cr_assert(strstr(r.err, want[i]), "no '%s' in: %s", want[i], r.err);
	run_free(&r);
}

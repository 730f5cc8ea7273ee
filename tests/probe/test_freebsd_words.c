/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OS-neutral halves of the FreeBSD probe files, run here: interface names split as NIC
 * drivers make them (if_initname with device_get_name/device_get_unit: "em0", "ixl12"), why an
 * interface has no PCI device from what getifaddrs(3) and the %parent sysctl say (types from
 * <net/if_types.h>: IFT_LOOP 0x18, IFT_BRIDGE 0xd1, IFT_L2VLAN 0x87), kern.vm_guest's words
 * (sys/kern/subr_param.c vm_guest_sysctl_names), and the directory of kern.proc.pathname.
 */
#include "src/probe/netif.h"
#include "src/probe/virt.h"
#include "src/util/exe_dir.h"
#include "src/util/ifname.h"
#include <criterion/criterion.h>
#include <string.h>

Test(freebsd_words, split_name)
{
	char d[32];
	unsigned u = 99;
	cr_assert(pcibw_ifname_split("em0", d, sizeof d, &u));
	cr_assert_str_eq(d, "em");
	cr_assert_eq(u, 0);
	cr_assert(pcibw_ifname_split("ixl12", d, sizeof d, &u));
	cr_assert_str_eq(d, "ixl");
	cr_assert_eq(u, 12);
	cr_assert(pcibw_ifname_split("mlx5_core3", d, sizeof d, &u));
	cr_assert_str_eq(d, "mlx5_core");
	cr_assert_eq(u, 3);
	cr_assert_not(pcibw_ifname_split("bridge", d, sizeof d, &u));  /* no unit */
	cr_assert_not(pcibw_ifname_split("0", d, sizeof d, &u));       /* no driver */
	cr_assert_not(pcibw_ifname_split("em01", d, sizeof d, &u));    /* not "%s%d" */
	cr_assert_not(pcibw_ifname_split("em0.100", d, sizeof d, &u)); /* a VLAN's name */
	cr_assert_not(pcibw_ifname_split("em1234567890", d, sizeof d, &u));
	cr_assert_not(pcibw_ifname_split("averylongdriver0", d, 8, &u));
}

Test(freebsd_words, why_no_pci)
{
	char buf[768];
	/* a PCI function's interface: the probe's own business */
	cr_assert_not(probe_netif_fbsd_words("em0", true, false, 6, "pci2", buf, sizeof buf));
	cr_assert_str_eq(buf, "");
	cr_assert(probe_netif_fbsd_words("lo0", true, true, 0x18, NULL, buf, sizeof buf));
	cr_assert(strstr(buf, "lo0 is the loopback interface (IFF_LOOPBACK set)"), "%s", buf);
	cr_assert(strstr(buf, "pcibw watch lo0 still gives"), "%s", buf);
	cr_assert(probe_netif_fbsd_words("bridge0", true, false, 0xd1, NULL, buf, sizeof buf));
	cr_assert(strstr(buf, "bridge0 is a bridge (IFT_BRIDGE) interface with no device"), "%s", buf);
	cr_assert(probe_netif_fbsd_words("em0.100", true, false, 0x87, NULL, buf, sizeof buf));
	cr_assert(strstr(buf, "VLAN (IFT_L2VLAN)"), "%s", buf);
	cr_assert(probe_netif_fbsd_words("ue0", true, false, 6, "uhub1", buf, sizeof buf));
	cr_assert(strstr(buf, "ue0's device sits on uhub1 (its %parent sysctl), not on a PCI bus"), "%s",
		  buf);
	cr_assert(probe_netif_fbsd_words("tun7", true, false, 0x99, NULL, buf, sizeof buf));
	cr_assert(strstr(buf, "(interface type 153)"), "%s", buf);
	cr_assert(probe_netif_fbsd_words("nope9", false, false, -1, NULL, buf, sizeof buf));
	cr_assert(strstr(buf, "no interface nope9 on this machine"), "%s", buf);
	cr_assert(strstr(buf, "--bus and --nic"), "%s", buf);
	/* cut to the buffer, never past it */
	char small[16];
	cr_assert(probe_netif_fbsd_words("bridge0", true, false, 0xd1, NULL, small, sizeof small));
	cr_assert_eq(strlen(small), sizeof small - 1);
}

Test(freebsd_words, vm_guest)
{
	cr_assert_eq(probe_virt_vm_guest("none"), 0);
	cr_assert_eq(probe_virt_vm_guest("kvm"), 1);
	cr_assert_eq(probe_virt_vm_guest("bhyve"), 1);
	cr_assert_eq(probe_virt_vm_guest("hv"), 1);
	cr_assert_eq(probe_virt_vm_guest("generic"), 1);
	cr_assert_eq(probe_virt_vm_guest(""), -1);
	cr_assert_eq(probe_virt_vm_guest("KVM"), -1);
}

Test(freebsd_words, exe_dir_cut)
{
	char a[] = "/usr/local/bin/pcibw", b[] = "/pcibw", c[] = "pcibw";
	cr_assert_eq(pcibw_exe_dir_cut(a), 0);
	cr_assert_str_eq(a, "/usr/local/bin");
	cr_assert_eq(pcibw_exe_dir_cut(b), 0);
	cr_assert_str_eq(b, "/");
	cr_assert_eq(pcibw_exe_dir_cut(c), -1);
}

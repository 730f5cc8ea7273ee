/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw` on the machine running the tests, as root and as nobody (uid/gid 65534 through
 * setpriv). What to expect is taken from other sources than pcibw: `lspci -Dnn` (pciutils)
 * lists the network controllers (class 02xx, 0c06) and their ids; /proc/cpuinfo says whether
 * this is a virtual machine. On the machine this was written on (a KVM guest: lspci -nn shows
 * "00:03.0 Ethernet controller [0200]: Red Hat, Inc. Virtio 1.0 network device [1af4:1041]")
 * the virtio NIC must come out `virtual` with no bus ceiling, both as root and as nobody.
 */
#include "report_helpers.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct nic {
	char slot[32];
	unsigned vendor, device;
};

/* Network controllers per `lspci -Dnn`: "DDDD:BB:DD.F Class name [CCCC]: Name [VVVV:DDDD]". */
static int lspci_nics(struct nic *v, int max)
{
	struct run_result r = run_cmd(NULL, (const char *[]){"lspci", "-Dnn", NULL});
	cr_assert_eq(r.status, 0, "lspci -Dnn: %s", r.err);
	int n = 0;
	for (char *line = strtok(r.out, "\n"); line && n < max; line = strtok(NULL, "\n")) {
		char slot[32];
		unsigned cls = 0;
		if (sscanf(line, "%31s", slot) != 1)
			continue;
		char *b = strstr(line, "]: ");
		if (!b || b - line < 5 || sscanf(b - 5, "[%4x]", &cls) != 1)
			continue;
		if ((cls >> 8) != 0x02 && cls != 0x0c06)
			continue;
		char *ids = strrchr(line, '[');
		unsigned ven, dev;
		/* "[1af4:1041] (rev 01)": the last [xxxx:xxxx] group */
		for (char *p = strchr(b, '['); p; p = strchr(p + 1, '['))
			if (sscanf(p, "[%4x:%4x]", &ven, &dev) == 2)
				ids = p;
		if (!ids || sscanf(ids, "[%4x:%4x]", &ven, &dev) != 2)
			continue;
		snprintf(v[n].slot, sizeof v[n].slot, "%s", slot);
		v[n].vendor = ven;
		v[n].device = dev;
		n++;
	}
	run_free(&r);
	return n;
}

static bool hypervisor(void)
{
	char *s = slurp("/proc/cpuinfo", NULL);
	bool h = s && strstr(s, " hypervisor");
	free(s);
	return h;
}

/* virtio-net: 1af4:1000 (legacy) and 1af4:1041 (virtio 1.0: 0x1040 + device id 1), per the
 * VIRTIO 1.1 spec sec. 4.1.2 "PCI Device Discovery". */
static bool is_virtio_net(const struct nic *n)
{
	return n->vendor == 0x1af4 && (n->device == 0x1000 || n->device == 0x1041);
}

/* driver: the last component of sysfs's driver link (what lspci -k prints as "Kernel driver in
 * use"); firmware: `ethtool -i IFACE`'s firmware-version, null where it is empty or N/A */
static void driver_and_firmware(json_t *d, const char *slot)
{
	char link[512], path[128];
	snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/driver", slot);
	ssize_t n = readlink(path, link, sizeof link - 1);
	if (n > 0) {
		link[n] = '\0';
		cr_expect_str_eq(str_or_null(d, "driver"), strrchr(link, '/') + 1, "%s", slot);
	}
	json_t *ifs = json_object_get(d, "interfaces");
	if (!json_array_size(ifs) || access("/usr/sbin/ethtool", X_OK))
		return;
	const char *ifname = json_string_value(json_array_get(ifs, 0));
	struct run_result r = run_cmd(NULL, (const char *[]){"/usr/sbin/ethtool", "-i", ifname, NULL});
	if (r.status) {
		run_free(&r);
		return;
	}
	/* the interfaces' driver is ethtool -i's "driver:" (virtio_net under virtio-pci) */
	char *drv = strstr(r.out, "driver: ");
	cr_assert(drv, "ethtool -i %s: %s", ifname, r.out);
	drv += strlen("driver: ");
	char want[64];
	snprintf(want, sizeof want, "%.*s", (int)strcspn(drv, "\n"), drv);
	cr_expect_str_eq(str_or_null(d, "interface_driver"), want, "%s", slot);
	char *fw = strstr(r.out, "firmware-version: ");
	cr_assert(fw, "ethtool -i %s: %s", ifname, r.out);
	fw += strlen("firmware-version: ");
	fw[strcspn(fw, "\n")] = '\0';
	if (!*fw || !strcmp(fw, "N/A"))
		cr_expect(is_null(d, "firmware"), "%s: no firmware version", slot);
	else
		cr_expect_str_eq(str_or_null(d, "firmware"), fw, "%s", slot);
	run_free(&r);
}

static void check_against_lspci(json_t *r, const struct nic *v, int n)
{
	cr_expect_str_eq(str_or_null(r, "source"), "live");
	cr_expect_eq(json_array_size(json_object_get(r, "devices")), (size_t)n);
	for (int i = 0; i < n; i++) {
		json_t *d = device(r, v[i].slot);
		char id[16];
		snprintf(id, sizeof id, "0x%04x", v[i].vendor);
		cr_expect_str_eq(str_or_null(d, "vendor_id"), id);
		if (is_virtio_net(&v[i])) {
			cr_expect(json_is_true(json_object_get(d, "virtual")), "%s", v[i].slot);
			cr_expect(is_null(d, "bottleneck_gbps"), "%s: a virtio NIC has no bus ceiling",
				  v[i].slot);
			cr_expect(is_null(d, "bus_mhz"), "%s: no 33/66 MHz for a virtio NIC", v[i].slot);
		}
	}
	if (hypervisor())
		cr_expect_eq(warnings_with(r, (const char *[]){"hypervisor", NULL}), 1);
	for (int i = 0; i < n; i++)
		driver_and_firmware(device(r, v[i].slot), v[i].slot);
	/* the kernel brackets the ASPM policy in force (drivers/pci/pcie/aspm.c) */
	char *pol = slurp("/sys/module/pcie_aspm/parameters/policy", NULL);
	char *o = pol ? strchr(pol, '[') : NULL, *c = o ? strchr(o, ']') : NULL;
	if (c) {
		*c = '\0';
		cr_expect_str_eq(str_or_null(r, "aspm_policy"), o + 1);
	} else {
		cr_expect(is_null(r, "aspm_policy"), "no policy file: null");
	}
	free(pol);
}

Test(live, this_machine_as_root)
{
	if (geteuid() != 0)
		cr_skip_test("needs root");
	struct nic v[64];
	int n = lspci_nics(v, 64);
	if (!n) {
		json_t *none = report_json(4, (const char *[]){"report", NULL});
		(void)none;
		return;
	}
	json_t *r = report_json(0, (const char *[]){"report", NULL});
	check_against_lspci(r, v, n);
	/* as root the whole config space is readable: no word about root */
	cr_expect_eq(warnings_with(r, (const char *[]){"as root", NULL}), 0);
	json_decref(r);
}

Test(live, this_machine_as_nobody)
{
	if (geteuid() != 0)
		cr_skip_test("needs root to switch to nobody");
	struct nic v[64];
	int n = lspci_nics(v, 64);
	if (!n)
		cr_skip_test("no network controller on this machine");
	struct run_result r = run_pcibw_as_nobody(NULL, (const char *[]){"--json", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	json_error_t e;
	json_t *j = json_loads(r.out, 0, &e);
	cr_assert(j, "not JSON: %s", e.text);
	check_against_lspci(j, v, n);
	/* Linux hides config space past byte 64 from nobody: one warning says what root adds */
	cr_expect_eq(warnings_with(j, (const char *[]){"as root", NULL}), 1);
	cr_expect_eq(warnings_with(j, (const char *[]){"readable only by root", "MPS", NULL}), 1);
	/* and what was still learnt came from sysfs */
	bool any_sysfs = false;
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(j, "devices"), i, d)
	{
		const char *k;
		json_t *o;
		json_object_foreach(json_object_get(d, "provenance"), k, o) any_sysfs |=
		    !strcmp(json_string_value(o), "sysfs");
		cr_expect(!prov(d, "mps_bytes"), "MPS cannot be known without root");
	}
	cr_expect(any_sysfs, "no field came from sysfs: %s", r.out);
	json_decref(j);
	run_free(&r);
}

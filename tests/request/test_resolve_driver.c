/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A probed port's default profile follows the driver bound to it: a port bound to vfio-pci (or
 * uio_pci_generic, igb_uio) runs a DPDK poll-mode driver, so it gets the profile's dpdk sibling
 * (include/pcibw/nic.h, pcibw_nic_default_name). The device is the ConnectX-4 (15b3:1013, pci.ids
 * "MT27700 Family [ConnectX-4]") at 0000:1a:00.0 of the skx sysfs copy, bound there to mlx5_core;
 * data/nic/mlx5-cx4.ini lists that id and names dpdk-mlx5 as its DPDK sibling.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CX4 "sys/devices/pci0000:17/0000:17:00.0/0000:18:00.0/0000:19:04.0/0000:1a:00.0"

/* the `nic` key of `pcibw model --sysfs ROOT/sys -s 1a:00.0 --json` */
static char *nic_of(const char *root)
{
	char sys[512];
	snprintf(sys, sizeof sys, "%s/sys", root);
	struct run_result r = run_pcibw(NULL, (const char *[]){"model", "--sysfs", sys, "-s", "1a:00.0",
							       "--sizes", "64", "--json", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	json_error_t e;
	json_t *j = json_loads(r.out, 0, &e);
	cr_assert(j, "%s", e.text);
	char *nic = strdup(json_string_value(json_object_get(j, "nic")));
	json_decref(j);
	run_free(&r);
	return nic;
}

Test(resolve_driver, vfio_pci_gets_the_dpdk_profile)
{
	char root[64], cmd[1024];
	snprintf(root, sizeof root, "/tmp/pcibw-drv-%d", (int)getpid());
	snprintf(cmd, sizeof cmd,
		 "rm -rf %s && mkdir -p %s && cp -a \"$PCIBW_TEST_DATA/sysfs/skx-2s-cx4-x722/sys\" %s/", root,
		 root, root);
	struct run_result c = run_cmd(NULL, (const char *[]){"sh", "-c", cmd, NULL});
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);

	char *nic = nic_of(root);
	cr_expect_str_eq(nic, "mlx5-cx4", "bound to mlx5_core: the kernel driver's profile");
	free(nic);

	snprintf(cmd, sizeof cmd, "ln -sfn ../../../../../../bus/pci/drivers/vfio-pci %s/" CX4 "/driver",
		 root);
	c = run_cmd(NULL, (const char *[]){"sh", "-c", cmd, NULL});
	cr_assert_eq(c.status, 0, "%s", c.err);
	run_free(&c);
	nic = nic_of(root);
	cr_expect_str_eq(nic, "dpdk-mlx5", "bound to vfio-pci: the DPDK profile");
	free(nic);

	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	c = run_cmd(NULL, (const char *[]){"sh", "-c", cmd, NULL});
	run_free(&c);
}

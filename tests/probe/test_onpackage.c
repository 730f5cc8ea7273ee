/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An on-package MAC (X722 inside the Lewisburg PCH) modelled through the chipset's uplink, not
 * its internal 2.5 GT/s x1 link. Expected values: tests/data/sysfs/README.md, "skx-2s-cx4-x722:
 * what it should show" — "the real path is the PCH uplink 5d:02.0 at 8 GT/s x8".
 */
#include "pcibw/probe.h"
#include "support.h"
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

Test(onpackage, x722_modelled_through_pch_uplink)
{
	struct pcibw_probe_opts o = {0};
	o.sysfs_dir = test_data("sysfs/skx-2s-cx4-x722");
	o.slot_filter = "60:00.0";
	struct pcibw_report rep = {0};
	struct pcibw_err err = {0};
	cr_assert_eq(pcibw_probe(&o, &rep, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(rep.n_devices, 1);
	const struct pcibw_device *d = &rep.devices[0];
	cr_assert(pcibw_device_is_onpackage(d->vendor_id, d->device_id), "8086:37d2 is an X722");
	/* the report keeps the device's own link: 2.5 GT/s x1 (README) */
	cr_assert_float_eq(d->link_speed_gts, 2.5, 1e-9);
	cr_assert_eq(d->link_width, 1);
	struct pcibw_bus b;
	cr_assert_eq(pcibw_bus_from_device(d, &b, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(b.kind, PCIBW_BUS_PCIE);
	cr_assert_float_eq(b.gts, 8.0, 1e-9);
	cr_assert_eq(b.lanes, 8);
	cr_assert_eq(b.gen, 3);
	cr_assert(strstr(b.note, "0000:5d:02.0") && strstr(b.note, "on-package"), "note: %s", b.note);
	pcibw_report_free(&rep);
}

Test(onpackage, discrete_nic_keeps_its_own_link)
{
	/* ConnectX-4 1a:00.0: 8 GT/s x16 on its own link (README), no note */
	struct pcibw_probe_opts o = {0};
	o.sysfs_dir = test_data("sysfs/skx-2s-cx4-x722");
	o.slot_filter = "1a:00.0";
	struct pcibw_report rep = {0};
	struct pcibw_err err = {0};
	cr_assert_eq(pcibw_probe(&o, &rep, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_eq(rep.n_devices, 1);
	struct pcibw_bus b;
	cr_assert_eq(pcibw_bus_from_device(&rep.devices[0], &b, &err), PCIBW_OK, "%s", err.msg);
	cr_assert_float_eq(b.gts, 8.0, 1e-9);
	cr_assert_eq(b.lanes, 16);
	cr_assert_str_empty(b.note);
	pcibw_report_free(&rep);
}

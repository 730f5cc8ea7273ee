/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libpci's error hook is declared noreturn: probe_libpci_read leaves it by longjmp, so a libpci
 * failure is an error return and the process lives on (libpci lib/dump.c: dump_init calls
 * a->error("dump: Cannot open %s: %s") for a missing file). */
#include "src/probe/probe_int.h"
#include "support.h"
#include <criterion/criterion.h>
#include <pci/pci.h>
#include <stdlib.h>
#include <string.h>

Test(libpci, error_hook_returns_instead_of_exiting)
{
	for (int round = 0; round < 2; round++) { /* twice: the jump target is restored */
		struct probe_set set = {0};
		struct pcibw_report rep = {0};
		struct pcibw_err err;
		const char *params[] = {"dump.name", "/nonexistent/pcibw-test.lspci", NULL};
		int r = probe_libpci_read(PCI_ACCESS_DUMP, params, NULL, "config", NULL, &set, &rep, &err);
		cr_assert_eq(r, PCIBW_EINPUT);
		cr_assert(strstr(err.msg, "libpci") && strstr(err.msg, "Cannot open"), "%s", err.msg);
		cr_assert_eq(set.n, 0);
		probe_set_free(&set);
		pcibw_report_free(&rep);
	}
}

Test(libpci, reads_a_dump_through_libpci)
{
	struct probe_set set = {0};
	struct pcibw_report rep = {0};
	struct pcibw_err err;
	const char *params[] = {"dump.name", test_data("pcie-intel-82576-x4-gen1.lspci"), NULL};
	int r = probe_libpci_read(PCI_ACCESS_DUMP, params, NULL, "config", NULL, &set, &rep, &err);
	cr_assert_eq(r, PCIBW_OK, "%s", err.msg);
	cr_assert_eq(set.n, 1);
	cr_assert_eq(set.v[0].cfg.len, 4096); /* an -xxxx dump */
	cr_assert_eq(set.v[0].d.vendor_id, 0x8086);
	cr_assert_eq(set.v[0].d.device_id, 0x10c9);
	cr_assert_eq(set.v[0].d.pcie_port_type, 0);
	probe_set_free(&set);
	pcibw_report_free(&rep);
}

Test(libpci, unknown_parameter_is_an_internal_error)
{
	struct probe_set set = {0};
	struct pcibw_report rep = {0};
	struct pcibw_err err;
	const char *params[] = {"no.such.param", "x", NULL};
	int r = probe_libpci_read(PCI_ACCESS_DUMP, params, NULL, "config", NULL, &set, &rep, &err);
	cr_assert_eq(r, PCIBW_EINTERNAL);
	cr_assert(strstr(err.msg, "no.such.param"));
	probe_set_free(&set);
	pcibw_report_free(&rep);
}

/* A capability list walked from raw bytes: loops and header pointers are refused even without a
 * file to point at (the message then names slot and offset). */
Test(libpci, decode_refuses_a_looping_list)
{
	struct probe_set set = {0};
	struct probe_node *n = probe_set_add(&set);
	struct pcibw_report rep = {0};
	struct pcibw_err err;
	n->d.domain = 0;
	n->d.bus = 1;
	n->d.dev = 0;
	n->d.fn = 0;
	pcibw_format_slot(n->d.slot, 0, 1, 0, 0);
	n->cfg.len = 256;
	n->cfg.b = calloc(4096, 1); /* freed by probe_set_free */
	cr_assert_not_null(n->cfg.b);
	n->cfg.b[0] = 0x86;
	n->cfg.b[1] = 0x80;
	n->cfg.b[6] = 0x10; /* Status: capabilities list */
	n->cfg.b[0x34] = 0x40;
	n->cfg.b[0x40] = 0x01;
	n->cfg.b[0x41] = 0x40; /* points at itself */
	cr_assert_eq(probe_decode(n, "config", NULL, &rep, &err), PCIBW_EINPUT);
	cr_assert(strstr(err.msg, "0000:01:00.0 offset 0x041"), "%s", err.msg);
	cr_assert(strstr(err.msg, "loops back to 0x40"), "%s", err.msg);
	probe_set_free(&set);
	pcibw_report_free(&rep);
}

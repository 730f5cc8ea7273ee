/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw never writes config space and opens every input read-only. Checked on the built
 * objects and on what the running command asks the kernel for:
 *   - neither the command (its dynamic imports) nor the static libpcibw.a it links
 *     references a libpci write function (pci_write_byte, _word, _long, _block: lib/pci.h);
 *   - every open(2) of an input, of sysfs, of /proc/bus/pci or of /dev/mem and /dev/port made by
 *     report (this machine, --dump, --sysfs, --topology, --pci-ids), model --nic-file and
 *     analyze is O_RDONLY, without O_CREAT or O_TRUNC (strace -f).
 */
#include "support.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int have(const char *tool)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

Test(readonly, no_libpci_write_function_referenced)
{
	if (!have("nm"))
		cr_skip_test("nm (binutils) is not installed");
	/* the command's imports from libpci.so, and every object of the internal library */
	const char *objs[] = {"-D \"$PCIBW_EXE\"", "\"$PCIBW_BUILD_ROOT/src/libpcibw.a\""};
	for (int i = 0; i < 2; i++) {
		char script[512];
		snprintf(script, sizeof script,
			 "nm --undefined-only %s | grep -c ' pci_' ; nm --undefined-only %s | "
			 "grep -E 'pci_write|pci_write_(byte|word|long|block)' || true",
			 objs[i], objs[i]);
		struct run_result r = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
		cr_assert_eq(r.status, 0, "%s", r.err);
		/* the check is meaningful only if each does reference libpci */
		cr_expect(atoi(r.out) > 0, "%s references no libpci symbol at all: %s", objs[i], r.out);
		cr_expect(!strstr(r.out, "pci_write"), "%s references a libpci write function: %s", objs[i],
			  r.out);
		run_free(&r);
	}
}

/* Opens with a write mode of the paths pcibw reads: none may be found. */
static void expect_read_only(const char *args)
{
	char script[2048];
	snprintf(
	    script, sizeof script,
	    "t=$(mktemp); strace -f -qq -e trace=open,openat,creat -o \"$t\" \"$PCIBW_EXE\" %s >/dev/null "
	    "2>&1; "
	    "grep -E '(open|openat|creat)\\(' \"$t\" | grep -E \"\\\"($PCIBW_TEST_DATA|$PCIBW_DATA_DIR|/sys/|"
	    "/proc/bus/pci|/dev/mem|/dev/port|/tmp/pcibw-ro)\" | grep -E "
	    "'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|creat\\(';"
	    " echo \"opens: $(grep -cE '(open|openat)\\(' \"$t\")\"; rm -f \"$t\"",
	    args);
	struct run_result r = run_cmd(NULL, (const char *[]){"bash", "-c", script, NULL});
	cr_expect(!strncmp(r.out, "opens: ", 7) && atoi(r.out + 7) > 0, "%s: no open traced: %s %s", args,
		  r.out, r.err);
	run_free(&r);
}

Test(readonly, every_input_opened_read_only, .timeout = 300)
{
	if (!have("strace"))
		cr_skip_test("strace is not installed (scripts/deps.sh installs it)");
	const char *runs[] = {
	    "report --all",
	    "report --dump \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" --pci-ids "
	    "\"$PCIBW_TEST_DATA/synthetic-pci.ids\"",
	    "report --sysfs \"$PCIBW_TEST_DATA/sysfs/skx-2s-cx4-x722\" --all",
	    "report --topology \"$PCIBW_TEST_DATA/hwloc/hp-sl390s-g7-82576-connectx2-gpus.xml\"",
	    "model --bus gen3x8 --nic-file \"$PCIBW_DATA_DIR/nic/ixgbe.ini\"",
	    "model --dump \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\"",
	    "analyze \"$PCIBW_DATA_DIR/examples/freebsd-2004-udp-echo-e1000.csv\" --bus pci33",
	};
	for (unsigned i = 0; i < sizeof runs / sizeof runs[0]; i++)
		expect_read_only(runs[i]);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How every input is opened (src/util/input.h): once, read-only, never blocking in open().
 * A directory or a device where a file is expected, a FIFO with no writer, a FIFO inside a
 * --sysfs tree: exit 3 at once, naming the path. A pipe as a top-level input (`-`, `<(cat x)`) is
 * read once. sysfs attributes are read whole; a blank one is an error, never 0. --dump decodes
 * the bytes its scanner checked, in the one pass that checks them (libpci never opens the
 * dump). Reproducers: tests/data/repro/README.md.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct run_result bash(const char *script)
{
	return run_cmd(NULL, (const char *[]){"bash", "-c", script, NULL});
}

static void expect3(struct run_result r, const char *what, const char *want)
{
	cr_expect_eq(r.status, 3, "%s: exit %d (252 is a hang), stderr: %s", what, r.status, r.err);
	cr_expect(strstr(r.err, want), "%s: want '%s' in: %s", what, want, r.err);
	run_free(&r);
}

/* Every option that names an input file, with the command around it. */
static const char *const inputs[] = {
    "report --dump %s",
    "report --pci-ids %s --dump \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\"",
    "model --bus gen3x8 --nic-file %s",
    "analyze %s --bus gen3x8",
};

Test(inputs, directory_refused_at_once)
{
	for (unsigned i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		char cmd[512], script[1024];
		snprintf(cmd, sizeof cmd, inputs[i], "/tmp");
		snprintf(script, sizeof script, "timeout 20 \"$PCIBW_EXE\" %s", cmd);
		expect3(bash(script), cmd, "/tmp: is a directory: expected");
	}
}

Test(inputs, device_refused_at_once)
{
	for (unsigned i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		char cmd[512], script[1024];
		snprintf(cmd, sizeof cmd, inputs[i], "/dev/zero");
		snprintf(script, sizeof script, "timeout 20 \"$PCIBW_EXE\" %s", cmd);
		expect3(bash(script), cmd, "/dev/zero: is a device: expected");
	}
}

/* A FIFO nobody writes to: open(O_NONBLOCK) returns at once and the read sees end of file. */
Test(inputs, fifo_without_writer_refused_at_once)
{
	for (unsigned i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		char cmd[512], script[1400];
		snprintf(cmd, sizeof cmd, inputs[i], "\"$f\"");
		snprintf(script, sizeof script,
			 "d=$(mktemp -d) && f=$d/input && mkfifo \"$f\" && timeout 20 \"$PCIBW_EXE\" %s; "
			 "rc=$?; rm -rf \"$d\"; exit $rc",
			 cmd);
		struct run_result r = bash(script);
		cr_expect_eq(r.status, 3, "%s: exit %d (124 is a hang), stderr: %s", cmd, r.status, r.err);
		cr_expect(strstr(r.err, "/input") && strstr(r.err, "expected"), "%s: %s", cmd, r.err);
		run_free(&r);
	}
}

/* A pipe holding a good input is read once and works like the file (`<(cat x)` gives
 * /dev/fd/N, a pipe: it used to be read twice, the second time empty). */
Test(inputs, pipe_read_once)
{
	const char *cases[][2] = {
	    {"report --dump <(cat \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\") --json",
	     "0000:01:00.0"},
	    {"report --dump - --json < <(cat \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\")",
	     "0000:01:00.0"},
	    {"cat \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" | \"$PCIBW_EXE\" model --dump - "
	     "--sizes 64 --json",
	     "0000:01:00.0"},
	    {"report --pci-ids <(cat \"$PCIBW_TEST_DATA/synthetic-pci.ids\") --dump "
	     "\"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" --json",
	     "0000:01:00.0"},
	    /* --pci-ids from a pipe names devices from it (doc/cli-contract.md: a pipe is read once,
	     * as for --dump); synthetic-pci.ids says 8086:10c9 is this name */
	    {"report --pci-ids <(cat \"$PCIBW_TEST_DATA/synthetic-pci.ids\") --dump "
	     "\"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" --json",
	     "Synthetic Vendor Synthetic 82576 NIC"},
	    {"model --bus gen3x8 --nic-file <(cat \"$PCIBW_DATA_DIR/nic/ixgbe.ini\") --json", "ixgbe"},
	    {"analyze <(cat \"$PCIBW_DATA_DIR/examples/freebsd-2004-udp-echo-e1000.csv\") --bus pci33 --json",
	     "verdict"},
	    {"cat \"$PCIBW_DATA_DIR/examples/freebsd-2004-udp-echo-e1000.csv\" | \"$PCIBW_EXE\" analyze - "
	     "--bus "
	     "pci33 --json",
	     "verdict"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char script[1400];
		if (!strncmp(cases[i][0], "cat ", 4))
			snprintf(script, sizeof script, "timeout 30 %s", cases[i][0]);
		else
			snprintf(script, sizeof script, "timeout 30 \"$PCIBW_EXE\" %s", cases[i][0]);
		struct run_result r = bash(script);
		cr_expect_eq(r.status, 0, "%s: exit %d: %s", cases[i][0], r.status, r.err);
		cr_expect(strstr(r.out, cases[i][1]), "%s: no '%s' in: %.300s", cases[i][0], cases[i][1],
			  r.out);
		run_free(&r);
	}
}

/* A piped standard input longer than the head kept for its "# bus:" lines (64 KiB): the bus
 * comes from the head, and every one of the 8000 lines after it is still read, in order. */
Test(inputs, long_pipe_keeps_its_bus_line_and_every_row)
{
	struct run_result r = bash("{ echo '# bus: pci33 nic: e1000'; echo frame_bytes,mbps,cpu_pct; "
				   "for i in $(seq 8000); do echo 1066,550,82; done; } | timeout 60 "
				   "\"$PCIBW_EXE\" analyze - --json");
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "\"bus_from\": \"standard input:1\""),
		  "bus not from the pipe's line 1: %.400s", r.out);
	cr_expect(strstr(r.out, "\"bus\": \"pci33/32"), "bus: %.400s", r.out);
	cr_expect(strstr(r.out, "\"lines\": 8000"), "not every line read: %.600s", r.out);
	run_free(&r);
}

/* A copy that lost its symlinks (cp -r through a tool that stores each link as a text file of
 * its target, as the shared copies of hwloc's tarballs came) is named as such, at the entry. */
Test(inputs, sysfs_copy_without_symlinks_is_named)
{
	struct run_result r = bash(
	    "d=$(mktemp -d) && cp -a \"$PCIBW_TEST_DATA/sysfs/kvm-virtio-pcidomain32/sys\" \"$d/\" && "
	    "e=$(ls \"$d/sys/bus/pci/devices\" | head -1) && t=$(readlink \"$d/sys/bus/pci/devices/$e\") && "
	    "rm \"$d/sys/bus/pci/devices/$e\" && echo \"$t\" > \"$d/sys/bus/pci/devices/$e\" && "
	    "timeout 20 \"$PCIBW_EXE\" report --sysfs \"$d/sys\" --all; rc=$?; rm -rf \"$d\"; exit $rc");
	expect3(r, "devices/ entry as a text file", "a regular file, not a symlink or a directory");
}

/* Standard input is read once: a second reader of "-" would see an empty stream and report a
 * misleading "no header line"; it is a usage error before anything is read. */
Test(inputs, two_readers_of_stdin_refused)
{
	const char *cases[][2] = {
	    {"analyze --dump - -", "--dump - and the input '-' both read standard input"},
	    {"analyze --cpu-from - -", "--cpu-from - and the input '-' both read standard input"},
	    {"analyze - - --bus gen3x8", "the input '-' is given 2 times"},
	    {"analyze --dump - --cpu-from - \"$PCIBW_DATA_DIR/examples/freebsd-2004-udp-echo-e1000.csv\"",
	     "--dump - and --cpu-from - both read standard input"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char script[1024];
		snprintf(script, sizeof script, "timeout 30 \"$PCIBW_EXE\" %s < /dev/null", cases[i][0]);
		struct run_result r = bash(script);
		cr_expect_eq(r.status, 2, "%s: exit %d: %s", cases[i][0], r.status, r.err);
		cr_expect(strstr(r.err, cases[i][1]), "%s: want '%s' in: %s", cases[i][0], cases[i][1],
			  r.err);
		run_free(&r);
	}
}

static struct run_result sysfs_tar(const char *tar, const char *extra)
{
	char script[1024];
	snprintf(script, sizeof script,
		 "d=$(mktemp -d) && tar xf \"$PCIBW_TEST_DATA/repro/%s\" -C \"$d\" && "
		 "timeout 20 \"$PCIBW_EXE\" report --sysfs \"$d/sys\" --all --json %s; rc=$?; rm -rf \"$d\"; "
		 "exit $rc",
		 tar, extra);
	return bash(script);
}

/* sysfs-1: numa_node holding only a newline read as node 0 (exit 0); sysfs-4: an empty one said
 * "got '(null)'". The kernel always writes a number (-1 for none): blank is an error. */
Test(inputs, sysfs_blank_numa_node_is_an_error)
{
	expect3(sysfs_tar("sysfs-1.tar", ""), "sysfs-1",
		"numa_node:1:1: empty file: expected a NUMA node number");
	struct run_result r = sysfs_tar("sysfs-4.tar", "");
	cr_expect(!strstr(r.err, "(null)"), "%s", r.err);
	expect3(r, "sysfs-4", "numa_node:1:1: empty file: expected a NUMA node number");
}

/* sysfs-2: a local_cpulist of 200 characters (every even CPU of 128) was cut at 127. It is read
 * whole: the report carries the file's text exactly. */
Test(inputs, sysfs_long_cpulist_read_whole)
{
	struct run_result r = sysfs_tar("sysfs-2.tar", "");
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	char want[512] = "\"local_cpus\": \"", *p = want + strlen(want);
	for (int cpu = 0; cpu < 128; cpu += 2)
		p += sprintf(p, "%s%d", cpu ? "," : "", cpu);
	strcat(want, "\"");
	cr_expect_eq(strlen(want) - strlen("\"local_cpus\": \"\""), 200);
	cr_expect(strstr(r.out, want), "want %s in %s", want, r.out);
	run_free(&r);
}

/* sysfs-3: a FIFO as config blocked libpci forever; one as current_link_speed or numa_node
 * blocked pcibw's own reader. Refused at once, naming the entry. */
Test(inputs, sysfs_fifo_refused)
{
	expect3(sysfs_tar("sysfs-3.tar", ""), "sysfs-3", "0000:00:01.0/config: is a FIFO");
	const char *attrs[] = {"current_link_speed", "numa_node", "local_cpulist"};
	for (int i = 0; i < 3; i++) {
		char script[1400];
		snprintf(
		    script, sizeof script,
		    "d=$(mktemp -d) && tar xf \"$PCIBW_TEST_DATA/repro/sysfs-2.tar\" -C \"$d\" && "
		    "f=\"$d/sys/devices/pci0000:00/0000:00:01.0/%s\" && rm -f \"$f\" && mkfifo \"$f\" && "
		    "timeout 20 \"$PCIBW_EXE\" report --sysfs \"$d/sys\" --all; rc=$?; rm -rf \"$d\"; exit "
		    "$rc",
		    attrs[i]);
		char want[128];
		snprintf(want, sizeof want, "0000:00:01.0/%s: is a FIFO", attrs[i]);
		expect3(bash(script), attrs[i], want);
	}
}

/* dump-1: the scanner and libpci read the file separately, so a file replaced in between was
 * reported unchecked. The dump is now opened once: count the opens, then race a swap. */
Test(inputs, dump_read_once)
{
	if (system("command -v strace >/dev/null 2>&1"))
		cr_skip_test("strace is not installed (scripts/deps.sh installs it)");
	struct run_result r =
	    bash("strace -f -e trace=open,openat -o /tmp/pcibw-strace.$$ \"$PCIBW_EXE\" report "
		 "--dump \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" >/dev/null; "
		 "grep -c 'pcie-intel-82576-x4-gen1.lspci' /tmp/pcibw-strace.$$; rm -f /tmp/pcibw-strace.$$");
	cr_expect_str_eq(r.out, "1\n", "opens of the dump: %s", r.out);
	run_free(&r);
	/* the reproducer, shortened: B alone is refused, and no run may report B's duplicate slot */
	r = bash("W=$(mktemp -d); cp \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" $W/A; "
		 "cp \"$PCIBW_TEST_DATA/bad/synthetic-bad-duplicate-slot.lspci\" $W/B; cp $W/A $W/F; "
		 "( while :; do ln -f $W/A $W/T; mv -f $W/T $W/F; ln -f $W/B $W/T; mv -f $W/T $W/F; "
		 "done ) & pid=$!; n=0; for i in $(seq 20); do \"$PCIBW_EXE\" report --dump $W/F --all "
		 "2>/dev/null | "
		 "grep -c '^0000:00:03.0' | grep -q '^2$' && n=$((n+1)); done; kill $pid; wait; rm -rf $W; "
		 "echo $n");
	cr_expect_str_eq(r.out, "0\n", "runs that reported the unchecked duplicate: %s", r.out);
	run_free(&r);
}

/* A pci.ids libpci cannot parse: its vendor line 3 does not start with 4 hex digits, which
 * pciutils' names-parse.c (id_parse_list) calls "Parse error" at that line. The message names
 * the file the user gave and that line, not the memory copy libpci read. */
Test(inputs, bad_pci_ids_names_file_and_line)
{
	struct run_result r =
	    bash("d=$(mktemp -d) && printf '# c\\n8086  Vendor\\nzzzz  bad\\n' > \"$d/ids\" && timeout 20 "
		 "\"$PCIBW_EXE\" report --pci-ids \"$d/ids\" --dump "
		 "\"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\"; rc=$?; rm -rf \"$d\"; exit $rc");
	cr_expect(!strstr(r.err, "/proc/self/fd"), "%s", r.err);
	expect3(r, "bad pci.ids", "/ids:3:1: Parse error");
}

/* A NUL or control byte in a pci.ids: libpci cuts a line at a NUL and calls it "Line too long",
 * and copies an escape byte into the name pcibw prints on the user's terminal. Both are bad input
 * at the byte: line 2, column 12 (a tab, "10c9", two blanks, then "Name" is columns 8-11). */
Test(inputs, pci_ids_nul_or_control_byte_named)
{
	static const char *const bytes[] = {"\\000", "\\033"};
	static const char *const want[] = {"/ids:2:12: NUL byte 0x00", "/ids:2:12: control byte 0x1b"};
	for (int i = 0; i < 2; i++) {
		char cmd[600];
		snprintf(
		    cmd, sizeof cmd,
		    "d=$(mktemp -d) && printf '8086  Intel\\n\\t10c9  Name%s[31m\\n' > \"$d/ids\" && "
		    "timeout 20 \"$PCIBW_EXE\" report --pci-ids \"$d/ids\" --dump "
		    "\"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\"; rc=$?; rm -rf \"$d\"; exit $rc",
		    bytes[i]);
		struct run_result r = bash(cmd);
		cr_expect(!strstr(r.out, "\033"), "the escape reached the output: %s", r.out);
		expect3(r, "pci.ids byte", want[i]);
	}
}

/* Nothing matched is exit 4 (doc/cli-contract.md); the message names the source as a place a
 * user knows: "on this machine" for a live probe, not the JSON source value "live". */
Test(inputs, no_such_interface_on_this_machine)
{
	struct run_result r = bash("timeout 20 \"$PCIBW_EXE\" report -i pcibw-no-such-if0");
	cr_expect_eq(r.status, 4, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "no device has interface pcibw-no-such-if0 on this machine"), "%s", r.err);
	run_free(&r);
}

/* A file larger than its reader takes is refused by the size fstat gives, before it is read: a
 * sparse file of 1 TiB costs nothing to make, and the message names its whole size, which no
 * reader that stops after reading its limit (1 GiB, whose reading took 2 GB of memory) could
 * know. --topology and --pci-ids (at most 1 GiB) and an iperf3 -J report (256 MiB). */
Test(inputs, file_larger_than_the_reader_takes_refused_by_its_size)
{
	static const struct {
		const char *first, *cmd, *want;
	} cases[] = {
	    {"<?xml", "report --topology \"$f\"",
	     "a file of 1099511627776 bytes: expected an hwloc XML export (lstopo FILE.xml) of at most "
	     "1073741824 bytes (not read)"},
	    {"8086  V", "report --pci-ids \"$f\" --dump \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\"",
	     "a file of 1099511627776 bytes: expected a pci.ids file (--pci-ids) of at most 1073741824 "
	     "bytes (not read)"},
	    {"{", "analyze \"$f\" --bus gen3x8",
	     "a file of 1099511627776 bytes: expected a single benchmark report of at most 256 MiB (not "
	     "read)"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char script[1400];
		snprintf(script, sizeof script,
			 "d=$(mktemp -d) && f=$d/big && printf '%s' > \"$f\" && truncate -s 1T \"$f\" && "
			 "timeout 20 \"$PCIBW_EXE\" %s; rc=$?; rm -rf \"$d\"; exit $rc",
			 cases[i].first, cases[i].cmd);
		expect3(bash(script), cases[i].cmd, cases[i].want);
	}
}

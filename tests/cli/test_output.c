/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every command's output reaches standard output or the command says why it did not: a full
 * disk (/dev/full: write(2) fails with ENOSPC) or a closed stdout (EBADF) is exit 1 with
 * "cannot write output: REASON" (doc/cli-contract.md, "Exit codes"); a reader that stops early
 * (`| head -1`) ends the command quietly, as coreutils do. --plot files too. */
#include "support.h"
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Commands that print something and succeed when their output can be written. */
static const char *const commands[] = {
    "--version",
    "--help",
    "help model",
    "help analyze",
    "report --help",
    "model --help",
    "analyze --help",
    "model --bus gen3x8",
    "model --bus gen3x8 --json",
    "model --bus gen3x8 --format csv",
    "report --dump \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\"",
    "report --dump \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" --json",
    "report --dump \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" --format csv",
    "analyze \"$PCIBW_DATA_DIR/examples/freebsd-2004-udp-echo-e1000.csv\" --bus pci33",
    "analyze \"$PCIBW_DATA_DIR/examples/freebsd-2004-udp-echo-e1000.csv\" --bus pci33 --json",
    "analyze \"$PCIBW_DATA_DIR/examples/freebsd-2004-udp-echo-e1000.csv\" --bus pci33 --format csv",
    "watch --replay \"$PCIBW_TEST_DATA/../watch/data/real-vm-lo-udp\"",
    "watch --replay \"$PCIBW_TEST_DATA/../watch/data/real-vm-lo-udp\" --json",
    "watch --replay \"$PCIBW_TEST_DATA/../watch/data/real-vm-lo-udp\" --format csv",
    "watch lo --count 2 --interval 0.1",
    "watch lo --count 2 --interval 0.1 --format csv",
};

/* The reason is said once, not once per layer that saw the write fail. */
static unsigned count_cannot_write(const char *s)
{
	unsigned n = 0;
	for (; (s = strstr(s, "cannot write")); s++)
		n++;
	return n;
}

static struct run_result sh(const char *cmd, const char *redirect)
{
	char line[1024];
	snprintf(line, sizeof line, "\"$PCIBW_EXE\" %s %s", cmd, redirect);
	return run_cmd(NULL, (const char *[]){"sh", "-c", line, NULL});
}

Test(output, each_command_succeeds_when_written)
{
	for (unsigned i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		struct run_result r = sh(commands[i], "");
		cr_expect_eq(r.status, 0, "%s: exit %d: %s", commands[i], r.status, r.err);
		cr_expect(r.out[0], "%s printed nothing", commands[i]);
		run_free(&r);
	}
}

Test(output, full_disk_is_exit_1_with_the_reason)
{
	for (unsigned i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		struct run_result r = sh(commands[i], ">/dev/full");
		cr_expect_eq(r.status, 1, "%s >/dev/full: exit %d: %s", commands[i], r.status, r.err);
		cr_expect(strstr(r.err, "pcibw: cannot write output: No space left on device"),
			  "%s >/dev/full: %s", commands[i], r.err);
		cr_expect_eq(count_cannot_write(r.err), 1, "%s >/dev/full: said once: %s", commands[i],
			     r.err);
		run_free(&r);
	}
}

Test(output, closed_stdout_is_exit_1_with_the_reason)
{
	for (unsigned i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		struct run_result r = sh(commands[i], ">&-");
		cr_expect_eq(r.status, 1, "%s >&-: exit %d: %s", commands[i], r.status, r.err);
		cr_expect(strstr(r.err, "pcibw: cannot write output: Bad file descriptor"), "%s >&-: %s",
			  commands[i], r.err);
		cr_expect_eq(count_cannot_write(r.err), 1, "%s >&-: said once: %s", commands[i], r.err);
		run_free(&r);
	}
}

/* 65,536 rows are far more than a pipe holds, so the writer meets the closed pipe: no message
 * either way (killed by SIGPIPE, or EPIPE when SIGPIPE is ignored). */
Test(output, closed_pipe_ends_quietly)
{
	const char *cmd = "model --bus gen3x8 --sizes 1-65536/1";
	char line[1024];
	snprintf(line, sizeof line,
		 "\"$PCIBW_EXE\" %s 2>/tmp/pcibw-err.$$ | head -1 >/dev/null; cat /tmp/pcibw-err.$$; rm -f "
		 "/tmp/pcibw-err.$$",
		 cmd);
	struct run_result r = run_cmd(NULL, (const char *[]){"sh", "-c", line, NULL});
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.out, "", "stderr of the writer: %s", r.out);
	run_free(&r);
	/* with SIGPIPE ignored (as some supervisors start their children) */
	snprintf(line, sizeof line,
		 "trap '' PIPE; \"$PCIBW_EXE\" %s 2>/tmp/pcibw-err.$$ | head -1 >/dev/null; cat "
		 "/tmp/pcibw-err.$$; rm -f /tmp/pcibw-err.$$",
		 cmd);
	r = run_cmd(NULL, (const char *[]){"sh", "-c", line, NULL});
	cr_expect_str_eq(r.out, "", "stderr of the writer: %s", r.out);
	run_free(&r);
}

/* --plot FILE is output too: unwritable or full is exit 1 with the reason. */
Test(output, plot_file_write_checked)
{
	struct run_result r = sh("model --bus gen3x8 --plot /dev/full", ">/dev/null");
	if (r.status == 5) { /* built without cairo: said so */
		run_free(&r);
		return;
	}
	cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "cannot write output: --plot /dev/full: No space left on device"), "%s",
		  r.err);
	run_free(&r);
	r = sh("analyze \"$PCIBW_DATA_DIR/examples/freebsd-2004-udp-echo-e1000.csv\" --bus pci33 --plot "
	       "/dev/full",
	       ">/dev/null");
	cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "cannot write output: --plot /dev/full: No space left on device"), "%s",
		  r.err);
	run_free(&r);
}

/* --textfile replaces its target by rename(2), which swaps out whatever the name is: a FIFO
 * (or, as root, a device node such as /dev/full) must be refused and left as it was, a
 * directory refused before anything is written; both are bad options (exit 2), named. */
Test(output, textfile_replaces_only_a_regular_file)
{
	char dir[] = "/tmp/pcibw-textfile-XXXXXX";
	cr_assert(mkdtemp(dir));
	char fifo[64], cmd[512];
	snprintf(fifo, sizeof fifo, "%s/fifo.prom", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	const char *targets[] = {fifo, dir};
	const char *kinds[] = {"is a FIFO, not a regular file", "is a directory, not a regular file"};
	for (unsigned i = 0; i < 2; i++) {
		snprintf(cmd, sizeof cmd,
			 "report --format prometheus --dump "
			 "\"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" --textfile %s",
			 targets[i]);
		struct run_result r = sh(cmd, ">/dev/null");
		cr_expect_eq(r.status, 2, "%s: exit %d: %s", targets[i], r.status, r.err);
		cr_expect(strstr(r.err, targets[i]) && strstr(r.err, kinds[i]), "%s: %s", targets[i], r.err);
		run_free(&r);
	}
	/* watch replaces the file every interval: refused before the first sample */
	snprintf(cmd, sizeof cmd,
		 "watch --replay \"$PCIBW_TEST_DATA/../watch/data/real-vm-lo-udp\" --format prometheus "
		 "--textfile %s",
		 fifo);
	struct run_result r = sh(cmd, ">/dev/null");
	cr_expect_eq(r.status, 2, "watch: exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, fifo) && strstr(r.err, kinds[0]), "watch: %s", r.err);
	run_free(&r);
	struct stat st;
	cr_expect(!lstat(fifo, &st) && S_ISFIFO(st.st_mode), "the FIFO was replaced");
	DIR *d = opendir(dir);
	cr_assert(d);
	unsigned n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	cr_expect_eq(n, 1, "a temporary file was left beside the FIFO");
	unlink(fifo);
	rmdir(dir);
}

/* A --textfile whose writes fail (here a file-size limit: write(2) returns EFBIG once the file
 * reaches it, with SIGXFSZ ignored) is exit 1 with the reason, no temporary file left; a directory
 * that cannot take the temporary file at all is exit 1 too (doc/cli-contract.md, `--textfile`).
 * The input is a dump of 53 functions with --all: at least one metric line of each is far over
 * the 512 bytes of `ulimit -f 1` (a 512-byte block in dash, POSIX), and reading a dump writes no
 * file, so only the output meets the limit. */
Test(output, textfile_write_failure_is_exit_1_with_the_reason)
{
	char dir[] = "/tmp/pcibw-textfile-XXXXXX", line[1024];
	cr_assert(mkdtemp(dir));
	const char *dump = test_data("tree-asus-p6t6-x58-rtl8111.lspci");
	struct run_result r;
	snprintf(line, sizeof line,
		 "trap '' XFSZ; ulimit -f 1; \"$PCIBW_EXE\" report --dump %s --all --format prometheus "
		 "--textfile %s/x.prom 2>&1 >/dev/null | grep -v warning; ls -A %s",
		 dump, dir, dir);
	r = run_cmd(NULL, (const char *[]){"sh", "-c", line, NULL});
	cr_expect(strstr(r.out, "pcibw: cannot write output: "), "%s", r.out);
	cr_expect(strstr(r.out, "x.prom: File too large\n"), "the reason: %s", r.out);
	cr_expect(!strstr(r.out, ".x.prom."), "a temporary file was left: %s", r.out);
	run_free(&r);
	snprintf(line, sizeof line,
		 "trap '' XFSZ; ulimit -f 1; \"$PCIBW_EXE\" report --dump %s --all --format prometheus "
		 "--textfile %s/x.prom 2>/dev/null",
		 dump, dir);
	r = run_cmd(NULL, (const char *[]){"sh", "-c", line, NULL});
	cr_expect_eq(r.status, 1, "exit %d", r.status);
	run_free(&r);
	/* no directory to put the temporary file in */
	snprintf(line, sizeof line, "%s/no/such/x.prom", dir);
	r = run_pcibw(NULL, (const char *[]){"report", "--dump", test_data("pcie-intel-82576-x4-gen1.lspci"),
					     "--format", "prometheus", "--textfile", line, NULL});
	cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "cannot write output: "), "%s", r.err);
	run_free(&r);
	rmdir(dir);
}

/* An output that is also an input of the run (doc/cli-contract.md, "Exit codes"): --plot over
 * the measurements, --plot or --textfile over the dump, --textfile over a recording, by name, by
 * another spelling or through a link, is exit 2 naming both, and the input is left as it was;
 * an empty name is exit 2 too, not "cannot write output: : No such file". */
Test(output, an_output_that_is_an_input_is_refused)
{
	char dir[] = "/tmp/pcibw-out-in-XXXXXX";
	cr_assert(mkdtemp(dir));
	char csv[128], dump[128], lnk[128], cmd[900];
	snprintf(csv, sizeof csv, "%s/run.csv", dir);
	snprintf(dump, sizeof dump, "%s/box.lspci", dir);
	snprintf(lnk, sizeof lnk, "%s/plot.svg", dir);
	snprintf(cmd, sizeof cmd,
		 "cp \"$PCIBW_DATA_DIR/examples/freebsd-2004-udp-echo-e1000.csv\" %s && cp "
		 "\"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" %s && ln -s run.csv %s && cp -r "
		 "\"$PCIBW_TEST_DATA/../watch/data/real-vm-lo-udp\" %s/rec",
		 csv, dump, lnk, dir);
	struct run_result r = run_cmd(NULL, (const char *[]){"sh", "-c", cmd, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	size_t csv_len, dump_len;
	char *csv0 = slurp(csv, &csv_len), *dump0 = slurp(dump, &dump_len);
	cr_assert(csv0 && dump0);
	const struct {
		const char *args, *want;
	} cases[] = {
	    {"analyze %s/run.csv --bus pci33 --plot %s/run.csv", "is the input "},
	    {"analyze %s/run.csv --bus pci33 --plot %s/./run.csv", "is the input "},
	    {"analyze %s/run.csv --bus pci33 --plot %s/plot.svg", "is the input "},
	    {"model --dump %s/box.lspci -s 01:00.0 --plot %s/box.lspci", "is --dump "},
	    {"report --dump %s/box.lspci --format prometheus --textfile %s/box.lspci", "is --dump "},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(cmd, sizeof cmd, cases[i].args, dir, dir);
		r = sh(cmd, ">/dev/null");
		cr_expect_eq(r.status, 2, "%s: exit %d: %s", cmd, r.status, r.err);
		cr_expect(strstr(r.err, cases[i].want) && strstr(r.err, "writing it would destroy it"),
			  "%s: %s", cmd, r.err);
		run_free(&r);
	}
	/* a copy: a pcibw that wrote it would spoil the bundled recording */
	snprintf(cmd, sizeof cmd, "watch --replay %s/rec --format prometheus --textfile %s/rec/samples", dir,
		 dir);
	r = sh(cmd, ">/dev/null");
	cr_expect_eq(r.status, 2, "watch: exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "is --replay's "), "watch: %s", r.err);
	run_free(&r);
	size_t n;
	char *now = slurp(csv, &n);
	cr_expect(now && n == csv_len && !memcmp(now, csv0, n), "the measurements were overwritten");
	free(now);
	now = slurp(dump, &n);
	cr_expect(now && n == dump_len && !memcmp(now, dump0, n), "the dump was overwritten");
	free(now);
	free(csv0);
	free(dump0);
	static const char *const empty[] = {
	    "model --bus gen3x8 --plot ''",
	    "report --dump \"$PCIBW_TEST_DATA/pcie-intel-82576-x4-gen1.lspci\" "
	    "--format prometheus --textfile ''"};
	for (unsigned i = 0; i < 2; i++) {
		r = sh(empty[i], ">/dev/null");
		cr_expect_eq(r.status, 2, "%s: exit %d: %s", empty[i], r.status, r.err);
		cr_expect(strstr(r.err, "'': empty file name: expected a file to write"), "%s", r.err);
		run_free(&r);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

/* --plot to a FIFO that nobody reads: open(2) for writing would wait for a reader for ever; it
 * is output not written, exit 1, at once (the test's 60 s limit would report a hang). */
Test(output, plot_to_a_fifo_nobody_reads_is_exit_1)
{
	char dir[] = "/tmp/pcibw-plot-fifo-XXXXXX";
	cr_assert(mkdtemp(dir));
	char fifo[64], cmd[256];
	snprintf(fifo, sizeof fifo, "%s/p.svg", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	snprintf(cmd, sizeof cmd, "model --bus gen3x8 --plot %s", fifo);
	struct run_result r = sh(cmd, ">/dev/null");
	if (r.status != 5) { /* 5: built without cairo, said so */
		cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.err);
		cr_expect(strstr(r.err, "cannot write output: --plot ") &&
			      strstr(r.err, ": a FIFO that nobody reads"),
			  "%s", r.err);
	}
	run_free(&r);
	unlink(fifo);
	rmdir(dir);
}

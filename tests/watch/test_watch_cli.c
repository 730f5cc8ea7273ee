/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `pcibw watch` at the command line: the exit codes of doc/cli-contract.md "watch" (no such
 * interface 4, a virtual NIC 0, a bad recording 3, --dump/--sysfs/--topology 2, output not
 * written 1), live runs as root and as an ordinary user, signals, and recordings: a non-empty
 * DIR refused, the --record-max cap, addresses removed, a recording replayed to the same verdict.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[256];

static void mktmp(void)
{
	snprintf(tmp, sizeof tmp, "/tmp/pcibw-watch-cli-XXXXXX");
	cr_assert(mkdtemp(tmp));
}

static void rmtmp(void)
{
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(watch_cli, .init = mktmp, .fini = rmtmp);

static struct run_result watch(const char *const *args)
{
	return run_pcibw(NULL, args);
}

Test(watch_cli, no_such_interface_is_4)
{
	struct run_result r = watch((const char *[]){"watch", "pcibw-no-such0", "--count", "1", NULL});
	cr_assert_eq(r.status, 4, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "no such interface 'pcibw-no-such0'"), "%s", r.err);
	run_free(&r);
	r = watch((const char *[]){"watch", "--replay", test_data("real-vm-lo-udp"), "eth9", NULL});
	cr_assert_eq(r.status, 4, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "no interface 'eth9' in the recording (it has lo, eth0)"), "%s", r.err);
	run_free(&r);
}

Test(watch_cli, machine_sources_and_bad_values_are_2)
{
	const char *opts[][3] = {
	    {"--dump", "x.lspci", NULL},  {"--sysfs", "/tmp", NULL},	{"--topology", "x.xml", NULL},
	    {"--interval", "0.05", NULL}, {"--interval", "3601", NULL}, {"--interval", "1e0x", NULL},
	    {"--count", "0", NULL},	  {"--record-max", "1K", NULL}, {"--pattern", "rx", NULL}};
	for (unsigned i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		struct run_result r = watch((const char *[]){"watch", "lo", opts[i][0], opts[i][1], NULL});
		cr_assert_eq(r.status, 2, "%s %s: exit %d: %s", opts[i][0], opts[i][1], r.status, r.err);
		cr_assert(strstr(r.err, "pcibw watch:"), "%s", r.err);
		run_free(&r);
	}
}

Test(watch_cli, virtual_nic_gives_the_cpu_side_as_root_and_nobody)
{
	/* lo has no device: a virtual NIC, exit 0, the CPUs measured */
	struct run_result r =
	    watch((const char *[]){"watch", "lo", "--count", "2", "--interval", "0.1", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.out, "lo: virtual NIC (no device): no bus ceiling; watching the CPU side"), "%s",
		  r.out);
	cr_assert(strstr(r.out, "summary: 2 intervals"), "%s", r.out);
	run_free(&r);
	r = run_pcibw_as_nobody(
	    NULL, (const char *[]){"watch", "lo", "--count", "1", "--interval", "0.1", "--json", NULL});
	cr_assert_eq(r.status, 0, "as nobody: exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.out, "\"type\":\"interval\""), "%s", r.out);
	cr_assert(strstr(r.out, "\"busy\":"), "%s", r.out);
	cr_assert(strstr(r.out, "\"type\":\"summary\""), "%s", r.out);
	run_free(&r);
	/* no IFACE: the interfaces with a PCI device, or exit 4 saying there is none */
	r = watch((const char *[]){"watch", "--count", "1", "--interval", "0.1", NULL});
	cr_assert(r.status == 0 || r.status == 4, "exit %d: %s", r.status, r.err);
	cr_assert(r.status == 0 ? strstr(r.out, "(every interface with a PCI device)") != NULL
				: strstr(r.err, "no interface has a PCI device") != NULL,
		  "%s%s", r.out, r.err);
	run_free(&r);
}

Test(watch_cli, sigint_and_sigterm_print_the_summary_and_exit_0)
{
	const char *sigs[] = {"INT", "TERM"};
	for (int i = 0; i < 2; i++) {
		char script[1024];
		snprintf(
		    script, sizeof script,
		    "\"$PCIBW_EXE\" watch lo --interval 0.1 --json & p=$!; sleep 0.6; kill -%s $p; wait $p",
		    sigs[i]);
		struct run_result r = run_cmd(NULL, (const char *[]){"sh", "-c", script, NULL});
		cr_assert_eq(r.status, 0, "SIG%s: exit %d: %s", sigs[i], r.status, r.err);
		char want[64];
		snprintf(want, sizeof want, "\"stopped_by\":\"SIG%s\"", sigs[i]);
		cr_assert(strstr(r.out, want), "%s", r.out);
		cr_assert(strstr(r.out, "\"type\":\"summary\""), "%s", r.out);
		run_free(&r);
	}
}

Test(watch_cli, output_not_written_is_1)
{
	struct run_result r =
	    run_cmd(NULL, (const char *[]){"sh", "-c", "\"$PCIBW_EXE\" watch --replay \"$1\" > /dev/full",
					   "sh", test_data("real-vm-lo-udp"), NULL});
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "cannot write output: No space left on device"), "%s", r.err);
	run_free(&r);
	/* a --textfile whose directory cannot take the file: exit 1, its reason said once (a second
	 * line gave the stale errno of that failure as if standard output had failed) */
	r = run_pcibw(NULL, (const char *[]){"watch", "--replay", test_data("real-vm-lo-udp"), "--format",
					     "prometheus", "--textfile", "/nonexistent-dir/w.prom", NULL});
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "cannot write output: /nonexistent-dir/w.prom: cannot create a temporary "
				"file in its directory"),
		  "%s", r.err);
	const char *first = strstr(r.err, "cannot write output");
	cr_assert(!strstr(first + 1, "cannot write output"), "said twice: %s", r.err);
	run_free(&r);
}

static void write_file(const char *dir, const char *name, const char *text, size_t len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fwrite(text, 1, len, f);
	fclose(f);
}

Test(watch_cli, bad_recordings_are_3_with_the_place)
{
	static const char meta[] = "pcibw-watch-recording 1\niface lo virtual=1 bus=virtual\n";
	struct {
		const char *meta, *samples, *want;
	} cases[] = {
	    {NULL, NULL, "meta: cannot open: No such file"},
	    {"not a recording\n", "", "meta:1: expected 'pcibw-watch-recording 1'"},
	    {"pcibw-watch-recording 1\ncpus zero\n", "", "meta:2: expected 'cpus N'"},
	    {meta, "",
	     "samples: the recording holds no sample: expected at least two 'sample TIME BLOBS' records"},
	    {meta, "sample 1.0 1\nblob proc/stat 24\ncpu0 1 1 1 1 1 1 1 1 0 0\n",
	     "samples: the recording holds one sample: expected at least two"},
	    {meta, "sample 1.0 1\nblob proc/stat 100\ncpu0 1",
	     "samples:32: expected the blob's LENGTH bytes"},
	    {meta, "sample 1.0 1\nbloop\n", "samples:13: expected 'blob KEY LENGTH'"},
	    /* a sign is said for what it is (scanf read "-5" as 2^64 - 5: "at most 64 MiB") */
	    {meta, "sample 1.0 1\nblob proc/stat -5\n",
	     "samples:13: blob length '-5' has a sign: expected 'blob KEY LENGTH' with LENGTH 0 to 64 MiB"},
	    {meta, "sample 2.0 1\nblob proc/stat 24\ncpu0 1 1 1 1 1 1 1 1 0 0\nsample 1.0 1\n",
	     "samples:56: expected sample times that never go back"},
	    {meta, "sample 1.0 1\nblob proc/stat 9\ncpu0 1 2\n\n", "proc/stat line 1: expected at least 7"},
	    /* CLOCK_MONOTONIC counts from boot: a negative time, or one past 10^10 s, is corrupt
	     * (a first sample at -1e300 made the whole run 1e300 s long) */
	    {meta, "sample -1e300 1\n", "samples:0: expected 'sample TIME BLOBS' (TIME in seconds of the"},
	    {meta, "sample 1e11 1\n", "samples:0: expected 'sample TIME BLOBS'"},
	    /* the meta keys are checked as recorded: --interval's range 0.1..3600, ids 0..65535 or
	     * -1, flags 0 or 1, each interface once */
	    {"pcibw-watch-recording 1\ninterval nan\n", "", "meta:2: expected 'interval SECONDS', 0.1..3600"},
	    {"pcibw-watch-recording 1\ninterval 0\n", "", "meta:2: expected 'interval SECONDS'"},
	    {"pcibw-watch-recording 1\ninterval 1e308\n", "", "meta:2: expected 'interval SECONDS'"},
	    {"pcibw-watch-recording 1\niface eth0 vendor=abc\n", "",
	     "meta:2: vendor 'abc': expected a decimal"},
	    {"pcibw-watch-recording 1\niface eth0 device=65536\n", "", "meta:2: device '65536': expected"},
	    {"pcibw-watch-recording 1\niface eth0 virtual=yes\n", "",
	     "meta:2: virtual 'yes': expected 0 or 1"},
	    {"pcibw-watch-recording 1\niface lo virtual=1\niface lo virtual=1\n", "",
	     "meta:3: interface lo a second time"},
	    /* the parser's reason whole (it was written over by the message quoting it) */
	    {"pcibw-watch-recording 1\niface eth0 hop_bus=gen9x3\n", "",
	     "meta:2: hop_bus 'gen9x3': bus 'gen9x3': unknown PCIe generation 9 (gen1..gen6)"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char dir[400];
		snprintf(dir, sizeof dir, "%s/r%u", tmp, i);
		cr_assert_eq(mkdir(dir, 0755), 0);
		if (cases[i].meta)
			write_file(dir, "meta", cases[i].meta, strlen(cases[i].meta));
		if (cases[i].samples)
			write_file(dir, "samples", cases[i].samples, strlen(cases[i].samples));
		struct run_result r = watch((const char *[]){"watch", "--replay", dir, NULL});
		cr_assert_eq(r.status, 3, "case %u: exit %d: %s", i, r.status, r.err);
		cr_assert(strstr(r.err, cases[i].want), "case %u: %s", i, r.err);
		cr_assert(strstr(r.err, dir), "case %u names the recording: %s", i, r.err);
		run_free(&r);
	}
}

Test(watch_cli, a_fifo_or_directory_in_a_recording_is_3_at_once)
{
	/* a writer-less FIFO blocks open() and read() forever: refused without reading, as in a
	 * sysfs copy; a directory is named as one, not read as an empty meta file */
	static const char meta[] = "pcibw-watch-recording 1\niface lo virtual=1 bus=virtual\n";
	static const struct {
		const char *fifo, *dir, *want;
	} cases[] = {
	    {"meta", NULL, "meta: is a pipe or FIFO: expected a regular file"},
	    {"samples", NULL, "samples: is a pipe or FIFO: expected a regular file"},
	    {NULL, "meta", "meta: is a directory"},
	    {NULL, "samples", "samples: is a directory"},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char dir[400], path[512];
		snprintf(dir, sizeof dir, "%s/f%u", tmp, i);
		cr_assert_eq(mkdir(dir, 0755), 0);
		const char *odd = cases[i].fifo ? cases[i].fifo : cases[i].dir;
		if (strcmp(odd, "meta"))
			write_file(dir, "meta", meta, strlen(meta));
		snprintf(path, sizeof path, "%s/%s", dir, odd);
		cr_assert_eq(cases[i].fifo ? mkfifo(path, 0644) : mkdir(path, 0755), 0);
		struct run_result r = watch((const char *[]){"watch", "--replay", dir, NULL});
		cr_assert_eq(r.status, 3, "case %u: exit %d: %s", i, r.status, r.err);
		cr_assert(strstr(r.err, cases[i].want), "case %u: %s", i, r.err);
		run_free(&r);
	}
}

Test(watch_cli, a_meta_line_longer_than_the_reader_takes_is_3)
{
	/* read in pieces, its tail would be a line of its own (here an iface line) */
	char meta[2200];
	int n = snprintf(meta, sizeof meta, "pcibw-watch-recording 1\n# %*s", 1100, "");
	snprintf(meta + n, sizeof meta - (size_t)n, "iface lo virtual=1\n");
	char dir[400];
	snprintf(dir, sizeof dir, "%s/long", tmp);
	cr_assert_eq(mkdir(dir, 0755), 0);
	write_file(dir, "meta", meta, strlen(meta));
	struct run_result r = watch((const char *[]){"watch", "--replay", dir, NULL});
	cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "meta:2: expected a line of at most 1022 bytes"), "%s", r.err);
	run_free(&r);
}

/* A NUL byte in meta is named as one, at its line and column (it read as "a line of at most
 * 1022 bytes": fgets stops the string at the NUL, so the line seemed to have no end). */
Test(watch_cli, a_nul_in_meta_is_named)
{
	static const char meta[] = "pcibw-watch-recording 1\niface lo vir\0tual=1\n";
	char dir[400];
	snprintf(dir, sizeof dir, "%s/nul", tmp);
	cr_assert_eq(mkdir(dir, 0755), 0);
	write_file(dir, "meta", meta, sizeof meta - 1);
	write_file(dir, "samples", "", 0);
	struct run_result r = watch((const char *[]){"watch", "--replay", dir, NULL});
	cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "meta:2:13: NUL byte: expected text"), "%s", r.err);
	run_free(&r);
}

/* A --record that cannot take a recording is refused before anything is printed: with no
 * interface named, watch printed "watching eth0 ..." first. Not a directory, not empty: exit 2;
 * a directory that cannot be made: exit 1 (recording not written). */
Test(watch_cli, record_refuses_a_non_empty_dir)
{
	write_file(tmp, "other", "x", 1);
	char file[400], missing[400];
	snprintf(file, sizeof file, "%s/other", tmp);
	snprintf(missing, sizeof missing, "%s/no-such-dir/rec", tmp);
	static const struct {
		int which, status;
		const char *want;
	} cases[] = {{0, 2, "is not empty"}, {1, 2, "not a directory"}, {2, 1, "cannot create it"}};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *dir = cases[i].which == 0 ? tmp : cases[i].which == 1 ? file : missing;
		for (int named = 0; named < 2; named++) {
			struct run_result r =
			    named ? watch((const char *[]){"watch", "lo", "--count", "1", "--interval", "0.1",
							   "--record", dir, NULL})
				  : watch((const char *[]){"watch", "--count", "1", "--interval", "0.1",
							   "--record", dir, NULL});
			cr_expect_eq(r.status, cases[i].status, "case %u/%d: exit %d: %s", i, named, r.status,
				     r.err);
			cr_expect(strstr(r.err, cases[i].want) && strstr(r.err, dir), "case %u/%d: %s", i,
				  named, r.err);
			cr_expect_str_eq(r.out, "", "case %u/%d: printed before refusing", i, named);
			run_free(&r);
		}
	}
}

/* The recording's directory removed while watch runs: writes to the removed files succeed and
 * keep nothing, so the run ends with exit 1 and says so, never exit 0 with "recording: DIR". */
Test(watch_cli, record_dir_removed_while_running_is_1)
{
	char dir[400], script[2048];
	snprintf(dir, sizeof dir, "%s/gone", tmp);
	snprintf(script, sizeof script,
		 "\"$PCIBW_EXE\" watch lo --interval 0.1 --count 100 --record '%s' & p=$!; "
		 "for i in $(seq 100); do [ -s '%s/samples' ] && break; sleep 0.1; done; "
		 "rm -rf '%s'; wait $p",
		 dir, dir, dir);
	struct run_result r = run_cmd(NULL, (const char *[]){"bash", "-c", script, NULL});
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "cannot write the recording:") &&
		      strstr(r.err, "was removed while watch ran"),
		  "%s", r.err);
	cr_assert(!strstr(r.out, "recording:"), "%s", r.out);
	run_free(&r);
}

Test(watch_cli, record_cap_and_replay_same_verdict_no_addresses)
{
	char dir[400], cap[400];
	snprintf(dir, sizeof dir, "%s/rec", tmp);
	snprintf(cap, sizeof cap, "%s/cap", tmp);
	struct run_result r = watch((const char *[]){"watch", "lo", "--count", "3", "--interval", "0.1",
						     "--json", "--record", dir, NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	char *live = strstr(r.out, "\"type\":\"summary\"");
	cr_assert(live);
	char *v = strstr(live, "\"verdict\":");
	cr_assert(v);
	char verdict[64];
	cr_assert_eq(sscanf(v, "\"verdict\":\"%63[^\"]\"", verdict), 1);
	run_free(&r);
	r = watch((const char *[]){"watch", "--replay", dir, "--json", NULL});
	cr_assert_eq(r.status, 0, "replay: exit %d: %s", r.status, r.err);
	char want[96];
	snprintf(want, sizeof want, "\"verdict\":\"%s\"", verdict);
	cr_assert(strstr(strstr(r.out, "\"type\":\"summary\""), want), "live %s, replay: %s", verdict, r.out);
	cr_assert(strstr(r.out, "\"intervals\":3"), "%s", r.out);
	run_free(&r);
	/* no MAC address of this machine's interfaces (lo's all-zero one aside) is in the recording */
	char path[512];
	snprintf(path, sizeof path, "%s/samples", dir);
	char *samples = slurp(path, NULL);
	cr_assert(samples);
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char ap[512], mac[64] = "";
		snprintf(ap, sizeof ap, "/sys/class/net/%s/address", e->d_name);
		FILE *f = fopen(ap, "r");
		if (!f)
			continue;
		if (fscanf(f, "%63s", mac) == 1 && strcmp(mac, "00:00:00:00:00:00") && strlen(mac) == 17)
			cr_assert_null(strstr(samples, mac), "%s's address %s recorded", e->d_name, mac);
		fclose(f);
	}
	if (d)
		closedir(d);
	free(samples);
	/* a 4 KiB cap: one sample of this machine's /proc is more than that, so no replayable
	 * recording (two samples) can be written: exit 1 naming the least cap that holds two, and
	 * what the run created (DIR, DIR/meta, DIR/samples) is removed, never a recording that
	 * cannot be replayed (doc/cli-contract.md, watch) */
	r = watch((const char *[]){"watch", "lo", "--count", "2", "--interval", "0.1", "--record", cap,
				   "--record-max", "4K", NULL});
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "--record-max 4096 bytes holds 0 sample(s)"), "%s", r.err);
	cr_assert(strstr(r.err, "a replay needs at least two"), "%s", r.err);
	cr_assert(strstr(r.err, "(the recording was removed)"), "%s", r.err);
	const char *least = strstr(r.err, "give --record-max ");
	cr_assert(least, "%s", r.err);
	unsigned long long n = strtoull(least + strlen("give --record-max "), NULL, 10);
	cr_assert(n > 4096 && n % 4096 == 0, "least cap %llu: %s", n, r.err);
	struct stat st;
	cr_assert_neq(stat(cap, &st), 0, "%s was created by the run and left behind", cap);
	run_free(&r);
	/* an empty DIR given stays, and stays empty: only what the run created goes */
	cr_assert_eq(mkdir(cap, 0755), 0);
	r = watch((const char *[]){"watch", "lo", "--count", "2", "--interval", "0.1", "--record", cap,
				   "--record-max", "4K", NULL});
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	run_free(&r);
	cr_assert_eq(stat(cap, &st), 0, "the directory given was removed");
	snprintf(path, sizeof path, "%s/meta", cap);
	cr_assert_neq(stat(path, &st), 0, "%s left behind", path);
	snprintf(path, sizeof path, "%s/samples", cap);
	cr_assert_neq(stat(path, &st), 0, "%s left behind", path);
	/* the cap the message names holds the two samples a replay needs */
	char least_arg[32];
	snprintf(least_arg, sizeof least_arg, "%llu", n);
	r = watch((const char *[]){"watch", "lo", "--count", "1", "--interval", "0.1", "--record", cap,
				   "--record-max", least_arg, NULL});
	cr_assert_eq(r.status, 0, "--record-max %s: exit %d: %s", least_arg, r.status, r.err);
	run_free(&r);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_leq(st.st_size, (off_t)n);
}

Test(watch_cli, a_device_no_profile_lists_gets_the_warning_analyze_gives)
{
	/* synthetic-unknown-ids: real-vm-lo-udp's samples with eth0 recorded as 1234:5678 (ids no
	 * profile in data/nic lists) on gen3 x8, no profile recorded */
	char dir[400], path[512];
	snprintf(dir, sizeof dir, "%s/synthetic-unknown-ids", tmp);
	cr_assert_eq(mkdir(dir, 0755), 0);
	static const char meta[] =
	    "pcibw-watch-recording 1\n"
	    "# synthetic-unknown-ids: real-vm-lo-udp with eth0 recorded as vendor 0x1234 device 0x5678\n"
	    "interval 0.5\ncpus 2\ncpu_mhz 2596.2\n"
	    "iface lo slot=- dev=- driver=- virtual=1 pci=0 own_link=0 bus=virtual nic=- line_rate_gbps=0 "
	    "vendor=-1 device=-1\n"
	    "iface eth0 slot=0000:03:00.0 dev=0000:03:00.0 driver=- virtual=0 pci=1 own_link=0 bus=gen3x8 "
	    "nic=- line_rate_gbps=10 vendor=4660 device=22136\n";
	write_file(dir, "meta", meta, strlen(meta));
	snprintf(path, sizeof path, "%s/samples", test_data("real-vm-lo-udp"));
	size_t len = 0;
	char *samples = slurp(path, &len);
	cr_assert(samples);
	write_file(dir, "samples", samples, len);
	free(samples);
	struct run_result r = watch((const char *[]){"watch", "--replay", dir, "--json", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	char *sum = strstr(r.out, "\"type\":\"summary\"");
	cr_assert(sum, "%s", r.out);
	cr_assert(
	    strstr(sum, "\"eth0: no NIC profile lists 1234:5678; using 'simple' (pick one with --nic)\""),
	    "%s", sum);
	cr_assert(strstr(sum, "\"warning_codes\":[\"no-nic-profile\"]"), "%s", sum);
	cr_assert(strstr(sum, "{\"code\":\"no-nic-profile\""), "the interface's notes: %s", sum);
	run_free(&r);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CLI skeleton: --version, help for every command, exit code 2 for usage errors
 * (doc/cli-contract.md, "Commands" and "Exit codes"). */
#include "pcibw/version.h"
#include "support.h"
#include <criterion/criterion.h>
#include <string.h>

Test(cli, version)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"--version", NULL});
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "pcibw " PCIBW_VERSION), "got: %s", r.out);
	run_free(&r);
}

Test(cli, help_every_command)
{
	const char *cmds[] = {"report", "model", "analyze"};
	for (int i = 0; i < 3; i++) {
		struct run_result r = run_pcibw(NULL, (const char *[]){cmds[i], "--help", NULL});
		cr_assert_eq(r.status, 0, "%s --help exit %d: %s", cmds[i], r.status, r.err);
		cr_assert(strstr(r.out, "Usage: pcibw"), "%s --help: %s", cmds[i], r.out);
		cr_assert(strstr(r.out, cmds[i]));
		run_free(&r);
		r = run_pcibw(NULL, (const char *[]){"help", cmds[i], NULL});
		cr_assert_eq(r.status, 0);
		cr_assert(strstr(r.out, cmds[i]));
		run_free(&r);
	}
}

Test(cli, unknown_command_is_usage_error)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"frobnicate", NULL});
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "frobnicate"), "stderr: %s", r.err);
	run_free(&r);
}

Test(cli, unknown_option_is_usage_error)
{
	const char *cmds[] = {"report", "model", "analyze"};
	for (int i = 0; i < 3; i++) {
		struct run_result r = run_pcibw(NULL, (const char *[]){cmds[i], "--no-such-option", NULL});
		cr_assert_eq(r.status, 2, "%s: exit %d", cmds[i], r.status);
		cr_assert(strstr(r.err, "no-such-option"), "%s stderr: %s", cmds[i], r.err);
		run_free(&r);
	}
}

Test(cli, bad_format_is_usage_error)
{
	struct run_result r = run_pcibw(NULL, (const char *[]){"model", "--format", "xml", NULL});
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "xml"));
	run_free(&r);
}

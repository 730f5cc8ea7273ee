/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw: git-style dispatch to report / model / analyze / watch / slots. */
#include "cli.h"
#include "pcibw/version.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char main_help[] =
    "Usage: pcibw [COMMAND] [OPTIONS]\n"
    "Is this host limited by its I/O bus or by its CPU?\n"
    "\n"
    "Commands:\n"
    "  report            bus kind, speed, width and the bottleneck hop of each NIC (default)\n"
    "  model             theoretical bus ceiling per packet size and traffic pattern (what-if)\n"
    "  analyze FILE...   measured throughput against the model, the wire and the CPU: a verdict\n"
    "  watch [IFACE...]  the same verdict live, from interface counters and per-core CPU time\n"
    "  slots             every slot a card can sit in, and with --nic which one carries it\n"
    "  help [COMMAND]    this text, or a command's options\n"
    "\n"
    "Options:\n"
    "  --version         print the version and exit\n"
    "  -h, --help        print this help and exit\n"
    "\n"
    "`pcibw` alone reports on this machine. See pcibw(1) and `pcibw COMMAND --help`.\n";

/* the function behind each command of the library's command list (pcibw_commands) */
static const struct {
	const char *name;
	int (*fn)(int, char **);
} commands[] = {
    {"report", cmd_report}, {"model", cmd_model}, {"analyze", cmd_analyze},
    {"watch", cmd_watch},   {"slots", cmd_slots},
};

static int find_command(const char *name)
{
	for (unsigned i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(commands[i].name, name))
			return (int)i;
	return -1;
}

/* A closed standard descriptor is taken by the next open(): an input (or a memory copy of one)
 * would then receive the report. Hold it with a read-only /dev/null, so writes to it fail
 * (EBADF) and are reported, as on a closed descriptor. */
static void hold_closed_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int n = open("/dev/null", O_RDONLY);
			if (n >= 0 && n != fd) {
				dup2(n, fd);
				close(n);
			}
		}
}

/* What the command printed must have reached standard output: a full disk or a closed stdout is
 * exit 1 with the reason; a reader that went away (`| head -1`) ends it quietly, as coreutils do
 * (SIGPIPE when it is not ignored, else EPIPE here). */
static int finish_output(int rc)
{
	int bad = fflush(stdout) != 0 || ferror(stdout);
	int e = bad ? errno : 0;
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad)
		return rc;
	if (e != EPIPE)
		fprintf(stderr, "pcibw: cannot write output: %s\n", e ? strerror(e) : "write error");
	return rc ? rc : PCIBW_EINTERNAL;
}

/* `pcibw help [COMMAND]`; `pcibw help --help` is what a usage error of `help` suggests, so it is
 * the main help, not an error */
static int help(int n, char **args)
{
	if (n > 0 && (!strcmp(args[0], "--help") || !strcmp(args[0], "-h"))) {
		if (n > 1)
			return cli_usage_error("help", "%s takes no argument (got '%s')", args[0], args[1]);
		n = 0;
	}
	if (n == 0) {
		fputs(main_help, stdout);
		return 0;
	}
	if (find_command(args[0]) < 0)
		return cli_usage_error("help", "unknown command '%s' (report, model, analyze, watch, slots)",
				       args[0]);
	if (n > 1)
		return cli_usage_error("help", "one command at a time (got '%s' after '%s')", args[1],
				       args[0]);
	return cli_help(args[0]);
}

static int run(int argc, char **argv)
{
	if (argc < 2)
		return cmd_report(1, (char *[]){"report", NULL});
	const char *a = argv[1];
	if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
		if (argc > 2)
			return cli_usage_error("", "%s takes no argument (got '%s')", a, argv[2]);
		printf("pcibw %s\n", PCIBW_VERSION);
		return 0;
	}
	if (!strcmp(a, "help"))
		return help(argc - 2, argv + 2);
	/* `pcibw --help ARGS` is `pcibw help ARGS`: the same help, the same refusals */
	if (!strcmp(a, "--help") || !strcmp(a, "-h"))
		return help(argc - 2, argv + 2);
	int i = find_command(a);
	if (i >= 0)
		return commands[i].fn(argc - 1, argv + 1);
	if (a[0] == '-') {
		/* `pcibw --json`, `pcibw -s 01:00.0`: options of the default command */
		argv[0] = "report";
		return cmd_report(argc, argv);
	}
	return cli_usage_error("", "unknown command '%s' (report, model, analyze, watch, slots, help)", a);
}

int main(int argc, char **argv)
{
	hold_closed_std_fds();
	return finish_output(run(argc, argv));
}

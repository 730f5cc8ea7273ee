/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A step run in a forked child; see isolate.h. POSIX only (fork, waitpid, alarm, dup2 behave
 * alike on Linux and FreeBSD), so one file serves both. */
#include "isolate.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Exit codes of the child that mean "fn returned": anything else (a sanitizer exits 1, abort is
 * a signal) is a crash. */
enum { CHILD_OK = 97, CHILD_FAILED = 98 };

int pcibw_isolated(int (*fn)(void *ctx), void *ctx, unsigned seconds, char *detail, unsigned len)
{
	if (detail && len)
		detail[0] = '\0';
	fflush(NULL); /* nothing buffered may be written twice */
	pid_t pid = fork();
	if (pid < 0) {
		if (detail)
			snprintf(detail, len, "fork: %s", strerror(errno));
		return PCIBW_ISOLATED_NOFORK;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		signal(SIGALRM, SIG_DFL);
		alarm(seconds);
		_exit(fn(ctx) == 0 ? CHILD_OK : CHILD_FAILED);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			if (detail)
				snprintf(detail, len, "waitpid: %s", strerror(errno));
			return PCIBW_ISOLATED_NOFORK;
		}
	if (WIFEXITED(st) && WEXITSTATUS(st) == CHILD_OK)
		return PCIBW_ISOLATED_OK;
	if (WIFEXITED(st) && WEXITSTATUS(st) == CHILD_FAILED)
		return PCIBW_ISOLATED_FAILED;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
		if (detail)
			snprintf(detail, len, "still running after %u s", seconds);
		return PCIBW_ISOLATED_TIMEOUT;
	}
	if (detail) {
		if (WIFSIGNALED(st))
			snprintf(detail, len, "signal %d, %s", WTERMSIG(st), strsignal(WTERMSIG(st)));
		else
			snprintf(detail, len, "exit status %d", WEXITSTATUS(st));
	}
	return PCIBW_ISOLATED_CRASHED;
}

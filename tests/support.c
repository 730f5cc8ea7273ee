/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "support.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static char *read_fd(int fd)
{
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);
	ssize_t got;
	if (!buf)
		abort();
	while ((got = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t)got;
		if (cap - n - 1 == 0) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb)
				abort();
			buf = nb;
		}
	}
	buf[n] = '\0';
	return buf;
}

struct run_result run_cmd(const char *stdin_file, const char *const *argv)
{
	struct run_result r = {0};
	char outp[] = "/tmp/pcibw-test-out-XXXXXX", errp[] = "/tmp/pcibw-test-err-XXXXXX";
	int ofd = mkstemp(outp), efd = mkstemp(errp);
	unlink(outp);
	unlink(errp);
	pid_t pid = fork();
	if (pid == 0) {
		int in = open(stdin_file ? stdin_file : "/dev/null", O_RDONLY);
		if (in < 0)
			_exit(126);
		dup2(in, 0);
		dup2(ofd, 1);
		dup2(efd, 2);
		alarm(60);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	lseek(ofd, 0, SEEK_SET);
	lseek(efd, 0, SEEK_SET);
	r.out = read_fd(ofd);
	r.err = read_fd(efd);
	close(ofd);
	close(efd);
	return r;
}

struct run_result run_pcibw(const char *stdin_file, const char *const *args)
{
	const char *argv[64];
	int n = 0;
	const char *exe = getenv("PCIBW_EXE");
	argv[n++] = exe ? exe : "pcibw";
	for (int i = 0; args[i] && n < 63; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return run_cmd(stdin_file, argv);
}

void run_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

const char *test_data(const char *name)
{
	static char bufs[8][4096];
	static int slot;
	char *b = bufs[slot++ % 8];
	const char *dir = getenv("PCIBW_TEST_DATA");
	snprintf(b, sizeof bufs[0], "%s/%s", dir ? dir : "tests/data", name);
	return b;
}

uint64_t xorshift64_next(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 2685821657736338717ull;
}

const char *temp_file(const char *text, const char *suffix)
{
	static char bufs[8][128];
	static int slot;
	char *b = bufs[slot++ % 8];
	snprintf(b, sizeof bufs[0], "/tmp/pcibw-test-XXXXXX%s", suffix);
	int fd = mkstemps(b, (int)strlen(suffix));
	size_t n = strlen(text);
	if (fd < 0 || write(fd, text, n) != (ssize_t)n || close(fd)) {
		perror(b);
		abort();
	}
	return b;
}

struct run_result run_pcibw_as_nobody(const char *share, const char *const *args)
{
	struct run_result r = {0};
	char dir[] = "/tmp/pcibw-nobody-XXXXXX", cmd[16384], exe[64], env[80], data_env[96], cwd[80],
	     copy[4200] = "";
	if (!mkdtemp(dir)) {
		r.status = 125;
		r.out = calloc(1, 1);
		r.err = strdup("mkdtemp failed");
		return r;
	}
	/* The command links libpcibw statically: the binary alone runs. Its data tree
	 * ($PCIBW_DATA_DIR: NIC profiles, port table) is copied too, since nobody may not reach the tree. */
	const char *data = getenv("PCIBW_DATA_DIR");
	snprintf(cmd, sizeof cmd, "chmod 755 '%s' && cp -L '%s' '%s'/", dir, getenv("PCIBW_EXE"), dir);
	if (data) {
		size_t n0 = strlen(cmd);
		snprintf(cmd + n0, sizeof cmd - n0, " && cp -RL '%s' '%s/data'", data, dir);
	}
	if (share) {
		const char *base = strrchr(share, '/');
		snprintf(copy, sizeof copy, "%s/%s", dir, base ? base + 1 : share);
		size_t n = strlen(cmd);
		snprintf(cmd + n, sizeof cmd - n, " && cp -a '%s' '%s'", share, copy);
	}
	size_t n = strlen(cmd);
	snprintf(cmd + n, sizeof cmd - n, " && chmod -R a+rX '%s'", dir);
	if (system(cmd) != 0) {
		r.status = 125;
		r.out = calloc(1, 1);
		r.err = strdup(cmd);
	} else {
		const char *argv[64];
		int k = 0;
		snprintf(exe, sizeof exe, "%s/pcibw", dir);
		snprintf(env, sizeof env, "LD_LIBRARY_PATH=%s", dir);
		snprintf(data_env, sizeof data_env, "PCIBW_DATA_DIR=%s/data", dir);
		/* the working directory too: the caller's may be one nobody cannot enter */
		snprintf(cwd, sizeof cwd, "--chdir=%s", dir);
		argv[k++] = "setpriv";
		argv[k++] = "--reuid=65534";
		argv[k++] = "--regid=65534";
		argv[k++] = "--clear-groups";
		argv[k++] = "env";
		argv[k++] = cwd;
		argv[k++] = env;
		if (data)
			argv[k++] = data_env;
		argv[k++] = exe;
		for (int i = 0; args[i] && k < 63; i++)
			argv[k++] = share && !strcmp(args[i], share) ? copy : args[i];
		argv[k] = NULL;
		r = run_cmd(NULL, argv);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return r;
}

char *squash_space(const char *s)
{
	size_t n = strlen(s);
	char *o = malloc(n + 1), *w = o;
	if (!o)
		return NULL;
	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			if (w > o && w[-1] != ' ')
				*w++ = ' ';
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
	return o;
}

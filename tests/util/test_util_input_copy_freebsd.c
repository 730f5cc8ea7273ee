/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FreeBSD form of pcibw_input_memfd (src/util/input_freebsd.c: a private mkdtemp copy) uses
 * POSIX calls only, so it is built and run here too, linked alone (the library holds the Linux
 * form): the copy holds exactly the bytes given, only its owner can reach it, its name honours
 * $TMPDIR, and pcibw_input_memfd_close leaves nothing behind. */
#include "src/util/input.h"
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[64];

static void make_tmp(void)
{
	strcpy(tmp, "/tmp/pcibw-copy-test.XXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
}

static void drop_tmp(void)
{
	/* the directory must be empty again: rmdir fails otherwise */
	cr_expect_eq(rmdir(tmp), 0, "%s left non-empty: %s", tmp, strerror(errno));
}

TestSuite(input_copy, .init = make_tmp, .fini = drop_tmp);

static char *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	size_t cap = 1 << 20;
	char *b = malloc(cap);
	*n = fread(b, 1, cap, f);
	fclose(f);
	return b;
}

Test(input_copy, holds_the_bytes_owner_only_and_is_removed)
{
	size_t len = 100000;
	char *data = malloc(len);
	for (size_t i = 0; i < len; i++)
		data[i] = (char)(i * 7); /* NULs and every byte value included */
	struct pcibw_err err = {0};
	int fd = -1;
	char path[64];
	cr_assert_eq(pcibw_input_memfd(data, len, &fd, path, sizeof path, &err), PCIBW_OK, "%s", err.msg);
	cr_expect_eq(strncmp(path, tmp, strlen(tmp)), 0, "%s not under TMPDIR %s", path, tmp);
	struct stat st;
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0400);
	cr_expect(S_ISREG(st.st_mode));
	cr_expect_eq((size_t)st.st_size, len);
	char dir[64];
	strcpy(dir, path);
	*strrchr(dir, '/') = '\0';
	cr_assert_eq(stat(dir, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0700);
	size_t n;
	char *back = read_all(path, &n); /* by name, as libpci opens it */
	cr_expect_eq(n, len);
	cr_expect_eq(memcmp(back, data, len), 0);
	free(back);
	char first[4];
	cr_expect_eq(read(fd, first, sizeof first), 4); /* the descriptor stands at the first byte */
	cr_expect_eq(memcmp(first, data, 4), 0);
	pcibw_input_memfd_close(fd, path);
	cr_expect_neq(access(path, F_OK), 0);
	cr_expect_neq(access(dir, F_OK), 0);
	free(data);
}

Test(input_copy, empty_input_is_an_empty_file)
{
	struct pcibw_err err = {0};
	int fd = -1;
	char path[64];
	cr_assert_eq(pcibw_input_memfd("", 0, &fd, path, sizeof path, &err), PCIBW_OK, "%s", err.msg);
	struct stat st;
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_size, 0);
	pcibw_input_memfd_close(fd, path);
	cr_expect_neq(access(path, F_OK), 0);
}

Test(input_copy, tmpdir_too_long_for_the_buffer_is_refused)
{
	struct pcibw_err err = {0};
	int fd = -1;
	char path[32]; /* tmp is 27 characters: no room for "/pcibw.XXXXXX/input" */
	cr_assert_eq(pcibw_input_memfd("x", 1, &fd, path, sizeof path, &err), PCIBW_EINTERNAL);
	cr_expect(strstr(err.msg, "too long") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, tmp) != NULL, "%s", err.msg);
}

Test(input_copy, missing_tmpdir_is_named)
{
	char gone[96];
	snprintf(gone, sizeof gone, "%s/absent", tmp);
	setenv("TMPDIR", gone, 1);
	struct pcibw_err err = {0};
	int fd = -1;
	char path[96];
	cr_assert_eq(pcibw_input_memfd("x", 1, &fd, path, sizeof path, &err), PCIBW_EINTERNAL);
	cr_expect(strstr(err.msg, "cannot make a private directory") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, gone) != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, strerror(ENOENT)) != NULL, "%s", err.msg);
}

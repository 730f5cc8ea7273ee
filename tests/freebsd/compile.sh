#!/bin/sh
# Compile every *_freebsd.c of the tree on Linux against tests/freebsd/include, which declares
# exactly the FreeBSD interfaces those files use (each header cites the man page it follows;
# it shadows the glibc header of the same name), so a FreeBSD file that does not compile fails
# the suite here. Syntax and types only: nothing is linked or run.
# Usage: compile.sh SOURCE_ROOT CC
set -eu
root=$1
cc=$2
cd "$root"
files=$(find src -name '*_freebsd.c' | sort)
[ -n "$files" ] || { echo "no *_freebsd.c files"; exit 1; }
for f in $files; do
	"$cc" -std=c17 -fsyntax-only -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
		-I tests/freebsd/include -I include -I . -I "$(dirname "$f")" $(pkg-config --cflags libpci 2>/dev/null) "$f"
	echo "compiled: $f"
done

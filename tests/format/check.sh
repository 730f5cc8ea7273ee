#!/bin/sh
# Every C source and header of the tree must already be as `clang-format -i` (with the tree's
# .clang-format) would write it, so a drifting file fails the suite rather than a later diff.
# Usage: check.sh SOURCE_ROOT. Exit 77 (meson: skipped) when clang-format is not installed.
set -eu
root=$1
command -v clang-format >/dev/null 2>&1 || { echo "clang-format not installed: skipped"; exit 77; }
cd "$root"
# Tracked files when this is a git checkout; otherwise (a tarball, or git refusing a checkout
# owned by another user) every C file under the source directories.
if files=$(git ls-files -- '*.c' '*.h' 2>/dev/null) && [ -n "$files" ]; then
	:
else
	files=$(find src include tests bench -name '*.[ch]' -type f | sort)
fi
# shellcheck disable=SC2086 # one file name per word: the tree has no blanks in C file names
clang-format --dry-run -Werror $files
echo "clang-format: $(echo "$files" | wc -l) files match .clang-format"

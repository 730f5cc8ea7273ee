#!/bin/sh
# The rooms of src/ (doc/hacking.md "Rooms") meet only through the public headers of include/pcibw/:
# a file of src/ROOM includes a header of another room only where that room is src/util (the
# shared helpers), or where the including file is the wiring of src/cli. So no circle between
# rooms can form (render <-> watch was one), and a renderer sees only what it is handed.
# Usage: rooms.sh SOURCE_ROOT. Prints each offending include as FILE:LINE: ... and fails.
set -eu
cd "$1"
# shellcheck disable=SC2046 # one file name per word: the tree has no blanks in C file names
find src -name '*.[ch]' -type f | sort | xargs awk '
	FNR == 1 { split(FILENAME, p, "/"); room = p[2] }
	/^[ \t]*#[ \t]*include[ \t]*"(src\/|\.\.\/)/ {
		inc = $0
		sub(/^[^"]*"/, "", inc)
		sub(/".*$/, "", inc)
		split(inc, q, "/")
		other = q[2]
		if (other != room && other != "util" && room != "cli") {
			printf "%s:%d: includes %s: a private header of src/%s (use include/pcibw/)\n", FILENAME, FNR, inc, other
			bad++
		}
	}
	END {
		if (bad) exit 1
		print "rooms: every include between rooms goes through include/pcibw/ (or src/util, or from src/cli)"
	}'

#!/bin/sh
# Every external symbol of libpcibw.a is named for where it lives (doc/hacking.md "Conventions"):
# the public API's `pcibw_` prefix, or the name of the room whose file defines it (`probe_`,
# `ingest_`, `watch_`, `verdict_`, `render_`, `request_`, `model_`, `util_`): a room's private
# function cannot collide with another's or with a library's, and its name says where to look.
# meson names each object of the archive ROOM_FILE.c.o (src/ROOM/FILE.c). Names the sanitizers
# add (`__asan_*`, `__odr_asan.*`: they begin with "__") are not the tree's.
# Usage: symbols.sh LIBPCIBW_A. Prints each offender as OBJECT: SYMBOL and fails.
set -eu
lib=$1
command -v nm >/dev/null 2>&1 || { echo "nm not installed: skipped"; exit 77; }
nm -A -g --defined-only "$lib" | awk '
	{
		n = split($1, p, ":")
		obj = p[n - 1]
		sym = $NF
		sub(/.*\//, "", obj)
		room = obj
		sub(/_.*/, "", room)
		total++
		if (sym ~ /^__/ || sym ~ /^pcibw_/ || index(sym, room "_") == 1)
			next
		printf "%s: %s: neither pcibw_ nor %s_\n", obj, sym, room
		bad++
	}
	END {
		if (!total) { print "no symbols read"; exit 1 }
		if (bad) exit 1
		printf "symbols: %d external symbols, each pcibw_ or its room'"'"'s prefix\n", total
	}'

#!/bin/sh
# Every external symbol of libpcibw.a is named for where it lives (doc/hacking.md "Conventions"):
# the public API's `pcibw_` prefix, or the name of the room whose file defines it (`probe_`,
# `ingest_`, `watch_`, `verdict_`, `render_`, `request_`, `model_`, `util_`): a room's private
# function cannot collide with another's or with a library's, and its name says where to look.
# meson names each object of the archive ROOM_FILE.c.o (src/ROOM/FILE.c). Names the sanitizers
# add (`__asan_*`, `__odr_asan.*`: they begin with "__") are not the tree's.
# And no private header of src/ROOM declares a function another room defines (src/cli, the
# command's wiring, is not in the library and is left out): a room's header speaks for its room.
# Usage: symbols.sh LIBPCIBW_A SOURCE_ROOT. Prints each offender and fails.
set -eu
lib=$1
root=$2
command -v nm >/dev/null 2>&1 || { echo "nm not installed: skipped"; exit 77; }
defs=$(mktemp)
trap 'rm -f "$defs"' EXIT
# SYMBOL ROOM, for every function the library defines
nm -A -g --defined-only "$lib" | awk '{ n = split($1, p, ":"); o = p[n - 1]; sub(/.*\//, "", o)
	r = o; sub(/_.*/, "", r); print $NF, r }' | sort -u >"$defs"
bad=0
for h in $(cd "$root" && find src -name '*.h' ! -path 'src/cli/*' | sort); do
	room=$(echo "$h" | cut -d/ -f2)
	# prototypes start a line with their return type; static inline ones are the header's own
	for f in $(grep -E '^[a-z][a-z_ 0-9*]*[ *][a-z_0-9]+\(' "$root/$h" | grep -v '^static' |
		sed -E 's/^[^(]*[ *]([a-z_0-9]+)\(.*/\1/'); do
		where=$(awk -v f="$f" '$1 == f { print $2; exit }' "$defs")
		if [ "$where" != "$room" ]; then
			if [ -n "$where" ]; then
				echo "$h: declares $f, which src/$where defines"
			else
				echo "$h: declares $f, which the library does not define"
			fi
			bad=1
		fi
	done
done
[ "$bad" = 0 ] || exit 1
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

#!/usr/bin/env bash
# A self-contained pcibw to copy onto a host without installing anything, by one command:
#   scripts/static-build.sh [OUT_DIR]          (default: /tmp/pcibw-static)
# hwloc, jansson, libcsv, inih and expat are linked statically (Debian 12 ships their .a);
# glibc, libpci3 (and its zlib) and libudev1 stay dynamic: Debian ships no libpci.a or
# libudev.a. Plots are left out (cairo pulls in a font stack). The tarball unpacks to
# pcibw-VERSION/{bin,share}: the binary finds its NIC profiles in ../share/pcibw from its own
# location, wherever the tree is unpacked. Prints the size and the libraries the target needs,
# then runs report, model and analyze from an unpacked copy.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/pcibw-static}
./scripts/deps.sh all
version=$(sed -n "s/^ *version : '\(.*\)',/\1/p" meson.build | head -1)
rm -rf "$out"
mkdir -p "$out"
meson setup "$out/build" -Dbuildtype=release -Doptimization=2 -Dstrip=true -Dtests=false \
  -Dplot=disabled -Dprefer_static=true -Ddefault_library=static -Db_ndebug=true \
  --prefix "/pcibw-$version" > "$out/setup.log"
ninja -C "$out/build" > "$out/build.log"
DESTDIR="$out/stage" meson install -C "$out/build" --no-rebuild --quiet > /dev/null
# the library and its headers are for building against pcibw, not for running it
rm -rf "$out/stage/pcibw-$version/include" "$out/stage/pcibw-$version/lib"*
tar -C "$out/stage" -czf "$out/pcibw-$version-$(uname -m).tar.gz" "pcibw-$version"
exe=$out/stage/pcibw-$version/bin/pcibw
echo "binary: $(stat -c %s "$exe") bytes; tarball: $(stat -c %s "$out/pcibw-$version-$(uname -m).tar.gz") bytes"
echo "the target needs (ELF NEEDED):"
objdump -p "$exe" | awk '/NEEDED/ { print "  " $2 }'
for lib in $(objdump -p "$exe" | awk '/NEEDED/ { print $2 }'); do
  case $lib in
    libc.so.* | libm.so.* | libpci.so.* | libudev.so.* | ld-linux*) ;;
    *) echo "unexpected dynamic dependency $lib" >&2; exit 1 ;;
  esac
done
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
tar -C "$t" -xzf "$out/pcibw-$version-$(uname -m).tar.gz"
p=$t/pcibw-$version
ex=$p/share/pcibw/examples
env -u PCIBW_DATA_DIR "$p/bin/pcibw" report --dump "$ex/pcix-ibm-eadsx-82545em-multidomain.lspci" > /dev/null
env -u PCIBW_DATA_DIR "$p/bin/pcibw" model --bus pcix133/64,mmrbc=512 --nic e1000 --sizes 64,1518 > /dev/null
env -u PCIBW_DATA_DIR "$p/bin/pcibw" analyze "$ex/freebsd-2004-udp-echo-e1000.csv" --bus pcix133/64,mmrbc=512 \
  --nic e1000 --line-rate 1G --cpus 1 --cpu-ghz 2.8 > /dev/null
echo "ok: $out/pcibw-$version-$(uname -m).tar.gz unpacked elsewhere runs report, model and analyze"

# Sourced by the bench scripts: what each of them checks before it measures.
# bench_exe BUILD - exit 2 unless BUILD/pcibw is built; warn when BUILD is not a release build (a
# sanitizer or debug build measures the instrumentation, not the code); then exit 2 unless mawk
# and GNU time (the peer and the meter) are installed. Sets exe and PCIBW_DATA_DIR.
bench_exe() {
  exe="$1/pcibw"
  [ -x "$exe" ] || { echo "no $exe: build first (meson setup $1 -Dbuildtype=release -Dtests=false && ninja -C $1)" >&2; exit 2; }
  local opts="$1/meson-info/intro-buildoptions.json"
  if [ -r "$opts" ] && ! tr -d ' \n' < "$opts" | grep -q '"name":"buildtype","value":"release"'; then
    echo "warning: $1 is not a release build (-Dbuildtype=release): the figures below are not comparable" >&2
  fi
  command -v mawk >/dev/null && [ -x /usr/bin/time ] || { echo "needs mawk and GNU time (scripts/deps.sh test)" >&2; exit 2; }
  export PCIBW_DATA_DIR="$PWD/data"
}

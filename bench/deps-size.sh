#!/usr/bin/env bash
# What each purpose of scripts/deps.sh installs on a fresh Debian 12 machine, in apt's own
# figure ("After this operation, N MB of additional disk space will be used"): apt-get is asked
# to install the purpose's packages as deps.sh does (--no-install-recommends) against an empty
# dpkg status, and answered no. The figures include the base system's libraries the packages
# depend on (libc6 and the like, on every machine): the difference between two purposes is
# what one installs beyond the other. Needs apt's package lists (apt-get update);
# installs nothing. Usage: bench/deps-size.sh [PURPOSE...]   (default: build test all)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- build test all
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
: > "$t/status"
printf '%-8s %9s %9s\n' purpose packages MB
declare -A mb=()
for purpose in "$@"; do
  # shellcheck disable=SC2046
  out=$(apt-get --assume-no -o Dir::State::status="$t/status" -o Debug::NoLocking=1 install \
    --no-install-recommends $(./scripts/deps.sh --list "$purpose") 2>&1 || true)
  n=$(sed -n 's/.* \([0-9]*\) newly installed.*/\1/p' <<< "$out")
  m=$(sed -n 's/^After this operation, \([0-9.,]*\) \([kMG]\)B of additional.*/\1 \2/p' <<< "$out" |
    awk '{gsub(",", "", $1); f = $2 == "k" ? 0.001 : $2 == "G" ? 1000 : 1; print $1 * f}')
  [ -n "$m" ] || { echo "apt gave no size for $purpose: $(tail -3 <<< "$out")" >&2; exit 1; }
  mb[$purpose]=$m
  printf '%-8s %9s %9s\n' "$purpose" "$n" "$m"
done
if [ -n "${mb[build]:-}" ] && [ -n "${mb[test]:-}" ]; then
  echo "test - build: $(awk -v a="${mb[test]}" -v b="${mb[build]}" 'BEGIN {print a - b}') MB that building and running do not need"
fi

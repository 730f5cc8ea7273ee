#!/usr/bin/env bash
# The bash completion (data/bash-completion/pcibw) as bash-completion runs it: subcommands,
# each command's options as its --help lists them, profile names from the data directory,
# slots from the dump named on the line (its device header lines), enum values that the
# command's --help names. Skipped (77) without bash-completion.
# Usage: completion.sh PCIBW_EXE SOURCE_ROOT
set -uo pipefail
exe=$(realpath "$1") src=$(realpath "$2")
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || { echo "SKIP: bash-completion is not installed ($bc)"; exit 77; }
t=$(mktemp -d /tmp/pcibw-comp-XXXXXX)
trap 'rm -rf "$t"' EXIT
ln -s "$exe" "$t/pcibw"
export PATH="$t:$PATH" PCIBW_DATA_DIR="$src/data"
# shellcheck disable=SC1090
source "$bc"
# shellcheck disable=SC1091
source "$src/data/bash-completion/pcibw"
fails=0
comp() { # words... (the last is the one being completed)
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="${COMP_WORDS[*]}"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _pcibw
  printf '%s\n' "${COMPREPLY[@]}" | sort
}
want() { # description, expected (sorted, newline-separated), got
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1: want [$(echo $2)] got [$(echo $3)]"
    fails=$((fails + 1))
  fi
}
want "subcommands" "$(printf '%s\n' analyze help model report watch)" "$(comp pcibw '')"
want "help's commands" "$(printf '%s\n' analyze model report watch)" "$(comp pcibw help '')"
for cmd in report model analyze watch; do
  # every long option the command's --help lists, and nothing else
  opts=$(pcibw "$cmd" --help | grep -oE '(^|[ ,])--[a-z][-a-z0-9]*' | sed 's/^[ ,]*//' | sort -u)
  got=$(comp pcibw "$cmd" --)
  want "$cmd options" "$opts" "$got"
done
want "profiles" "$(ls "$src/data/nic" | sed -n 's/\.ini$//p' | grep '^i' | sort)" "$(comp pcibw model --nic i)"
dump=$src/data/examples/pcix-ibm-eadsx-82545em-multidomain.lspci
slots=$(grep -oE '^([0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] ' "$dump" | tr -d ' ' | sort)
want "slots from --dump" "$slots" "$(comp pcibw report --dump "$dump" -s '')"
want "slots by prefix" "$(echo "$slots" | grep '^0002:01')" "$(comp pcibw model --dump "$dump" -s 0002:01)"
for v in $(comp pcibw model --pattern ''); do
  pcibw model --help | grep -q -- "$v" || { echo "FAIL: --pattern $v is not in model --help"; fails=$((fails + 1)); }
done
for v in $(comp pcibw model --format ''); do
  pcibw model --help | grep -q -- "$v" || { echo "FAIL: --format $v is not in model --help"; fails=$((fails + 1)); }
done
for v in $(comp pcibw model --size-is ''); do
  pcibw model --help | grep -q -- "$v" || { echo "FAIL: --size-is $v is not in model --help"; fails=$((fails + 1)); }
done
# every size convention and input format the help names is offered
for v in frame dma l3 udp-payload tcp-payload; do
  comp pcibw model --size-is '' | grep -qx -- "$v" || { echo "FAIL: --size-is $v not offered"; fails=$((fails + 1)); }
done
fmts=$(pcibw analyze --help | sed -n 's/^ *--input-format F *\([^(]*\)(.*/\1/p' | tr -d ',')
[ -n "$fmts" ] || { echo "FAIL: no --input-format list in analyze --help"; fails=$((fails + 1)); }
want "input formats" "$(printf '%s\n' $fmts | sort)" "$(comp pcibw analyze --input-format '')"
want "watch interfaces" "$(ls /sys/class/net | sort)" "$(comp pcibw watch '')"
[ "$fails" -eq 0 ] && echo "ok: completion"
exit $((fails > 0))

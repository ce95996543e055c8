#!/usr/bin/env bash
# Runs one golden program and compares what it prints with the files beside it.
#
#   x.alea  the program
#   x.out   expected stdout; its presence means the program is run (`alea run`),
#           its absence that it is only checked (`alea check`)
#   x.err   expected stderr (diagnostics); absent means stderr must be empty
#   x.args  optional extra arguments, one line, put after the file name
#   x.cmd   optional: the subcommand and its options, one line, put before the
#           file name instead of `run`/`check` (`dis --desugar`); x.out then
#           holds what that command prints
#
# The expected exit status follows: 1 when x.err holds an `error:` line, else 0.
#
# A program that is run is run a second time as a module: `alea build` (its
# diagnostics) then `alea run x.aleac` must print exactly the same, for the
# module carries everything a run and its error messages need. The one
# difference allowed is the file a missing `main` is reported against.
set -u
alea=$1
program=$2
dir=$(dirname "$program")
base=$(basename "$program" .alea)
cd "$dir" || exit 2

if [[ -f "$base.cmd" ]]; then
  read -r -a command <"$base.cmd"
elif [[ -f "$base.out" ]]; then
  command=(run)
else
  command=(check)
fi
extra=()
if [[ -f "$base.args" ]]; then read -r -a extra <"$base.args"; fi

expected_status=0
if [[ -f "$base.err" ]] && grep -q ': error: ' "$base.err"; then expected_status=1; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$alea" "${command[@]}" "$base.alea" "${extra[@]}" >"$tmp/out" 2>"$tmp/err"
status=$?

failed=0
if [[ $status -ne $expected_status ]]; then
  echo "exit status $status, expected $expected_status"
  failed=1
fi
compare() {  # compare NAME EXPECTED_FILE ACTUAL_FILE
  if [[ -f "$2" ]]; then
    if ! diff -u --label "expected $1" --label "actual $1" "$2" "$3"; then failed=1; fi
  elif [[ -s "$3" ]]; then
    echo "unexpected $1:"
    cat "$3"
    failed=1
  fi
}
compare stdout "$base.out" "$tmp/out"
compare stderr "$base.err" "$tmp/err"

if [[ "${command[*]}" == run ]]; then
  "$alea" build "$base.alea" -o "$tmp/$base.aleac" 2>"$tmp/err"
  status=$?
  if [[ $status -eq 0 ]]; then
    "$alea" run "$tmp/$base.aleac" "${extra[@]}" >"$tmp/out" 2>>"$tmp/err"
    status=$?
    sed -i "s|^alea: error: \`$tmp/$base.aleac\` has no|alea: error: \`$base.alea\` has no|" "$tmp/err"
  else
    : >"$tmp/out"
  fi
  if [[ $status -ne $expected_status ]]; then
    echo "as a module: exit status $status, expected $expected_status"
    failed=1
  fi
  compare "stdout (as a module)" "$base.out" "$tmp/out"
  compare "stderr (as a module)" "$base.err" "$tmp/err"
fi
exit $failed

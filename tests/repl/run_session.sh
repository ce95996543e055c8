#!/usr/bin/env bash
# Runs one golden REPL session and compares what it prints with the file
# beside it.
#
#   x.in    the lines typed, piped into `alea repl --no-history`
#   x.out   expected stdout and stderr together, as a terminal would show
#           them; lines `time: ...` and `stats: ...` have their numbers
#           replaced by N (they vary from run to run)
#   x.alea  optional: a program run with `alea run` after the session, its
#           output appended after a line `--- alea run x.alea`, so that the
#           session's random values can be compared with explicit code's
#
# The session must end with exit status 0 (errors in inputs do not change it).
set -u
alea=$1
session=$2
dir=$(dirname "$session")
base=$(basename "$session" .in)
cd "$dir" || exit 2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ALEA_HISTORY=$tmp/history  # never the user's, even if --no-history broke
"$alea" repl --no-history <"$base.in" >"$tmp/raw" 2>&1
status=$?
if [[ -f "$base.alea" ]]; then
  echo "--- alea run $base.alea" >>"$tmp/raw"
  "$alea" run "$base.alea" >>"$tmp/raw" 2>&1
fi
sed -E '/^(time|stats): /s/[0-9]+(\.[0-9]+)?/N/g' "$tmp/raw" >"$tmp/out"

failed=0
if [[ $status -ne 0 ]]; then
  echo "exit status $status, expected 0"
  failed=1
fi
if [[ -f "$base.out" ]]; then
  if ! diff -u --label "expected $base.out" --label "actual" "$base.out" "$tmp/out"; then
    failed=1
  fi
else
  echo "missing $base.out; the session printed:"
  cat "$tmp/out"
  failed=1
fi
if [[ -f $tmp/history ]]; then
  echo "--no-history wrote a history file"
  failed=1
fi
exit $failed

#!/usr/bin/env bash
# Fails when docs/builtins.md is not what `alea doc --markdown` generates from
# lang/builtins.def (the build writes the generated one into the build tree).
#
#   builtins_fresh.sh GENERATED CHECKED_IN
set -u
if diff -u --label "$2 (checked in)" --label "generated from lang/builtins.def" "$2" "$1"; then
  exit 0
fi
echo
echo "docs/builtins.md is stale: run \`cmake --build build/release --target update_docs\`"
echo "and commit the result."
exit 1

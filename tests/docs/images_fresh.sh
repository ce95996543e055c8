#!/usr/bin/env bash
# The pictures of docs/ (docs/images/NAME.svg) are what their programs
# (docs/images/NAME.alea) write today: each runs in a scratch directory
# and its SVG must equal the checked-in one, so a picture cannot go stale;
# and its code (from its first line that is not a comment) is shown in a
# page of docs/ as it is, so the code beside a picture is what drew it.
#
#   images_fresh.sh ALEA IMAGES_DIR
set -u
alea=$1
images=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
docs=$(cat "$images"/../*.md)
failures=0
for program in "$images"/*.alea; do
  name=$(basename "$program" .alea)
  cp "$program" "$tmp/"
  if ! (cd "$tmp" && "$alea" run "$name.alea" >/dev/null); then
    echo "FAIL: $program did not run"
    failures=$((failures + 1))
  elif ! cmp -s "$tmp/$name.svg" "$images/$name.svg"; then
    echo "FAIL: $images/$name.svg is stale: run \`alea run $name.alea\` in $images and commit it"
    failures=$((failures + 1))
  fi
  code=$(sed -n '/^[^/]/,$p' "$program")
  if [[ "$docs" != *"$code"* ]]; then
    echo "FAIL: the code of $program is in no page of docs/ as it is"
    failures=$((failures + 1))
  fi
done
exit $((failures > 0))

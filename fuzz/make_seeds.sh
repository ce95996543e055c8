#!/usr/bin/env bash
# fuzz/make_seeds.sh ALEA SOURCE_ROOT OUT: the seed inputs fuzz.run.NAME starts
# from besides fuzz/corpus/NAME/: OUT/source (the golden programs and
# examples), OUT/module (each of them built into a module), OUT/repl (the REPL
# transcripts' input), OUT/npy (the .npy files of the tests).
set -euo pipefail
alea=$1 root=$2 out=$3
rm -rf "$out"
mkdir -p "$out/source" "$out/module" "$out/repl" "$out/npy"
shopt -s nullglob
for f in "$root"/tests/programs/*.alea "$root"/examples/*.alea; do
  cp "$f" "$out/source/"
done
# Modules of the golden programs that build: every fourth one is plenty of
# seeds (they share their sections' layouts), and keeps this step short.
i=0
for f in "$root"/tests/programs/*.alea "$root"/examples/*.alea; do
  if ((i++ % 4 == 0)); then
    "$alea" build "$f" -o "$out/module/$(basename "$f" .alea).aleac" 2>/dev/null || true
  fi
done
for f in "$root"/tests/repl/*.in; do cp "$f" "$out/repl/"; done
find "$root/tests" -name '*.npy' -exec cp {} "$out/npy/" \;
echo "seeds: $(ls "$out/source" | wc -l) programs, $(ls "$out/module" | wc -l) modules," \
  "$(ls "$out/repl" | wc -l) REPL inputs, $(ls "$out/npy" | wc -l) .npy files"

#!/usr/bin/env bash
# fuzz/run.sh BINARY NAME SECONDS WORK DICT SEED_DIR...: fuzzes one target for
# SECONDS, its growing corpus in WORK/corpus (kept between runs), starting
# from the seed directories. A crash, a leak, a timeout or an out-of-memory
# fails the run and leaves the input in WORK/artifacts/; it then belongs in
# fuzz/corpus/NAME/ (the replay tests run it forever after) with its fix.
# The fuzzer's seed is fixed (ALEA_FUZZ_SEED, default 1), so that a clean
# run, as in CI, explores the same inputs each time it is as fast.
set -euo pipefail
binary=$1 name=$2 seconds=$3 work=$4 dict=$5
shift 5
mkdir -p "$work/corpus" "$work/artifacts"
seeds=()
for dir in "$@"; do
  [[ -d $dir ]] && seeds+=("$dir")
done
args=(-seed="${ALEA_FUZZ_SEED:-1}" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2560 -malloc_limit_mb=1024
  -max_len=16384 -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$work/artifacts/")
[[ -n $dict ]] && args+=(-dict="$dict")
if ! "$binary" "${args[@]}" "$work/corpus" "${seeds[@]}"; then
  echo "fuzz.run.$name: the input is in $work/artifacts/; add it to fuzz/corpus/$name/ with the fix" >&2
  exit 1
fi

#!/usr/bin/env bash
# Alea's interpreter beside Lua 5.4 on the same small programs, measured in one
# run with hyperfine. Prints each program's mean time, the ratio Alea/Lua, and
# the geometric mean of the ratios (the goal: <= 1.0).
#
#   bench/interp/run.sh [ALEA_BINARY]     (default: build/release/alea)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
alea=$(realpath "${1:-$here/../../build/release/alea}")
runs=${RUNS:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"

for tool in hyperfine lua5.4; do
  command -v $tool >/dev/null || { echo "run.sh: $tool is missing (scripts/setup installs it)"; exit 2; }
done

programs=(fib loop closures tailcall tuples tree match push hello)
for p in "${programs[@]}"; do
  # The two sides must compute the same thing before their times mean anything.
  a=$("$alea" run "$p.alea")
  l=$(lua5.4 "$p.lua")
  if [[ "$a" != "$l" ]]; then
    echo "run.sh: $p prints different results: alea '$a', lua '$l'"
    exit 1
  fi
  hyperfine -N --warmup 2 --runs "$runs" --export-json "$tmp/$p.json" \
    -n alea "$alea run $p.alea" -n lua "lua5.4 $p.lua" >/dev/null
done

python3 - "$tmp" "${programs[@]}" <<'PY'
import json, math, sys
tmp, programs = sys.argv[1], sys.argv[2:]
print(f"{'program':<10} {'alea ms':>9} {'lua ms':>9} {'alea/lua':>9}")
logs = []
for p in programs:
    results = {r["command"]: r for r in json.load(open(f"{tmp}/{p}.json"))["results"]}
    a, l = results["alea"]["mean"] * 1e3, results["lua"]["mean"] * 1e3
    ratio = a / l
    if p != "hello":
        logs.append(math.log(ratio))
    print(f"{p:<10} {a:9.2f} {l:9.2f} {ratio:9.2f}")
print(f"geometric mean alea/lua (without hello): {math.exp(sum(logs) / len(logs)):.2f}")
PY

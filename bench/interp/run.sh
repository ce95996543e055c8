#!/usr/bin/env bash
# Alea's interpreter beside Lua 5.4 and LuaJIT's interpreter (`luajit -joff`)
# on the same small programs, measured in one run with hyperfine. Prints each
# program's mean times, the ratios Alea/Lua and Alea/LuaJIT, and their
# geometric means. LuaJIT runs NAME.luajit.lua where Lua 5.1 needs another
# spelling (`//`), NAME.lua otherwise.
#
#   bench/interp/run.sh [ALEA_BINARY]     (default: build/release/alea)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
alea=$(realpath "${1:-$here/../../build/release/alea}")
runs=${RUNS:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"

for tool in hyperfine lua5.4 luajit; do
  command -v $tool >/dev/null || { echo "run.sh: $tool is missing (scripts/setup installs it)"; exit 2; }
done

programs=(fib loop closures tailcall tuples tree match push hello)
for p in "${programs[@]}"; do
  # The two sides must compute the same thing before their times mean anything.
  jit_src=$p.lua
  [[ -f $p.luajit.lua ]] && jit_src=$p.luajit.lua
  a=$("$alea" run "$p.alea")
  l=$(lua5.4 "$p.lua")
  j=$(luajit -joff "$jit_src")
  if [[ "$a" != "$l" || "$a" != "$j" ]]; then
    echo "run.sh: $p prints different results: alea '$a', lua '$l', luajit '$j'"
    exit 1
  fi
  hyperfine -N --warmup 2 --runs "$runs" --export-json "$tmp/$p.json" \
    -n alea "$alea run $p.alea" -n lua "lua5.4 $p.lua" \
    -n luajit "luajit -joff $jit_src" >/dev/null
done

python3 - "$tmp" "${programs[@]}" <<'PY'
import json, math, sys
tmp, programs = sys.argv[1], sys.argv[2:]
print(f"{'program':<10} {'alea ms':>9} {'lua ms':>9} {'luajit ms':>10} {'alea/lua':>9} "
      f"{'alea/luajit':>12}")
logs, jit_logs = [], []
for p in programs:
    results = {r["command"]: r for r in json.load(open(f"{tmp}/{p}.json"))["results"]}
    a, l, j = (results[side]["mean"] * 1e3 for side in ("alea", "lua", "luajit"))
    if p != "hello":
        logs.append(math.log(a / l))
        jit_logs.append(math.log(a / j))
    print(f"{p:<10} {a:9.2f} {l:9.2f} {j:10.2f} {a / l:9.2f} {a / j:12.2f}")
print(f"geometric mean alea/lua (without hello): {math.exp(sum(logs) / len(logs)):.2f}")
print(f"geometric mean alea/luajit -joff (without hello): "
      f"{math.exp(sum(jit_logs) / len(jit_logs)):.2f}")
PY

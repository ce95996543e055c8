#!/usr/bin/env bash
# The `alea` command line itself: help, usage errors and exit statuses.
set -u
alea=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")  # absolute: some checks change directory
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# matches PATTERN FILE: an extended regex found in FILE; the empty pattern
# means FILE must be empty.
matches() {
  if [[ -z $1 ]]; then [[ ! -s $2 ]]; else grep -qE -- "$1" "$2"; fi
}

# expect STATUS STDOUT_PATTERN STDERR_PATTERN -- ARGS...
expect() {
  local status=$1 out_pattern=$2 err_pattern=$3
  shift 4
  "$alea" "$@" >"$tmp/out" 2>"$tmp/err"
  local actual=$?
  if [[ $actual -ne $status ]] || ! matches "$out_pattern" "$tmp/out" ||
     ! matches "$err_pattern" "$tmp/err"; then
    echo "FAIL: alea $* -> exit $actual (expected $status)"
    echo "  stdout: $(head -c 300 "$tmp/out")"
    echo "  stderr: $(head -c 300 "$tmp/err")"
    failures=$((failures + 1))
  fi
}

printf 'fn main() = print(1)\n' >"$tmp/ok.alea"
printf 'fn main() = print(1 + "a")\n' >"$tmp/bad.alea"

expect 0 '^usage: alea <command>' '' -- --help
expect 0 '^usage: alea <command>' '' -- -h
expect 0 '^alea [0-9]+\.[0-9]+\.[0-9]+$' '' -- --version
# No command: the REPL (docs/repl.md), here on a pipe: no prompts, status 0.
if [[ $(printf '1 + 2\n' | "$alea" 2>&1) != '- : Int = 3' ]]; then
  echo "FAIL: alea with no arguments does not run the REPL on stdin"
  failures=$((failures + 1))
fi
expect 0 '^  repl +evaluate inputs interactively' '' -- --help
expect 0 '^usage: alea repl' '' -- repl --help
expect 2 '' 'alea: error: unknown option `--frob`' -- repl --frob
expect 2 '' '`--threads` needs a number' -- repl --threads 0
expect 0 '^usage: alea check' '' -- check --help
expect 2 '' 'alea: error: unknown command `frobnicate`' -- frobnicate
expect 2 '' 'alea: error: unknown option `--frob`' -- --frob
expect 2 '' 'alea: error: missing FILE' -- check
expect 2 '' 'alea: error: unknown option `--strict`' -- check --strict "$tmp/ok.alea"
expect 2 '' 'more than one FILE' -- check "$tmp/ok.alea" "$tmp/ok.alea"
expect 0 '' '' -- check "$tmp/ok.alea"
expect 1 '' 'bad.alea:1:19: error: no `\+` for `Int` and `Str`' -- check "$tmp/bad.alea"
expect 1 '' 'alea: error: cannot open `.*/missing.alea`: No such file or directory' \
  -- check "$tmp/missing.alea"
expect 1 '' 'cannot open `.*`: it is a directory' -- check "$tmp"
# A device that never ends is refused at a size, not read until memory runs out.
expect 1 '' 'cannot open `/dev/zero`: the file is larger than 256 MiB' -- run /dev/zero
printf 'import "/dev/zero"\nfn main() = 1\n' >"$tmp/endless.alea"
expect 1 '' 'cannot import `/dev/zero`: the file is larger than 256 MiB' -- check "$tmp/endless.alea"
printf 'fn main() = print(read_text("/dev/zero"))\n' >"$tmp/endless_text.alea"
expect 1 '' '/dev/zero: larger than 1048543 bytes, the most that may be read here' \
  -- run --max-heap 1M "$tmp/endless_text.alea"

# doc: the builtins' reference (lang/builtins.def), also the REPL's `:doc`.
expect 0 '^usage: alea doc' '' -- doc --help
expect 0 '^uniform\(s: RandState, shape: \[Int\], lo: Float = 0\.0' '' -- doc uniform
expect 0 '^alea> reverse\(\[1, 2, 3\]\)$' '' -- doc reverse
expect 0 '^\(\+\) : \(Int, Int\) -> Int$' '' -- doc +
expect 0 '^-x : \(Int\) -> Int$' '' -- doc -
expect 0 '^  split_n +n independent states' '' -- doc
expect 0 '^# Builtins$' '' -- doc --markdown
expect 1 '' 'alea: error: no builtin is named `unifrom`; did you mean `uniform`\?' -- doc unifrom
expect 1 '' '^help: `alea doc` with no name lists every builtin$' -- doc zzzzzz
expect 2 '' 'alea: error: unknown option `--html`' -- doc --html
expect 2 '' 'more than one NAME' -- doc len map
expect 2 '' '--markdown takes no NAME' -- doc --markdown len

# run and dis.
printf 'fn main(args: [Str]) = print(args)\n' >"$tmp/args.alea"
printf 'fn main() { print("before"); print(1 / (1 - 1)) }\n' >"$tmp/fails.alea"
expect 0 '^usage: alea run' '' -- run --help
expect 0 '^usage: alea dis' '' -- dis --help
expect 2 '' 'alea: error: missing FILE' -- run
expect 2 '' 'alea: error: missing FILE' -- dis
expect 0 '^1$' '' -- run "$tmp/ok.alea"
expect 0 '^\["a", "--b", "c d"\]$' '' -- run "$tmp/args.alea" a --b "c d"
expect 1 '^before$' 'fails.alea:1:36: error: division by zero' -- run "$tmp/fails.alea"
expect 1 '' 'bad.alea:1:19: error: no `\+` for `Int` and `Str`' -- run "$tmp/bad.alea"
expect 0 'PRINT' '' -- dis "$tmp/ok.alea"
expect 1 '' 'bad.alea:1:19: error' -- dis "$tmp/bad.alea"

# dis --desugar: options, and the desugared golden programs
# (tests/programs/desugar_*.alea) run and print what the originals print.
printf 'fn main() uses rng = print(rng())\n' >"$tmp/main_rng.alea"
expect 0 '^fn main\(\) = print\(1\)$' '' -- dis --desugar "$tmp/ok.alea"
expect 0 'let rng_0 = key\(\(-2\)\);' '' -- dis --desugar --seed=-2 "$tmp/main_rng.alea"
expect 0 'let rng_0 = key\(5\);' '' -- dis --seed 5 --desugar "$tmp/main_rng.alea"
# `extern` declarations (a host's): checked by `alea check`, kept by --desugar,
# refused by `alea run`, which has no host.
printf 'extern fn twice(x: Int) -> Int\nextern let n: Int\nfn main() = print(twice(n))\n' > "$tmp/extern.alea"
expect 0 '' '' -- check "$tmp/extern.alea"
expect 0 '^extern fn twice\(x: Int\) -> Int$' '' -- dis --desugar "$tmp/extern.alea"
expect 0 '^extern let n: Int;$' '' -- dis --desugar "$tmp/extern.alea"
expect 2 '' '`--seed` goes with `--desugar`' -- dis --seed 1 "$tmp/ok.alea"
expect 2 '' '`--seed` needs an integer, not `x`' -- dis --desugar --seed x "$tmp/ok.alea"
expect 2 '' '`--seed` needs a value' -- dis --desugar --seed
expect 2 '' 'alea: error: missing FILE' -- dis --desugar
expect 1 '' 'bad.alea:1:19: error' -- dis --desugar "$tmp/bad.alea"
programs=$(cd "$(dirname "$0")/../programs" && pwd)

# The JIT changes no bit: every tensor golden program prints its expected
# output with the reference kernels only too (the golden run uses the JIT).
for program in "$programs"/tensor_*.alea "$programs"/random_*.alea "$programs"/grad_*.alea; do
  name=$(basename "$program" .alea)
  [[ -f $programs/$name.out ]] || continue
  (cd "$programs" && "$alea" run --no-jit "$name.alea" >"$tmp/nojit.out" 2>"$tmp/nojit.err")
  if ! cmp -s "$programs/$name.out" "$tmp/nojit.out"; then
    echo "FAIL: $name with --no-jit prints other than $name.out"
    diff "$programs/$name.out" "$tmp/nojit.out" | head -10
    failures=$((failures + 1))
  fi
done
expect 0 '\-\-no-jit' '' -- run --help

# Threads, the JIT and the ISA change no bit (docs/language.md "Evaluation
# order and determinism"): threads_determinism.alea saves every large result
# as .npy; each variant must write the same bytes and print the same lines as
# `--threads 1`. It runs in its own directory, apart from the golden run of
# the same program.
expect 0 '\-\-threads N' '' -- run --help
expect 0 '\-\-isa ISA' '' -- run --help
expect 2 '' '`--threads` needs a number from 1 to 1024, not `0`' -- run --threads 0 "$tmp/ok.alea"
expect 2 '' '`--threads` needs a number from 1 to 1024, not `x`' -- run --threads=x "$tmp/ok.alea"
expect 2 '' '`--threads` needs a value' -- run --threads
expect 2 '' '`--isa` needs `avx2` or `avx512`, not `sse`' -- run --isa sse "$tmp/ok.alea"
expect 0 '^1$' '' -- run --threads 3 --isa=avx2 "$tmp/ok.alea"
# Limits from the command line.
printf 'fn depth(n: Int) -> Int = if n == 0 { 0 } else { 1 + depth(n - 1) }\n%s\n' \
  'fn main() = print(depth(5000))' >"$tmp/deep.alea"
expect 1 '' 'error: stack overflow: more than 100 nested calls' -- run --max-depth 100 "$tmp/deep.alea"
expect 0 '^5000$' '' -- run --max-depth=6000 "$tmp/deep.alea"
expect 2 '' '`--max-depth` needs a positive number of calls, not `0`' -- run --max-depth 0 "$tmp/deep.alea"
printf 'fn main() = print(sum(zeros([1000000])))\n' >"$tmp/heap.alea"
expect 1 '' 'help: the heap may hold at most 1048576 bytes' -- run --max-heap 1M "$tmp/heap.alea"
expect 0 '^0\.0$' '' -- run --max-heap 8m "$tmp/heap.alea"
expect 0 '^0\.0$' '' -- run --max-heap 0 "$tmp/heap.alea"
# --sandbox DIR: the file builtins work under DIR and nowhere else.
mkdir -p "$tmp/box/sub"
printf 'inside\n' >"$tmp/box/sub/in.txt"
printf 'secret\n' >"$tmp/outside.txt"
ln -s "$tmp/outside.txt" "$tmp/box/link.txt"
printf 'fn main() { write_text("sub/out.txt", read_text("sub/in.txt")); print(read_text("sub/out.txt")) }\n' \
  >"$tmp/inbox.alea"
expect 0 '^inside$' '' -- run --sandbox "$tmp/box" "$tmp/inbox.alea"
printf 'fn main() = print(read_text("../outside.txt"))\n' >"$tmp/up.alea"
expect 1 '' '../outside.txt: cannot open: outside the sandbox' -- run --sandbox "$tmp/box" "$tmp/up.alea"
printf 'fn main() = print(read_text("%s"))\n' "$tmp/outside.txt" >"$tmp/abs.alea"
expect 1 '' 'outside the sandbox' -- run --sandbox "$tmp/box" "$tmp/abs.alea"
expect 0 '^secret$' '' -- run "$tmp/abs.alea"
printf 'fn main() = print(read_text("link.txt"))\n' >"$tmp/link.alea"
expect 1 '' 'link.txt: cannot open: a symbolic link, which the sandbox does not follow' \
  -- run --sandbox "$tmp/box" "$tmp/link.alea"
expect 2 '' '`--sandbox` needs a value' -- run --sandbox
expect 2 '' '`--sandbox` needs a directory' -- run --sandbox= "$tmp/inbox.alea"
# alea build: a module that run and dis take as they take source.
expect 0 '^usage: alea build' '' -- build --help
expect 0 '' '' -- build "$tmp/ok.alea"
expect 0 '^1$' '' -- run "$tmp/ok.aleac"
expect 0 'F0: fn main' '' -- dis "$tmp/ok.aleac"
mkdir -p "$tmp/modules"
expect 0 '' '' -- build -o "$tmp/modules/m.bin" "$tmp/ok.alea"
expect 0 '^1$' '' -- run "$tmp/modules/m.bin"
# A module given to build is read as the module it is, and written again.
expect 0 '' '' -- build -o "$tmp/modules/again.aleac" "$tmp/ok.aleac"
expect 0 '^1$' '' -- run "$tmp/modules/again.aleac"
expect 0 '' '' -- build --output="$tmp/modules/n.aleac" "$tmp/ok.alea"
expect 1 '' 'bad.alea:1:19: error' -- build "$tmp/bad.alea"
[[ -e "$tmp/bad.aleac" ]] && { echo "FAIL: a failed build wrote a module"; failures=$((failures + 1)); }
expect 1 '' 'cannot write .*/nodir/m.aleac.: No such file or directory' -- build -o "$tmp/nodir/m.aleac" "$tmp/ok.alea"
expect 2 '' '`-o` needs a value' -- build "$tmp/ok.alea" -o
expect 2 '' 'missing FILE' -- build
# A damaged module is refused with the byte and the rule, never run.
head -c 30 "$tmp/ok.aleac" >"$tmp/cut.aleac"
expect 1 '' 'is not a valid module: byte [0-9]+: .*runs past the end' -- run "$tmp/cut.aleac"
expect 1 '' 'help: build it again from its source with `alea build`' -- dis "$tmp/cut.aleac"
# The REPL's :load takes a module: its definitions come from the sources it
# carries (the source file itself may be gone).
printf 'fn twice(x: Int) -> Int = 2 * x\nfn main() = print(twice(21))\n' >"$tmp/lib.alea"
(cd "$tmp" && "$alea" build lib.alea && mv lib.alea lib.gone)
if [[ $(cd "$tmp" && printf ':load lib.aleac\ntwice(4)\n' | "$alea" repl --no-history 2>&1) != \
      $'loaded lib.alea\nfn twice : (Int) -> Int\nfn main : () -> ()\n- : Int = 8' ]]; then
  echo "FAIL: :load of a module"
  failures=$((failures + 1))
fi
if [[ $(cd "$tmp" && printf ':load cut.aleac\n' | "$alea" repl --no-history 2>&1) != \
      'error: `cut.aleac` is not a valid module: byte 21: '* ]]; then
  echo "FAIL: :load of a damaged module"
  failures=$((failures + 1))
fi
# A program that uses an `extern` builds only for a host.
printf 'extern fn twice(x: Int) -> Int
fn main() = print(twice(2))
' >"$tmp/ext.alea"
expect 1 '' 'provided by a host application' -- build "$tmp/ext.alea"
expect 0 '' '' -- build --host "$tmp/ext.alea"
expect 1 '' 'the host provides no such function' -- run "$tmp/ext.aleac"
# PUSH (an array held once grown in place) meets the budget as the native did.
printf '%s\n%s\n' 'fn build(n: Int, xs: [Int]) -> [Int] = if n == 0 { xs } else { build(n - 1, push(xs, n)) }' \
  'fn main() = print(len(build(1000000, [])))' >"$tmp/push.alea"
expect 1 '' 'help: the heap may hold at most 1048576 bytes' -- run --max-heap 1M "$tmp/push.alea"
expect 0 '^1000000$' '' -- run --max-heap 16M "$tmp/push.alea"
expect 2 '' '`--max-heap` needs a byte count such as 4096, 64K, 512M or 2G, not `1X`' \
  -- run --max-heap 1X "$tmp/heap.alea"
expect 2 '' '`--max-heap` needs a byte count' -- run --max-heap -5 "$tmp/heap.alea"
determinism_run() {  # NAME FLAGS...: outputs into $tmp/det/NAME/
  local name=$1
  shift
  mkdir -p "$tmp/det/$name"
  cp "$programs/threads_determinism.alea" "$tmp/det/$name/"
  (cd "$tmp/det/$name" && "$alea" run "$@" threads_determinism.alea >stdout 2>stderr)
}
determinism_run one --threads 1
npys=$(cd "$tmp/det/one" && ls ./*.npy 2>/dev/null | wc -l)
if [[ $npys -lt 15 ]] || ! cmp -s "$tmp/det/one/stdout" "$programs/threads_determinism.out"; then
  echo "FAIL: threads_determinism.alea --threads 1 wrote $npys .npy files, or printed other" \
       "than threads_determinism.out"
  failures=$((failures + 1))
fi
for variant in "two --threads 2" "four --threads 4" "nojit --no-jit --threads 4" \
               "nojit1 --no-jit --threads 1" "avx2 --isa avx2 --threads 2" \
               "avx512 --isa avx512 --threads 3"; do
  read -r -a words <<<"$variant"
  determinism_run "${words[@]}"
  for file in "$tmp/det/one"/*.npy "$tmp/det/one/stdout"; do
    if ! cmp -s "$file" "$tmp/det/${words[0]}/$(basename "$file")"; then
      echo "FAIL: threads_determinism.alea with ${words[*]:1}: $(basename "$file") differs" \
           "from --threads 1"
      failures=$((failures + 1))
    fi
  done
done
# Training by `grad` (examples/train.alea) gives the same bits for every
# choice of threads, vector width and kernels.
examples=$(cd "$(dirname "$0")/../../examples" && pwd)
for variant in "--threads 1" "--threads 3 --no-jit" "--isa avx2 --threads 2"; do
  read -r -a words <<<"$variant"
  if ! "$alea" run "${words[@]}" "$examples/train.alea" | cmp -s - "$examples/train.out"; then
    echo "FAIL: examples/train.alea with $variant prints other than train.out"
    failures=$((failures + 1))
  fi
done
# progress with stderr redirected (not a terminal): no bar, stderr empty,
# stdout the program's own.
printf 'fn main() = print(fold(range(50), 0, |a, i| { progress(i, 50); a + i }))\n' \
  >"$tmp/progress.alea"
expect 0 '^1225$' '' -- run "$tmp/progress.alea"
# A training loop's gradients and backward temporaries reuse their buffers
# (each `grad` site's tape keeps output-buffer sites): over 490 more steps
# it allocates what the same loop without `grad` allocates (its parameter
# record), plus the gradient record, and no tensor (`grad(loss)` of a named
# function is a closure made once).
cat >"$tmp/steps.alea" <<'ALEA'
type P = { w: Tensor, b: Tensor }
fn loss(p: P, x: Tensor) -> Float = item(mean(tanh(x @ p.w + p.b) * 2.0))
fn with_grad(p: P, x: Tensor, n: Int) -> P =
  if n == 0 { p } else {
    let g = grad(loss)(p, x);
    with_grad(P { w: p.w - g.w * 0.1, b: p.b - g.b * 0.1 }, x, n - 1)
  }
fn without(p: P, x: Tensor, n: Int) -> P =
  if n == 0 { p } else {
    let l = loss(p, x);
    without(P { w: p.w - p.w * l, b: p.b - p.b * 0.1 }, x, n - 1)
  }
fn main(args: [Str]) {
  let n = match parse_int(args[1]) { Some(k) => k, None => 0 };
  let p = P { w: ones([16, 8]), b: zeros([8]) };
  let q = if args[0] == "grad" { with_grad(p, ones([32, 16]), n) } else { without(p, ones([32, 16]), n) };
  print(item(sum(q.w)))
}
ALEA
allocations() {  # allocations FILE [ARG...]: what `alea run --stats` counts
  "$alea" run --stats "$@" 2>&1 >/dev/null | sed -nE 's/.* ([0-9]+) allocations,.*/\1/p'
}
steps=$tmp/steps.alea
grad_steps=$(( $(allocations "$steps" grad 500) - $(allocations "$steps" grad 10) ))
plain_steps=$(( $(allocations "$steps" plain 500) - $(allocations "$steps" plain 10) ))
if [[ -z $grad_steps || $grad_steps -gt $((plain_steps + 490)) ]]; then
  echo "FAIL: 490 training steps under grad made $grad_steps allocations, $plain_steps without"
  failures=$((failures + 1))
fi
# An array a loop carries in a tuple or a record taken apart by a pattern
# (`let` or `match`) grows in place: the pattern frees the tuple at its
# last use, so the push finds the array held once. A copy per step would
# show as allocations.
cat >"$tmp/carried.alea" <<'ALEA'
type Chain = { xs: [Float], n: Int }
fn main(args: [Str]) {
  let n = match parse_int(args[0]) { Some(k) => k, None => 0 };
  let (xs, _) = fold(range(n), ([], 0), |acc, i| {
    let (xs, k) = acc;
    (push(xs, float(i)), k + 1)
  });
  let c = fold(range(n), Chain { xs: [], n: 0 }, |c, i| {
    let Chain { xs, n } = c;
    Chain { xs: push(xs, float(i)), n: n + 1 }
  });
  let m = fold(range(n), ([], 0), |acc, i| match acc { (ys, k) => (push(ys, i), k + 1) });
  let (ys, _) = m;
  print(len(xs) + len(c.xs) + len(ys))
}
ALEA
carried=$tmp/carried.alea
carried_steps=$(( $(allocations "$carried" 4000) - $(allocations "$carried" 2000) ))
if [[ -z $carried_steps || $carried_steps -gt 7200 ]]; then  # 3 x 2000 steps, one tuple each
  echo "FAIL: 6000 more steps pushing onto carried arrays made $carried_steps allocations (copies?)"
  failures=$((failures + 1))
fi
printf 'fn main() = print(sum(ones([100]) * 2.0 + 1.0))\n' >"$tmp/tensor.alea"
expect 0 '^300\.0$' '^stats: [0-9]+ instructions, [0-9]+ calls, [0-9]+ allocations, peak heap [0-9]+ bytes, [0-9]+ JIT kernels compiled' \
  -- run --stats "$tmp/tensor.alea"
expect 0 '^300\.0$' '0 JIT kernels compiled' -- run --stats --no-jit "$tmp/tensor.alea"
expect 0 '^300\.0$' 'ms in JIT kernels$' -- run --stats "$tmp/tensor.alea"
# The second line: the run's time, the part outside JIT kernels, and the
# bytes copied only to change a layout: none for a fused chain, every
# element for a transpose (4 bytes x 2 x 3 here) and for a row x[i].
expect 0 '^300\.0$' '^stats: [0-9.]+ ms running, [0-9.]+ ms outside JIT kernels, 0 bytes copied$' \
  -- run --stats "$tmp/tensor.alea"
printf 'fn main() = print(transpose(ones([2, 3]))[1])\n' >"$tmp/copies.alea"
for flags in "" "--no-jit"; do
  # shellcheck disable=SC2086  # $flags: no option or one
  expect 0 '^\[1\. 1\.\]$' '^stats: .* outside JIT kernels, 32 bytes copied$' \
    -- run --stats $flags "$tmp/copies.alea"
done
# `x @ transpose(y)` reads y in place on the JIT (no bytes copied); without
# it the transpose is made first (4 x 3 f32: 48 bytes).
printf 'fn main() { let x = ones([3, 4]); print(sum(x @ transpose(x))) }\n' >"$tmp/mt.alea"
expect 0 '^36\.0$' '^stats: .* 48 bytes copied$' -- run --stats --no-jit "$tmp/mt.alea"
mt_stats=$("$alea" run --stats "$tmp/mt.alea" 2>&1 >/dev/null)
if [[ $mt_stats != *" 0 JIT kernels compiled"* && $mt_stats != *" 0 bytes copied"* ]]; then
  echo "FAIL: x @ transpose(x) copied its operand on the JIT: $mt_stats"
  failures=$((failures + 1))
fi
# A steady-state loop of tensor ops allocates nothing (docs/decisions.md "The
# JIT and fusion", output buffers per site): the same allocations for 10
# steps as for 500. `acc` is updated in place; `y` is new each step and dies
# in it, so its site reuses its buffer.
steady() {
  printf '%s\n' \
    'fn step(x: Tensor, w: Tensor, acc: Tensor, n: Int) -> Tensor {' \
    '  if n == 0 { acc } else {' \
    '    let y = relu(x * w - 0.25);' \
    '    let z = exp(x + w) / item(sum(y + 1.0));' \
    '    step(x, w, acc * 0.5 + y / 4.0 + 1 - z * 0.0, n - 1)' \
    '  }' \
    '}' \
    "fn main() = print(item(sum(step(arange(1000) / 1000.0, full([1000], 2.0), zeros([1000]), $1))))" \
    >"$tmp/steady$1.alea"
  # "ALLOCATIONS KERNELS"
  "$alea" run --stats "$tmp/steady$1.alea" 2>&1 >/dev/null |
    sed -nE 's/.* ([0-9]+) allocations,.* ([0-9]+) JIT kernels compiled.*/\1 \2/p'
}
few=$(steady 10)
many=$(steady 500)
if [[ $few == *" 0" ]]; then
  echo "note: no JIT on this CPU; the steady-state allocation check is skipped"
elif [[ -z $few || $few != "$many" ]]; then
  echo "FAIL: a steady-state tensor loop allocates per step: 10 steps: $few; 500 steps: $many"
  failures=$((failures + 1))
fi
# An array held once is extended in place with its capacity doubled: 10^6
# pushes make a few dozen allocations, not 10^6 (and a copy per push).
printf '%s\n' \
  'fn build(n: Int, xs: [Int]) -> [Int] = if n == 0 { xs } else { build(n - 1, push(xs, n)) }' \
  'fn main() = print(len(build(1000000, [])))' >"$tmp/push.alea"
pushes=$(allocations "$tmp/push.alea")
if [[ -z $pushes || $pushes -gt 100 ]]; then
  echo "FAIL: 10^6 pushes made '$pushes' allocations (in place, a few dozen)"
  failures=$((failures + 1))
fi
# set and add_at update a tensor held once in place (docs/decisions.md
# "Tensors", functional updates): 1000 steps of a state tensor's updates
# make exactly the allocations 10 steps make.
updates() {
  printf '%s\n' \
    'fn walk(x: Tensor, idx: Tensor(i32), i: Int, n: Int) -> Tensor =' \
    '  if i == n { x } else {' \
    '    let x = set(x, i % 100, float(i));' \
    '    let x = add_at(x, idx, 0.5);' \
    '    let x = add_at(x, (i * 7) % 100, 1.5);' \
    '    let x = set(x, x > 1000.0, 0.0);' \
    '    walk(x, idx, i + 1, n)' \
    '  }' \
    "fn main() = print(item(sum(walk(zeros([100, 2]), tensor([3, 3, 50]), 0, $1))))" \
    >"$tmp/updates$1.alea"
  allocations "$tmp/updates$1.alea"
}
few=$(updates 10)
many=$(updates 1000)
if [[ -z $few || $few != "$many" ]]; then
  echo "FAIL: set/add_at of a tensor held once allocate per step: 10 steps: $few; 1000: $many"
  failures=$((failures + 1))
fi
# Random states kept unboxed (docs/decisions.md "Unboxed random states"): a
# loop that splits its state and draws scalars, threads a stream with
# `next`, or draws from its ambient stream, allocates nothing per step.
scalar_draws() {
  printf '%s\n' \
    'fn hits(s: RandState, n: Int, acc: Int) -> Int =' \
    '  if n == 0 { acc } else {' \
    '    let (a, s) = split(s);' \
    '    let (b, c) = split(a);' \
    '    let x = uniform(b);' \
    '    let y = normal(c);' \
    '    hits(s, n - 1, if x * x + y * y < 1.0 { acc + 1 } else { acc })' \
    '  }' \
    'fn walk(s: RandState, n: Int, x: Float) -> Float =' \
    '  if n == 0 { x } else { let (sub, s) = next(s); walk(s, n - 1, x + exponential(sub)) }' \
    'fn dice(n: Int, acc: Int) -> Int uses rng =' \
    '  if n == 0 { acc } else { dice(n - 1, acc + randint(1, 7)) }' \
    "fn main() uses rng = print((hits(key(0), $1, 0), walk(key(1), $1, 0.0), dice($1, 0)))" \
    >"$tmp/draws$1.alea"
  allocations "$tmp/draws$1.alea"
}
few=$(scalar_draws 10)
many=$(scalar_draws 100000)
if [[ -z $few || $few != "$many" ]]; then
  echo "FAIL: scalar draws from unboxed states allocate per step: 10 steps: $few; 10^5: $many"
  failures=$((failures + 1))
fi
# Writes are atomic: a write that fails at the rename (the target is a
# directory) leaves the target as it was and no temporary file behind.
mkdir -p "$tmp/atomic/target.txt"
printf '%s\n' 'fn main() = write_text("target.txt", "new")' >"$tmp/atomic/write.alea"
(cd "$tmp/atomic" && "$alea" run write.alea >/dev/null 2>&1)
leftovers=$(find "$tmp/atomic" -name '.target.txt.tmp-*' | wc -l)
if [[ ! -d $tmp/atomic/target.txt || $leftovers -ne 0 ]]; then
  echo "FAIL: a failed write_text changed its target or left $leftovers temporary files"
  failures=$((failures + 1))
fi
for program in "$programs"/desugar_*.alea "$programs"/uses_rng*.alea; do
  name=$(basename "$program" .alea)
  for seed in 0 7; do
    # (Without `uses rng` on main the seed is unused, and the run warns so.)
    "$alea" run --seed "$seed" "$program" 2>&1 |
      sed '/^alea: warning: `--seed [0-9]*` has no effect/,+1d' >"$tmp/original.out"
    original=${PIPESTATUS[0]}
    "$alea" dis --desugar --seed "$seed" "$program" >"$tmp/desugared.alea" 2>"$tmp/desugar.err"
    "$alea" run "$tmp/desugared.alea" >"$tmp/desugared.out" 2>&1
    desugared=$?
    if [[ $original -ne 0 || $desugared -ne 0 ]] ||
       ! cmp -s "$tmp/original.out" "$tmp/desugared.out"; then
      echo "FAIL: $name --seed $seed desugared (exit $desugared) prints other than the" \
           "original (exit $original)"
      diff "$tmp/original.out" "$tmp/desugared.out" | head -20
      failures=$((failures + 1))
    fi
  done
done

if [[ $failures -gt 0 ]]; then
  echo "$failures command-line checks failed"
  exit 1
fi
echo "all command-line checks passed"

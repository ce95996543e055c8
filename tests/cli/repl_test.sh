#!/usr/bin/env bash
# The REPL on a real terminal, driven through tmux: prompts, line editing,
# continuation, history, completion, Ctrl-C and Ctrl-D, a progress bar. Exit 77 (CTest's
# SKIP_RETURN_CODE) when tmux is missing.
set -u
command -v tmux >/dev/null || { echo "tmux not found: skipped"; exit 77; }
alea=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
# Each session gets its own tmux server: a killed server may still be closing
# its socket when the next `new-session` connects ("server exited
# unexpectedly"), so sockets are never reused.
socket_base="alea-repl-test-$$"
sessions=0
socket=""
history=$tmp/state/history
failures=0
cleanup() {
  local i
  for ((i = 1; i <= sessions; i++)); do tmux -L "$socket_base-$i" kill-server 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT

start() {  # a fresh session running `alea` in a 100x30 terminal, on a new server
  [[ -n $socket ]] && tmux -L "$socket" kill-server 2>/dev/null
  sessions=$((sessions + 1))
  socket="$socket_base-$sessions"
  tmux -L "$socket" -f /dev/null new-session -d -x 100 -y 30 \
    "cd '$tmp' && ALEA_HISTORY='$history' '$alea'; echo ALEA-EXITED-\$?; sleep 30"
}
keys() { tmux -L "$socket" send-keys "$@"; }
screen() { tmux -L "$socket" capture-pane -p; }

# expect NAME PATTERN: waits up to 10 s for an extended regex on the screen
# (capture-pane drops trailing blanks: a prompt reads `alea>`).
expect() {
  local i
  for ((i = 0; i < 100; i++)); do
    if screen | grep -qE -- "$2"; then return 0; fi
    sleep 0.1
  done
  echo "FAIL: $1: no /$2/ on the screen:"
  screen | sed 's/^/  | /'
  failures=$((failures + 1))
  return 1
}

start
expect "banner and prompt" '^alea> ?$'
keys '1 + 2' Enter
expect "a value with its type" '^- : Int = 3$'

keys 'fn add_one(x: Int) -> Int {' Enter
expect "continuation prompt" '^  \.\.\.> ?$'
keys 'x + 1' Enter '}' Enter
expect "a multi-line definition" '^fn add_one : \(Int\) -> Int$'

keys 'let favourite_value = 41' Enter
expect "a let" '^val favourite_value : Int = 41$'
keys 'add_one(favourite_v' Tab
expect "Tab completes a session name" '^alea> add_one\(favourite_value$'
keys ')' Enter
expect "the completed line runs" '^- : Int = 42$'
keys ':hel' Tab
expect "Tab completes a command" '^alea> :help ?$'
keys Enter
expect "the command runs" ':quit +end the session'

keys 'Up'
expect "Up recalls the last line" '^alea> :help$'
keys C-u 'Up' 'Up'
expect "Up again goes further back" '^alea> add_one\(favourite_value\)$'
keys C-u

keys 'fn loop(i) = loop(i + 1)' Enter
expect "an endless function" '^fn loop : '
keys 'loop(0)' Enter
sleep 0.5
keys C-c
expect "Ctrl-C interrupts the evaluation" 'interrupted$'
# A value seen nowhere else on the screen: matching an earlier line would let
# the next keys arrive while this one still runs (slow sanitizer builds).
keys '2 * 521' Enter
expect "the session goes on" '^- : Int = 1042$'

# progress: a bar on the terminal, drawn again in place as the steps go,
# one line to the end, then the value.
keys 'fn wait(t: Float) -> () = if clock() < t { wait(t) } else { () }' Enter
expect "a busy wait" '^fn wait : '
keys 'fold(range(30), 0, |a, i| { progress(i, 30); wait(clock() + 0.1); a + i })' Enter
expect "a bar part-way" '^ *[0-9]+% \|█+[^|]* *\| [0-9]+/30 \[00:0[0-9]<'
expect "the bar at its end, then the value" '^- : Int = 435$'
bars=$(screen | grep -cE '\| [0-9]+/30 \[')
if [[ $bars -ne 1 ]]; then
  echo "FAIL: the progress bar took $bars lines, not one updated in place:"
  screen | sed 's/^/  | /'
  failures=$((failures + 1))
fi
screen | grep -qE '^100% \|█+\| 30/30 \[' || {
  echo "FAIL: no full bar at the end:"
  screen | sed 's/^/  | /'
  failures=$((failures + 1))
}
# What a long evaluation prints shows as it is printed, not at its end.
keys '{ print("first line"); wait(clock() + 5.0); print("second line") }' Enter
expect "printed text shows at once" '^first line$'
if screen | grep -q '^second line$'; then
  echo "FAIL: the first line showed only with the second, at the end"
  failures=$((failures + 1))
fi
expect "the rest follows" '^second line$'

# A plot drawn in the terminal, as wide as it (100 columns).
keys 'hist(tensor([1.0, 2.0, 2.0, 3.0, 3.0, 3.0]), bins: 3, title: "tmux hist")' Enter
expect "a histogram's title" '^ +tmux hist$'
expect "its bars and axis" '^3 ┤ *█+$'
rules=$(screen | grep -E '^ *└' | head -1 | grep -o '[─┬]' | wc -l)
if [[ $rules -lt 90 ]]; then
  echo "FAIL: the plot's axis is $rules columns long in a 100-column terminal"
  failures=$((failures + 1))
fi

keys 'this line is never run' C-c
expect "Ctrl-C at the prompt discards the line" '\^C$'
keys '"after ctrl-c"' Enter
expect "the prompt comes back" '^- : Str = "after ctrl-c"$'

keys C-d
expect "Ctrl-D ends the session with status 0" '^ALEA-EXITED-0$'
if ! grep -q 'favourite_value' "$history" 2>/dev/null; then
  echo "FAIL: the history file $history was not written"
  failures=$((failures + 1))
fi

# The history is read back by the next session; :quit ends it too.
start
expect "a second session" '^alea> ?$'
keys Up
expect "history from the last session" '^alea> "after ctrl-c"$'
keys C-u ':quit' Enter
expect ":quit ends the session" '^ALEA-EXITED-0$'

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all terminal checks passed"

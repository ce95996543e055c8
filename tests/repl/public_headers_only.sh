#!/usr/bin/env bash
# The `alea` command (repl/) is a host of the public headers, as Lua's lua.c
# is of lua.h: it includes alea/alea.h and alea/tooling.h, never the
# project's internals (lang/, vm/, compiler/, stdlib/, embed/, tooling/).
# What it needs and they lack belongs in alea/tooling.h.
#
#   public_headers_only.sh SOURCE_ROOT
set -u
root=$1
found=$(grep -nE '^#include "(lang|vm|compiler|stdlib|embed|tooling)/' \
  "$root"/repl/*.cc "$root"/repl/*.h)
if [[ -n $found ]]; then
  echo "repl/ includes internal headers (use include/alea/ instead):"
  echo "$found"
  exit 1
fi
# The check itself: it must see the files it checks.
ls "$root"/repl/main.cc > /dev/null || exit 1
echo "repl/: public headers only"

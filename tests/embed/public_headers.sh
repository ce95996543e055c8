#!/usr/bin/env bash
# The public headers (include/alea/) name no other library's types or
# headers: a host builds against them with nothing but a C++20 (or, for
# alea.h, a C99) compiler, whatever Abseil or asmjit it uses itself.
set -euo pipefail
dir=$(cd "$(dirname "$0")/../../include/alea" && pwd)
status=0
for h in "$dir"/*.h; do
  if grep -nE '#include +[<"](absl|asmjit|lang|vm|compiler|embed|stdlib|repl)/|(absl|asmjit)::' "$h"; then
    echo "public_headers: $(basename "$h") uses another library or an internal header (above)" >&2
    status=1
  fi
done
# Each header compiles alone with only include/ on the path.
for h in "$dir"/*.h; do
  case $h in
    *.h)
      if [[ $(basename "$h") == alea.h ]]; then
        echo "#include \"alea/$(basename "$h")\"" | ${CC:-cc} -std=c99 -pedantic -Wall -Werror \
          -fsyntax-only -I"$dir/.." -x c - || status=1
      fi
      echo "#include \"alea/$(basename "$h")\"" | ${CXX:-c++} -std=c++20 -Wall -Werror \
        -fsyntax-only -I"$dir/.." -x c++ - || status=1
      ;;
  esac
done
if ((status == 0)); then echo "public_headers: $(ls "$dir"/*.h | wc -l) headers stand alone"; fi
exit $status

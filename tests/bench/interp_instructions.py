#!/usr/bin/env python3
"""The bytecode instructions each bench/interp program executes, as counted
by `alea run --stats` (deterministic: the same program runs the same
instructions on every machine, thread count and ISA), against the counts
recorded in bench/interp/instructions.txt. A compiler change that makes a
benchmark run more instructions fails here; one that makes it run fewer
fails too, so that the file is updated on purpose and the gain is recorded:

    tests/bench/interp_instructions.py ALEA_BINARY            check
    tests/bench/interp_instructions.py ALEA_BINARY --update   rewrite the file
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "interp"
COUNTS = BENCH / "instructions.txt"
HEADER = """\
# Bytecode instructions each bench/interp program executes (`alea run --stats`).
# Checked by tests/bench/interp_instructions.py (CTest bench.interp_instructions);
# after a compiler change, rerun it with --update and say why in the commit.
"""


def count(alea, program):
    p = subprocess.run([alea, "run", "--stats", str(BENCH / f"{program}.alea")],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit(f"{program}.alea failed ({p.returncode}):\n{p.stderr}")
    m = re.search(r"stats: (\d+) instructions", p.stderr)
    if m is None:
        sys.exit(f"{program}.alea: no instruction count in --stats:\n{p.stderr}")
    return int(m.group(1))


def recorded():
    counts = {}
    for line in COUNTS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, value = line.split()
            counts[name] = int(value)
    return counts


def main():
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--update"):
        sys.exit(__doc__)
    alea = sys.argv[1]
    programs = sorted(p.stem for p in BENCH.glob("*.alea"))
    measured = {p: count(alea, p) for p in programs}
    if len(sys.argv) == 3:
        COUNTS.write_text(HEADER + "".join(f"{p} {n}\n" for p, n in measured.items()))
        print(f"wrote {COUNTS}")
        return
    want = recorded()
    failures = 0
    for p in programs:
        got, expected = measured[p], want.get(p)
        if got == expected:
            print(f"{p}: {got} instructions")
            continue
        failures += 1
        what = "not recorded" if expected is None else (
            f"{got - expected:+d} ({got / expected - 1:+.1%}) against {expected}")
        print(f"FAIL {p}: {got} instructions, {what}")
    for p in sorted(set(want) - set(measured)):
        failures += 1
        print(f"FAIL {p}: recorded but bench/interp/{p}.alea is gone")
    if failures:
        print(f"{failures} program(s) changed: if on purpose, run\n"
              f"  {sys.argv[0]} {alea} --update")
    print(f"{len(programs) - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

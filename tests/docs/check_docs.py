#!/usr/bin/env python3
"""Runs every ```alea block of Markdown files and checks the output they show.

    check_docs.py ALEA FILE.md...

A block is one of two kinds (docs/README.md "Examples that run"):

- A REPL transcript: its first line starts with the prompt `alea> `. Lines
  starting `alea> ` or `  ...> ` are typed into `alea repl --no-history`; the
  other lines are what the session must print (stdout and stderr together).
- A program: anything else. Saved as `example.alea` (or the name given by
  `file=NAME` in the info string, so later blocks of the same page can import
  it), then run with `alea run [args] FILE` when it defines `main`, else
  checked with `alea check FILE`. `args="..."` in the info string adds flags
  (`--seed 3`, `--threads 2`). What it must print is the next ```text block
  when only blank lines, or one paragraph ending with `:`, come between;
  otherwise the `// prints TEXT` comments of its lines, in order; otherwise
  nothing at all.

Expected output that contains `error:` must come with exit status 1, any other
with 0. The blocks of one page run in order in one scratch directory. Numbers
on `time:` and `stats:` lines are masked (they vary from run to run).
"""

import os
import re
import shlex
import subprocess
import sys
import tempfile

PROMPT = "alea> "
CONTINUATION = "  ...> "
FENCE = re.compile(r"^( *)(`{3,})\s*(\S*)\s*(.*)$")
PRINTS = re.compile(r"//\s*prints(?:\s(.*))?$")
MAIN = re.compile(r"^\s*fn\s+main\s*\(", re.M)


class Block:
    def __init__(self, line, lang, info, lines):
        self.line = line  # 1-based line of the opening fence
        self.lang = lang
        self.info = info
        self.lines = lines


def parse_blocks(text):
    """Fenced blocks in order, with the prose lines between consecutive ones."""
    blocks, gaps = [], []
    lines = text.split("\n")
    i, gap = 0, []
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            gap.append(lines[i])
            i += 1
            continue
        indent, fence, lang, info = m.groups()  # a block in a list item is indented
        start, body = i + 1, []
        i += 1
        while i < len(lines) and not lines[i].startswith(indent + fence):
            line = lines[i]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip(" "))
            i += 1
        i += 1  # the closing fence
        gaps.append(gap)
        blocks.append(Block(start, lang, info, body))
        gap = []
    return blocks, gaps


def attributes(info):
    attrs = {}
    for word in shlex.split(info):
        key, _, value = word.partition("=")
        attrs[key] = value
    return attrs


def shown_by_text_block(gap):
    """Whether prose between a program and a ```text block still ties them."""
    prose = [l for l in gap if l.strip()]
    if not prose:
        return True
    paragraph = "\n".join(gap).strip()
    return "\n\n" not in paragraph and paragraph.endswith(":")


def mask(text):
    out = []
    for line in text.split("\n"):
        if line.startswith(("time:", "stats:")):
            line = re.sub(r"[0-9]+(\.[0-9]+)?", "N", line)
        out.append(line)
    return "\n".join(out)


def run(argv, cwd, stdin=None):
    proc = subprocess.run(argv, cwd=cwd, input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120,
                          env=dict(os.environ, ALEA_HISTORY=os.path.join(cwd, ".history")))
    return proc.returncode, proc.stdout


def check_transcript(alea, block, cwd):
    typed, expected = [], []
    for line in block.lines:
        if line.startswith(PROMPT):
            typed.append(line[len(PROMPT):])
        elif line.startswith(CONTINUATION):
            typed.append(line[len(CONTINUATION):])
        else:
            expected.append(line)
    args = shlex.split(attributes(block.info).get("args", ""))
    status, out = run([alea, "repl", "--no-history"] + args, cwd, "\n".join(typed) + "\n")
    if status != 0:
        return f"the session exited with status {status}", out
    want = "\n".join(expected)
    return compare(want, out)


def check_program(alea, block, text_block, cwd):
    attrs = attributes(block.info)
    name = attrs.get("file", "example.alea")
    source = "\n".join(block.lines) + "\n"
    with open(os.path.join(cwd, name), "w") as f:
        f.write(source)
    if text_block is not None:
        want = "\n".join(text_block.lines)
    else:
        prints = [PRINTS.search(l) for l in block.lines]
        want = "\n".join((m.group(1) or "") for m in prints if m)
    args = shlex.split(attrs.get("args", ""))
    command = "run" if MAIN.search(source) else "check"
    status, out = run([alea, command] + args + [name], cwd)
    expected_status = 1 if "error:" in want else 0
    if status != expected_status:
        return f"`alea {command}` exited with status {status}, expected {expected_status}", out
    return compare(want, out)


def compare(want, got):
    want, got = mask(want).rstrip("\n"), mask(got).rstrip("\n")
    if want == got:
        return None, None
    return "the output differs from what the page shows", (want, got)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    alea = os.path.abspath(sys.argv[1])
    failures, count = 0, 0
    for path in sys.argv[2:]:
        with open(path) as f:
            blocks, gaps = parse_blocks(f.read())
        with tempfile.TemporaryDirectory() as cwd:
            for i, block in enumerate(blocks):
                if block.lang != "alea":
                    continue
                count += 1
                nonempty = [l for l in block.lines if l.strip()]
                if nonempty and nonempty[0].startswith(PROMPT):
                    problem, detail = check_transcript(alea, block, cwd)
                else:
                    follows = None
                    if (i + 1 < len(blocks) and blocks[i + 1].lang == "text"
                            and shown_by_text_block(gaps[i + 1])):
                        follows = blocks[i + 1]
                    problem, detail = check_program(alea, block, follows, cwd)
                if problem is None:
                    continue
                failures += 1
                print(f"{path}:{block.line}: {problem}")
                if isinstance(detail, tuple):
                    import difflib
                    want, got = detail
                    sys.stdout.writelines(difflib.unified_diff(
                        (want + "\n").splitlines(True), (got + "\n").splitlines(True),
                        "shown in the page", "printed"))
                elif detail:
                    print(detail)
    print(f"{count} blocks, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

#include "repl/commands.h"

namespace alea::repl {

const std::vector<Subcommand>& Subcommands() {
  static const std::vector<Subcommand> kAll = {
      {"check", "type-check a program and everything it imports",
       "usage: alea check [options] FILE\n"
       "\n"
       "Parses FILE and every file it imports, and checks names, types, `match`\n"
       "exhaustiveness and the use of random states, without running anything.\n"
       "Diagnostics go to stderr as `file:line:col: error: message`.\n"
       "\n"
       "options:\n"
       "  -h, --help   show this help\n"
       "\n"
       "exit status: 0 when the program is well-typed (warnings allowed),\n"
       "             1 when it has errors, 2 on a usage error.\n",
       RunCheck},
      {"run", "compile and run a program",
       "usage: alea run [options] FILE [ARGS...]\n"
       "\n"
       "Checks and compiles FILE and everything it imports, then runs its `main`.\n"
       "ARGS after FILE are passed to `main(args: [Str])`. Compile and run-time\n"
       "errors go to stderr as `file:line:col: error: message`; what the program\n"
       "printed before a run-time error stays printed.\n"
       "\n"
       "options:\n"
       "  --seed N     a `main` declared `uses rng` draws from key(N) (default 0)\n"
       "  --no-jit     run tensor ops on the reference kernels only (the output is\n"
       "               the same bit for bit; only speed differs)\n"
       "  --threads N  threads for large tensor and random ops (default: one per\n"
       "               core); every N gives the same output\n"
       "  --isa ISA    the widest vector instructions the JIT may use: avx2 or\n"
       "               avx512 (default: the CPU's widest); the same output\n"
       "  --max-heap BYTES\n"
       "               stop with an error when live heap objects would pass BYTES\n"
       "               (K, M, G suffixes: KiB, MiB, GiB; default 0: no limit)\n"
       "  --max-depth N\n"
       "               stop with `stack overflow` past N nested calls (tail calls\n"
       "               do not nest; default 1000000)\n"
       "  --sandbox DIR\n"
       "               let the program's file builtins read and write only under\n"
       "               DIR: paths are relative to it, and an absolute path, `..`\n"
       "               above it or a symbolic link is a run-time error (default:\n"
       "               any file the user may touch)\n"
       "  --stats      after the run, print to stderr the instructions executed,\n"
       "               calls, heap allocations and peak, JIT kernels compiled (and\n"
       "               the time compiling them) and the time spent running them\n"
       "  -h, --help   show this help\n"
       "\n"
       "exit status: 0 when the program ran to the end,\n"
       "             1 on a compile or run-time error, 2 on a usage error.\n",
       RunRun},
      {"dis", "show the bytecode of a compiled program, or the desugared source",
       "usage: alea dis [options] FILE\n"
       "\n"
       "Checks and compiles FILE and prints the compiled module: each function\n"
       "(one per specialization), its registers and reference registers, its\n"
       "instructions with source lines, and the constant and type tables.\n"
       "\n"
       "With --desugar, checks FILE and prints it instead as Alea source with its\n"
       "implicit random states made explicit: each `uses rng` function takes its\n"
       "stream as an extra last parameter, each scope threads `next` through its\n"
       "stream once per site (`let (site_0, rng_1) = next(rng_0);`), and `with`\n"
       "blocks bind their state. The output is a valid program that prints what\n"
       "FILE prints.\n"
       "\n"
       "options:\n"
       "  --desugar    print the desugared source instead of bytecode\n"
       "  --seed N     with --desugar: a `uses rng` main starts from key(N), as\n"
       "               `alea run --seed N` runs it (default 0)\n"
       "  -h, --help   show this help\n"
       "\n"
       "exit status: 0 on success, 1 when the program has errors, 2 on a usage error.\n",
       RunDis},
      {"doc", "show the reference of a builtin function, operator or value",
       "usage: alea doc [options] [NAME]\n"
       "\n"
       "Prints the reference of the builtin NAME (a function such as `uniform`, an\n"
       "operator such as `+` or `@`, or a dtype such as `f32`): its signatures, one\n"
       "per overload, what it does and an example. With no NAME, lists every builtin\n"
       "with a line on each. The REPL's `:doc NAME` prints the same text, and\n"
       "docs/builtins.md is all of it.\n"
       "\n"
       "options:\n"
       "  --markdown   print the whole reference as Markdown (docs/builtins.md)\n"
       "  -h, --help   show this help\n"
       "\n"
       "exit status: 0 on success, 1 when NAME is no builtin, 2 on a usage error.\n",
       RunDoc},
      {"repl", "evaluate inputs interactively (also `alea` with no arguments)",
       "usage: alea repl [options]\n"
       "\n"
       "Reads inputs, evaluates each in one session and prints its value with its\n"
       "type (`- : Int = 3`). `fn`, `let` and `import` add to the session; an\n"
       "unfinished input continues on the next line. `:help` lists the commands.\n"
       "The top level draws from a session random stream: key(N) at start, each\n"
       "input with random sites taking its next state (docs/repl.md).\n"
       "\n"
       "On a terminal: line editing, Tab completion and a history file\n"
       "($ALEA_HISTORY, else $XDG_STATE_HOME/alea/history, else\n"
       "~/.local/state/alea/history). Otherwise the lines of stdin, without prompts.\n"
       "\n"
       "options:\n"
       "  --seed N      the session random stream starts at key(N) (default 0)\n"
       "  --no-jit      run tensor ops on the reference kernels only\n"
       "  --threads N   threads for large tensor and random ops (default: one per\n"
       "                core); every N gives the same output\n"
       "  --no-history  neither read nor write the history file\n"
       "  -h, --help    show this help\n"
       "\n"
       "exit status: 0 at the end of the session (errors in inputs are shown as they\n"
       "             happen and do not change it), 2 on a usage error.\n",
       RunRepl},
  };
  return kAll;
}

}  // namespace alea::repl

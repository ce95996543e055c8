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
       "  -h, --help   show this help\n"
       "\n"
       "exit status: 0 when the program ran to the end,\n"
       "             1 on a compile or run-time error, 2 on a usage error.\n",
       RunRun},
      {"dis", "show the bytecode of a compiled program",
       "usage: alea dis [options] FILE\n"
       "\n"
       "Checks and compiles FILE and prints the compiled module: each function\n"
       "(one per specialization), its registers and reference registers, its\n"
       "instructions with source lines, and the constant and type tables.\n"
       "\n"
       "options:\n"
       "  -h, --help   show this help\n"
       "\n"
       "exit status: 0 on success, 1 when the program has errors, 2 on a usage error.\n",
       RunDis},
  };
  return kAll;
}

}  // namespace alea::repl

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
  };
  return kAll;
}

}  // namespace alea::repl

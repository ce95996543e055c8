// The subcommands of `alea`, one function each, and the table that lists them.
#ifndef ALEA_REPL_COMMANDS_H_
#define ALEA_REPL_COMMANDS_H_

#include <string>
#include <vector>

#include "repl/command_line.h"

namespace alea::repl {

int RunCheck(const std::vector<std::string>& args);

// Every subcommand, in the order `alea --help` lists them.
const std::vector<Subcommand>& Subcommands();

}  // namespace alea::repl

#endif  // ALEA_REPL_COMMANDS_H_

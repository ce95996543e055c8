#include "repl/command_line.h"

#include <cstdio>

namespace alea::repl {

int UsageError(const std::string& command, const std::string& message) {
  std::fprintf(stderr, "alea: error: %s\nTry `alea %s--help` for usage.\n", message.c_str(),
               command.empty() ? "" : (command + " ").c_str());
  return kExitUsage;
}

bool WantsHelp(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--") return false;
    if (arg == "-h" || arg == "--help") return true;
  }
  return false;
}

}  // namespace alea::repl

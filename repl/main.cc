// `alea`: the command-line entry point. It dispatches to a subcommand from the
// table in commands.cc, so help, errors and exit codes behave the same way for
// every subcommand.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "repl/commands.h"

namespace alea::repl {
namespace {

constexpr char kVersion[] = "0.1.0";

void PrintHelp() {
  std::printf(
      "usage: alea <command> [options] [args]\n"
      "       alea            (no command: the REPL, as `alea repl`)\n"
      "\n"
      "Alea: a functional language for reproducible stochastic programs.\n"
      "\n"
      "commands:\n");
  for (const Subcommand& command : Subcommands()) {
    std::printf("  %-10s %s\n", command.name, command.summary);
  }
  std::printf(
      "\n"
      "options:\n"
      "  -h, --help   show this help\n"
      "  --version    print the version\n"
      "\n"
      "Run `alea <command> --help` for the options of a command.\n");
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  // No command: the REPL, on a terminal or on whatever stdin is.
  if (args.empty()) return RunRepl({});
  const std::string& first = args[0];
  if (first == "-h" || first == "--help" || first == "help") {
    PrintHelp();
    return kExitOk;
  }
  if (first == "--version") {
    std::printf("alea %s\n", kVersion);
    return kExitOk;
  }
  for (const Subcommand& command : Subcommands()) {
    if (first != command.name) continue;
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (WantsHelp(rest)) {
      std::fputs(command.help, stdout);
      return kExitOk;
    }
    return command.run(rest);
  }
  if (!first.empty() && first[0] == '-') return UsageError("", "unknown option `" + first + "`");
  return UsageError("", "unknown command `" + first + "`");
}

}  // namespace
}  // namespace alea::repl

int main(int argc, char** argv) { return alea::repl::Main(argc, argv); }

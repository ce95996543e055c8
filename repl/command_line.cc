#include "repl/command_line.h"

#include <cstdio>

#include "absl/strings/numbers.h"

namespace alea::repl {

int UsageError(const std::string& command, const std::string& message) {
  std::fprintf(stderr, "alea: error: %s\nTry `alea %s--help` for usage.\n", message.c_str(),
               command.empty() ? "" : (command + " ").c_str());
  return kExitUsage;
}

int SingleFileOperand(const std::string& command, const std::vector<std::string>& args,
                      std::string* file) {
  file->clear();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--" && i + 1 < args.size() && file->empty()) {
      *file = args[++i];
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return UsageError(command, "unknown option `" + arg + "`");
    } else if (file->empty()) {
      *file = arg;
    } else {
      return UsageError(command, "more than one FILE (`" + *file + "`, `" + arg + "`)");
    }
  }
  if (file->empty()) return UsageError(command, "missing FILE");
  return kExitOk;
}

int ParseSeedOption(const std::string& command, const std::vector<std::string>& args, size_t* i,
                    int64_t* seed) {
  const std::string& arg = args[*i];
  if (arg != "--seed" && !arg.starts_with("--seed=")) return 0;
  std::string value;
  if (arg != "--seed") {
    value = arg.substr(7);
  } else if (*i + 1 < args.size()) {
    value = args[++*i];
  } else {
    UsageError(command, "`--seed` needs a value");
    return -1;
  }
  if (!absl::SimpleAtoi(value, seed)) {
    UsageError(command, "`--seed` needs an integer, not `" + value + "`");
    return -1;
  }
  return 1;
}

bool WantsHelp(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--") return false;
    if (arg == "-h" || arg == "--help") return true;
  }
  return false;
}

}  // namespace alea::repl

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

int ParseOptionValue(const std::string& command, const std::string& name,
                     const std::vector<std::string>& args, size_t* i, std::string* value) {
  const std::string& arg = args[*i];
  if (arg == name) {
    if (*i + 1 >= args.size()) {
      UsageError(command, "`" + name + "` needs a value");
      return -1;
    }
    *value = args[++*i];
    return 1;
  }
  if (!arg.starts_with(name + "=")) return 0;
  *value = arg.substr(name.size() + 1);
  return 1;
}

int ParseSeedOption(const std::string& command, const std::vector<std::string>& args, size_t* i,
                    int64_t* seed) {
  std::string value;
  const int parsed = ParseOptionValue(command, "--seed", args, i, &value);
  if (parsed <= 0) return parsed;
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

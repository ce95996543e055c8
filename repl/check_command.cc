// `alea check FILE`: the front end alone, for editors and CI.
#include <cstdio>

#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "repl/command_line.h"
#include "repl/commands.h"

namespace alea::repl {

int RunCheck(const std::vector<std::string>& args) {
  std::string file;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--" && i + 1 < args.size() && file.empty()) {
      file = args[++i];
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return UsageError("check", "unknown option `" + arg + "`");
    } else if (file.empty()) {
      file = arg;
    } else {
      return UsageError("check", "more than one FILE (`" + file + "`, `" + arg + "`)");
    }
  }
  if (file.empty()) return UsageError("check", "missing FILE");

  lang::SourceManager sources;
  lang::Diagnostics diags;
  std::optional<lang::Program> program = lang::CheckProgram(file, sources, diags);
  std::string report = lang::RenderAll(sources, diags);
  std::fputs(report.c_str(), stderr);
  return program ? kExitOk : kExitProgramError;
}

}  // namespace alea::repl

// `alea check FILE`: the front end alone, for editors and CI.
#include <cstdio>

#include "alea/tooling.h"
#include "repl/command_line.h"
#include "repl/commands.h"

namespace alea::repl {

int RunCheck(const std::vector<std::string>& args) {
  std::string file;
  if (int status = SingleFileOperand("check", args, &file); status != kExitOk) return status;

  const tooling::Shown checked = tooling::Check(file);
  std::fputs(checked.diagnostics.c_str(), stderr);
  return checked.ok ? kExitOk : kExitProgramError;
}

}  // namespace alea::repl

// `alea check FILE`: the front end alone, for editors and CI.
#include <cstdio>

#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "repl/command_line.h"
#include "repl/commands.h"

namespace alea::repl {

int RunCheck(const std::vector<std::string>& args) {
  std::string file;
  if (int status = SingleFileOperand("check", args, &file); status != kExitOk) return status;

  lang::SourceManager sources;
  lang::Diagnostics diags;
  std::optional<lang::Program> program = lang::CheckProgram(file, sources, diags);
  std::string report = lang::RenderAll(sources, diags);
  std::fputs(report.c_str(), stderr);
  return program ? kExitOk : kExitProgramError;
}

}  // namespace alea::repl

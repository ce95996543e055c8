// `alea dis FILE`: the bytecode the compiler makes of a program.
#include <cstdio>

#include "repl/command_line.h"
#include "repl/commands.h"
#include "vm/disassembler.h"

namespace alea::repl {

int RunDis(const std::vector<std::string>& args) {
  std::string file;
  if (int status = SingleFileOperand("dis", args, &file); status != kExitOk) return status;
  lang::SourceManager sources;
  vm::Module module;
  if (!CompileFile(file, sources, module)) return kExitProgramError;
  std::fputs(vm::Disassemble(module).c_str(), stdout);
  return kExitOk;
}

}  // namespace alea::repl

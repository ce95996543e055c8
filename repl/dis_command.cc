// `alea dis FILE`: the bytecode the compiler makes of a program.
#include <cstdio>

#include "repl/command_line.h"
#include "repl/commands.h"
#include "vm/disassembler.h"

namespace alea::repl {

int RunDis(const std::vector<std::string>& args) {
  std::string file;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--" && i + 1 < args.size() && file.empty()) {
      file = args[++i];
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return UsageError("dis", "unknown option `" + arg + "`");
    } else if (file.empty()) {
      file = arg;
    } else {
      return UsageError("dis", "more than one FILE (`" + file + "`, `" + arg + "`)");
    }
  }
  if (file.empty()) return UsageError("dis", "missing FILE");
  lang::SourceManager sources;
  vm::Module module;
  if (!CompileFile(file, sources, module)) return kExitProgramError;
  std::fputs(vm::Disassemble(module).c_str(), stdout);
  return kExitOk;
}

}  // namespace alea::repl

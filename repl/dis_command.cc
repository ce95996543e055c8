// `alea dis FILE`: the bytecode the compiler makes of a program;
// `alea dis --desugar [--seed N] FILE`: the program with its implicit random
// states made explicit, as Alea source (lang/desugar.h).
#include <cstdio>
#include <optional>

#include "lang/desugar.h"
#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "repl/command_line.h"
#include "repl/commands.h"
#include "vm/disassembler.h"

namespace alea::repl {
namespace {

int RunDesugar(const std::string& file, int64_t seed) {
  lang::SourceManager sources;
  lang::Diagnostics diags;
  // The front end alone: the rewrite reads the checked tree, not bytecode.
  std::optional<lang::Program> program = lang::CheckProgram(file, sources, diags);
  std::fputs(lang::RenderAll(sources, diags).c_str(), stderr);
  if (!program) return kExitProgramError;
  lang::DesugarOptions options;
  options.seed = seed;
  options.sources = &sources;
  std::fputs(lang::DesugarProgram(*program, options).c_str(), stdout);
  return kExitOk;
}

}  // namespace

int RunDis(const std::vector<std::string>& args) {
  bool desugar = false;
  std::optional<int64_t> seed;
  std::vector<std::string> operands;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      operands.insert(operands.end(), args.begin() + static_cast<ptrdiff_t>(i), args.end());
      break;
    } else if (arg == "--desugar") {
      desugar = true;
    } else if (int64_t n = 0; int parsed = ParseSeedOption("dis", args, &i, &n)) {
      if (parsed < 0) return kExitUsage;
      seed = n;
    } else {
      operands.push_back(arg);
    }
  }
  if (seed && !desugar) return UsageError("dis", "`--seed` goes with `--desugar`");
  std::string file;
  if (int status = SingleFileOperand("dis", operands, &file); status != kExitOk) return status;
  if (desugar) return RunDesugar(file, seed.value_or(0));
  lang::SourceManager sources;
  vm::Module module;
  if (!LoadProgramFile(file, sources, module)) return kExitProgramError;
  std::fputs(vm::Disassemble(module).c_str(), stdout);
  return kExitOk;
}

}  // namespace alea::repl

// `alea dis FILE`: the bytecode the compiler makes of a program;
// `alea dis --desugar [--seed N] FILE`: the program with its implicit random
// states made explicit, as Alea source. A host of the C API, with
// alea/tooling.h for what no other host needs.
#include <cstdio>
#include <optional>

#include "alea/alea.h"
#include "alea/tooling.h"
#include "repl/command_line.h"
#include "repl/commands.h"

namespace alea::repl {

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
  if (desugar) {
    const tooling::Shown shown = tooling::Desugar(file, seed.value_or(0));
    std::fputs(shown.diagnostics.c_str(), stderr);
    std::fputs(shown.text.c_str(), stdout);
    return shown.ok ? kExitOk : kExitProgramError;
  }
  // The module `alea run` runs: `main` and what it reaches.
  alea_compile_options options;
  alea_compile_options_init(&options);
  options.main_only = 1;
  alea_module* module = OpenProgramFile(file, options);
  if (module == nullptr) return kExitProgramError;
  std::fputs(tooling::Disassemble(module).c_str(), stdout);
  alea_module_release(module);
  return kExitOk;
}

}  // namespace alea::repl

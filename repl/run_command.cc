// `alea run FILE [ARGS...]`: front end, compiler, VM. Every error, compile
// time or run time, is a diagnostic on stderr in one layout.
#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/compiler.h"
#include "embed/runtime_diagnostic.h"
#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "repl/command_line.h"
#include "repl/commands.h"
#include "repl/print_stats.h"
#include "stdlib/natives.h"
#include "vm/vm.h"

namespace alea::repl {
namespace {

// More threads than this is a typo, not a machine.
constexpr int kMaxThreads = 1024;

// A byte count: digits with an optional K, M or G (KiB, MiB, GiB). 0 is
// "no limit", as in vm::Limits.
bool ParseBytes(const std::string& text, uint64_t* bytes) {
  std::string digits = text;
  int shift = 0;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'k':
      case 'K':
        shift = 10;
        break;
      case 'm':
      case 'M':
        shift = 20;
        break;
      case 'g':
      case 'G':
        shift = 30;
        break;
      default:
        break;
    }
    if (shift != 0) digits.pop_back();
  }
  uint64_t n = 0;
  if (digits.empty() || digits[0] == '-' || digits[0] == '+' || !absl::SimpleAtoi(digits, &n) ||
      n > (UINT64_MAX >> shift)) {
    return false;
  }
  *bytes = n << shift;
  return true;
}

}  // namespace

// Compiles FILE; on success `module` holds it. Diagnostics are printed.
bool CompileFile(const std::string& file, lang::SourceManager& sources, vm::Module& module,
                 bool has_host, bool export_functions) {
  lang::Diagnostics diags;
  std::optional<lang::Program> program = lang::CheckProgram(file, sources, diags);
  bool ok = program.has_value();
  if (ok) {
    absl::StatusOr<vm::Module> compiled = compiler::Compile(
        *program, sources, diags, {.export_functions = export_functions, .has_host = has_host});
    ok = compiled.ok();
    if (ok) module = *std::move(compiled);
  }
  std::fputs(lang::RenderAll(sources, diags).c_str(), stderr);
  return ok;
}

int RunRun(const std::vector<std::string>& args) {
  std::string file;
  std::vector<std::string> program_args;
  int64_t seed = 0;
  bool seed_given = false;
  bool jit = true;
  bool stats = false;
  bool avx512 = true;
  int threads = vm::ThreadPool::HardwareThreads();
  vm::Limits limits;
  std::string value;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!file.empty()) {
      program_args.push_back(arg);  // everything after FILE belongs to the program
    } else if (arg == "--no-jit") {
      jit = false;
    } else if (arg == "--stats") {
      stats = true;
    } else if (int parsed = ParseSeedOption("run", args, &i, &seed); parsed != 0) {
      if (parsed < 0) return kExitUsage;
      seed_given = true;
    } else if (int parsed = ParseOptionValue("run", "--threads", args, &i, &value); parsed != 0) {
      if (parsed < 0) return kExitUsage;
      if (!absl::SimpleAtoi(value, &threads) || threads < 1 || threads > kMaxThreads) {
        return UsageError("run", absl::StrCat("`--threads` needs a number from 1 to ", kMaxThreads,
                                              ", not `", value, "`"));
      }
    } else if (int parsed = ParseOptionValue("run", "--isa", args, &i, &value); parsed != 0) {
      if (parsed < 0) return kExitUsage;
      if (value != "avx2" && value != "avx512") {
        return UsageError("run", "`--isa` needs `avx2` or `avx512`, not `" + value + "`");
      }
      avx512 = value == "avx512";
    } else if (int parsed = ParseOptionValue("run", "--max-heap", args, &i, &value); parsed != 0) {
      if (parsed < 0) return kExitUsage;
      if (!ParseBytes(value, &limits.max_heap_bytes)) {
        return UsageError(
            "run",
            "`--max-heap` needs a byte count such as 4096, 64K, 512M or 2G, not `" + value + "`");
      }
    } else if (int parsed = ParseOptionValue("run", "--max-depth", args, &i, &value); parsed != 0) {
      if (parsed < 0) return kExitUsage;
      if (!absl::SimpleAtoi(value, &limits.max_call_depth) || limits.max_call_depth < 1) {
        return UsageError("run",
                          "`--max-depth` needs a positive number of calls, not `" + value + "`");
      }
    } else if (int parsed = ParseOptionValue("run", "--sandbox", args, &i, &value); parsed != 0) {
      if (parsed < 0) return kExitUsage;
      if (value.empty()) return UsageError("run", "`--sandbox` needs a directory");
      limits.files = vm::FileAccess{vm::FileAccess::Mode::kReadWrite, value};
    } else if (arg == "--" && i + 1 < args.size()) {
      file = args[++i];
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return UsageError("run", "unknown option `" + arg + "`");
    } else {
      file = arg;
    }
  }
  if (file.empty()) return UsageError("run", "missing FILE");

  lang::SourceManager sources;
  vm::Module module;
  std::vector<uint64_t> code_offsets;
  if (!LoadProgramFile(file, sources, module, /*has_host=*/false, &code_offsets)) {
    return kExitProgramError;
  }
  if (module.main < 0) {
    lang::Diagnostics diags;
    diags.Report(lang::DiagId::kNoMain, std::nullopt, file);
    std::fputs(lang::RenderAll(sources, diags).c_str(), stderr);
    return kExitProgramError;
  }
  // A seed only reaches a `uses rng` main: say so rather than ignore it.
  if (seed_given && !module.main_uses_rng) {
    lang::Diagnostics diags;
    diags.Report(lang::DiagId::kSeedUnused, std::nullopt, std::to_string(seed));
    std::fputs(lang::RenderAll(sources, diags).c_str(), stderr);
  }

  vm::Vm machine(limits);
  machine.AddNatives(stdlib::Natives());
  machine.SetJitEnabled(jit);
  machine.SetJitAvx512(avx512);
  machine.SetThreads(threads);
  machine.SetKernelTiming(stats);
  absl::Status status = machine.Load(module, code_offsets);
  if (!status.ok()) {
    ReportLoadError(file, status.message());
    return kExitProgramError;
  }
  status = machine.RunMain(program_args, seed);
  std::fflush(stdout);
  if (stats) PrintStats(machine.stats());
  if (status.ok()) return kExitOk;
  const vm::RuntimeError* error = machine.last_error();
  lang::Diagnostics diags;
  if (error == nullptr) {
    diags.Report(lang::DiagId::kRuntimeError, std::nullopt, std::string(status.message()), "");
  } else {
    embed::ReportRuntimeError(sources, *error, diags);
  }
  std::fputs(lang::RenderAll(sources, diags).c_str(), stderr);
  return kExitProgramError;
}

}  // namespace alea::repl

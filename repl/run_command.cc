// `alea run FILE [ARGS...]`: a host of the C API (include/alea/alea.h), as
// Lua's `lua.c` is of `lua.h`. Every error, compile time or run time, is a
// diagnostic on stderr in one layout.
#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "alea/alea.h"
#include "alea/tooling.h"
#include "repl/command_line.h"
#include "repl/commands.h"
#include "repl/print_stats.h"

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

int RunRun(const std::vector<std::string>& args) {
  std::string file;
  std::vector<std::string> program_args;
  int64_t seed = 0;
  bool seed_given = false;
  bool jit = true;
  bool stats = false;
  bool avx512 = true;
  int threads = tooling::HardwareThreads();
  alea_config config;
  alea_config_init(&config);
  std::string sandbox;
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
      if (!ParseBytes(value, &config.max_heap_bytes)) {
        return UsageError(
            "run",
            "`--max-heap` needs a byte count such as 4096, 64K, 512M or 2G, not `" + value + "`");
      }
    } else if (int parsed = ParseOptionValue("run", "--max-depth", args, &i, &value); parsed != 0) {
      if (parsed < 0) return kExitUsage;
      if (!absl::SimpleAtoi(value, &config.max_call_depth) || config.max_call_depth < 1) {
        return UsageError("run",
                          "`--max-depth` needs a positive number of calls, not `" + value + "`");
      }
    } else if (int parsed = ParseOptionValue("run", "--sandbox", args, &i, &value); parsed != 0) {
      if (parsed < 0) return kExitUsage;
      if (value.empty()) return UsageError("run", "`--sandbox` needs a directory");
      sandbox = value;
    } else if (arg == "--" && i + 1 < args.size()) {
      file = args[++i];
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return UsageError("run", "unknown option `" + arg + "`");
    } else {
      file = arg;
    }
  }
  if (file.empty()) return UsageError("run", "missing FILE");

  // `alea run` is a host of the C API (include/alea/alea.h) like any other,
  // with what a command line needs beyond it from alea/tooling.h.
  alea_compile_options options;
  alea_compile_options_init(&options);
  options.no_host = 1;
  options.main_only = 1;
  alea_module* module = OpenProgramFile(file, options);
  if (module == nullptr) return kExitProgramError;
  struct Release {
    alea_module* m;
    ~Release() { alea_module_release(m); }
  } release_module{module};
  if (alea_module_has_main(module) == 0) {
    std::fprintf(stderr, "%s", tooling::NoMainError(file).c_str());
    return kExitProgramError;
  }
  // A seed only reaches a `uses rng` main: say so rather than ignore it.
  if (seed_given && alea_module_main_uses_rng(module) == 0) {
    std::fputs(tooling::SeedUnusedWarning(seed).c_str(), stderr);
  }

  config.threads = threads;
  config.jit = jit ? 1 : 0;
  config.files = sandbox.empty() ? ALEA_FILES_FULL : ALEA_FILES_READ_WRITE;
  config.files_root = sandbox.c_str();
  alea_vm* machine = alea_vm_new(&config);
  struct Free {
    alea_vm* vm;
    ~Free() { alea_vm_free(vm); }
  } free_vm{machine};
  tooling::SetAvx512(machine, avx512);
  tooling::SetKernelTiming(machine, stats);
  std::vector<const char*> argv;
  for (const std::string& a : program_args) argv.push_back(a.c_str());
  alea_error* error = nullptr;
  alea_code code = alea_vm_load(machine, module, &error);
  if (code == ALEA_OK) {
    code = alea_vm_run_main(machine, argv.data(), argv.size(), seed, &error);
  }
  std::fflush(stdout);
  if (stats) PrintStats(tooling::Stats(machine));
  if (code == ALEA_OK) return kExitOk;
  std::fputs(alea_error_message(error), stderr);
  alea_error_free(error);
  return kExitProgramError;
}

}  // namespace alea::repl

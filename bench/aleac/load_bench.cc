// Loading a module against compiling its source: every golden program
// (tests/programs/) compiled from its text by the front end and the compiler,
// against the same programs' modules decoded and verified (what `alea run
// FILE.aleac` and Module::FromBytes do instead), and loaded into a Vm (which
// verifies again and makes the string constants). Sources and bytes are in
// memory on both sides, so neither pays for the disk.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "compiler/compiler.h"
#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "stdlib/natives.h"
#include "vm/module_file.h"
#include "vm/verifier.h"
#include "vm/vm.h"

namespace alea {
namespace {

struct Program {
  std::string path;
  std::string text;
  std::string module;  // its bytes, as `alea build` writes them
};

std::optional<vm::Module> CompileText(const Program& p, lang::SourceManager& sources) {
  sources.Provide(p.path, p.text);
  lang::Diagnostics diags;
  std::optional<lang::Program> program = lang::CheckProgram(p.path, sources, diags);
  if (!program) return std::nullopt;
  compiler::CompileOptions options;
  options.export_functions = true;
  absl::StatusOr<vm::Module> m = compiler::Compile(*program, sources, diags, options);
  if (!m.ok()) return std::nullopt;
  return *std::move(m);
}

const std::vector<Program>& Programs() {
  static const std::vector<Program>* const kPrograms = [] {
    auto* out = new std::vector<Program>;
    std::vector<std::filesystem::path> paths;
    for (const auto& e : std::filesystem::directory_iterator(ALEA_PROGRAMS_DIR)) {
      if (e.path().extension() == ".alea") paths.push_back(e.path());
    }
    std::sort(paths.begin(), paths.end());
    for (const auto& path : paths) {
      std::ifstream in(path);
      std::stringstream text;
      text << in.rdbuf();
      Program p{path.string(), text.str(), ""};
      lang::SourceManager sources;
      std::optional<vm::Module> m = CompileText(p, sources);
      if (!m) continue;  // the programs that show compile errors
      std::vector<std::string> texts;
      for (size_t i = 0; i < sources.size(); ++i) {
        texts.emplace_back(sources.file(static_cast<lang::FileId>(i)).text());
      }
      p.module = vm::EncodeModule(*m, texts);
      out->push_back(std::move(p));
    }
    return out;
  }();
  return *kPrograms;
}

void BM_CompileFromSource(benchmark::State& state) {
  for (auto _ : state) {
    for (const Program& p : Programs()) {
      lang::SourceManager sources;
      benchmark::DoNotOptimize(CompileText(p, sources));
    }
  }
  state.counters["programs"] = static_cast<double>(Programs().size());
}
BENCHMARK(BM_CompileFromSource)->Unit(benchmark::kMillisecond);

void BM_DecodeAndVerify(benchmark::State& state) {
  for (auto _ : state) {
    for (const Program& p : Programs()) {
      absl::StatusOr<vm::ModuleFile> m = vm::DecodeModule(p.module);
      if (!m.ok() || !vm::VerifyModule(m->module).ok()) state.SkipWithError("a module failed");
      benchmark::DoNotOptimize(m);
    }
  }
}
BENCHMARK(BM_DecodeAndVerify)->Unit(benchmark::kMillisecond);

void BM_DecodeAndLoadIntoAVm(benchmark::State& state) {
  vm::Vm machine;
  machine.AddNatives(stdlib::Natives());
  for (auto _ : state) {
    for (const Program& p : Programs()) {
      absl::StatusOr<vm::ModuleFile> m = vm::DecodeModule(p.module);
      if (!m.ok() || !vm::VerifyModule(m->module).ok()) state.SkipWithError("a module failed");
      if (!m->module.externs.empty()) continue;  // needs a host's functions
      if (!machine.Load(m->module).ok()) state.SkipWithError("a module failed to load");
    }
  }
}
BENCHMARK(BM_DecodeAndLoadIntoAVm)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace alea

BENCHMARK_MAIN();

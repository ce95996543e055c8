// Every golden program as a module: its bytes decode to the same module
// (encoding it again gives the same bytes) and verify. Then the modules
// broken at random, thousands of times: flipped, cut, duplicated and
// deleted bytes, each loaded and, when it decodes and verifies, run under
// tight limits. Every outcome must be an error status or a finished run; a
// crash, a sanitizer report or a hang fails the test. A fixed seed makes a
// failure reproducible; ALEA_MUTATION_SEED and ALEA_MUTATION_ROUNDS explore
// further.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "gtest/gtest.h"
#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "stdlib/natives.h"
#include "vm/module_file.h"
#include "vm/verifier.h"
#include "vm/vm.h"

namespace alea::vm {
namespace {

struct Golden {
  std::string name;
  std::string bytes;
};

// The golden programs that compile, as modules (with their exports, as
// `alea build` writes them, and their sources).
const std::vector<Golden>& GoldenModules() {
  static const std::vector<Golden>* const kModules = [] {
    auto* out = new std::vector<Golden>;
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(ALEA_TEST_PROGRAMS_DIR)) {
      if (entry.path().extension() == ".alea") paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    for (const std::filesystem::path& path : paths) {
      lang::SourceManager sources;
      lang::Diagnostics diags;
      std::optional<lang::Program> program = lang::CheckProgram(path.string(), sources, diags);
      if (!program) continue;
      compiler::CompileOptions options;
      options.export_functions = true;
      absl::StatusOr<Module> m = compiler::Compile(*program, sources, diags, options);
      if (!m.ok()) continue;
      std::vector<std::string> texts;
      for (size_t i = 0; i < sources.size(); ++i) {
        texts.emplace_back(sources.file(static_cast<lang::FileId>(i)).text());
      }
      out->push_back({path.stem().string(), EncodeModule(*m, texts)});
    }
    return out;
  }();
  return *kModules;
}

TEST(GoldenModules, DecodeToThemselvesAndVerify) {
  ASSERT_GT(GoldenModules().size(), 200u);
  for (const Golden& g : GoldenModules()) {
    absl::StatusOr<ModuleFile> m = DecodeModule(g.bytes);
    ASSERT_TRUE(m.ok()) << g.name << ": " << m.status();
    EXPECT_EQ(EncodeModule(m->module, m->sources), g.bytes) << g.name;
    VerifyOptions options;
    options.code_offsets = m->code_offsets;
    EXPECT_TRUE(VerifyModule(m->module, options).ok()) << g.name;
  }
}

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::strtoull(v, nullptr, 10) : fallback;
}

// Where a module's sources section ends: its bytes are text nothing reads
// but error messages, so mutations go after it (into the tables and code).
size_t AfterSources(const std::string& bytes) {
  size_t pos = 21;  // the header, then the sources section's id
  uint64_t size = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t b = static_cast<uint8_t>(bytes[pos++]);
    size |= uint64_t{b & 0x7fu} << shift;
    if ((b & 0x80) == 0) break;
  }
  return pos + size;
}

// One broken copy of `bytes`, broken at or after `from`.
std::string Mutate(const std::string& bytes, size_t from, std::mt19937_64& rng) {
  std::string out = bytes;
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && out.size() > from; ++e) {
    const size_t at = from + rng() % (out.size() - from);
    switch (rng() % 8) {
      case 0:  // cut the rest
        out.resize(at);
        break;
      case 1:  // delete a run
        out.erase(at, 1 + rng() % 8);
        break;
      case 2:  // duplicate a run
        out.insert(at, out.substr(at, 1 + rng() % 8));
        break;
      case 3:  // an extreme byte
        out[at] = static_cast<char>(rng() % 2 == 0 ? 0xff : 0x00);
        break;
      default:  // flip bits, most often: a field changes but the layout holds
        out[at] = static_cast<char>(out[at] ^ (1 + rng() % 255));
        break;
    }
  }
  return out;
}

TEST(GoldenModules, MutatedModulesFailCleanlyOrRunWithinLimits) {
  const uint64_t seed = EnvOr("ALEA_MUTATION_SEED", 2026);
  const uint64_t per_module = EnvOr("ALEA_MUTATION_ROUNDS", 20);
  std::mt19937_64 rng(seed);
  uint64_t decoded = 0, verified = 0, ran = 0, total = 0;
  Limits limits;
  limits.max_instructions = 20'000;
  limits.max_heap_bytes = 16 << 20;
  limits.max_call_depth = 200;
  limits.files.mode = FileAccess::Mode::kNone;  // vm::Limits defaults to full access
  for (const Golden& g : GoldenModules()) {
    for (uint64_t round = 0; round < per_module; ++round) {
      ++total;
      const std::string bytes = Mutate(g.bytes, AfterSources(g.bytes), rng);
      absl::StatusOr<ModuleFile> m = DecodeModule(bytes);
      if (!m.ok()) continue;
      ++decoded;
      if (!VerifyModule(m->module).ok()) continue;
      ++verified;
      Vm vm(limits);
      vm.AddNatives(stdlib::Natives());
      vm.SetThreads(1);
      vm.SetOutput([](absl::string_view) {});
      if (!vm.Load(m->module).ok() || m->module.main < 0) continue;
      ++ran;
      (void)vm.RunMain({}, 0);
    }
  }
  std::printf("%llu mutated modules: %llu decoded, %llu verified, %llu ran\n",
              static_cast<unsigned long long>(total), static_cast<unsigned long long>(decoded),
              static_cast<unsigned long long>(verified), static_cast<unsigned long long>(ran));
  EXPECT_GT(total, 4000u);
}

}  // namespace
}  // namespace alea::vm

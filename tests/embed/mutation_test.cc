// No input crashes the compiler or the VM (docs/language.md "Errors"): the golden
// programs, broken at random (cut, pasted into each other, stuffed with
// tokens), go through alea::Compile and, when they compile, through Load and
// `main` under tight limits. Every outcome must be a value or a status that
// carries a diagnostic; a crash, a sanitizer report or a hang fails the test.
// The mutations come from a fixed seed, so a failure reproduces; to explore
// further, ALEA_MUTATION_SEED and ALEA_MUTATION_ROUNDS change the seed and
// the number of programs.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "alea/compiler.h"
#include "alea/vm.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace alea {
namespace {

using ::testing::HasSubstr;

struct Source {
  std::string path;
  std::string text;
};

std::vector<Source> GoldenPrograms() {
  std::vector<Source> out;
  for (const auto& entry : std::filesystem::directory_iterator(ALEA_TEST_PROGRAMS_DIR)) {
    if (entry.path().extension() != ".alea") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    out.push_back({entry.path().string(), text.str()});
  }
  std::sort(out.begin(), out.end(),
            [](const Source& a, const Source& b) { return a.path < b.path; });
  return out;
}

// Pieces that make broken programs interesting: brackets, keywords, the
// RandState API, numbers at the edges of their types.
constexpr const char* kTokens[] = {
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    "|x| ",
    "let ",
    "fn ",
    "with ",
    "match ",
    "=> ",
    "if ",
    "else ",
    "uses rng",
    "key(1)",
    "split",
    "next",
    "0",
    "1.5",
    "-",
    "+",
    "*",
    "/",
    "%",
    "==",
    "\"s\"",
    "x",
    "_",
    "Tensor",
    "RandState",
    "-> ",
    ": ",
    "extern ",
    "[]",
    "()",
    "Int",
    "i32",
    "9223372036854775807",
    "1e308",
    "-0.0",
    "tensor([1.0, 2.0])",
    "uniform([2])",
    "reshape(",
    "\n",
    "//",
    "import \"nowhere.alea\"\n",
    "print(",
    "@",
    "[:1]",
};

class Mutator {
 public:
  Mutator(const std::vector<Source>& sources, uint32_t seed) : sources_(sources), random_(seed) {}

  std::string Mutate(std::string text) {
    int edits = Pick(1, 2);
    for (int e = 0; e < edits; ++e) {
      if (text.empty()) text = "fn main() {}\n";
      size_t at = static_cast<size_t>(Pick(0, static_cast<int>(text.size()) - 1));
      size_t end = std::min(text.size(), at + static_cast<size_t>(Pick(1, 20)));
      switch (Pick(0, 3)) {
        case 0:  // cut
          text.erase(at, end - at);
          break;
        case 1:  // a token
          text.insert(at, kTokens[Pick(0, std::size(kTokens) - 1)]);
          break;
        case 2: {  // a piece of another program
          const std::string& other = sources_[Pick(0, sources_.size() - 1)].text;
          size_t from = static_cast<size_t>(Pick(0, static_cast<int>(other.size()) - 1));
          text.insert(at, other.substr(from, static_cast<size_t>(Pick(1, 80))));
          break;
        }
        default:  // a run repeated
          text.insert(at, text.substr(at, end - at));
          break;
      }
    }
    return text;
  }

  template <typename N>
  int Pick(int low, N high) {
    return std::uniform_int_distribution<int>(low, static_cast<int>(high))(random_);
  }

 private:
  const std::vector<Source>& sources_;
  std::mt19937 random_;
};

int64_t EnvOr(const char* name, int64_t otherwise) {
  const char* text = std::getenv(name);
  return text != nullptr ? std::strtoll(text, nullptr, 10) : otherwise;
}

// Runs `main` (plain, or `uses rng`) if the module has one.
alea::Status RunMain(Vm& vm, int* ran) {
  for (const Signature& signature :
       {Signature{{}, Type::kUnit}, Signature{{Type::kRandState}, Type::kUnit}}) {
    alea::StatusOr<Function> main = vm.Find("main", signature);
    if (!main.ok()) continue;
    std::vector<Value> args;
    if (!signature.params.empty()) args.push_back(RandState::FromSeed(0));
    ++*ran;
    return vm.Call(*main, args).status();
  }
  return alea::OkStatus();
}

TEST(Mutation, BrokenProgramsGiveDiagnosticsNotCrashes) {
  std::vector<Source> sources = GoldenPrograms();
  ASSERT_GT(sources.size(), 50u) << ALEA_TEST_PROGRAMS_DIR;
  Mutator mutator(sources, static_cast<uint32_t>(EnvOr("ALEA_MUTATION_SEED", 20261123)));
  const int64_t rounds = EnvOr("ALEA_MUTATION_ROUNDS", 1500);
  int compiled = 0;
  int rejected = 0;
  int ran = 0;
  for (int64_t round = 0; round < rounds; ++round) {
    const Source& source = sources[mutator.Pick(0, sources.size() - 1)];
    std::string text = mutator.Mutate(source.text);
    // A broken path could write anywhere: nothing here writes files.
    if (text.find("save_npy") != std::string::npos) continue;
    SCOPED_TRACE(testing::Message() << "round " << round << ", from " << source.path << ":\n"
                                    << text);
    alea::StatusOr<Module> module = Compile(text, source.path);
    if (!module.ok()) {
      ++rejected;
      EXPECT_EQ(module.status().code(), alea::StatusCode::kInvalidArgument);
      EXPECT_THAT(std::string(module.status().message()), HasSubstr("error"));
      continue;
    }
    ++compiled;
    Vm vm({.max_heap_bytes = 64 << 20, .max_call_depth = 10'000, .max_instructions = 2'000'000});
    vm.SetOutput([](std::string_view) {});
    alea::Status status = vm.Load(*module);
    // A declared `extern` this test does not register: a plain status.
    bool unbound = status.code() == alea::StatusCode::kNotFound ||
                   status.code() == alea::StatusCode::kInvalidArgument;
    if (status.ok()) status = RunMain(vm, &ran);
    if (!status.ok() && !unbound) {
      EXPECT_THAT(std::string(status.message()), HasSubstr("error"));
    }
  }
  std::printf("compiled %d, rejected %d, ran main %d\n", compiled, rejected, ran);
  // Both paths must be exercised, or the test checks less than it claims.
  EXPECT_GT(compiled, rounds / 20);
  EXPECT_GT(rejected, rounds / 10);
}

}  // namespace
}  // namespace alea

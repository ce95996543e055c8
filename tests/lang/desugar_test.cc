#include "lang/desugar.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "lang/ast_print.h"
#include "lang/front_end.h"

namespace alea::lang {
namespace {

namespace fs = std::filesystem;

// Programs go through the whole front end from files (imports included), as
// `alea dis --desugar` runs it; so does the output, checked again.
class DesugarTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / (std::string("alea_desugar_") + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }

  // The front end's diagnostics for `text` ("" when it is clean); the
  // program's root file is printed by PrintModule into *printed.
  std::string Check(const std::string& name, std::string* printed = nullptr) {
    SourceManager sources;
    Diagnostics diags;
    std::optional<Program> program = CheckProgram((dir_ / name).string(), sources, diags);
    if (program && printed != nullptr) *printed = PrintModule(*program->modules.back());
    return RenderAll(sources, diags);
  }

  // Desugars file `name` (which must check cleanly), then checks that the
  // output checks cleanly too, use-once rule included, and is a fixed point.
  std::string DesugarFile(const std::string& name, int64_t seed = 0) {
    SourceManager sources;
    Diagnostics diags;
    std::optional<Program> program = CheckProgram((dir_ / name).string(), sources, diags);
    EXPECT_TRUE(program.has_value()) << RenderAll(sources, diags);
    if (!program) return "";
    DesugarOptions options;
    options.seed = seed;
    std::string out = DesugarProgram(*program, options);
    Write("out.alea", out);
    std::string printed;
    EXPECT_EQ(Check("out.alea", &printed), "") << out;
    // No `uses rng` or `with` is left, so a second pass only prints it.
    EXPECT_EQ(printed, out);
    return out;
  }

  std::string Desugar(int64_t seed, const std::string& text) {
    Write("t.alea", text);
    return DesugarFile("t.alea", seed);
  }
  std::string Desugar(const char* text) { return Desugar(0, text); }

  fs::path dir_;
};

TEST_F(DesugarTest, ProgramWithoutAmbientStatesPrintsAsThePrinterDoes) {
  std::string text =
      "fn f(s: RandState) -> Tensor = normal(s, [2]) + 1.0\n"
      "fn main() { let (a, b) = split(key(0)); print(f(a)); print(uniform(b, [1])) }\n";
  Write("plain.alea", text);
  std::string printed;
  ASSERT_EQ(Check("plain.alea", &printed), "");
  EXPECT_EQ(DesugarFile("plain.alea"), printed);
}

TEST_F(DesugarTest, UsesRngFunctionTakesItsStreamLast) {
  EXPECT_EQ(
      Desugar("fn block(x: Tensor, w: Tensor) -> Tensor uses rng {\n"
              "  let h = dropout(relu(x @ w), 0.5);\n"
              "  let noise = normal(shape(h)) * 0.01;\n"
              "  h + noise\n"
              "}\n"
              "fn twice(x: Tensor) -> (Tensor, Tensor) uses rng = (block(x, x), block(x, x))\n"
              "fn none() -> Int uses rng = 1\n"),
      "fn block(x: Tensor, w: Tensor, rng_0: RandState) -> Tensor {\n"
      "  let (site_0, rng_1) = next(rng_0);\n"
      "  let (site_1, _) = next(rng_1);\n"
      "  let h = dropout(site_0, relu((x @ w)), 0.5);\n"
      "  let noise = (normal(site_1, shape(h)) * 0.01);\n"
      "  (h + noise)\n"
      "}\n"
      "\n"
      "fn twice(x: Tensor, rng_0: RandState) -> (Tensor, Tensor) {\n"
      "  let (site_0, rng_1) = next(rng_0);\n"
      "  let (site_1, _) = next(rng_1);\n"
      "  (block(x, x, site_0), block(x, x, site_1))\n"
      "}\n"
      "\n"
      "fn none(rng_0: RandState) -> Int = 1\n");
}

TEST_F(DesugarTest, WithBindsItsStateAndRngHandsOutASite) {
  EXPECT_EQ(Desugar("fn main() {\n"
                    "  let s = with key(1) { rng() };\n"
                    "  print(with s { () });\n"
                    "  with key(2) { print(uniform([2], hi: 4.0, lo: 2.0)); rng(); }\n"
                    "}\n"),
            "fn main() {\n"
            "  let s = {\n"
            "    let rng_0 = key(1);\n"
            "    let (site_0, _) = next(rng_0);\n"
            "    site_0\n"
            "  };\n"
            "  print({\n"
            "    let rng_0 = s;\n"
            "    ()\n"
            "  });\n"
            "  {\n"
            "    let rng_0 = key(2);\n"
            "    let (site_0, rng_1) = next(rng_0);\n"
            "    let (site_1, _) = next(rng_1);\n"
            "    print(uniform(site_0, [2], hi: 4.0, lo: 2.0));\n"
            "    site_1;\n"
            "  }\n"
            "}\n");
}

TEST_F(DesugarTest, IfAndMatchSitesHandTheirStateToTheirArms) {
  // The condition's site comes first; the `if` is one site; each arm numbers
  // its own sites from 0 and draws from the `if`'s state.
  EXPECT_EQ(Desugar("fn coin() -> Bool uses rng = item(bernoulli(0.5, []))\n"
                    "fn pick(n: Int) -> Tensor uses rng {\n"
                    "  let a = if coin() { normal([n]) } else { zeros([n]) };\n"
                    "  let b = match n { 0 => uniform([1]) + normal([1]), _ => ones([1]) };\n"
                    "  let c = if n > 1 { ones([1]) } else { ones([2]) };\n"
                    "  concat([a, b, c, normal([1])])\n"
                    "}\n"),
            "fn coin(rng_0: RandState) -> Bool {\n"
            "  let (site_0, _) = next(rng_0);\n"
            "  item(bernoulli(site_0, 0.5, []))\n"
            "}\n"
            "\n"
            "fn pick(n: Int, rng_0: RandState) -> Tensor {\n"
            "  let (site_0, rng_1) = next(rng_0);\n"
            "  let (site_1, rng_2) = next(rng_1);\n"
            "  let (site_2, rng_3) = next(rng_2);\n"
            "  let (site_3, _) = next(rng_3);\n"
            "  let a = if coin(site_0) {\n"
            "    let (site_1_0, _) = next(site_1);\n"
            "    normal(site_1_0, [n])\n"
            "  } else {\n"
            "    zeros([n])\n"
            "  };\n"
            "  let b = match n {\n"
            "    0 => {\n"
            "      let (site_2_0, rng_2_1) = next(site_2);\n"
            "      let (site_2_1, _) = next(rng_2_1);\n"
            "      (uniform(site_2_0, [1]) + normal(site_2_1, [1]))\n"
            "    },\n"
            "    _ => ones([1]),\n"
            "  };\n"
            "  let c = if (n > 1) {\n"
            "    ones([1])\n"
            "  } else {\n"
            "    ones([2])\n"
            "  };\n"
            "  concat([a, b, c, normal(site_3, [1])])\n"
            "}\n");
}

TEST_F(DesugarTest, ElseIfWithSitesBecomesABlock) {
  EXPECT_EQ(Desugar("fn f(n: Int) -> Tensor uses rng =\n"
                    "  if n > 0 { normal([1]) } else if item(uniform([])) < 0.5 { zeros([1]) }\n"
                    "  else if n < -5 { uniform([1]) } else { ones([1]) }\n"),
            "fn f(n: Int, rng_0: RandState) -> Tensor {\n"
            "  let (site_0, _) = next(rng_0);\n"
            "  if (n > 0) {\n"
            "    let (site_0_0, _) = next(site_0);\n"
            "    normal(site_0_0, [1])\n"
            "  } else {\n"
            "    let (site_0_0, rng_0_1) = next(site_0);\n"
            "    let (site_0_1, _) = next(rng_0_1);\n"
            "    if (item(uniform(site_0_0, [])) < 0.5) {\n"
            "      zeros([1])\n"
            "    } else {\n"
            "      let (site_0_1_0, _) = next(site_0_1);\n"
            "      if (n < (-5)) {\n"
            "        let (site_0_1_0_0, _) = next(site_0_1_0);\n"
            "        uniform(site_0_1_0_0, [1])\n"
            "      } else {\n"
            "        ones([1])\n"
            "      }\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST_F(DesugarTest, NestedWithScopesAndLambdasGetTheirOwnNames) {
  EXPECT_EQ(Desugar("fn deep() -> Float uses rng {\n"
                    "  let x = with (with rng() { rng() }) { item(normal([])) };\n"
                    "  let f = |k: Int| with key(k) { item(normal([])) };\n"
                    "  x + f(1) + item(uniform([]))\n"
                    "}\n"
                    "let c = with key(7) { item(sum(normal([3]))) }\n"),
            "let c = {\n"
            "  let rng_0 = key(7);\n"
            "  let (site_0, _) = next(rng_0);\n"
            "  item(sum(normal(site_0, [3])))\n"
            "};\n"
            "\n"
            "fn deep(rng_0: RandState) -> Float {\n"
            "  let (site_0, rng_1) = next(rng_0);\n"
            "  let (site_1, _) = next(rng_1);\n"
            "  let x = {\n"
            "    let rng_w1_0 = {\n"
            "      let rng_w0_0 = site_0;\n"
            "      let (site_w0_0, _) = next(rng_w0_0);\n"
            "      site_w0_0\n"
            "    };\n"
            "    let (site_w1_0, _) = next(rng_w1_0);\n"
            "    item(normal(site_w1_0, []))\n"
            "  };\n"
            "  let f = |k: Int| {\n"
            "    let rng_0 = key(k);\n"
            "    let (site_0, _) = next(rng_0);\n"
            "    item(normal(site_0, []))\n"
            "  };\n"
            "  ((x + f(1)) + item(uniform(site_1, [])))\n"
            "}\n");
}

TEST_F(DesugarTest, UsesRngMainStartsFromTheSeed) {
  const char* text = "fn main(args: [Str]) uses rng = print((len(args), normal([1]), rng()))\n";
  EXPECT_EQ(Desugar(text),
            "fn main(args: [Str]) {\n"
            "  let rng_0 = key(0);\n"
            "  let (site_0, rng_1) = next(rng_0);\n"
            "  let (site_1, _) = next(rng_1);\n"
            "  print((len(args), normal(site_0, [1]), site_1))\n"
            "}\n");
  EXPECT_NE(Desugar(7, text).find("let rng_0 = key(7);"), std::string::npos);
  EXPECT_NE(Desugar(-3, text).find("let rng_0 = key((-3));"), std::string::npos);
}

TEST_F(DesugarTest, UsesRngMainCalledWithAStreamGetsAnEntryPoint) {
  EXPECT_EQ(Desugar(5,
                    "fn main() uses rng {\n"
                    "  let x = item(uniform([]));\n"
                    "  if x < 0.5 { main() } else { print(x) }\n"
                    "}\n"),
            "fn main_(rng_0: RandState) {\n"
            "  let (site_0, rng_1) = next(rng_0);\n"
            "  let (site_1, _) = next(rng_1);\n"
            "  let x = item(uniform(site_0, []));\n"
            "  if (x < 0.5) {\n"
            "    let (site_1_0, _) = next(site_1);\n"
            "    main_(site_1_0)\n"
            "  } else {\n"
            "    print(x)\n"
            "  }\n"
            "}\n"
            "\n"
            "fn main() = main_(key(5))\n");
}

TEST_F(DesugarTest, GeneratedNamesAvoidTheProgramsNames) {
  // `rng_n` and `site_x` take the prefixes; a user `next` or `key` would
  // capture the builtins the output calls, so they are renamed.
  EXPECT_EQ(Desugar("fn next(x: Int) -> Int = x + 1\n"
                    "fn main_() = 0\n"
                    "fn f(rng_n: Int) -> Float uses rng {\n"
                    "  let key = |site_x: Int| next(site_x);\n"
                    "  item(normal([])) + float(key(rng_n))\n"
                    "}\n"
                    "fn main() uses rng { print(f(1)); if true { main() } }\n"),
            "fn next_(x: Int) -> Int = (x + 1)\n"
            "\n"
            "fn main_() = 0\n"
            "\n"
            "fn f(rng_n: Int, rng__0: RandState) -> Float {\n"
            "  let (site__0, _) = next(rng__0);\n"
            "  let key_ = |site_x: Int| next_(site_x);\n"
            "  (item(normal(site__0, [])) + float(key_(rng_n)))\n"
            "}\n"
            "\n"
            "fn main__(rng__0: RandState) {\n"
            "  let (site__0, rng__1) = next(rng__0);\n"
            "  let (site__1, _) = next(rng__1);\n"
            "  print(f(1, site__0));\n"
            "  if true {\n"
            "    let (site__1_0, _) = next(site__1);\n"
            "    main__(site__1_0)\n"
            "  }\n"
            "}\n"
            "\n"
            "fn main() = main__(key(0))\n");
}

TEST_F(DesugarTest, MatchGuardsDrawFromTheEnclosingStream) {
  // Guards are conditions (rng_sites.h): their sites come before the match's
  // own, in the enclosing scope, so a failing guard cannot hand the next arm
  // the states it drew; the bodies draw from the match's site.
  Write("t.alea",
        "fn g(n: Int) -> Float uses rng = match n {\n"
        "  k if item(uniform([])) < 0.5 => item(normal([])) + float(k),\n"
        "  _ => 0.0,\n"
        "}\n");
  // DesugarFile also checks that the output passes the front end.
  EXPECT_EQ(DesugarFile("t.alea"),
            "fn g(n: Int, rng_0: RandState) -> Float {\n"
            "  let (site_0, rng_1) = next(rng_0);\n"
            "  let (site_1, _) = next(rng_1);\n"
            "  match n {\n"
            "    k if (item(uniform(site_0, [])) < 0.5) => {\n"
            "      let (site_1_0, _) = next(site_1);\n"
            "      (item(normal(site_1_0, [])) + float(k))\n"
            "    },\n"
            "    _ => 0.0,\n"
            "  }\n"
            "}\n");
}

TEST_F(DesugarTest, ImportsAreInlinedOnlyWhenTheyAreRewritten) {
  Write("nn.alea", "fn noisy(x: Tensor) -> Tensor uses rng = x + normal(shape(x))\n");
  Write("util.alea", "fn twice(x: Tensor) -> Tensor = x * 2.0\n");
  Write("a.alea",
        "import \"util.alea\"\n"
        "fn main() = print(with key(1) { twice(normal([2])) })\n");
  EXPECT_EQ(DesugarFile("a.alea"),
            "import \"util.alea\"\n"
            "\n"
            "fn main() = print({\n"
            "  let rng_0 = key(1);\n"
            "  let (site_0, _) = next(rng_0);\n"
            "  twice(normal(site_0, [2]))\n"
            "})\n");
  Write("b.alea",
        "import \"util.alea\"\n"
        "import \"nn.alea\"\n"
        "fn main() = print(with key(1) { twice(noisy(ones([2]))) })\n");
  EXPECT_EQ(DesugarFile("b.alea"),
            "fn twice(x: Tensor) -> Tensor = (x * 2.0)\n"
            "\n"
            "fn noisy(x: Tensor, rng_0: RandState) -> Tensor {\n"
            "  let (site_0, _) = next(rng_0);\n"
            "  (x + normal(site_0, shape(x)))\n"
            "}\n"
            "\n"
            "fn main() = print({\n"
            "  let rng_0 = key(1);\n"
            "  let (site_0, _) = next(rng_0);\n"
            "  twice(noisy(ones([2]), site_0))\n"
            "})\n");
}

}  // namespace
}  // namespace alea::lang

#include "lang/ast_print.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "lang/parser.h"

namespace alea::lang {
namespace {

// Parses `text` (which must be error-free) and prints it back.
std::string RoundTrip(const std::string& text) {
  SourceManager sources;
  Diagnostics diags;
  Module module = Parse(sources, sources.Add("t.alea", text), diags);
  EXPECT_EQ(RenderAll(sources, diags), "") << text;
  return PrintModule(module);
}

void ExpectFixedPoint(const std::string& text) {
  std::string once = RoundTrip(text);
  std::string twice = RoundTrip(once);
  EXPECT_EQ(once, twice);
}

TEST(AstPrintTest, PrintsAProgramAsValidSource) {
  EXPECT_EQ(RoundTrip("import \"nn.alea\"\n"
                      "let scale: Float = 2.0\n"
                      "fn relu(x: Tensor) -> Tensor = max(x, 0.0)\n"
                      "fn f(s: RandState, (a, _)) -> (Int, Int) uses rng {\n"
                      "  let (s1, s2) = split(s);\n"
                      "  let g = |x, y: Int| x + y * 2;\n"
                      "  if a < 0 { print(\"neg\\n\") } else if a == 0 { () }\n"
                      "  match a { 0 => 1, -1 => { 2 } n if n > 9 => 3, _ => 4 };\n"
                      "  (with key(0) { rng() }, xs[1:][:2][i])\n"
                      "}\n"),
            "import \"nn.alea\"\n"
            "\n"
            "let scale: Float = 2.0;\n"
            "\n"
            "fn relu(x: Tensor) -> Tensor = max(x, 0.0)\n"
            "\n"
            "fn f(s: RandState, (a, _)) -> (Int, Int) uses rng {\n"
            "  let (s1, s2) = split(s);\n"
            "  let g = |x, y: Int| (x + (y * 2));\n"
            "  if (a < 0) {\n"
            "    print(\"neg\\n\")\n"
            "  } else if (a == 0) {\n"
            "    ()\n"
            "  };\n"
            "  match a {\n"
            "    0 => 1,\n"
            "    -1 => {\n"
            "      2\n"
            "    },\n"
            "    n if (n > 9) => 3,\n"
            "    _ => 4,\n"
            "  };\n"
            "  (with key(0) {\n"
            "    rng()\n"
            "  }, xs[1:][:2][i])\n"
            "}\n");
}

TEST(AstPrintTest, ParsePrintIsAFixedPoint) {
  ExpectFixedPoint(
      "fn dropout(s: RandState, x: Tensor, rate: Float) -> Tensor {\n"
      "  let keep = bernoulli(s, 1.0 - rate, shape(x));\n"
      "  where(keep, x / (1.0 - rate), 0.0)\n"
      "}\n"
      "fn main() {\n"
      "  let y = with key(0) { block(x, w) };\n"
      "  let f = |g: ((Int) -> Int, [Str]) -> ()| || g;\n"
      "  { if c { 1 } else { 2 } (3, 4) }\n"
      "  (|x| x)(1)[0];\n"
      "  match p { (0, true) => a, (_, (x, ())) if x => { b } _ => c }\n"
      "  -(-7) / 2 % 3 @ w != !b;\n"
      "  sum(x, axis: 0);\n"
      "  [1.5, 1e16, 2.5e-3, 0.1, 1e-300, 123456789.0, 5e-324]\n"
      "}\n"
      "fn loop(i, acc) = if i == 0 { acc } else { loop(i - 1, acc + i) }\n");
}

TEST(AstPrintTest, FloatsReReadAsTheSameDouble) {
  EXPECT_EQ(PrintFloat(1.0), "1.0");
  EXPECT_EQ(PrintFloat(0.1), "0.1");
  EXPECT_EQ(PrintFloat(1e16), "1e+16");
  EXPECT_EQ(PrintFloat(2.5e-3), "0.0025");
  EXPECT_EQ(PrintFloat(0.0), "0.0");
  EXPECT_EQ(PrintFloat(-1.5), "(-1.5)");
  EXPECT_EQ(PrintFloat(std::numeric_limits<double>::infinity()), "(1.0 / 0.0)");
  EXPECT_EQ(PrintFloat(-std::numeric_limits<double>::infinity()), "(-1.0 / 0.0)");
  EXPECT_EQ(PrintFloat(std::nan("")), "(0.0 / 0.0)");
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    uint64_t bits = rng();
    double value;
    std::memcpy(&value, &bits, sizeof value);
    value = std::fabs(value);
    if (!std::isfinite(value)) continue;
    SourceManager sources;
    Diagnostics diags;
    ExprPtr e = ParseExpression(sources, sources.Add("f.alea", PrintFloat(value)), diags);
    ASSERT_EQ(e->kind, Expr::Kind::kFloat) << PrintFloat(value);
    EXPECT_EQ(e->float_value, value) << PrintFloat(value);
  }
}

TEST(AstPrintTest, IntsAndStrings) {
  Expr e;
  e.kind = Expr::Kind::kInt;
  e.int_value = 42;
  EXPECT_EQ(PrintExpr(e), "42");
  e.int_value = -5;
  EXPECT_EQ(PrintExpr(e), "(-5)");
  e.int_value = INT64_MIN;
  EXPECT_EQ(PrintExpr(e), "(-9223372036854775807 - 1)");
  EXPECT_EQ(QuoteString("a\"b\\c\nd\te"), R"("a\"b\\c\nd\te")");
  EXPECT_EQ(QuoteString("é"), "\"é\"");
}

TEST(AstPrintTest, PatternsAndTypes) {
  SourceManager sources;
  Diagnostics diags;
  Module m = Parse(
      sources, sources.Add("t.alea", "fn f((a, (_, ())): (Int, (Tensor(u32), ()))) = 0"), diags);
  EXPECT_EQ(RenderAll(sources, diags), "");
  EXPECT_EQ(PrintPattern(*m.fns[0]->params[0].pattern), "(a, (_, ()))");
  EXPECT_EQ(PrintType(*m.fns[0]->params[0].type), "(Int, (Tensor(u32), ()))");
}

}  // namespace
}  // namespace alea::lang

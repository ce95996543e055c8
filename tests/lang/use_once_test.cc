#include "lang/use_once.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "lang/front_end.h"
#include "lang/parser.h"
#include "lang/typecheck.h"

namespace alea::lang {
namespace {

// Parses and type-checks `source` (which must be free of other errors), then
// runs the use-once check; returns its diagnostics as rendered for users.
std::string Rendered(const std::string& source, const std::string& path = "t.alea") {
  SourceManager sources;
  Diagnostics diags;
  Program program;
  FileId file = sources.Add(path, source);
  program.modules.push_back(std::make_unique<Module>(Parse(sources, file, diags)));
  program.visible.push_back({0});
  EXPECT_FALSE(diags.has_errors()) << RenderAll(sources, diags);
  EXPECT_TRUE(TypeCheck(program, sources, diags)) << RenderAll(sources, diags);
  diags.Clear();
  CheckUseOnce(*program.modules[0], diags);
  return RenderAll(sources, diags);
}

// The same, one line per diagnostic: `L:C: message`, then `| L:C: note` for
// each note, so a test can state positions and wording compactly.
std::string Summary(const std::string& source) {
  SourceManager sources;
  Diagnostics diags;
  Program program;
  FileId file = sources.Add("t.alea", source);
  program.modules.push_back(std::make_unique<Module>(Parse(sources, file, diags)));
  program.visible.push_back({0});
  EXPECT_FALSE(diags.has_errors()) << RenderAll(sources, diags);
  EXPECT_TRUE(TypeCheck(program, sources, diags)) << RenderAll(sources, diags);
  diags.Clear();
  CheckUseOnce(*program.modules[0], diags);
  auto at = [&](const Span& span) {
    LineCol lc = sources.file(span.file).Locate(span.begin);
    return absl::StrCat(lc.line, ":", lc.column);
  };
  std::string out;
  for (const Diagnostic& d : diags.all()) {
    absl::StrAppend(&out, d.span ? at(*d.span) : "-", ": ", d.message);
    for (const DiagNote& n : d.notes) {
      absl::StrAppend(&out, " | ", n.span ? at(*n.span) : "-", ": ", n.message);
    }
    out += "\n";
  }
  return out;
}

// ---- The use-once example of docs/language.md and the message layout -------

TEST(UseOnceTest, LanguageMdExampleVerbatim) {
  std::string source =
      "fn main() {\n"
      "  print(model(key(0)))\n"
      "}\n"
      "\n"
      "fn model(s: RandState) -> Tensor {\n"
      "  // two draws from one state\n"
      "  let a = normal(s, [2]);\n"
      "  let b = uniform(s, [2]);\n"
      "  a + b\n"
      "}\n";
  EXPECT_EQ(Rendered(source, "model.alea"),
            "model.alea:8:19: error: RandState `s` is used twice\n"
            "    8 |   let b = uniform(s, [2]);\n"
            "      |                   ^\n"
            "model.alea:7:18: note: first consumed here by `normal`\n"
            "help: split it first: `let (s1, s2) = split(s);`\n");
}

TEST(UseOnceTest, HelpNamesTheVariable) {
  EXPECT_EQ(Rendered("fn f(rs: RandState) = (bits(rs, [1]), bits(rs, [1]))"),
            "t.alea:1:44: error: RandState `rs` is used twice\n"
            "    1 | fn f(rs: RandState) = (bits(rs, [1]), bits(rs, [1]))\n"
            "      |                                            ^~\n"
            "t.alea:1:29: note: first consumed here by `bits`\n"
            "help: split it first: `let (rs1, rs2) = split(rs);`\n");
}

// ---- Correct programs stay silent ------------------------------------------

TEST(UseOnceTest, ThreadingBySplitIsClean) {
  EXPECT_EQ(Summary("fn dropout_layer(s: RandState, x: Tensor, rate: Float) -> Tensor {\n"
                    "  let keep = bernoulli(s, 1.0 - rate, shape(x));\n"
                    "  where(keep, x / (1.0 - rate), 0.0)\n"
                    "}\n"
                    "fn mlp(s, x, w1, w2) {\n"
                    "  let (s1, s2) = split(s);\n"
                    "  let h = dropout_layer(s1, relu(x @ w1), 0.5);\n"
                    "  dropout_layer(s2, h @ w2, 0.1)\n"
                    "}\n"
                    "fn main() {\n"
                    "  let s = key(42);\n"
                    "  let (s, sx) = split(s);\n"
                    "  let x = normal(sx, [4, 8]);\n"
                    "  let (sub, s) = next(s);\n"
                    "  print(bits(sub, [2]));\n"
                    "  print(mlp(s, x, ones([8, 16]), ones([16, 2])))\n"
                    "}\n"),
            "");
}

TEST(UseOnceTest, DroppingAStateIsAllowed) {
  EXPECT_EQ(Summary("fn f(s: RandState) = 1\n"
                    "fn g(s: RandState) { s; s; 2 }\n"
                    "fn h() { let (a, b) = split(key(0)); normal(a, [1]) }\n"),
            "");
}

TEST(UseOnceTest, PrintAndStrOnlyLook) {
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  print(s);\n"
                    "  let t = str(s);\n"
                    "  let x = normal(s, [1]);\n"
                    "  print(s);\n"
                    "  print((s, [s], 1));\n"
                    "  str(s)\n"
                    "}\n"),
            "");
}

TEST(UseOnceTest, AUserFunctionNamedPrintConsumes) {
  EXPECT_EQ(Summary("fn print(s: RandState) = 0\n"
                    "fn f(s: RandState) = print(s) + print(s)\n"),
            "2:39: RandState `s` is used twice | 2:28: first consumed here by a call to `print`\n");
}

TEST(UseOnceTest, ShadowingMakesANewVariable) {
  EXPECT_EQ(Summary("fn f() {\n"
                    "  let s = key(1);\n"
                    "  let a = normal(s, [1]);\n"
                    "  let s = key(2);\n"
                    "  let (s, t) = split(s);\n"
                    "  (uniform(s, [1]), uniform(t, [1]), a)\n"
                    "}\n"),
            "");
  // The old variable is still the consumed one; the new one is fresh.
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let a = normal(s, [1]);\n"
                    "  let s2 = { let s = key(2); normal(s, [1]) };\n"
                    "  normal(s, [1])\n"
                    "}\n"),
            "4:10: RandState `s` is used twice | 2:18: first consumed here by `normal`\n");
}

// ---- What consumes ----------------------------------------------------------

TEST(UseOnceTest, TheSameStateTwiceInOneCall) {
  EXPECT_EQ(Summary("fn pair(a: RandState, b: RandState) = 0\n"
                    "fn f(s: RandState) = pair(s, s)\n"),
            "2:30: RandState `s` is used twice | 2:27: first consumed here by a call to `pair`\n");
}

TEST(UseOnceTest, EvaluationIsLeftToRight) {
  EXPECT_EQ(Summary("fn f(s: RandState) = (normal(s, [1]), uniform(s, [1]))\n"),
            "1:47: RandState `s` is used twice | 1:30: first consumed here by `normal`\n");
  EXPECT_EQ(Summary("fn f(s: RandState) = normal(s, [1]) + uniform(s, [1])\n"),
            "1:47: RandState `s` is used twice | 1:29: first consumed here by `normal`\n");
}

TEST(UseOnceTest, OneErrorPerVariable) {
  EXPECT_EQ(Summary("fn three(a: RandState, b: RandState, c: RandState) = 0\n"
                    "fn f(s: RandState, t: RandState) = three(s, s, s) + three(t, t, key(0))\n"),
            "2:45: RandState `s` is used twice | 2:42: first consumed here by a call to `three`\n"
            "2:62: RandState `t` is used twice | 2:59: first consumed here by a call to `three`\n");
}

TEST(UseOnceTest, ClosureCallsConsume) {
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let g = |t: RandState| normal(t, [1]);\n"
                    "  let a = g(s);\n"
                    "  ((|t: RandState| t))(s)\n"
                    "}\n"),
            "4:24: RandState `s` is used twice | 3:13: first consumed here by a call to `g`\n");
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let a = ((|t: RandState| normal(t, [1])))(s);\n"
                    "  normal(s, [1])\n"
                    "}\n"),
            "3:10: RandState `s` is used twice | 2:45: first consumed here by a call\n");
}

TEST(UseOnceTest, LetConsumes) {
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let t = s;\n"
                    "  (normal(t, [1]), normal(s, [1]))\n"
                    "}\n"),
            "3:27: RandState `s` is used twice | 2:11: first consumed here by `let`\n");
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let _ = s;\n"
                    "  normal(s, [1])\n"
                    "}\n"),
            "3:10: RandState `s` is used twice | 2:11: first consumed here by `let`\n");
}

TEST(UseOnceTest, TupleAndArrayLiteralsConsume) {
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let p = (s, 1);\n"
                    "  normal(s, [1])\n"
                    "}\n"),
            "3:10: RandState `s` is used twice | 2:12: first consumed here by the tuple\n");
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let xs = [s];\n"
                    "  normal(s, [1])\n"
                    "}\n"),
            "3:10: RandState `s` is used twice | 2:13: first consumed here by the array\n");
}

TEST(UseOnceTest, ReturningConsumes) {
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let a = normal(s, [1]);\n"
                    "  s\n"
                    "}\n"),
            "3:3: RandState `s` is used twice | 2:18: first consumed here by `normal`\n");
  // A block's value flows to whatever consumes the block.
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let t = { let u = 1; s };\n"
                    "  normal(s, [1])\n"
                    "}\n"),
            "3:10: RandState `s` is used twice | 2:24: first consumed here by `let`\n");
}

TEST(UseOnceTest, WithConsumesItsState) {
  EXPECT_EQ(Summary("fn g() -> Tensor uses rng = normal([1])\n"
                    "fn f(s: RandState) {\n"
                    "  let a = with s { g() };\n"
                    "  normal(s, [1])\n"
                    "}\n"),
            "4:10: RandState `s` is used twice | 3:16: first consumed here by `with`\n");
  EXPECT_EQ(Summary("fn f(s: RandState) = with s { normal(s, [1]) }\n"),
            "1:38: RandState `s` is used twice | 1:27: first consumed here by `with`\n");
}

TEST(UseOnceTest, TheAmbientStateIsNotTracked) {
  EXPECT_EQ(Summary("fn f() -> Tensor uses rng {\n"
                    "  let a = normal([1]);\n"
                    "  let b = uniform([1]);\n"
                    "  a + b + g()\n"
                    "}\n"
                    "fn g() -> Tensor uses rng = normal([1])\n"
                    "fn h() = with key(0) { f() + f() }\n"),
            "");
  // rng() hands out an ordinary state value, tracked like any other.
  EXPECT_EQ(Summary("fn f() -> Tensor uses rng {\n"
                    "  let t = rng();\n"
                    "  normal(t, [1]) + normal(t, [1])\n"
                    "}\n"),
            "3:27: RandState `t` is used twice | 3:10: first consumed here by `normal`\n");
}

// ---- Tuples that hold states ------------------------------------------------

TEST(UseOnceTest, ATupleHoldingAStateIsUseOnce) {
  EXPECT_EQ(Summary("fn g(p: (RandState, Int)) = 0\n"
                    "fn f(p: (RandState, Int)) = g(p) + g(p)\n"),
            "2:38: `p` holds a RandState (its type is `(RandState, Int)`) and is used twice"
            " | 2:31: first consumed here by a call to `g`\n");
  EXPECT_EQ(Rendered("fn f(s: RandState) {\n"
                     "  let p = split(s);\n"
                     "  let (a, b) = p;\n"
                     "  let (c, d) = p;\n"
                     "  normal(a, [1])\n"
                     "}\n"),
            "t.alea:4:16: error: `p` holds a RandState (its type is `(RandState, RandState)`) and "
            "is used twice\n"
            "    4 |   let (c, d) = p;\n"
            "      |                ^\n"
            "t.alea:3:16: note: first consumed here by `let`\n"
            "help: take it apart once, as in `let (...) = p;`, then use each state in it once\n");
}

TEST(UseOnceTest, DestructuredPartsAreNewVariables) {
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let p = split(s);\n"
                    "  let (a, b) = p;\n"
                    "  (normal(a, [1]), normal(b, [1]))\n"
                    "}\n"),
            "");
  EXPECT_EQ(Summary("fn f(p: (RandState, (Int, RandState))) {\n"
                    "  let (a, (n, b)) = p;\n"
                    "  (normal(b, [n]), normal(b, [n]), a)\n"
                    "}\n"),
            "3:27: RandState `b` is used twice | 3:11: first consumed here by `normal`\n");
}

TEST(UseOnceTest, TuplesWithoutStatesAreNotTracked) {
  EXPECT_EQ(Summary("fn g(p: (Int, Float)) = 0\n"
                    "fn f(p: (Int, Float)) = g(p) + g(p)\n"
                    "fn h(x: Tensor) = (x, x)\n"),
            "");
}

// ---- Branches -----------------------------------------------------------------

TEST(UseOnceTest, ConsumingInOneArmOnlyIsFine) {
  EXPECT_EQ(Summary("fn f(s: RandState, c: Bool) =\n"
                    "  if c { normal(s, [1]) } else { zeros([1]) }\n"),
            "");
}

TEST(UseOnceTest, ConsumingInEachArmOnceIsFine) {
  EXPECT_EQ(Summary("fn f(s: RandState, c: Bool) =\n"
                    "  if c { normal(s, [1]) } else if !c { uniform(s, [1]) } else { bits(s, [1]); "
                    "zeros([1]) }\n"
                    "fn g(s: RandState, n: Int) = match n {\n"
                    "  0 => normal(s, [1]),\n"
                    "  1 => uniform(s, [1]),\n"
                    "  _ => zeros([1]),\n"
                    "}\n"),
            "");
}

TEST(UseOnceTest, UseAfterAnArmThatConsumedIsAnError) {
  EXPECT_EQ(Summary("fn f(s: RandState, c: Bool) {\n"
                    "  let x = if c { zeros([1]) } else { normal(s, [1]) };\n"
                    "  x + uniform(s, [1])\n"
                    "}\n"),
            "3:15: RandState `s` is used twice | 2:45: first consumed here by `normal`\n");
  // An `if` without `else` counts too.
  EXPECT_EQ(Summary("fn f(s: RandState, c: Bool) {\n"
                    "  if c { print(normal(s, [1])) }\n"
                    "  uniform(s, [1])\n"
                    "}\n"),
            "3:11: RandState `s` is used twice | 2:23: first consumed here by `normal`\n");
  EXPECT_EQ(Summary("fn f(s: RandState, n: Int) {\n"
                    "  let x = match n { 0 => zeros([1]), _ => { bits(s, [1]); zeros([1]) } };\n"
                    "  x + uniform(s, [1])\n"
                    "}\n"),
            "3:15: RandState `s` is used twice | 2:50: first consumed here by `bits`\n");
  // Using it inside an arm after the branch condition consumed it.
  EXPECT_EQ(Summary("fn f(s: RandState) =\n"
                    "  if item(bernoulli(s, 0.5, [])) { normal(s, [1]) } else { zeros([1]) }\n"),
            "2:43: RandState `s` is used twice | 2:21: first consumed here by `bernoulli`\n");
}

TEST(UseOnceTest, TheNotePointsAtTheFirstArmThatConsumed) {
  EXPECT_EQ(Summary("fn f(s: RandState, n: Int) {\n"
                    "  let x = match n {\n"
                    "    0 => zeros([1]),\n"
                    "    1 => normal(s, [1]),\n"
                    "    _ => uniform(s, [1]),\n"
                    "  };\n"
                    "  x + exponential(s, [1])\n"
                    "}\n"),
            "7:19: RandState `s` is used twice | 4:17: first consumed here by `normal`\n");
}

TEST(UseOnceTest, AfterArmsThatBothConsumedTheNoteNamesTheFirst) {
  EXPECT_EQ(Summary("fn f(s: RandState, c: Bool) {\n"
                    "  let x = if c { normal(s, [1]) } else { uniform(s, [1]) };\n"
                    "  x + exponential(s, [1])\n"
                    "}\n"),
            "3:19: RandState `s` is used twice | 2:25: first consumed here by `normal`\n");
  // A consumption before a branch is not undone by it.
  EXPECT_EQ(Summary("fn f(s: RandState, c: Bool) {\n"
                    "  let x = normal(s, [1]);\n"
                    "  let y = if c { zeros([1]) } else { zeros([1]) };\n"
                    "  x + y + uniform(s, [1])\n"
                    "}\n"),
            "4:19: RandState `s` is used twice | 2:18: first consumed here by `normal`\n");
}

TEST(UseOnceTest, ShortCircuitOperandsMayConsume) {
  EXPECT_EQ(Summary("fn f(s: RandState, c: Bool) {\n"
                    "  let b = c && item(bernoulli(s, 0.5, []));\n"
                    "  normal(s, [1])\n"
                    "}\n"),
            "3:10: RandState `s` is used twice | 2:31: first consumed here by `bernoulli`\n");
}

// ---- match ----------------------------------------------------------------------

TEST(UseOnceTest, MatchConsumesTheScrutineeAndBindsNewVariables) {
  EXPECT_EQ(Summary("fn f(p: (RandState, Int)) = match p {\n"
                    "  (s, 0) => normal(s, [1]),\n"
                    "  (s, n) => uniform(s, [n]),\n"
                    "}\n"),
            "");
  EXPECT_EQ(Summary("fn f(p: (RandState, Int)) {\n"
                    "  let x = match p { (s, n) => normal(s, [n]) };\n"
                    "  let (t, m) = p;\n"
                    "  x\n"
                    "}\n"),
            "3:16: `p` holds a RandState (its type is `(RandState, Int)`) and is used twice"
            " | 2:17: first consumed here by `match`\n");
  EXPECT_EQ(Summary("fn f(p: (RandState, Int)) = match p {\n"
                    "  (s, n) => normal(s, [n]) + normal(s, [n]),\n"
                    "}\n"),
            "2:37: RandState `s` is used twice | 2:20: first consumed here by `normal`\n");
}

TEST(UseOnceTest, MatchGuardsRunInOrder) {
  // A failed guard still ran: the next arm's guard may not draw again.
  EXPECT_EQ(Summary("fn f(s: RandState, n: Int) = match n {\n"
                    "  0 if item(bernoulli(s, 0.5, [])) => 1,\n"
                    "  _ if item(bernoulli(s, 0.5, [])) => 2,\n"
                    "  _ => 3,\n"
                    "}\n"),
            "3:23: RandState `s` is used twice | 2:23: first consumed here by `bernoulli`\n");
  // A guard and its own arm's body are in sequence.
  EXPECT_EQ(Summary("fn f(s: RandState, n: Int) = match n {\n"
                    "  0 if item(bernoulli(s, 0.5, [])) => normal(s, [1]),\n"
                    "  _ => zeros([1]),\n"
                    "}\n"),
            "2:46: RandState `s` is used twice | 2:23: first consumed here by `bernoulli`\n");
  // An arm without a guard is not reached after another arm's body.
  EXPECT_EQ(Summary("fn f(s: RandState, n: Int) = match n {\n"
                    "  0 if n > 0 => normal(s, [1]),\n"
                    "  _ => uniform(s, [1]),\n"
                    "}\n"),
            "");
}

// ---- Closures -----------------------------------------------------------------

TEST(UseOnceTest, AClosureCannotCaptureAState) {
  EXPECT_EQ(Rendered("fn f(s: RandState) = map(range(3), |i| normal(s, [i]))\n"),
            "t.alea:1:47: error: a closure cannot capture RandState `s`\n"
            "    1 | fn f(s: RandState) = map(range(3), |i| normal(s, [i]))\n"
            "      |                                               ^\n"
            "t.alea:1:6: note: `s` is bound here, outside the closure\n"
            "help: a closure may run any number of times: pass it a state as a parameter, one "
            "per call, as in `map(split_n(s, n), |s| ...)` (JAX's `vmap` over `fold_in(key, "
            "i)`)\n");
  // Even to print it, and once per closure.
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let g = || { print(s); print(s) };\n"
                    "  let p = (s, 1);\n"
                    "  let h = || p;\n"
                    "  0\n"
                    "}\n"),
            "2:22: a closure cannot capture RandState `s` | 1:6: `s` is bound here, outside the "
            "closure\n"
            "4:14: a closure cannot capture `p`, which holds a RandState (its type is "
            "`(RandState, Int)`) | 3:7: `p` is bound here, outside the closure\n");
}

TEST(UseOnceTest, ALambdaTracksItsOwnParameters) {
  EXPECT_EQ(Summary("fn f(s: RandState) = map(split_n(s, 3), |t| normal(t, [1]))\n"), "");
  EXPECT_EQ(
      Summary("fn f(s: RandState) = map(split_n(s, 3), |t| (normal(t, [1]), bits(t, [1])))\n"),
      "1:67: RandState `t` is used twice | 1:53: first consumed here by `normal`\n");
  // An inner lambda may not capture an outer lambda's parameter either.
  EXPECT_EQ(Summary("fn f() = |t: RandState| || normal(t, [1])\n"),
            "1:35: a closure cannot capture RandState `t` | 1:11: `t` is bound here, outside the "
            "closure\n");
}

// ---- Arrays and polymorphism: left to the VM -------------------------------------

TEST(UseOnceTest, ArraysOfStatesAreNotTracked) {
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let xs = split_n(s, 2);\n"
                    "  let a = normal(xs[0], [1]);\n"
                    "  let b = normal(xs[0], [1]);\n"
                    "  (a + b, len(xs), map(xs, |t| bits(t, [1])))\n"
                    "}\n"),
            "");
  // An element bound to a name is an ordinary variable.
  EXPECT_EQ(Summary("fn f(s: RandState) {\n"
                    "  let xs = split_n(s, 2);\n"
                    "  let t = xs[1];\n"
                    "  normal(t, [1]) + normal(t, [1])\n"
                    "}\n"),
            "4:27: RandState `t` is used twice | 4:10: first consumed here by `normal`\n");
}

TEST(UseOnceTest, PolymorphicCodeIsLeftToTheVm) {
  // `x` has a type variable in `twice`: the duplicate is caught at run time.
  EXPECT_EQ(Summary("fn twice(x) = (x, x)\n"
                    "fn f(s: RandState) = twice(s)\n"),
            "");
}

// ---- Where it runs ------------------------------------------------------------

TEST(UseOnceTest, TopLevelLetsAreChecked) {
  EXPECT_EQ(Summary("let c = {\n"
                    "  let s = key(0);\n"
                    "  item(sum(normal(s, [1]))) + item(sum(normal(s, [1])))\n"
                    "}\n"),
            "3:47: RandState `s` is used twice | 3:19: first consumed here by `normal`\n");
}

TEST(UseOnceTest, EveryFunctionIsChecked) {
  EXPECT_EQ(Summary("fn a(s: RandState) = (normal(s, [1]), normal(s, [1]))\n"
                    "fn b(s: RandState) = (normal(s, [1]), normal(s, [1]))\n"),
            "1:46: RandState `s` is used twice | 1:30: first consumed here by `normal`\n"
            "2:46: RandState `s` is used twice | 2:30: first consumed here by `normal`\n");
}

TEST(UseOnceTest, DeepTreesAreFine) {
  // A long left-deep operator chain (500 links: the type checker, which runs
  // first and recurses per link, overflows the sanitizer build's 8 MB stack
  // near 1,000; release builds take the parser's limit, 2,048), and nested
  // blocks and branches, with the reuse at the bottom.
  std::string chain = "fn f(s: RandState, x: Float) = ";
  for (int i = 0; i < 500; ++i) chain += "x + ";
  chain += "item(sum(normal(s, []))) + item(sum(normal(s, [])))\n";
  EXPECT_NE(Summary(chain).find("RandState `s` is used twice"), std::string::npos);
  std::string nested = "fn f(s: RandState, c: Bool) = ";
  for (int i = 0; i < 40; ++i) nested += "if c { { ";
  nested += "(normal(s, [1]), normal(s, [1]))";
  for (int i = 0; i < 40; ++i) nested += " } } else { (zeros([1]), zeros([1])) }";
  nested += "\n";
  EXPECT_NE(Summary(nested).find("RandState `s` is used twice"), std::string::npos);
}

// The front end runs the check after types, and only on a well-typed program.
class UseOnceFrontEndTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("alea_use_once_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Check(const std::string& text, bool* ok) {
    std::ofstream(dir_ / "m.alea") << text;
    SourceManager sources;
    Diagnostics diags;
    *ok = CheckProgram((dir_ / "m.alea").string(), sources, diags).has_value();
    std::string out = RenderAll(sources, diags);
    std::string prefix = dir_.string() + "/";
    for (size_t at; (at = out.find(prefix)) != std::string::npos;) out.erase(at, prefix.size());
    return out;
  }

  std::filesystem::path dir_;
};

TEST_F(UseOnceFrontEndTest, CheckProgramReportsReuse) {
  bool ok = true;
  std::string out =
      Check("fn main() {\n  let s = key(0);\n  print((normal(s, [1]), normal(s, [1])))\n}\n", &ok);
  EXPECT_FALSE(ok);
  EXPECT_EQ(out,
            "m.alea:3:33: error: RandState `s` is used twice\n"
            "    3 |   print((normal(s, [1]), normal(s, [1])))\n"
            "      |                                 ^\n"
            "m.alea:3:17: note: first consumed here by `normal`\n"
            "help: split it first: `let (s1, s2) = split(s);`\n");
}

TEST_F(UseOnceFrontEndTest, NotRunAfterATypeError) {
  bool ok = true;
  std::string out =
      Check("fn main() {\n  let s = key(0);\n  print((normal(s, [1]), normal(s, 1)))\n}\n", &ok);
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("no `normal` for `RandState` and `Int`"), std::string::npos) << out;
  EXPECT_EQ(out.find("used twice"), std::string::npos) << out;
}

TEST_F(UseOnceFrontEndTest, CorrectProgramPasses) {
  bool ok = false;
  EXPECT_EQ(Check("fn main() {\n  let (a, b) = split(key(0));\n  print((normal(a, [1]), "
                  "normal(b, [1])))\n}\n",
                  &ok),
            "");
  EXPECT_TRUE(ok);
}

}  // namespace
}  // namespace alea::lang

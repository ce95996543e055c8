#include "lang/parser.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

#include "lang/ast_print.h"

namespace alea::lang {
namespace {

struct Parsed {
  SourceManager sources;
  Diagnostics diags;
  Module module;
  std::string errors;  // rendered
};

std::unique_ptr<Parsed> ParseText(const std::string& text) {
  auto out = std::make_unique<Parsed>();
  FileId file = out->sources.Add("t.alea", text);
  out->module = Parse(out->sources, file, out->diags);
  out->errors = RenderAll(out->sources, out->diags);
  return out;
}

// Parses one expression and prints it back (fully parenthesized).
std::string Reprint(const std::string& text) {
  SourceManager sources;
  Diagnostics diags;
  ExprPtr e = ParseExpression(sources, sources.Add("e.alea", text), diags);
  EXPECT_EQ(RenderAll(sources, diags), "") << text;
  return PrintExpr(*e);
}

// The errors for one expression.
std::string ExprErrors(const std::string& text) {
  SourceManager sources;
  Diagnostics diags;
  ParseExpression(sources, sources.Add("e.alea", text), diags);
  return RenderAll(sources, diags);
}

// ---- The programs of docs/language.md ---------------------------------------

constexpr const char* kSpecProgram = R"(// line comment
import "nn.alea"                         // other files, relative to this file

fn relu(x: Tensor) -> Tensor = max(x, 0.0)

fn dropout(s: RandState, x: Tensor, rate: Float) -> Tensor {
  let keep = bernoulli(s, 1.0 - rate, shape(x));
  where(keep, x / (1.0 - rate), 0.0)
}

fn mlp(s, x, w1, w2) {                   // annotations are optional (inference)
  let (s1, s2) = split(s);
  let h = dropout(s1, relu(x @ w1), 0.5);
  dropout(s2, h @ w2, 0.1)
}

fn main() {
  let s = key(42);
  let (s, sx) = split(s);                // shadowing is allowed
  let x = normal(sx, [4, 8]);
  print(mlp(s, x, ones([8, 16]), ones([16, 2])))
}
)";

constexpr const char* kSpecRngProgram = R"(
fn block(x: Tensor, w: Tensor) -> Tensor uses rng {
  let h = dropout(relu(x @ w), 0.5);     // draws from the ambient state
  let noise = normal(shape(h)) * 0.01;   // another draw
  h + noise
}

fn main() {
  let y = with key(0) { block(x, w) };   // runs block with that state, consumes it
  let s = with key(1) { rng() };         // rng() hands out a fresh explicit state
}
)";

constexpr const char* kSpecSnippets = R"(
fn f(x) = { e1; e2; let x = e3; e4 }
fn add() = |x, y| x + y
fn thunk() = || e
fn cond(c) = if c { a } else { b }
fn classify(e) = match e { 0 => a, n if n < 0 => b, (x, y) => c, _ => d }
fn loop(i, acc) = if i == 0 { acc } else { loop(i - 1, acc + i) }
fn calls(f, g, t) = (compose(f, g)(10), shape(t)[0])
fn t() = tensor([[1.0, 2.0], [3.0, 4.0]])
fn named(x, s) = (sum(x, axis: 0), uniform(s, [4], 2.0, 4.0), uniform(s, [4], lo: 2.0, hi: 4.0))
fn mx(x) = (max(x), max(x, axis: 1), max(x, 0.0))
fn lit() = (1.5, 1e16, 2.5e-3, true, false, (), "a\n\t\"\\")
fn slices(x) = (x[1:3], x[i], cast(x, i32))
fn main(args: [Str]) uses rng { print(args) }
)";

TEST(ParserTest, SpecExampleProgram) {
  auto p = ParseText(kSpecProgram);
  EXPECT_EQ(p->errors, "");
  const Module& m = p->module;
  ASSERT_EQ(m.imports.size(), 1u);
  EXPECT_EQ(m.imports[0].path, "nn.alea");
  ASSERT_EQ(m.fns.size(), 4u);
  EXPECT_EQ(m.fns[0]->name, "relu");
  ASSERT_EQ(m.fns[0]->params.size(), 1u);
  EXPECT_EQ(m.fns[0]->params[0].pattern->name, "x");
  EXPECT_EQ(m.fns[0]->params[0].type->name, "Tensor");
  EXPECT_EQ(m.fns[0]->result->name, "Tensor");
  EXPECT_EQ(m.fns[0]->body->kind, Expr::Kind::kCall);
  const Expr& body = *m.fns[1]->body;
  ASSERT_EQ(body.kind, Expr::Kind::kBlock);
  ASSERT_EQ(body.stmts.size(), 1u);
  EXPECT_EQ(body.stmts[0].kind, Stmt::Kind::kLet);
  ASSERT_NE(body.result, nullptr);
  EXPECT_EQ(PrintExpr(*body.result), "where(keep, (x / (1.0 - rate)), 0.0)");
  EXPECT_EQ(m.fns[2]->params.size(), 4u);
  EXPECT_EQ(m.fns[2]->params[0].type, nullptr);
  EXPECT_EQ(m.fns[2]->body->stmts[0].pattern->kind, Pattern::Kind::kTuple);
}

TEST(ParserTest, SpecRngProgram) {
  auto p = ParseText(kSpecRngProgram);
  EXPECT_EQ(p->errors, "");
  ASSERT_EQ(p->module.fns.size(), 2u);
  const FnDecl& block = *p->module.fns[0];
  EXPECT_TRUE(block.uses_rng);
  EXPECT_EQ(p->sources.file(0).text().substr(block.uses_rng_span.begin,
                                             block.uses_rng_span.end - block.uses_rng_span.begin),
            "uses rng");
  const Expr& main_body = *p->module.fns[1]->body;
  ASSERT_EQ(main_body.stmts.size(), 2u);
  EXPECT_EQ(main_body.result, nullptr);  // ends with `;`
  const Expr& with = *main_body.stmts[0].expr;
  ASSERT_EQ(with.kind, Expr::Kind::kWith);
  EXPECT_EQ(PrintExpr(*with.lhs), "key(0)");
  EXPECT_EQ(with.body->kind, Expr::Kind::kBlock);
  const Expr& rng = *main_body.stmts[1].expr->body->result;
  EXPECT_EQ(rng.kind, Expr::Kind::kCall);
  EXPECT_EQ(rng.lhs->name, "rng");
}

TEST(ParserTest, SpecSnippets) {
  auto p = ParseText(kSpecSnippets);
  EXPECT_EQ(p->errors, "");
  EXPECT_EQ(p->module.fns.size(), 13u);
  EXPECT_TRUE(p->module.fns.back()->uses_rng);
  EXPECT_EQ(PrintType(*p->module.fns.back()->params[0].type), "[Str]");
}

// ---- Precedence and associativity ------------------------------------------

TEST(ParserTest, Precedence) {
  EXPECT_EQ(Reprint("-7 / 2"), "((-7) / 2)");
  EXPECT_EQ(Reprint("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(Reprint("x @ w + b"), "((x @ w) + b)");
  EXPECT_EQ(Reprint("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(Reprint("a / b % c * d @ e"), "((((a / b) % c) * d) @ e)");
  EXPECT_EQ(Reprint("!a && b || c && d"), "(((!a) && b) || (c && d))");
  EXPECT_EQ(Reprint("a + 1 <= b * 2 && c != d"), "(((a + 1) <= (b * 2)) && (c != d))");
  EXPECT_EQ(Reprint("- -x"), "(-(-x))");
  EXPECT_EQ(Reprint("-f(x)[0]"), "(-f(x)[0])");
  EXPECT_EQ(Reprint("!a == b"), "((!a) == b)");
  EXPECT_EQ(Reprint("a || b || c"), "((a || b) || c)");
}

TEST(ParserTest, PostfixAppliesToAnyExpression) {
  EXPECT_EQ(Reprint("f(x)(y)[0]"), "f(x)(y)[0]");
  EXPECT_EQ(Reprint("compose(f, g)(10)"), "compose(f, g)(10)");
  EXPECT_EQ(Reprint("shape(t)[0]"), "shape(t)[0]");
  EXPECT_EQ(Reprint("(x)(1)"), "x(1)");
  EXPECT_EQ(Reprint("(|x| x)(1)"), "(|x| x)(1)");
  EXPECT_EQ(Reprint("[1, 2][0]"), "[1, 2][0]");
  EXPECT_EQ(Reprint("(a, b)(c)"), "(a, b)(c)");
  EXPECT_EQ(Reprint("{ f }(1)"), "({\n  f\n})(1)");
  EXPECT_EQ(Reprint("if c { f } else { g }(1)"), "(if c {\n  f\n} else {\n  g\n})(1)");
}

TEST(ParserTest, IndexAndSlices) {
  EXPECT_EQ(Reprint("x[1:3]"), "x[1:3]");
  EXPECT_EQ(Reprint("x[:b]"), "x[:b]");
  EXPECT_EQ(Reprint("x[a:]"), "x[a:]");
  EXPECT_EQ(Reprint("x[:]"), "x[:]");
  EXPECT_EQ(Reprint("x[i + 1][j]"), "x[(i + 1)][j]");
  SourceManager sources;
  Diagnostics diags;
  ExprPtr e = ParseExpression(sources, sources.Add("e.alea", "x[:3]"), diags);
  ASSERT_EQ(e->kind, Expr::Kind::kSlice);
  EXPECT_EQ(e->lhs->name, "x");
  EXPECT_EQ(e->rhs, nullptr);
  EXPECT_EQ(e->third->int_value, 3);
  e = ParseExpression(sources, sources.Add("e.alea", "x[2]"), diags);
  ASSERT_EQ(e->kind, Expr::Kind::kIndex);
  EXPECT_EQ(e->rhs->int_value, 2);
  EXPECT_EQ(e->third, nullptr);
}

// ---- Literals, tuples, arrays, lambdas --------------------------------------

TEST(ParserTest, LiteralsTuplesAndArrays) {
  EXPECT_EQ(Reprint("()"), "()");
  EXPECT_EQ(Reprint("(1)"), "1");
  EXPECT_EQ(Reprint("((1))"), "1");
  EXPECT_EQ(Reprint("(1, 2.5, \"s\", true, false)"), "(1, 2.5, \"s\", true, false)");
  EXPECT_EQ(Reprint("((1, 2), (3, (4, 5)))"), "((1, 2), (3, (4, 5)))");
  EXPECT_EQ(Reprint("[]"), "[]");
  EXPECT_EQ(Reprint("[[1, 2], [3]]"), "[[1, 2], [3]]");
  EXPECT_EQ(Reprint("9223372036854775807"), "9223372036854775807");
}

TEST(ParserTest, TrailingCommasEverywhere) {
  EXPECT_EQ(Reprint("f(a, b,)"), "f(a, b)");
  EXPECT_EQ(Reprint("(a, b,)"), "(a, b)");
  EXPECT_EQ(Reprint("[a, b,]"), "[a, b]");
  EXPECT_EQ(Reprint("|a, b,| a"), "|a, b| a");
  EXPECT_EQ(Reprint("match x { 0 => a, _ => b, }"), "match x {\n  0 => a,\n  _ => b,\n}");
  auto p =
      ParseText("fn f(a: (Int, Bool,), b: Tensor(f32,), c: (Int,) -> Int, (d, e,),) -> Int = a\n");
  EXPECT_EQ(p->errors, "");
  EXPECT_EQ(PrintFn(*p->module.fns[0]),
            "fn f(a: (Int, Bool), b: Tensor(f32), c: (Int) -> Int, (d, e)) -> Int = a");
}

TEST(ParserTest, Lambdas) {
  EXPECT_EQ(Reprint("|x, y: Int| x + y"), "|x, y: Int| (x + y)");
  EXPECT_EQ(Reprint("|| 1"), "|| 1");
  EXPECT_EQ(Reprint("map(xs, |x| x * 2)"), "map(xs, |x| (x * 2))");
  EXPECT_EQ(Reprint("|(a, b), _| a"), "|(a, b), _| a");
  EXPECT_EQ(Reprint("|x| |y| x || y"), "|x| |y| (x || y)");
  EXPECT_EQ(Reprint("a || || b"), "(a || (|| b))");
  EXPECT_EQ(Reprint("|f: (Int) -> Int| f(1)"), "|f: (Int) -> Int| f(1)");
  SourceManager sources;
  Diagnostics diags;
  ExprPtr e = ParseExpression(sources, sources.Add("e.alea", "|x, y: [Int]| x"), diags);
  ASSERT_EQ(e->kind, Expr::Kind::kLambda);
  ASSERT_EQ(e->params.size(), 2u);
  EXPECT_EQ(e->params[0].type, nullptr);
  EXPECT_EQ(e->params[1].type->kind, TypeAnn::Kind::kArray);
}

TEST(ParserTest, NamedArguments) {
  SourceManager sources;
  Diagnostics diags;
  ExprPtr e =
      ParseExpression(sources, sources.Add("e.alea", "uniform(s, [4], lo: 2.0, hi: 4.0)"), diags);
  EXPECT_EQ(RenderAll(sources, diags), "");
  ASSERT_EQ(e->args.size(), 4u);
  EXPECT_EQ(e->args[0].name, "");
  EXPECT_EQ(e->args[2].name, "lo");
  EXPECT_EQ(e->args[3].name, "hi");
  EXPECT_EQ(e->args[3].name_span.begin, 25u);
  EXPECT_EQ(e->args[3].value->float_value, 4.0);
}

// ---- Blocks, if, match, with -------------------------------------------------

TEST(ParserTest, BlocksAndStatements) {
  EXPECT_EQ(Reprint("{}"), "{}");
  EXPECT_EQ(Reprint("{ 1 }"), "{\n  1\n}");
  EXPECT_EQ(Reprint("{ 1; }"), "{\n  1;\n}");
  EXPECT_EQ(Reprint("{ ;; 1 }"), "{\n  1\n}");
  EXPECT_EQ(Reprint("{ let (a, _): (Int, Int) = p; a }"),
            "{\n  let (a, _): (Int, Int) = p;\n  a\n}");
  // Block-like statements need no `;`, as in Rust.
  EXPECT_EQ(Reprint("{ if c { print(1) } else { print(2) } print(3) }"),
            "{\n  if c {\n    print(1)\n  } else {\n    print(2)\n  };\n  print(3)\n}");
  EXPECT_EQ(Reprint("{ { a } (b, c) }"), "{\n  {\n    a\n  };\n  (b, c)\n}");
  EXPECT_EQ(Reprint("{ match x { _ => 1 } -1 }"), "{\n  match x {\n    _ => 1,\n  };\n  (-1)\n}");
  // ... but an operator that cannot start an expression continues it.
  EXPECT_EQ(Reprint("{ if c { 1 } else { 2 } + 3 }"),
            "{\n  ((if c {\n    1\n  } else {\n    2\n  }) + 3)\n}");
  SourceManager sources;
  Diagnostics diags;
  ExprPtr e = ParseExpression(sources, sources.Add("e.alea", "{ a; b }"), diags);
  ASSERT_EQ(e->stmts.size(), 1u);
  EXPECT_EQ(e->result->name, "b");
  e = ParseExpression(sources, sources.Add("e.alea", "{ a; b; }"), diags);
  EXPECT_EQ(e->stmts.size(), 2u);
  EXPECT_EQ(e->result, nullptr);
  e = ParseExpression(sources, sources.Add("e.alea", "{ if a { b } }"), diags);
  EXPECT_EQ(e->stmts.size(), 0u);
  ASSERT_NE(e->result, nullptr);
  EXPECT_EQ(e->result->kind, Expr::Kind::kIf);
  EXPECT_EQ(RenderAll(sources, diags), "");
}

TEST(ParserTest, IfElseChains) {
  EXPECT_EQ(Reprint("if a { 1 } else if b { 2 } else { 3 }"),
            "if a {\n  1\n} else if b {\n  2\n} else {\n  3\n}");
  EXPECT_EQ(Reprint("if a { 1 }"), "if a {\n  1\n}");
  EXPECT_EQ(Reprint("if f(x) == [1] { 1 }"), "if (f(x) == [1]) {\n  1\n}");
  EXPECT_EQ(Reprint("if { a } { 1 }"), "if {\n  a\n} {\n  1\n}");
  SourceManager sources;
  Diagnostics diags;
  ExprPtr e = ParseExpression(sources, sources.Add("e.alea", "if a { 1 } else if b { 2 }"), diags);
  ASSERT_EQ(e->kind, Expr::Kind::kIf);
  EXPECT_EQ(e->rhs->name, "a");
  ASSERT_EQ(e->else_branch->kind, Expr::Kind::kIf);
  EXPECT_EQ(e->else_branch->else_branch, nullptr);
}

TEST(ParserTest, MatchArms) {
  SourceManager sources;
  Diagnostics diags;
  ExprPtr e = ParseExpression(sources,
                              sources.Add("e.alea",
                                          "match f(x) {\n"
                                          "  0 => a,\n"
                                          "  -3 => b,\n"
                                          "  n if n < 0 => { c }\n"
                                          "  (true, _) => d,\n"
                                          "  (false, (p, ())) => if p { e } else { f }\n"
                                          "  _ => g\n"
                                          "}"),
                              diags);
  EXPECT_EQ(RenderAll(sources, diags), "");
  ASSERT_EQ(e->kind, Expr::Kind::kMatch);
  EXPECT_EQ(e->lhs->kind, Expr::Kind::kCall);
  ASSERT_EQ(e->arms.size(), 6u);
  EXPECT_EQ(e->arms[0].pattern->kind, Pattern::Kind::kInt);
  EXPECT_EQ(e->arms[1].pattern->int_value, -3);
  EXPECT_EQ(e->arms[2].pattern->name, "n");
  ASSERT_NE(e->arms[2].guard, nullptr);
  EXPECT_EQ(e->arms[2].body->kind, Expr::Kind::kBlock);
  EXPECT_TRUE(e->arms[3].pattern->elements[0]->bool_value);
  EXPECT_EQ(e->arms[3].pattern->elements[1]->kind, Pattern::Kind::kWildcard);
  EXPECT_EQ(e->arms[4].pattern->elements[1]->elements[1]->kind, Pattern::Kind::kTuple);
  EXPECT_TRUE(e->arms[4].pattern->elements[1]->elements[1]->elements.empty());
  EXPECT_EQ(e->arms[4].body->kind, Expr::Kind::kIf);
  EXPECT_EQ(e->arms[5].pattern->kind, Pattern::Kind::kWildcard);
}

TEST(ParserTest, WithBlocks) {
  EXPECT_EQ(Reprint("with key(0) { block(x, w) }"), "with key(0) {\n  block(x, w)\n}");
  EXPECT_EQ(Reprint("with s { rng() } + 1"), "((with s {\n  rng()\n}) + 1)");
}

// ---- Top level ---------------------------------------------------------------

TEST(ParserTest, TopLevelItems) {
  const std::string text =
      "import \"a.alea\";\n"
      "import \"b.alea\"\n"
      "let pi: Float = 3.14;\n"
      "let (a, b) = (1, 2)\n"
      "fn f() = 1;\n"
      "fn g(x: Int, (y, _): (Int, Bool)) -> (Int) -> Int uses rng = |z| z\n"
      "fn h() { } fn k() {};\n";
  auto p = ParseText(text);
  EXPECT_EQ(p->errors, "");
  const Module& m = p->module;
  ASSERT_EQ(m.imports.size(), 2u);
  EXPECT_EQ(m.imports[1].path, "b.alea");
  EXPECT_EQ(m.imports[1].path_span.begin, text.find("\"b.alea\""));
  ASSERT_EQ(m.lets.size(), 2u);
  EXPECT_EQ(m.lets[0]->type->name, "Float");
  EXPECT_EQ(m.lets[1]->pattern->kind, Pattern::Kind::kTuple);
  ASSERT_EQ(m.fns.size(), 4u);
  const FnDecl& g = *m.fns[1];
  EXPECT_EQ(g.name, "g");
  EXPECT_EQ(g.name_span.begin, text.find("g("));
  EXPECT_TRUE(g.uses_rng);
  EXPECT_EQ(g.result->kind, TypeAnn::Kind::kFunction);
  EXPECT_EQ(g.params[1].pattern->kind, Pattern::Kind::kTuple);
  EXPECT_EQ(m.fns[2]->body->kind, Expr::Kind::kBlock);
  EXPECT_EQ(m.fns[2]->body->result, nullptr);
  EXPECT_EQ(m.fns[0]->span.begin, text.find("fn f"));
  EXPECT_EQ(m.fns[0]->span.end, text.find("fn f") + 10);  // `fn f() = 1`, without the `;`
}

TEST(ParserTest, TypeAnnotations) {
  auto p = ParseText(
      "fn f(a: Int, b: Tensor, c: Tensor(i32), d: (), e: (Int, [Float]), g: [[Bool]],\n"
      "     h: (Int, Int) -> Int, i: () -> (), j: ((Int) -> Int) -> (Str) -> Str,\n"
      "     k: (RandState), l: Tensor(bool)) = 0\n");
  EXPECT_EQ(p->errors, "");
  std::vector<std::string> printed;
  for (const Param& param : p->module.fns[0]->params) printed.push_back(PrintType(*param.type));
  EXPECT_EQ(printed, (std::vector<std::string>{"Int", "Tensor", "Tensor(i32)", "()",
                                               "(Int, [Float])", "[[Bool]]", "(Int, Int) -> Int",
                                               "() -> ()", "((Int) -> Int) -> (Str) -> Str",
                                               "RandState", "Tensor(bool)"}));
  const TypeAnn& j = *p->module.fns[0]->params[8].type;
  ASSERT_EQ(j.kind, TypeAnn::Kind::kFunction);
  EXPECT_EQ(j.args[0]->kind, TypeAnn::Kind::kFunction);
  EXPECT_EQ(j.element->kind, TypeAnn::Kind::kFunction);
  EXPECT_EQ(p->module.fns[0]->params[2].type->args[0]->name, "i32");
}

// ---- Errors ------------------------------------------------------------------

TEST(ParserTest, ChainedComparisonIsAnError) {
  EXPECT_EQ(ExprErrors("a < b < c"),
            "e.alea:1:7: error: comparison operators cannot be chained\n"
            "    1 | a < b < c\n"
            "      |       ^\n"
            "help: join the comparisons with `&&`, as in `a < b && b < c`\n");
  EXPECT_NE(ExprErrors("a == b != c"), "");
}

TEST(ParserTest, ExpectedTokenNamesBoth) {
  EXPECT_EQ(ExprErrors("f(1;"),
            "e.alea:1:4: error: expected `,` or `)`, found `;`\n"
            "    1 | f(1;\n"
            "      |    ^\n");
  EXPECT_EQ(ExprErrors("(1 + )"),
            "e.alea:1:6: error: expected an expression, found `)`\n"
            "    1 | (1 + )\n"
            "      |      ^\n");
  EXPECT_EQ(ExprErrors("x +"),
            "e.alea:1:4: error: expected an expression, found end of file\n"
            "    1 | x +\n"
            "      |    ^\n");
}

TEST(ParserTest, UnclosedDelimiterNotesTheOpener) {
  auto p = ParseText("fn main() {\n  let x = [1, 2;\n  x\n");
  EXPECT_EQ(p->errors,
            "t.alea:2:16: error: expected `,` or `]`, found `;`\n"
            "    2 |   let x = [1, 2;\n"
            "      |                ^\n"
            "t.alea:3:4: error: expected `}`, found end of file\n"
            "    3 |   x\n"
            "      |    ^\n"
            "t.alea:1:11: note: unclosed `{` opened here\n");
}

TEST(ParserTest, MissingBraceBeforeNextFunction) {
  auto p = ParseText("fn a() {\n  1\n\nfn b() = 2\n");
  EXPECT_EQ(p->errors,
            "t.alea:4:1: error: expected `}`, found `fn`\n"
            "    4 | fn b() = 2\n"
            "      | ^~\n"
            "t.alea:1:8: note: unclosed `{` opened here\n");
  ASSERT_EQ(p->module.fns.size(), 2u);
  EXPECT_EQ(p->module.fns[1]->name, "b");
}

TEST(ParserTest, ThreeSeparateErrorsGiveThreeMessages) {
  auto p = ParseText(
      "fn a(x) {\n"
      "  let y = x +;\n"
      "  let z = (y, 2;\n"
      "  z\n"
      "}\n"
      "fn b() = match 1 { 0 -> 1, _ => 2 }\n"
      "fn c() = 3\n");
  EXPECT_EQ(p->diags.error_count(), 3) << p->errors;
  EXPECT_NE(p->errors.find("2:14: error: expected an expression, found `;`"), std::string::npos);
  EXPECT_NE(p->errors.find("3:16: error: expected `,` or `)`, found `;`"), std::string::npos);
  EXPECT_NE(p->errors.find("6:22: error: expected `=>` after the match pattern, found `->`"),
            std::string::npos);
  EXPECT_EQ(p->module.fns.size(), 3u);
}

TEST(ParserTest, MissingSemicolonIsOneError) {
  auto p = ParseText("fn a() {\n  let x = 1\n  let y = 2;\n  print(x)\n  y\n}\n");
  EXPECT_EQ(p->diags.error_count(), 2) << p->errors;
  EXPECT_NE(p->errors.find("3:3: error: expected `;`, found `let`"), std::string::npos);
  EXPECT_NE(p->errors.find("5:3: error: expected `;` or `}`, found `y`"), std::string::npos);
}

TEST(ParserTest, SpecificMessages) {
  EXPECT_EQ(ExprErrors("{ 1; else { 2 } }"),
            "e.alea:1:6: error: `else` without a preceding `if`\n"
            "    1 | { 1; else { 2 } }\n"
            "      |      ^~~~\n"
            "help: an `else` must follow the `}` of an `if` block directly\n");
  EXPECT_EQ(ExprErrors("f(a: 1, 2)"),
            "e.alea:1:9: error: positional argument after a named argument\n"
            "    1 | f(a: 1, 2)\n"
            "      |         ^\n"
            "help: put the named arguments last\n");
  EXPECT_EQ(ExprErrors("(x,)"),
            "e.alea:1:1: error: there are no 1-tuples: `(x,)` has one element\n"
            "    1 | (x,)\n"
            "      | ^~~~\n"
            "help: remove the trailing comma: `(x)` is the same as `x`\n");
  EXPECT_EQ(ExprErrors("if x = 1 { 2 }"),
            "e.alea:1:6: error: expected `{` after the condition, found `=`\n"
            "    1 | if x = 1 { 2 }\n"
            "      |      ^\n"
            "help: use `==` to compare\n");
  EXPECT_EQ(ExprErrors("{ let 0 = x; 1 }"),
            "e.alea:1:7: error: literal pattern `0` can only be used in a `match` arm\n"
            "    1 | { let 0 = x; 1 }\n"
            "      |       ^\n"
            "help: bind a name and compare it, or use `match`\n");
  EXPECT_EQ(ExprErrors("match x { 1 = 2 }"),
            "e.alea:1:13: error: expected `=>` after the match pattern, found `=`\n"
            "    1 | match x { 1 = 2 }\n"
            "      |             ^\n"
            "help: match arms are written `pattern => expression` or `pattern if guard => "
            "expression`\n");
  auto p = ParseText("fn f() uses random { 1 }\n");
  EXPECT_EQ(p->errors,
            "t.alea:1:13: error: expected `rng` after `uses`, found `random`\n"
            "    1 | fn f() uses random { 1 }\n"
            "      |             ^~~~~~\n"
            "help: write `uses rng` to declare that the function draws from the ambient state\n");
  p = ParseText("1 + 2\nfn f() = 1\n");
  EXPECT_EQ(p->errors,
            "t.alea:1:1: error: expected `fn`, `let`, `type`, `extern` or `import`, found `1`\n"
            "    1 | 1 + 2\n"
            "      | ^\n"
            "help: a file holds only imports, functions, top-level `let`s, `type` declarations and "
            "`extern` declarations\n");
  EXPECT_EQ(p->module.fns.size(), 1u);
  p = ParseText("fn f(g: Int -> Int) = g\n");
  EXPECT_EQ(p->errors,
            "t.alea:1:9: error: a function type's parameters must be in parentheses\n"
            "    1 | fn f(g: Int -> Int) = g\n"
            "      |         ^~~\n"
            "help: write `(Int) -> ...`\n");
}

TEST(ParserTest, LexerErrorsAreNotRepeatedByTheParser) {
  auto p = ParseText("fn f() {\n  let x = $;\n  let y = 1 # 2;\n  x\n}\n");
  EXPECT_EQ(p->diags.error_count(), 2) << p->errors;
  EXPECT_NE(p->errors.find("2:11: error: unexpected character `$`"), std::string::npos);
  EXPECT_NE(p->errors.find("3:13: error: unexpected character `#`"), std::string::npos);
}

TEST(ParserTest, UnterminatedStringIsOneError) {
  auto p = ParseText("fn main() {\n  print(\"never closed);\n}\nfn g() = (1 +)\n");
  EXPECT_EQ(p->diags.error_count(), 2) << p->errors;
  EXPECT_EQ(p->diags.all()[0].id, DiagId::kUnterminatedString);
  EXPECT_EQ(p->diags.all()[1].id, DiagId::kExpectedToken);
}

TEST(ParserTest, MessagesComeInSourceOrder) {
  auto p = ParseText("fn f() = (1 +)\nfn g() = \"\\q\"\n");
  ASSERT_EQ(p->diags.all().size(), 2u);
  EXPECT_EQ(p->diags.all()[0].id, DiagId::kExpectedToken);
  EXPECT_EQ(p->diags.all()[1].id, DiagId::kUnknownEscape);
}

// ---- Limits and robustness ---------------------------------------------------

std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

void ExpectOneNestingError(const std::string& text) {
  auto p = ParseText(text);
  ASSERT_EQ(p->diags.error_count(), 1) << p->errors.substr(0, 500);
  EXPECT_EQ(p->diags.all()[0].id, DiagId::kNestingTooDeep);
}

TEST(ParserTest, DeepNestingIsReportedOnce) {
  const int n = 100000;
  ExpectOneNestingError("fn f() = " + Repeat("(", n) + "1" + Repeat(")", n));
  ExpectOneNestingError("fn f() = " + Repeat("[", n) + "1" + Repeat("]", n));
  ExpectOneNestingError("fn f() = " + Repeat("-", n) + "1");
  ExpectOneNestingError("fn f() = " + Repeat("!", n) + "true");
  ExpectOneNestingError("fn f() = " + Repeat("{", n) + Repeat("}", n));
  ExpectOneNestingError("fn f() = 1" + Repeat(" + 1", n));
  ExpectOneNestingError("fn f() = g" + Repeat("(1)", n));
  ExpectOneNestingError("fn f() = " + Repeat("|x| ", n) + "1");
  ExpectOneNestingError("fn f() = " + Repeat("if a { 1 } else ", n) + "{ 2 }");
  ExpectOneNestingError("fn f(x: " + Repeat("[", n) + "Int" + Repeat("]", n) + ") = 1");
  ExpectOneNestingError("fn f(" + Repeat("(", n) + "x" + Repeat(")", n) + ") = 1");
  ExpectOneNestingError("fn f() = match x { " + Repeat("(", n) + "_" + Repeat(")", n) + " => 1 }");
  // Just inside the limit is fine, and long flat chains are not nesting.
  auto p = ParseText("fn f() = " + Repeat("(", 200) + "1" + Repeat(")", 200));
  EXPECT_EQ(p->errors, "");
  p = ParseText("fn f() = 1" + Repeat(" + 1", 1500) + "\nfn g() = f" + Repeat("(1)[0]", 700));
  EXPECT_EQ(p->errors, "");
}

TEST(ParserTest, NeverCrashesOrHangsOnGarbage) {
  auto start = std::chrono::steady_clock::now();
  std::string valid = std::string(kSpecProgram) + kSpecRngProgram + kSpecSnippets;
  // Every truncation of valid programs.
  for (size_t n = 0; n <= valid.size(); n += 3) ParseText(valid.substr(0, n));
  // Random bytes, random tokens, and valid programs with a byte changed.
  std::mt19937 rng(12345);
  const char* pieces[] = {"fn",     "let", "if",  "else",  "match", "with", "uses", "rng",
                          "import", "(",   ")",   "[",     "]",     "{",    "}",    ",",
                          ";",      ":",   "->",  "=>",    "=",     "|",    "||",   "&&",
                          "!",      "+",   "-",   "*",     "@",     "<",    "==",   "_",
                          "x",      "1",   "2.5", "\"s\"", "\n",    " ",    "true"};
  for (int round = 0; round < 300; ++round) {
    std::string bytes;
    int length = static_cast<int>(rng() % 200);
    for (int i = 0; i < length; ++i) bytes += static_cast<char>(rng() % 256);
    ParseText(bytes);
    std::string tokens;
    for (int i = 0; i < length; ++i) tokens += pieces[rng() % std::size(pieces)];
    ParseText(tokens);
    ParseText("fn f() { " + tokens);
    std::string mutated = valid;
    for (int k = 0; k < 3; ++k) {
      mutated[rng() % mutated.size()] = "(){}[],;|=\"x"[rng() % 12];
    }
    auto p = ParseText(mutated);
    EXPECT_LE(p->diags.error_count(), 20) << mutated << p->errors;
  }
  // A bound that catches a hang (an error-recovery loop that makes no
  // progress), not slowness: sanitizer builds run this ten times slower.
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 60.0);
}

}  // namespace
}  // namespace alea::lang

#include "lang/typecheck.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lang/builtins.h"
#include "lang/parser.h"
#include "lang/types.h"

namespace alea::lang {
namespace {

struct Checked {
  SourceManager sources;
  Diagnostics diags;
  Program program;
  bool ok = false;

  std::string Errors() const { return RenderAll(sources, diags); }
  const FnDecl* Fn(const std::string& name) const {
    for (const auto& m : program.modules) {
      for (const auto& fn : m->fns) {
        if (fn->name == name) return fn.get();
      }
    }
    return nullptr;
  }
  std::string FnType(const std::string& name) const {
    const FnDecl* fn = Fn(name);
    return fn == nullptr || fn->type == nullptr ? "<none>" : types::ToString(fn->type);
  }
};

// Files are checked as modules in order; each sees itself and all before it.
std::unique_ptr<Checked> Check(std::vector<std::string> files) {
  auto c = std::make_unique<Checked>();
  for (size_t i = 0; i < files.size(); ++i) {
    FileId id = c->sources.Add(
        i + 1 == files.size() ? std::string("t.alea") : absl::StrCat("m", i, ".alea"), files[i]);
    c->program.modules.push_back(std::make_unique<Module>(Parse(c->sources, id, c->diags)));
    std::vector<int> visible;
    for (int j = static_cast<int>(i); j >= 0; --j) visible.push_back(j);
    c->program.visible.push_back(visible);
  }
  EXPECT_FALSE(c->diags.has_errors()) << c->Errors();
  c->ok = TypeCheck(c->program, c->sources, c->diags);
  return c;
}
std::unique_ptr<Checked> Check(const std::string& source) {
  return Check(std::vector<std::string>{source});
}

// The type of the body's final expression of `fn main() = EXPR`-style sources.
std::string TypeOf(const std::string& expr, const std::string& prelude = "") {
  auto c = Check(prelude + "\nfn probe() = " + expr + "\n");
  EXPECT_TRUE(c->ok) << expr << "\n" << c->Errors();
  const FnDecl* fn = c->Fn("probe");
  return types::ToString(fn->body->type);
}

std::string ErrorsOf(const std::string& source) {
  auto c = Check(source);
  EXPECT_FALSE(c->ok) << source;
  return c->Errors();
}

TEST(TypeCheckTest, Literals) {
  EXPECT_EQ(TypeOf("1"), "Int");
  EXPECT_EQ(TypeOf("1.5"), "Float");
  EXPECT_EQ(TypeOf("\"a\""), "Str");
  EXPECT_EQ(TypeOf("true"), "Bool");
  EXPECT_EQ(TypeOf("()"), "()");
  EXPECT_EQ(TypeOf("(1, \"a\")"), "(Int, Str)");
  EXPECT_EQ(TypeOf("[1, 2]"), "[Int]");
  EXPECT_EQ(TypeOf("|x| x"), "(a) -> a");
}

TEST(TypeCheckTest, FunctionsAreGeneralized) {
  auto c = Check("fn id(x) = x\nfn main() { let a = id(1); let b = id(\"s\"); print((a, b)) }");
  EXPECT_TRUE(c->ok) << c->Errors();
  EXPECT_EQ(c->FnType("id"), "(a) -> a");
  EXPECT_EQ(c->FnType("main"), "() -> ()");
}

TEST(TypeCheckTest, LocalLetsAreGeneralized) {
  EXPECT_EQ(TypeOf("{ let id = |x| x; (id(1), id(\"a\")) }"), "(Int, Str)");
  EXPECT_EQ(TypeOf("{ let (f, g) = (|x| x, |y| y); (f(1), g(true)) }"), "(Int, Bool)");
}

TEST(TypeCheckTest, MutualRecursionInAnyOrder) {
  auto c = Check(
      "fn main() = print(even(10))\n"
      "fn even(n) = if n == 0 { true } else { odd(n - 1) }\n"
      "fn odd(n) = if n == 0 { false } else { even(n - 1) }\n");
  EXPECT_TRUE(c->ok) << c->Errors();
  EXPECT_EQ(c->FnType("even"), "(Int) -> Bool");
  EXPECT_EQ(c->FnType("odd"), "(Int) -> Bool");
}

TEST(TypeCheckTest, SpecializationOfOverloadedFunctions) {
  auto c = Check(
      "fn sq(x) = x * x\n"
      "fn main() { print(sq(3)); print(sq(1.5)); print(sq(ones([2]))); }\n");
  EXPECT_TRUE(c->ok) << c->Errors();
  EXPECT_EQ(c->FnType("sq"), "(a) -> b");
  ASSERT_NE(c->Fn("sq")->scheme, nullptr);
  EXPECT_EQ(c->Fn("sq")->scheme->constraints.size(), 1u);
  EXPECT_EQ(c->Fn("sq")->body->builtin, -1);  // resolved per specialization
  EXPECT_EQ(ErrorsOf("fn sq(x) = x * x\nfn main() = print(sq(\"a\"))\n"),
            "t.alea:2:19: error: no `*` for `Str` and `Str`\n"
            "    2 | fn main() = print(sq(\"a\"))\n"
            "      |                   ^~\n"
            "t.alea:2:22: note: `Str` comes from the string literal here\n"
            "t.alea:1:12: note: required by `*` here\n");
}

TEST(TypeCheckTest, Arithmetic) {
  EXPECT_EQ(TypeOf("1 + 2"), "Int");
  EXPECT_EQ(TypeOf("1.0 / 2.0"), "Float");
  EXPECT_EQ(TypeOf("\"a\" + \"b\""), "Str");
  EXPECT_EQ(TypeOf("-3"), "Int");
  EXPECT_EQ(TypeOf("7 % 2"), "Int");
  EXPECT_EQ(TypeOf("1 < 2 && !(2.0 >= 3.0)"), "Bool");
  EXPECT_EQ(TypeOf("(1, \"a\") < (2, \"b\")"), "Bool");
  EXPECT_EQ(TypeOf("[1] == [2]"), "Bool");
}

TEST(TypeCheckTest, IntFloatMixIsAnErrorWithAdvice) {
  EXPECT_EQ(ErrorsOf("fn main() {\n  let n = 3;\n  print(n * 2.5)\n}\n"),
            "t.alea:3:9: error: no `*` for `Int` and `Float`\n"
            "    3 |   print(n * 2.5)\n"
            "      |         ^~~~~~~\n"
            "t.alea:2:11: note: `Int` comes from the literal `3` here\n"
            "t.alea:3:13: note: `Float` comes from the literal `2.5` here\n"
            "help: there is no implicit conversion between `Int` and `Float`: convert with "
            "`float(...)` or `int(...)`\n");
}

TEST(TypeCheckTest, MismatchNamesBothOrigins) {
  EXPECT_EQ(ErrorsOf("fn f(x: Int) = x\nfn main() = f(\"a\")\n"),
            "t.alea:2:15: error: mismatched types: expected `Int`, found `Str`\n"
            "    2 | fn main() = f(\"a\")\n"
            "      |               ^~~\n"
            "t.alea:1:9: note: `Int` comes from the annotation here\n"
            "t.alea:2:15: note: `Str` comes from the string literal here\n");
}

TEST(TypeCheckTest, Tensors) {
  const std::string x = "fn x() = ones([2, 3])\nfn m() = x() < 0.5\n";
  EXPECT_EQ(TypeOf("x() + 1", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("2.0 * x()", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("x() @ x()", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("-x()", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("m()", x), "Tensor(bool)");
  EXPECT_EQ(TypeOf("x()[0]", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("x()[1:]", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("[1, 2, 3][:2]"), "[Int]");
  EXPECT_EQ(TypeOf("shape(x())[0]", x), "Int");
  EXPECT_EQ(TypeOf("zeros([2], i32)"), "Tensor(i32)");
  EXPECT_EQ(TypeOf("zeros([2], dtype: u32)"), "Tensor(u32)");
  EXPECT_EQ(TypeOf("zeros([2])"), "Tensor(f32)");
  EXPECT_EQ(TypeOf("cast(x(), i32)", x), "Tensor(i32)");
  EXPECT_EQ(TypeOf("tensor([[1.0, 2.0], [3.0, 4.0]])"), "Tensor(f32)");
  EXPECT_EQ(TypeOf("tensor(1)"), "Tensor(i32)");
  EXPECT_EQ(TypeOf("tensor([true])"), "Tensor(bool)");
  EXPECT_EQ(TypeOf("item(sum(x()))", x), "Float");
  EXPECT_EQ(TypeOf("item(argmax(x(), axis: 1)[0])", x), "Int");
  EXPECT_EQ(TypeOf("item(m()[0])", x), "Bool");
  EXPECT_EQ(TypeOf("sum(x(), axis: 0)", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("sum(x(), 0)", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("sum([1, 2])"), "Int");
  EXPECT_EQ(TypeOf("max(x())", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("max(x(), axis: 1)", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("max(x(), 0.0)", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("max(1, 2)"), "Int");
  EXPECT_EQ(TypeOf("min(1.0, 2.0)"), "Float");
  EXPECT_EQ(TypeOf("where(m(), x(), 0.0)", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("concat([x(), x()], axis: 1)", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("load_npy(\"a.npy\", i32)"), "Tensor(i32)");
  EXPECT_EQ(TypeOf("arange(5)"), "Tensor(f32)");
  EXPECT_EQ(TypeOf("arange(2, 5, i32)"), "Tensor(i32)");
  EXPECT_EQ(TypeOf("full([2], 3)"), "Tensor(i32)");
  EXPECT_EQ(TypeOf("full([2], 3, f32)"), "Tensor(f32)");
  EXPECT_EQ(TypeOf("zeros([2], i32) * 2"), "Tensor(i32)");
  EXPECT_EQ(TypeOf("f32"), "DType(f32)");
  EXPECT_EQ(TypeOf("relu(tanh(sigmoid(exp(log(sqrt(abs(x())))))))", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("save_npy(\"a.npy\", x())", x), "()");
  EXPECT_EQ(TypeOf("transpose(reshape(x(), [3, 2]))", x), "Tensor(f32)");
  EXPECT_EQ(TypeOf("mean(x())", x), "Tensor(f32)");
}

TEST(TypeCheckTest, TensorErrors) {
  std::string errors = ErrorsOf(
      "fn main() {\n  let a = ones([2]);\n  let b = zeros([2], i32);\n  print(a + b);\n"
      "  print(b * 1.5);\n}\n");
  EXPECT_NE(errors.find("error: no `+` for `Tensor(f32)` and `Tensor(i32)`"), std::string::npos);
  EXPECT_NE(errors.find("help: tensors of different dtypes do not mix: convert one with "
                        "`cast(x, f32)`"),
            std::string::npos);
  EXPECT_NE(errors.find("help: a `Tensor(i32)` takes only Int scalars"), std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() = print(tensor(\"a\"))")
                .find("error: `tensor` takes an Int, Float or Bool, or nested arrays of one, "
                      "not `Str`"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() = print(sum(\"a\"))")
                .find("help: `sum` takes `(x: Tensor(n), axis: Int = none) -> Tensor(n)` or "),
            std::string::npos);
}

TEST(TypeCheckTest, NamedArguments) {
  EXPECT_EQ(TypeOf("uniform(key(0), [4], lo: 2.0, hi: 4.0)"), "Tensor(f32)");
  EXPECT_EQ(TypeOf("uniform(key(0), [4], 2.0, 4.0)"), "Tensor(f32)");
  EXPECT_EQ(ErrorsOf("fn main() = print(sum(ones([2]), axes: 0))"),
            "t.alea:1:34: error: `sum` has no parameter named `axes`\n"
            "    1 | fn main() = print(sum(ones([2]), axes: 0))\n"
            "      |                                  ^~~~\n"
            "help: its parameters are `x`, `axis`\n"
            "help: did you mean `axis`?\n");
  // `ax` is as close to `x` as to `axis`, but `x` is given by position: only
  // `axis` can still be named.
  EXPECT_EQ(ErrorsOf("fn main() = print(mean(ones([2]), ax: 0))"),
            "t.alea:1:35: error: `mean` has no parameter named `ax`\n"
            "    1 | fn main() = print(mean(ones([2]), ax: 0))\n"
            "      |                                   ^~\n"
            "help: its parameters are `x`, `axis`\n"
            "help: did you mean `axis`?\n");
  EXPECT_NE(ErrorsOf("fn f(a: Int) = a\nfn main() = print(f(a: 1))")
                .find("error: `f` takes positional arguments only, not `a:`"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() = print(uniform(key(0), [2], lo: 1.0, lo: 2.0))")
                .find("t.alea:1:49: error: argument `lo` is given twice"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() = print(bernoulli(key(0)))")
                .find("error: missing argument `p` of `bernoulli`\n"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() = print(bernoulli(key(0)))")
                .find("help: `bernoulli` takes 2 or 3 arguments"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() = print(key(0, 1))")
                .find("error: `key` takes 1 argument, but 2 were given"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() = print(uniform(key(0), [1], 0.0, 1.0, 2.0))")
                .find("error: `uniform` takes 1 to 4 arguments, but 5 were given"),
            std::string::npos);
}

TEST(TypeCheckTest, DefaultingAndGeneralization) {
  // Generalized, so never defaulted.
  auto c = Check("fn main() { let f = |x| x * 2; print(1) }");
  EXPECT_TRUE(c->ok) << c->Errors();
  // Ambiguous and mentioning nothing generalizable: defaulted from the literal.
  c = Check("fn main() { print(|x| x * 2); }");
  EXPECT_TRUE(c->ok) << c->Errors();
  c = Check("fn main() { print(|x| x * 2.0); }");
  EXPECT_TRUE(c->ok) << c->Errors();
  EXPECT_EQ(ErrorsOf("fn main() = print(|x, y| x * y)"),
            "t.alea:1:26: error: cannot infer which `*` to use for `a` and `b`\n"
            "    1 | fn main() = print(|x, y| x * y)\n"
            "      |                          ^~~~~\n"
            "help: add a type annotation, e.g. `|x: Int| ...` or `let x: Float = ...`\n");
  // Equality over an unknown element type is fine: any type would do.
  c = Check("fn main() { let xs = []; print(xs == xs) }");
  EXPECT_TRUE(c->ok) << c->Errors();
  // A polymorphic top-level let.
  c = Check("let empty = []\nfn main() { print(len(empty) + len([1]) + len([\"a\"])) }");
  EXPECT_TRUE(c->ok) << c->Errors();
}

TEST(TypeCheckTest, BuiltinsAsValuesAndArrays) {
  EXPECT_EQ(TypeOf("map([1.0], sqrt)"), "[Float]");
  EXPECT_EQ(TypeOf("map([1, 2], float)"), "[Float]");
  EXPECT_EQ(TypeOf("fold([1, 2], 0, |a, x| a + x)"), "Int");
  EXPECT_EQ(TypeOf("filter(range(10), |x| x % 2 == 0)"), "[Int]");
  EXPECT_EQ(TypeOf("zip(range(3), [\"a\"])"), "[(Int, Str)]");
  EXPECT_EQ(TypeOf("sort([(1, \"a\")])"), "[(Int, Str)]");
  EXPECT_EQ(TypeOf("reverse(append([1], [2]))"), "[Int]");
  EXPECT_EQ(TypeOf("any([1], |x| x > 0) || all([1], |x| x > 0)"), "Bool");
  EXPECT_EQ(TypeOf("str(1) + str([1.0])"), "Str");
  EXPECT_EQ(TypeOf("(floor(1.5), ceil(1.5), int(2.5), clock())"), "(Float, Float, Int, Float)");
  EXPECT_EQ(TypeOf("len(\"abc\") + len([1]) + range(1, 3)[0]"), "Int");
  EXPECT_NE(ErrorsOf("fn main() = print(sort([|x: Int| x]))")
                .find("error: `sort` cannot order values of type `(Int) -> Int`"),
            std::string::npos);
}

TEST(TypeCheckTest, UserDefinitionsShadowBuiltinsAndLocalsShadowTopLevel) {
  auto c = Check("fn len(x: Str) = 42\nfn main() { let print = |x| x; print(len(\"a\")) }");
  EXPECT_TRUE(c->ok) << c->Errors();
  EXPECT_EQ(c->FnType("main"), "() -> Int");
}

TEST(TypeCheckTest, ControlFlow) {
  EXPECT_EQ(TypeOf("if true { 1 } else if false { 2 } else { 3 }"), "Int");
  EXPECT_EQ(TypeOf("if true { print(1) }"), "()");
  EXPECT_EQ(
      TypeOf("match (1, true) { (0, _) => \"a\", (n, b) if b && n > 0 => \"b\", _ => \"c\" }"),
      "Str");
  EXPECT_EQ(TypeOf("{ let (a, _) = (1, 2.0); a }"), "Int");
  EXPECT_EQ(TypeOf("{ 1; }"), "()");
  EXPECT_EQ(ErrorsOf("fn main() { if true { 1 } }"),
            "t.alea:1:21: error: `if` without `else` must have type `()`, found `Int`\n"
            "    1 | fn main() { if true { 1 } }\n"
            "      |                     ^~~~~\n"
            "help: add an `else` branch\n");
  EXPECT_NE(ErrorsOf("fn main() = match 1 { 0 => 1, _ => \"x\" }")
                .find("error: mismatched types: expected `Int`, found `Str`"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() = match 1 { true => 1, _ => 2 }")
                .find("error: mismatched types: expected `Int`, found `Bool`"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() { let (a, b) = 1; a }")
                .find("error: mismatched types: expected `Int`, found `(a, b)`"),
            std::string::npos);
}

TEST(TypeCheckTest, ErrorsDoNotCascadeAndAllAreReported) {
  auto c = Check(
      "fn main() {\n"
      "  let x = undefined_a + 1;\n"
      "  let y = x * 2;\n"
      "  let z = \"s\" - 1;\n"
      "  print(y + z + undefined_b);\n"
      "}\n");
  EXPECT_FALSE(c->ok);
  EXPECT_EQ(c->diags.error_count(), 3) << c->Errors();
}

TEST(TypeCheckTest, UnknownNamesSuggest) {
  EXPECT_EQ(ErrorsOf("fn compute(value: Int) -> Int = valeu * 2"),
            "t.alea:1:33: error: unknown name `valeu`\n"
            "    1 | fn compute(value: Int) -> Int = valeu * 2\n"
            "      |                                 ^~~~~\n"
            "help: did you mean `value`?\n");
  EXPECT_EQ(ErrorsOf("fn main() = print(lenn([1]))").find("help: did you mean `len`?") !=
                std::string::npos,
            true);
  EXPECT_EQ(ErrorsOf("fn main() = a").find("did you mean"), std::string::npos);
}

TEST(TypeCheckTest, Annotations) {
  auto c = Check(
      "fn f(x: Tensor, y: Tensor(i32), z: [(Int, Str)], g: (Int) -> Bool, s: RandState) -> () "
      "= ()\n");
  EXPECT_TRUE(c->ok) << c->Errors();
  EXPECT_EQ(c->FnType("f"),
            "(Tensor(f32), Tensor(i32), [(Int, Str)], (Int) -> Bool, RandState) -> ()");
  std::string errors = ErrorsOf("fn f(x: Integer) -> Tensor(f64) = ones([1])");
  EXPECT_NE(errors.find("error: unknown type `Integer`"), std::string::npos);
  EXPECT_NE(errors.find("error: `Tensor` takes one dtype: `f32`, `i32`, `u32` or `bool`"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn f(x: Flaot) = x").find("help: did you mean `Float`?"), std::string::npos);
}

TEST(TypeCheckTest, Main) {
  EXPECT_TRUE(Check("fn main(args: [Str]) = print(len(args))")->ok);
  EXPECT_TRUE(Check("fn main(args) = print(len(args))")->ok);
  EXPECT_EQ(ErrorsOf("fn main(n: Int) = print(n)"),
            "t.alea:1:4: error: `main` must take no parameter or one `[Str]`, found `(Int) -> ()`\n"
            "    1 | fn main(n: Int) = print(n)\n"
            "      |    ^~~~\n"
            "help: declare it `fn main()` or `fn main(args: [Str])`\n");
}

TEST(TypeCheckTest, TopLevelLets) {
  auto c = Check("let n = 3\nlet (a, b) = (n, \"x\")\nfn main() = print((a + n, b))");
  EXPECT_TRUE(c->ok) << c->Errors();
  EXPECT_NE(ErrorsOf("let s = key(0)\nfn main() = print(1)")
                .find("error: top-level `let` `s` holds a RandState (its type is `RandState`)"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("let a = f()\nfn f() = a\nfn main() = print(a)")
                .find("error: top-level `let` `a` depends on itself"),
            std::string::npos);
}

TEST(TypeCheckTest, InfiniteAndDeepTypes) {
  EXPECT_NE(ErrorsOf("fn f(x) = f([x])").find("error: infinite type"), std::string::npos);
  std::string source = "fn main() {\n  let f0 = |x| [x];\n";
  for (int i = 1; i < 16; ++i) {
    absl::StrAppend(&source, "  let f", i, " = |x| f", i - 1, "(f", i - 1, "(x));\n");
  }
  source += "  print(f15(1))\n}\n";
  EXPECT_NE(ErrorsOf(source).find("error: type is too deep"), std::string::npos);
}

TEST(TypeCheckTest, Modules) {
  auto c = Check(std::vector<std::string>{"fn helper(x) = x + 1\nlet tau = 6.28",
                                          "fn main() = print((helper(1), tau))"});
  EXPECT_TRUE(c->ok) << c->Errors();
}

TEST(TypeCheckTest, AnnotatesOverloadsAndInstantiations) {
  auto c = Check("fn id(x) = x\nfn main() { print(id(1) + 2); print(map([1.0], abs)) }");
  ASSERT_TRUE(c->ok) << c->Errors();
  const Expr& body = *c->Fn("main")->body;
  const Expr& add = *body.stmts[0].expr->args[0].value;
  EXPECT_EQ(add.builtin, static_cast<int>(BuiltinId::kAddInt));
  EXPECT_EQ(types::ToString(add.site_type), "(Int, Int) -> Int");
  const Expr& id = *add.lhs->lhs;
  EXPECT_EQ(id.name_kind, NameKind::kFunction);
  ASSERT_EQ(id.type_args.size(), 1u);
  EXPECT_EQ(types::ToString(id.type_args[0]), "Int");
  const Expr& abs = *body.result->args[0].value->args[1].value;
  EXPECT_EQ(abs.builtin, static_cast<int>(BuiltinId::kAbsFloat));
  const Expr& print = *body.stmts[0].expr;
  EXPECT_EQ(print.builtin, static_cast<int>(BuiltinId::kPrint));
}

TEST(TypeCheckTest, AmbientRandomContexts) {
  auto c = Check(
      "fn block(x: Tensor) -> Tensor uses rng {\n"
      "  let h = dropout(relu(x), 0.5);\n"
      "  let noise = normal(shape(h)) * 0.01;\n"
      "  h + noise + uniform(key(1), [2])\n"
      "}\n"
      "fn main() {\n"
      "  let y = with key(0) { block(ones([2])) };\n"
      "  let s = with key(1) { rng() };\n"
      "  print((y, s))\n"
      "}\n");
  ASSERT_TRUE(c->ok) << c->Errors();
  const Expr& body = *c->Fn("block")->body;
  EXPECT_TRUE(body.stmts[0].expr->ambient_site);
  EXPECT_TRUE(body.stmts[1].expr->lhs->ambient_site);
  EXPECT_FALSE(body.result->rhs->ambient_site);  // explicit state
  const Expr& with = *c->Fn("main")->body->stmts[0].expr;
  EXPECT_TRUE(with.body->result->ambient_site);
}

TEST(TypeCheckTest, AmbientErrors) {
  EXPECT_EQ(ErrorsOf("fn noise() uses rng = normal([2])\nfn main() = print(noise())"),
            "t.alea:2:19: error: `noise` uses rng, but no random state is in scope\n"
            "    2 | fn main() = print(noise())\n"
            "      |                   ^~~~~~~\n"
            "t.alea:1:12: note: `noise` is declared `uses rng` here\n"
            "help: declare the caller `uses rng`, or wrap the call in `with key(0) { ... }`\n");
  EXPECT_NE(ErrorsOf("fn main() = print(uniform([2]))")
                .find("error: `uniform` needs a random state, but none is in scope"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() = print(rng())")
                .find("error: `rng()` needs an ambient random state, but none is in scope"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn f(xs: [Int]) uses rng = map(xs, |n| uniform([n]))")
                .find("error: `uniform` draws from the ambient random state inside a lambda"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn noise() uses rng = normal([2])\nfn main() { let f = noise; 1 }")
                .find("error: `noise` uses rng, so it cannot be used as a value"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("fn main() = print(normal(1.0, [2]))")
                .find("error: no `normal` for `Float` and `[Int]`"),
            std::string::npos);
  // A `with` inside a lambda is an ambient context of its own.
  EXPECT_TRUE(Check("fn main() = print(map([1], |n| with key(n) { normal([n]) }))")->ok);
}

TEST(TypeCheckTest, ResolveOverloadDuringMonomorphization) {
  auto c = Check("fn sq(x) = x * x\nfn main() = print(sq(2.0))");
  ASSERT_TRUE(c->ok) << c->Errors();
  const Expr& mul = *c->Fn("sq")->body;
  ASSERT_NE(mul.site_type, nullptr);
  // The compiler substitutes the specialization's types into site_type's
  // arguments, then resolves.
  types::TypeStore store;
  types::Type* f = store.Prim(types::Kind::kFloat);
  std::vector<const types::Type*> args = {f, f};
  auto r = ResolveOverload("*", args, {}, store);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->id, BuiltinId::kMulFloat);
}

TEST(TypeCheckTest, LongGenericBodiesStayLinear) {
  std::string source = "fn f(x) {\n  let v0 = x;\n";
  for (int i = 1; i < 3000; ++i) absl::StrAppend(&source, "  let v", i, " = v", i - 1, " + 1;\n");
  source += "  v2999\n}\nfn main() { print(f(1)); print(f(ones([2]))) }\n";
  auto c = Check(source);
  EXPECT_TRUE(c->ok) << c->Errors();
  EXPECT_EQ(c->FnType("f"), "(a) -> b");
  EXPECT_LT(c->program.modules[0]->types->size(), 2000000u);
}

TEST(TypeCheckTest, LocalLetsTiedToParametersAreNotGeneralized) {
  auto c = Check("fn f(x) { let y = x + 1; y }\nfn main() = print((f(1), f(ones([2]))))");
  EXPECT_TRUE(c->ok) << c->Errors();
  EXPECT_EQ(c->Fn("f")->body->stmts[0].pattern->scheme->vars.size(), 0u);
}

TEST(TypeCheckTest, MoreMessages) {
  EXPECT_EQ(ErrorsOf("fn main() {\n  let x = 5;\n  x(1)\n}\n"),
            "t.alea:3:3: error: this value of type `Int` is not a function, so it cannot be "
            "called\n"
            "    3 |   x(1)\n"
            "      |   ^\n");
  EXPECT_EQ(ErrorsOf("fn main() {\n  let f = |x: Int| x;\n  f == f\n}\n"),
            "t.alea:3:3: error: `==` cannot compare values of type `(Int) -> Int`\n"
            "    3 |   f == f\n"
            "      |   ^~~~~~\n"
            "t.alea:2:11: note: `(Int) -> Int` comes from the lambda here\n"
            "help: functions and RandStates have no equality, and tensors compare only "
            "elementwise\n");
  EXPECT_EQ(ErrorsOf("fn main() = [1] < [2]"),
            "t.alea:1:13: error: `<` cannot order values of type `[Int]`\n"
            "    1 | fn main() = [1] < [2]\n"
            "      |             ^~~~~~~~~\n"
            "t.alea:1:13: note: `[Int]` comes from the array literal here\n"
            "t.alea:1:19: note: `[Int]` comes from the array literal here\n"
            "help: ordering is defined on Int, Float, Str, and tuples, records and variants of "
            "them\n");
  EXPECT_EQ(ErrorsOf("fn f(x: Int(f32)) = x"),
            "t.alea:1:9: error: `Int` takes no arguments\n"
            "    1 | fn f(x: Int(f32)) = x\n"
            "      |         ^~~~~~~~\n");
  EXPECT_EQ(ErrorsOf("fn main() = max(ones([2]), 0, 1)"),
            "t.alea:1:13: error: the `axis` of `max` must be given by name\n"
            "    1 | fn main() = max(ones([2]), 0, 1)\n"
            "      |             ^~~~~~~~~~~~~~~~~~~~\n"
            "help: write `axis: ...`\n");
  EXPECT_EQ(ErrorsOf("fn main() = f32(1)"),
            "t.alea:1:13: error: this value of type `DType(f32)` is not a function, so it "
            "cannot be called\n"
            "    1 | fn main() = f32(1)\n"
            "      |             ^~~\n");
  EXPECT_EQ(ErrorsOf("fn main() = print(rng())"),
            "t.alea:1:19: error: `rng()` needs an ambient random state, but none is in scope\n"
            "    1 | fn main() = print(rng())\n"
            "      |                   ^~~~~\n"
            "help: use it in a `uses rng` function or inside `with s { ... }`\n");
  EXPECT_EQ(ErrorsOf("fn main() = print(uniform([2]))"),
            "t.alea:1:19: error: `uniform` needs a random state, but none is in scope\n"
            "    1 | fn main() = print(uniform([2]))\n"
            "      |                   ^~~~~~~~~~~~\n"
            "help: pass one first, as in `uniform(s, ...)`, declare the caller `uses rng`, or "
            "wrap the call in `with key(0) { ... }`\n");
  EXPECT_EQ(ErrorsOf("let s = (1, key(0))"),
            "t.alea:1:5: error: top-level `let` `s` holds a RandState (its type is `(Int, "
            "RandState)`)\n"
            "    1 | let s = (1, key(0))\n"
            "      |     ^\n"
            "help: create random states inside functions, e.g. `key(0)` in `main`\n");
  EXPECT_EQ(ErrorsOf("fn main() = with 1 { 2 }"),
            "t.alea:1:18: error: mismatched types: expected `RandState`, found `Int`\n"
            "    1 | fn main() = with 1 { 2 }\n"
            "      |                  ^\n"
            "t.alea:1:18: note: `RandState` comes from `with`, which takes a RandState, here\n"
            "t.alea:1:18: note: `Int` comes from the literal `1` here\n");
  EXPECT_EQ(ErrorsOf("fn f(x) = f([x])"),
            "t.alea:1:13: error: infinite type: `a` would have to contain itself (`a = [a]`)\n"
            "    1 | fn f(x) = f([x])\n"
            "      |             ^~~\n"
            "help: a value cannot contain itself; check the recursive call's arguments\n");
}

TEST(TypeCheckTest, GenericUsesRngAndRecursiveInstantiations) {
  auto c = Check(
      "fn noisy(x) uses rng = x + normal(shape(x))\n"
      "fn count(n, acc) = if n == 0 { acc } else { count(n - 1, acc + 1) }\n"
      "fn main() uses rng { print(noisy(ones([2]))); print(count(3, 0)) }\n");
  ASSERT_TRUE(c->ok) << c->Errors();
  EXPECT_EQ(c->FnType("noisy"), "(Tensor(f32)) -> Tensor(f32)");
  const Expr& call = *c->Fn("main")->body->stmts[0].expr->args[0].value;
  EXPECT_TRUE(call.ambient_site);
  // A recursive use is instantiated to the function's own variables.
  const Expr& rec = *c->Fn("count")->body->else_branch->result->lhs;
  ASSERT_EQ(rec.name_kind, NameKind::kFunction);
  EXPECT_EQ(rec.type_args, std::vector<const types::Type*>(c->Fn("count")->scheme->vars.begin(),
                                                           c->Fn("count")->scheme->vars.end()));
}

TEST(TypeCheckTest, ErrorsFollowSourceOrderWhereDependenciesAllow) {
  std::string errors =
      ErrorsOf("fn main() = print(helper() + 1)\nfn z() = \"a\" * 2\nfn helper() = 1 + \"b\"\n");
  size_t z = errors.find("t.alea:2:");
  size_t helper = errors.find("t.alea:3:");
  ASSERT_NE(z, std::string::npos);
  ASSERT_NE(helper, std::string::npos);
  EXPECT_LT(z, helper);
}

TEST(TypeCheckTest, DTypeVariablesPrintAsDTypes) {
  EXPECT_NE(ErrorsOf("fn main() = cast(ones([2]), \"i32\")")
                .find("error: mismatched types: expected `DType(d)`, found `Str`"),
            std::string::npos);
}

}  // namespace
}  // namespace alea::lang

namespace alea::lang {
namespace {

// A comparison whose Bool result is known early (an annotation, an `if`, a
// predicate lambda) is settled late, at generalization; its operands must
// stay generic all the same.
TEST(TypeCheckTest, ComparisonsWithAKnownResultStayPolymorphic) {
  for (const char* source : {
           "fn f(x, y) -> Bool = x < y\n"
           "fn main() { print(f(1, 2)); print(f(\"a\", \"b\")) }",
           "fn bigger(a, b) = if a < b { b } else { a }\n"
           "fn main() { print(bigger(1, 2)); print(bigger(1.5, 0.5)) }",
           "fn below(xs, y) = filter(xs, |x| x < y)\n"
           "fn main() { print(below([1], 1)); print(below([\"a\"], \"b\")) }",
       }) {
    auto c = Check(source);
    EXPECT_TRUE(c->ok) << source << "\n" << c->Errors();
  }
  EXPECT_NE(ErrorsOf("fn f(x, y) -> Bool = x < y\nfn main() { print(f([1], [2])) }")
                .find("error: `<` cannot order values of type `[Int]`"),
            std::string::npos);
}

}  // namespace
}  // namespace alea::lang

namespace alea::lang {
namespace {

// The type of `fn main() = print(EXPR)`'s argument once checking is done.
std::string PrintedType(const std::string& source) {
  auto c = Check(source);
  EXPECT_TRUE(c->ok) << source << "\n" << c->Errors();
  const FnDecl* main = c->Fn("main");
  if (main == nullptr || main->body->kind != Expr::Kind::kCall) return "<no print call>";
  return types::ToString(main->body->args[0].value->type);
}

// Nothing binds the scalar of `tensor([])`: it follows the result's dtype
// when that is known, else it is Float (f32, as NumPy's `np.array([])` is
// float64), never left open for the run-time to refuse.
TEST(TypeCheckTest, TensorOfEmptyArraysDefaultsTheScalar) {
  EXPECT_EQ(PrintedType("fn main() = print(tensor([]))"), "Tensor(f32)");
  EXPECT_EQ(PrintedType("fn main() = print(tensor([[], []]))"), "Tensor(f32)");
  EXPECT_EQ(PrintedType("fn main() = print({ let f = tensor; f([]) })"), "Tensor(f32)");
  EXPECT_EQ(PrintedType("fn t(x) = tensor(x)\nfn main() = print(t([[]]))"), "Tensor(f32)");
  EXPECT_EQ(PrintedType("fn main() = print({ let t: Tensor(i32) = tensor([]); t })"),
            "Tensor(i32)");
  EXPECT_EQ(PrintedType("fn main() = print({ let t: Tensor(bool) = tensor([[]]); t })"),
            "Tensor(bool)");
  // No scalar gives u32.
  EXPECT_NE(ErrorsOf("fn main() { let t: Tensor(u32) = tensor([]); print(t) }")
                .find("error: `tensor` takes an Int, Float or Bool, or nested arrays of one, "
                      "not `[Float]`"),
            std::string::npos);
}

// `tensor` as a value ties its result's dtype to the data as a call does.
TEST(TypeCheckTest, TensorAsAValueTiesTheDType) {
  EXPECT_EQ(PrintedType("fn main() = print({ let f = tensor; f([1, 2]) })"), "Tensor(i32)");
  EXPECT_EQ(PrintedType("fn main() = print(map([[true]], tensor))"), "[Tensor(bool)]");
  EXPECT_NE(ErrorsOf("fn main() { let f = tensor; let t: Tensor(f32) = f([1, 2]); print(t) }")
                .find("error: no `tensor` for type `([Int]) -> Tensor(f32)`"),
            std::string::npos);
}

// An unannotated parameter of `main` is `[Str]` while its body is checked,
// so the overloads used on it resolve there.
TEST(TypeCheckTest, MainParameterIsTheArguments) {
  auto c = Check("fn main(args) = print(len(args))");
  ASSERT_TRUE(c->ok) << c->Errors();
  EXPECT_EQ(c->FnType("main"), "([Str]) -> ()");
  const Expr& len = *c->Fn("main")->body->args[0].value;
  EXPECT_EQ(len.builtin, static_cast<int>(BuiltinId::kLenArray));
  EXPECT_NE(ErrorsOf("fn main(args) = print(args + 1)")
                .find("note: `[Str]` comes from the command-line arguments of `main` here"),
            std::string::npos);
  // Only the root module's `main` is the program's entry.
  auto lib = Check(std::vector<std::string>{"fn main(x) = x + 1", "fn f() = 1"});
  EXPECT_TRUE(lib->ok) << lib->Errors();
}

}  // namespace
}  // namespace alea::lang

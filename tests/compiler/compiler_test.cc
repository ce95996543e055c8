// The compiler's output for small programs: specializations, opcodes chosen,
// register maps, moves at last use, tail calls and the line table.
#include "compiler/compiler.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "lang/front_end.h"

namespace alea::compiler {
namespace {

using vm::Op;

struct Compiled {
  absl::StatusOr<vm::Module> module;
  std::string diagnostics;
};

Compiled CompileText(const std::string& text) {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("alea_compiler_test_" + std::to_string(::getpid()) + ".alea"))
                         .string();
  std::ofstream(path) << text;
  lang::SourceManager sources;
  lang::Diagnostics diags;
  std::optional<lang::Program> program = lang::CheckProgram(path, sources, diags);
  Compiled out{absl::InternalError("front end failed"), ""};
  if (program) out.module = Compile(*program, sources, diags);
  out.diagnostics = lang::RenderAll(sources, diags);
  std::remove(path.c_str());
  return out;
}

vm::Module MustCompile(const std::string& text) {
  Compiled c = CompileText(text);
  EXPECT_TRUE(c.module.ok()) << c.diagnostics;
  return c.module.ok() ? *std::move(c.module) : vm::Module{};
}

std::vector<const vm::Function*> Named(const vm::Module& m, const std::string& name) {
  std::vector<const vm::Function*> out;
  for (const vm::Function& f : m.functions) {
    if (f.name == name) out.push_back(&f);
  }
  return out;
}

int Count(const vm::Function& f, Op op) {
  int n = 0;
  for (const vm::Instr& in : f.code) n += in.op == op;
  return n;
}

TEST(Monomorphize, OneSpecializationPerType) {
  vm::Module m = MustCompile(
      "fn sq(x) = x * x\n"
      "fn main() { print((sq(3), sq(1.5), sq(4))) }\n");
  std::vector<const vm::Function*> sqs = Named(m, "sq");
  ASSERT_EQ(sqs.size(), 2u);
  int ints = 0, floats = 0;
  for (const vm::Function* f : sqs) {
    ints += Count(*f, Op::MUL_I);
    floats += Count(*f, Op::MUL_F);
  }
  EXPECT_EQ(ints, 1);
  EXPECT_EQ(floats, 1);
  EXPECT_NE(sqs[0]->specialization, sqs[1]->specialization);
}

TEST(Monomorphize, PolymorphicLocalLetPerInstance) {
  vm::Module m = MustCompile("fn main() { let id = |x| x; print((id(1), id(\"s\"))) }\n");
  EXPECT_EQ(Named(m, "lambda").size(), 2u);
}

TEST(Lower, FusedCompareAndBranch) {
  vm::Module m = MustCompile(
      "fn f(a: Int, b: Int) -> Int = if a < b { a } else { b }\n"
      "fn main() { print(f(1, 2)) }\n");
  const vm::Function& f = *Named(m, "f")[0];
  EXPECT_EQ(Count(f, Op::JLE_I) + Count(f, Op::JLT_I), 1);
  EXPECT_EQ(Count(f, Op::LT_I), 0);
}

TEST(Lower, AddConstant) {
  vm::Module m = MustCompile("fn f(x: Int) -> Int = x + 1 - 3\nfn main() { print(f(1)) }\n");
  EXPECT_EQ(Count(*Named(m, "f")[0], Op::ADDK_I), 2);
}

TEST(Lower, BranchesOnAConstant) {
  // A condition comparing an Int with a small literal, on either side, is
  // one constant branch; `!` and `&&` keep it; a large constant does not.
  vm::Module m = MustCompile(
      "fn f(x: Int) -> Int = if x < 2 { 1 } else if 0 == x { 2 } else if !(x >= -3) && x != 7 "
      "{ 3 } else if x > 40000 { 4 } else { 5 }\n"
      "fn main() { print(f(1)) }\n");
  const vm::Function& f = *Named(m, "f")[0];
  // Past `x < 2`'s arm when x >= 2; past `!(x >= -3) && ...`'s when x >= -3.
  EXPECT_EQ(Count(f, Op::JGEK_I), 2);
  EXPECT_EQ(Count(f, Op::JEQK_I), 1);  // past it when x == 7
  EXPECT_EQ(Count(f, Op::JNEK_I), 1);  // `0 == x`, mirrored
  EXPECT_EQ(Count(f, Op::JGEK_I) + Count(f, Op::JLTK_I) + Count(f, Op::JEQK_I) +
                Count(f, Op::JNEK_I) + Count(f, Op::JLEK_I) + Count(f, Op::JGTK_I),
            4);
  EXPECT_EQ(Count(f, Op::JLE_I) + Count(f, Op::JLT_I), 1);  // `x > 40000`
}

TEST(Lower, IntLiteralPatterns) {
  // A literal pattern that fits 16 bits is a constant branch; a larger one
  // is loaded and compared.
  vm::Module m = MustCompile(
      "fn f(x: Int) -> Int = match x { -3 => 1, 70000 => 2, _ => 0 }\n"
      "fn main() { print(f(1)) }\n");
  const vm::Function& f = *Named(m, "f")[0];
  EXPECT_EQ(Count(f, Op::JNEK_I), 1);
  EXPECT_EQ(Count(f, Op::JNE_I), 1);
}

TEST(Lower, TypedOpcodes) {
  vm::Module m = MustCompile(
      "fn main() { print((\"a\" + \"b\", (1, \"x\") == (1, \"x\"), 1.5 / 2.0, 7 % 2)) }\n");
  const vm::Function& f = *Named(m, "main")[0];
  EXPECT_EQ(Count(f, Op::CONCAT_S), 1);
  EXPECT_EQ(Count(f, Op::EQ_V), 1);
  EXPECT_EQ(Count(f, Op::DIV_F), 1);
  EXPECT_EQ(Count(f, Op::REMK_I), 1);
}

TEST(Lower, IntOperationsWithAConstant) {
  // A literal right operand in [-32768, 32767], negated or not, is the
  // instruction's own; a zero divisor keeps DIV_I/REM_I (and their run-time
  // error), a larger constant a register.
  vm::Module m = MustCompile(
      "fn f(x: Int) -> Int = x * 3 / -2 % 5 - -4\n"
      "fn g(x: Int) -> Int = x / 0 + x % 0 + x * 40000\n"
      "fn main() { print((f(1), g(1))) }\n");
  const vm::Function& f = *Named(m, "f")[0];
  EXPECT_EQ(Count(f, Op::MULK_I), 1);
  EXPECT_EQ(Count(f, Op::DIVK_I), 1);
  EXPECT_EQ(Count(f, Op::REMK_I), 1);
  EXPECT_EQ(Count(f, Op::ADDK_I), 1);  // `- -4`, a negated literal as well
  EXPECT_EQ(Count(f, Op::LOADI), 0);
  const vm::Function& g = *Named(m, "g")[0];
  EXPECT_EQ(Count(g, Op::DIV_I), 1);
  EXPECT_EQ(Count(g, Op::REM_I), 1);
  EXPECT_EQ(Count(g, Op::MUL_I), 1);
  EXPECT_EQ(Count(g, Op::MULK_I) + Count(g, Op::DIVK_I) + Count(g, Op::REMK_I), 0);
}

TEST(Lower, TailCalls) {
  vm::Module m = MustCompile(
      "fn loop(i, acc) = if i == 0 { acc } else { loop(i - 1, acc + i) }\n"
      "fn even(n: Int) -> Bool = if n == 0 { true } else { odd(n - 1) }\n"
      "fn odd(n: Int) -> Bool = if n == 0 { false } else { even(n - 1) }\n"
      "fn apply(f: (Int) -> Int, x: Int) -> Int = f(x)\n"
      "fn main() { print((loop(10, 0), even(3), apply(|x| x, 1))) }\n");
  // A tail call to the function itself is a jump back to its start.
  const vm::Function& loop = *Named(m, "loop")[0];
  EXPECT_EQ(Count(loop, Op::TAILCALL), 0);
  EXPECT_EQ(Count(loop, Op::CALL), 0);
  // The back edge repeats the test at the start (JNEK_I to the body), then
  // jumps past it: one dispatch per iteration on the way round.
  ASSERT_GE(loop.code.size(), 3u);
  const size_t last = loop.code.size() - 1;
  ASSERT_EQ(loop.code[last].op, Op::JMP);
  EXPECT_EQ(static_cast<int32_t>(last) + 1 + loop.code[last].sbx(), 1);
  const vm::Instr head = loop.code[0], back = loop.code[last - 1];
  ASSERT_EQ(head.op, Op::JNEK_I);
  ASSERT_EQ(back.op, Op::JNEK_I);
  EXPECT_EQ(back.a, head.a);
  EXPECT_EQ(back.b, head.b);
  EXPECT_EQ(static_cast<int32_t>(last - 1) + 1 + back.sc(), 1 + head.sc());
  // `acc + i` is computed in acc's register; `i - 1` in a temporary, since
  // `acc + i` reads i after it; one MOVE puts it in place. `acc` is returned
  // from its own register.
  EXPECT_EQ(Count(loop, Op::MOVE), 1);
  EXPECT_EQ(loop.code[1].op, Op::RET);
  EXPECT_EQ(loop.code[1].a, 1);
  // Tail calls to other functions and to closures reuse the frame.
  EXPECT_EQ(Count(*Named(m, "even")[0], Op::TAILCALL), 1);
  EXPECT_EQ(Count(*Named(m, "apply")[0], Op::TAILCALLC), 1);
}

TEST(Lower, PushOntoAnOwnedArrayIsOneInstruction) {
  vm::Module m = MustCompile(
      "fn grow(xs: [Int]) -> [Int] = push(xs, 1)\n"
      "fn twice(xs: [Int]) -> ([Int], [Int]) = (push(xs, 1), push(xs, 2))\n"
      "fn main() { print((grow([0]), twice([0]))) }\n");
  // A last use is moved into PUSH; an array still needed after is lent to
  // the native, which copies it.
  const vm::Function& grow = *Named(m, "grow")[0];
  EXPECT_EQ(Count(grow, Op::PUSH), 1);
  EXPECT_EQ(Count(grow, Op::CALLN), 0);
  const vm::Function& twice = *Named(m, "twice")[0];
  EXPECT_EQ(Count(twice, Op::PUSH), 1);
  EXPECT_EQ(Count(twice, Op::CALLN), 1);
}

TEST(Lower, LastUseMoves) {
  vm::Module m = MustCompile("fn f(s: Str) -> [Str] = [s, s]\nfn main() { print(f(\"a\")) }\n");
  const vm::Function& f = *Named(m, "f")[0];
  EXPECT_EQ(Count(f, Op::COPY), 1);
  int moves = 0;
  for (const vm::Instr& in : f.code) moves += in.op == Op::MOVE && in.x == 1 && in.b == 0;
  EXPECT_EQ(moves, 1);
}

TEST(Registers, ReferenceMapNeverMixesClasses) {
  vm::Module m = MustCompile(
      "fn f(n: Int, s: Str) -> (Int, Str) = (n + 1, s + \"!\")\n"
      "fn main() { print(f(1, \"a\")) }\n");
  const vm::Function& f = *Named(m, "f")[0];
  EXPECT_EQ(f.num_params, 2);
  std::vector<uint16_t> refs = f.reference_registers;
  EXPECT_TRUE(std::find(refs.begin(), refs.end(), 1) != refs.end());
  EXPECT_TRUE(std::find(refs.begin(), refs.end(), 0) == refs.end());
}

TEST(Lower, ClosuresCaptureByValue) {
  vm::Module m = MustCompile(
      "fn main() { let s = \"x\"; let n = 2; let f = |k: Int| s + str(k * n); print(f(1)) }\n");
  EXPECT_EQ(Count(*Named(m, "main")[0], Op::CLOSURE), 1);
  const vm::Function& lambda = *Named(m, "lambda")[0];
  EXPECT_EQ(lambda.num_captures, 2);
  EXPECT_EQ(Count(lambda, Op::GETCAP), 2);
  ASSERT_EQ(lambda.reference_captures.size(), 1u);
  EXPECT_EQ(lambda.reference_captures[0], 0);
}

TEST(Lower, TopLevelLetsInInit) {
  vm::Module m = MustCompile("let a = b + 1\nlet b = 2\nfn main() { print(a) }\n");
  ASSERT_GE(m.init, 0);
  EXPECT_EQ(m.globals.size(), 2u);
  EXPECT_EQ(Count(m.functions[m.init], Op::STOREG), 2);
  // `b` is stored first: `a` depends on it.
  for (const vm::Instr& in : m.functions[m.init].code) {
    if (in.op != Op::STOREG) continue;
    EXPECT_EQ(m.globals[in.b].name, "b");
    break;
  }
}

TEST(LineTable, PointsAtTheOperation) {
  vm::Module m =
      MustCompile("fn f(x: Int, y: Int) -> Int {\n  x / y\n}\nfn main() { print(f(1, 1)) }\n");
  const vm::Function& f = *Named(m, "f")[0];
  int pc = -1;
  for (size_t i = 0; i < f.code.size(); ++i) {
    if (f.code[i].op == Op::DIV_I) pc = static_cast<int>(i);
  }
  ASSERT_GE(pc, 0);
  const vm::LineEntry* entry = nullptr;
  for (const vm::LineEntry& e : f.lines) {
    if (e.pc <= static_cast<uint32_t>(pc)) entry = &e;
  }
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->location.line, 2u);
  EXPECT_EQ(entry->location.column, 3u);
  EXPECT_EQ(entry->location.length, 5u);
}

TEST(Lower, UsesRngTakesItsStreamLast) {
  // A `uses rng` function gets its ambient stream as an extra parameter,
  // whose words it reads first (PEEK), and each site is a SITE of those
  // words numbered in evaluation order.
  vm::Module m = MustCompile(
      "fn f(x: Float) -> Tensor uses rng = uniform([2]) + normal([2]) * x\n"
      "fn main() { print(with key(0) { f(1.0) }) }\n");
  const vm::Function* f = nullptr;
  for (const vm::Function& fn : m.functions) {
    if (fn.name == "f") f = &fn;
  }
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->num_params, 2);
  ASSERT_FALSE(f->code.empty());
  EXPECT_EQ(f->code[0].op, Op::PEEK);
  EXPECT_EQ(f->code[0].b, 1) << "the stream is the last parameter";
  std::vector<int> sites;
  for (const vm::Instr& in : f->code) {
    if (in.op == Op::SITE) {
      EXPECT_EQ(in.b, f->code[0].a) << "sites read the stream's words";
      sites.push_back(in.c);
    }
  }
  EXPECT_EQ(sites, (std::vector<int>{0, 1}));
}

TEST(Lower, TensorArithmeticConsumesTemporaries) {
  // `x * 2.0` is a temporary: `+` takes it by move (x bit 0) and may reuse
  // it; `x` itself is borrowed by `*` because it is used again below.
  vm::Module m = MustCompile(
      "fn f(x: Tensor) -> Tensor = x * 2.0 + 1.0\n"
      "fn main() { let x = ones([2]); print(f(x)); print(x) }\n");
  const vm::Function* f = nullptr;
  for (const vm::Function& fn : m.functions) {
    if (fn.name == "f") f = &fn;
  }
  ASSERT_NE(f, nullptr);
  int adds = 0;
  for (const vm::Instr& in : f->code) {
    if (in.op == Op::ADD_T) {
      ++adds;
      EXPECT_EQ(in.x & 1, 1) << "the product is moved into ADD_T";
    }
    if (in.op == Op::MUL_T) {
      EXPECT_EQ(in.x & 1, 1) << "f's x is at its last use";
    }
  }
  EXPECT_EQ(adds, 1);
}

TEST(Errors, NoMain) {
  vm::Module m = MustCompile("fn helper() = 1\n");
  EXPECT_EQ(m.main, -1);
}

TEST(Lower, MainTakesArgs) {
  vm::Module m = MustCompile("fn main(args: [Str]) { print(len(args)) }\n");
  EXPECT_TRUE(m.main_takes_args);
  EXPECT_EQ(Count(m.functions[m.main], Op::LEN), 1);
}

TEST(Lower, MainTakesUnannotatedArgs) {
  vm::Module m = MustCompile("fn main(args) { print(len(args)) }\n");
  EXPECT_TRUE(m.main_takes_args);
  EXPECT_EQ(Count(m.functions[m.main], Op::LEN), 1);
}

// A dtype is its number in a plain register: compared as an Int, never
// copied into reference registers (whose RELEASE would take it for a
// pointer); inside a tuple by descriptor as before.
TEST(Lower, DTypeComparisonsInRegisters) {
  vm::Module m = MustCompile(
      "fn main() { print(i32 == i32); print(f32 != f32); print((i32, 1) == (i32, 1)) }");
  const vm::Function& f = m.functions[m.main];
  EXPECT_EQ(Count(f, Op::EQ_I), 1);
  EXPECT_EQ(Count(f, Op::NE_I), 1);
  EXPECT_EQ(Count(f, Op::EQ_V), 1);
  EXPECT_EQ(Count(f, Op::NOT), 0);
}

// An unused generic top-level let is computed at unit, which `tensor` has no
// dtype for: a diagnostic, not a call that fails at run time.
TEST(Errors, TensorOfUnitData) {
  Compiled c = CompileText("let e = tensor([])\nfn main() = print(1)\n");
  EXPECT_FALSE(c.module.ok());
  EXPECT_NE(c.diagnostics.find("error: `tensor` is not supported by `alea run` yet"),
            std::string::npos)
      << c.diagnostics;
  MustCompile("let e = tensor([])\nfn main() { let a: Tensor(i32) = e; print((a, e)) }\n");
}

}  // namespace
}  // namespace alea::compiler

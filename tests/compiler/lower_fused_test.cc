// compiler/lower_fused.cc on comparisons, `where` and transposes: which trees
// become FUSED_T, the program they get (node kinds, leaf kinds, which leaves
// are moved or transposed), and the ownership of the unfused block: `where`
// borrows, so a leaf under it is never moved and an owned one is released
// after the block.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "lang/front_end.h"
#include "vm/kernels/elementwise.h"

namespace alea::compiler {
namespace {

using vm::Op;
using Kind = vm::FusedLeaf::Kind;

vm::Module MustCompile(const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("alea_lower_fused_test_" + std::to_string(::getpid()) + ".alea"))
                               .string();
  std::ofstream(path) << text;
  lang::SourceManager sources;
  lang::Diagnostics diags;
  std::optional<lang::Program> program = lang::CheckProgram(path, sources, diags);
  absl::StatusOr<vm::Module> module = absl::InternalError("front end failed");
  if (program) module = Compile(*program, sources, diags);
  std::remove(path.c_str());
  EXPECT_TRUE(module.ok()) << lang::RenderAll(sources, diags);
  return module.ok() ? *std::move(module) : vm::Module{};
}

const vm::Function* Named(const vm::Module& m, const std::string& name) {
  for (const vm::Function& f : m.functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

int Count(const vm::Function& f, Op op) {
  int n = 0;
  for (const vm::Instr& in : f.code) n += in.op == op;
  return n;
}

// The programs of f's FUSED_Ts, in code order.
std::vector<const vm::FusedProgram*> Programs(const vm::Module& m, const vm::Function& f) {
  std::vector<const vm::FusedProgram*> out;
  for (const vm::Instr& in : f.code) {
    if (in.op == Op::FUSED_T) out.push_back(&m.fused[in.b]);
  }
  return out;
}

TEST(LowerFused, LeakyReluIsOneProgram) {
  // x is not at its last use, so each leaf `x` is a copy or a borrow.
  vm::Module m = MustCompile(
      "fn f(x: Tensor) -> Tensor = where(x > 0.0, x, x * 0.01)\n"
      "fn main() { let x = ones([3]); print(f(x)); print(x) }\n");
  const vm::Function* f = Named(m, "f");
  ASSERT_NE(f, nullptr);
  std::vector<const vm::FusedProgram*> programs = Programs(m, *f);
  ASSERT_EQ(programs.size(), 1u);
  const vm::FusedProgram& p = *programs[0];
  // Leaves x, 0.0, x, x, 0.01; nodes >, *, where.
  ASSERT_EQ(p.leaves.size(), 5u);
  EXPECT_EQ(p.leaves[0].kind, Kind::kTensor);
  EXPECT_EQ(p.leaves[1].kind, Kind::kFloat);
  EXPECT_EQ(p.leaves[2].kind, Kind::kTensor);
  EXPECT_EQ(p.leaves[3].kind, Kind::kTensor);
  EXPECT_EQ(p.leaves[4].kind, Kind::kFloat);
  EXPECT_FALSE(p.leaves[2].moved) << "`where` borrows its branch";
  ASSERT_EQ(p.nodes.size(), 3u);
  EXPECT_EQ(p.nodes[0].op, static_cast<uint8_t>(vm::kernels::BinaryOp::kGt));
  EXPECT_FALSE(p.nodes[0].where || p.nodes[0].unary);
  EXPECT_EQ(p.nodes[1].op, static_cast<uint8_t>(vm::kernels::BinaryOp::kMul));
  EXPECT_TRUE(p.nodes[2].where);
  EXPECT_EQ(p.nodes[2].a, 5);  // the comparison
  EXPECT_EQ(p.nodes[2].b, 2);  // the second leaf x
  EXPECT_EQ(p.nodes[2].c, 6);  // the product
  // The unfused block is the meaning: GT_T, MUL_T and the t_where native.
  EXPECT_EQ(Count(*f, Op::GT_T), 1);
  EXPECT_EQ(Count(*f, Op::MUL_T), 1);
}

TEST(LowerFused, BoolLeavesAndLeavesUnderWhereAreNeverMoved) {
  // x and y are at their last uses: y's is moved into MUL_T, which consumes
  // it; x's is borrowed, as t_where borrows.
  vm::Module m = MustCompile(
      "fn f(m: Tensor(bool), x: Tensor, y: Tensor) -> Tensor = where(m, x, y * 2.0)\n"
      "fn main() { print(f(tensor([true, false]), ones([2]), zeros([2]))) }\n");
  const vm::Function* f = Named(m, "f");
  ASSERT_NE(f, nullptr);
  std::vector<const vm::FusedProgram*> programs = Programs(m, *f);
  ASSERT_EQ(programs.size(), 1u);
  const vm::FusedProgram& p = *programs[0];
  ASSERT_EQ(p.leaves.size(), 4u);
  EXPECT_EQ(p.leaves[0].kind, Kind::kBool);
  EXPECT_FALSE(p.leaves[0].moved);
  EXPECT_EQ(p.leaves[1].kind, Kind::kTensor);
  EXPECT_FALSE(p.leaves[1].moved) << "`where` borrows its branch";
  EXPECT_EQ(p.leaves[2].kind, Kind::kTensor);
  EXPECT_TRUE(p.leaves[2].moved) << "y's last use goes into MUL_T";
  EXPECT_EQ(p.leaves[3].kind, Kind::kFloat);
}

TEST(LowerFused, OwnedLeavesUnderWhereAreReleasedAfterTheBlock) {
  // In `where(x > 0.0, x, x * 0.01)` the first and second `x` are copies
  // (x is read again later), the third its last use, moved into a temporary.
  // The copies under `>` and the last use under `*` are consumed by those
  // ops (moved leaves); the copy under `where` is borrowed by t_where and
  // must be released right after the block, on both paths: the RELEASEs
  // that start at the JMP's target are exactly the unmoved owned leaves.
  vm::Module m = MustCompile(
      "fn f(x: Tensor) -> Tensor {\n"
      "  let r = where(x > 0.0, x, x * 0.01);\n"
      "  r * 3.0\n"
      "}\n"
      "fn main() { print(f(ones([2]))) }\n");
  const vm::Function* f = Named(m, "f");
  ASSERT_NE(f, nullptr);
  int end = -1;
  const vm::FusedProgram* p = nullptr;
  for (size_t pc = 0; pc + 1 < f->code.size(); ++pc) {
    if (f->code[pc].op == Op::FUSED_T && p == nullptr) {
      p = &m.fused[f->code[pc].b];
      end = static_cast<int>(pc) + 2 + f->code[pc + 1].sbx();
    }
  }
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->leaves.size(), 5u);
  EXPECT_TRUE(p->leaves[0].moved);
  EXPECT_FALSE(p->leaves[2].moved);
  EXPECT_TRUE(p->leaves[3].moved);
  std::vector<int> released;
  for (int pc = end; pc < static_cast<int>(f->code.size()) && f->code[pc].op == Op::RELEASE; ++pc) {
    released.push_back(f->code[pc].a);
  }
  EXPECT_EQ(released, std::vector<int>{p->leaves[2].reg});
}

TEST(LowerFused, ATransposeLeafIsReadInPlaceAndTransposedInTheBlock) {
  // `transpose(x)` is the leaf x marked transposed (never moved: the fused
  // pass reads it while writing); one node is worth fusing for it; the
  // unfused block starts with the t_transpose the program skips, and an
  // i32 transpose stays an ordinary leaf.
  vm::Module m = MustCompile(
      "fn f(x: Tensor, y: Tensor) -> Tensor = transpose(x) * 2.0 + y\n"
      "fn g(x: Tensor) -> Tensor = exp(transpose(x))\n"
      "fn h(x: Tensor) -> Tensor = transpose(x) + transpose(x)\n"
      "fn k(x: Tensor(i32)) -> Tensor = cast(transpose(x), f32) * 2.0\n"
      "fn main() {\n"
      "  let x = ones([2, 2]);\n"
      "  print((f(x, x), g(x), h(x), k(arange(4, dtype: i32))))\n"
      "}\n");
  for (const char* name : {"f", "g", "h"}) {
    SCOPED_TRACE(name);
    const vm::Function* fn = Named(m, name);
    ASSERT_NE(fn, nullptr);
    const std::vector<const vm::FusedProgram*> programs = Programs(m, *fn);
    ASSERT_EQ(programs.size(), 1u);
    const vm::FusedProgram& p = *programs[0];
    EXPECT_TRUE(p.leaves[0].transposed);
    EXPECT_FALSE(p.leaves[0].moved);
    EXPECT_EQ(p.leaves[0].kind, Kind::kTensor);
    // The unfused block (from the JMP to its target): one t_transpose per
    // transposed leaf.
    size_t pc = 0;
    while (fn->code[pc].op != Op::FUSED_T) ++pc;
    const size_t end = pc + 2 + static_cast<size_t>(fn->code[pc + 1].sbx());
    int transposes = 0;
    for (pc += 2; pc < end; ++pc) {
      const vm::Instr& in = fn->code[pc];
      transposes += in.op == Op::CALLN && m.natives[in.b] == "t_transpose";
    }
    int expected = 0;
    for (const vm::FusedLeaf& leaf : p.leaves) expected += leaf.transposed;
    EXPECT_EQ(transposes, expected);
  }
  EXPECT_EQ(Programs(m, *Named(m, "h"))[0]->leaves.size(), 2u);
  EXPECT_TRUE(Programs(m, *Named(m, "h"))[0]->leaves[1].transposed);
  for (const vm::FusedProgram* p : Programs(m, *Named(m, "k"))) {
    for (const vm::FusedLeaf& leaf : p->leaves) EXPECT_FALSE(leaf.transposed);
  }
}

TEST(LowerFused, WhereAloneIsWorthFusingAComparisonAloneIsNot) {
  vm::Module m = MustCompile(
      "fn w(m: Tensor(bool), a: Tensor, b: Tensor) -> Tensor = where(m, a, b)\n"
      "fn c(a: Tensor, b: Tensor) -> Tensor(bool) = a < b\n"
      "fn i(a: Tensor(i32), b: Tensor(i32)) -> Tensor(i32) = where(a < b, a, b)\n"
      "fn main() {\n"
      "  let x = ones([2]);\n"
      "  print((w(x > 0.0, x, x), c(x, x), i(arange(2, dtype: i32), arange(2, dtype: i32))))\n"
      "}\n");
  ASSERT_NE(Named(m, "w"), nullptr);
  EXPECT_EQ(Count(*Named(m, "w"), Op::FUSED_T), 1);
  EXPECT_EQ(Count(*Named(m, "c"), Op::FUSED_T), 0) << "a bool result has no program";
  EXPECT_EQ(Count(*Named(m, "i"), Op::FUSED_T), 0) << "i32 is not fused";
}

TEST(LowerFused, ComparisonsOfOtherDtypesAreBoolLeaves) {
  // An i32 comparison is not a node: its result is the mask leaf.
  vm::Module m = MustCompile(
      "fn f(k: Tensor(i32), x: Tensor) -> Tensor = where(k > 1, x, -x)\n"
      "fn main() { print(f(arange(3, dtype: i32), ones([3]))) }\n");
  const vm::Function* f = Named(m, "f");
  ASSERT_NE(f, nullptr);
  std::vector<const vm::FusedProgram*> programs = Programs(m, *f);
  ASSERT_EQ(programs.size(), 1u);
  EXPECT_EQ(programs[0]->leaves[0].kind, Kind::kBool);
  EXPECT_EQ(programs[0]->nodes.size(), 2u);  // -x, where
}

TEST(LowerFused, AnObservableLeafAfterTheFirstStopsFusion) {
  // The branch `show(...)` is the third leaf: fusing would run it before the
  // comparison fails or prints, so the `where` is not fused (its product
  // still is, alone with its scalar).
  vm::Module m = MustCompile(
      "fn show(x: Tensor) -> Tensor { print(\"s\"); x }\n"
      "fn f(x: Tensor) -> Tensor = where(x < 0.0, show(x) * 2.0, x)\n"
      "fn g(x: Tensor) -> Tensor = where(show(x) < 0.0, x * 2.0, x)\n"
      "fn main() { let x = ones([2]); print((f(x), g(x))) }\n");
  const vm::Function* f = Named(m, "f");
  const vm::Function* g = Named(m, "g");
  ASSERT_NE(f, nullptr);
  ASSERT_NE(g, nullptr);
  std::vector<const vm::FusedProgram*> in_f = Programs(m, *f);
  ASSERT_EQ(in_f.size(), 1u);
  EXPECT_EQ(in_f[0]->nodes.size(), 1u) << "only `show(x) * 2.0`";
  std::vector<const vm::FusedProgram*> in_g = Programs(m, *g);
  ASSERT_EQ(in_g.size(), 1u);
  EXPECT_EQ(in_g[0]->nodes.size(), 3u) << "the first leaf may be observable";
}

}  // namespace
}  // namespace alea::compiler

namespace alea::compiler {
namespace {

// `square` and `clip` are compositions of elementwise ops, so they join the
// tree: square one MUL of its operand by itself, clip a MAX and a MIN with
// the bound first (np.clip's tie rule); the unfused block applies those
// builtins. `%` has no JIT kernel: it stays a leaf.
TEST(LowerFused, SquareIsOneMulOfOneOperand) {
  vm::Module m = MustCompile(
      "fn f(x: Tensor) -> Tensor = square(x + 1.0) * 0.5\n"
      "fn main() { print(f(ones([3]))) }\n");
  const vm::Function* f = Named(m, "f");
  ASSERT_NE(f, nullptr);
  std::vector<const vm::FusedProgram*> programs = Programs(m, *f);
  ASSERT_EQ(programs.size(), 1u);
  const vm::FusedProgram& p = *programs[0];
  ASSERT_EQ(p.leaves.size(), 3u);  // x, 1.0, 0.5
  EXPECT_TRUE(p.leaves[0].moved) << "x's last use goes into ADD_T";
  ASSERT_EQ(p.nodes.size(), 3u);  // +, square's *, *
  EXPECT_EQ(p.nodes[1].op, static_cast<uint8_t>(vm::kernels::BinaryOp::kMul));
  EXPECT_EQ(p.nodes[1].a, 3);  // the sum, twice
  EXPECT_EQ(p.nodes[1].b, 3);
  // The unfused block: ADD_T, square's MUL_T of one register (moving the sum
  // in once), MUL_T; the sum's temporary is not released again after it.
  EXPECT_EQ(Count(*f, Op::MUL_T), 2);
  for (const vm::Instr& in : f->code) {
    if (in.op == Op::MUL_T && in.b == in.c) {
      EXPECT_EQ(in.x, 1) << "one move of one reference";
    }
  }
}

TEST(LowerFused, SquareOfALeafMovesItOnce) {
  vm::Module m = MustCompile(
      "fn f(x: Tensor) -> Tensor = square(x) + 1.0\n"
      "fn main() { print(f(ones([3]))) }\n");
  const vm::Function* f = Named(m, "f");
  ASSERT_NE(f, nullptr);
  std::vector<const vm::FusedProgram*> programs = Programs(m, *f);
  ASSERT_EQ(programs.size(), 1u);
  const vm::FusedProgram& p = *programs[0];
  ASSERT_EQ(p.leaves.size(), 2u);  // x once, 1.0
  EXPECT_TRUE(p.leaves[0].moved);
  EXPECT_EQ(p.nodes[0].a, 0);
  EXPECT_EQ(p.nodes[0].b, 0);
}

TEST(LowerFused, ClipIsAMaxAndAMinWithTheBoundsFirst) {
  vm::Module m = MustCompile(
      "fn f(x: Tensor, lo: Tensor) -> Tensor = clip(x * 2.0, lo, 6.0) + 1.0\n"
      "fn main() { print(f(ones([3]), zeros([3]))) }\n");
  const vm::Function* f = Named(m, "f");
  ASSERT_NE(f, nullptr);
  std::vector<const vm::FusedProgram*> programs = Programs(m, *f);
  ASSERT_EQ(programs.size(), 1u);
  const vm::FusedProgram& p = *programs[0];
  // Leaves x, 2.0, lo, 6.0, 1.0 (evaluation order); nodes *, max, min, +.
  ASSERT_EQ(p.leaves.size(), 5u);
  EXPECT_EQ(p.leaves[2].kind, Kind::kTensor);
  EXPECT_EQ(p.leaves[3].kind, Kind::kFloat);
  ASSERT_EQ(p.nodes.size(), 4u);
  EXPECT_EQ(p.nodes[1].op, static_cast<uint8_t>(vm::kernels::BinaryOp::kMax));
  EXPECT_EQ(p.nodes[1].a, 2);  // lo
  EXPECT_EQ(p.nodes[1].b, 5);  // x * 2.0
  EXPECT_EQ(p.nodes[2].op, static_cast<uint8_t>(vm::kernels::BinaryOp::kMin));
  EXPECT_EQ(p.nodes[2].a, 3);  // 6.0
  EXPECT_EQ(p.nodes[2].b, 6);  // the max
  EXPECT_EQ(Count(*f, Op::MAX_T), 1);
  EXPECT_EQ(Count(*f, Op::MIN_T), 1);
}

TEST(LowerFused, ClipAloneFusesAndMatchesItsUnfusedCode) {
  // Two nodes are worth a pass; outside a tree (a named argument here) clip
  // is the same two typed opcodes.
  vm::Module m = MustCompile(
      "fn f(x: Tensor) -> Tensor = clip(x, 0.0, 1.0)\n"
      "fn g(x: Tensor) -> Tensor = clip(x, lo: 0.0, hi: 1.0)\n"
      "fn main() { print((f(ones([3])), g(ones([3])))) }\n");
  const vm::Function* f = Named(m, "f");
  const vm::Function* g = Named(m, "g");
  ASSERT_NE(f, nullptr);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Programs(m, *f).size(), 1u);
  EXPECT_EQ(Programs(m, *g).size(), 0u);
  EXPECT_EQ(Count(*g, Op::MAX_T), 1);
  EXPECT_EQ(Count(*g, Op::MIN_T), 1);
  EXPECT_EQ(Count(*g, Op::SCALAR_T), 2);
}

TEST(LowerFused, RemainderIsALeaf) {
  vm::Module m = MustCompile(
      "fn f(x: Tensor, y: Tensor) -> Tensor = (x % y) * 2.0 + 1.0\n"
      "fn main() { print(f(ones([3]), ones([3]))) }\n");
  const vm::Function* f = Named(m, "f");
  ASSERT_NE(f, nullptr);
  std::vector<const vm::FusedProgram*> programs = Programs(m, *f);
  ASSERT_EQ(programs.size(), 1u);
  EXPECT_EQ(programs[0]->nodes.size(), 2u);  // * and +, over the leaf x % y
  EXPECT_EQ(programs[0]->leaves[0].kind, Kind::kTensor);
  EXPECT_EQ(Count(*f, Op::REM_T), 1);
  for (const vm::FusedNode& node : programs[0]->nodes) {
    EXPECT_NE(node.op, static_cast<uint8_t>(vm::kernels::BinaryOp::kRem));
  }
}

}  // namespace
}  // namespace alea::compiler

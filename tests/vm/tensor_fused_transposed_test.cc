// vm/tensor_fused.cc RunFused with transposed leaves (FusedLeaf::transposed):
// the pass reads transpose(x) in place, a tile at a time, and must give the
// bits of the unfused block, which makes the transpose first. Random
// programs over ranks 2..4 with axes past a tile's width and height, beside
// full, row, column and scalar leaves, on one thread and on two; a
// transposed leaf's tensor never becomes the result, even when a moved leaf
// holds it; a transposed leaf that would broadcast declines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tests/vm/tensor_fused_testing.h"
#include "vm/bytecode.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/thread_pool.h"
#include "vm/value.h"

namespace alea::vm::fused_testing {
namespace {

class TensorFusedTransposed : public TensorFusedFixture {};

// Ranks 2..4; sizes around the tiles' edges (4-element register blocks, 32
// rows, 256 columns), at most 70000 elements.
Dims TransposedShape(std::mt19937& rng) {
  constexpr int64_t kSizes[] = {1, 2, 3, 4, 5, 16, 17, 31, 33, 255, 256, 257, 300, 1000};
  const int rank = 2 + static_cast<int>(rng() % 3);
  Dims shape;
  int64_t total = 1;
  for (int i = 0; i < rank; ++i) {
    int64_t d = kSizes[rng() % std::size(kSizes)];
    while (total * d > 70000) d = kSizes[rng() % 6];
    total *= d;
    shape.push_back(d);
  }
  return shape;
}

Dims Reversed(const Dims& d) { return Dims(d.rbegin(), d.rend()); }

TEST_P(TensorFusedTransposed, RandomProgramsGiveTheUnfusedBits) {
  std::mt19937 rng(GetParam() == Path::kAvx2 ? 715 : 716);
  ThreadPool pool(2);
  TensorContext threaded(heap_, jit_.get(), &pool);
  int fused = 0, with_rows = 0, with_columns = 0, threads = 0;
  for (int prog = 0; prog < 120; ++prog) {
    FusedProgram p = RandomProgram(rng);
    // Some f32 tensor leaves (at least one) read transposed, never moved.
    std::vector<size_t> f32_leaves;
    for (size_t l = 0; l < p.leaves.size(); ++l) {
      if (p.leaves[l].kind == Kind::kTensor) f32_leaves.push_back(l);
    }
    if (f32_leaves.empty()) continue;
    for (size_t l : f32_leaves) p.leaves[l].transposed = rng() % 2 == 0;
    p.leaves[f32_leaves[rng() % f32_leaves.size()]].transposed = true;
    for (FusedLeaf& leaf : p.leaves) leaf.moved = leaf.moved && !leaf.transposed;
    ASSERT_TRUE(FusedValueMasks(p).has_value());

    const Dims full = TransposedShape(rng);
    const int rank = static_cast<int>(full.size());
    const int row_axes = 1 + static_cast<int>(rng() % (rank - 1));
    std::vector<Value> regs = Regs();
    std::string shapes;
    bool has_row = false, has_column = false;
    for (const FusedLeaf& leaf : p.leaves) {
      if (leaf.kind == Kind::kInt || leaf.kind == Kind::kFloat) {
        regs[leaf.reg] = leaf.kind == Kind::kInt ? RandomInt(rng) : RandomFloatValue(rng);
        shapes += "scalar ";
        continue;
      }
      Dims shape;
      const uint32_t k = rng() % 6;
      if (leaf.transposed) {
        shape = Reversed(full);
      } else if (k < 3) {
        shape = full;
      } else if (k == 3) {
        shape.assign(rng() % 3, 1);
      } else if (k == 4) {
        has_row = true;
        shape.assign(full.end() - row_axes, full.end());
      } else {
        has_column = true;
        shape.assign(full.begin(), full.end() - row_axes);
        shape.insert(shape.end(), row_axes, 1);
      }
      if (leaf.transposed) shapes += "T";
      shapes += ShapeText(shape);
      shapes += ' ';
      regs[leaf.reg] = FromObject(leaf.kind == Kind::kBool ? Bool(shape, rng) : F32(shape, rng));
    }
    const std::string what = "program " + std::to_string(prog) + ": " + Describe(p) + "| result " +
                             ShapeText(full) + " | leaves " + shapes;
    SCOPED_TRACE(what);
    Object* expected = Reference(p, regs.data());
    ASSERT_NE(expected, nullptr);
    const bool on_threads = prog % 2 == 1;
    FusedKernelCache cache;
    Value result = kNoResult;
    const bool ran = RunFused(on_threads ? threaded : *cx_, p, cache, 1, regs.data(), &result);
    if (!ran) {
      EXPECT_TRUE(MayDecline(p)) << "declined a transposed program it handles";
    } else {
      ++fused;
      with_rows += has_row;
      with_columns += has_column;
      threads += on_threads;
      Object* out = AsObject(result);
      ExpectSameTensor(out, expected, what);
      for (const FusedLeaf& leaf : p.leaves) {
        if (leaf.transposed) {
          EXPECT_NE(regs[leaf.reg], result) << "a transposed leaf became the result";
        }
      }
      heap_.Release(out);
    }
    ReleaseTensorRegs(p, regs.data());
    heap_.Release(expected);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(fused, 60);
  EXPECT_GT(with_rows, 10);
  EXPECT_GT(with_columns, 10);
  EXPECT_GT(threads, 30);
}

// `transpose(a) + a` at a's last use: both leaves hold the same tensor, the
// second moved with one reference. Writing the sum over a would change
// elements the transposed read has not reached yet.
TEST_P(TensorFusedTransposed, AMovedLeafThatIsAlsoReadTransposedIsNotOverwritten) {
  std::mt19937 rng(3);
  FusedProgram p;
  p.leaves = {Leaf(4), Leaf(4, true)};
  p.leaves[0].transposed = true;
  p.nodes = {Bin(BinaryOp::kAdd, 0, 1), Un(UnaryOp::kNeg, 2)};
  std::vector<Value> regs = Regs();
  Object* a = F32({37, 37}, rng);
  regs[4] = FromObject(a);
  Object* expected = Reference(p, regs.data());
  FusedKernelCache cache;
  Value result = kNoResult;
  ASSERT_TRUE(RunFused(*cx_, p, cache, 1, regs.data(), &result));
  EXPECT_NE(AsObject(result), a);
  ExpectSameTensor(AsObject(result), expected, "transpose(a) + a");
  EXPECT_EQ(regs[4], Value{0}) << "the moved leaf's register is cleared (a released)";
  heap_.Release(AsObject(result));
  heap_.Release(expected);
}

// A transposed leaf is read only as the result's whole shape: as a row or
// a column of a broadcast it declines, and the unfused block runs.
TEST_P(TensorFusedTransposed, ATransposedLeafThatWouldBroadcastDeclines) {
  std::mt19937 rng(4);
  FusedProgram p;
  p.leaves = {Leaf(1), Leaf(2)};
  p.leaves[1].transposed = true;
  p.nodes = {Bin(BinaryOp::kMul, 0, 1), Un(UnaryOp::kAbs, 2)};
  std::vector<Value> regs = Regs();
  regs[1] = FromObject(F32({5, 6, 7}, rng));
  regs[2] = FromObject(F32({7, 6}, rng));  // read as [6, 7]: a row of [5, 6, 7]
  const Snapshot before = Take(p, regs.data());
  FusedKernelCache cache;
  Value result = kNoResult;
  EXPECT_FALSE(RunFused(*cx_, p, cache, 1, regs.data(), &result));
  EXPECT_EQ(result, kNoResult);
  ExpectUnchanged(p, regs.data(), before);
  ReleaseTensorRegs(p, regs.data());
}

INSTANTIATE_TEST_SUITE_P(Isas, TensorFusedTransposed, ::testing::Values(Path::kAvx2, Path::kAvx512),
                         [](const ::testing::TestParamInfo<Path>& info) {
                           return info.param == Path::kAvx2 ? std::string("Avx2")
                                                            : std::string("Avx512");
                         });

}  // namespace
}  // namespace alea::vm::fused_testing

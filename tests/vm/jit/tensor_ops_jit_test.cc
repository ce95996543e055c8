// Tensor ops (vm/tensor_ops.h) with the JIT and without it give the same
// bits: the layouts the JIT takes (contiguous, a broadcast scalar on either
// side, rows and columns a segment at a time), the ones it leaves to the reference (general
// broadcasting), and in-place reuse, on values full of NaNs, infinities and signed zeros.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "vm/heap.h"
#include "vm/jit/jit.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/thread_pool.h"

namespace alea::vm {
namespace {

using kernels::BinaryOp;
using kernels::UnaryOp;

Object* Random(Heap& heap, std::vector<int64_t> shape, uint32_t seed) {
  Object* t = heap.NewTensor(DType::kF32, shape);
  std::mt19937 rng(seed);
  constexpr uint32_t kSpecial[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                                   0x7fc00000, 0xffc12345, 0x00000001, 0x3f800000};
  float* x = ElementsOf<float>(t);
  for (int64_t i = 0; i < SizeOf(t); ++i) {
    uint32_t pick = rng() % 10;
    x[i] = pick < 8 ? std::bit_cast<float>(kSpecial[pick])
                    : std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng);
  }
  return t;
}

bool SameBytes(const Object* a, const Object* b) {
  const int64_t bytes = SizeOf(a) * ElementBytes(DTypeOf(a));
  return DTypeOf(a) == DTypeOf(b) && SizeOf(a) == SizeOf(b) &&
         std::memcmp(DataOf(a), DataOf(b), static_cast<size_t>(bytes)) == 0;
}

TEST(TensorOpsJit, SameBitsAsTheReference) {
  jit::Jit jit;
  if (!jit.available()) GTEST_SKIP() << "this CPU has no AVX2+FMA: the JIT is off";
  Heap heap(0);
  const std::vector<std::vector<int64_t>> pairs[] = {
      {{1000}, {1000}},  {{1000}, {}},           {{}, {1000}}, {{3, 333}, {1}},
      {{3, 333}, {333}}, {{2, 1, 5}, {1, 4, 5}}, {{17}, {17}}, {{1}, {1}}};
  const BinaryOp ops[] = {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul, BinaryOp::kDiv,
                          BinaryOp::kMax, BinaryOp::kMin, BinaryOp::kEq,  BinaryOp::kNe,
                          BinaryOp::kLt,  BinaryOp::kLe,  BinaryOp::kGt,  BinaryOp::kGe};
  uint32_t seed = 1;
  for (const auto& pair : pairs) {
    Object* a = Random(heap, pair[0], seed++);
    Object* b = Random(heap, pair[1], seed++);
    for (BinaryOp op : ops) {
      TensorContext with(heap, &jit), without(heap, nullptr);
      Object* x = Binary(with, op, {a, false}, {b, false});
      Object* y = Binary(without, op, {a, false}, {b, false});
      ASSERT_NE(x, nullptr);
      ASSERT_NE(y, nullptr);
      EXPECT_TRUE(SameBytes(x, y)) << kernels::Spelling(op) << " " << pair[0].size();
      heap.Release(x);
      heap.Release(y);
    }
    for (UnaryOp op :
         {UnaryOp::kNeg, UnaryOp::kAbs, UnaryOp::kSqrt, UnaryOp::kRelu, UnaryOp::kExp}) {
      TensorContext with(heap, &jit), without(heap, nullptr);
      Object* x = Unary(with, op, {a, false});
      Object* y = Unary(without, op, {a, false});
      EXPECT_TRUE(SameBytes(x, y)) << kernels::Spelling(op);
      heap.Release(x);
      heap.Release(y);
    }
    heap.Release(a);
    heap.Release(b);
  }
  EXPECT_GT(jit.stats().kernels_compiled, 0);
  EXPECT_EQ(heap.bytes_live(), 0u);
}

// A row or a column broadcast runs the JIT's contiguous kernels a segment at
// a time (SegmentLayouts): the same bits as the reference's strided walk,
// on one thread and on three, on both ISA paths.
TEST(TensorOpsJit, RowAndColumnBroadcastsRunOnTheJitWithTheSameBits) {
  Heap heap(0);
  ThreadPool pool(3);
  struct Case {
    std::vector<int64_t> a, b;
  };
  const Case cases[] = {
      {{1000, 70}, {1000, 1}},     // a - col
      {{1000, 1}, {1000, 70}},     // col - a
      {{300, 1}, {1, 70}},         // a column against a row: an outer product
      {{4, 5, 33}, {5, 1}},        // a column over the last two axes, broadcast on the first
      {{4, 5, 33}, {4, 1, 1}},     // one element per 165
      {{2, 3, 4, 17}, {3, 4, 1}},  // the column's leading axes broadcast
      {{6, 1}, {6, 3}},            // segments shorter than a vector
      {{5000, 7}, {5000, 1}},      // many short segments, split across threads
      {{200, 1024}, {1024}},       // a row (a bias), whole segments
  };
  const BinaryOp ops[] = {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kDiv,
                          BinaryOp::kMax, BinaryOp::kLt,  BinaryOp::kNe};
  uint32_t seed = 100;
  for (jit::Isa isa : {jit::Isa::kAvx2, jit::Isa::kAvx512}) {
    for (const Case& c : cases) {
      Object* a = Random(heap, c.a, seed++);
      Object* b = Random(heap, c.b, seed++);
      for (BinaryOp op : ops) {
        for (ThreadPool* threads : {static_cast<ThreadPool*>(nullptr), &pool}) {
          // A fresh Jit: that it compiled a kernel shows that the JIT ran.
          jit::Jit jit(jit::Options{.pretend_no_avx512 = isa == jit::Isa::kAvx2});
          if (!jit.available()) GTEST_SKIP() << "this CPU has no AVX2+FMA: the JIT is off";
          if (isa == jit::Isa::kAvx512 && !jit.has_avx512()) continue;
          TensorContext with(heap, &jit, threads), without(heap, nullptr);
          Object* x = Binary(with, op, {a, false}, {b, false});
          Object* y = Binary(without, op, {a, false}, {b, false});
          ASSERT_NE(x, nullptr);
          ASSERT_NE(y, nullptr);
          EXPECT_TRUE(SameBytes(x, y)) << kernels::Spelling(op) << " " << c.a.size() << " "
                                       << c.b.size() << " isa " << static_cast<int>(isa);
          EXPECT_EQ(jit.stats().kernels_compiled, 1) << "the reference ran";
          heap.Release(x);
          heap.Release(y);
        }
      }
      heap.Release(a);
      heap.Release(b);
    }
  }
  EXPECT_EQ(heap.bytes_live(), 0u);
}

// MatMulTransposed gives MatMul of the transposed tensors: on the JIT by
// reading the operand in place (no copy counted), otherwise (no JIT, a
// batch, a shape error) by making the transpose first.
TEST(TensorOpsJit, MatMulOfTransposedOperandsReadsThemInPlace) {
  jit::Jit jit;
  if (!jit.available()) GTEST_SKIP() << "this CPU has no AVX2+FMA: the JIT is off";
  Heap heap(0);
  ThreadPool pool(2);
  struct Case {
    std::vector<int64_t> x, y;
    bool x_t, y_t;
    bool in_place;  // read without a copy
  };
  const Case cases[] = {
      {{37, 50}, {41, 50}, false, true, true},      // x @ transpose(y)
      {{50, 37}, {50, 41}, true, false, true},      // transpose(x) @ y
      {{50, 37}, {41, 50}, true, true, true},       // both
      {{50}, {41, 50}, false, true, true},          // a vector times a transposed matrix
      {{41, 50}, {41}, true, false, true},          // a transposed matrix times a vector
      {{300, 200}, {310, 200}, false, true, true},  // large enough for the threads
      {{50}, {50}, true, true, false},              // vectors: transposes of themselves
      {{2, 3, 4}, {5, 4, 2}, false, true, false},   // a rank-3 transpose: the general path
  };
  for (const Case& c : cases) {
    Object* x = Random(heap, c.x, 7);
    Object* y = Random(heap, c.y, 8);
    TensorContext with(heap, &jit, &pool), without(heap, nullptr);
    const uint64_t copied = heap.bytes_copied();
    Object* got = MatMulTransposed(with, x, c.x_t, y, c.y_t);
    if (c.in_place) {
      EXPECT_EQ(heap.bytes_copied(), copied) << c.x.size() << " " << c.y.size();
    }
    Object* tx = c.x_t ? Transpose(without, x) : nullptr;
    Object* ty = c.y_t ? Transpose(without, y) : nullptr;
    Object* want = MatMul(without, tx != nullptr ? tx : x, ty != nullptr ? ty : y);
    if (want == nullptr) {
      EXPECT_EQ(got, nullptr) << "the same error";
    } else {
      ASSERT_NE(got, nullptr);
      EXPECT_EQ(std::vector<int64_t>(ShapeOf(got).begin(), ShapeOf(got).end()),
                std::vector<int64_t>(ShapeOf(want).begin(), ShapeOf(want).end()));
      EXPECT_TRUE(SameBytes(got, want)) << c.x.size() << " " << c.y.size();
      heap.Release(got);
      heap.Release(want);
    }
    for (Object* t : {x, y, tx, ty}) {
      if (t != nullptr) heap.Release(t);
    }
  }
  {
    // The shapes after the transposes must agree: the error MatMul gives.
    Object* x = Random(heap, {3, 4}, 1);
    Object* y = Random(heap, {3, 4}, 2);
    TensorContext with(heap, &jit);
    EXPECT_EQ(MatMulTransposed(with, x, true, y, true), nullptr);
    EXPECT_EQ(with.TakeError().id, RuntimeErrorId::kMatMulShapes);
    heap.Release(x);
    heap.Release(y);
  }
  EXPECT_EQ(heap.bytes_live(), 0u);
}

TEST(TensorOpsJit, InPlaceReuseWithTheJit) {
  jit::Jit jit;
  if (!jit.available()) GTEST_SKIP() << "this CPU has no AVX2+FMA: the JIT is off";
  Heap heap(0);
  Object* a = Random(heap, {4096}, 7);
  Object* expected_in = Random(heap, {4096}, 7);
  Object* b = Random(heap, {}, 8);
  TensorContext without(heap, nullptr);
  Object* expected = Binary(without, BinaryOp::kMul, {expected_in, false}, {b, false});
  TensorContext with(heap, &jit);
  Object* out = Binary(with, BinaryOp::kMul, {a, true}, {b, false});
  EXPECT_EQ(out, a) << "a uniquely owned operand is the result";
  EXPECT_TRUE(SameBytes(out, expected));
  for (Object* t : {out, expected_in, b, expected}) heap.Release(t);
  EXPECT_EQ(heap.bytes_live(), 0u);
}

}  // namespace
}  // namespace alea::vm

// ReduceTransposed (a reduction along an axis of transpose(x), read in
// place) against Reduce of the transpose made first: the same bytes, or the
// same error, for every reduction, axis and a few ranks and dtypes, with and
// without the JIT; and no copy for a matrix.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "vm/heap.h"
#include "vm/jit/jit.h"
#include "vm/kernels/reduce.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

using kernels::ReduceOp;

Object* Random(Heap& heap, DType dtype, const std::vector<int64_t>& shape, uint32_t seed) {
  Object* t = heap.NewTensor(dtype, shape);
  std::mt19937 rng(seed);
  for (int64_t i = 0; i < SizeOf(t); ++i) {
    if (dtype == DType::kF32) {
      ElementsOf<float>(t)[i] = std::uniform_real_distribution<float>(-3.0f, 3.0f)(rng);
    } else if (dtype == DType::kBool) {
      ElementsOf<uint8_t>(t)[i] = rng() % 2;
    } else {
      ElementsOf<int32_t>(t)[i] = static_cast<int32_t>(rng() % 1000) - 500;
    }
  }
  return t;
}

bool SameTensor(const Object* a, const Object* b) {
  return DTypeOf(a) == DTypeOf(b) && ShapeOf(a) == ShapeOf(b) &&
         std::memcmp(DataOf(a), DataOf(b),
                     static_cast<size_t>(SizeOf(a) * ElementBytes(DTypeOf(a)))) == 0;
}

TEST(ReduceTransposed, SameAsReducingTheTransposeMadeFirst) {
  jit::Jit jit;
  Heap heap(0);
  struct Case {
    DType dtype;
    std::vector<int64_t> shape;
    std::vector<ReduceOp> ops;
  };
  const std::vector<ReduceOp> f32_ops = {ReduceOp::kSum,    ReduceOp::kMean,     ReduceOp::kMax,
                                         ReduceOp::kMin,    ReduceOp::kProd,     ReduceOp::kArgmax,
                                         ReduceOp::kArgmin, ReduceOp::kLogSumExp};
  const Case cases[] = {
      {DType::kF32, {37, 500}, f32_ops},
      {DType::kF32, {4, 5, 6}, f32_ops},
      {DType::kF32, {2, 3, 1, 7}, f32_ops},
      {DType::kF32, {9}, f32_ops},  // a vector: its own transpose
      {DType::kI32, {30, 40}, {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kArgmin}},
      {DType::kBool, {6, 7, 8}, {ReduceOp::kAny, ReduceOp::kAll, ReduceOp::kSum}},  // sum: error
      {DType::kF32, {0, 4}, {ReduceOp::kMax, ReduceOp::kSum}},  // empty: max is an error
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    Object* x = Random(heap, c.dtype, c.shape, seed++);
    const int64_t rank = static_cast<int64_t>(c.shape.size());
    for (ReduceOp op : c.ops) {
      for (int64_t axis = -rank - 1; axis <= rank; ++axis) {
        for (jit::Jit* j : {static_cast<jit::Jit*>(nullptr), &jit}) {
          const std::string what = "op " + std::to_string(static_cast<int>(op)) + " axis " +
                                   std::to_string(axis) + " rank " + std::to_string(rank) +
                                   (j != nullptr ? " jit" : "");
          TensorContext a(heap, j), b(heap, j);
          Object* got = ReduceTransposed(a, op, x, axis);
          Object* t = Transpose(b, x);
          ASSERT_NE(t, nullptr);
          Object* want = Reduce(b, op, t, axis);
          heap.Release(t);
          if (want == nullptr) {
            ASSERT_EQ(got, nullptr) << what;
            const RuntimeError e = a.TakeError(), f = b.TakeError();
            EXPECT_EQ(e.id, f.id) << what;
            EXPECT_EQ(e.message, f.message) << what;
            continue;
          }
          ASSERT_NE(got, nullptr) << what;
          EXPECT_TRUE(SameTensor(got, want)) << what;
          heap.Release(got);
          heap.Release(want);
        }
      }
    }
    heap.Release(x);
  }
  EXPECT_EQ(heap.bytes_live(), 0u);
}

TEST(ReduceTransposed, AMatrixIsNotCopied) {
  Heap heap(0);
  Object* x = Random(heap, DType::kF32, {300, 400}, 5);
  TensorContext cx(heap);
  const uint64_t before = heap.bytes_copied();
  for (int64_t axis : {0, 1, -1}) {
    Object* r = ReduceTransposed(cx, ReduceOp::kSum, x, axis);
    ASSERT_NE(r, nullptr);
    heap.Release(r);
  }
  EXPECT_EQ(heap.bytes_copied(), before);
  heap.Release(x);
}

}  // namespace
}  // namespace alea::vm

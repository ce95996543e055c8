// The scatter reference kernels (vm/kernels/scatter.h): each form against a
// literal loop, repeated indices in index order (f32 sums whose order shows),
// broadcast values, bool bytes, the i32 overflow stop and u32 wrapping.
#include "vm/kernels/scatter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace alea::vm::kernels {
namespace {

// x[o, idx[j], k] op= v[o, j, k], written as plainly as possible.
template <typename E>
std::vector<E> SpecScatter(ScatterOp op, int64_t outer, int64_t n, int64_t inner, std::vector<E> x,
                           const std::vector<int32_t>& idx, const std::vector<E>& v) {
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t j = 0; j < idx.size(); ++j) {
      for (int64_t k = 0; k < inner; ++k) {
        E& e = x[(o * n + idx[j]) * inner + k];
        const E value = v[(o * idx.size() + j) * inner + k];
        e = op == ScatterOp::kSet ? value : static_cast<E>(e + value);
      }
    }
  }
  return x;
}

TEST(Scatter, AxisFormMatchesTheLiteralLoop) {
  std::mt19937 rng(7);
  for (ScatterOp op : {ScatterOp::kSet, ScatterOp::kAdd}) {
    for (int64_t inner : {1, 3, 17}) {
      for (int64_t outer : {1, 2}) {
        const int64_t n = 5;
        std::vector<float> x(outer * n * inner);
        for (float& e : x) e = static_cast<float>(rng() % 1000) / 7.0f;
        std::vector<int32_t> idx(9);  // more than n: repeats
        for (int32_t& i : idx) i = static_cast<int32_t>(rng() % n);
        std::vector<float> v(outer * idx.size() * inner);
        for (float& e : v) e = static_cast<float>(rng() % 1000) / 3.0f;
        std::vector<float> got = x;
        ScatterFault fault;
        EXPECT_EQ(ScatterAxis(op, DType::kF32, outer, n, inner, got.data(), idx.data(), idx.size(),
                              {v.data(), false}, &fault),
                  KernelStatus::kOk);
        EXPECT_EQ(got, SpecScatter(op, outer, n, inner, x, idx, v))
            << "inner " << inner << " outer " << outer;
      }
    }
  }
}

TEST(Scatter, RepeatedAddsAccumulateInIndexOrder) {
  // 1 + 2^-24 + 2^-24 rounds back to 1 twice in that order; adding the two
  // small values first would give 1 + 2^-23.
  std::vector<float> x = {1.0f};
  const std::vector<int32_t> idx = {0, 0};
  const float tiny = std::ldexp(1.0f, -24);
  const std::vector<float> v = {tiny, tiny};
  ScatterFault fault;
  ASSERT_EQ(ScatterAxis(ScatterOp::kAdd, DType::kF32, 1, 1, 1, x.data(), idx.data(), 2,
                        {v.data(), false}, &fault),
            KernelStatus::kOk);
  EXPECT_EQ(x[0], 1.0f);
  // A repeated `set` keeps the last value.
  std::vector<int32_t> y = {0, 0};
  const std::vector<int32_t> w = {4, 9};
  ASSERT_EQ(ScatterAxis(ScatterOp::kSet, DType::kI32, 1, 2, 1, y.data(), idx.data(), 2,
                        {w.data(), false}, &fault),
            KernelStatus::kOk);
  EXPECT_EQ(y, (std::vector<int32_t>{9, 0}));
}

TEST(Scatter, OneValueIsBroadcastToEveryTarget) {
  std::vector<uint32_t> x(12, 1);  // [2, 3, 2]; position 1 along the middle
  const uint32_t seven = 7;
  ScatterFault fault;
  ASSERT_EQ(ScatterOne(ScatterOp::kAdd, DType::kU32, 2, 3, 2, x.data(), 1, {&seven, true}, &fault),
            KernelStatus::kOk);
  EXPECT_EQ(x, (std::vector<uint32_t>{1, 1, 8, 8, 1, 1, 1, 1, 8, 8, 1, 1}));
}

TEST(Scatter, OneTakesAFullRowOfValues) {
  std::vector<int32_t> x(6, 0);  // [3, 2]: row 2
  const std::vector<int32_t> row = {5, 6};
  ScatterFault fault;
  ASSERT_EQ(
      ScatterOne(ScatterOp::kSet, DType::kI32, 1, 3, 2, x.data(), 2, {row.data(), false}, &fault),
      KernelStatus::kOk);
  EXPECT_EQ(x, (std::vector<int32_t>{0, 0, 0, 0, 5, 6}));
}

TEST(Scatter, MaskTakesTheValuesInRowMajorOrder) {
  std::vector<float> x = {1, 2, 3, 4, 5};
  const std::vector<uint8_t> mask = {0, 1, 0, 1, 1};
  const std::vector<float> v = {10, 20, 30};
  ScatterFault fault;
  ASSERT_EQ(ScatterMask(ScatterOp::kAdd, DType::kF32, 5, x.data(), mask.data(), {v.data(), false},
                        &fault),
            KernelStatus::kOk);
  EXPECT_EQ(x, (std::vector<float>{1, 12, 3, 24, 35}));
  const float zero = 0.0f;
  ASSERT_EQ(
      ScatterMask(ScatterOp::kSet, DType::kF32, 5, x.data(), mask.data(), {&zero, true}, &fault),
      KernelStatus::kOk);
  EXPECT_EQ(x, (std::vector<float>{1, 0, 3, 0, 0}));
}

TEST(Scatter, BoolElementsAreBytes) {
  std::vector<uint8_t> x = {0, 0, 0, 0};
  const std::vector<int32_t> idx = {3, 1};
  const uint8_t yes = 1;
  ScatterFault fault;
  ASSERT_EQ(ScatterAxis(ScatterOp::kSet, DType::kBool, 1, 4, 1, x.data(), idx.data(), 2,
                        {&yes, true}, &fault),
            KernelStatus::kOk);
  EXPECT_EQ(x, (std::vector<uint8_t>{0, 1, 0, 1}));
}

TEST(Scatter, I32OverflowStopsAtTheFirstElementInOrder) {
  std::vector<int32_t> x = {0, std::numeric_limits<int32_t>::max() - 1, 5};
  const std::vector<int32_t> idx = {2, 1, 1, 0};
  const std::vector<int32_t> v = {1, 1, 1, 1};
  ScatterFault fault;
  EXPECT_EQ(ScatterAxis(ScatterOp::kAdd, DType::kI32, 1, 3, 1, x.data(), idx.data(), 4,
                        {v.data(), false}, &fault),
            KernelStatus::kOverflow);
  EXPECT_EQ(fault.at, 1);
  EXPECT_EQ(fault.old_value, std::numeric_limits<int32_t>::max());
  EXPECT_EQ(fault.added, 1);
  // Written up to the failing step, not including it.
  EXPECT_EQ(x, (std::vector<int32_t>{0, std::numeric_limits<int32_t>::max(), 6}));
  // Downwards too.
  std::vector<int32_t> y = {std::numeric_limits<int32_t>::min()};
  const int32_t minus_one = -1;
  EXPECT_EQ(
      ScatterOne(ScatterOp::kAdd, DType::kI32, 1, 1, 1, y.data(), 0, {&minus_one, true}, &fault),
      KernelStatus::kOverflow);
}

TEST(Scatter, U32Wraps) {
  std::vector<uint32_t> x = {std::numeric_limits<uint32_t>::max()};
  const uint32_t two = 2;
  ScatterFault fault;
  EXPECT_EQ(ScatterOne(ScatterOp::kAdd, DType::kU32, 1, 1, 1, x.data(), 0, {&two, true}, &fault),
            KernelStatus::kOk);
  EXPECT_EQ(x[0], 1u);
}

TEST(Scatter, FirstIndexOutOfRange) {
  const std::vector<int32_t> idx = {0, 2, 3, -1};
  EXPECT_EQ(FirstIndexOutOfRange(idx.data(), 4, 3), 2);
  EXPECT_EQ(FirstIndexOutOfRange(idx.data(), 2, 3), -1);
  // A negative index never wraps to a valid one, even against a huge axis.
  EXPECT_EQ(FirstIndexOutOfRange(idx.data() + 3, 1, int64_t{1} << 40), 0);
  EXPECT_EQ(FirstIndexOutOfRange(nullptr, 0, 0), -1);
}

TEST(Scatter, EmptyShapesWriteNothing) {
  ScatterFault fault;
  const float one = 1.0f;
  EXPECT_EQ(
      ScatterAxis(ScatterOp::kAdd, DType::kF32, 0, 3, 4, nullptr, nullptr, 2, {&one, true}, &fault),
      KernelStatus::kOk);
  EXPECT_EQ(ScatterOne(ScatterOp::kSet, DType::kF32, 2, 3, 0, nullptr, 1, {&one, true}, &fault),
            KernelStatus::kOk);
  EXPECT_EQ(ScatterMask(ScatterOp::kSet, DType::kF32, 0, nullptr, nullptr, {&one, true}, &fault),
            KernelStatus::kOk);
}

}  // namespace
}  // namespace alea::vm::kernels

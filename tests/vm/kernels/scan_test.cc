// The cumsum reference kernel (vm/kernels/scan.h): NumPy's sequential f32
// order (not pairwise, not reduce.h's lanes), every axis layout, u32
// wrapping and the first i32 overflow in row-major order.
#include "vm/kernels/scan.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "vm/dtype.h"

namespace alea::vm::kernels {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<uint32_t> Bits(const std::vector<float>& v) {
  std::vector<uint32_t> b;
  for (float f : v) b.push_back(std::bit_cast<uint32_t>(f));
  return b;
}

TEST(CumSum, F32AddsInIndexOrderOneRoundingPerStep) {
  std::mt19937 rng(3);
  std::normal_distribution<float> normal(0.0f, 1000.0f);
  std::vector<float> x(1000);
  for (float& v : x) v = normal(rng);
  std::vector<float> want(x.size()), got(x.size());
  float acc = 0.0f;
  for (size_t i = 0; i < x.size(); ++i) want[i] = acc = (i == 0 ? x[0] : acc + x[i]);
  EXPECT_EQ(CumSum(DType::kF32, 1, 1000, 1, x.data(), got.data()), -1);
  EXPECT_EQ(Bits(got), Bits(want));
  // 1 + 2^-24 + 2^-24: sequential rounds each step back to 1, a pairwise or
  // reassociated order would keep 2^-23.
  const std::vector<float> tiny = {1.0f, 0x1p-24f, 0x1p-24f};
  std::vector<float> out(3);
  CumSum(DType::kF32, 1, 3, 1, tiny.data(), out.data());
  EXPECT_EQ(out[2], 1.0f);
}

TEST(CumSum, F32SignedZerosAndNaN) {
  const std::vector<float> x = {-0.0f, -0.0f, 0.0f, kNaN, 1.0f};
  std::vector<float> out(5);
  CumSum(DType::kF32, 1, 5, 1, x.data(), out.data());
  EXPECT_TRUE(std::signbit(out[0]));
  EXPECT_TRUE(std::signbit(out[1]));  // -0 + -0
  EXPECT_FALSE(std::signbit(out[2]));
  EXPECT_TRUE(std::isnan(out[3]));
  EXPECT_TRUE(std::isnan(out[4]));
}

TEST(CumSum, AlongEachAxisOfA3dTensor) {
  // [2, 3, 4] of 0..23; each axis as [outer, n, inner].
  std::vector<int32_t> x(24);
  for (int i = 0; i < 24; ++i) x[i] = i;
  const int64_t shape[3] = {2, 3, 4};
  for (int axis = 0; axis < 3; ++axis) {
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= shape[d];
    for (int d = axis + 1; d < 3; ++d) inner *= shape[d];
    const int64_t n = shape[axis];
    std::vector<int32_t> got(24), want(24);
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t k = 0; k < inner; ++k) {
        int32_t acc = 0;
        for (int64_t i = 0; i < n; ++i) {
          const int64_t at = (o * n + i) * inner + k;
          want[at] = acc += x[at];
        }
      }
    }
    EXPECT_EQ(CumSum(DType::kI32, outer, n, inner, x.data(), got.data()), -1);
    EXPECT_EQ(got, want) << "axis " << axis;
  }
}

TEST(CumSum, U32Wraps) {
  const std::vector<uint32_t> x = {0xffffffffu, 2, 3};
  std::vector<uint32_t> out(3);
  EXPECT_EQ(CumSum(DType::kU32, 1, 3, 1, x.data(), out.data()), -1);
  EXPECT_EQ(out, (std::vector<uint32_t>{0xffffffffu, 1, 4}));
}

TEST(CumSum, I32OverflowStopsAtTheFirstInRowMajorOrder) {
  const int32_t max = std::numeric_limits<int32_t>::max();
  const int32_t min = std::numeric_limits<int32_t>::min();
  std::vector<int32_t> out(4);
  EXPECT_EQ(CumSum(DType::kI32, 1, 3, 1, std::vector<int32_t>{max, 0, 1}.data(), out.data()), 2);
  EXPECT_EQ(out[1], max);
  EXPECT_EQ(CumSum(DType::kI32, 1, 2, 1, std::vector<int32_t>{min, -1}.data(), out.data()), 1);
  // The extremes themselves are fine.
  EXPECT_EQ(
      CumSum(DType::kI32, 1, 3, 1, std::vector<int32_t>{max, min, min + 1}.data(), out.data()), -1);
  EXPECT_EQ(out[2], min);
  // [2, 2] along axis 0: (1, 0) and (1, 1) both overflow; (1, 0) is first.
  const std::vector<int32_t> m = {max, max, 1, 1};
  EXPECT_EQ(CumSum(DType::kI32, 1, 2, 2, m.data(), out.data()), 2);
}

TEST(CumSum, EmptyAxesWriteNothing) {
  EXPECT_EQ(CumSum(DType::kF32, 3, 0, 2, nullptr, nullptr), -1);
  EXPECT_EQ(CumSum(DType::kI32, 0, 5, 2, nullptr, nullptr), -1);
}

}  // namespace
}  // namespace alea::vm::kernels

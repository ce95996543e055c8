// Checks of the matmul reference kernel (vm/kernels/matmul.h) against a naive
// triple loop with the header's FMA chain, bit for bit; an input on which the
// FMA chain and a multiply-then-add loop differ (so the FMA is observable);
// integer wrap cross-checked with NumPy 1.24.
#include "vm/kernels/matmul.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vm/dtype.h"

namespace alea::vm::kernels {
namespace {

uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }

std::vector<uint32_t> BitsOf(const std::vector<float>& v) {
  std::vector<uint32_t> out;
  for (float x : v) out.push_back(Bits(x));
  return out;
}

std::vector<float> NaiveFma(int64_t m, int64_t k, int64_t n, const std::vector<float>& a,
                            const std::vector<float>& b) {
  std::vector<float> out(m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t kk = 0; kk < k; ++kk) acc = std::fma(a[i * k + kk], b[kk * n + j], acc);
      out[i * n + j] = acc;
    }
  }
  return out;
}

std::vector<float> NaiveMulAdd(int64_t m, int64_t k, int64_t n, const std::vector<float>& a,
                               const std::vector<float>& b) {
  std::vector<float> out(m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t kk = 0; kk < k; ++kk) {
        const float product = a[i * k + kk] * b[kk * n + j];  // rounded (-ffp-contract=off)
        acc = acc + product;
      }
      out[i * n + j] = acc;
    }
  }
  return out;
}

std::vector<float> Random(std::mt19937& rng, int64_t count) {
  std::vector<float> v(count);
  for (float& x : v) {
    const float unit = static_cast<float>(rng() >> 8) * 0x1p-24f;
    x = std::ldexp(unit - 0.5f, static_cast<int>(rng() % 9) - 4);
  }
  return v;
}

std::vector<float> RunF32(int64_t m, int64_t k, int64_t n, const std::vector<float>& a,
                          const std::vector<float>& b) {
  std::vector<float> out(m * n, 99.0f);
  MatMul(DType::kF32, m, k, n, a.data(), b.data(), out.data());
  return out;
}

TEST(MatMulF32, MatchesNaiveFmaChain) {
  struct Dims {
    int64_t m, k, n;
  };
  const Dims kDims[] = {{1, 1, 1},     {2, 3, 4},    {5, 7, 3},    {17, 33, 9},
                        {64, 128, 70}, {3, 2, 1500}, {1, 1000, 1}, {9, 1, 2050}};
  std::mt19937 rng(8);
  int differs_from_mul_add = 0;
  for (const Dims& d : kDims) {
    SCOPED_TRACE(absl::StrCat(d.m, "x", d.k, " @ ", d.k, "x", d.n));
    const std::vector<float> a = Random(rng, d.m * d.k), b = Random(rng, d.k * d.n);
    const std::vector<float> got = RunF32(d.m, d.k, d.n, a, b);
    EXPECT_EQ(BitsOf(got), BitsOf(NaiveFma(d.m, d.k, d.n, a, b)));
    if (BitsOf(got) != BitsOf(NaiveMulAdd(d.m, d.k, d.n, a, b))) ++differs_from_mul_add;
  }
  EXPECT_GT(differs_from_mul_add, 0);
}

TEST(MatMulF32, FmaIsObservable) {
  // x = 1 + 2^-12: x * x = 1 + 2^-11 + 2^-24 rounds (a tie, to even) to
  // 1 + 2^-11, so [1, x] @ [-1, x]^T is 2^-11 + 2^-24 with one rounding per
  // step and 2^-11 with a rounded product.
  const float x = 1.0f + 0x1p-12f;
  const std::vector<float> a = {1.0f, x}, b = {-1.0f, x};
  EXPECT_EQ(RunF32(1, 2, 1, a, b)[0], 0x1p-11f + 0x1p-24f);
  EXPECT_EQ(NaiveMulAdd(1, 2, 1, a, b)[0], 0x1p-11f);
  // The chain runs over ascending k from +0.0: reversing k loses the 2^-24.
  const std::vector<float> ar = {x, 1.0f}, br = {x, -1.0f};
  EXPECT_EQ(RunF32(1, 2, 1, ar, br)[0], 0x1p-11f);
}

TEST(MatMulF32, ZeroSizes) {
  // k == 0: every output is +0.0 (the accumulator's start).
  std::vector<float> out(12, 99.0f);
  MatMul(DType::kF32, 3, 0, 4, nullptr, nullptr, out.data());
  EXPECT_EQ(BitsOf(out), std::vector<uint32_t>(12, 0u));
  // m == 0 or n == 0: nothing to write.
  std::vector<float> untouched(2, 99.0f);
  const std::vector<float> a(6, 1.0f);
  MatMul(DType::kF32, 0, 3, 2, a.data(), a.data(), untouched.data());
  MatMul(DType::kF32, 2, 3, 0, a.data(), a.data(), untouched.data());
  EXPECT_EQ(untouched, std::vector<float>(2, 99.0f));
  // Products of -0.0 add to the +0.0 start: +0.0.
  const std::vector<float> neg = {-0.0f, -0.0f}, pos = {1.0f, 1.0f};
  EXPECT_EQ(Bits(RunF32(1, 2, 1, neg, pos)[0]), 0u);
  // NaN and infinities propagate as IEEE says.
  const std::vector<float> inf = {INFINITY, 0.0f}, z = {0.0f, 1.0f};
  EXPECT_TRUE(std::isnan(RunF32(1, 2, 1, inf, z)[0]));
}

TEST(MatMulIntegers, WrapLikeNumPy) {
  // NumPy: int32 [[2^31-1, 2], [3, -2^31]] @ [[2, 1], [1, 65536]]
  // -> [[0, -2147352577], [-2147483642, 3]].
  const int32_t a[] = {2147483647, 2, 3, -2147483647 - 1};
  const int32_t b[] = {2, 1, 1, 65536};
  std::vector<int32_t> out(4);
  MatMul(DType::kI32, 2, 2, 2, a, b, out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{0, -2147352577, -2147483642, 3}));
  // uint32 [[4e9, 3], [5, 7]] @ [[2, 1], [3, 4e9]]
  // -> [[3705032713, 3115098112], [31, 2230196229]].
  const uint32_t c[] = {4000000000u, 3, 5, 7};
  const uint32_t d[] = {2, 1, 3, 4000000000u};
  std::vector<uint32_t> uout(4);
  MatMul(DType::kU32, 2, 2, 2, c, d, uout.data());
  EXPECT_EQ(uout, (std::vector<uint32_t>{3705032713u, 3115098112u, 31, 2230196229u}));
  std::vector<int32_t> zeros(6, 5);
  MatMul(DType::kI32, 2, 0, 3, nullptr, nullptr, zeros.data());
  EXPECT_EQ(zeros, std::vector<int32_t>(6, 0));
}

TEST(MatMulIntegers, MatchesNaiveModulo2To32) {
  std::mt19937 rng(21);
  const int64_t m = 13, k = 37, n = 1100;
  std::vector<int32_t> a(m * k), b(k * n);
  for (int32_t& x : a) x = static_cast<int32_t>(rng());
  for (int32_t& x : b) x = static_cast<int32_t>(rng());
  std::vector<int32_t> got(m * n);
  MatMul(DType::kI32, m, k, n, a.data(), b.data(), got.data());
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      uint64_t acc = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        acc += static_cast<uint64_t>(static_cast<int64_t>(a[i * k + kk]) * b[kk * n + j]);
      }
      ASSERT_EQ(got[i * n + j], static_cast<int32_t>(static_cast<uint32_t>(acc))) << i << "," << j;
    }
  }
}

}  // namespace
}  // namespace alea::vm::kernels

// The linear algebra reference kernels (vm/kernels/linalg.h): exact small
// cases, residuals of random well-conditioned systems at sizes around the
// block edges, the pivots that fail, the triangle that is never read, and
// the same bits whatever blocks of rows the products are split into.
#include "vm/kernels/linalg.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "vm/dtype.h"
#include "vm/kernels/matmul.h"

namespace alea::vm::kernels {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
const int64_t kSizes[] = {0, 1, 2, 5, 16, 31, 32, 33, 47, 64, 65, 100, 129, 200};

void Reference(int64_t m, int64_t k, int64_t n, const float* a, const float* b, float* out) {
  MatMul(DType::kF32, m, k, n, a, b, out);
}

// Products split into blocks of 7 rows, as threads split them.
void Rows7(int64_t m, int64_t k, int64_t n, const float* a, const float* b, float* out) {
  for (int64_t i = 0; i < m; i += 7) {
    MatMul(DType::kF32, std::min<int64_t>(7, m - i), k, n, a + i * k, b, out + i * n);
  }
}

std::vector<uint32_t> Bits(const std::vector<float>& v) {
  std::vector<uint32_t> b;
  for (float f : v) b.push_back(std::bit_cast<uint32_t>(f));
  return b;
}

std::vector<float> Random(int64_t rows, int64_t cols, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> x(static_cast<size_t>(rows * cols));
  for (float& v : x) v = normal(rng);
  return x;
}

// x x^T / n + I: symmetric positive definite, condition number below ~5.
std::vector<float> Spd(int64_t n, uint32_t seed) {
  const std::vector<float> x = Random(n, n, seed);
  std::vector<float> a(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < n; ++p) s += double{x[i * n + p]} * x[j * n + p];
      a[i * n + j] = static_cast<float>(s / static_cast<double>(n) + (i == j ? 1.0 : 0.0));
    }
  }
  return a;
}

// max |a @ x - b| over max |b| (rows of n, k columns), in double.
double Residual(int64_t n, const std::vector<float>& a, const std::vector<float>& x,
                const std::vector<float>& b, int64_t k) {
  double worst = 0, scale = 1e-30;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < k; ++j) {
      double s = 0;
      for (int64_t p = 0; p < n; ++p) s += double{a[i * n + p]} * x[p * k + j];
      worst = std::max(worst, std::fabs(s - b[i * k + j]));
      scale = std::max(scale, std::fabs(double{b[i * k + j]}));
    }
  }
  return worst / scale;
}

TEST(Cholesky, SmallExactCase) {
  const std::vector<float> a = {4, 2, 2, 5};
  std::vector<float> l(4);
  EXPECT_EQ(Cholesky(2, a.data(), l.data(), Reference).index, -1);
  EXPECT_EQ(l, (std::vector<float>{2, 0, 1, 2}));
}

TEST(Cholesky, RandomSpdReconstructs) {
  for (int64_t n : kSizes) {
    SCOPED_TRACE(n);
    const std::vector<float> a = Spd(n, static_cast<uint32_t>(n) + 1);
    std::vector<float> l(a.size()), l2(a.size());
    ASSERT_EQ(Cholesky(n, a.data(), l.data(), Reference).index, -1);
    double worst = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        if (j > i) {
          EXPECT_EQ(std::bit_cast<uint32_t>(l[i * n + j]), 0u);  // +0.0 above
        }
        double s = 0;
        for (int64_t p = 0; p < n; ++p) s += double{l[i * n + p]} * l[j * n + p];
        worst = std::max(worst, std::fabs(s - a[i * n + j]));
      }
    }
    EXPECT_LT(worst, 1e-5 * std::max<double>(1, static_cast<double>(n)));
    // Another split of the products: the same bits.
    ASSERT_EQ(Cholesky(n, a.data(), l2.data(), Rows7).index, -1);
    EXPECT_EQ(Bits(l), Bits(l2));
  }
}

TEST(Cholesky, ReadsOnlyTheLowerTriangle) {
  const int64_t n = 70;
  std::vector<float> a = Spd(n, 9), l(a.size()), l2(a.size());
  ASSERT_EQ(Cholesky(n, a.data(), l.data(), Reference).index, -1);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i + 1; j < n; ++j) a[i * n + j] = kNaN;
  }
  ASSERT_EQ(Cholesky(n, a.data(), l2.data(), Reference).index, -1);
  EXPECT_EQ(Bits(l), Bits(l2));
}

TEST(Cholesky, NamesTheFirstPivotThatIsNotPositive) {
  const std::vector<float> a = {1, 2, 2, 1};  // pivot 1: 1 - 2 * 2
  std::vector<float> l(4);
  BadPivot bad = Cholesky(2, a.data(), l.data(), Reference);
  EXPECT_EQ(bad.index, 1);
  EXPECT_EQ(bad.value, -3.0f);
  const std::vector<float> zero = {0, 0, 0, 1};
  bad = Cholesky(2, zero.data(), l.data(), Reference);
  EXPECT_EQ(bad.index, 0);
  EXPECT_EQ(bad.value, 0.0f);
  const std::vector<float> nan = {1, 0, 0, kNaN};
  bad = Cholesky(2, nan.data(), l.data(), Reference);
  EXPECT_EQ(bad.index, 1);
  EXPECT_TRUE(std::isnan(bad.value));
  // Past the first blocks: a large SPD matrix with one bad diagonal element.
  const int64_t n = 150;
  std::vector<float> big = Spd(n, 4), lb(big.size());
  big[140 * n + 140] = -1.0f;
  bad = Cholesky(n, big.data(), lb.data(), Reference);
  EXPECT_EQ(bad.index, 140);
  EXPECT_LT(bad.value, 0.0f);
}

TEST(Lu, SolvesRandomSystems) {
  for (int64_t n : kSizes) {
    for (int64_t k : {1, 3, 40}) {
      SCOPED_TRACE(testing::Message() << n << " x " << k);
      // Random Gaussian matrices need pivoting; their conditioning is fine.
      const std::vector<float> a = Random(n, n, static_cast<uint32_t>(n * 10 + k));
      const std::vector<float> b = Random(n, k, static_cast<uint32_t>(n * 10 + k + 5));
      std::vector<float> lu = a, x = b;
      std::vector<int64_t> swaps(static_cast<size_t>(n));
      ASSERT_EQ(LuFactor(n, lu.data(), swaps.data(), Reference).index, -1);
      LuSolve(n, lu.data(), swaps.data(), k, x.data(), Reference);
      if (n > 0) {
        EXPECT_LT(Residual(n, a, x, b, k), 2e-3);
      }
      std::vector<float> lu2 = a, x2 = b;
      std::vector<int64_t> swaps2(static_cast<size_t>(n));
      LuFactor(n, lu2.data(), swaps2.data(), Rows7);
      LuSolve(n, lu2.data(), swaps2.data(), k, x2.data(), Rows7);
      EXPECT_EQ(Bits(lu), Bits(lu2));
      EXPECT_EQ(Bits(x), Bits(x2));
    }
  }
}

TEST(Lu, PivotsOnTheFirstLargest) {
  // Column 0: |-3| and |3| tie; the first (row 1) is taken.
  std::vector<float> a = {1, 2, -3, 4, 3, 5, 0, 1, 1};
  std::vector<int64_t> swaps(3);
  ASSERT_EQ(LuFactor(3, a.data(), swaps.data(), Reference).index, -1);
  EXPECT_EQ(swaps[0], 1);
}

TEST(Lu, DeterminantSignAndSingular) {
  std::vector<float> perm = {0, 1, 0, 1, 0, 0, 0, 0, 1};  // one swap
  std::vector<int64_t> swaps(3);
  BadPivot zero = LuFactor(3, perm.data(), swaps.data(), Reference);
  EXPECT_EQ(LuDeterminant(3, perm.data(), swaps.data(), zero.index >= 0), -1.0f);
  std::vector<float> tri = {2, 5, 7, 0, 3, 8, 0, 0, 0.5f};  // upper triangular: 3
  zero = LuFactor(3, tri.data(), swaps.data(), Reference);
  EXPECT_EQ(LuDeterminant(3, tri.data(), swaps.data(), zero.index >= 0), 3.0f);
  std::vector<float> singular = {1, 2, 3, 2, 4, 6, 1, 0, 1};  // row 1 = 2 row 0
  zero = LuFactor(3, singular.data(), swaps.data(), Reference);
  EXPECT_EQ(zero.index, 2);
  EXPECT_EQ(std::bit_cast<uint32_t>(LuDeterminant(3, singular.data(), swaps.data(), true)), 0u);
  EXPECT_EQ(LuDeterminant(0, nullptr, nullptr, false), 1.0f);
  // Zero columns: the first zero pivot is column 0, and the rest goes on.
  std::vector<float> zeros(4, 0.0f);
  std::vector<int64_t> s2(2);
  EXPECT_EQ(LuFactor(2, zeros.data(), s2.data(), Reference).index, 0);
  EXPECT_EQ(zeros, std::vector<float>(4, 0.0f));
}

TEST(Lu, SolveDetInvAreLuOfACopy) {
  const int64_t n = 90;
  const std::vector<float> a = Random(n, n, 77);
  const std::vector<float> b = Random(n, 2, 78);
  std::vector<float> lu = a, x = b, x2 = b, inverse(a.size());
  std::vector<int64_t> swaps(n);
  const BadPivot zero = LuFactor(n, lu.data(), swaps.data(), Reference);
  ASSERT_EQ(zero.index, -1);
  LuSolve(n, lu.data(), swaps.data(), 2, x.data(), Reference);
  EXPECT_EQ(Solve(n, a.data(), 2, x2.data(), Reference).index, -1);
  EXPECT_EQ(Bits(x), Bits(x2));
  EXPECT_EQ(Det(n, a.data(), Reference), LuDeterminant(n, lu.data(), swaps.data(), false));
  ASSERT_EQ(Inv(n, a.data(), inverse.data(), Reference).index, -1);
  std::vector<float> eye(a.size(), 0.0f);
  for (int64_t i = 0; i < n; ++i) eye[i * n + i] = 1.0f;
  EXPECT_LT(Residual(n, a, inverse, eye, n), 1e-3);
  const std::vector<float> singular = {1, 2, 2, 4};
  std::vector<float> out(4, 7.0f);
  EXPECT_EQ(Inv(2, singular.data(), out.data(), Reference).index, 1);
  EXPECT_EQ(Det(2, singular.data(), Reference), 0.0f);
}

TEST(SolveTriangular, BothTrianglesReadOnlyTheirOwn) {
  for (int64_t n : kSizes) {
    for (bool lower : {true, false}) {
      for (int64_t k : {1, 5, 64}) {
        SCOPED_TRACE(testing::Message() << n << (lower ? " lower " : " upper ") << k);
        std::vector<float> t = Random(n, n, static_cast<uint32_t>(n + k));
        // A dominant diagonal keeps the triangle well conditioned.
        for (int64_t i = 0; i < n; ++i) t[i * n + i] = 4.0f + std::fabs(t[i * n + i]);
        std::vector<float> clean = t;  // the other triangle zero
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            if (lower ? j > i : j < i) clean[i * n + j] = 0, t[i * n + j] = kNaN;
          }
        }
        const std::vector<float> b = Random(n, k, static_cast<uint32_t>(n + k + 1));
        std::vector<float> x = b, x2 = b;
        ASSERT_EQ(SolveTriangular(n, t.data(), lower, k, x.data(), Reference).index, -1);
        if (n > 0) {
          EXPECT_LT(Residual(n, clean, x, b, k), 1e-4);
        }
        ASSERT_EQ(SolveTriangular(n, clean.data(), lower, k, x2.data(), Rows7).index, -1);
        EXPECT_EQ(Bits(x), Bits(x2));
      }
    }
  }
}

TEST(SolveTriangular, ZeroDiagonalChangesNothing) {
  const std::vector<float> t = {1, 0, 0, 2, 0, 0, 3, 4, 5};
  std::vector<float> b = {1, 2, 3};
  const BadPivot bad = SolveTriangular(3, t.data(), true, 1, b.data(), Reference);
  EXPECT_EQ(bad.index, 1);
  EXPECT_EQ(b, (std::vector<float>{1, 2, 3}));
}

}  // namespace
}  // namespace alea::vm::kernels

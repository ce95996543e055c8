// The Householder QR reference kernel (vm/kernels/qr.h): a classic exact
// case, LAPACK's signs on R's diagonal, Q R = A with orthonormal Q and
// upper triangular R on random square and tall matrices, columns already
// zero below the diagonal, rank deficiency, and empty shapes.
#include "vm/kernels/qr.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace alea::vm::kernels {
namespace {

struct Factors {
  std::vector<float> q, r;
};

Factors Qr(int64_t m, int64_t n, const std::vector<float>& a) {
  Factors f{std::vector<float>(static_cast<size_t>(m * n)),
            std::vector<float>(static_cast<size_t>(n * n))};
  HouseholderQr(m, n, a.data(), f.q.data(), f.r.data());
  return f;
}

// max |Q^T Q - I|, max |Q R - A| / (1 + max |A|), and R's largest element
// below its diagonal (which must be exactly 0).
struct Residuals {
  double orthogonality = 0, reconstruction = 0, below = 0;
};

Residuals Check(int64_t m, int64_t n, const std::vector<float>& a, const Factors& f) {
  Residuals res;
  double scale = 1;
  for (float x : a) scale = std::max(scale, 1 + std::fabs(double{x}));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double dot = 0;
      for (int64_t t = 0; t < m; ++t) dot += double{f.q[t * n + i]} * f.q[t * n + j];
      res.orthogonality = std::max(res.orthogonality, std::fabs(dot - (i == j ? 1 : 0)));
      if (j < i) res.below = std::max(res.below, std::fabs(double{f.r[i * n + j]}));
    }
  }
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t t = 0; t < n; ++t) s += double{f.q[i * n + t]} * f.r[t * n + j];
      res.reconstruction = std::max(res.reconstruction, std::fabs(s - a[i * n + j]) / scale);
    }
  }
  return res;
}

TEST(HouseholderQr, ClassicExample) {
  // A = QR with R's diagonal 14, 175, 35 up to sign (the textbook example).
  const std::vector<float> a = {12, -51, 4, 6, 167, -68, -4, 24, -41};
  const Factors f = Qr(3, 3, a);
  // LAPACK's convention: beta = -copysign(norm, alpha). Column 0 has alpha
  // = 12 > 0, so R[0][0] = -14; the other two follow from the reflection.
  EXPECT_NEAR(f.r[0], -14.0f, 1e-5);
  EXPECT_NEAR(std::fabs(f.r[4]), 175.0f, 1e-4);
  EXPECT_NEAR(std::fabs(f.r[8]), 35.0f, 1e-4);
  EXPECT_NEAR(std::fabs(f.q[0]), 6.0f / 7, 1e-6);
  EXPECT_NEAR(std::fabs(f.q[3]), 3.0f / 7, 1e-6);
  EXPECT_NEAR(std::fabs(f.q[6]), 2.0f / 7, 1e-6);
  const Residuals res = Check(3, 3, a, f);
  EXPECT_LT(res.orthogonality, 2e-7);
  EXPECT_LT(res.reconstruction, 1e-6);
  EXPECT_EQ(res.below, 0.0);
}

TEST(HouseholderQr, RandomSquareAndTall) {
  std::mt19937 rng(3);
  std::normal_distribution<float> normal;
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1},
                      {2, 2},
                      {5, 5},
                      {16, 16},
                      {40, 40},
                      {7, 3},
                      {100, 10},
                      {9, 1}}) {
    SCOPED_TRACE(testing::Message() << m << " x " << n);
    std::vector<float> a(static_cast<size_t>(m * n));
    for (float& x : a) x = normal(rng);
    const Factors f = Qr(m, n, a);
    const Residuals res = Check(m, n, a, f);
    // Double arithmetic, one f32 rounding per element: about an f32 ulp.
    EXPECT_LT(res.orthogonality, 3e-7 * std::sqrt(static_cast<double>(m)));
    EXPECT_LT(res.reconstruction, 3e-7 * std::sqrt(static_cast<double>(m)));
    EXPECT_EQ(res.below, 0.0);
  }
}

TEST(HouseholderQr, ColumnsAlreadyReducedAndRankDeficient) {
  // Upper triangular already: no reflection, so Q = I and R = A, negative
  // diagonal elements included.
  const std::vector<float> upper = {-2, 1, 3, 0, 4, -1, 0, 0, -5};
  const Factors f = Qr(3, 3, upper);
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      EXPECT_EQ(f.q[i * 3 + j], i == j ? 1.0f : 0.0f);
      EXPECT_EQ(f.r[i * 3 + j], upper[i * 3 + j]);
    }
  }
  // Two equal columns: R's second diagonal element is (about) 0, and Q is
  // still orthonormal.
  const std::vector<float> twin = {1, 1, 2, 2, 3, 3, 4, 4};
  const Factors g = Qr(4, 2, twin);
  EXPECT_LT(std::fabs(g.r[3]), 1e-6);
  const Residuals res = Check(4, 2, twin, g);
  EXPECT_LT(res.orthogonality, 1e-6);
  EXPECT_LT(res.reconstruction, 1e-6);
}

TEST(HouseholderQr, EmptyShapes) {
  Factors none = Qr(0, 0, {});
  EXPECT_TRUE(none.q.empty());
  const Factors zero_columns = Qr(3, 0, {});
  EXPECT_TRUE(zero_columns.r.empty());
}

}  // namespace
}  // namespace alea::vm::kernels

// The discrete and multivariate samplers draw from the right distributions:
// sample moments against the exact ones, within 6 standard errors, and
// chi-square goodness of fit against the exact pmf, at a significance of
// 1e-6, on 10^5-10^6 draws each. Every draw comes from a fixed key, so a
// run is deterministic: these thresholds cannot flake, and a failure means
// a real change in what is drawn.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "vm/random/choice.h"
#include "vm/random/discrete.h"
#include "vm/random/keys.h"
#include "vm/random/multivariate.h"

namespace alea::vm::random {
namespace {

constexpr double kSigmas = 6.0;

// The chi-square value with `df` degrees of freedom exceeded with
// probability 1e-6 (Wilson and Hilferty's approximation, good to a few
// percent from df = 1 up).
double ChiSquareCritical(int df) {
  constexpr double z = 4.753424;  // the normal's upper 1e-6 point
  const double a = 2.0 / (9.0 * df);
  return df * std::pow(1.0 - a + z * std::sqrt(a), 3);
}

struct Moments {
  double mean = 0, var = 0, m4 = 0;
};

template <typename T>
Moments MomentsOf(const std::vector<T>& xs) {
  Moments m;
  const auto n = static_cast<double>(xs.size());
  for (T x : xs) m.mean += static_cast<double>(x);
  m.mean /= n;
  for (T x : xs) {
    const double d = static_cast<double>(x) - m.mean;
    m.var += d * d;
    m.m4 += d * d * d * d;
  }
  m.var /= n - 1;
  m.m4 /= n;
  return m;
}

// Mean and variance against the exact ones: the mean's standard error from
// the exact variance, the variance's from the sample's fourth moment.
template <typename T>
void ExpectMoments(const std::vector<T>& xs, double mean, double var) {
  const Moments m = MomentsOf(xs);
  const auto n = static_cast<double>(xs.size());
  EXPECT_NEAR(m.mean, mean, kSigmas * std::sqrt(var / n)) << "mean";
  EXPECT_NEAR(m.var, var, kSigmas * std::sqrt(std::max(m.m4 - var * var, 1e-12) / n)) << "variance";
}

// Chi-square of integer draws against pmf(k), k = 0, 1, ...: consecutive
// values merged into bins of at least 20 expected draws, the upper tail in
// the last bin. Draws outside the support fail.
template <typename T>
void ExpectFit(const std::vector<T>& xs, const std::function<double(int64_t)>& pmf,
               int64_t min_value = 0) {
  const auto n = static_cast<double>(xs.size());
  int64_t top = min_value;
  for (T x : xs) {
    ASSERT_GE(static_cast<double>(x), static_cast<double>(min_value));
    ASSERT_EQ(static_cast<double>(x), std::floor(static_cast<double>(x)));
    top = std::max(top, static_cast<int64_t>(x));
  }
  std::vector<double> observed(static_cast<size_t>(top - min_value + 1));
  for (T x : xs) observed[static_cast<size_t>(static_cast<int64_t>(x) - min_value)] += 1;
  double chi2 = 0, bin_expected = 0, bin_observed = 0, covered = 0;
  int bins = 0;
  for (int64_t k = min_value; k <= top; ++k) {
    const double p = pmf(k);
    bin_expected += n * p;
    covered += p;
    bin_observed += observed[static_cast<size_t>(k - min_value)];
    if (bin_expected >= 20 && n * (1 - covered) >= 20) {
      chi2 += (bin_observed - bin_expected) * (bin_observed - bin_expected) / bin_expected;
      ++bins;
      bin_expected = bin_observed = 0;
    }
  }
  // The tail: everything not binned yet, against the rest of the mass.
  bin_expected = n * (1 - covered) + bin_expected;
  if (bin_expected > 0) {
    chi2 += (bin_observed - bin_expected) * (bin_observed - bin_expected) / bin_expected;
    ++bins;
  }
  ASSERT_GE(bins, 2);
  EXPECT_LT(chi2, ChiSquareCritical(bins - 1)) << bins << " bins";
}

double PoissonPmf(double lam, int64_t k) {
  return std::exp(static_cast<double>(k) * std::log(lam) - lam - std::lgamma(k + 1.0));
}

double BinomialPmf(double n, double p, int64_t k) {
  if (k > n) return 0;
  const double kk = static_cast<double>(k);
  if (p == 1) return k == n ? 1 : 0;
  return std::exp(std::lgamma(n + 1) - std::lgamma(kk + 1) - std::lgamma(n - kk + 1) +
                  kk * std::log(p) + (n - kk) * std::log1p(-p));
}

TEST(DiscreteStatistics, Poisson) {
  for (float lam : {0.7f, 3.0f, 9.5f, 10.0f, 25.0f, 250.0f}) {
    SCOPED_TRACE(lam);
    std::vector<int32_t> xs(200000);
    Poisson(Key{0, 1}, lam, 0, xs.size(), xs.data());
    ExpectMoments(xs, lam, lam);
    ExpectFit(xs, [lam](int64_t k) { return PoissonPmf(lam, k); });
  }
}

TEST(DiscreteStatistics, PoissonScalar) {
  for (float lam : {2.0f, 40.0f}) {
    SCOPED_TRACE(lam);
    std::vector<int64_t> xs(40000);
    for (uint32_t i = 0; i < xs.size(); ++i) xs[i] = PoissonScalar(FoldInKey(Key{0, 2}, i), lam);
    ExpectMoments(xs, lam, lam);
    ExpectFit(xs, [lam](int64_t k) { return PoissonPmf(lam, k); });
  }
}

TEST(DiscreteStatistics, Binomial) {
  // Inversion (n q <= 10, both sides of p = 0.5) and BTRS, n fractional too.
  const std::pair<float, float> cases[] = {{10, 0.3f},  {20, 0.7f},   {7.9f, 0.45f}, {200, 0.04f},
                                           {100, 0.5f}, {1000, 0.2f}, {50, 0.95f},   {400, 0.6f}};
  for (auto [n, p] : cases) {
    SCOPED_TRACE(testing::Message() << n << " " << p);
    const double trials = std::floor(n), q = p;  // p is exact in f32 as given
    std::vector<float> xs(200000);
    Binomial(Key{0, 3}, n, p, 0, xs.size(), xs.data());
    ExpectMoments(xs, trials * q, trials * q * (1 - q));
    ExpectFit(xs, [trials, q](int64_t k) { return BinomialPmf(trials, q, k); });
  }
}

TEST(DiscreteStatistics, BinomialScalar) {
  for (auto [n, p] : {std::pair{12.0, 0.25}, {300.0, 0.35}, {60.0, 0.9}}) {
    SCOPED_TRACE(testing::Message() << n << " " << p);
    std::vector<double> xs(40000);
    for (uint32_t i = 0; i < xs.size(); ++i) xs[i] = BinomialScalar(FoldInKey(Key{0, 4}, i), n, p);
    ExpectMoments(xs, n * p, n * p * (1 - p));
    ExpectFit(xs, [n = n, p = p](int64_t k) { return BinomialPmf(n, p, k); });
  }
}

TEST(DiscreteStatistics, Geometric) {
  for (float p : {0.5f, 0.1f, 0.01f}) {
    SCOPED_TRACE(p);
    const double q = p;
    std::vector<int32_t> xs(200000);
    Geometric(Key{0, 5}, p, 0, xs.size(), xs.data());
    ExpectMoments(xs, 1 / q, (1 - q) / (q * q));
    ExpectFit(
        xs, [q](int64_t k) { return q * std::pow(1 - q, static_cast<double>(k - 1)); }, 1);
  }
  std::vector<int64_t> xs(40000);
  for (uint32_t i = 0; i < xs.size(); ++i) xs[i] = GeometricScalar(FoldInKey(Key{0, 6}, i), 0.3);
  ExpectMoments(xs, 1 / 0.3, 0.7 / 0.09);
  ExpectFit(
      xs, [](int64_t k) { return 0.3 * std::pow(0.7, static_cast<double>(k - 1)); }, 1);
}

// Category frequencies of choice by weights, with replacement (inverse CDF)
// and as the first pick without (Gumbel top-k): both proportional to p.
TEST(DiscreteStatistics, ChoiceByWeights) {
  const std::vector<float> p = {0.5f, 0.0f, 1.5f, 0.25f, 2.0f, 0.75f};
  const double total = 5.0;
  const auto n = static_cast<int64_t>(p.size());
  std::vector<float> cum(p.size());
  CumulativeSum(p.data(), n, cum.data());
  std::vector<int32_t> xs(300000);
  ChoiceByWeights(Key{0, 7}, cum.data(), n, 0, xs.size(), xs.data());
  EXPECT_EQ(std::count(xs.begin(), xs.end(), 1), 0) << "a class of weight 0 was drawn";
  ExpectFit(xs, [&](int64_t k) { return k < n ? p[static_cast<size_t>(k)] / total : 0.0; });
  std::vector<int32_t> first(60000);
  for (uint32_t i = 0; i < first.size(); ++i) {
    ChoiceTopK(FoldInKey(Key{0, 8}, i), p.data(), n, 1, &first[i]);
  }
  ExpectFit(first, [&](int64_t k) { return k < n ? p[static_cast<size_t>(k)] / total : 0.0; });
  // All of them without replacement: the positive weights first, then the
  // zero, each once.
  std::vector<int32_t> all(p.size());
  ChoiceTopK(Key{0, 9}, p.data(), n, n, all.data());
  EXPECT_EQ(all.back(), 1);
  std::vector<int32_t> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(sorted[static_cast<size_t>(i)], i);
}

TEST(DiscreteStatistics, Multinomial) {
  const std::vector<float> p = {0.2f, 0.3f, 0.0f, 0.5f};
  const int64_t classes = 4;
  const float n = 30;
  std::vector<float> ratios(p.size());
  MultinomialRatios(p.data(), classes, ratios.data());
  const uint64_t rows = 100000;
  std::vector<float> counts(rows * classes);
  Multinomial(Key{0, 10}, n, ratios.data(), classes, 0, rows, counts.data());
  for (uint64_t b = 0; b < rows; ++b) {
    float sum = 0;
    for (int64_t j = 0; j < classes; ++j) sum += counts[b * classes + j];
    ASSERT_EQ(sum, n) << "row " << b;
    ASSERT_EQ(counts[b * classes + 2], 0.0f) << "row " << b;
  }
  for (int64_t j = 0; j < classes; ++j) {
    SCOPED_TRACE(j);
    std::vector<float> column(rows);
    for (uint64_t b = 0; b < rows; ++b) column[b] = counts[b * classes + j];
    const double pj = p[static_cast<size_t>(j)];
    ExpectMoments(column, n * pj, n * pj * (1 - pj));
    if (pj > 0) ExpectFit(column, [&](int64_t k) { return BinomialPmf(n, pj, k); });
  }
  // Counts compete: cov(x0, x1) = -n p0 p1.
  double cov = 0;
  for (uint64_t b = 0; b < rows; ++b) {
    cov += (counts[b * classes] - n * 0.2) * (counts[b * classes + 1] - n * 0.3);
  }
  cov /= static_cast<double>(rows);
  const double se = std::sqrt(n * 0.2 * 0.8 * n * 0.3 * 0.7 / static_cast<double>(rows)) * 2;
  EXPECT_NEAR(cov, -n * 0.2 * 0.3, kSigmas * se);
}

TEST(DiscreteStatistics, MultivariateNormalCovariance) {
  constexpr int64_t n = 3;
  const float mean[n] = {1.0f, -2.0f, 0.5f};
  const double sigma[n][n] = {{2.0, 0.3, -0.4}, {0.3, 1.0, 0.2}, {-0.4, 0.2, 0.5}};
  float cov[n * n], lt[n * n];
  for (int64_t i = 0; i < n * n; ++i) cov[i] = static_cast<float>(sigma[i / n][i % n]);
  ASSERT_LT(CovarianceFactor(n, cov, lt).index, 0);
  const uint64_t rows = 200000;
  std::vector<float> x(rows * n);
  MultivariateNormal(Key{0, 12}, mean, lt, n, 0, rows, x.data());
  const auto count = static_cast<double>(rows);
  double m[n] = {};
  for (uint64_t b = 0; b < rows; ++b) {
    for (int64_t i = 0; i < n; ++i) m[i] += x[b * n + i];
  }
  for (int64_t i = 0; i < n; ++i) {
    m[i] /= count;
    EXPECT_NEAR(m[i], mean[i], kSigmas * std::sqrt(sigma[i][i] / count)) << "mean " << i;
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double c = 0;
      for (uint64_t b = 0; b < rows; ++b) c += (x[b * n + i] - m[i]) * (x[b * n + j] - m[j]);
      c /= count - 1;
      // The sample covariance of a normal pair: variance (s_ii s_jj + s_ij^2) / N.
      const double se = std::sqrt((sigma[i][i] * sigma[j][j] + sigma[i][j] * sigma[i][j]) / count);
      EXPECT_NEAR(c, sigma[i][j], kSigmas * se) << "cov " << i << " " << j;
    }
  }
}

TEST(DiscreteStatistics, OrthogonalIsOrthogonalAndHaar) {
  for (int64_t n : {1, 2, 3, 8, 33}) {
    SCOPED_TRACE(n);
    const uint64_t count = 20;
    std::vector<float> q(count * static_cast<uint64_t>(n * n));
    Orthogonal(Key{0, 13}, n, 0, count, q.data());
    for (uint64_t b = 0; b < count; ++b) {
      const float* m = q.data() + b * static_cast<uint64_t>(n * n);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double dot = 0;
          for (int64_t t = 0; t < n; ++t) dot += double{m[t * n + i]} * m[t * n + j];
          ASSERT_NEAR(dot, i == j ? 1.0 : 0.0, 2e-6) << "matrix " << b << " " << i << " " << j;
        }
      }
    }
  }
  // Uniform on O(3): each entry has mean 0 and mean square 1/3 (an entry of
  // a uniform unit vector; its square is Beta(1/2, 1), variance 4/45), and
  // the determinant is -1 half the time.
  const uint64_t count = 30000;
  std::vector<float> q(count * 9);
  Orthogonal(Key{0, 14}, 3, 0, count, q.data());
  const auto total = static_cast<double>(count);
  int negative = 0;
  for (int e = 0; e < 9; ++e) {
    double s = 0, s2 = 0;
    for (uint64_t b = 0; b < count; ++b) {
      const double v = q[b * 9 + e];
      s += v;
      s2 += v * v;
    }
    EXPECT_NEAR(s / total, 0.0, kSigmas * std::sqrt(1.0 / 3 / total)) << "entry " << e;
    EXPECT_NEAR(s2 / total, 1.0 / 3, kSigmas * std::sqrt(4.0 / 45 / total)) << "entry " << e;
  }
  for (uint64_t b = 0; b < count; ++b) {
    const float* m = q.data() + b * 9;
    const double det = m[0] * (double{m[4]} * m[8] - double{m[5]} * m[7]) -
                       m[1] * (double{m[3]} * m[8] - double{m[5]} * m[6]) +
                       m[2] * (double{m[3]} * m[7] - double{m[4]} * m[6]);
    ASSERT_NEAR(std::fabs(det), 1.0, 1e-5);
    negative += det < 0;
  }
  EXPECT_NEAR(negative / total, 0.5, kSigmas * 0.5 / std::sqrt(total));
}

}  // namespace
}  // namespace alea::vm::random

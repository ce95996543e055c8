// The gamma family's distributions, checked as distributions: for each
// sampler of vm/random/gamma.h, tensor (f32) and scalar (double) forms, the
// mean and variance of 10^5 to 2 * 10^5 draws against the exact ones (within
// 6 standard errors) and the Kolmogorov-Smirnov distance to the exact CDF
// (below its critical value at significance 10^-6). The keys are fixed, so
// every run draws the same numbers: a test passes or fails for good, and the
// thresholds only say how unlikely a pass would be for a wrong sampler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vm/random/gamma.h"
#include "vm/random/keys.h"

namespace alea::vm::random {
namespace {

constexpr uint64_t kTensorDraws = 200000;
constexpr uint64_t kScalarDraws = 100000;

// ---- exact CDFs (double, C library's lgamma) ----

// The regularized lower incomplete gamma P(a, x), given x and log(x) (so that
// an x that underflows, e^y for a loggamma draw y, still has its log): the
// series below a + 1, Lentz's continued fraction for Q above.
double GammaP(double a, double x, double log_x) {
  if (!(x > 0.0)) return 0.0;
  if (std::isinf(x)) return 1.0;
  const double prefix = a * log_x - x - std::lgamma(a);
  if (x < a + 1.0) {
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 100000 && std::fabs(term) > std::fabs(sum) * 1e-17; ++n) {
      term *= x / (a + n);
      sum += term;
    }
    return std::exp(prefix) * sum;
  }
  const double tiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-16) break;
  }
  return 1.0 - std::exp(prefix) * h;
}

double GammaP(double a, double x) { return GammaP(a, x, std::log(x)); }

// The continued fraction of the regularized incomplete beta (Lentz).
double BetaFraction(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m < 100000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-16) break;
  }
  return h;
}

// The regularized incomplete beta I_x(a, b).
double BetaI(double a, double b, double x) {
  if (!(x > 0.0)) return 0.0;
  if (x >= 1.0) return 1.0;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(log_front) * BetaFraction(a, b, x) / a;
  return 1.0 - std::exp(log_front) * BetaFraction(b, a, 1.0 - x) / b;
}

double StudentTCdf(double df, double x) {
  const double tail = 0.5 * BetaI(df / 2.0, 0.5, df / (df + x * x));
  return x < 0.0 ? tail : 1.0 - tail;
}

double FCdf(double d1, double d2, double x) {
  if (!(x > 0.0)) return 0.0;
  return BetaI(d1 / 2.0, d2 / 2.0, d1 * x / (d1 * x + d2));
}

// Density proportional to exp(-|x|^p): |X|^p is Gamma(1/p, 1).
double GeneralizedNormalCdf(double p, double x) {
  const double half = 0.5 * GammaP(1.0 / p, std::pow(std::fabs(x), p));
  return x < 0.0 ? 0.5 - half : 0.5 + half;
}

// ---- the checks ----

// The Kolmogorov-Smirnov distance of the sample to `cdf`, below the
// asymptotic critical value sqrt(ln(2 / alpha) / 2n) at alpha = 10^-6.
void ExpectKolmogorovSmirnov(std::vector<double> xs, const std::function<double(double)>& cdf,
                             const std::string& what) {
  std::sort(xs.begin(), xs.end());
  const double n = static_cast<double>(xs.size());
  double distance = 0.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double f = cdf(xs[i]);
    distance =
        std::max({distance, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  const double critical = std::sqrt(std::log(2.0 / 1e-6) / (2.0 * n));
  EXPECT_LT(distance, critical) << what << ": KS distance over " << xs.size() << " draws";
}

// Sample mean within 6 standard errors of `mean` (sqrt(variance / n)), and
// sample variance within 6 standard errors of `variance` (the error
// estimated from the sample's fourth central moment).
void ExpectMoments(const std::vector<double>& xs, double mean, double variance,
                   const std::string& what) {
  const double n = static_cast<double>(xs.size());
  double m = 0.0;
  for (double x : xs) m += x;
  m /= n;
  double m2 = 0.0, m4 = 0.0;
  for (double x : xs) {
    const double d2 = (x - m) * (x - m);
    m2 += d2;
    m4 += d2 * d2;
  }
  m2 /= n - 1.0;
  m4 /= n;
  EXPECT_LE(std::fabs(m - mean), 6.0 * std::sqrt(variance / n))
      << what << ": mean " << m << ", exact " << mean;
  EXPECT_LE(std::fabs(m2 - variance), 6.0 * std::sqrt(std::max(m4 - m2 * m2, 0.0) / n))
      << what << ": variance " << m2 << ", exact " << variance;
}

using TensorDraw = std::function<void(Key, uint64_t start, uint64_t count, float* out)>;
using ScalarDraw = std::function<double(Key)>;

std::vector<double> Tensor(const TensorDraw& draw, uint64_t seed, uint64_t n = kTensorDraws) {
  std::vector<float> out(n);
  draw(KeyFromSeed(static_cast<int64_t>(seed)).key, 0, n, out.data());
  return std::vector<double>(out.begin(), out.end());
}

// Scalar draws from n keys: fold_in(key(seed), i).
std::vector<double> Scalars(const ScalarDraw& draw, uint64_t seed, uint64_t n = kScalarDraws) {
  const Key base = KeyFromSeed(static_cast<int64_t>(seed)).key;
  std::vector<double> out(n);
  for (uint64_t i = 0; i < n; ++i) out[i] = draw(FoldInKey(base, static_cast<uint32_t>(i)));
  return out;
}

// Both forms of one distribution, checked the same way.
void ExpectDistribution(const std::string& name, const TensorDraw& tensor, const ScalarDraw& scalar,
                        const std::function<double(double)>& cdf, bool moments, double mean,
                        double variance) {
  const std::vector<double> t = Tensor(tensor, 11);
  ExpectKolmogorovSmirnov(t, cdf, name + " tensor");
  if (moments) ExpectMoments(t, mean, variance, name + " tensor");
  const std::vector<double> s = Scalars(scalar, 12);
  ExpectKolmogorovSmirnov(s, cdf, name + " scalar");
  if (moments) ExpectMoments(s, mean, variance, name + " scalar");
}

TEST(GammaFamilyStatistics, Gamma) {
  // 0.3 and 1.0 take the boost u^(1/a); 2.0 and 7.5 do not.
  for (double a : {0.3, 1.0, 2.0, 7.5}) {
    ExpectDistribution(
        "gamma(" + std::to_string(a) + ")",
        [a](Key k, uint64_t s, uint64_t n, float* out) { Gamma(k, a, s, n, out); },
        [a](Key k) { return GammaScalar(k, a); }, [a](double x) { return GammaP(a, x); }, true, a,
        a);
  }
}

TEST(GammaFamilyStatistics, LogGamma) {
  // A gamma(0.01) draw is below 1e-38 (0 in f32) 40% of the time; its log
  // is not.
  for (double a : {0.01, 0.5, 3.0}) {
    ExpectDistribution(
        "loggamma(" + std::to_string(a) + ")",
        [a](Key k, uint64_t s, uint64_t n, float* out) { LogGamma(k, a, s, n, out); },
        [a](Key k) { return LogGammaScalar(k, a); },
        [a](double y) { return GammaP(a, std::exp(y), y); }, false, 0.0, 0.0);
  }
}

TEST(GammaFamilyStatistics, ChiSquare) {
  for (double df : {1.0, 4.0}) {
    ExpectDistribution(
        "chisquare(" + std::to_string(df) + ")",
        [df](Key k, uint64_t s, uint64_t n, float* out) { ChiSquare(k, df, s, n, out); },
        [df](Key k) { return ChiSquareScalar(k, df); },
        [df](double x) { return GammaP(df / 2.0, x / 2.0); }, true, df, 2.0 * df);
  }
}

TEST(GammaFamilyStatistics, F) {
  for (auto [d1, d2] : {std::pair{5.0, 10.0}, std::pair{10.0, 20.0}}) {
    // The variance needs d2 > 4; its error estimate, a finite 8th moment.
    const bool moments = d2 > 16.0;
    const double mean = d2 / (d2 - 2.0);
    const double variance =
        2.0 * d2 * d2 * (d1 + d2 - 2.0) / (d1 * (d2 - 2.0) * (d2 - 2.0) * (d2 - 4.0));
    ExpectDistribution(
        "f(" + std::to_string(d1) + ", " + std::to_string(d2) + ")",
        [d1 = d1, d2 = d2](Key k, uint64_t s, uint64_t n, float* out) {
          FDist(k, d1, d2, s, n, out);
        },
        [d1 = d1, d2 = d2](Key k) { return FDistScalar(k, d1, d2); },
        [d1 = d1, d2 = d2](double x) { return FCdf(d1, d2, x); }, moments, mean, variance);
  }
}

TEST(GammaFamilyStatistics, StudentT) {
  // df 1 is Cauchy: no moments.
  for (double df : {1.0, 10.0}) {
    ExpectDistribution(
        "t(" + std::to_string(df) + ")",
        [df](Key k, uint64_t s, uint64_t n, float* out) { StudentT(k, df, s, n, out); },
        [df](Key k) { return StudentTScalar(k, df); },
        [df](double x) { return StudentTCdf(df, x); }, df > 8.0, 0.0, df / (df - 2.0));
  }
}

TEST(GammaFamilyStatistics, Beta) {
  for (auto [a, b] : {std::pair{2.0, 5.0}, std::pair{0.5, 0.5}, std::pair{0.2, 3.0}}) {
    const double mean = a / (a + b);
    const double variance = a * b / ((a + b) * (a + b) * (a + b + 1.0));
    ExpectDistribution(
        "beta(" + std::to_string(a) + ", " + std::to_string(b) + ")",
        [a = a, b = b](Key k, uint64_t s, uint64_t n, float* out) { Beta(k, a, b, s, n, out); },
        [a = a, b = b](Key k) { return BetaScalar(k, a, b); },
        [a = a, b = b](double x) { return BetaI(a, b, x); }, true, mean, variance);
  }
}

TEST(GammaFamilyStatistics, GeneralizedNormal) {
  for (double p : {0.5, 1.0, 2.0, 4.0}) {
    const double variance = std::tgamma(3.0 / p) / std::tgamma(1.0 / p);
    ExpectDistribution(
        "generalized_normal(" + std::to_string(p) + ")",
        [p](Key k, uint64_t s, uint64_t n, float* out) { GeneralizedNormal(k, p, s, n, out); },
        [p](Key k) { return GeneralizedNormalScalar(k, p); },
        [p](double x) { return GeneralizedNormalCdf(p, x); }, true, 0.0, variance);
  }
}

// Each component of a Dirichlet(alpha) vector is Beta(alpha_i, sum - alpha_i),
// and the components sum to 1.
TEST(GammaFamilyStatistics, Dirichlet) {
  const std::vector<float> alpha = {0.5f, 2.0f, 3.5f};
  const double total = 6.0;
  const uint64_t rows = 100000, n = alpha.size();
  std::vector<float> out(rows * n);
  Dirichlet(KeyFromSeed(13).key, alpha.data(), 1, n, 0, rows, out.data());
  for (uint64_t r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (uint64_t j = 0; j < n; ++j) sum += out[r * n + j];
    ASSERT_NEAR(sum, 1.0, 1e-6) << "row " << r;
  }
  for (uint64_t j = 0; j < n; ++j) {
    const double a = alpha[j], b = total - alpha[j];
    std::vector<double> xs(rows);
    for (uint64_t r = 0; r < rows; ++r) xs[r] = out[r * n + j];
    const std::string what = "dirichlet component " + std::to_string(j);
    ExpectKolmogorovSmirnov(
        xs, [a = a, b = b](double x) { return BetaI(a, b, x); }, what);
    ExpectMoments(xs, a / total, a * b / (total * total * (total + 1.0)), what);
  }
}

// Uniform in the unit Lp ball of dimension d: the Lp norm has CDF r^d, and
// each coordinate is symmetric about 0 (for p = 2, of a known law).
TEST(GammaFamilyStatistics, Ball) {
  for (auto [d, p] : {std::pair{uint64_t{2}, 2.0}, std::pair{uint64_t{3}, 1.0},
                      std::pair{uint64_t{5}, 0.5}, std::pair{uint64_t{4}, 3.0}}) {
    const uint64_t rows = 100000;
    std::vector<float> out(rows * d);
    Ball(KeyFromSeed(14).key, d, p, 0, rows, out.data());
    std::vector<double> norms(rows), first(rows);
    for (uint64_t r = 0; r < rows; ++r) {
      double sum = 0.0;
      for (uint64_t j = 0; j < d; ++j) sum += std::pow(std::fabs(out[r * d + j]), p);
      norms[r] = std::pow(sum, 1.0 / p);
      first[r] = out[r * d];
    }
    const std::string what = "ball(" + std::to_string(d) + ", " + std::to_string(p) + ")";
    ExpectKolmogorovSmirnov(
        norms, [d = d](double r) { return r <= 0.0   ? 0.0
                                          : r >= 1.0 ? 1.0
                                                     : std::pow(r, d); },
        what + " norm");
    const double dd = static_cast<double>(d);
    ExpectMoments(norms, dd / (dd + 1.0), dd / ((dd + 1.0) * (dd + 1.0) * (dd + 2.0)),
                  what + " norm");
    if (p == 2.0) {
      // A coordinate x of the Euclidean ball has density (1 - x^2)^((d-1)/2):
      // (x + 1) / 2 is Beta((d + 1) / 2, (d + 1) / 2).
      const double h = (dd + 1.0) / 2.0;
      ExpectKolmogorovSmirnov(
          first, [h](double x) { return BetaI(h, h, (x + 1.0) / 2.0); }, what + " coordinate");
    } else {
      const double negative = static_cast<double>(std::count_if(first.begin(), first.end(),
                                                                [](double x) { return x < 0.0; })) /
                              static_cast<double>(rows);
      EXPECT_LE(std::fabs(negative - 0.5), 6.0 * std::sqrt(0.25 / static_cast<double>(rows)))
          << what << ": negative coordinates";
    }
  }
}

}  // namespace
}  // namespace alea::vm::random

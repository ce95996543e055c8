// vm/random/discrete.h, choice.h and multivariate.h against
// tests/vm/data/random/discrete_derived.txt: JAX's algorithms as an
// independent from-spec Python version derives them (derive_discrete.py,
// its provenance in the data README). Integer results are exact, but for
// the few elements the data marks '~' (a decision within 2^-16 of its
// threshold on f32 log/lgamma values, which Alea's f32 math, within 2 ulp,
// may take the other way). x64 scalar forms are exact: both sides call the
// C library. multivariate_normal and orthogonal are compared within a
// tolerance (the data is exact math; Alea's f32 normals, Cholesky and
// products round). Also: every tensor form is partitionable (any split of
// the index range, on a two-thread pool too, gives the same bits), and
// poisson's scalar is element 0 of its tensor draw.
#include "vm/random/discrete.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/vm/random/vectors.h"
#include "vm/random/choice.h"
#include "vm/random/draw_kernels.h"
#include "vm/random/keys.h"
#include "vm/random/multivariate.h"
#include "vm/random/samplers.h"
#include "vm/random/scalar.h"
#include "vm/thread_pool.h"

namespace alea::vm::random {
namespace {

double Hex(const std::string& s) {
  if (s == "inf") return INFINITY;
  return std::strtod(s.c_str(), nullptr);
}

std::vector<double> HexList(const std::string& s) {
  std::vector<double> out;
  std::istringstream in(s);
  for (std::string part; std::getline(in, part, ',');) out.push_back(Hex(part));
  return out;
}

std::vector<float> F32List(const std::string& s) {
  std::vector<float> out;
  for (double d : HexList(s)) out.push_back(static_cast<float>(d));
  return out;
}

// A derived value: its number and whether it is marked fragile ('~').
struct Expected {
  double value;
  bool fragile;
};

Expected Parse(const std::string& s) {
  const bool fragile = !s.empty() && s.back() == '~';
  const std::string text = fragile ? s.substr(0, s.size() - 1) : s;
  return {text == "inf" ? INFINITY : std::strtod(text.c_str(), nullptr), fragile};
}

// Exact, or for a fragile value within one count or 1e-4 of it.
void ExpectCount(double got, const Expected& want, int* fragile_misses) {
  if (!want.fragile) {
    EXPECT_EQ(got, want.value);
    return;
  }
  const double slack = std::max(1.0, 1e-4 * std::fabs(want.value));
  EXPECT_LE(std::fabs(got - want.value), slack) << "fragile value " << want.value;
  *fragile_misses += got != want.value;
}

// The counts that follow the fields before `first` (the values).
std::vector<Expected> Values(const testing::DerivedRecord& r, size_t first) {
  std::vector<Expected> out;
  for (size_t i = first; i < r.fields.size(); ++i) {
    if (r.fields[i] != "~") out.push_back(Parse(r.fields[i]));
  }
  return out;
}

bool RowFragile(const testing::DerivedRecord& r) { return r.fields.back() == "~"; }

TEST(DiscreteDraws, MatchTheDerivedValues) {
  const std::vector<testing::DerivedRecord> records =
      testing::DerivedRecords("discrete_derived.txt");
  ASSERT_GT(records.size(), 900u) << "discrete_derived.txt missing or short";
  int checked = 0, fragile_misses = 0;
  double worst_mvn = 0, worst_orthogonal = 0;
  for (const testing::DerivedRecord& r : records) {
    SCOPED_TRACE(r.kind + " " + r.fields[0] + " " + r.fields[1] + " " + r.fields[2]);
    const Key k = testing::RecordKey(r);
    if (r.kind == "poisson") {
      const auto lam = static_cast<float>(Hex(r.fields[2]));
      const std::vector<Expected> want = Values(r, 4);
      std::vector<int32_t> got(want.size());
      Poisson(k, lam, 0, got.size(), got.data());
      for (size_t i = 0; i < want.size(); ++i) ExpectCount(got[i], want[i], &fragile_misses);
    } else if (r.kind == "poisson_scalar") {
      ExpectCount(static_cast<double>(PoissonScalar(k, static_cast<float>(Hex(r.fields[2])))),
                  Parse(r.fields[3]), &fragile_misses);
    } else if (r.kind == "binomial") {
      const auto n = static_cast<float>(Hex(r.fields[2]));
      const auto p = static_cast<float>(Hex(r.fields[3]));
      const std::vector<Expected> want = Values(r, 5);
      std::vector<float> got(want.size());
      Binomial(k, n, p, 0, got.size(), got.data());
      for (size_t i = 0; i < want.size(); ++i) ExpectCount(got[i], want[i], &fragile_misses);
    } else if (r.kind == "binomial_scalar") {
      EXPECT_EQ(BinomialScalar(k, Hex(r.fields[2]), Hex(r.fields[3])), Parse(r.fields[4]).value);
    } else if (r.kind == "geometric") {
      const std::vector<Expected> want = Values(r, 4);
      std::vector<int32_t> got(want.size());
      Geometric(k, static_cast<float>(Hex(r.fields[2])), 0, got.size(), got.data());
      for (size_t i = 0; i < want.size(); ++i) ExpectCount(got[i], want[i], &fragile_misses);
    } else if (r.kind == "geometric_scalar") {
      EXPECT_EQ(GeometricScalar(k, Hex(r.fields[2])), Parse(r.fields[3]).value);
    } else if (r.kind == "permutation") {
      const uint64_t n = std::stoull(r.fields[2]);
      std::vector<int32_t> got(n);
      std::vector<uint64_t> scratch(n);
      Permutation(k, n, got.data(), scratch.data());
      EXPECT_EQ(got,
                testing::AsI32(std::vector<std::string>(r.fields.begin() + 3, r.fields.end())));
    } else if (r.kind == "choice" || r.kind == "choice_scalar") {
      const bool scalar = r.kind == "choice_scalar";
      const int64_t n = std::stoll(r.fields[2]);
      const int64_t size = scalar ? 1 : std::stoll(r.fields[3]);
      const size_t at = scalar ? 3 : 4;
      const bool replace = r.fields[at] == "1";
      const bool weighted = r.fields[at + 1] != "-";
      const std::vector<float> p = weighted ? F32List(r.fields[at + 1]) : std::vector<float>();
      std::vector<int32_t> got(static_cast<size_t>(size));
      if (!weighted && replace) {
        if (scalar) {
          got[0] = static_cast<int32_t>(RandIntScalar(k, 0, n));
        } else {
          RandInt(k, 0, n, 0, got.size(), got.data());
        }
      } else if (!weighted) {
        std::vector<int32_t> perm(static_cast<size_t>(n));
        std::vector<uint64_t> scratch(static_cast<size_t>(n));
        Permutation(k, static_cast<uint64_t>(n), perm.data(), scratch.data());
        got.assign(perm.begin(), perm.begin() + size);
      } else if (replace) {
        std::vector<float> cum(p.size());
        CumulativeSum(p.data(), n, cum.data());
        ChoiceByWeights(k, cum.data(), n, 0, got.size(), got.data());
      } else {
        ChoiceTopK(k, p.data(), n, size, got.data());
      }
      const std::vector<Expected> want = Values(r, at + 2);
      ASSERT_EQ(want.size(), got.size());
      for (size_t i = 0; i < want.size() && !RowFragile(r); ++i) EXPECT_EQ(got[i], want[i].value);
    } else if (r.kind == "multinomial") {
      const float n = std::stof(r.fields[2]);
      const std::vector<float> p = F32List(r.fields[3]);
      const uint64_t batch = std::stoull(r.fields[4]);
      std::vector<float> ratios(p.size()), got(batch * p.size());
      MultinomialRatios(p.data(), static_cast<int64_t>(p.size()), ratios.data());
      Multinomial(k, n, ratios.data(), static_cast<int64_t>(p.size()), 0, batch, got.data());
      const std::vector<Expected> want = Values(r, 5);
      ASSERT_EQ(want.size(), got.size());
      for (size_t i = 0; i < want.size() && !RowFragile(r); ++i) EXPECT_EQ(got[i], want[i].value);
    } else if (r.kind == "multivariate_normal") {
      const std::vector<float> mean = F32List(r.fields[2]), cov = F32List(r.fields[3]);
      const auto n = static_cast<int64_t>(mean.size());
      const uint64_t batch = std::stoull(r.fields[4]);
      std::vector<float> lt(cov.size()), got(batch * mean.size());
      ASSERT_LT(CovarianceFactor(n, cov.data(), lt.data()).index, 0);
      MultivariateNormal(k, mean.data(), lt.data(), n, 0, batch, got.data());
      ASSERT_EQ(r.fields.size() - 5, got.size());
      for (size_t i = 0; i < got.size(); ++i) {
        const double want = Hex(r.fields[5 + i]);
        worst_mvn = std::max(worst_mvn, std::fabs(got[i] - want) / (1 + std::fabs(want)));
        EXPECT_NEAR(got[i], want, 1e-6 * (1 + std::fabs(want)));
      }
    } else if (r.kind == "orthogonal") {
      const int64_t n = std::stoll(r.fields[2]);
      const uint64_t batch = std::stoull(r.fields[3]);
      std::vector<float> got(batch * static_cast<uint64_t>(n * n));
      Orthogonal(k, n, 0, batch, got.data());
      ASSERT_EQ(r.fields.size() - 4, got.size());
      for (size_t i = 0; i < got.size(); ++i) {
        const double want = Hex(r.fields[4 + i]);
        worst_orthogonal = std::max(worst_orthogonal, std::fabs(got[i] - want));
        EXPECT_NEAR(got[i], want, 1e-6);
      }
    } else {
      ADD_FAILURE() << "unknown record kind " << r.kind;
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(records.size()));
  // The marks are a margin, not a forecast: most fragile values still agree.
  EXPECT_LE(fragile_misses, 10);
  RecordProperty("fragile_misses", fragile_misses);
  RecordProperty("worst_mvn_relative_x1e9", static_cast<int>(worst_mvn * 1e9));
  RecordProperty("worst_orthogonal_x1e9", static_cast<int>(worst_orthogonal * 1e9));
}

// One x64 0-d poisson draw is element 0 of the f32 tensor draw: JAX
// converts the rate to float32 in every mode, and with one element the
// first acceptance is JAX's only one.
TEST(DiscreteDraws, PoissonScalarIsElementZero) {
  for (float lam : {0.0f, 0.25f, 3.0f, 9.99f, 10.0f, 37.5f, 5000.0f}) {
    for (uint32_t i = 0; i < 50; ++i) {
      const Key k = FoldInKey(Key{0, 99}, i);
      int32_t first;
      Poisson(k, lam, 0, 1, &first);
      EXPECT_EQ(PoissonScalar(k, lam), first) << lam << " " << i;
    }
  }
}

// A tensor form as a partitionable fill: fill(key, start, count, out).
template <typename T>
using Fill = std::function<void(Key, uint64_t, uint64_t, T*)>;

// The whole draw at once, in uneven pieces, and on a two-thread pool in
// ranges of 7: the same bits.
template <typename T>
void ExpectPartitionable(const Fill<T>& fill, uint64_t n, const char* what) {
  SCOPED_TRACE(what);
  const Key k = FoldInKey(Key{0, 2024}, 17);
  std::vector<T> whole(n), pieces(n), threaded(n);
  fill(k, 0, n, whole.data());
  const uint64_t cuts[] = {0, 1, 2, 37, n / 2, n / 2 + 1, n};
  for (size_t c = 0; c + 1 < std::size(cuts); ++c) {
    fill(k, cuts[c], cuts[c + 1] - cuts[c], pieces.data() + cuts[c]);
  }
  ThreadPool pool(2);
  pool.ParallelFor(static_cast<int64_t>(n), 1, 7, [&](int, int64_t begin, int64_t end) {
    fill(k, static_cast<uint64_t>(begin), static_cast<uint64_t>(end - begin),
         threaded.data() + begin);
  });
  for (uint64_t i = 0; i < n; ++i) {
    ASSERT_EQ(std::memcmp(&whole[i], &pieces[i], sizeof(T)), 0) << "element " << i;
    ASSERT_EQ(std::memcmp(&whole[i], &threaded[i], sizeof(T)), 0) << "element " << i;
  }
}

TEST(DiscreteDraws, TensorFormsArePartitionable) {
  constexpr uint64_t n = 1000;
  for (float lam : {0.5f, 3.0f, 12.0f, 400.0f}) {
    ExpectPartitionable<int32_t>(
        [lam](Key k, uint64_t s, uint64_t c, int32_t* o) { Poisson(k, lam, s, c, o); }, n,
        "poisson");
  }
  for (auto [bn, bp] : {std::pair{10.0f, 0.3f}, {200.0f, 0.4f}, {200.0f, 0.9f}, {30.0f, 0.99f}}) {
    ExpectPartitionable<float>([bn = bn, bp = bp](Key k, uint64_t s, uint64_t c,
                                                  float* o) { Binomial(k, bn, bp, s, c, o); },
                               n, "binomial");
  }
  ExpectPartitionable<int32_t>(
      [](Key k, uint64_t s, uint64_t c, int32_t* o) { Geometric(k, 0.2f, s, c, o); }, n,
      "geometric");
  const float p[5] = {0.5f, 0.0f, 1.5f, 0.25f, 2.0f};
  float cum[5], ratios[5];
  CumulativeSum(p, 5, cum);
  MultinomialRatios(p, 5, ratios);
  ExpectPartitionable<int32_t>(
      [&cum](Key k, uint64_t s, uint64_t c, int32_t* o) { ChoiceByWeights(k, cum, 5, s, c, o); }, n,
      "choice by weights");
  // Row-partitionable draws: a "row" of 5 counts, 3 means, 3 x 3 matrices.
  struct Row5 {
    float v[5];
  };
  ExpectPartitionable<Row5>([&ratios](Key k, uint64_t s, uint64_t c,
                                      Row5* o) { Multinomial(k, 60.0f, ratios, 5, s, c, o->v); },
                            200, "multinomial");
  const float mean[3] = {1.0f, -2.0f, 0.5f};
  const float cov[9] = {2.0f, 0.3f, -0.4f, 0.3f, 1.0f, 0.2f, -0.4f, 0.2f, 0.5f};
  float lt[9];
  ASSERT_LT(CovarianceFactor(3, cov, lt).index, 0);
  struct Row3 {
    float v[3];
  };
  ExpectPartitionable<Row3>([&](Key k, uint64_t s, uint64_t c,
                                Row3* o) { MultivariateNormal(k, mean, lt, 3, s, c, o->v); },
                            400, "multivariate_normal");
  struct Matrix3 {
    float v[9];
  };
  ExpectPartitionable<Matrix3>(
      [](Key k, uint64_t s, uint64_t c, Matrix3* o) { Orthogonal(k, 3, s, c, o->v); }, 400,
      "orthogonal");
}

// The reference kernels posing as fast ones: the samplers then take their
// block-drawing paths, which must give the same bits as the others.
class FastReference final : public DrawKernels {
 public:
  bool fast() const override { return true; }
};

TEST(DiscreteDraws, FastKernelsGiveTheSameBits) {
  const FastReference fast;
  const Key k = FoldInKey(Key{0, 31}, 4);
  constexpr uint64_t n = 3000, start = 5;
  std::vector<int32_t> a(n), b(n);
  for (float lam : {0.5f, 3.0f, 9.9f}) {
    Poisson(k, lam, start, n, a.data());
    Poisson(k, lam, start, n, b.data(), fast);
    EXPECT_EQ(a, b) << "poisson " << lam;
  }
  Geometric(k, 0.3f, start, n, a.data());
  Geometric(k, 0.3f, start, n, b.data(), fast);
  EXPECT_EQ(a, b) << "geometric";
  // choice's uniform draws are randint's, with remainders by multiplication.
  for (int64_t span : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{10}, int64_t{1000},
                       int64_t{65536}, int64_t{65537}, int64_t{1} << 30, int64_t{INT32_MAX}}) {
    RandInt(k, 0, span, start, n, a.data());
    ChoiceUniform(k, span, start, n, b.data());
    EXPECT_EQ(a, b) << "randint " << span;
    ChoiceUniform(k, span, start, n, b.data(), fast);
    EXPECT_EQ(a, b) << "randint " << span;
  }
  // By weights: the branch-free search is std::lower_bound, ties and zero
  // weights included.
  const std::vector<float> p = {0.0f, 0.25f, 0.25f, 0.0f, 1.0f, 1e-30f, 3.0f, 0.0f};
  std::vector<float> cum(p.size()), u(n);
  CumulativeSum(p.data(), static_cast<int64_t>(p.size()), cum.data());
  Uniform(k, start, n, 0.0f, 1.0f, u.data());
  ChoiceByWeights(k, cum.data(), static_cast<int64_t>(p.size()), start, n, b.data(), fast);
  for (uint64_t i = 0; i < n; ++i) {
    const float r = cum.back() * (1.0f - u[i]);
    ASSERT_EQ(b[i], std::lower_bound(cum.begin(), cum.end(), r) - cum.begin()) << i;
  }
}

// Below 10 Knuth's method, from 10 on PTRS: both give the right mean at the
// seam.
TEST(DiscreteDraws, KnuthAndRejectionMeetAtTen) {
  const Key k{0, 5};
  std::vector<int32_t> below(2000), at(2000);
  Poisson(k, std::nextafter(10.0f, 0.0f), 0, below.size(), below.data());
  Poisson(k, 10.0f, 0, at.size(), at.data());
  double mean_below = 0, mean_at = 0;
  for (size_t i = 0; i < below.size(); ++i) {
    ASSERT_GE(below[i], 0);
    ASSERT_GE(at[i], 0);
    mean_below += below[i];
    mean_at += at[i];
  }
  EXPECT_NEAR(mean_below / 2000, 10.0, 6 * std::sqrt(10.0 / 2000));
  EXPECT_NEAR(mean_at / 2000, 10.0, 6 * std::sqrt(10.0 / 2000));
}

TEST(DiscreteDraws, EdgeParameters) {
  const Key k{0, 11};
  std::vector<float> f(64);
  Binomial(k, INFINITY, 0.3f, 0, f.size(), f.data());
  for (float v : f) EXPECT_EQ(v, INFINITY);
  Binomial(k, 7.9f, 0.0f, 0, f.size(), f.data());
  for (float v : f) EXPECT_EQ(v, 0.0f);
  Binomial(k, 7.9f, 1.0f, 0, f.size(), f.data());  // n rounds down
  for (float v : f) EXPECT_EQ(v, 7.0f);
  std::vector<int32_t> g(64);
  Geometric(k, 1.0f, 0, g.size(), g.data());
  for (int32_t v : g) EXPECT_EQ(v, 1);
  // Tiny p: counts beyond i32 saturate, as XLA's conversion.
  Geometric(k, 1e-30f, 0, g.size(), g.data());
  for (int32_t v : g) EXPECT_EQ(v, INT32_MAX);
  EXPECT_EQ(GeometricScalar(k, 1.0), 1);
  EXPECT_EQ(SaturateToI32(NAN), 0);
  EXPECT_EQ(SaturateToI32(-1e10), INT32_MIN);
  EXPECT_EQ(SaturateToI32(-2.5), -2);
  EXPECT_EQ(SaturateToI64(1e30), INT64_MAX);
  EXPECT_EQ(BinomialScalar(k, 0.0, 0.5), 0.0);
  EXPECT_EQ(PoissonScalar(k, 0.0f), 0);
}

}  // namespace
}  // namespace alea::vm::random

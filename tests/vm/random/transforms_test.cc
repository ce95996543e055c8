// The transformations of uniform and normal draws (vm/random/continuous.h:
// cauchy ... rademacher), both forms, three ways:
// - against tests/vm/data/random/transforms_derived.txt, an independent
//   from-spec Python derivation of JAX's algorithms (derive_transforms.py,
//   its provenance in the data README). Each record carries its tolerance:
//   0 where only exactly rounded operations are involved (triangular, the
//   scalar forms without a normal, rademacher), otherwise what 2 ulp on each
//   transcendental result (log, exp, tan, erf, erfinv...) can change;
// - statistically, at fixed keys (so nothing can flake): the mean and
//   variance within 6 standard errors of the exact ones, and the
//   Kolmogorov-Smirnov distance to the exact CDF below its critical value
//   at significance 1e-6, for tensor draws (2^18 elements) and scalar draws
//   (10^5 keys);
// - through the natives on a VM with 1 and 2 threads: the same bytes, and
//   those of the reference kernel; and any slice of a draw equals that slice
//   of the whole draw.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "stdlib/natives.h"
#include "tests/vm/random/vectors.h"
#include "tests/vm/test_util.h"
#include "vm/random/continuous.h"
#include "vm/random/keys.h"
#include "vm/random_draw.h"
#include "vm/tensor.h"
#include "vm/thread_pool.h"
#include "vm/vm.h"

namespace alea::vm::random {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- The derived values ----

struct Record {
  std::string form, name;
  Key key;
  uint64_t index = 0;
  std::string value;
  int64_t tol = 0;
  std::vector<double> params;
};

std::vector<Record> Records() {
  std::vector<Record> out;
  for (const std::string& line : testing::ReadLines("transforms_derived.txt")) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    Record r;
    in >> r.form >> r.name >> r.key.k0 >> r.key.k1 >> r.index >> r.value >> r.tol;
    for (std::string p; in >> p;) r.params.push_back(std::strtod(p.c_str(), nullptr));
    out.push_back(r);
  }
  return out;
}

// Distances in ulps (ordered bit patterns); equal NaNs and equal infinities
// are 0 apart.
int64_t Ulps32(float a, float b) {
  if (a == b || (std::isnan(a) && std::isnan(b))) return 0;
  if (std::isnan(a) || std::isnan(b)) return INT64_MAX;
  auto ordered = [](float x) -> int64_t {
    const int32_t bits = std::bit_cast<int32_t>(x);
    return bits < 0 ? int64_t{INT32_MIN} - bits : bits;
  };
  return std::abs(ordered(a) - ordered(b));
}

int64_t Ulps64(double a, double b) {
  if (a == b || (std::isnan(a) && std::isnan(b))) return 0;
  if (std::isnan(a) || std::isnan(b)) return INT64_MAX;
  auto ordered = [](double x) -> int64_t {
    const int64_t bits = std::bit_cast<int64_t>(x);
    return bits < 0 ? INT64_MIN - bits : bits;
  };
  const int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

// The tensor form of `name` over [start, start + count), parameters as the
// natives pass them (Floats rounded to f32).
void Fill(const std::string& name, Key k, const std::vector<double>& p, uint64_t start,
          uint64_t count, float* out) {
  auto f = [&](size_t i) { return static_cast<float>(p[i]); };
  if (name == "cauchy") return Cauchy(k, start, count, out);
  if (name == "laplace") return Laplace(k, start, count, out);
  if (name == "logistic") return Logistic(k, start, count, out);
  if (name == "lognormal") return Lognormal(k, f(0), start, count, out);
  if (name == "maxwell") return Maxwell(k, start, count, out);
  if (name == "double_sided_maxwell") return DoubleSidedMaxwell(k, f(0), f(1), start, count, out);
  if (name == "pareto") return Pareto(k, f(0), start, count, out);
  if (name == "rayleigh") return Rayleigh(k, f(0), start, count, out);
  if (name == "triangular") return Triangular(k, f(0), f(1), f(2), start, count, out);
  if (name == "truncated_normal") return TruncatedNormal(k, f(0), f(1), start, count, out);
  if (name == "wald") return Wald(k, f(0), start, count, out);
  if (name == "weibull_min") return WeibullMin(k, f(0), f(1), start, count, out);
  ADD_FAILURE() << "no tensor form " << name;
}

double Scalar(const std::string& name, Key k, const std::vector<double>& p) {
  if (name == "cauchy") return CauchyScalar(k);
  if (name == "laplace") return LaplaceScalar(k);
  if (name == "logistic") return LogisticScalar(k);
  if (name == "lognormal") return LognormalScalar(k, p[0]);
  if (name == "maxwell") return MaxwellScalar(k);
  if (name == "double_sided_maxwell") return DoubleSidedMaxwellScalar(k, p[0], p[1]);
  if (name == "pareto") return ParetoScalar(k, p[0]);
  if (name == "rayleigh") return RayleighScalar(k, p[0]);
  if (name == "triangular") return TriangularScalar(k, p[0], p[1], p[2]);
  if (name == "truncated_normal") return TruncatedNormalScalar(k, p[0], p[1]);
  if (name == "wald") return WaldScalar(k, p[0]);
  if (name == "weibull_min") return WeibullMinScalar(k, p[0], p[1]);
  ADD_FAILURE() << "no scalar form " << name;
  return 0;
}

TEST(Transforms, MatchTheDerivedValues) {
  const std::vector<Record> records = Records();
  ASSERT_GT(records.size(), 1900u) << "transforms_derived.txt missing or short";
  int checked = 0, exact = 0;
  for (const Record& r : records) {
    SCOPED_TRACE(r.form + " " + r.name + " " + std::to_string(r.key.k0) + " " +
                 std::to_string(r.key.k1) + " [" + std::to_string(r.index) + "]");
    int64_t off = 0;
    if (r.form == "f32") {
      float got = 0;
      Fill(r.name, r.key, r.params, r.index, 1, &got);
      const float want = static_cast<float>(std::strtod(r.value.c_str(), nullptr));
      off = Ulps32(got, want);
      EXPECT_LE(off, r.tol) << got << " want " << want;
    } else if (r.form == "f64") {
      const double got = Scalar(r.name, r.key, r.params);
      const double want = std::strtod(r.value.c_str(), nullptr);
      off = Ulps64(got, want);
      EXPECT_LE(off, r.tol) << got << " want " << want;
    } else if (r.form == "i32") {
      int32_t got = 0;
      Rademacher(r.key, r.index, 1, &got);
      EXPECT_EQ(got, std::stoi(r.value));
    } else if (r.form == "i64") {
      EXPECT_EQ(RademacherScalar(r.key), std::stoll(r.value));
    } else {
      ADD_FAILURE() << "unknown form " << r.form;
    }
    exact += off == 0;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(records.size()));
  RecordProperty("bit_exact", exact);
}

// The distributions with the parameter sets the other tests use.
struct Case {
  std::string name;
  std::vector<double> params;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"cauchy", {}},
      {"laplace", {}},
      {"logistic", {}},
      {"lognormal", {0.5}},
      {"lognormal", {1.0}},
      {"maxwell", {}},
      {"double_sided_maxwell", {2.5, 0.5}},
      {"pareto", {5.0}},
      {"rayleigh", {2.0}},
      {"triangular", {-1.0, 2.0, 3.0}},
      {"truncated_normal", {-1.0, 2.0}},
      {"truncated_normal", {1.5, 3.0}},
      {"wald", {1.0}},
      {"wald", {3.0}},
      {"weibull_min", {2.0, 0.5}},
      {"weibull_min", {0.5, 3.0}},
  };
  return cases;
}

std::string CaseName(const Case& c) {
  std::string s = c.name + "(";
  for (size_t i = 0; i < c.params.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(c.params[i]);
  }
  return s + ")";
}

// ---- Partitionable: any slice of a draw is that slice of the whole ----

TEST(Transforms, SlicesEqualTheWholeDraw) {
  const Key k{12345, 678};
  constexpr uint64_t kN = 1500;  // several of the kernels' 256-element blocks
  const uint64_t cuts[] = {0, 1, 255, 256, 257, 700, 1499, kN};
  for (const Case& c : Cases()) {
    SCOPED_TRACE(CaseName(c));
    std::vector<float> whole(kN), parts(kN);
    Fill(c.name, k, c.params, 0, kN, whole.data());
    for (size_t i = 0; i + 1 < std::size(cuts); ++i) {
      Fill(c.name, k, c.params, cuts[i], cuts[i + 1] - cuts[i], parts.data() + cuts[i]);
    }
    EXPECT_EQ(std::memcmp(whole.data(), parts.data(), kN * sizeof(float)), 0);
  }
  std::vector<int32_t> whole(kN), parts(kN);
  Rademacher(k, 0, kN, whole.data());
  for (size_t i = 0; i + 1 < std::size(cuts); ++i) {
    Rademacher(k, cuts[i], cuts[i + 1] - cuts[i], parts.data() + cuts[i]);
  }
  EXPECT_EQ(whole, parts);
}

// double_sided_maxwell draws its maxwell from split(k)[0] and its sign from
// split(k)[1], in both forms.
TEST(Transforms, DoubleSidedMaxwellUsesJaxSplits) {
  const Key k{7, 11};
  const double m = MaxwellScalar(SplitKey(k, 0));
  const double dsm = DoubleSidedMaxwellScalar(k, 0.0, 1.0);
  EXPECT_EQ(std::fabs(dsm), m);
  EXPECT_EQ(dsm > 0, RademacherScalar(SplitKey(k, 1)) > 0);
  float mf = 0, dsmf = 0;
  Maxwell(SplitKey(k, 0), 0, 1, &mf);
  DoubleSidedMaxwell(k, 0.0f, 1.0f, 0, 1, &dsmf);
  EXPECT_EQ(std::fabs(dsmf), mf);
}

// ---- Statistics ----

double Phi(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }
double PhiDensity(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2 * std::numbers::pi); }

double MaxwellCdf(double x) {
  if (x <= 0) return 0;
  return std::erf(x / std::numbers::sqrt2) -
         std::sqrt(2 / std::numbers::pi) * x * std::exp(-0.5 * x * x);
}

// The exact CDF of a case.
double Cdf(const Case& c, double x) {
  const std::vector<double>& p = c.params;
  if (c.name == "cauchy") return 0.5 + std::atan(x) / std::numbers::pi;
  if (c.name == "laplace") return x < 0 ? 0.5 * std::exp(x) : 1 - 0.5 * std::exp(-x);
  if (c.name == "logistic") return 1 / (1 + std::exp(-x));
  if (c.name == "lognormal") return x <= 0 ? 0 : Phi(std::log(x) / p[0]);
  if (c.name == "maxwell") return MaxwellCdf(x);
  if (c.name == "double_sided_maxwell") {
    const double z = (x - p[0]) / p[1];
    return 0.5 + 0.5 * std::copysign(MaxwellCdf(std::fabs(z)), z);
  }
  if (c.name == "pareto") return x < 1 ? 0 : 1 - std::pow(x, -p[0]);
  if (c.name == "rayleigh") return x <= 0 ? 0 : 1 - std::exp(-x * x / (2 * p[0] * p[0]));
  if (c.name == "triangular") {
    const double a = p[0], m = p[1], b = p[2];
    if (x <= a) return 0;
    if (x >= b) return 1;
    return x <= m ? (x - a) * (x - a) / ((b - a) * (m - a))
                  : 1 - (b - x) * (b - x) / ((b - a) * (b - m));
  }
  if (c.name == "truncated_normal") {
    const double lo = Phi(p[0]), hi = Phi(p[1]);
    return std::clamp((Phi(x) - lo) / (hi - lo), 0.0, 1.0);
  }
  if (c.name == "wald") {
    if (x <= 0) return 0;
    const double mu = p[0], r = std::sqrt(1 / x);
    return Phi(r * (x / mu - 1)) + std::exp(2 / mu) * Phi(-r * (x / mu + 1));
  }
  if (c.name == "weibull_min") return x <= 0 ? 0 : 1 - std::exp(-std::pow(x / p[0], p[1]));
  ADD_FAILURE() << "no CDF for " << c.name;
  return 0;
}

// The exact mean and variance, where the test can use them (the variance
// of the sample variance needs a finite fourth moment); cauchy has none.
bool Moments(const Case& c, double* mean, double* var) {
  const std::vector<double>& p = c.params;
  const double pi = std::numbers::pi;
  if (c.name == "laplace") {
    *mean = 0, *var = 2;
  } else if (c.name == "logistic") {
    *mean = 0, *var = pi * pi / 3;
  } else if (c.name == "lognormal") {
    const double s2 = p[0] * p[0];
    *mean = std::exp(s2 / 2), *var = (std::exp(s2) - 1) * std::exp(s2);
  } else if (c.name == "maxwell") {
    *mean = 2 * std::sqrt(2 / pi), *var = 3 - 8 / pi;
  } else if (c.name == "double_sided_maxwell") {
    *mean = p[0], *var = 3 * p[1] * p[1];
  } else if (c.name == "pareto") {
    const double b = p[0];
    *mean = b / (b - 1), *var = b / ((b - 1) * (b - 1) * (b - 2));
  } else if (c.name == "rayleigh") {
    *mean = p[0] * std::sqrt(pi / 2), *var = (4 - pi) / 2 * p[0] * p[0];
  } else if (c.name == "triangular") {
    const double a = p[0], m = p[1], b = p[2];
    *mean = (a + m + b) / 3, *var = (a * a + m * m + b * b - a * m - a * b - m * b) / 18;
  } else if (c.name == "truncated_normal") {
    const double a = p[0], b = p[1], z = Phi(b) - Phi(a);
    const double d = (PhiDensity(a) - PhiDensity(b)) / z;
    *mean = d, *var = 1 + (a * PhiDensity(a) - b * PhiDensity(b)) / z - d * d;
  } else if (c.name == "wald") {
    *mean = p[0], *var = p[0] * p[0] * p[0];
  } else if (c.name == "weibull_min") {
    const double g1 = std::tgamma(1 + 1 / p[1]), g2 = std::tgamma(1 + 2 / p[1]);
    *mean = p[0] * g1, *var = p[0] * p[0] * (g2 - g1 * g1);
  } else {
    return false;
  }
  return true;
}

// What the checks found, for the messages.
void CheckSample(const Case& c, std::vector<double> x, const char* form) {
  SCOPED_TRACE(std::string(form) + " " + CaseName(c));
  const double n = static_cast<double>(x.size());
  for (double v : x) ASSERT_TRUE(std::isfinite(v)) << v;
  if (c.name == "truncated_normal") {
    for (double v : x) ASSERT_TRUE(v > c.params[0] && v < c.params[1]) << v;
  }
  double mean = 0, var = 0;
  if (Moments(c, &mean, &var)) {
    double m = 0;
    for (double v : x) m += v;
    m /= n;
    double m2 = 0, m4 = 0;
    for (double v : x) {
      const double d = (v - m) * (v - m);
      m2 += d;
      m4 += d * d;
    }
    m2 /= n - 1;
    m4 /= n;
    EXPECT_LE(std::fabs(m - mean), 6 * std::sqrt(var / n)) << "mean " << m << " want " << mean;
    EXPECT_LE(std::fabs(m2 - var), 6 * std::sqrt((m4 - m2 * m2) / n))
        << "variance " << m2 << " want " << var;
  }
  // Kolmogorov-Smirnov: P(sqrt(n) D > t) ~ 2 exp(-2 t^2) = 1e-6.
  std::sort(x.begin(), x.end());
  double d = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double f = Cdf(c, x[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  const double critical = std::sqrt(std::log(2 / 1e-6) / 2) / std::sqrt(n);
  EXPECT_LT(d, critical) << "KS distance";
}

TEST(Transforms, TensorDrawsHaveTheirDistribution) {
  constexpr uint64_t kN = uint64_t{1} << 18;
  uint32_t seed = 0;
  for (const Case& c : Cases()) {
    std::vector<float> f(kN);
    Fill(c.name, Key{2024, seed++}, c.params, 0, kN, f.data());
    CheckSample(c, std::vector<double>(f.begin(), f.end()), "tensor");
  }
}

TEST(Transforms, ScalarDrawsHaveTheirDistribution) {
  constexpr uint32_t kN = 100000;
  uint32_t seed = 100;
  for (const Case& c : Cases()) {
    const Key base{2025, seed++};
    std::vector<double> x(kN);
    for (uint32_t i = 0; i < kN; ++i) x[i] = Scalar(c.name, FoldInKey(base, i), c.params);
    CheckSample(c, x, "scalar");
  }
}

TEST(Transforms, RademacherIsAFairSign) {
  constexpr uint64_t kN = uint64_t{1} << 18;
  std::vector<int32_t> t(kN);
  Rademacher(Key{3, 4}, 0, kN, t.data());
  int64_t sum = 0;
  for (int32_t v : t) {
    ASSERT_TRUE(v == 1 || v == -1) << v;
    sum += v;
  }
  EXPECT_LE(std::fabs(static_cast<double>(sum)), 6 * std::sqrt(static_cast<double>(kN)));
  sum = 0;
  constexpr int kScalars = 100000;
  for (uint32_t i = 0; i < kScalars; ++i) {
    const int64_t v = RademacherScalar(FoldInKey(Key{5, 6}, i));
    ASSERT_TRUE(v == 1 || v == -1) << v;
    sum += v;
  }
  EXPECT_LE(std::fabs(static_cast<double>(sum)), 6 * std::sqrt(static_cast<double>(kScalars)));
}

// truncated_normal's degenerate bounds, as JAX's clip makes them: infinite
// ones give finite numbers, equal ones nextafter(upper, -inf).
TEST(Transforms, TruncatedNormalDegenerateBounds) {
  float f = 0;
  TruncatedNormal(Key{1, 2}, -INFINITY, INFINITY, 0, 1, &f);
  EXPECT_TRUE(std::isfinite(f));
  EXPECT_TRUE(std::isfinite(TruncatedNormalScalar(Key{1, 2}, -kInf, kInf)));
  // Equal bounds: JAX's clip gives nextafter(upper, -inf).
  TruncatedNormal(Key{1, 2}, 1.0f, 1.0f, 0, 1, &f);
  EXPECT_EQ(f, std::nextafter(1.0f, 0.0f));
  EXPECT_EQ(TruncatedNormalScalar(Key{1, 2}, 1.0, 1.0), std::nextafter(1.0, 0.0));
}

// ---- Through the natives, on 1 and 2 threads ----

std::vector<uint8_t>& LastCapture() {
  static std::vector<uint8_t> bytes;
  return bytes;
}

absl::StatusOr<Value> NativeCapture(NativeContext&, const Value* args) {
  const Object* t = AsObject(args[0]);
  const auto* data = static_cast<const uint8_t*>(DataOf(t));
  LastCapture().assign(data, data + SizeOf(t) * ElementBytes(DTypeOf(t)));
  return Value{0};
}

const NativeEntry kCaptureNative[] = {
    {.name = "test_capture", .arity = 1, .fn = NativeCapture, .signature = "(Tensor(_)) -> Unit"}};

using vm::testing::I;
using vm::testing::IsBx;

// Runs native(key(2026), params..., [n]) on a VM with `threads` threads,
// with or without the JIT, and returns the bytes of the tensor it made.
std::vector<uint8_t> RunNative(const std::string& native, const std::vector<double>& params,
                               int64_t n, int threads, bool jit) {
  vm::testing::ModuleBuilder b;
  std::vector<Instr> code;
  std::vector<uint16_t> refs;
  const uint16_t seed = 0, state = 1, dim = 2, shape = 3, result = 4;
  code.push_back(I(Op::LOADK, seed, b.K(2026)));
  code.push_back(I(Op::KEY, state, seed));
  code.push_back(I(Op::LOADK, dim, b.K(n)));
  code.push_back(I(Op::ARRAY, shape, dim, 1, 0));
  // The window: result, state, params..., shape; the references are moved in.
  uint16_t r = result + 1;
  code.push_back(I(Op::MOVE, r++, state, 0, 1));
  for (double p : params) code.push_back(I(Op::LOADK, r++, b.KF(p)));
  const uint16_t shape_arg = r++;
  code.push_back(I(Op::MOVE, shape_arg, shape, 0, 1));
  code.push_back(I(Op::CALLN, result, b.N(native), static_cast<uint16_t>(r - result - 1)));
  const uint16_t capture = r++, alias = r++, unit = r++;
  code.push_back(I(Op::COPY, alias, result));
  code.push_back(I(Op::CALLN, capture, b.N("test_capture"), 1));
  code.push_back(IsBx(Op::LOADI, unit, 0));
  code.push_back(I(Op::RET, unit));
  refs = {state, shape, result, static_cast<uint16_t>(result + 1), shape_arg, alias};
  const Module m = b.Build(b.Fn("main", {{}, b.Unit()}, r, std::move(code), refs));
  Vm vm;
  vm.AddNatives(stdlib::Natives());
  vm.AddNatives(kCaptureNative);
  vm.SetThreads(threads);
  vm.SetJitEnabled(jit);
  LastCapture().clear();
  absl::Status status = vm.Load(m);
  if (status.ok()) status = vm.RunMain({});
  EXPECT_TRUE(status.ok()) << native << ": " << status;
  EXPECT_EQ(vm.stats().heap_bytes_live, 0u) << native;
  return LastCapture();
}

// Most natives draw their base on the JIT's random kernels and transform it
// with its elementwise kernels (stdlib/random_continuous.cc): the reference
// kernel's bytes all the same.
TEST(Transforms, NativesGiveTheSameBytesOnTwoThreadsWithAndWithoutTheJit) {
  constexpr int64_t kN = 300007;
  // The pool must actually split the draw for this test to prove anything.
  ASSERT_GT(ThreadPool(2).RangesFor(kN, 64, ThreadPool::MinRange(kReferenceDrawNs)), 1);
  struct NativeCase {
    std::string native, name;
    std::vector<double> params;
  };
  const std::vector<NativeCase> natives = {
      {"rand_cauchy", "cauchy", {}},
      {"rand_laplace", "laplace", {}},
      {"rand_logistic", "logistic", {}},
      {"rand_lognormal", "lognormal", {0.3}},
      {"rand_lognormal__default", "lognormal", {}},
      {"rand_maxwell", "maxwell", {}},
      {"rand_double_sided_maxwell", "double_sided_maxwell", {-1.5, 0.7}},
      {"rand_pareto", "pareto", {2.5}},
      {"rand_rayleigh", "rayleigh", {0.1}},
      {"rand_rayleigh__default", "rayleigh", {}},
      {"rand_triangular", "triangular", {0.1, 0.2, 0.7}},
      {"rand_truncated_normal", "truncated_normal", {-0.3, 1.7}},
      {"rand_wald", "wald", {0.7}},
      {"rand_weibull_min", "weibull_min", {1.3, 0.9}},
      {"rand_rademacher", "rademacher", {}},
  };
  const Key k = EffectiveKey(KeyFromSeed(2026));
  for (const NativeCase& c : natives) {
    SCOPED_TRACE(c.native);
    const std::vector<uint8_t> one = RunNative(c.native, c.params, kN, 1, true);
    ASSERT_EQ(one.size(), kN * 4);
    EXPECT_TRUE(one == RunNative(c.native, c.params, kN, 2, true));
    EXPECT_TRUE(one == RunNative(c.native, c.params, kN, 1, false));
    EXPECT_TRUE(one == RunNative(c.native, c.params, kN, 2, false));
    // And the reference kernel's bytes, the defaulted parameter being 1.
    std::vector<uint8_t> direct(kN * 4);
    if (c.name == "rademacher") {
      Rademacher(k, 0, kN, reinterpret_cast<int32_t*>(direct.data()));
    } else {
      std::vector<double> params = c.params;
      if (params.empty() && (c.name == "lognormal" || c.name == "rayleigh")) params = {1.0};
      Fill(c.name, k, params, 0, kN, reinterpret_cast<float*>(direct.data()));
    }
    EXPECT_TRUE(one == direct);
  }
}

}  // namespace
}  // namespace alea::vm::random

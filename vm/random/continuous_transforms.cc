// Transformations of uniform and normal draws (continuous.h): JAX's cauchy,
// laplace, logistic, lognormal, maxwell, double_sided_maxwell, pareto,
// rayleigh, triangular, truncated_normal, wald, weibull_min and rademacher.
// The tensor forms spell out JAX's f32 arithmetic one rounded operation at a
// time (the build has -ffp-contract=off) with the project's f32 math; the
// scalar forms do the same in double with the C library's.
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include "vm/kernels/elementwise.h"
#include "vm/kernels/math_f32.h"
#include "vm/random/continuous.h"
#include "vm/random/samplers.h"
#include "vm/random/scalar.h"
#include "vm/random/threefry.h"

namespace alea::vm::random {
namespace {

using kernels::ErfF32;
using kernels::PowF32;
using kernels::SignF32;
using kernels::UnaryOp;

// Work that needs a second buffer (three normals per element, a normal and a
// uniform, laplace's log1p operand) goes a block at a time through the stack.
constexpr uint64_t kBlock = 256;

// JAX's constants rounded to the dtype: np.sqrt(2) and np.pi as f32 and f64.
constexpr float kSqrt2F = 0x1.6a09e6p+0f;
constexpr float kPiF = 0x1.921fb6p+1f;
constexpr double kSqrt2 = 0x1.6a09e667f3bcdp+0;
constexpr double kPi = 0x1.921fb54442d18p+1;

// XLA's max and min: NaN if either operand is NaN (std::max would keep one).
template <typename T>
T MaxNaN(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  return a > b ? a : b;
}
template <typename T>
T MinNaN(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  return a < b ? a : b;
}

// XLA's sign in double: +-1, and +-0 and NaN unchanged.
double SignF64(double x) {
  if (x == 0.0 || std::isnan(x)) return x;
  return x < 0.0 ? -1.0 : 1.0;
}

// uniform(0, 1) in f32 is u itself (u * 1 + 0 and max(0, u) are exact).
void Unit(Key k, uint64_t start, uint64_t count, float* out) {
  Uniform(k, start, count, 0.0f, 1.0f, out);
}

// Element i of JAX's x64 normal draw of a shape with more than one element:
// its 64 bits hash the counter (i >> 32, i & 0xffffffff), which for i = 0 is
// what NormalScalar draws.
double NormalScalarAt(Key k, uint64_t i) {
  const auto [y0, y1] =
      Threefry2x32(k.k0, k.k1, static_cast<uint32_t>(i >> 32), static_cast<uint32_t>(i));
  const double u = BitsToUnitDouble(uint64_t{y0} << 32 | y1);
  const double lo = std::nextafter(-1.0, 0.0);
  const double scaled = u * (1.0 - lo);
  return NormalQuantileOfErfArgument(MaxNaN(lo, scaled + lo));
}

// The Euclidean norm as jnp.linalg.norm over a last axis of 3: the squares
// summed in index order, then the square root.
template <typename T>
T Norm3(T a, T b, T c) {
  const T aa = a * a;
  const T bb = b * b;
  const T cc = c * c;
  const T sum = aa + bb;
  return std::sqrt(sum + cc);
}

}  // namespace

void F32Math::Unary(kernels::UnaryOp op, float* x, uint64_t n) const {
  kernels::Unary(op, DType::kF32, static_cast<int64_t>(n), x, x);
}

void F32Math::PowScalar(float* x, float y, uint64_t n) const {
  for (uint64_t j = 0; j < n; ++j) x[j] = PowF32(x[j], y);
}

void CauchyFromUniform(const F32Math& math, float* x, uint64_t n) {
  for (uint64_t j = 0; j < n; ++j) x[j] = kPiF * (x[j] - 0.5f);
  math.Unary(UnaryOp::kTan, x, n);
}

void Cauchy(Key k, uint64_t start, uint64_t count, float* out) {
  Uniform(k, start, count, FLT_EPSILON, 1.0f, out);
  CauchyFromUniform(F32Math(), out, count);
}

double CauchyScalar(Key k) {
  const double u = UniformScalar(k, DBL_EPSILON, 1.0);
  return std::tan(kPi * (u - 0.5));
}

void LaplaceFromUniform(const F32Math& math, float* x, uint64_t n) {
  std::array<float, kBlock> t;
  for (uint64_t done = 0; done < n; done += kBlock) {
    const uint64_t m = std::min(kBlock, n - done);
    for (uint64_t j = 0; j < m; ++j) t[j] = -std::fabs(x[done + j]);
    math.Unary(UnaryOp::kLog1p, t.data(), m);
    for (uint64_t j = 0; j < m; ++j) x[done + j] = SignF32(x[done + j]) * t[j];
  }
}

void Laplace(Key k, uint64_t start, uint64_t count, float* out) {
  // -1 + epsneg = nextafter(-1, 0): log1p(-|u|) stays finite.
  Uniform(k, start, count, -0x1.fffffep-1f, 1.0f, out);
  LaplaceFromUniform(F32Math(), out, count);
}

double LaplaceScalar(Key k) {
  const double u = UniformScalar(k, -0x1.fffffffffffffp-1, 1.0);
  return SignF64(u) * std::log1p(-std::fabs(u));
}

void LogisticFromUniform(const F32Math& math, float* x, uint64_t n) {
  for (uint64_t j = 0; j < n; ++j) x[j] = x[j] / (1.0f - x[j]);
  math.Unary(UnaryOp::kLog, x, n);
}

void Logistic(Key k, uint64_t start, uint64_t count, float* out) {
  Uniform(k, start, count, FLT_EPSILON, 1.0f, out);
  LogisticFromUniform(F32Math(), out, count);
}

double LogisticScalar(Key k) {
  const double u = UniformScalar(k, DBL_EPSILON, 1.0);
  return std::log(u / (1.0 - u));
}

void LognormalFromNormal(const F32Math& math, float sigma, float* x, uint64_t n) {
  for (uint64_t j = 0; j < n; ++j) x[j] = x[j] * sigma;
  math.Unary(UnaryOp::kExp, x, n);
}

void Lognormal(Key k, float sigma, uint64_t start, uint64_t count, float* out) {
  Normal(k, start, count, out);
  LognormalFromNormal(F32Math(), sigma, out, count);
}

double LognormalScalar(Key k, double sigma) { return std::exp(NormalScalar(k) * sigma); }

void Maxwell(Key k, uint64_t start, uint64_t count, float* out) {
  std::array<float, 3 * kBlock> z;
  for (uint64_t done = 0; done < count; done += kBlock) {
    const uint64_t n = std::min(kBlock, count - done);
    Normal(k, 3 * (start + done), 3 * n, z.data());
    for (uint64_t j = 0; j < n; ++j) out[done + j] = Norm3(z[3 * j], z[3 * j + 1], z[3 * j + 2]);
  }
}

double MaxwellScalar(Key k) {
  return Norm3(NormalScalarAt(k, 0), NormalScalarAt(k, 1), NormalScalarAt(k, 2));
}

void DoubleSidedMaxwell(Key k, float loc, float scale, uint64_t start, uint64_t count, float* out) {
  Maxwell(SplitKey(k, 0), start, count, out);
  std::array<int32_t, kBlock> sign;
  for (uint64_t done = 0; done < count; done += kBlock) {
    const uint64_t n = std::min(kBlock, count - done);
    Rademacher(SplitKey(k, 1), start + done, n, sign.data());
    for (uint64_t j = 0; j < n; ++j) {
      const float signed_maxwell = static_cast<float>(sign[j]) * out[done + j];
      out[done + j] = signed_maxwell * scale + loc;
    }
  }
}

double DoubleSidedMaxwellScalar(Key k, double loc, double scale) {
  const double maxwell = MaxwellScalar(SplitKey(k, 0));
  const double sign = static_cast<double>(RademacherScalar(SplitKey(k, 1)));
  const double signed_maxwell = sign * maxwell;
  return signed_maxwell * scale + loc;
}

void ParetoFromExponential(const F32Math& math, float b, float* x, uint64_t n) {
  for (uint64_t j = 0; j < n; ++j) x[j] = x[j] / b;
  math.Unary(UnaryOp::kExp, x, n);
}

void Pareto(Key k, float b, uint64_t start, uint64_t count, float* out) {
  Exponential(k, start, count, out);
  ParetoFromExponential(F32Math(), b, out, count);
}

double ParetoScalar(Key k, double b) { return std::exp(ExponentialScalar(k) / b); }

void RayleighFromUniform(const F32Math& math, float scale, float* x, uint64_t n) {
  math.Unary(UnaryOp::kLog, x, n);
  for (uint64_t j = 0; j < n; ++j) x[j] = scale * std::sqrt(x[j] * -2.0f);
}

void Rayleigh(Key k, float scale, uint64_t start, uint64_t count, float* out) {
  Unit(k, start, count, out);
  RayleighFromUniform(F32Math(), scale, out, count);
}

double RayleighScalar(Key k, double scale) {
  return scale * std::sqrt(std::log(UniformScalar(k, 0.0, 1.0)) * -2.0);
}

namespace {

// The inverse CDF of triangular for one u, in T's arithmetic.
template <typename T>
T TriangularOf(T u, T left, T mode, T right) {
  const T width = right - left;
  const T fc = (mode - left) / width;
  if (u < fc) {
    const T low = u * width;
    return left + std::sqrt(low * (mode - left));
  }
  const T high = (T{1} - u) * width;
  return right - std::sqrt(high * (right - mode));
}

}  // namespace

void Triangular(Key k, float left, float mode, float right, uint64_t start, uint64_t count,
                float* out) {
  Unit(k, start, count, out);
  for (uint64_t j = 0; j < count; ++j) out[j] = TriangularOf(out[j], left, mode, right);
}

double TriangularScalar(Key k, double left, double mode, double right) {
  return TriangularOf(UniformScalar(k, 0.0, 1.0), left, mode, right);
}

std::pair<float, float> TruncatedNormalErfBounds(float lower, float upper) {
  return {ErfF32(lower / kSqrt2F), ErfF32(upper / kSqrt2F)};
}

void TruncatedNormalFromUniform(float lower, float upper, float* x, uint64_t n) {
  const float lo = std::nextafter(lower, std::numeric_limits<float>::infinity());
  const float hi = std::nextafter(upper, -std::numeric_limits<float>::infinity());
  kernels::ErfinvF32(x, x, n);
  // jnp.clip: max with the lower bound first, then min with the upper.
  for (uint64_t j = 0; j < n; ++j) x[j] = MinNaN(hi, MaxNaN(lo, kSqrt2F * x[j]));
}

void TruncatedNormal(Key k, float lower, float upper, uint64_t start, uint64_t count, float* out) {
  const auto [a, b] = TruncatedNormalErfBounds(lower, upper);
  Uniform(k, start, count, a, b, out);
  TruncatedNormalFromUniform(lower, upper, out, count);
}

double TruncatedNormalScalar(Key k, double lower, double upper) {
  const double a = std::erf(lower / kSqrt2);
  const double b = std::erf(upper / kSqrt2);
  const double u = UniformScalar(k, a, b);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // erfinv(+-1) = +-inf, reachable when a bound is infinite.
  const double z = u >= 1.0 ? kInf : u <= -1.0 ? -kInf : NormalQuantileOfErfArgument(u);
  return MinNaN(std::nextafter(upper, -kInf), MaxNaN(std::nextafter(lower, kInf), z));
}

namespace {

// wald's transformation of one normal v and one uniform z, in T's arithmetic.
template <typename T>
T WaldOf(T v, T z, T mean) {
  const T y = v * v;
  const T y_sq = y * y;
  const T mean_sq = mean * mean;
  const T four_mean_y = T{4} * mean * y;
  const T sqrt_term = std::sqrt(four_mean_y + mean_sq * y_sq);
  const T x = mean + mean_sq * y / T{2} - mean / T{2} * sqrt_term;
  return z <= mean / (mean + x) ? x : mean_sq / x;
}

}  // namespace

void Wald(Key k, float mean, uint64_t start, uint64_t count, float* out) {
  const Key k_normal = SplitKey(k, 0);
  const Key k_uniform = SplitKey(k, 1);
  std::array<float, kBlock> z;
  for (uint64_t done = 0; done < count; done += kBlock) {
    const uint64_t n = std::min(kBlock, count - done);
    Normal(k_normal, start + done, n, out + done);
    Unit(k_uniform, start + done, n, z.data());
    for (uint64_t j = 0; j < n; ++j) out[done + j] = WaldOf(out[done + j], z[j], mean);
  }
}

double WaldScalar(Key k, double mean) {
  return WaldOf(NormalScalar(SplitKey(k, 0)), UniformScalar(SplitKey(k, 1), 0.0, 1.0), mean);
}

void WeibullMinFromExponential(const F32Math& math, float scale, float concentration, float* x,
                               uint64_t n) {
  // JAX's concentration is a traced f32, so 1 / concentration divides in f32.
  math.PowScalar(x, 1.0f / concentration, n);
  for (uint64_t j = 0; j < n; ++j) x[j] = x[j] * scale;
}

void WeibullMin(Key k, float scale, float concentration, uint64_t start, uint64_t count,
                float* out) {
  Exponential(k, start, count, out);
  WeibullMinFromExponential(F32Math(), scale, concentration, out, count);
}

double WeibullMinScalar(Key k, double scale, double concentration) {
  return std::pow(ExponentialScalar(k), 1.0 / concentration) * scale;
}

void Rademacher(Key k, uint64_t start, uint64_t count, int32_t* out) {
  std::array<uint8_t, kBlock> heads;
  for (uint64_t done = 0; done < count; done += kBlock) {
    const uint64_t n = std::min(kBlock, count - done);
    Bernoulli(k, 0.5f, start + done, n, heads.data());
    for (uint64_t j = 0; j < n; ++j) out[done + j] = 2 * heads[j] - 1;
  }
}

int64_t RademacherScalar(Key k) { return BernoulliScalar(k, 0.5) ? 1 : -1; }

}  // namespace alea::vm::random

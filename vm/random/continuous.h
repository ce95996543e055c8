// Continuous distributions beyond samplers.h's: JAX's jax.random algorithms
// (partitionable Threefry mode), each in two forms. The tensor form fills f32
// elements [start, start + count) of a draw, partitionable as samplers.h's
// (any slice of a draw equals that slice of the whole draw), using the
// project's f32 math (vm/kernels/math_f32.h) where JAX calls jnp functions.
// The scalar form is JAX's 0-d float64 draw (jax_enable_x64), in double with
// the C library's math, from scalar.h's 64-bit uniforms.
//
// Every function takes the counter-0 key it acts on (EffectiveKey(state)).
#ifndef ALEA_VM_RANDOM_CONTINUOUS_H_
#define ALEA_VM_RANDOM_CONTINUOUS_H_

#include <cstdint>
#include <utility>

#include "vm/kernels/elementwise.h"
#include "vm/random/keys.h"

namespace alea::vm::random {

// gumbel: -log(-log(u)), u = uniform(tiny, 1) (JAX's mode "low"), tiny the
// dtype's smallest normal, so that both logs are finite.
void Gumbel(Key k, uint64_t start, uint64_t count, float* out);
double GumbelScalar(Key k);

// ---- Transformations of uniform and normal draws (continuous_transforms.cc) ----
// Each follows jax.random operation by operation: f32 parameters are
// the Float arguments rounded to f32 (JAX's weak-typed scalars), every +, -,
// *, / and sqrt is rounded on its own (no FMA), and JAX's constants (pi,
// sqrt(2), eps...) are rounded to the dtype. Parameters are not checked: as
// in JAX, one outside its domain gives what the formula gives (NaN, inf, or
// numbers of the wrong sign).
//
// Most are a base draw of samplers.h (uniform, normal or exponential)
// followed by elementwise f32 math: NAMEFrom* applies that math in place to
// n elements of the base draw named in its comment. A caller with faster
// kernels for the base (the JIT's random kernels) and for the math (an
// F32Math of the JIT's elementwise kernels) gets the same bits, since both
// equal the reference kernels.

// The f32 math functions a transformation applies, in place. The base class
// runs the reference kernels (vm/kernels/math_f32.h).
class F32Math {
 public:
  virtual ~F32Math() = default;
  // x[i] = op(x[i]) for i < n.
  virtual void Unary(kernels::UnaryOp op, float* x, uint64_t n) const;
  // x[i] = pow(x[i], y) for i < n.
  virtual void PowScalar(float* x, float y, uint64_t n) const;
};

// x: uniform(eps, 1) (eps = FLT_EPSILON).
void CauchyFromUniform(const F32Math& math, float* x, uint64_t n);
// x: uniform(nextafter(-1, 0), 1).
void LaplaceFromUniform(const F32Math& math, float* x, uint64_t n);
// x: uniform(eps, 1).
void LogisticFromUniform(const F32Math& math, float* x, uint64_t n);
// x: normal.
void LognormalFromNormal(const F32Math& math, float sigma, float* x, uint64_t n);
// x: exponential.
void ParetoFromExponential(const F32Math& math, float b, float* x, uint64_t n);
// x: uniform(0, 1).
void RayleighFromUniform(const F32Math& math, float scale, float* x, uint64_t n);
// x: uniform(a, b), with (a, b) = TruncatedNormalErfBounds(lower, upper).
void TruncatedNormalFromUniform(float lower, float upper, float* x, uint64_t n);
std::pair<float, float> TruncatedNormalErfBounds(float lower, float upper);
// x: exponential.
void WeibullMinFromExponential(const F32Math& math, float scale, float concentration, float* x,
                               uint64_t n);

// cauchy: tan(pi * (u - 0.5)), u = uniform(eps, 1).
void Cauchy(Key k, uint64_t start, uint64_t count, float* out);
double CauchyScalar(Key k);

// laplace: sign(u) * log1p(-|u|), u = uniform(-1 + epsneg, 1).
void Laplace(Key k, uint64_t start, uint64_t count, float* out);
double LaplaceScalar(Key k);

// logistic: log(u / (1 - u)), u = uniform(eps, 1).
void Logistic(Key k, uint64_t start, uint64_t count, float* out);
double LogisticScalar(Key k);

// lognormal: exp(normal * sigma).
void Lognormal(Key k, float sigma, uint64_t start, uint64_t count, float* out);
double LognormalScalar(Key k, double sigma);

// maxwell: the norm of three normals, element i from normals 3i, 3i + 1 and
// 3i + 2 of the same key (JAX draws shape + (3,)), summed in that order.
void Maxwell(Key k, uint64_t start, uint64_t count, float* out);
double MaxwellScalar(Key k);

// double_sided_maxwell: sign * maxwell * scale + loc, left to right, with
// (maxwell's key, the sign's key) = split(k) and the sign rademacher's.
void DoubleSidedMaxwell(Key k, float loc, float scale, uint64_t start, uint64_t count, float* out);
double DoubleSidedMaxwellScalar(Key k, double loc, double scale);

// pareto: exp(exponential / b).
void Pareto(Key k, float b, uint64_t start, uint64_t count, float* out);
double ParetoScalar(Key k, double b);

// rayleigh: scale * sqrt(log(u) * -2), u = uniform(0, 1) (u = 0 gives inf).
void Rayleigh(Key k, float scale, uint64_t start, uint64_t count, float* out);
double RayleighScalar(Key k, double scale);

// triangular: with fc = (mode - left) / (right - left), u < fc ? left +
// sqrt(u * (right - left) * (mode - left)) : right - sqrt((1 - u) * (right -
// left) * (right - mode)).
void Triangular(Key k, float left, float mode, float right, uint64_t start, uint64_t count,
                float* out);
double TriangularScalar(Key k, double left, double mode, double right);

// truncated_normal: sqrt(2) * erfinv(u), u = uniform(erf(lower / sqrt(2)),
// erf(upper / sqrt(2))), clipped to [nextafter(lower, inf), nextafter(upper,
// -inf)] (NaN-propagating, max first). The scalar form's sqrt(2) * erfinv(u)
// is NormalQuantileOfErfArgument's (within 2 ulp of exact; +-inf at u = +-1).
void TruncatedNormal(Key k, float lower, float upper, uint64_t start, uint64_t count, float* out);
double TruncatedNormalScalar(Key k, double lower, double upper);

// wald (inverse Gaussian, shape 1): with (k1, k2) = split(k), v = normal(k1)
// and z = uniform(k2), y = v^2: x = mean + mean^2 y / 2 - mean / 2 *
// sqrt(4 mean y + mean^2 y^2); z <= mean / (mean + x) ? x : mean^2 / x.
void Wald(Key k, float mean, uint64_t start, uint64_t count, float* out);
double WaldScalar(Key k, double mean);

// weibull_min: pow(-log1p(-u), 1 / concentration) * scale, u = uniform(0, 1).
void WeibullMin(Key k, float scale, float concentration, uint64_t start, uint64_t count,
                float* out);
double WeibullMinScalar(Key k, double scale, double concentration);

// rademacher: 2 * bernoulli(0.5) - 1, so -1 or 1 (JAX's i32; scalar: int64).
void Rademacher(Key k, uint64_t start, uint64_t count, int32_t* out);
int64_t RademacherScalar(Key k);

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_CONTINUOUS_H_

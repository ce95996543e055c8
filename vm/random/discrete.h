// Discrete distributions: JAX's jax.random algorithms for poisson, binomial,
// geometric and multinomial (partitionable Threefry mode), each in two forms
// where the result is one number. The tensor form fills elements
// [start, start + count) of a draw, partitionable as samplers.h's, in f32
// with the project's f32 math (vm/kernels/math_f32.h) where JAX calls jnp
// functions. The scalar form is JAX's 0-d draw with jax_enable_x64, in double
// with the C library's math, from scalar.h's 64-bit uniforms (poisson
// excepted: JAX converts its rate to float32 in every mode).
//
// JAX's rejection samplers run one while loop over the whole tensor: each
// round draws fresh uniforms for every element (from keys split off a chain
// that is the same for all elements), and an element that is accepted again
// in a later round, while others are still being tried, takes the later
// value. That makes an element depend on how many rounds the whole tensor
// needed. Here each element keeps its FIRST acceptance, so element i depends
// only on (key, i), any slice equals that slice of the whole draw, and a 0-d
// draw is exactly JAX's (docs/random.md "Departures from JAX").
//
// Parameters are assumed valid (the natives check them): JAX's NaN or -1
// answers to invalid ones are run-time errors in Alea. Every function takes
// the counter-0 key it acts on (EffectiveKey(state)).
#ifndef ALEA_VM_RANDOM_DISCRETE_H_
#define ALEA_VM_RANDOM_DISCRETE_H_

#include <cstdint>

#include "vm/random/draw_kernels.h"
#include "vm/random/keys.h"

namespace alea::vm::random {

// XLA's float to integer conversion: NaN gives 0, values out of range
// saturate, others truncate toward zero.
int32_t SaturateToI32(double x);
int64_t SaturateToI64(double x);

// poisson(k, lam, shape): lam (finite, >= 0) as f32, as JAX converts it.
// lam < 10: Knuth's method, one uniform per round until the running sum of
// their logs reaches -lam; otherwise Hormann's transformed rejection (PTRS).
// lam == 0 gives 0. `batch` draws the uniforms and takes their logs (the
// same bits from any).
void Poisson(Key k, float lam, uint64_t start, uint64_t count, int32_t* out,
             const DrawKernels& batch = ReferenceKernels());
// JAX's x64 0-d draw: the same f32 computation, element 0, as an int64.
int64_t PoissonScalar(Key k, float lam);

// binomial(k, n, p, shape) as f32 counts: n >= 0 (a fraction is rounded
// down; +inf gives +inf), 0 <= p <= 1. With q = min(p, 1 - p): inversion
// (a sum of geometric draws) when n * q <= 10, else Kachitvichyanukul and
// Schmeiser's BTRS; for p >= 0.5 the result is n minus a draw with q.
void Binomial(Key k, float n, float p, uint64_t start, uint64_t count, float* out,
              const DrawKernels& batch = ReferenceKernels());
double BinomialScalar(Key k, double n, double p);

// geometric(k, p, shape): the number of trials up to the first success,
// floor(log(u) / log1p(-p)) + 1 with u uniform and u == 0 taken as 1
// (JAX's guard), as i32 (saturating). 0 < p <= 1.
void Geometric(Key k, float p, uint64_t start, uint64_t count, int32_t* out,
               const DrawKernels& batch = ReferenceKernels());
int64_t GeometricScalar(Key k, double p);

// multinomial's conditional probabilities: ratios[j] = p[j] / (the sum of
// p[j:], or 1 where it is 0), clipped to [0, 1]. Each suffix is summed from
// its first element on, in f32, as XLA's reduce-window computes
// lax.cumsum(p, reverse=True). p: classes finite values >= 0.
void MultinomialRatios(const float* p, int64_t classes, float* ratios);

// multinomial(k, n, p) over rows [start_row, start_row + rows) of a
// [batch, classes] f32 result: category j of row b is binomial(split(k,
// classes)[j], remainder, ratios[j]) at element b, the remainder starting at
// n and losing each count in turn (JAX's scan). n >= 0.
void Multinomial(Key k, float n, const float* ratios, int64_t classes, uint64_t start_row,
                 uint64_t rows, float* out, const DrawKernels& batch = ReferenceKernels());

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_DISCRETE_H_

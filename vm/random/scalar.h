// Scalar draws: what JAX draws for a 0-d float64 / int64 sample in 64-bit
// mode (`jax_enable_x64`), partitionable Threefry, from a counter-0 key
// (EffectiveKey(state)). They allocate nothing and take one hash (randint:
// three), the draws of a hot loop (docs/random.md "Scalar draws").
#ifndef ALEA_VM_RANDOM_SCALAR_H_
#define ALEA_VM_RANDOM_SCALAR_H_

#include <cstdint>

#include "vm/random/keys.h"

namespace alea::vm::random {

// The 64 random bits of a 0-d draw: y0 << 32 | y1 of threefry(k, (0, 0)).
uint64_t Bits64(Key k);

// The double in [0, 1) that JAX makes of 64 bits: the top 52 as the mantissa
// of a double in [1, 2), minus 1 (exact).
double BitsToUnitDouble(uint64_t bits);

// uniform: max(lo, u * (hi - lo) + lo) in double, each operation rounded (no
// FMA), u = BitsToUnitDouble(Bits64(k)). A NaN bound gives NaN, as XLA's max.
double UniformScalar(Key k, double lo, double hi);

// normal: sqrt(2) * erfinv(u), u = UniformScalar(k, nextafter(-1, 0), 1), as
// JAX; the product is within 2 ulp of its exact value for every u (XLA's
// float64 erf_inv is not: up to ~200 ulp in the tails).
double NormalScalar(Key k);

// sqrt(2) * erfinv(u) for u in (-1, 1), within 2 ulp of the exact value.
double NormalQuantileOfErfArgument(double u);

// exponential: -log1p(-u), u = UniformScalar(k, 0, 1).
double ExponentialScalar(Key k);

// bernoulli: UniformScalar(k, 0, 1) < p.
bool BernoulliScalar(Key k, double p);

// randint in [lo, hi) as int64: JAX's algorithm at 64 bits. (k1, k2) =
// split(k); higher = Bits64(k1), lower = Bits64(k2); span = hi - lo as u64
// (1 when hi <= lo, so lo is returned); multiplier = (2^32 mod span)^2 mod
// span, the square wrapping in u64; offset = ((higher mod span) * multiplier
// + lower mod span) mod span, wrapping in u64; lo + offset, wrapping.
int64_t RandIntScalar(Key k, int64_t lo, int64_t hi);

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_SCALAR_H_

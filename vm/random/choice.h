// jax.random.choice's index draws on plain buffers (partitionable Threefry
// mode): uniform with replacement (JAX's randint), weights with replacement
// (an inverse CDF by binary search) and weights without (the Gumbel top-k
// trick); uniform without replacement is a prefix of samplers.h's
// Permutation. The callers check the
// weights: finite, >= 0, not all 0. Every function takes the counter-0 key
// it acts on (EffectiveKey(state)).
#ifndef ALEA_VM_RANDOM_CHOICE_H_
#define ALEA_VM_RANDOM_CHOICE_H_

#include <cstdint>

#include "vm/random/draw_kernels.h"
#include "vm/random/keys.h"

namespace alea::vm::random {

// cum[i] = p[0] + ... + p[i], summed in order in f32 (jnp.cumsum).
void CumulativeSum(const float* p, int64_t n, float* cum);

// Uniform with replacement: elements [start, start + count) of randint(k,
// 0, n) for 1 <= n <= 2^31 - 1, samplers.h's RandInt bit for bit, on runs of
// bits from `batch`. Partitionable.
void ChoiceUniform(Key k, int64_t n, uint64_t start, uint64_t count, int32_t* out,
                   const DrawKernels& batch = ReferenceKernels());

// With replacement by weights: elements [start, start + count) of the draw,
// element i the first c with cum[c] >= cum[n - 1] * (1 - u_i)
// (jnp.searchsorted, side left), u_i element i of an f32 uniform draw.
// Partitionable.
void ChoiceByWeights(Key k, const float* cum, int64_t n, uint64_t start, uint64_t count,
                     int32_t* out, const DrawKernels& batch = ReferenceKernels());

// Without replacement: the `draws` indices c of the largest g[c] + log(p[c]),
// g = gumbel(k, [n]) (mode "low"), largest first and the lower index first
// among equals (lax.top_k). Not partitionable: the whole result at once.
void ChoiceTopK(Key k, const float* p, int64_t n, int64_t draws, int32_t* out,
                const DrawKernels& batch = ReferenceKernels());

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_CHOICE_H_

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

#include "vm/random/keys.h"

namespace alea::vm::random {

// gumbel: -log(-log(u)), u = uniform(tiny, 1) (JAX's mode "low"), tiny the
// dtype's smallest normal, so that both logs are finite.
void Gumbel(Key k, uint64_t start, uint64_t count, float* out);
double GumbelScalar(Key k);

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_CONTINUOUS_H_

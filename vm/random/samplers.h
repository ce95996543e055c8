// Reference sampling kernels over plain buffers: JAX's jax.random algorithms
// (partitionable Threefry mode) in scalar C++, bit for bit.
//
// Element-wise samplers are partitionable: they take the row-major index
// `start` of the first element wanted and a `count`, and out[j] is element
// start + j of the whole tensor. So any slice of a draw equals the same slice
// of the whole draw, and callers may split work across threads freely.
//
// Every sampler takes the counter-0 key it acts on (EffectiveKey(state)).
#ifndef ALEA_VM_RANDOM_SAMPLERS_H_
#define ALEA_VM_RANDOM_SAMPLERS_H_

#include <bit>
#include <cstdint>

#include "vm/random/draw_kernels.h"
#include "vm/random/keys.h"

namespace alea::vm::random {

// bits: element i hashes its index as the counter (i >> 32, i & 0xffffffff)
// and xors the two output words (JAX's 32-bit random_bits).
void Bits(Key k, uint64_t start, uint64_t count, uint32_t* out);

// The f32 in [0, 1) that JAX makes of 32 random bits: the top 23 bits as the
// mantissa of a float in [1, 2), minus 1 (exact).
inline float BitsToUnitFloat(uint32_t bits) {
  // 0x3f800000 is 1.0f: the exponent of [1, 2), the top 23 random bits below it.
  return std::bit_cast<float>((bits >> 9) | 0x3f800000u) - 1.0f;
}
// normal's value of one element's bits (see Normal below).
float NormalOfBits(uint32_t bits);

// uniform: max(lo, u * (hi - lo) + lo) in f32, each operation rounded (no
// FMA), u from Bits. As XLA's max, a NaN operand gives NaN.
void Uniform(Key k, uint64_t start, uint64_t count, float lo, float hi, float* out);

// bernoulli: uniform(k) < p, as 0 or 1.
void Bernoulli(Key k, float p, uint64_t start, uint64_t count, uint8_t* out);

// randint in [lo, hi) as i32: JAX's algorithm. Two bit streams from
// split(k) (higher from key 0, lower from key 1), combined modulo the span
// (hi - lo as u32) through multiplier = (2^16 mod span)^2 mod span in wrapping
// u32 arithmetic (which is 0 for spans above 2^16: JAX's behaviour, kept).
// hi <= lo gives lo. lo and hi are clipped to i32 as JAX does with an int64
// bound, and hi > INT32_MAX widens the span by one so that INT32_MAX can
// occur (a span that wraps to 0 means "all of u32", XLA's x % 0 == x).
void RandInt(Key k, int64_t lo, int64_t hi, uint64_t start, uint64_t count, int32_t* out);

// The per-element combination RandInt applies to its high and low words.
int32_t RandIntFromWords(int64_t lo, int64_t hi, uint32_t high, uint32_t low);

// The number of sort rounds JAX's shuffle uses for n elements:
// ceil(3 * ln(max(1, n)) / ln(2^32 - 1)), i.e. 0 for n <= 1, 1 up to 1625, then 2.
int PermutationRounds(uint64_t n);

// permutation(k, n): JAX's sort-based shuffle of 0..n-1 (not partitionable:
// the whole result at once). Each round: (k, sub) = split(k), then a stable
// sort of the current values by Bits(sub) over the n positions. n must fit
// in i32 (the values are i32). `scratch` holds n words, the sort's rows: the
// VM's callers take them from the heap (TensorContext::Scratch), whose
// budget bounds them (n may be 2^31 - 1: 16 GB), and nothing else is
// allocated.
void Permutation(Key k, uint64_t n, int32_t* out, uint64_t* scratch);

// normal: sqrt(2) * erfinv(u) in f32 with u = uniform(nextafter(-1, 0), 1)
// (JAX's range, so erfinv never sees -1) and the project's ErfinvF32.
void Normal(Key k, uint64_t start, uint64_t count, float* out);

// exponential: -log1p(-u), u = uniform(0, 1), with the project's Log1pF32.
void Exponential(Key k, uint64_t start, uint64_t count, float* out);

// categorical over the last axis of logits [rows, classes] (JAX's Gumbel-max,
// replace=True): out[r] = the first index j maximising logits[r][j] + g(r, j),
// g = -log(-log(uniform(FLT_MIN, 1))) drawn over the whole [rows, classes]
// tensor (element index row * classes + j), with the project's LogF32. As
// jnp.argmax, a NaN counts as the maximum. Partitionable by rows: `logits`
// points at row start_row and out[r] is row start_row + r. classes must be
// > 0 (JAX rejects an empty axis); with 0, out is all 0. The noise is drawn
// by `batch` (the JIT's Gumbel kernel, or the reference's).
void Categorical(Key k, const float* logits, uint64_t classes, uint64_t start_row, uint64_t rows,
                 int32_t* out, const DrawKernels& batch = ReferenceKernels());

// Flax's dropout: keep with probability keep = f32(1 - rate) (bernoulli), a
// kept x becomes x / keep in f32, a dropped one 0. rate == 0 returns x and
// rate == 1 zeros without drawing, as Flax does. x[j] and out[j] are element
// start + j; they may alias.
void Dropout(Key k, double rate, const float* x, uint64_t start, uint64_t count, float* out);

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_SAMPLERS_H_

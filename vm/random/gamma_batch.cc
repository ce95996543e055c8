// GammaOneRangeF32: JAX's _gamma_one over a range of elements, the first
// round of a block of elements at a time. A gamma draw is mostly hashing: an
// element that accepts its first candidate (over 95% of them for alpha >= 1)
// takes 7 Threefry hashes (9 with the boost), each under a key of its own.
// Each hash of a round runs over the block's elements still in the loop as
// one keyed batch (DrawKernels::Keyed: the JIT's Threefry in 8 or 16 lanes,
// or the reference's), the normal's erfinv with it, and the acceptance
// test's logs as one batch too; what is left per element is a few
// multiplications. Each element's numbers are the one-element loop's
// (GammaSteps, the same sub-draw arithmetic); an element that needs a second
// normal candidate (v <= 0), more than kBatchedRounds rounds, or whose alpha
// makes d not a positive number, is drawn again by GammaOneF32, whose loop
// takes it from the start.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "vm/kernels/math_f32.h"
#include "vm/random/gamma.h"
#include "vm/random/gamma_internal.h"
#include "vm/random/samplers.h"

namespace alea::vm::random::gamma_internal {
namespace {

// Elements per batch: the block's arrays (some 20 of them) stay in L1.
constexpr uint64_t kBlock = 256;

// Counters (0, c): a zero high word, and the child index c as the low one.
struct Counters {
  uint32_t zero[kBlock] = {};
  uint32_t one[kBlock], two[kBlock];
  Counters() {
    std::fill(one, one + kBlock, 1u);
    std::fill(two, two + kBlock, 2u);
  }
};

const Counters& Fixed() {
  static const Counters counters;
  return counters;
}

// The rounds after the first run in batches too: an element rejected in
// round t goes on to round t + 1 with the others rejected there, and only
// those left after this many rounds (or needing a second candidate, or with
// an alpha whose d is not a positive number) take the one-element loop.
constexpr int kBatchedRounds = 4;

}  // namespace

void GammaOneRangeF32(Key k, uint64_t start, uint64_t count, const float* alpha,
                      uint64_t alpha_stride, bool log_space, float* out, const DrawKernels& batch) {
  if (count == 0) return;
  const Counters& c = Fixed();
  // One alpha for the whole range: its d, c and log(d) once.
  const GammaSteps<F32Math> shared(alpha[0]);
  const float shared_log_d = log_space ? kernels::LogF32(shared.d) : 0.0f;
  uint32_t k0[kBlock], k1[kBlock], hi[kBlock], lo[kBlock];
  uint32_t e0[kBlock], e1[kBlock], r0[kBlock], r1[kBlock], w0[kBlock], w1[kBlock];
  uint32_t u_bits[kBlock], boost_bits[kBlock];
  float normal[kBlock], U[kBlock], V[kBlock], log_U[kBlock], log_V[kBlock];
  // Per element of the block: accepted V and log(V), or not (yet).
  float final_V[kBlock], final_log_V[kBlock];
  // Each element's d and c (all the same for one alpha), and of the pending
  // ones in a round.
  float d_of[kBlock], c_of[kBlock], pending_d[kBlock], pending_c[kBlock];
  bool accepted[kBlock];
  // The elements still in the loop: their index in the block, and in r0/r1
  // the key their next round splits (the element key before round 0).
  uint32_t pending[kBlock];
  std::fill(k0, k0 + kBlock, k.k0);
  std::fill(k1, k1 + kBlock, k.k1);
  for (uint64_t base = 0; base < count; base += kBlock) {
    const uint64_t n = std::min(kBlock, count - base);
    // Element keys SplitKey(k, i): counter (i >> 32, i).
    for (uint64_t j = 0; j < n; ++j) {
      const uint64_t i = start + base + j;
      hi[j] = static_cast<uint32_t>(i >> 32);
      lo[j] = static_cast<uint32_t>(i);
    }
    batch.Keyed(KeyedDraw::kWords, {k0, k1, hi, lo}, e0, e1, n);
    uint64_t left = 0;
    for (uint64_t j = 0; j < n; ++j) {
      accepted[j] = false;
      if (alpha_stride == 0) {
        d_of[j] = shared.d;
        c_of[j] = shared.c;
      } else {
        const GammaSteps<F32Math> steps(alpha[base + j]);
        d_of[j] = steps.d;
        c_of[j] = steps.c;
      }
      // JAX's loop never starts when d is inf or NaN; the loop handles it.
      if (!(d_of[j] > 0.0f && std::isfinite(d_of[j]))) continue;
      pending[left] = static_cast<uint32_t>(j);
      pending_d[left] = d_of[j];
      pending_c[left] = c_of[j];
      r0[left] = e0[j];
      r1[left] = e1[j];
      ++left;
    }
    for (int round = 0; round < kBatchedRounds && left > 0; ++round) {
      // key = split(key)'s first ((key, subkey) = split(element key) in
      // round 0); (key, x_key, u_key) = split(key, 3); (x_key, sub) =
      // split(x_key): normal(sub), uniform(u_key).
      batch.Keyed(KeyedDraw::kWords, {r0, r1, c.zero, c.zero}, r0, r1, left);
      batch.Keyed(KeyedDraw::kWords, {r0, r1, c.zero, c.two}, w0, w1, left);
      batch.Keyed(KeyedDraw::kBits, {w0, w1, c.zero, c.zero}, u_bits, nullptr, left);
      batch.Keyed(KeyedDraw::kWords, {r0, r1, c.zero, c.one}, w0, w1, left);
      batch.Keyed(KeyedDraw::kWords, {w0, w1, c.zero, c.one}, w0, w1, left);
      batch.Keyed(KeyedDraw::kNormal, {w0, w1, c.zero, c.zero}, reinterpret_cast<uint32_t*>(normal),
                  nullptr, left);
      for (uint64_t p = 0; p < left; ++p) {
        const float v = 1.0f + normal[p] * pending_c[p];
        // A candidate with v <= 0 is drawn again from x_key: the loop's.
        V[p] = v > 0.0f ? (v * v) * v : 1.0f;
        U[p] = BitsToUnitFloat(u_bits[p]);
      }
      // The acceptance test's logs, for every candidate at once (the test
      // reads them only when the squeeze fails; their values are M::Log's).
      batch.Log(U, log_U, left);
      batch.Log(V, log_V, left);
      // Without branches on the tests' outcomes, which are random: every
      // element is written as accepted or not, and copied to the next
      // round's slot, which only the rejected ones keep.
      uint64_t still = 0;
      for (uint64_t p = 0; p < left; ++p) {
        const uint32_t j = pending[p];
        const float x = normal[p];
        const float v = 1.0f + x * pending_c[p];
        const bool candidate = v > 0.0f;  // else the one-element loop redraws x
        const float X = x * x;
        const bool accept =
            candidate & (Squeezed<F32Math>(X, U[p]) |
                         !LogTestRejects<F32Math>(pending_d[p], X, V[p], log_U[p], log_V[p]));
        accepted[j] = accept;
        final_V[j] = V[p];
        final_log_V[j] = log_V[p];
        pending[still] = j;
        pending_d[still] = pending_d[p];
        pending_c[still] = pending_c[p];
        r0[still] = r0[p];
        r1[still] = r1[p];
        still += candidate & !accept;
      }
      left = still;
    }
    bool any_boost = false;
    for (uint64_t j = 0; j < n; ++j) any_boost |= !(alpha[(base + j) * alpha_stride] >= 1.0f);
    if (any_boost) {
      // subkey = split(element key)'s second: the boost's uniform.
      batch.Keyed(KeyedDraw::kWords, {e0, e1, c.zero, c.one}, w0, w1, n);
      batch.Keyed(KeyedDraw::kBits, {w0, w1, c.zero, c.zero}, boost_bits, nullptr, n);
    }
    for (uint64_t j = 0; j < n; ++j) {
      const float a = alpha[(base + j) * alpha_stride];
      float* y = out + base + j;
      if (!accepted[j]) {
        *y = GammaOneF32(Key{e0[j], e1[j]}, a, log_space);
        continue;
      }
      const GammaSteps<F32Math> steps = alpha_stride == 0 ? shared : GammaSteps<F32Math>(a);
      const float log_d =
          alpha_stride == 0 ? shared_log_d : (log_space ? kernels::LogF32(steps.d) : 0.0f);
      if (steps.boost_mask) {
        // Finish's arithmetic without a boost, log(V) from the batch.
        *y = log_space ? (log_d + final_log_V[j]) + 0.0f : (steps.d * final_V[j]) * 1.0f;
        continue;
      }
      *y = steps.Finish(
          final_V[j], log_space, [&] { return BitsToUnitFloat(boost_bits[j]); }, log_d);
    }
  }
}

}  // namespace alea::vm::random::gamma_internal

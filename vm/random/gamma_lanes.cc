// GammaOneRangeF32: JAX's _gamma_one over a range of elements, the first
// round of 8 elements at a time. A gamma draw is mostly hashing: an element
// that accepts its first candidate (over 95% of them for alpha >= 1) takes 7
// Threefry hashes (8 with the boost), each a chain of 20 dependent rounds. One
// element at a time leaves the CPU waiting on that chain; 8 independent lanes
// fill it (and the compiler's SIMD registers). Each lane's numbers are the
// one-element loop's (GammaSteps, the same sub-draw arithmetic); an element
// that needs a second candidate, or whose alpha makes d not a positive
// number, is drawn again by GammaOneF32, whose loop takes it from the start.
#include <cmath>
#include <cstdint>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "vm/kernels/math_f32.h"
#include "vm/random/gamma.h"
#include "vm/random/gamma_internal.h"
#include "vm/random/samplers.h"

namespace alea::vm::random::gamma_internal {
namespace {

constexpr int kLanes = 8;

// Threefry-2x32's key-schedule parity constant (Random123, Skein).
constexpr uint32_t kParity = 0x1BD11BDA;

struct Lanes {
  uint32_t w[kLanes];
};

#if defined(__SSE2__)

// Two SSE2 registers of 4 lanes (every x86-64 has SSE2).
template <int R>
inline __m128i Rotate(__m128i x) {
  return _mm_or_si128(_mm_slli_epi32(x, R), _mm_srli_epi32(x, 32 - R));
}

template <int R>
inline void Mix(__m128i a[2], __m128i b[2]) {
  for (int h = 0; h < 2; ++h) {
    a[h] = _mm_add_epi32(a[h], b[h]);
    b[h] = _mm_xor_si128(Rotate<R>(b[h]), a[h]);
  }
}

inline void Load(const Lanes& x, __m128i v[2]) {
  v[0] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x.w));
  v[1] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x.w + 4));
}

inline void Store(const __m128i v[2], Lanes& x) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(x.w), v[0]);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(x.w + 4), v[1]);
}

// Threefry-2x32/20 of each lane's key (k0, k1) and counter (c0, c1): five
// groups of four rounds, a key injection after each, the rotations of
// Random123's 2x32 (13 15 26 6, then 17 29 16 24).
void Hash(const Lanes& k0, const Lanes& k1, const Lanes& c0, const Lanes& c1, Lanes& y0,
          Lanes& y1) {
  __m128i ks[3][2], a[2], b[2];
  Load(k0, ks[0]);
  Load(k1, ks[1]);
  Load(c0, a);
  Load(c1, b);
  const __m128i parity = _mm_set1_epi32(static_cast<int>(kParity));
  for (int h = 0; h < 2; ++h) {
    ks[2][h] = _mm_xor_si128(_mm_xor_si128(ks[0][h], ks[1][h]), parity);
    a[h] = _mm_add_epi32(a[h], ks[0][h]);
    b[h] = _mm_add_epi32(b[h], ks[1][h]);
  }
  for (int s = 1; s <= 5; ++s) {
    if (s % 2 == 1) {
      Mix<13>(a, b);
      Mix<15>(a, b);
      Mix<26>(a, b);
      Mix<6>(a, b);
    } else {
      Mix<17>(a, b);
      Mix<29>(a, b);
      Mix<16>(a, b);
      Mix<24>(a, b);
    }
    const __m128i step = _mm_set1_epi32(s);
    for (int h = 0; h < 2; ++h) {
      a[h] = _mm_add_epi32(a[h], ks[s % 3][h]);
      b[h] = _mm_add_epi32(_mm_add_epi32(b[h], ks[(s + 1) % 3][h]), step);
    }
  }
  Store(a, y0);
  Store(b, y1);
}

#else

template <int R>
inline void Mix(Lanes& a, Lanes& b) {
  for (int l = 0; l < kLanes; ++l) {
    a.w[l] += b.w[l];
    b.w[l] = (b.w[l] << R) | (b.w[l] >> (32 - R));
    b.w[l] ^= a.w[l];
  }
}

// Threefry-2x32/20 of each lane's key (k0, k1) and counter (c0, c1): five
// groups of four rounds, a key injection after each, the rotations of
// Random123's 2x32 (13 15 26 6, then 17 29 16 24).
void Hash(const Lanes& k0, const Lanes& k1, const Lanes& c0, const Lanes& c1, Lanes& y0,
          Lanes& y1) {
  Lanes k2, a, b;
  for (int l = 0; l < kLanes; ++l) {
    k2.w[l] = k0.w[l] ^ k1.w[l] ^ kParity;
    a.w[l] = c0.w[l] + k0.w[l];
    b.w[l] = c1.w[l] + k1.w[l];
  }
  const Lanes* ks[3] = {&k0, &k1, &k2};
  for (uint32_t s = 1; s <= 5; ++s) {
    if (s % 2 == 1) {
      Mix<13>(a, b);
      Mix<15>(a, b);
      Mix<26>(a, b);
      Mix<6>(a, b);
    } else {
      Mix<17>(a, b);
      Mix<29>(a, b);
      Mix<16>(a, b);
      Mix<24>(a, b);
    }
    for (int l = 0; l < kLanes; ++l) {
      a.w[l] += ks[s % 3]->w[l];
      b.w[l] += ks[(s + 1) % 3]->w[l] + s;
    }
  }
  y0 = a;
  y1 = b;
}

#endif

Lanes Fill(uint32_t v) {
  Lanes x;
  for (int l = 0; l < kLanes; ++l) x.w[l] = v;
  return x;
}

// Child i < 2^32 of each lane's key: JAX's split (and fold_in), counter (0, i).
void Child(const Lanes& k0, const Lanes& k1, uint32_t i, Lanes& y0, Lanes& y1) {
  Hash(k0, k1, Fill(0), Fill(i), y0, y1);
}

// Element 0 of a 32-bit draw from each lane's key: the xor of counter (0, 0)'s
// two words.
Lanes Bits0(const Lanes& k0, const Lanes& k1) {
  Lanes y0, y1;
  Hash(k0, k1, Fill(0), Fill(0), y0, y1);
  for (int l = 0; l < kLanes; ++l) y0.w[l] ^= y1.w[l];
  return y0;
}

// samplers.h's Normal of element 0 from its bits: u uniform on
// (nextafter(-1, 0), 1) in two roundings, then sqrt(2) * erfinv(u).
float NormalOfBits(uint32_t bits) {
  constexpr float kLo = -0x1.fffffep-1f;  // nextafter(-1, 0)
  constexpr float kSqrt2 = 0x1.6a09e6p+0f;
  const float scaled = BitsToUnitFloat(bits) * (1.0f - kLo);
  const float u = scaled + kLo;
  return kSqrt2 * kernels::ErfinvF32(u > kLo ? u : kLo);
}

}  // namespace

void GammaOneRangeF32(Key k, uint64_t start, uint64_t count, const float* alpha,
                      uint64_t alpha_stride, bool log_space, float* out) {
  if (count == 0) return;
  // One alpha for the whole range: its d, c and log(d) once.
  const GammaSteps<F32Math> shared(alpha[0]);
  const float shared_log_d = log_space ? kernels::LogF32(shared.d) : 0.0f;
  for (uint64_t base = 0; base < count; base += kLanes) {
    const int n = static_cast<int>(count - base < kLanes ? count - base : kLanes);
    // Element keys SplitKey(k, i): counter (i >> 32, i); spare lanes repeat
    // the last element.
    Lanes hi, lo;
    for (int l = 0; l < kLanes; ++l) {
      const uint64_t i = start + base + static_cast<uint64_t>(l < n ? l : n - 1);
      hi.w[l] = static_cast<uint32_t>(i >> 32);
      lo.w[l] = static_cast<uint32_t>(i);
    }
    Lanes e0, e1, r0, r1, x0, x1, u0, u1, n0, n1;
    Hash(Fill(k.k0), Fill(k.k1), hi, lo, e0, e1);
    Child(e0, e1, 0, r0, r1);  // (key, subkey) = split(element key): key
    Child(r0, r1, 1, x0, x1);  // (key, x_key, u_key) = split(key, 3)
    Child(r0, r1, 2, u0, u1);
    Child(x0, x1, 1, n0, n1);  // (x_key, sub) = split(x_key): normal(sub)
    const Lanes normal_bits = Bits0(n0, n1);
    const Lanes uniform_bits = Bits0(u0, u1);
    bool any_boost = false;
    for (int l = 0; l < n; ++l) any_boost |= !(alpha[(base + l) * alpha_stride] >= 1.0f);
    Lanes boost_bits{};
    if (any_boost) {
      Lanes s0, s1;
      Child(e0, e1, 1, s0, s1);  // subkey
      boost_bits = Bits0(s0, s1);
    }
    for (int l = 0; l < n; ++l) {
      const float a = alpha[(base + l) * alpha_stride];
      const GammaSteps<F32Math> steps = alpha_stride == 0 ? shared : GammaSteps<F32Math>(a);
      const float log_d =
          alpha_stride == 0 ? shared_log_d : (log_space ? kernels::LogF32(steps.d) : 0.0f);
      float* y = out + base + l;
      if (steps.d > 0.0f && std::isfinite(steps.d)) {
        const float x = NormalOfBits(normal_bits.w[l]);
        const float v = 1.0f + x * steps.c;
        if (v > 0.0f) {
          const float X = x * x;
          const float V = (v * v) * v;
          const float U = BitsToUnitFloat(uniform_bits.w[l]);
          if (!steps.Reject(X, V, U)) {
            *y = steps.Finish(
                V, log_space, [&] { return BitsToUnitFloat(boost_bits.w[l]); }, log_d);
            continue;
          }
        }
      }
      *y = GammaOneF32(Key{e0.w[l], e1.w[l]}, a, log_space);
    }
  }
}

}  // namespace alea::vm::random::gamma_internal

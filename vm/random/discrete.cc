// JAX's discrete samplers (discrete.h). The float arithmetic is spelled as
// JAX spells it, one rounded operation at a time (the build has
// -ffp-contract=off), with JAX's Python constants rounded from double to
// the draw's type as JAX converts weakly typed constants: T(0.07), never
// 0.07f (a decimal literal rounded straight to float may differ).
#include "vm/random/discrete.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vm/kernels/math_f32.h"
#include "vm/random/samplers.h"
#include "vm/random/scalar.h"
#include "vm/random/threefry.h"

namespace alea::vm::random {
namespace {

// The keys of a rejection loop's rounds. JAX splits its loop key every
// round into `arity` keys: the one at `carry` goes on to the next round, the
// others (in order) draw this round's uniforms. The chain is the same for
// every element, so a range computes it once, as far as its elements need.
class RoundKeys {
 public:
  RoundKeys(Key k, int arity, int carry) : next_(k), arity_(arity), carry_(carry) {}

  // The draw keys of round r (arity - 1 of them).
  const Key* Round(size_t r) {
    while (r >= rounds_) {
      for (int i = 0; i < arity_; ++i) {
        if (i != carry_) subs_.push_back(SplitKey(next_, static_cast<uint64_t>(i)));
      }
      next_ = SplitKey(next_, static_cast<uint64_t>(carry_));
      ++rounds_;
    }
    return subs_.data() + r * static_cast<size_t>(arity_ - 1);
  }

 private:
  Key next_;
  int arity_, carry_;
  size_t rounds_ = 0;
  std::vector<Key> subs_;
};

// A draw's uniform on [0, 1) and its math: f32 tensors take element i of
// an f32 draw and the project's f32 functions; x64 scalars take the 0-d
// float64 draw and the C library's.
template <typename T>
struct Arith;

template <>
struct Arith<float> {
  static float Uniform(Key k, uint64_t i) {
    uint32_t bits;
    Bits(k, i, 1, &bits);
    return BitsToUnitFloat(bits);
  }
  static float Log(float x) { return kernels::LogF32(x); }
  static float Log1p(float x) { return kernels::Log1pF32(x); }
};

template <>
struct Arith<double> {
  static double Uniform(Key k, uint64_t) { return UniformScalar(k, 0.0, 1.0); }
  static double Log(double x) { return std::log(x); }
  static double Log1p(double x) { return std::log1p(x); }
};

// ---- poisson ----

// The uniforms on [0, 1) of up to kMax elements under one key: element
// start + idx[p]'s into u[p], as one keyed batch (the same bits as Arith's
// Uniform). The rejection loops' rounds share a key across elements but keep
// each element's own counter, and only the elements still in a loop draw.
class KeyedUniforms {
 public:
  static constexpr size_t kMax = 512;

  explicit KeyedUniforms(const DrawKernels& batch) : batch_(batch) {}

  void Draw(Key sub, uint64_t start, const uint32_t* idx, size_t n, float* u) {
    for (size_t p = 0; p < n; ++p) {
      const uint64_t i = start + idx[p];
      k0_[p] = sub.k0;
      k1_[p] = sub.k1;
      hi_[p] = static_cast<uint32_t>(i >> 32);
      lo_[p] = static_cast<uint32_t>(i);
    }
    batch_.Keyed(KeyedDraw::kBits, {k0_, k1_, hi_, lo_}, bits_, nullptr, n);
    for (size_t p = 0; p < n; ++p) u[p] = BitsToUnitFloat(bits_[p]);
  }

 private:
  const DrawKernels& batch_;
  uint32_t k0_[kMax], k1_[kMax], hi_[kMax], lo_[kMax], bits_[kMax];
};

// Knuth's method for 0 < lam < 10 over a block of elements at a time, so
// that the hashes and logs of a round run as batches. An element is live
// while its running sum of logs is > -lam; each round it is live it counts
// one and adds the log of its next uniform (JAX's _poisson_knuth, whose
// counter ends one above the result). Each round hashes the live elements'
// own counters under the round's key as one keyed batch.
void PoissonKnuth(Key k, float lam, uint64_t start, uint64_t count, int32_t* out,
                  const DrawKernels& batch) {
  constexpr size_t kBlock = KeyedUniforms::kMax;
  RoundKeys keys(k, 2, 0);
  KeyedUniforms uniforms(batch);
  const float threshold = -lam;
  uint32_t live[kBlock];
  float log_prod[kBlock], u[kBlock];
  int32_t rounds[kBlock];
  for (uint64_t base = 0; base < count; base += kBlock) {
    const size_t m = static_cast<size_t>(std::min<uint64_t>(kBlock, count - base));
    for (size_t j = 0; j < m; ++j) {
      live[j] = static_cast<uint32_t>(j);
      log_prod[j] = 0.0f;
      rounds[j] = 0;
    }
    size_t n_live = 0.0f > threshold ? m : 0;
    for (size_t r = 0; n_live > 0; ++r) {
      uniforms.Draw(keys.Round(r)[0], start + base, live, n_live, u);
      batch.Log(u, u, n_live);
      size_t kept = 0;
      for (size_t t = 0; t < n_live; ++t) {
        const uint32_t j = live[t];
        ++rounds[j];
        log_prod[j] = log_prod[j] + u[t];
        live[kept] = j;  // kept or overwritten: no branch to mispredict
        kept += log_prod[j] > threshold ? 1 : 0;
      }
      n_live = kept;
    }
    for (size_t j = 0; j < m; ++j) out[base + j] = rounds[j] - 1;
  }
}

// Hormann's PTRS constants for one rate (JAX's _poisson_rejection).
struct Ptrs {
  explicit Ptrs(float lam_)
      : lam(lam_),
        log_lam(kernels::LogF32(lam_)),
        b(float(0.931) + float(2.53) * std::sqrt(lam_)),
        a(float(-0.059) + float(0.02483) * b),
        inv_alpha(float(1.1239) + float(1.1328) / (b - float(3.4))),
        v_r(float(0.9277) - float(3.6224) / (b - 2.0f)) {}
  float lam, log_lam, b, a, inv_alpha, v_r;
};

float PoissonRejectionAt(RoundKeys& keys, const Ptrs& c, uint64_t i) {
  for (size_t r = 0;; ++r) {
    const Key* sub = keys.Round(r);
    const float u = Arith<float>::Uniform(sub[0], i) - 0.5f;
    const float v = Arith<float>::Uniform(sub[1], i);
    const float u_shifted = 0.5f - std::fabs(u);
    const float k = std::floor((2.0f * c.a / u_shifted + c.b) * u + c.lam + float(0.43));
    if (u_shifted >= float(0.07) && v <= c.v_r) return k;
    if (k < 0.0f || (u_shifted < float(0.013) && v > u_shifted)) continue;
    const float s = kernels::LogF32(v * c.inv_alpha / (c.a / (u_shifted * u_shifted) + c.b));
    const float t = -c.lam + k * c.log_lam - kernels::LgammaF32(k + 1.0f);
    if (s <= t) return k;
  }
}

// ---- binomial ----

constexpr double kStirlingTail[10] = {0.0810614667953272,  0.0413406959554092, 0.0276779256849983,
                                      0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                                      0.0118967099458917,  0.0104112652619720, 0.00925546218271273,
                                      0.00833056343336287};

// JAX's _stirling_approx_tail: the table up to 9; above, its series, which
// JAX evaluates at k clamped to [0, 9] (so at 9): kept as JAX has it.
template <typename T>
T StirlingTail(T k) {
  const bool use_table = k <= T(9);
  const T kc = std::min(std::max(k, T(0)), T(9));
  const T kp1sq = (kc + 1) * (kc + 1);
  const T approx = (T(1.0 / 12) - (T(1.0 / 360) - T(1.0 / 1260) / kp1sq) / kp1sq) / (kc + 1);
  return use_table ? T(kStirlingTail[static_cast<int>(std::floor(kc))]) : approx;
}

// BTRS constants for one (count, prob), prob <= 0.5 (JAX's _btrs).
template <typename T>
struct Btrs {
  Btrs(T count_, T prob)
      : count(count_),
        stddev(std::sqrt(count_ * prob * (1 - prob))),
        b(T(1.15) + T(2.53) * stddev),
        a(T(-0.0873) + T(0.0248) * b + T(0.01) * prob),
        c(count_ * prob + T(0.5)),
        v_r(T(0.92) - T(4.2) / b),
        r(prob / (1 - prob)),
        alpha((T(2.83) + T(5.1) / b) * stddev),
        m(std::floor((count_ + 1) * prob)) {}
  T count, stddev, b, a, c, v_r, r, alpha, m;
};

template <typename T>
T BtrsAt(RoundKeys& keys, const Btrs<T>& s, uint64_t i) {
  const T count = s.count, m = s.m;
  for (size_t round = 0;; ++round) {
    const Key* sub = keys.Round(round);
    T u = Arith<T>::Uniform(sub[0], i);
    const T v = Arith<T>::Uniform(sub[1], i);
    u = u - T(0.5);
    const T us = T(0.5) - std::fabs(u);
    const T k = std::floor((2 * s.a / us + s.b) * u + s.c);
    if (us >= T(0.07) && v <= s.v_r) return k;
    // Negated, so that a NaN k is rejected too (JAX's test would pass it to
    // a NaN bound, which rejects it as well).
    if (!(k >= 0 && k <= count)) continue;
    const T lhs = Arith<T>::Log(v * s.alpha / (s.a / (us * us) + s.b));
    const T ub = (m + T(0.5)) * Arith<T>::Log((m + 1) / (s.r * (count - m + 1))) +
                 (count + 1) * Arith<T>::Log((count - m + 1) / (count - k + 1)) +
                 (k + T(0.5)) * Arith<T>::Log(s.r * (count - k + 1) / (k + 1)) + StirlingTail(m) +
                 StirlingTail(count - m) - StirlingTail(k) - StirlingTail(count - k);
    if (lhs <= ub) return k;
  }
}

// Inversion (JAX's _binomial_inversion): geometric gaps ceil(log(u) /
// log1p(-q)) are summed until the sum passes count; the result is the
// number of gaps that fit. Its loop splits as `subkey, key = split(key)`:
// key 0 draws, key 1 carries on.
template <typename T>
T InversionAt(RoundKeys& keys, T count, T log1mq, uint64_t i) {
  T num_geom = 0, geom_sum = 0;
  for (size_t r = 0; geom_sum <= count; ++r) {
    num_geom = num_geom + 1;
    const T u = Arith<T>::Uniform(keys.Round(r)[0], i);
    geom_sum = geom_sum + std::ceil(Arith<T>::Log(u) / log1mq);
  }
  return num_geom - 1;
}

// JAX's _binomial for one valid (n, p): which sampler, on what.
template <typename T>
struct BinomialSetup {
  BinomialSetup(T n, T p)
      : p_lt_half(p < T(0.5)),
        infinite(std::isinf(n)),
        q(p_lt_half ? p : 1 - p),
        use_inversion(n * q <= T(10)),
        count(std::floor(n)),
        log1mq(Arith<T>::Log1p(-q)),
        btrs(use_inversion ? T(1e4) : count, use_inversion ? T(0.5) : q) {}
  bool p_lt_half, infinite;
  T q;
  bool use_inversion;
  T count, log1mq;
  Btrs<T> btrs;
};

// The two loops' key chains of one binomial draw.
struct BinomialKeys {
  explicit BinomialKeys(Key k) : inversion(k, 2, 1), btrs(k, 3, 0) {}
  RoundKeys inversion, btrs;
};

template <typename T>
T BinomialAt(const BinomialSetup<T>& s, BinomialKeys& keys, uint64_t i) {
  if (s.infinite) return s.count;  // JAX: +inf trials, +inf successes
  const T draw = s.use_inversion ? InversionAt(keys.inversion, s.count, s.log1mq, i)
                                 : BtrsAt(keys.btrs, s.btrs, i);
  return s.p_lt_half ? draw : s.count - draw;
}

template <typename T>
T GeometricAt(Key k, T log1mp, uint64_t i) {
  T u = Arith<T>::Uniform(k, i);
  if (u == 0) u = 1;  // JAX maps u == 0 to 1, keeping log(u) finite
  return std::floor(Arith<T>::Log(u) / log1mp) + 1;
}

// The rounds of a rejection loop that draws two uniforms a round at the
// element's counter (PTRS, BTRS), for a block of elements at once. Round r
// gives the elements still in the loop their u (from the round's first key,
// minus 0.5) and v (its second) as keyed batches, the same bits as Arith's.
class TwoUniformRounds {
 public:
  static constexpr size_t kBlock = 256;

  TwoUniformRounds(RoundKeys& keys, const DrawKernels& batch) : keys_(keys), uniforms_(batch) {}

  // u[p] and v[p] of round r for elements start + idx[p], p < n.
  void Draw(size_t r, uint64_t start, const uint32_t* idx, size_t n, float* u, float* v) {
    const Key sub[2] = {keys_.Round(r)[0], keys_.Round(r)[1]};
    uniforms_.Draw(sub[0], start, idx, n, u);
    for (size_t p = 0; p < n; ++p) u[p] = u[p] - 0.5f;
    uniforms_.Draw(sub[1], start, idx, n, v);
  }

 private:
  RoundKeys& keys_;
  KeyedUniforms uniforms_;
};

// PoissonRejectionAt over a range: every round one batch of the elements
// still in the loop, its logs and lgammas batched too.
void PoissonRejection(Key k, float lam, uint64_t start, uint64_t count, int32_t* out,
                      const DrawKernels& batch) {
  constexpr size_t kBlock = TwoUniformRounds::kBlock;
  RoundKeys keys(k, 3, 0);
  const Ptrs c(lam);
  TwoUniformRounds rounds(keys, batch);
  uint32_t live[kBlock], tested[kBlock];
  float u[kBlock], v[kBlock], x[kBlock], log_arg[kBlock], lgamma_arg[kBlock];
  for (uint64_t base = 0; base < count; base += kBlock) {
    size_t n_live = std::min<uint64_t>(kBlock, count - base);
    for (size_t j = 0; j < n_live; ++j) live[j] = static_cast<uint32_t>(j);
    for (size_t r = 0; n_live > 0; ++r) {
      rounds.Draw(r, start + base, live, n_live, u, v);
      size_t kept = 0, n_tested = 0;
      for (size_t p = 0; p < n_live; ++p) {
        const float u_shifted = 0.5f - std::fabs(u[p]);
        const float drawn = std::floor((2.0f * c.a / u_shifted + c.b) * u[p] + c.lam + float(0.43));
        if (u_shifted >= float(0.07) && v[p] <= c.v_r) {
          out[base + live[p]] = SaturateToI32(drawn);
        } else if (drawn < 0.0f || (u_shifted < float(0.013) && v[p] > u_shifted)) {
          live[kept++] = live[p];
        } else {
          tested[n_tested] = live[p];
          x[n_tested] = drawn;
          log_arg[n_tested] = v[p] * c.inv_alpha / (c.a / (u_shifted * u_shifted) + c.b);
          lgamma_arg[n_tested] = drawn + 1.0f;
          ++n_tested;
        }
      }
      batch.Log(log_arg, log_arg, n_tested);
      batch.Unary(kernels::UnaryOp::kLgamma, lgamma_arg, lgamma_arg, n_tested);
      for (size_t q = 0; q < n_tested; ++q) {
        const float t = -c.lam + x[q] * c.log_lam - lgamma_arg[q];
        if (log_arg[q] <= t) {
          out[base + tested[q]] = SaturateToI32(x[q]);
        } else {
          live[kept++] = tested[q];
        }
      }
      n_live = kept;
    }
  }
}

// InversionAt for a list of a block's elements: entry t is the block's
// element elems[t] (counter block_start + elems[t]) with count_of(t)
// trials. Each round hashes the counters of the entries still summing gaps
// under the round's key as one keyed batch, and takes their logs as one.
// out[elems[t]] is the draw with probability q (<= 0.5), before
// BinomialAt's complement.
template <typename CountOf>
void InversionRounds(RoundKeys& keys, float log1mq, uint64_t block_start, const uint32_t* elems,
                     size_t n, CountOf count_of, float* out, const DrawKernels& batch) {
  constexpr size_t kBlock = TwoUniformRounds::kBlock;
  KeyedUniforms uniforms(batch);
  uint32_t live[kBlock], at[kBlock];
  float u[kBlock], num_geom[kBlock], geom_sum[kBlock];
  size_t n_live = 0;
  for (size_t t = 0; t < n; ++t) {
    num_geom[t] = 0.0f;
    geom_sum[t] = 0.0f;
    if (geom_sum[t] <= count_of(t)) live[n_live++] = static_cast<uint32_t>(t);
  }
  for (size_t r = 0; n_live > 0; ++r) {
    for (size_t p = 0; p < n_live; ++p) at[p] = elems[live[p]];
    uniforms.Draw(keys.Round(r)[0], block_start, at, n_live, u);
    batch.Log(u, u, n_live);
    size_t kept = 0;
    for (size_t p = 0; p < n_live; ++p) {
      const uint32_t t = live[p];
      num_geom[t] = num_geom[t] + 1.0f;
      geom_sum[t] = geom_sum[t] + std::ceil(u[p] / log1mq);
      live[kept] = t;
      kept += geom_sum[t] <= count_of(t) ? 1 : 0;
    }
    n_live = kept;
  }
  for (size_t t = 0; t < n; ++t) out[elems[t]] = num_geom[t] - 1.0f;
}

// BtrsAt for a list of a block's elements (as InversionRounds), entry t
// with the constants setup_of(t); every round one batch, its logs too.
// out[elems[t]] is the draw with probability prob (<= 0.5), before
// BinomialAt's complement.
template <typename SetupOf>
void BtrsRounds(RoundKeys& keys, uint64_t block_start, const uint32_t* elems, size_t n,
                SetupOf setup_of, float* out, const DrawKernels& batch) {
  constexpr size_t kBlock = TwoUniformRounds::kBlock;
  TwoUniformRounds rounds(keys, batch);
  uint32_t live[kBlock], at[kBlock], tested[kBlock];
  float u[kBlock], v[kBlock], x[kBlock], lhs[kBlock], log_m[kBlock], log_n[kBlock], log_k[kBlock];
  size_t n_live = n;
  for (size_t t = 0; t < n; ++t) live[t] = static_cast<uint32_t>(t);
  for (size_t r = 0; n_live > 0; ++r) {
    for (size_t p = 0; p < n_live; ++p) at[p] = elems[live[p]];
    rounds.Draw(r, block_start, at, n_live, u, v);
    size_t kept = 0, n_tested = 0;
    for (size_t p = 0; p < n_live; ++p) {
      const Btrs<float>& s = setup_of(live[p]);
      const float trials = s.count, m = s.m;
      const float us = 0.5f - std::fabs(u[p]);
      const float k = std::floor((2 * s.a / us + s.b) * u[p] + s.c);
      if (us >= float(0.07) && v[p] <= s.v_r) {
        out[at[p]] = k;
      } else if (!(k >= 0 && k <= trials)) {
        live[kept++] = live[p];
      } else {
        tested[n_tested] = live[p];
        x[n_tested] = k;
        lhs[n_tested] = v[p] * s.alpha / (s.a / (us * us) + s.b);
        log_m[n_tested] = (m + 1) / (s.r * (trials - m + 1));
        log_n[n_tested] = (trials - m + 1) / (trials - k + 1);
        log_k[n_tested] = s.r * (trials - k + 1) / (k + 1);
        ++n_tested;
      }
    }
    batch.Log(lhs, lhs, n_tested);
    batch.Log(log_m, log_m, n_tested);
    batch.Log(log_n, log_n, n_tested);
    batch.Log(log_k, log_k, n_tested);
    for (size_t q = 0; q < n_tested; ++q) {
      const Btrs<float>& s = setup_of(tested[q]);
      const float trials = s.count, m = s.m, k = x[q];
      const float ub = (m + float(0.5)) * log_m[q] + (trials + 1) * log_n[q] +
                       (k + float(0.5)) * log_k[q] + StirlingTail(m) + StirlingTail(trials - m) -
                       StirlingTail(k) - StirlingTail(trials - k);
      if (lhs[q] <= ub) {
        out[elems[tested[q]]] = k;
      } else {
        live[kept++] = tested[q];
      }
    }
    n_live = kept;
  }
}

// The identity list 0, 1, ..., TwoUniformRounds::kBlock - 1.
const uint32_t* AllOfBlock() {
  static const auto* all = [] {
    auto* a = new uint32_t[TwoUniformRounds::kBlock];
    for (size_t t = 0; t < TwoUniformRounds::kBlock; ++t) a[t] = static_cast<uint32_t>(t);
    return a;
  }();
  return all;
}

}  // namespace

int32_t SaturateToI32(double x) {
  if (std::isnan(x)) return 0;
  if (x <= -2147483648.0) return INT32_MIN;
  if (x >= 2147483647.0) return INT32_MAX;
  return static_cast<int32_t>(x);
}

int64_t SaturateToI64(double x) {
  if (std::isnan(x)) return 0;
  if (x <= -9223372036854775808.0) return INT64_MIN;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  return static_cast<int64_t>(x);
}

void Poisson(Key k, float lam, uint64_t start, uint64_t count, int32_t* out,
             const DrawKernels& batch) {
  if (lam == 0.0f) {
    std::fill(out, out + count, 0);
  } else if (lam < 10.0f) {
    PoissonKnuth(k, lam, start, count, out, batch);
  } else {
    PoissonRejection(k, lam, start, count, out, batch);
  }
}

int64_t PoissonScalar(Key k, float lam) {
  if (lam == 0.0f) return 0;
  if (lam < 10.0f) {
    int32_t v;
    PoissonKnuth(k, lam, 0, 1, &v, ReferenceKernels());
    return v;
  }
  RoundKeys keys(k, 3, 0);
  return SaturateToI64(PoissonRejectionAt(keys, Ptrs(lam), 0));
}

void Binomial(Key k, float n, float p, uint64_t start, uint64_t count, float* out,
              const DrawKernels& batch) {
  const BinomialSetup<float> setup(n, p);
  BinomialKeys keys(k);
  if (setup.infinite) {
    std::fill(out, out + count, setup.count);  // JAX: +inf trials, +inf successes
    return;
  }
  constexpr size_t kBlock = TwoUniformRounds::kBlock;
  for (uint64_t base = 0; base < count; base += kBlock) {
    const size_t m = std::min<uint64_t>(kBlock, count - base);
    if (setup.use_inversion) {
      InversionRounds(
          keys.inversion, setup.log1mq, start + base, AllOfBlock(), m,
          [&](size_t) { return setup.count; }, out + base, batch);
    } else {
      BtrsRounds(
          keys.btrs, start + base, AllOfBlock(), m,
          [&](size_t) -> const Btrs<float>& { return setup.btrs; }, out + base, batch);
    }
  }
  if (!setup.p_lt_half) {
    for (uint64_t j = 0; j < count; ++j) out[j] = setup.count - out[j];
  }
}

double BinomialScalar(Key k, double n, double p) {
  BinomialKeys keys(k);
  return BinomialAt(BinomialSetup<double>(n, p), keys, 0);
}

void Geometric(Key k, float p, uint64_t start, uint64_t count, int32_t* out,
               const DrawKernels& batch) {
  const float log1mp = kernels::Log1pF32(-p);
  constexpr uint64_t kChunk = 512;
  float u[kChunk];
  for (uint64_t base = 0; base < count; base += kChunk) {
    const uint64_t m = std::min(kChunk, count - base);
    batch.Uniform(k, start + base, m, u);
    for (uint64_t j = 0; j < m; ++j) {
      if (u[j] == 0.0f) u[j] = 1.0f;  // JAX maps u == 0 to 1, keeping log(u) finite
    }
    batch.Log(u, u, m);
    for (uint64_t j = 0; j < m; ++j) out[base + j] = SaturateToI32(std::floor(u[j] / log1mp) + 1);
  }
}

int64_t GeometricScalar(Key k, double p) {
  return SaturateToI64(GeometricAt(k, std::log1p(-p), 0));
}

void MultinomialRatios(const float* p, int64_t classes, float* ratios) {
  for (int64_t j = 0; j < classes; ++j) {
    float remaining = 0.0f;
    for (int64_t t = j; t < classes; ++t) remaining = remaining + p[t];
    const float ratio = p[j] / (remaining == 0.0f ? 1.0f : remaining);
    ratios[j] = std::min(std::max(ratio, 0.0f), 1.0f);
  }
}

void Multinomial(Key k, float n, const float* ratios, int64_t classes, uint64_t start_row,
                 uint64_t rows, float* out, const DrawKernels& batch) {
  // Category by category over a block of rows: each row draws
  // binomial(remainder, ratio) (BinomialAt's setup, spelled out so that the
  // parts all rows share are computed once), the rows split between
  // BinomialAt's two samplers by their remainders, each sampler's rows one
  // list of keyed batches.
  constexpr size_t kBlock = TwoUniformRounds::kBlock;
  std::vector<BinomialKeys> keys;
  keys.reserve(static_cast<size_t>(classes));
  for (int64_t j = 0; j < classes; ++j) keys.emplace_back(SplitKey(k, static_cast<uint64_t>(j)));
  const auto stride = static_cast<uint64_t>(classes);
  float remainder[kBlock], trials[kBlock], drawn[kBlock];
  uint32_t inversion_rows[kBlock], btrs_rows[kBlock];
  std::vector<Btrs<float>> btrs;
  btrs.reserve(kBlock);
  for (uint64_t base = 0; base < rows; base += kBlock) {
    const size_t m = std::min<uint64_t>(kBlock, rows - base);
    std::fill(remainder, remainder + m, n);
    for (int64_t j = 0; j < classes; ++j) {
      const float p = ratios[j];
      const bool p_lt_half = p < 0.5f;
      const float q = p_lt_half ? p : 1 - p;
      const float log1mq = kernels::Log1pF32(-q);
      size_t n_inversion = 0, n_btrs = 0;
      btrs.clear();
      for (size_t b = 0; b < m; ++b) {
        trials[b] = std::floor(remainder[b]);
        if (std::isinf(remainder[b])) {
          drawn[b] = trials[b];  // +inf trials, +inf successes
        } else if (remainder[b] * q <= 10.0f) {
          inversion_rows[n_inversion++] = static_cast<uint32_t>(b);
        } else {
          btrs_rows[n_btrs++] = static_cast<uint32_t>(b);
          btrs.emplace_back(trials[b], q);
        }
      }
      const uint64_t block_start = start_row + base;
      RoundKeys& inversion_keys = keys[static_cast<size_t>(j)].inversion;
      RoundKeys& btrs_keys = keys[static_cast<size_t>(j)].btrs;
      InversionRounds(
          inversion_keys, log1mq, block_start, inversion_rows, n_inversion,
          [&](size_t t) { return trials[inversion_rows[t]]; }, drawn, batch);
      BtrsRounds(
          btrs_keys, block_start, btrs_rows, n_btrs,
          [&](size_t t) -> const Btrs<float>& { return btrs[t]; }, drawn, batch);
      for (size_t b = 0; b < m; ++b) {
        const bool finite = !std::isinf(remainder[b]);
        const float d = finite && !p_lt_half ? trials[b] - drawn[b] : drawn[b];
        remainder[b] = remainder[b] - d;
        out[(base + b) * stride + static_cast<uint64_t>(j)] = d;
      }
    }
  }
}

}  // namespace alea::vm::random

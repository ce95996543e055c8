#include "vm/random/samplers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "tests/vm/random/vectors.h"
#include "vm/kernels/math_f32.h"
#include "vm/random/keys.h"
#include "vm/random/threefry.h"

namespace alea::vm::random {
namespace {

using testing::AsI32;
using testing::AsKeys;
using testing::AsU32;
using testing::AsU64;
using testing::Numbers;
using testing::RoundedLike;

constexpr char kPublished[] = "jax_published.txt";
constexpr char kDerived[] = "jax_derived.txt";
// Group F of sources.txt also holds derived legacy-mode (P=False) rows.
constexpr char kSources[] = "sources.txt";

Key KeyOf(int64_t seed) { return KeyFromSeed(seed).key; }

std::vector<uint32_t> BitsOf(Key k, uint64_t n) {
  std::vector<uint32_t> out(n);
  Bits(k, 0, n, out.data());
  return out;
}

std::vector<float> UniformOf(Key k, uint64_t n, float lo = 0.0f, float hi = 1.0f) {
  std::vector<float> out(n);
  Uniform(k, 0, n, lo, hi, out.data());
  return out;
}

void ExpectRounded(const std::vector<float>& got, const std::vector<std::string>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(RoundedLike(got[i], want[i]), want[i]) << i;
}

// ---- Alea's mode: JAX partitionable (C5 and the derived P=True rows). ----

TEST(Samplers, BitsDerived) {
  EXPECT_EQ(BitsOf(KeyOf(1701), 3),
            AsU32(Numbers(kDerived, "P=True  bits(key(1701), (3,), uint32)")));
  EXPECT_EQ(BitsOf(KeyOf(0), 4), AsU32(Numbers(kDerived, "P=True  bits(key(0), (4,), uint32)")));
  // 8- and 16-bit draws are the low bits of the same xor.
  const std::vector<uint32_t> b = BitsOf(KeyOf(1701), 3);
  std::vector<uint32_t> low8, low16;
  for (uint32_t x : b) {
    low8.push_back(x & 0xff);
    low16.push_back(x & 0xffff);
  }
  EXPECT_EQ(low8, AsU32(Numbers(kDerived, "P=True  bits(key(1701), (3,), uint8)")));
  EXPECT_EQ(low16, AsU32(Numbers(kDerived, "P=True  bits(key(1701), (3,), uint8)", "uint16 = ")));
}

// 64-bit draws (which Alea has not) use the two words unxored: a check that
// the counter for element i is (hi, lo) = (0, i).
TEST(Samplers, Bits64DerivedHashLevel) {
  const std::vector<uint64_t> want =
      AsU64(Numbers(kDerived, "P=True  bits(key(1701), (3,), uint64)"));
  ASSERT_EQ(want.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) {
    const auto [a, b] = Threefry2x32(0, 1701, 0, i);
    EXPECT_EQ((uint64_t{a} << 32) | b, want[i]) << i;
  }
}

TEST(Samplers, UniformPublishedAndDerived) {
  // C5: uniform(key(0)) of shape () is element 0.
  ExpectRounded(UniformOf(KeyOf(0), 1), Numbers(kPublished, "uniform(key(0))"));
  ExpectRounded(UniformOf(KeyOf(0), 5), Numbers(kDerived, "P=True  uniform(key(0), (5,))"));
}

TEST(Samplers, UniformRangeAndRounding) {
  const Key k = KeyOf(99);
  const std::vector<uint32_t> bits = BitsOf(k, 1000);
  const std::vector<float> u = UniformOf(k, 1000, -3.0f, 5.5f);
  for (size_t i = 0; i < u.size(); ++i) {
    uint32_t one_bits = (bits[i] >> 9) | 0x3f800000u;
    float f;
    std::memcpy(&f, &one_bits, sizeof f);
    const float unit = f - 1.0f;
    EXPECT_EQ(unit, BitsToUnitFloat(bits[i]));
    EXPECT_GE(unit, 0.0f);
    EXPECT_LT(unit, 1.0f);
    volatile float product = unit * 8.5f;  // rounded on its own, as without FMA
    EXPECT_EQ(u[i], std::max(-3.0f, product + -3.0f));
    EXPECT_GE(u[i], -3.0f);
    EXPECT_LE(u[i], 5.5f);
  }
  EXPECT_EQ(BitsToUnitFloat(0), 0.0f);
  EXPECT_EQ(BitsToUnitFloat(0xffffffffu), 1.0f - 0x1p-23f);
  // max(lo, .) clamps what rounding pushes below lo; a NaN bound propagates.
  EXPECT_TRUE(std::isnan(UniformOf(k, 1, std::nanf(""), 1.0f)[0]));
}

TEST(Samplers, Bernoulli) {
  const Key k = KeyOf(5);
  std::vector<uint8_t> b(2000);
  const std::vector<float> u = UniformOf(k, 2000);
  for (float p : {0.0f, 0.25f, 0.5f, 1.0f}) {
    Bernoulli(k, p, 0, b.size(), b.data());
    for (size_t i = 0; i < b.size(); ++i) EXPECT_EQ(b[i], u[i] < p ? 1 : 0);
    const int ones = std::accumulate(b.begin(), b.end(), 0);
    if (p == 0.0f) {
      EXPECT_EQ(ones, 0);
    }
    if (p == 1.0f) {
      EXPECT_EQ(ones, 2000);
    }
  }
}

// randint uses the bits of split(k)[0] as the high word and split(k)[1] as the
// low word; with a power-of-two span below 2^16 only the low word matters
// (multiplier (2^16 mod span)^2 mod span is 0), and with spans above 2^16 the
// multiplier wraps to 0 in u32 as in JAX.
TEST(Samplers, RandIntStructure) {
  const Key k = KeyOf(0);
  const std::vector<uint32_t> high = BitsOf(SplitKey(k, 0), 500);
  const std::vector<uint32_t> low = BitsOf(SplitKey(k, 1), 500);
  std::vector<int32_t> r(500);
  RandInt(k, 0, 8, 0, 500, r.data());
  for (size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i], static_cast<int32_t>(low[i] % 8));
  RandInt(k, -5, 10, 0, 500, r.data());
  for (size_t i = 0; i < r.size(); ++i) {
    // span 15: multiplier = (65536 % 15)^2 % 15 = 1.
    EXPECT_EQ(r[i], -5 + static_cast<int32_t>((high[i] % 15 + low[i] % 15) % 15));
  }
  RandInt(k, -1000000, 1000000, 0, 500, r.data());
  for (size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r[i], -1000000 + static_cast<int32_t>(low[i] % 2000000));
  }
  // hi <= lo gives lo.
  RandInt(k, 7, 7, 0, 500, r.data());
  EXPECT_TRUE(std::all_of(r.begin(), r.end(), [](int32_t x) { return x == 7; }));
  RandInt(k, 7, -3, 0, 500, r.data());
  EXPECT_TRUE(std::all_of(r.begin(), r.end(), [](int32_t x) { return x == 7; }));
  // The full i32 range (hi = 2^31 widens the span to 2^32, i.e. 0): low bits as is.
  RandInt(k, INT32_MIN, int64_t{1} << 31, 0, 500, r.data());
  for (size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r[i], static_cast<int32_t>(0x80000000u + low[i]));
  }
  // Spans of 2^31 + something wrap in i32 and are read as u32, as in JAX.
  RandInt(k, -10, INT32_MAX, 0, 500, r.data());
  for (size_t i = 0; i < r.size(); ++i) {
    const uint32_t span = static_cast<uint32_t>(INT32_MAX) + 10u;
    EXPECT_EQ(r[i], static_cast<int32_t>(static_cast<uint32_t>(-10) + low[i] % span));
  }
}

TEST(Samplers, PermutationRounds) {
  EXPECT_EQ(PermutationRounds(0), 0);
  EXPECT_EQ(PermutationRounds(1), 0);
  EXPECT_EQ(PermutationRounds(2), 1);
  EXPECT_EQ(PermutationRounds(1625), 1);
  EXPECT_EQ(PermutationRounds(1626), 2);
  EXPECT_EQ(PermutationRounds(2642245), 2);
  EXPECT_EQ(PermutationRounds(2642246), 3);
}

// One round: a stable sort of 0..n-1 by the bits of split(k)[1].
TEST(Samplers, PermutationOneRound) {
  const Key k = KeyOf(3);
  for (uint64_t n : {2u, 10u, 1000u}) {
    std::vector<int32_t> got(n);
    std::vector<uint64_t> scratch(n);
    Permutation(k, n, got.data(), scratch.data());
    const std::vector<uint32_t> keys = BitsOf(SplitKey(k, 1), n);
    std::vector<int32_t> want(n);
    std::iota(want.begin(), want.end(), 0);
    std::stable_sort(want.begin(), want.end(),
                     [&](int32_t a, int32_t b) { return keys[a] < keys[b]; });
    EXPECT_EQ(got, want) << n;
  }
}

// Two rounds: the second sorts the first round's result by the bits of
// split(split(k)[0])[1].
TEST(Samplers, PermutationTwoRounds) {
  const Key k = KeyOf(11);
  const uint64_t n = 3000;
  std::vector<int32_t> got(n);
  std::vector<uint64_t> scratch(n);
  Permutation(k, n, got.data(), scratch.data());
  std::vector<int32_t> want(n);
  std::iota(want.begin(), want.end(), 0);
  Key round_key = k;
  for (int r = 0; r < 2; ++r) {
    const std::vector<uint32_t> keys = BitsOf(SplitKey(round_key, 1), n);
    round_key = SplitKey(round_key, 0);
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return keys[a] < keys[b]; });
    std::vector<int32_t> next(n);
    for (size_t i = 0; i < n; ++i) next[i] = want[order[i]];
    want.swap(next);
  }
  EXPECT_EQ(got, want);
  std::vector<int32_t> sorted = got;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], static_cast<int32_t>(i));
}

TEST(Samplers, PermutationTiny) {
  int32_t one = -1;
  uint64_t scratch = 0;
  Permutation(KeyOf(0), 1, &one, &scratch);
  EXPECT_EQ(one, 0);
  Permutation(KeyOf(0), 0, nullptr, nullptr);
}

TEST(Samplers, Dropout) {
  const Key k = KeyOf(8);
  std::vector<float> x(1000);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.5f - 100.0f;
  std::vector<float> out(x.size());
  const double rate = 0.3;
  Dropout(k, rate, x.data(), 0, x.size(), out.data());
  const float keep = static_cast<float>(1.0 - rate);
  const std::vector<float> u = UniformOf(k, x.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(out[i], u[i] < keep ? x[i] / keep : 0.0f) << i;
  Dropout(k, 0.0, x.data(), 0, x.size(), out.data());
  EXPECT_EQ(out, x);
  Dropout(k, 1.0, x.data(), 0, x.size(), out.data());
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](float v) { return v == 0.0f; }));
  // In place.
  std::vector<float> y = x;
  Dropout(k, rate, y.data(), 0, y.size(), y.data());
  Dropout(k, rate, x.data(), 0, x.size(), out.data());
  EXPECT_EQ(y, out);
}

// erfinv in double by Newton's method on std::erf, from a close start.
double ErfinvDouble(double u, double start) {
  double x = start;
  for (int i = 0; i < 4; ++i) {
    const double d = (std::erf(x) - u) / (1.1283791670955126 * std::exp(-x * x));
    x -= d;
  }
  return x;
}

// Distance in f32 ulps (same sign assumed; both finite).
int64_t UlpDistance(float a, float b) {
  int32_t ia, ib;
  std::memcpy(&ia, &a, sizeof ia);
  std::memcpy(&ib, &b, sizeof ib);
  if (ia < 0) ia = INT32_MIN - ia;
  if (ib < 0) ib = INT32_MIN - ib;
  return std::abs(int64_t{ia} - int64_t{ib});
}

constexpr float kSqrt2F = 0x1.6a09e6p+0f;

// The derived values used float64 erfinv and are rounded to 6 decimals.
void ExpectNormalNear(const std::vector<float>& got, const std::vector<std::string>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const double w = std::strtod(want[i].c_str(), nullptr);
    EXPECT_NEAR(got[i], w, 0.5e-6 + 4 * std::abs(w) * 0x1p-23) << i;
  }
}

TEST(Samplers, NormalDerived) {
  std::vector<float> z(5);
  Normal(KeyOf(0), 0, 5, z.data());
  ExpectNormalNear(z, Numbers(kDerived, "P=True  normal(key(0), (5,))", " ~= "));
}

// Against sqrt(2) * erfinv(u) rounded once from double: within 2 ulp.
TEST(Samplers, NormalWithin2Ulp) {
  const Key k = KeyOf(31337);
  const uint64_t n = 20000;
  std::vector<float> z(n);
  Normal(k, 0, n, z.data());
  const std::vector<float> u = UniformOf(k, n, -0x1.fffffep-1f, 1.0f);
  int64_t worst = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const double exact = double{kSqrt2F} * ErfinvDouble(u[i], z[i] / double{kSqrt2F});
    const float rounded = static_cast<float>(exact);
    if (u[i] == 0.0f) {
      EXPECT_EQ(z[i], 0.0f);
      continue;
    }
    worst = std::max(worst, UlpDistance(z[i], rounded));
    EXPECT_EQ(z[i], kSqrt2F * kernels::ErfinvF32(u[i])) << i;
  }
  EXPECT_LE(worst, 2);
}

TEST(Samplers, ExponentialAndCategoricalDefinitions) {
  const Key k = KeyOf(4);
  const uint64_t n = 5000;
  std::vector<float> e(n);
  Exponential(k, 0, n, e.data());
  const std::vector<float> u = UniformOf(k, n);
  for (uint64_t i = 0; i < n; ++i) {
    EXPECT_EQ(e[i], -kernels::Log1pF32(-u[i])) << i;
    EXPECT_LE(UlpDistance(e[i], static_cast<float>(-std::log1p(-double{u[i]}))), 2) << i;
    EXPECT_GE(e[i], 0.0f);
  }
  // Categorical: argmax of logits + gumbel noise over the [rows, classes] draw.
  const uint64_t rows = 300, classes = 7;
  std::vector<float> logits(rows * classes);
  for (uint64_t i = 0; i < logits.size(); ++i) logits[i] = static_cast<float>(i % 5) * 0.3f;
  std::vector<int32_t> c(rows);
  Categorical(k, logits.data(), classes, 0, rows, c.data());
  const std::vector<float> g = UniformOf(k, rows * classes, FLT_MIN, 1.0f);
  for (uint64_t r = 0; r < rows; ++r) {
    int32_t best = 0;
    float best_value = -std::numeric_limits<float>::infinity();
    for (uint64_t j = 0; j < classes; ++j) {
      const float v =
          -kernels::LogF32(-kernels::LogF32(g[r * classes + j])) + logits[r * classes + j];
      if (j == 0 || v > best_value) {
        best = static_cast<int32_t>(j);
        best_value = v;
      }
    }
    EXPECT_EQ(c[r], best) << r;
  }
  // A dominant logit always wins; a NaN logit wins as jnp.argmax's maximum.
  const float dominant[] = {0.0f, 1000.0f, 0.0f, -std::numeric_limits<float>::infinity()};
  const float with_nan[] = {0.0f, 1000.0f, std::nanf(""), 5.0f};
  for (uint64_t r = 0; r < 50; ++r) {
    int32_t out = -1;
    Categorical(k, dominant, 4, r, 1, &out);
    EXPECT_EQ(out, 1);
    Categorical(k, with_nan, 4, r, 1, &out);
    EXPECT_EQ(out, 2);
  }
}

TEST(Samplers, NormalExponentialCategoricalPartitionable) {
  const Key k = KeyOf(606);
  const uint64_t n = 400, classes = 4, rows = n / classes;
  std::vector<float> z(n), e(n), logits(n);
  std::vector<int32_t> c(rows);
  for (uint64_t i = 0; i < n; ++i) logits[i] = static_cast<float>(i % 3);
  Normal(k, 0, n, z.data());
  Exponential(k, 0, n, e.data());
  Categorical(k, logits.data(), classes, 0, rows, c.data());
  for (uint64_t start : {0u, 1u, 37u, 99u}) {
    const uint64_t count = std::min<uint64_t>(50, rows - start);
    std::vector<float> zs(count), es(count);
    std::vector<int32_t> cs(count);
    Normal(k, start, count, zs.data());
    Exponential(k, start, count, es.data());
    Categorical(k, logits.data() + start * classes, classes, start, count, cs.data());
    for (uint64_t j = 0; j < count; ++j) {
      EXPECT_EQ(zs[j], z[start + j]);
      EXPECT_EQ(es[j], e[start + j]);
      EXPECT_EQ(cs[j], c[start + j]);
    }
  }
  Normal(k, 3, 0, nullptr);
  Exponential(k, 3, 0, nullptr);
  Categorical(k, nullptr, 4, 3, 0, nullptr);
}

// Any slice [start, start + count) equals the same slice of the whole draw.
TEST(Samplers, Partitionable) {
  const Key k = KeyOf(2024);
  const uint64_t n = 777;
  std::vector<uint32_t> bits(n);
  std::vector<float> uni(n), x(n), drop(n);
  std::vector<uint8_t> bern(n);
  std::vector<int32_t> ints(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i) + 0.25f;
  Bits(k, 0, n, bits.data());
  Uniform(k, 0, n, -1.0f, 2.0f, uni.data());
  Bernoulli(k, 0.4f, 0, n, bern.data());
  RandInt(k, -50, 1234567, 0, n, ints.data());
  Dropout(k, 0.5, x.data(), 0, n, drop.data());
  const uint64_t cuts[][2] = {{0, 0}, {0, 1}, {1, 1}, {5, 100}, {100, 677}, {776, 1}, {777, 0}};
  for (const auto& cut : cuts) {
    const uint64_t start = cut[0], count = cut[1];
    std::vector<uint32_t> b(count);
    std::vector<float> u(count), d(count);
    std::vector<uint8_t> be(count);
    std::vector<int32_t> r(count);
    Bits(k, start, count, b.data());
    Uniform(k, start, count, -1.0f, 2.0f, u.data());
    Bernoulli(k, 0.4f, start, count, be.data());
    RandInt(k, -50, 1234567, start, count, r.data());
    Dropout(k, 0.5, x.data() + start, start, count, d.data());
    for (uint64_t j = 0; j < count; ++j) {
      EXPECT_EQ(b[j], bits[start + j]);
      EXPECT_EQ(u[j], uni[start + j]);
      EXPECT_EQ(be[j], bern[start + j]);
      EXPECT_EQ(r[j], ints[start + j]);
      EXPECT_EQ(d[j], drop[start + j]);
    }
  }
}

// Element indices past 2^32 put the high word in the first counter word.
TEST(Samplers, IndexBeyond32Bits) {
  const Key k = KeyOf(1);
  const uint64_t start = (uint64_t{1} << 32) - 2;
  std::vector<uint32_t> b(4);
  Bits(k, start, 4, b.data());
  for (uint64_t j = 0; j < 4; ++j) {
    const uint64_t i = start + j;
    const auto [y0, y1] =
        Threefry2x32(k.k0, k.k1, static_cast<uint32_t>(i >> 32), static_cast<uint32_t>(i));
    EXPECT_EQ(b[j], y0 ^ y1) << i;
  }
}

TEST(Samplers, ZeroElementDraws) {
  const Key k = KeyOf(0);
  Bits(k, 0, 0, nullptr);
  Uniform(k, 12, 0, 0.0f, 1.0f, nullptr);
  Bernoulli(k, 0.5f, 0, 0, nullptr);
  RandInt(k, 0, 10, 0, 0, nullptr);
  Dropout(k, 0.5, nullptr, 0, 0, nullptr);
  Dropout(k, 0.0, nullptr, 0, 0, nullptr);
  Dropout(k, 1.0, nullptr, 0, 0, nullptr);
}

// ---- JAX's legacy (non-partitionable) mode: published values that check the
// hash and the samplers' arithmetic through the legacy counter layout. Alea
// does not produce these; the tests rebuild the layout from the hash. ----

// JAX's threefry_2x32 on a counter array: pad to even length, hash the first
// half against the second, concatenate the two output halves, drop the pad.
std::vector<uint32_t> LegacyHash(Key k, const std::vector<uint32_t>& counts) {
  std::vector<uint32_t> c = counts;
  if (c.size() % 2) c.push_back(0);
  const size_t h = c.size() / 2;
  std::vector<uint32_t> out(c.size());
  Threefry2x32Block(k.k0, k.k1, c.data(), c.data() + h, out.data(), out.data() + h, h);
  out.resize(counts.size());
  return out;
}

std::vector<uint32_t> LegacyBits(Key k, uint32_t n) {
  std::vector<uint32_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0u);
  return LegacyHash(k, iota);
}

std::vector<Key> LegacySplit(Key k, uint32_t n) {
  const std::vector<uint32_t> w = LegacyBits(k, 2 * n);
  std::vector<Key> out;
  for (uint32_t i = 0; i < n; ++i) out.push_back(Key{w[2 * i], w[2 * i + 1]});
  return out;
}

uint32_t Adler32(const std::string& s) {
  uint32_t a = 1, b = 0;
  for (unsigned char c : s) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

TEST(Samplers, LegacySplitAndBitsPublished) {
  EXPECT_EQ(LegacySplit(KeyOf(0), 4),
            AsKeys(Numbers(kPublished, "key_data(split(PRNGKey(0), 4))")));
  EXPECT_EQ(LegacyBits(KeyOf(1701), 3),
            AsU32(Numbers(kPublished, "bits(key(1701), (3,), uint32)")));
  EXPECT_EQ(
      LegacyBits(KeyOf(Adler32("bitsthreefry2x32")), 5),
      AsU32(Numbers(kPublished, "bits threefry2x32 seed=adler32('bitsthreefry2x32') (5,) uint32")));
}

TEST(Samplers, LegacyDerived) {
  EXPECT_EQ(LegacySplit(KeyOf(0), 2), AsKeys(Numbers(kSources, "P=False split(PRNGKey(0), 2)")));
  EXPECT_EQ(LegacySplit(KeyOf(0), 3), AsKeys(Numbers(kSources, "P=False split(PRNGKey(0), 3)")));
  EXPECT_EQ(LegacySplit(KeyOf(42), 2), AsKeys(Numbers(kSources, "P=False split(PRNGKey(42), 2)")));
  EXPECT_EQ(LegacyBits(KeyOf(0), 4),
            AsU32(Numbers(kSources, "P=False bits(key(0), (4,), uint32)")));
  std::vector<float> u;
  for (uint32_t b : LegacyBits(KeyOf(0), 5)) u.push_back(BitsToUnitFloat(b));
  ExpectRounded(u, Numbers(kSources, "P=False uniform(key(0), (5,))"));
  ExpectRounded({BitsToUnitFloat(LegacyBits(KeyOf(0), 1)[0])},
                Numbers(kSources, "P=False uniform(key(0)) scalar"));
}

TEST(Samplers, LegacyUniformPublished) {
  const std::string line = "uniform threefry2x32 seed=adler32('uniformthreefry2x32')";
  ASSERT_EQ(Adler32("uniformthreefry2x32"), 1338574713u);
  std::vector<float> u;
  for (uint32_t b : LegacyBits(KeyOf(1338574713), 5)) u.push_back(BitsToUnitFloat(b));
  ExpectRounded(u, Numbers(kPublished, line, "f32 = "));
}

// C4's legacy normal (re-derived to 1e-6 there): the legacy bits through
// Alea's normal arithmetic.
TEST(Samplers, LegacyNormalPublished) {
  std::vector<float> z;
  for (uint32_t b : LegacyBits(KeyOf(Adler32("normalthreefry2x32")), 5)) {
    const float u = std::max(-0x1.fffffep-1f, BitsToUnitFloat(b) * 2.0f + -0x1.fffffep-1f);
    z.push_back(kSqrt2F * kernels::ErfinvF32(u));
  }
  ExpectNormalNear(
      z, Numbers(kPublished, "normal threefry2x32 seed=adler32('normalthreefry2x32')", "f32 = "));
}

// The published randint values are legacy-mode ([copied only] in the file):
// legacy split and bits, Alea's modular combination. RandIntFromWords is the
// combination RandInt applies per element.
std::vector<int32_t> LegacyRandInt(Key k, uint32_t n, int64_t lo, int64_t hi) {
  const std::vector<Key> keys = LegacySplit(k, 2);
  const std::vector<uint32_t> high = LegacyBits(keys[0], n);
  const std::vector<uint32_t> low = LegacyBits(keys[1], n);
  std::vector<int32_t> out;
  for (uint32_t i = 0; i < n; ++i) out.push_back(RandIntFromWords(lo, hi, high[i], low[i]));
  return out;
}

TEST(Samplers, LegacyRandIntPublished) {
  EXPECT_EQ(LegacyRandInt(KeyOf(0), 9, 0, 8),
            AsI32(Numbers(kPublished, "randint(PRNGKey(0), (3,3), 0, 8, dtype=int32)")));
  EXPECT_EQ(LegacyRandInt(KeyOf(Adler32("randintthreefry2x32")), 5, 0, 10),
            AsI32(Numbers(kPublished, "randint threefry2x32 seed=adler32('randintthreefry2x32')",
                          "[0,10) = ")));
}

// RandInt is RandIntFromWords over the two partitionable bit streams.
TEST(Samplers, RandIntIsCombinationOfStreams) {
  const Key k = KeyOf(77);
  const std::vector<uint32_t> high = BitsOf(SplitKey(k, 0), 300);
  const std::vector<uint32_t> low = BitsOf(SplitKey(k, 1), 300);
  std::vector<int32_t> r(300);
  for (auto [lo, hi] : {std::pair<int64_t, int64_t>{0, 10}, {-7, 100000}, {3, 3}}) {
    RandInt(k, lo, hi, 0, 300, r.data());
    for (size_t i = 0; i < r.size(); ++i)
      EXPECT_EQ(r[i], RandIntFromWords(lo, hi, high[i], low[i]));
  }
}

}  // namespace
}  // namespace alea::vm::random

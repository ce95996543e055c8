// The JIT's random kernels (vm/jit/jit.h, Jit::Random) against the reference
// samplers (vm/random/samplers.h), bit for bit (memcmp, never float ==), on
// the AVX2 and the AVX-512 path: several keys (all-zero and all-ones among
// them), every length 0..400 (unrolled blocks, then single vectors, then
// every tail length), a large n, counters with hi = 0 and hi != 0 and lo at
// the top (lo + n == 2^32), u == 0 exactly, uniform bounds that give NaN,
// infinities, lo > hi and an infinite scale, bernoulli p at and around a
// drawn u and outside [0, 1], dropout over special x values, in place and
// out of place, with keep at a drawn u. Canaries around the output catch a
// kernel that writes too far (bool bytes included). The 2^24-draw sweep of
// every kernel but dropout is tests/vm/slow/random_jit_exhaustive_test.cc.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/vm/jit/jit_test_values.h"
#include "vm/jit/jit.h"
#include "vm/random/continuous.h"
#include "vm/random/keys.h"
#include "vm/random/samplers.h"

namespace alea::vm::jit {
namespace {

using namespace jit::testing_values;  // NOLINT: the shared test values

using random::Key;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr RandomKernel kAllKernels[] = {RandomKernel::kBits,      RandomKernel::kUniform,
                                        RandomKernel::kNormal,    RandomKernel::kExponential,
                                        RandomKernel::kBernoulli, RandomKernel::kDropout,
                                        RandomKernel::kGumbel};
constexpr Key kKeys[] = {{0, 0}, {0xffffffffu, 0xffffffffu}, {0x12345678u, 0x9abcdef0u}, {1, 0}};
constexpr int kCanaryBytes = 256;  // more than one unrolled step of bool bytes
constexpr uint8_t kCanary = 0xa5;

const char* KernelName(RandomKernel k) {
  switch (k) {
    case RandomKernel::kBits:
      return "bits";
    case RandomKernel::kUniform:
      return "uniform";
    case RandomKernel::kNormal:
      return "normal";
    case RandomKernel::kExponential:
      return "exponential";
    case RandomKernel::kBernoulli:
      return "bernoulli";
    case RandomKernel::kDropout:
      return "dropout";
    case RandomKernel::kGumbel:
      return "gumbel";
    case RandomKernel::kCategorical:
      return "categorical";
  }
  return "?";
}

size_t ElementSize(RandomKernel k) { return k == RandomKernel::kBernoulli ? 1 : 4; }

// One draw: the kernel, its key, counter and per-kernel arguments.
struct Draw {
  RandomKernel kernel = RandomKernel::kBits;
  Key key;
  uint64_t start = 0;  // (hi << 32) + lo
  int64_t n = 0;
  float lo = 0.0f, hi = 1.0f;  // kUniform
  float p = 0.5f;              // kBernoulli: p; kDropout: keep
  std::vector<float> x;        // kDropout input (n values)

  std::string Describe() const {
    return absl::StrCat(KernelName(kernel), " key=(", key.k0, ",", key.k1, ") start=", start,
                        " n=", n, " lo=", lo, " hi=", hi, " p=", p);
  }
};

RandomParams ParamsOf(const Draw& d) {
  RandomParams p;
  p.k0 = d.key.k0;
  p.k1 = d.key.k1;
  p.hi = static_cast<uint32_t>(d.start >> 32);
  p.lo = static_cast<uint32_t>(d.start);
  p.lo_bound = d.lo;
  p.scale = d.hi - d.lo;  // f32, as the reference computes it
  p.p = d.p;
  p.x = d.x.data();
  return p;
}

// The rate whose keep f32(1 - rate) is `keep`, when random::Dropout can be
// asked for it (0 < rate < 1); false otherwise.
bool RateFor(float keep, double* rate) {
  *rate = 1.0 - static_cast<double>(keep);
  return *rate > 0.0 && *rate < 1.0 && static_cast<float>(1.0 - *rate) == keep;
}

// The reference's output bytes.
std::vector<uint8_t> Reference(const Draw& d) {
  const size_t n = static_cast<size_t>(d.n);
  std::vector<uint8_t> out(n * ElementSize(d.kernel));
  switch (d.kernel) {
    case RandomKernel::kBits:
      random::Bits(d.key, d.start, n, reinterpret_cast<uint32_t*>(out.data()));
      break;
    case RandomKernel::kUniform:
      random::Uniform(d.key, d.start, n, d.lo, d.hi, reinterpret_cast<float*>(out.data()));
      break;
    case RandomKernel::kNormal:
      random::Normal(d.key, d.start, n, reinterpret_cast<float*>(out.data()));
      break;
    case RandomKernel::kExponential:
      random::Exponential(d.key, d.start, n, reinterpret_cast<float*>(out.data()));
      break;
    case RandomKernel::kGumbel:
      random::Gumbel(d.key, d.start, n, reinterpret_cast<float*>(out.data()));
      break;
    case RandomKernel::kCategorical:  // a reduction: categorical_jit_test.cc
      break;
    case RandomKernel::kBernoulli:
      random::Bernoulli(d.key, d.p, d.start, n, out.data());
      break;
    case RandomKernel::kDropout: {
      float* o = reinterpret_cast<float*>(out.data());
      double rate;
      if (RateFor(d.p, &rate)) {
        random::Dropout(d.key, rate, d.x.data(), d.start, n, o);
      } else {
        // A keep no rate reaches (e.g. 1e-30: 1 - rate rounds to 1 in
        // double): random::Dropout's loop body, on the reference's bits.
        std::vector<uint32_t> bits(n);
        random::Bits(d.key, d.start, n, bits.data());
        for (size_t j = 0; j < n; ++j) {
          o[j] = random::BitsToUnitFloat(bits[j]) < d.p ? d.x[j] / d.p : 0.0f;
        }
      }
      break;
    }
  }
  return out;
}

// Runs the kernel into a buffer with canaries after the output (and before
// it, for bool bytes written at an odd offset); in_place runs dropout with
// out == x. Fails the test if a canary changed.
std::vector<uint8_t> RunJit(RandomFn fn, const Draw& d, bool in_place = false) {
  const size_t bytes = static_cast<size_t>(d.n) * ElementSize(d.kernel);
  constexpr size_t kFront = 3;  // an unaligned output
  std::vector<uint8_t> buffer(kFront + bytes + kCanaryBytes, kCanary);
  RandomParams params = ParamsOf(d);
  std::vector<float> x = d.x;
  uint8_t* out = buffer.data() + kFront;
  if (in_place) {
    // memcpy/memcmp of no bytes still need non-null pointers (UBSan).
    if (!x.empty()) std::memcpy(out, x.data(), bytes);
    params.x = reinterpret_cast<const float*>(out);
  } else {
    params.x = x.data();
  }
  fn(&params, out, d.n);
  for (size_t i = 0; i < kFront; ++i) EXPECT_EQ(buffer[i], kCanary) << d.Describe();
  for (size_t i = 0; i < kCanaryBytes; ++i) {
    if (buffer[kFront + bytes + i] != kCanary) {
      ADD_FAILURE() << "wrote " << i << " bytes past the end: " << d.Describe();
      break;
    }
  }
  if (!in_place && !x.empty()) {
    EXPECT_EQ(0, std::memcmp(x.data(), d.x.data(), x.size() * 4)) << "x changed";
  }
  return {out, out + bytes};
}

// Compares bytes; reports the first differing element's bits.
void ExpectSame(const Draw& d, const std::vector<uint8_t>& want, const std::vector<uint8_t>& got,
                const char* what = "") {
  ASSERT_EQ(want.size(), got.size());
  if (want.empty() || std::memcmp(want.data(), got.data(), want.size()) == 0) return;
  const size_t size = ElementSize(d.kernel);
  for (size_t i = 0; i < want.size(); i += size) {
    uint32_t w = 0, g = 0;
    std::memcpy(&w, want.data() + i, size);
    std::memcpy(&g, got.data() + i, size);
    if (w != g) {
      ADD_FAILURE() << what << d.Describe() << ": element " << i / size << " is 0x" << std::hex << g
                    << ", the reference gives 0x" << w;
      return;
    }
  }
}

class RandomJitTest : public testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!jit_.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
    if (GetParam() == Isa::kAvx512 && !jit_.has_avx512()) {
      GTEST_SKIP() << "this CPU lacks AVX-512F: the AVX-512 path is not tested here";
    }
  }

  RandomFn Get(RandomKernel k) {
    RandomFn fn = jit_.Random(k, GetParam());
    EXPECT_NE(fn, nullptr) << KernelName(k);
    return fn;
  }

  void Check(const Draw& d) {
    RandomFn fn = Get(d.kernel);
    if (fn == nullptr) return;
    const std::vector<uint8_t> want = Reference(d);
    ExpectSame(d, want, RunJit(fn, d));
    if (d.kernel == RandomKernel::kDropout) ExpectSame(d, want, RunJit(fn, d, true), "in place: ");
  }

  Jit jit_;
};

// Dropout inputs: the special bit patterns and random values.
std::vector<float> DropoutInput(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<float> x(static_cast<size_t>(n));
  for (float& v : x) {
    v = rng() % 2 == 0 ? FromBits(kSpecial[rng() % std::size(kSpecial)])
                       : FromBits(static_cast<uint32_t>(rng()));
  }
  return x;
}

TEST_P(RandomJitTest, EveryLengthAndCounterMatchesTheReference) {
  for (RandomKernel kernel : kAllKernels) {
    for (const Key& key : kKeys) {
      for (int64_t n = 0; n <= 400; ++n) {
        // hi = 0 from 0; hi != 0 mid-word; lo at the top, lo + n == 2^32.
        const uint64_t starts[] = {
            0, (uint64_t{0x9e3779b9u} << 32) + 12345,
            (uint64_t{0xffffffffu} << 32) + (uint64_t{1} << 32) - static_cast<uint64_t>(n)};
        for (uint64_t start : starts) {
          Draw d;
          d.kernel = kernel;
          d.key = key;
          d.start = start;
          d.n = n;
          d.lo = -2.5f;
          d.hi = 7.0f;
          d.p = kernel == RandomKernel::kDropout ? 0.9f : 0.3f;
          d.x = DropoutInput(n, static_cast<uint32_t>(n));
          Check(d);
          if (HasFailure()) return;
        }
      }
    }
  }
}

TEST_P(RandomJitTest, LargeDrawsMatchTheReference) {
  for (RandomKernel kernel : kAllKernels) {
    for (const Key& key : {kKeys[0], kKeys[2]}) {
      Draw d;
      d.kernel = kernel;
      d.key = key;
      d.start = (uint64_t{7} << 32) + 1000;
      d.n = 100003;
      d.lo = 1.0f;
      d.hi = -3.0f;
      d.p = 0.5f;
      d.x = DropoutInput(d.n, 99);
      Check(d);
    }
  }
}

TEST_P(RandomJitTest, UniformBoundsWithSpecialValues) {
  const float big = FLT_MAX;
  const float pairs[][2] = {
      {0.0f, 1.0f},
      {-3.0f, 5.0f},
      {5.0f, -3.0f},
      {-1e30f, -1e29f},
      {-big, big},
      {big, -big},
      {kNaN, 1.0f},
      {0.0f, kNaN},
      {-kNaN, kNaN},
      {-kInf, 0.0f},
      {0.0f, kInf},
      {-kInf, kInf},
      {kInf, kInf},
      {kInf, -kInf},
      {1.0f, 1.0f},
      {-0.0f, 0.0f},
      {0.0f, -0.0f},
      {-0.0f, -0.0f},
      {1e-45f, 3e-45f},
      {-1e-45f, 0.0f},
      {-2.0f, -1.0f},
      {1e38f, 3e38f},
      {-0x1.fffffep-1f, 1.0f},
      {FromBits(0x7fc12345), 0.0f},
      {0.0f, FromBits(0xff812345)},
  };
  for (const auto& pair : pairs) {
    for (int64_t n : {0, 1, 15, 16, 17, 63, 64, 65, 77, 1000}) {
      Draw d;
      d.kernel = RandomKernel::kUniform;
      d.key = kKeys[2];
      d.start = 5;
      d.n = n;
      d.lo = pair[0];
      d.hi = pair[1];
      Check(d);
    }
  }
}

TEST_P(RandomJitTest, BernoulliProbabilities) {
  // u of element 5 of the stream below, and the floats around it: the
  // comparison must be exactly u < p.
  const Key key = kKeys[3];
  uint32_t bits[8];
  random::Bits(key, 100, 8, bits);
  const float u = random::BitsToUnitFloat(bits[5]);
  const float ps[] = {0.0f,
                      0.25f,
                      0.5f,
                      1.0f,
                      -1.0f,
                      2.0f,
                      kNaN,
                      -kNaN,
                      kInf,
                      -kInf,
                      -0.0f,
                      1e-45f,
                      u,
                      std::nextafter(u, 2.0f),
                      std::nextafter(u, -1.0f),
                      0x1p-23f,
                      0x1.fffffep-1f};
  for (float p : ps) {
    for (int64_t n : {0, 1, 6, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 100, 129, 4099}) {
      Draw d;
      d.kernel = RandomKernel::kBernoulli;
      d.key = key;
      d.start = 95;  // element 5 of the draw is counter 100
      d.n = n;
      d.p = p;
      Check(d);
    }
  }
}

TEST_P(RandomJitTest, DropoutValuesAndKeeps) {
  int through_reference = 0;
  for (float keep : {0.5f, 0.9f, 0.1f, 1e-30f, 0x1p-40f, 0x1.fffffep-1f, 0.75f}) {
    double rate;
    if (RateFor(keep, &rate)) ++through_reference;
    for (int64_t n : {0, 1, 7, 8, 9, 16, 17, 40, 64, 65, 200, 1025}) {
      Draw d;
      d.kernel = RandomKernel::kDropout;
      d.key = kKeys[1];
      d.start = (uint64_t{3} << 32) + 77;
      d.n = n;
      d.p = keep;
      d.x = DropoutInput(n, static_cast<uint32_t>(n) + 17);
      Check(d);
    }
  }
  EXPECT_GE(through_reference, 5);  // all but 1e-30 go through random::Dropout

  // keep at and around a drawn u: kept is exactly u < keep.
  const Key key = kKeys[2];
  uint32_t bits[8];
  random::Bits(key, 200, 8, bits);
  const float u = random::BitsToUnitFloat(bits[3]);
  for (float keep : {u, std::nextafter(u, 2.0f), std::nextafter(u, -1.0f)}) {
    for (int64_t n : {4, 9, 17, 70}) {
      Draw d;
      d.kernel = RandomKernel::kDropout;
      d.key = key;
      d.start = 197;  // element 3 of the draw is counter 200
      d.n = n;
      d.p = keep;
      d.x = DropoutInput(n, 3);
      Check(d);
    }
  }
}

// Under key (0, 0), counter 4276093 hashes to bits 54: u == 0 exactly, the
// one value where -u is -0 (log1p keeps the sign), u * 0 + -0 is +0 and
// u < 0 is false. Every kernel draws across it, at each position of a vector.
TEST_P(RandomJitTest, TheZeroUnitFloat) {
  constexpr uint64_t kZeroAt = 4276093;
  uint32_t bits = 0;
  random::Bits(Key{0, 0}, kZeroAt, 1, &bits);
  ASSERT_EQ(random::BitsToUnitFloat(bits), 0.0f);
  for (RandomKernel kernel : kAllKernels) {
    for (int64_t offset = 0; offset < 70; offset += 3) {
      Draw d;
      d.kernel = kernel;
      d.start = kZeroAt - static_cast<uint64_t>(offset);
      d.n = 71;
      d.p = kernel == RandomKernel::kDropout ? 0.5f : 0.0f;
      d.lo = -0.0f;
      d.hi = -0.0f;
      d.x = DropoutInput(d.n, 5);
      Check(d);
      if (kernel == RandomKernel::kBernoulli) {
        d.p = -0.0f;
        Check(d);
        d.p = 0x1p-23f;  // the smallest nonzero u
        Check(d);
      }
      if (kernel == RandomKernel::kUniform) {
        d.lo = 0.0f;
        d.hi = 0.0f;
        Check(d);
        d.lo = -1.0f;
        d.hi = 1.0f;
        Check(d);
      }
    }
  }
}

TEST_P(RandomJitTest, NonPositiveCountWritesNothing) {
  for (RandomKernel kernel : kAllKernels) {
    RandomFn fn = Get(kernel);
    if (fn == nullptr) continue;
    Draw d;
    d.kernel = kernel;
    for (int64_t n : {0, -1, -100}) {
      uint8_t buffer[64];
      std::memset(buffer, kCanary, sizeof(buffer));
      float x[16] = {};
      RandomParams params = ParamsOf(d);
      params.x = x;
      fn(&params, buffer, n);
      for (uint8_t b : buffer) ASSERT_EQ(b, kCanary) << KernelName(kernel) << " n=" << n;
    }
  }
}

TEST_P(RandomJitTest, KernelsAreCachedPerIsa) {
  for (RandomKernel kernel : kAllKernels) {
    RandomFn fn = Get(kernel);
    EXPECT_EQ(jit_.Random(kernel, GetParam()), fn);
  }
  EXPECT_NE(jit_.Random(RandomKernel::kBits, GetParam()),
            jit_.Random(RandomKernel::kUniform, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Isas, RandomJitTest, kBothIsas, IsaParamName);

TEST(RandomJitHooksTest, AnAsmjitErrorGivesNull) {
  Jit jit(Options{.inject_asmjit_error = true});
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA";
  for (RandomKernel kernel : kAllKernels) {
    EXPECT_EQ(jit.Random(kernel, Isa::kAvx2), nullptr) << KernelName(kernel);
    if (jit.has_avx512()) {
      EXPECT_EQ(jit.Random(kernel, Isa::kAvx512), nullptr);
    }
  }
  EXPECT_EQ(jit.stats().kernels_compiled, 0);
  EXPECT_GT(jit.stats().compile_failures, 0);
}

TEST(RandomJitHooksTest, PretendNoAvx512) {
  Jit jit(Options{.pretend_no_avx512 = true});
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA";
  for (RandomKernel kernel : kAllKernels) {
    EXPECT_EQ(jit.Random(kernel, Isa::kAvx512), nullptr) << KernelName(kernel);
    RandomFn fn = jit.Random(kernel, Isa::kAuto);
    EXPECT_NE(fn, nullptr);
    EXPECT_EQ(fn, jit.Random(kernel, Isa::kAvx2));
  }
}

TEST(RandomJitHooksTest, PretendNoAvx2GivesNull) {
  Jit jit(Options{.pretend_no_avx2 = true});
  EXPECT_EQ(jit.Random(RandomKernel::kUniform), nullptr);
}

TEST(RandomJitHooksTest, UnknownKernelGivesNull) {
  Jit jit;
  EXPECT_EQ(jit.Random(static_cast<RandomKernel>(200)), nullptr);
  EXPECT_EQ(jit.stats().kernels_compiled, 0);
}

}  // namespace
}  // namespace alea::vm::jit

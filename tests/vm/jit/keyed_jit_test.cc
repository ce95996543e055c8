// The JIT's keyed random kernels (vm/jit/jit.h, Jit::Keyed) against
// random::Threefry2x32 and random::Normal, bit for bit, on the AVX2 and the
// AVX-512 path: random keys and counters (all-zero and all-ones among them),
// every length 0..300 (unrolled blocks, single vectors, every tail length),
// outputs in place of the key arrays, and canaries after each output.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tests/vm/jit/jit_test_values.h"
#include "vm/jit/jit.h"
#include "vm/random/keys.h"
#include "vm/random/samplers.h"
#include "vm/random/threefry.h"

namespace alea::vm::jit {
namespace {

using namespace jit::testing_values;  // NOLINT: the shared test values

constexpr KeyedKernel kAllKernels[] = {KeyedKernel::kWords, KeyedKernel::kBits,
                                       KeyedKernel::kNormal};
constexpr uint32_t kCanary = 0xa5a5a5a5u;
constexpr size_t kCanaries = 64;

struct Arrays {
  std::vector<uint32_t> k0, k1, c0, c1;
};

Arrays RandomArrays(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Arrays a;
  for (auto* v : {&a.k0, &a.k1, &a.c0, &a.c1}) {
    v->resize(n);
    for (uint32_t& x : *v) {
      const uint32_t pick = rng() % 8;
      x = pick == 0 ? 0u : pick == 1 ? 0xffffffffu : pick == 2 ? 1u : static_cast<uint32_t>(rng());
    }
  }
  return a;
}

// The reference's words for element j: y0 (and y1 for kWords).
void Reference(KeyedKernel kernel, const Arrays& a, size_t j, uint32_t* y0, uint32_t* y1) {
  const auto [w0, w1] = random::Threefry2x32(a.k0[j], a.k1[j], a.c0[j], a.c1[j]);
  switch (kernel) {
    case KeyedKernel::kWords:
      *y0 = w0;
      *y1 = w1;
      return;
    case KeyedKernel::kBits:
      *y0 = w0 ^ w1;
      return;
    case KeyedKernel::kNormal: {
      float x;
      const uint64_t counter = (uint64_t{a.c0[j]} << 32) | a.c1[j];
      random::Normal(random::Key{a.k0[j], a.k1[j]}, counter, 1, &x);
      std::memcpy(y0, &x, 4);
      return;
    }
  }
}

class KeyedJitTest : public testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!jit_.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
    if (GetParam() == Isa::kAvx512 && !jit_.has_avx512()) {
      GTEST_SKIP() << "this CPU lacks AVX-512F: the AVX-512 path is not tested here";
    }
  }

  // Runs the kernel on n elements, out of place (canaries after each output)
  // or in place (y0 = k0, y1 = k1); compares every element.
  void Check(KeyedKernel kernel, size_t n, uint32_t seed, bool in_place) {
    KeyedFn fn = jit_.Keyed(kernel, GetParam());
    ASSERT_NE(fn, nullptr);
    const Arrays a = RandomArrays(n, seed);
    Arrays work = a;
    std::vector<uint32_t> y0(n + kCanaries, kCanary), y1(n + kCanaries, kCanary);
    KeyedParams p;
    p.k0 = work.k0.data();
    p.k1 = work.k1.data();
    p.c0 = work.c0.data();
    p.c1 = work.c1.data();
    p.y0 = in_place ? work.k0.data() : y0.data();
    p.y1 = in_place ? work.k1.data() : y1.data();
    fn(&p, static_cast<int64_t>(n));
    for (size_t j = 0; j < n; ++j) {
      uint32_t want0 = 0, want1 = 0;
      Reference(kernel, a, j, &want0, &want1);
      EXPECT_EQ(p.y0[j], want0) << "kernel " << static_cast<int>(kernel) << " n " << n << " j " << j
                                << (in_place ? " in place" : "");
      if (kernel == KeyedKernel::kWords) {
        EXPECT_EQ(p.y1[j], want1) << "n " << n << " j " << j;
      }
      if (HasFailure()) return;
    }
    if (in_place) return;
    for (size_t j = n; j < n + kCanaries; ++j) {
      ASSERT_EQ(y0[j], kCanary) << "wrote past the end, n " << n;
      ASSERT_EQ(y1[j], kCanary) << "wrote past the end, n " << n;
    }
  }

  Jit jit_;
};

TEST_P(KeyedJitTest, EveryLengthMatchesTheReference) {
  for (KeyedKernel kernel : kAllKernels) {
    for (size_t n = 0; n <= 300; ++n) {
      Check(kernel, n, static_cast<uint32_t>(n * 3 + static_cast<size_t>(kernel)), false);
      if (HasFailure()) return;
    }
  }
}

TEST_P(KeyedJitTest, OutputsMayReplaceTheKeys) {
  for (KeyedKernel kernel : kAllKernels) {
    for (size_t n : {1, 15, 16, 17, 100, 4099}) {
      Check(kernel, n, 77, true);
      if (HasFailure()) return;
    }
  }
}

TEST_P(KeyedJitTest, TheFirstSplitOfKeyZeroIsJaxs) {
  // JAX's split(PRNGKey(0)) in partitionable mode is SplitKey(key(0), i):
  // counter (0, i) under the key (0, 0), the known answer the samplers use.
  KeyedFn fn = jit_.Keyed(KeyedKernel::kWords, GetParam());
  ASSERT_NE(fn, nullptr);
  const uint32_t zeros[2] = {0, 0}, index[2] = {0, 1};
  uint32_t y0[2], y1[2];
  KeyedParams p;
  p.k0 = zeros;
  p.k1 = zeros;
  p.c0 = zeros;
  p.c1 = index;
  p.y0 = y0;
  p.y1 = y1;
  fn(&p, 2);
  for (uint32_t i = 0; i < 2; ++i) {
    const random::Key want = random::SplitKey(random::Key{0, 0}, i);
    EXPECT_EQ(y0[i], want.k0);
    EXPECT_EQ(y1[i], want.k1);
  }
}

TEST_P(KeyedJitTest, KernelsAreCachedAndUnknownOnesRefused) {
  EXPECT_EQ(jit_.Keyed(KeyedKernel::kBits, GetParam()), jit_.Keyed(KeyedKernel::kBits, GetParam()));
  EXPECT_EQ(jit_.Keyed(static_cast<KeyedKernel>(99), GetParam()), nullptr);
}

INSTANTIATE_TEST_SUITE_P(Isas, KeyedJitTest, kBothIsas, IsaParamName);

}  // namespace
}  // namespace alea::vm::jit

// The JIT's normal and exponential kernels (vm/jit/random.cc, with
// EmitErfinvF32 and EmitLog1pF32 of vm/jit/math_f32.cc) against the
// reference samplers (vm/random/samplers.h), bit for bit over 2^24
// consecutive draws per key: the unit floats they see cover most of the 2^23
// possible values, so nearly every input of the fused erfinv and log1p
// (both of erfinv's regions and both of its tail pieces, log1p's direct and
// split ranges) is compared. Bits, uniform and bernoulli get the same sweep
// (they are cheap). Both ISA paths, in chunks that straddle the unrolled
// blocks at odd offsets. Under ten seconds single-threaded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "vm/jit/jit.h"
#include "vm/random/continuous.h"
#include "vm/random/keys.h"
#include "vm/random/samplers.h"

namespace alea::vm::jit {
namespace {

constexpr uint64_t kDraws = uint64_t{1} << 24;
constexpr uint64_t kChunk = (uint64_t{1} << 20) + 37;  // not a multiple of any block

// Compares `draws` draws of `kernel` from `start` on `isa` with the
// reference, chunk by chunk; returns the number of differing elements.
uint64_t Sweep(Jit& jit, RandomKernel kernel, Isa isa, random::Key key, uint64_t start) {
  RandomFn fn = jit.Random(kernel, isa);
  EXPECT_NE(fn, nullptr);
  if (fn == nullptr) return 1;
  std::vector<uint32_t> want(kChunk), got(kChunk);
  uint64_t mismatches = 0;
  for (uint64_t done = 0; done < kDraws; done += kChunk) {
    const uint64_t n = std::min(kChunk, kDraws - done);
    const uint64_t at = start + done;
    float* w = reinterpret_cast<float*>(want.data());
    switch (kernel) {
      case RandomKernel::kNormal:
        random::Normal(key, at, n, w);
        break;
      case RandomKernel::kExponential:
        random::Exponential(key, at, n, w);
        break;
      case RandomKernel::kGumbel:
        random::Gumbel(key, at, n, w);
        break;
      case RandomKernel::kUniform:
        random::Uniform(key, at, n, -1.5f, 4.0f, w);
        break;
      case RandomKernel::kBernoulli:
        random::Bernoulli(key, 0.625f, at, n, reinterpret_cast<uint8_t*>(want.data()));
        break;
      default:
        random::Bits(key, at, n, want.data());
        break;
    }
    RandomParams params;
    params.k0 = key.k0;
    params.k1 = key.k1;
    params.hi = static_cast<uint32_t>(at >> 32);
    params.lo = static_cast<uint32_t>(at);
    params.lo_bound = -1.5f;
    params.scale = 4.0f - -1.5f;
    params.p = 0.625f;
    fn(&params, got.data(), static_cast<int64_t>(n));
    const size_t bytes = kernel == RandomKernel::kBernoulli ? n : n * 4;
    if (std::memcmp(want.data(), got.data(), bytes) == 0) continue;
    for (uint64_t j = 0; j < n; ++j) {
      uint32_t a = 0, b = 0;
      const size_t size = kernel == RandomKernel::kBernoulli ? 1 : 4;
      std::memcpy(&a, reinterpret_cast<const uint8_t*>(want.data()) + j * size, size);
      std::memcpy(&b, reinterpret_cast<const uint8_t*>(got.data()) + j * size, size);
      if (a != b && mismatches++ == 0) {
        ADD_FAILURE() << "kernel " << static_cast<int>(kernel) << " counter " << at + j
                      << ": got 0x" << std::hex << b << ", want 0x" << a;
      }
    }
  }
  return mismatches;
}

class RandomJitExhaustiveTest : public testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!jit_.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
    if (GetParam() == Isa::kAvx512 && !jit_.has_avx512()) {
      GTEST_SKIP() << "this CPU lacks AVX-512F: the AVX-512 path is not tested here";
    }
  }
  Jit jit_;
};

TEST_P(RandomJitExhaustiveTest, NormalExponentialGumbelOver2To24Draws) {
  const random::Key key{0x2545f491u, 0x4f6cdd1du};
  const uint64_t start = (uint64_t{0x51} << 32) + 0x100;
  EXPECT_EQ(Sweep(jit_, RandomKernel::kNormal, GetParam(), key, start), 0u);
  EXPECT_EQ(Sweep(jit_, RandomKernel::kExponential, GetParam(), key, start), 0u);
  EXPECT_EQ(Sweep(jit_, RandomKernel::kGumbel, GetParam(), key, start), 0u);
}

TEST_P(RandomJitExhaustiveTest, BitsUniformBernoulliOver2To24Draws) {
  const random::Key key{0, 0};
  for (RandomKernel k : {RandomKernel::kBits, RandomKernel::kUniform, RandomKernel::kBernoulli}) {
    EXPECT_EQ(Sweep(jit_, k, GetParam(), key, 3), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, RandomJitExhaustiveTest, testing::Values(Isa::kAvx2, Isa::kAvx512),
                         [](const testing::TestParamInfo<Isa>& info) {
                           return std::string(info.param == Isa::kAvx512 ? "avx512" : "avx2");
                         });

}  // namespace
}  // namespace alea::vm::jit

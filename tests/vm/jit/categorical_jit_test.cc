// categorical on the JIT (vm::JitDrawKernels::CategoricalRow over
// RandomKernel::kCategorical, per-lane Gumbel-max) against the reference
// scan (random::DrawKernels::CategoricalRow), index for index, on the AVX2
// and the AVX-512 path: every row length 1..300, rows whose counters cross a
// 2^32 boundary, logits with ties, +-inf, all -inf, and NaN (which the JIT
// hands back to the reference's first-NaN rule).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "tests/vm/jit/jit_test_values.h"
#include "vm/jit/jit.h"
#include "vm/random/draw_kernels.h"
#include "vm/random/keys.h"
#include "vm/random_draw.h"

namespace alea::vm {
namespace {

using jit::Isa;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

class CategoricalJitTest : public testing::TestWithParam<Isa> {
 protected:
  // JitDrawKernels asks for the widest ISA: the AVX2 path is had by a Jit
  // that pretends the CPU lacks AVX-512.
  void SetUp() override {
    jit::Options options;
    options.pretend_no_avx512 = GetParam() == Isa::kAvx2;
    jit_ = std::make_unique<jit::Jit>(options);
    if (!jit_->available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
    if (GetParam() == Isa::kAvx512 && !jit_->has_avx512()) {
      GTEST_SKIP() << "this CPU lacks AVX-512F: the AVX-512 path is not tested here";
    }
    // Not the reference's scan under another name.
    ASSERT_NE(jit_->Random(jit::RandomKernel::kCategorical), nullptr);
  }

  void Expect(random::Key k, uint64_t start, const std::vector<float>& logits) {
    const JitDrawKernels jitted(jit_.get());
    const uint64_t n = logits.size();
    const uint64_t want = random::ReferenceKernels().CategoricalRow(k, start, logits.data(), n);
    const uint64_t got = jitted.CategoricalRow(k, start, logits.data(), n);
    EXPECT_EQ(got, want) << "n " << n << " start " << start;
  }

  std::unique_ptr<jit::Jit> jit_;
};

TEST_P(CategoricalJitTest, EveryRowLengthMatchesTheReference) {
  std::mt19937 rng(5);
  std::normal_distribution<float> normal;
  for (uint64_t n = 1; n <= 300; ++n) {
    std::vector<float> logits(n);
    for (float& x : logits) x = normal(rng);
    Expect(random::Key{static_cast<uint32_t>(n), 7}, n * 1000, logits);
    if (HasFailure()) return;
  }
}

TEST_P(CategoricalJitTest, RowsAcrossTheCounterHighWord) {
  std::vector<float> logits(1000, 0.0f);
  for (uint64_t before : {1u, 15u, 16u, 17u, 500u, 999u}) {
    Expect(random::Key{3, 4}, (uint64_t{1} << 32) - before, logits);
  }
}

TEST_P(CategoricalJitTest, SpecialLogits) {
  const random::Key k{11, 12};
  Expect(k, 0, std::vector<float>(40, -kInf));  // all -inf: index 0
  Expect(k, 0, std::vector<float>(1, -kInf));
  Expect(k, 0, std::vector<float>(40, 0.0f));  // plain Gumbel-max
  std::vector<float> with_inf(40, 0.0f);
  with_inf[7] = kInf;
  with_inf[23] = kInf;  // the first +inf
  Expect(k, 0, with_inf);
  std::vector<float> with_nan(40, 0.0f);
  with_nan[30] = kNaN;
  with_nan[35] = kNaN;  // the first NaN
  Expect(k, 0, with_nan);
  std::vector<float> big_ties(64, 1e30f);  // gumbel lost: ties
  Expect(k, 0, big_ties);
  std::vector<float> mixed(100, -kInf);
  mixed[99] = 0.0f;  // one finite, last
  Expect(k, 0, mixed);
}

INSTANTIATE_TEST_SUITE_P(Isas, CategoricalJitTest, jit::testing_values::kBothIsas,
                         jit::testing_values::IsaParamName);

}  // namespace
}  // namespace alea::vm

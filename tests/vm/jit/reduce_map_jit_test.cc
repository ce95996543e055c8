// The JIT's map-sums (vm/jit/jit.h MapSumF32: the second passes of var,
// logsumexp and softmax) against their definition, the reference sum
// (kernels/reduce.h) of the mapped elements, bit for bit on the AVX2 and the
// AVX-512 path; and the reductions and softmax built on them
// (vm/tensor_ops.h Reduce, Softmax) with the JIT and without, on many shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vm/dtype.h"
#include "vm/heap.h"
#include "vm/jit/jit.h"
#include "vm/kernels/math_f32.h"
#include "vm/kernels/reduce.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"

namespace alea::vm::jit {
namespace {

using kernels::kReduceChunk;
using kernels::ReduceOp;

uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }

constexpr uint32_t kSpecial[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                 0xffc12345, 0x00000001, 0x3f800000, 0x42b20000, 0xc2d00000};

std::vector<float> Values(std::mt19937& rng, int64_t n, bool specials) {
  std::vector<float> v(static_cast<size_t>(n));
  std::normal_distribution<float> normal(0.0f, 30.0f);
  for (float& x : v) {
    x = specials && rng() % 8 == 0 ? std::bit_cast<float>(kSpecial[rng() % std::size(kSpecial)])
                                   : normal(rng);
  }
  return v;
}

float Mapped(MapSum map, float x, float c) {
  const float d = x - c;
  return map == MapSum::kSquaredDeviation ? d * d : kernels::ExpF32(d);
}

class MapSumJitTest : public testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!jit_.available()) GTEST_SKIP() << "this CPU has no AVX2+FMA: the JIT is off";
    if (GetParam() == Isa::kAvx512 && !jit_.has_avx512()) {
      GTEST_SKIP() << "this CPU lacks AVX-512F: the AVX-512 path is not tested here";
    }
  }
  Jit jit_;
};

TEST_P(MapSumJitTest, MatchesTheReferenceSumOfTheMap) {
  std::mt19937 rng(77);
  std::vector<int64_t> sizes;
  for (int64_t n = 0; n <= 70; ++n) sizes.push_back(n);
  for (int64_t chunks : {1, 4, 5}) {
    for (int64_t d : {-1, 0, 1, 17}) sizes.push_back(chunks * kReduceChunk + d);
  }
  for (MapSum map : {MapSum::kSquaredDeviation, MapSum::kExpShifted, MapSum::kExpShiftedStore}) {
    MapSumF32Fn fn = jit_.MapSumF32(map, GetParam());
    ASSERT_NE(fn, nullptr);
    for (int64_t n : sizes) {
      for (bool specials : {false, true}) {
        // One element more than n, and an aligned and an unaligned start.
        std::vector<float> in = Values(rng, n + 1, specials);
        for (int shift : {0, 1}) {
          const float* x = in.data() + shift;
          const int64_t len = n;
          for (float c : {0.0f, 3.5f, -1e30f, std::bit_cast<float>(0x7fc00000u)}) {
            std::vector<float> mapped(static_cast<size_t>(len));
            for (int64_t i = 0; i < len; ++i) mapped[i] = Mapped(map, x[i], c);
            float want = 0.0f;
            kernels::Reduce(ReduceOp::kSum, DType::kF32, 1, len, 1, mapped.data(), &want);
            // The store must write the n mapped elements and nothing after.
            std::vector<float> out(static_cast<size_t>(len) + 1, 7.0f);
            const float got = fn(x, len, c, out.data());
            const std::string what =
                absl::StrCat("map ", static_cast<int>(map), " n=", len, " shift=", shift, " c=", c);
            ASSERT_EQ(Bits(got), Bits(want)) << what << ": got " << got << ", want " << want;
            if (map == MapSum::kExpShiftedStore) {
              ASSERT_TRUE(std::equal(mapped.begin(), mapped.end(), out.begin(),
                                     [](float a, float b) { return Bits(a) == Bits(b); }))
                  << what;
              ASSERT_EQ(out[static_cast<size_t>(len)], 7.0f) << what;
            }
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, MapSumJitTest, testing::Values(Isa::kAvx2, Isa::kAvx512),
                         [](const testing::TestParamInfo<Isa>& info) {
                           return info.param == Isa::kAvx2 ? "Avx2" : "Avx512";
                         });

Object* Random(Heap& heap, const std::vector<int64_t>& shape, uint32_t seed) {
  Object* t = heap.NewTensor(DType::kF32, shape);
  std::mt19937 rng(seed);
  const std::vector<float> v = Values(rng, SizeOf(t), seed % 2 == 0);
  if (!v.empty()) std::memcpy(ElementsOf<float>(t), v.data(), sizeof(float) * v.size());
  return t;
}

bool SameBytes(const Object* a, const Object* b) {
  return DTypeOf(a) == DTypeOf(b) && SizeOf(a) == SizeOf(b) &&
         std::memcmp(DataOf(a), DataOf(b), static_cast<size_t>(SizeOf(a)) * 4) == 0;
}

// Both ISA paths (a Jit that pretends to lack AVX-512 takes AVX2) against
// the reference, for the ops whose rows the JIT computes.
TEST(ReduceOpsJit, SameBitsAsTheReference) {
  Jit avx512;
  Jit avx2({.pretend_no_avx512 = true});
  if (!avx2.available()) GTEST_SKIP() << "this CPU has no AVX2+FMA: the JIT is off";
  Heap heap(0);
  const std::vector<std::vector<int64_t>> shapes = {
      {1}, {7}, {16}, {33}, {3, 100}, {1000}, {2, kReduceChunk + 9}, {5, 4, 37}, {0}, {2, 0}};
  const ReduceOp ops[] = {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMean,
                          ReduceOp::kVar, ReduceOp::kStd,  ReduceOp::kLogSumExp};
  uint32_t seed = 1;
  for (const auto& shape : shapes) {
    Object* x = Random(heap, shape, seed++);
    const int64_t rank = static_cast<int64_t>(shape.size());
    std::vector<std::optional<int64_t>> axes = {std::nullopt};
    for (int64_t a = -1; a < rank; ++a) axes.push_back(a);
    for (std::optional<int64_t> axis : axes) {
      const std::string where = absl::StrCat(ShapeString(shape), " axis ", axis.value_or(99));
      for (ReduceOp op : ops) {
        for (int64_t ddof : {0, 1}) {
          if (ddof == 1 && op != ReduceOp::kVar && op != ReduceOp::kStd) continue;
          TensorContext ref(heap, nullptr);
          Object* want = Reduce(ref, op, x, axis, ddof);
          ASSERT_NE(want, nullptr);
          for (Jit* jit : {&avx2, &avx512}) {
            TensorContext cx(heap, jit);
            Object* got = Reduce(cx, op, x, axis, ddof);
            ASSERT_NE(got, nullptr);
            EXPECT_TRUE(SameBytes(got, want))
                << where << " op " << static_cast<int>(op) << " ddof " << ddof;
            heap.Release(got);
          }
          heap.Release(want);
        }
      }
      if (!axis.has_value()) continue;
      TensorContext ref(heap, nullptr);
      Object* want = Softmax(ref, x, *axis);
      ASSERT_NE(want, nullptr);
      for (Jit* jit : {&avx2, &avx512}) {
        TensorContext cx(heap, jit);
        Object* got = Softmax(cx, x, *axis);
        ASSERT_NE(got, nullptr);
        EXPECT_TRUE(SameBytes(got, want)) << where << " softmax";
        heap.Release(got);
      }
      heap.Release(want);
    }
    heap.Release(x);
  }
  EXPECT_GT(avx2.stats().kernels_compiled, 0);
}

}  // namespace
}  // namespace alea::vm::jit

// The JIT's f32 matrix product (vm/jit/jit.h MatMulF32) against the reference
// kernel (vm/kernels/matmul.h), bit for bit, on the AVX2 and the AVX-512 path:
// shapes around the tile sizes and the cache blocks of both paths (edges in
// every dimension, k blocks whose partial sums are carried), empty
// dimensions, tall and skinny operands, random sizes and one large product.
// Values are mostly ordinary, with NaNs of several payloads, infinities,
// signed zeros and subnormals sprinkled at a rate that leaves most outputs
// finite; products of -0.0 check that every chain starts at +0.0f. The output
// starts as garbage and is followed by sentinels, to catch an output that is
// not written and a write past the end.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/vm/jit/jit_test_values.h"
#include "vm/dtype.h"
#include "vm/jit/jit.h"
#include "vm/kernels/matmul.h"
#include "vm/thread_pool.h"

namespace alea::vm::jit {
namespace {

using namespace jit::testing_values;  // NOLINT: the shared test values

constexpr int kSentinels = 40;
constexpr uint32_t kGarbageBits = 0xffc0dead;

class Values {
 public:
  explicit Values(uint32_t seed) : rng_(seed) {}

  // n values, each special with probability `special_rate`, else ordinary
  // (a normal draw at a random scale, or a small multiple of 0.5 so that
  // sums cancel exactly and signed zeros appear).
  std::vector<float> Matrix(int64_t n, double special_rate) {
    std::vector<float> v(static_cast<size_t>(n));
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::normal_distribution<float> normal;
    for (float& x : v) {
      if (u(rng_) < special_rate) {
        x = FromBits(kSpecial[rng_() % std::size(kSpecial)]);
      } else if (rng_() % 4 == 0) {
        x = static_cast<float>(static_cast<int>(rng_() % 9) - 4) * 0.5f;
      } else {
        x = std::ldexp(normal(rng_), static_cast<int>(rng_() % 41) - 20);
      }
    }
    return v;
  }

  int64_t Size(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(rng_() % static_cast<uint32_t>(hi - lo + 1));
  }

 private:
  std::mt19937 rng_;
};

struct Shape {
  int64_t m, k, n;
};

class MatMulJitTest : public testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!jit_.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
    if (GetParam() == Isa::kAvx512 && !jit_.has_avx512()) {
      GTEST_SKIP() << "this CPU lacks AVX-512F: the AVX-512 path is not tested here";
    }
  }

  // One product of random operands through the JIT and the reference.
  // With a pool, its threads split the product (rows or columns). a_t, b_t:
  // the JIT is handed that operand stored transposed (read in place while
  // packing), the reference the row-major one.
  void Check(const Shape& s, Values& values, double special_rate, ThreadPool* pool = nullptr,
             bool a_t = false, bool b_t = false) {
    const std::string what = absl::StrCat(
        Name(GetParam()), " m=", s.m, " k=", s.k, " n=", s.n, " special_rate=", special_rate,
        " threads=", pool ? pool->threads() : 0, " transposed a=", a_t, " b=", b_t);
    const std::vector<float> a = values.Matrix(s.m * s.k, special_rate);
    const std::vector<float> b = values.Matrix(s.k * s.n, special_rate);
    const size_t size = static_cast<size_t>(s.m * s.n);
    std::vector<float> want(size + 1);
    kernels::MatMul(DType::kF32, s.m, s.k, s.n, a.data(), b.data(), want.data());

    std::vector<float> out(size, FromBits(kGarbageBits));
    out.resize(size + kSentinels, FromBits(kSentinelBits));
    // [rows, cols] row-major, stored as its [cols, rows] transpose.
    auto transposed = [](const std::vector<float>& x, int64_t rows, int64_t cols) {
      std::vector<float> t(x.size());
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) t[j * rows + i] = x[i * cols + j];
      }
      return t;
    };
    const std::vector<float> at = a_t ? transposed(a, s.m, s.k) : a;
    const std::vector<float> bt = b_t ? transposed(b, s.k, s.n) : b;
    ASSERT_TRUE(jit_.MatMulF32(s.m, s.k, s.n, {at.data(), a_t}, {bt.data(), b_t}, out.data(), pool,
                               GetParam()))
        << what;
    int reported = 0;
    for (size_t i = 0; i < size && reported < 5; ++i) {
      if (Bits(out[i]) != Bits(want[i])) {
        ADD_FAILURE() << what << " at [" << static_cast<int64_t>(i) / s.n << ", "
                      << static_cast<int64_t>(i) % s.n << "]: got 0x" << std::hex << Bits(out[i])
                      << ", want 0x" << Bits(want[i]);
        ++reported;
      }
    }
    for (int i = 0; i < kSentinels; ++i) {
      ASSERT_EQ(Bits(out[size + i]), kSentinelBits) << what << ": wrote past the end";
    }
  }

  void CheckAll(const std::vector<Shape>& shapes, uint32_t seed) {
    Values values(seed);
    for (const Shape& s : shapes) {
      // Plain values; a few specials per row or column; many specials.
      Check(s, values, 0.0);
      Check(s, values, 1.0 / static_cast<double>(4 * (s.k + 1)));
      Check(s, values, 0.2);
    }
  }

  Jit jit_;
};

TEST_P(MatMulJitTest, SmallAndEmptyShapes) {
  CheckAll({{1, 1, 1},
            {0, 0, 0},
            {0, 5, 7},
            {5, 0, 7},
            {5, 7, 0},
            {0, 3, 0},
            {3, 0, 0},
            {2, 3, 4},
            {7, 11, 13},
            {17, 19, 23},
            {31, 37, 41},
            {43, 2, 47},
            {1, 1, 100}},
           1);
}

// Both paths' tiles (AVX2 6 x 16, AVX-512 6 x 64), the k loop's unrolling
// (4), the k blocks (at most 1024, balanced: 1025 is two of 513 and the
// partial sums of the first are carried into the second) and the m blocks
// (96 / 144), at their sizes and +-1.
TEST_P(MatMulJitTest, TileAndBlockEdges) {
  std::vector<Shape> shapes;
  for (int64_t m : {5, 6, 7, 11, 12, 13}) {
    for (int64_t n : {15, 16, 17, 33, 63, 64, 65, 129}) shapes.push_back({m, 5, n});
  }
  for (int64_t k : {1, 2, 3, 4, 5, 8, 9, 1023, 1024, 1025, 2049, 3000}) {
    shapes.push_back({6, k, 64});
    shapes.push_back({7, k, 19});
  }
  for (int64_t m : {95, 96, 97, 143, 144, 145, 337}) shapes.push_back({m, 9, 33});
  shapes.push_back({145, 1100, 70});  // several m blocks, edges, partial sums carried
  CheckAll(shapes, 2);
}

TEST_P(MatMulJitTest, TallAndSkinny) {
  CheckAll({{1000, 3, 1},
            {1, 1000, 3},
            {3, 5, 1000},
            {1, 700, 1},
            {500, 1, 500},
            {2, 3, 4200},  // more columns than one n block
            {1, 17, 4097}},
           3);
}

TEST_P(MatMulJitTest, RandomSizes) {
  Values sizes(4);
  std::vector<Shape> shapes;
  for (int i = 0; i < 12; ++i) {
    shapes.push_back({sizes.Size(64, 300), sizes.Size(64, 300), sizes.Size(64, 300)});
  }
  CheckAll(shapes, 5);
}

TEST_P(MatMulJitTest, Large) {
  Values values(6);
  Check({512, 520, 509}, values, 0.0);
  Check({509, 512, 512}, values, 1.0 / 2000);
}

// -0.0 products: fma(-x, +y, +0.0f) is +0.0f, so a chain of them stays +0;
// starting from the first product instead would give -0.0f.
TEST_P(MatMulJitTest, OnThreads) {
  // Rows split (with several k blocks, whose partial sums every range must
  // store before any range loads them; several m blocks per range), columns
  // split (1 x k; n past one n block), edges everywhere, and products too
  // small to split; then the same pools again (workers asleep or spinning,
  // per-range buffers kept).
  const Shape shapes[] = {{300, 1030, 301}, {1, 2100, 700}, {700, 129, 1}, {131, 257, 259},
                          {20, 60, 4200},   {1000, 40, 50}, {6, 20, 7}};
  Values values(9);
  for (int threads : {2, 3, 7}) {
    ThreadPool pool(threads);
    for (int round = 0; round < 2; ++round) {
      for (const Shape& s : shapes) Check(s, values, round == 0 ? 0.0 : 0.01, &pool);
    }
  }
}

TEST_P(MatMulJitTest, NegativeZeroProductsGivePositiveZero) {
  for (const Shape s : {Shape{1, 1, 1}, Shape{20, 3, 40}}) {
    std::vector<float> a(static_cast<size_t>(s.m * s.k), -0.0f);
    std::vector<float> b(static_cast<size_t>(s.k * s.n), 1.0f);
    std::vector<float> out(static_cast<size_t>(s.m * s.n), 1.0f);
    ASSERT_TRUE(jit_.MatMulF32(s.m, s.k, s.n, a.data(), b.data(), out.data(), nullptr, GetParam()));
    for (float x : out) ASSERT_EQ(Bits(x), 0u);
  }
}

// Steps with several NaN operands at once: which payload comes out depends
// on the order of the FMA's operands (vm/jit/matmul.cc), so every pairing of
// these values in a two-step chain is checked, a and b in both roles.
TEST_P(MatMulJitTest, NaNPayloadsAsTheReference) {
  constexpr uint32_t kValues[] = {0x7fc00001, 0xffc00000, 0x7f800001, 0xffd54321,
                                  0x7f800000, 0x00000000, 0x3f800000, 0x80000000};
  constexpr int kCount = std::size(kValues);
  // b is 2 x 64: column j holds one (b[0, j], b[1, j]) pair of the values.
  std::vector<float> b(2 * kCount * kCount);
  for (int j = 0; j < kCount * kCount; ++j) {
    b[j] = FromBits(kValues[j / kCount]);
    b[kCount * kCount + j] = FromBits(kValues[j % kCount]);
  }
  for (uint32_t a0 : kValues) {
    for (uint32_t a1 : kValues) {
      const float a[2] = {FromBits(a0), FromBits(a1)};
      std::vector<float> want(kCount * kCount);
      std::vector<float> got(kCount * kCount);
      kernels::MatMul(DType::kF32, 1, 2, kCount * kCount, a, b.data(), want.data());
      ASSERT_TRUE(
          jit_.MatMulF32(1, 2, kCount * kCount, a, b.data(), got.data(), nullptr, GetParam()));
      for (int j = 0; j < kCount * kCount; ++j) {
        EXPECT_EQ(Bits(got[j]), Bits(want[j]))
            << std::hex << "a = " << a0 << ", " << a1 << "; b = " << Bits(b[j]) << ", "
            << Bits(b[kCount * kCount + j]);
      }
    }
  }
}

// A Jit keeps its packing buffers across calls: shrinking and growing shapes
// through one instance must not leak anything from one call into the next.
// `x @ transpose(y)` and friends: an operand read transposed while packing
// gives the same bits, across tile and block edges, k blocks and threads.
TEST_P(MatMulJitTest, TransposedOperands) {
  const Shape shapes[] = {{1, 1, 1},   {7, 11, 13},     {6, 5, 64},       {13, 9, 129},
                          {1, 700, 3}, {145, 1100, 70}, {300, 1030, 301}, {20, 60, 4200}};
  Values values(11);
  ThreadPool pool(3);
  for (const Shape& s : shapes) {
    for (ThreadPool* threads : {static_cast<ThreadPool*>(nullptr), &pool}) {
      Check(s, values, 0.01, threads, true, false);
      Check(s, values, 0.01, threads, false, true);
      Check(s, values, 0.01, threads, true, true);
    }
  }
}

TEST_P(MatMulJitTest, ReusedAcrossShapes) {
  CheckAll({{300, 400, 200}, {3, 4, 5}, {200, 300, 400}, {29, 770, 65}}, 7);
}

INSTANTIATE_TEST_SUITE_P(Isas, MatMulJitTest, kBothIsas, IsaParamName);

TEST(MatMulJitOptionsTest, AutoMatchesReference) {
  Jit jit;
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
  Values values(8);
  const std::vector<float> a = values.Matrix(37 * 41, 0.01);
  const std::vector<float> b = values.Matrix(41 * 43, 0.01);
  std::vector<float> want(37 * 43);
  std::vector<float> got(37 * 43);
  kernels::MatMul(DType::kF32, 37, 41, 43, a.data(), b.data(), want.data());
  ASSERT_TRUE(jit.MatMulF32(37, 41, 43, a.data(), b.data(), got.data()));
  EXPECT_EQ(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)), 0);
  EXPECT_EQ(jit.stats().kernels_compiled, 1);
  // The kernel is cached: a second product compiles nothing.
  ASSERT_TRUE(jit.MatMulF32(37, 41, 43, a.data(), b.data(), got.data()));
  EXPECT_EQ(jit.stats().kernels_compiled, 1);
}

TEST(MatMulJitOptionsTest, NoAvx2MeansNoKernel) {
  Jit jit(Options{.pretend_no_avx2 = true});
  const std::vector<float> a(6, 1.0f);
  std::vector<float> out(4, FromBits(kSentinelBits));
  for (Isa isa : {Isa::kAuto, Isa::kAvx2, Isa::kAvx512}) {
    EXPECT_FALSE(jit.MatMulF32(2, 3, 2, a.data(), a.data(), out.data(), nullptr, isa));
    EXPECT_FALSE(jit.MatMulF32(0, 3, 2, a.data(), a.data(), out.data(), nullptr, isa));
  }
  for (float x : out) EXPECT_EQ(Bits(x), kSentinelBits);
}

TEST(MatMulJitOptionsTest, NoAvx512MeansNoAvx512Kernel) {
  Jit jit(Options{.pretend_no_avx512 = true});
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
  const std::vector<float> a(6, 1.0f);
  std::vector<float> out(4, FromBits(kSentinelBits));
  EXPECT_FALSE(jit.MatMulF32(2, 3, 2, a.data(), a.data(), out.data(), nullptr, Isa::kAvx512));
  for (float x : out) EXPECT_EQ(Bits(x), kSentinelBits);
  ASSERT_TRUE(jit.MatMulF32(2, 3, 2, a.data(), a.data(), out.data()));
  for (float x : out) EXPECT_EQ(x, 3.0f);
}

TEST(MatMulJitOptionsTest, AsmjitErrorMeansNoKernelAndNothingWritten) {
  Jit jit(Options{.inject_asmjit_error = true});
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
  const std::vector<float> a(6, 1.0f);
  std::vector<float> out(4, FromBits(kSentinelBits));
  for (Isa isa : {Isa::kAvx2, Isa::kAvx512, Isa::kAuto}) {
    EXPECT_FALSE(jit.MatMulF32(2, 3, 2, a.data(), a.data(), out.data(), nullptr, isa));
  }
  for (float x : out) EXPECT_EQ(Bits(x), kSentinelBits);
  EXPECT_EQ(jit.stats().kernels_compiled, 0);
  EXPECT_GE(jit.stats().compile_failures, 1);
}

}  // namespace
}  // namespace alea::vm::jit

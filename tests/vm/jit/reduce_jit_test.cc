// The JIT's f32 reductions (vm/jit/jit.h ReduceF32) against the reference
// (vm/kernels/reduce.h), bit for bit, on the AVX2 and the AVX-512 path: every
// length up to 200 (all tail sizes, several vectors), lengths around the
// 65536-element chunk boundaries, several chunks and random large lengths,
// over value mixes that make the order visible (cancellation between large
// magnitudes, subnormals) and that pick between several NaNs (payloads of
// both signs, signalling ones), infinities and signed zeros.
//
// Everything is compared bit for bit, NaN payloads included: when two NaNs
// meet in a sum, the reference pins the left operand's (kernels/pin_nan.h;
// GCC would otherwise choose per loop, `+` being commutative), and so does
// the JIT on both paths (WhichNanWins, PathsAgree).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/vm/jit/jit_test_values.h"
#include "vm/dtype.h"
#include "vm/jit/jit.h"
#include "vm/kernels/reduce.h"

namespace alea::vm::jit {
namespace {

using namespace jit::testing_values;  // NOLINT: the shared test values
using jit::testing_values::Name;      // beside the local overloads

using kernels::kReduceChunk;
using kernels::ReduceOp;

constexpr ReduceOp kOps[] = {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMax, ReduceOp::kMin};

const char* Name(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return "sum";
    case ReduceOp::kProd:
      return "prod";
    case ReduceOp::kMax:
      return "max";
    case ReduceOp::kMin:
      return "min";
    default:
      return "?";
  }
}

float Reference(ReduceOp op, const float* in, int64_t n) {
  float out = FromBits(0x7fbadbadu);  // max/min of nothing leave it untouched
  kernels::Reduce(op, DType::kF32, 1, n, 1, in, &out);
  return out;
}

// Value mixes, each a different way for a wrong order or rule to show.
enum class Mix : uint8_t {
  kSpecial,       // NaNs with payloads, infinities, zeros, subnormals, extremes
  kSparseNan,     // finite values with a few distinct NaNs: which one wins
  kCancellation,  // +-1e30-ish values and small ones: the sum depends on order
  kSubnormal,     // subnormals and zeros only
  kZeros,         // +-0.0 only, mostly -0.0
  kRandomBits,    // any bit pattern
};
constexpr Mix kMixes[] = {Mix::kSpecial,   Mix::kSparseNan, Mix::kCancellation,
                          Mix::kSubnormal, Mix::kZeros,     Mix::kRandomBits};
const char* Name(Mix m) {
  switch (m) {
    case Mix::kSpecial:
      return "special";
    case Mix::kSparseNan:
      return "sparse_nan";
    case Mix::kCancellation:
      return "cancellation";
    case Mix::kSubnormal:
      return "subnormal";
    case Mix::kZeros:
      return "zeros";
    case Mix::kRandomBits:
      return "random_bits";
  }
  return "?";
}

class Values {
 public:
  explicit Values(uint32_t seed) : rng_(seed) {}

  std::vector<float> Vector(Mix mix, int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    // Sparse NaNs: about four per vector whatever n, each with its own
    // payload and sign, so that the winner identifies its position.
    const uint32_t nan_odds = static_cast<uint32_t>(n / 4 + 1);
    for (float& x : v) x = Next(mix, nan_odds);
    return v;
  }

  std::mt19937& rng() { return rng_; }

 private:
  float Next(Mix mix, uint32_t nan_odds) {
    switch (mix) {
      case Mix::kSpecial:
        if (rng_() % 2 == 0) return FromBits(kSpecial[rng_() % std::size(kSpecial)]);
        return Normal();
      case Mix::kSparseNan:
        if (rng_() % nan_odds == 0) {
          const uint32_t sign = (rng_() % 2) << 31;
          const uint32_t quiet = rng_() % 4 == 0 ? 0 : 0x400000u;
          return FromBits(sign | 0x7f800000u | quiet | (1 + rng_() % 0x3fffff));
        }
        return Normal();
      case Mix::kCancellation: {
        const uint32_t pick = rng_() % 4;
        if (pick == 0) return Normal() * 1e30f;
        if (pick == 1) return Normal() * 1e-3f;
        return Normal() * 1e6f;
      }
      case Mix::kSubnormal:
        if (rng_() % 8 == 0) return FromBits((rng_() % 2) << 31);
        return FromBits(static_cast<uint32_t>(rng_()) & 0x807fffffu);
      case Mix::kZeros:
        return FromBits(rng_() % 16 == 0 ? 0 : 0x80000000u);
      case Mix::kRandomBits:
        return FromBits(static_cast<uint32_t>(rng_()));
    }
    return 0;
  }

  float Normal() { return normal_(rng_); }

  std::mt19937 rng_;
  std::normal_distribution<float> normal_;
};

std::string Hex(float x) { return absl::StrCat("0x", absl::Hex(Bits(x))); }

// Bits, NaN payloads included (see the top of the file).
uint32_t Comparable(ReduceOp /*op*/, float x) { return Bits(x); }

void ExpectSameAsReference(ReduceF32Fn fn, ReduceOp op, const float* in, int64_t n,
                           const std::string& what) {
  const float want = Reference(op, in, n);
  const float got = fn(in, n);
  EXPECT_EQ(Comparable(op, got), Comparable(op, want))
      << what << " n=" << n << ": got " << Hex(got) << " (" << got << "), want " << Hex(want)
      << " (" << want << ")";
}

// Lengths where the structure changes: every tail size and a few vectors,
// then each side of the first chunk boundaries, then several chunks.
std::vector<int64_t> Lengths(std::mt19937& rng) {
  std::vector<int64_t> sizes;
  for (int64_t n = 0; n <= 200; ++n) sizes.push_back(n);
  for (int64_t chunks : {1, 2, 3}) {
    for (int64_t d : {-17, -16, -15, -1, 0, 1, 7, 15, 16, 17, 33}) {
      sizes.push_back(chunks * kReduceChunk + d);
    }
  }
  // The JIT reduces whole chunks four at a time: whole groups, groups plus
  // whole or partial chunks.
  for (int64_t chunks : {4, 5, 8}) {
    for (int64_t d : {-1, 0, 1, 17}) sizes.push_back(chunks * kReduceChunk + d);
  }
  sizes.push_back(5 * kReduceChunk + 12345);
  for (int i = 0; i < 3; ++i) sizes.push_back(static_cast<int64_t>(rng() % (8 * kReduceChunk)));
  return sizes;
}

class ReduceJitTest : public testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!jit_.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
    if (GetParam() == Isa::kAvx512 && !jit_.has_avx512()) {
      GTEST_SKIP() << "this CPU lacks AVX-512F: the AVX-512 path is not tested here";
    }
  }
  ReduceF32Fn Kernel(ReduceOp op) { return jit_.ReduceF32(op, GetParam()); }
  Jit jit_;
};

TEST_P(ReduceJitTest, MatchesReferenceBitForBit) {
  Values values(2024);
  const std::vector<int64_t> sizes = Lengths(values.rng());
  for (ReduceOp op : kOps) ASSERT_NE(Kernel(op), nullptr) << Name(op);
  for (Mix mix : kMixes) {
    for (int64_t n : sizes) {
      const std::vector<float> in = values.Vector(mix, n);
      for (ReduceOp op : kOps) {
        if (n == 0 && op != ReduceOp::kSum) continue;  // never asked: the caller decides
        ExpectSameAsReference(Kernel(op), op, in.data(), n,
                              absl::StrCat(Name(op), " ", Name(GetParam()), " ", Name(mix)));
      }
    }
  }
}

// The AVX-512 path loads differently from 64-byte aligned inputs (tensors)
// and from others (views); std::vector's storage is usually neither, so
// every element offset within a cache line is tried here.
TEST_P(ReduceJitTest, EveryAlignmentMatchesReference) {
  Values values(606);
  const int64_t max_n = 5 * kReduceChunk + 40;
  // aligned_alloc wants a size that is a multiple of the alignment.
  const size_t bytes = ((max_n + 16) * sizeof(float) + 63) / 64 * 64;
  float* buffer = static_cast<float*>(std::aligned_alloc(64, bytes));
  ASSERT_NE(buffer, nullptr);
  for (int shift = 0; shift < 16; ++shift) {
    for (int64_t n : {int64_t{1}, int64_t{16}, int64_t{37}, kReduceChunk + 1, 4 * kReduceChunk,
                      5 * kReduceChunk + 40}) {
      for (Mix mix : {Mix::kSparseNan, Mix::kCancellation, Mix::kZeros}) {
        const std::vector<float> v = values.Vector(mix, n);
        float* in = buffer + shift;
        std::memcpy(in, v.data(), static_cast<size_t>(n) * sizeof(float));
        for (ReduceOp op : kOps) {
          ExpectSameAsReference(Kernel(op), op, in, n,
                                absl::StrCat(Name(op), " ", Name(mix), " shift=", shift));
        }
      }
    }
  }
  std::free(buffer);
}

TEST_P(ReduceJitTest, EmptySumIsPlusZero) {
  ReduceF32Fn sum = Kernel(ReduceOp::kSum);
  ASSERT_NE(sum, nullptr);
  const float dummy = 1.0f;
  EXPECT_EQ(Bits(sum(&dummy, 0)), 0u);
  EXPECT_EQ(Bits(sum(nullptr, 0)), Bits(Reference(ReduceOp::kSum, nullptr, 0)));
}

TEST_P(ReduceJitTest, SumOfNegativeZerosIsNegativeZero) {
  ReduceF32Fn sum = Kernel(ReduceOp::kSum);
  ASSERT_NE(sum, nullptr);
  for (int64_t n : {int64_t{1}, int64_t{5}, int64_t{16}, int64_t{23}, kReduceChunk + 3}) {
    const std::vector<float> in(static_cast<size_t>(n), -0.0f);
    EXPECT_EQ(Bits(sum(in.data(), n)), 0x80000000u) << "n=" << n;
    ExpectSameAsReference(sum, ReduceOp::kSum, in.data(), n, "sum of -0.0");
  }
}

// Two NaNs: with lane 3's NaN first in memory and lane 5's later, the tree
// meets them as lane 1 (holding lane 5's after the j + 4 step) op lane 3, so
// lane 5's wins, for the sum (the JIT keeps the left operand's NaN, quieted)
// as for the select rule. Within one lane, and across chunks, the earlier
// one wins.
TEST_P(ReduceJitTest, WhichNanWins) {
  const float a = FromBits(0x7fc0aaaau);
  const float b = FromBits(0xffc0bbbbu);
  for (ReduceOp op : kOps) {
    ReduceF32Fn fn = Kernel(op);
    ASSERT_NE(fn, nullptr);
    std::vector<float> in(40, 1.0f);
    in[3] = a;
    in[5] = b;
    EXPECT_EQ(Bits(fn(in.data(), 40)), Bits(b)) << Name(op);
    ExpectSameAsReference(fn, op, in.data(), 40, absl::StrCat(Name(op), " lanes 3 and 5"));
    std::vector<float> same_lane(40, 1.0f);
    same_lane[3] = a;
    same_lane[19] = b;
    EXPECT_EQ(Bits(fn(same_lane.data(), 40)), Bits(a)) << Name(op);
    ExpectSameAsReference(fn, op, same_lane.data(), 40, absl::StrCat(Name(op), " one lane"));
    // Across chunks: the first chunk's NaN is the accumulator, so it wins.
    std::vector<float> chunks(2 * kReduceChunk, 1.0f);
    chunks[kReduceChunk - 1] = a;
    chunks[kReduceChunk] = b;
    EXPECT_EQ(Bits(fn(chunks.data(), 2 * kReduceChunk)), Bits(a)) << Name(op);
  }
}

// Max and min first run a NaN-free pass over each group of chunks (or the
// single chunk) and redo it exactly when a NaN went by: one NaN at each kind
// of place must still be found, and a NaN-free group next to it must not be
// affected.
TEST_P(ReduceJitTest, OneNanAnywhere) {
  const int64_t n = 9 * kReduceChunk + 7;  // two groups, one whole and one partial chunk
  const int64_t places[] = {0,
                            15,
                            kReduceChunk - 1,
                            3 * kReduceChunk + 100,
                            4 * kReduceChunk - 1,
                            4 * kReduceChunk,
                            8 * kReduceChunk + 3,
                            9 * kReduceChunk,
                            n - 1};
  Values values(5);
  std::vector<float> in = values.Vector(Mix::kCancellation, n);
  for (ReduceOp op : kOps) {
    ReduceF32Fn fn = Kernel(op);
    ASSERT_NE(fn, nullptr);
    ExpectSameAsReference(fn, op, in.data(), n, absl::StrCat(Name(op), " no NaN"));
    for (int64_t at : places) {
      for (uint32_t nan : {0x7fc01234u, 0xff800001u}) {
        const float saved = in[static_cast<size_t>(at)];
        in[static_cast<size_t>(at)] = FromBits(nan);
        ExpectSameAsReference(fn, op, in.data(), n, absl::StrCat(Name(op), " NaN at ", at));
        if (op == ReduceOp::kMax || op == ReduceOp::kMin) {
          EXPECT_EQ(Bits(fn(in.data(), n)), nan) << Name(op) << " NaN at " << at;
        }
        in[static_cast<size_t>(at)] = saved;
      }
    }
  }
}

TEST_P(ReduceJitTest, SignallingNanSurvivesMaxAndMinUnquieted) {
  const float snan = FromBits(0xff812345u);
  for (ReduceOp op : kOps) {
    ReduceF32Fn fn = Kernel(op);
    for (int64_t n : {int64_t{1}, int64_t{9}, int64_t{17}, int64_t{100}}) {
      std::vector<float> in(static_cast<size_t>(n), -2.0f);
      in[static_cast<size_t>(n - 1)] = snan;
      ExpectSameAsReference(fn, op, in.data(), n, absl::StrCat(Name(op), " sNaN last"));
      if (op == ReduceOp::kMax || op == ReduceOp::kMin) {
        EXPECT_EQ(Bits(fn(in.data(), n)), Bits(snan)) << Name(op);
      }
    }
  }
}

// The masked tail must not read past the last element: put the input right
// before an inaccessible page.
TEST_P(ReduceJitTest, TailDoesNotReadPastTheEnd) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* region =
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(region, MAP_FAILED);
  char* guard = static_cast<char*>(region) + page;
  ASSERT_EQ(mprotect(guard, page, PROT_NONE), 0);
  Values values(77);
  for (ReduceOp op : kOps) {
    ReduceF32Fn fn = Kernel(op);
    ASSERT_NE(fn, nullptr);
    for (int64_t n = 1; n <= 64; ++n) {
      float* in = reinterpret_cast<float*>(guard) - n;
      const std::vector<float> v = values.Vector(Mix::kSpecial, n);
      std::memcpy(in, v.data(), static_cast<size_t>(n) * sizeof(float));
      ExpectSameAsReference(fn, op, in, n, absl::StrCat(Name(op), " at a page end"));
    }
  }
  munmap(region, 2 * page);
}

// One fixed order whatever the SIMD width: the two paths give the same bits,
// NaN payloads of sums included.
TEST(ReduceJitPathsTest, PathsAgree) {
  Jit jit;
  if (!jit.has_avx512()) GTEST_SKIP() << "this CPU lacks AVX-512F: one path only";
  Values values(31337);
  const std::vector<int64_t> sizes = Lengths(values.rng());
  for (Mix mix : kMixes) {
    for (int64_t n : sizes) {
      const std::vector<float> in = values.Vector(mix, n);
      for (ReduceOp op : kOps) {
        if (n == 0 && op != ReduceOp::kSum) continue;
        ReduceF32Fn avx2 = jit.ReduceF32(op, Isa::kAvx2);
        ReduceF32Fn avx512 = jit.ReduceF32(op, Isa::kAvx512);
        ASSERT_NE(avx2, nullptr);
        ASSERT_NE(avx512, nullptr);
        EXPECT_EQ(Bits(avx2(in.data(), n)), Bits(avx512(in.data(), n)))
            << Name(op) << " " << Name(mix) << " n=" << n;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, ReduceJitTest, kBothIsas, IsaParamName);

TEST(ReduceJitOptionsTest, WithoutAvx2EveryRequestFails) {
  Jit jit(Options{.pretend_no_avx2 = true});
  for (Isa isa : {Isa::kAuto, Isa::kAvx2, Isa::kAvx512}) {
    for (ReduceOp op : kOps) EXPECT_EQ(jit.ReduceF32(op, isa), nullptr) << Name(op);
  }
  EXPECT_EQ(jit.stats().kernels_compiled, 0);
}

TEST(ReduceJitOptionsTest, WithoutAvx512AutoPicksAvx2) {
  Jit jit(Options{.pretend_no_avx512 = true});
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA";
  EXPECT_EQ(jit.ReduceF32(ReduceOp::kSum, Isa::kAvx512), nullptr);
  ReduceF32Fn fn = jit.ReduceF32(ReduceOp::kSum, Isa::kAuto);
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(fn, jit.ReduceF32(ReduceOp::kSum, Isa::kAvx2));
}

TEST(ReduceJitOptionsTest, AnAsmjitErrorGivesNull) {
  Jit jit(Options{.inject_asmjit_error = true});
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA";
  for (ReduceOp op : kOps) EXPECT_EQ(jit.ReduceF32(op, Isa::kAvx2), nullptr) << Name(op);
  EXPECT_EQ(jit.MapSumF32(MapSum::kExpShifted, Isa::kAvx2), nullptr);
  EXPECT_EQ(jit.stats().compile_failures, std::size(kOps) + 1);
  EXPECT_EQ(jit.stats().kernels_compiled, 0);
}

TEST(ReduceJitOptionsTest, MeanAndArgmaxAreNotKernelsAndKernelsAreCached) {
  Jit jit;
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA";
  EXPECT_EQ(jit.ReduceF32(ReduceOp::kMean), nullptr);
  EXPECT_EQ(jit.ReduceF32(ReduceOp::kArgmax), nullptr);
  EXPECT_EQ(jit.stats().kernels_compiled, 0);
  ReduceF32Fn sum = jit.ReduceF32(ReduceOp::kSum, Isa::kAvx2);
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(jit.ReduceF32(ReduceOp::kSum, Isa::kAvx2), sum);
  EXPECT_NE(jit.ReduceF32(ReduceOp::kMax, Isa::kAvx2), sum);
  EXPECT_EQ(jit.stats().kernels_compiled, 2);
  EXPECT_EQ(jit.stats().compile_failures, 0);
}

}  // namespace
}  // namespace alea::vm::jit

// The JIT's elementwise kernels (vm/jit/jit.h) against the reference kernels
// (vm/kernels/elementwise.h), bit for bit: random sizes around the vector
// widths, values drawn to hit NaN payloads of both signs (quiet and
// signalling), infinities, subnormals, signed zeros and equal operands, every
// op and layout class, out of place and in place, on the AVX2 and the AVX-512
// path. exp/log/tanh/sigmoid also get the boundaries of their ranges and
// branches, random bit patterns and dense runs of adjacent inputs (the
// exhaustive comparison is tests/vm/slow/jit_math_exhaustive_test.cc).
// Sentinels after the output catch a tail that writes too far.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/vm/jit/jit_test_values.h"
#include "vm/dtype.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"

namespace alea::vm::jit {
namespace {

using namespace jit::testing_values;  // NOLINT: the shared test values

using kernels::BinaryOp;
using kernels::UnaryOp;

constexpr BinaryOp kArith[] = {BinaryOp::kAdd,   BinaryOp::kSub,   BinaryOp::kMul,
                               BinaryOp::kDiv,   BinaryOp::kMax,   BinaryOp::kMin,
                               BinaryOp::kAtan2, BinaryOp::kHypot, BinaryOp::kPow};
constexpr BinaryOp kCompares[] = {BinaryOp::kEq, BinaryOp::kNe, BinaryOp::kLt,
                                  BinaryOp::kLe, BinaryOp::kGt, BinaryOp::kGe};
constexpr UnaryOp kUnaries[] = {
#define ALEA_BINARY(name, opcode, spelling, semantics)
#define ALEA_UNARY(name, opcode, spelling, semantics) UnaryOp::k##name,
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
};
constexpr UnaryOp kMath[] = {UnaryOp::kExp,    UnaryOp::kLog,   UnaryOp::kTanh,  UnaryOp::kSigmoid,
                             UnaryOp::kFloor,  UnaryOp::kCeil,  UnaryOp::kRound, UnaryOp::kTrunc,
                             UnaryOp::kSign,   UnaryOp::kExpm1, UnaryOp::kSinh,  UnaryOp::kCosh,
                             UnaryOp::kErf,    UnaryOp::kSin,   UnaryOp::kCos,   UnaryOp::kTan,
                             UnaryOp::kAtan,   UnaryOp::kAsin,  UnaryOp::kAcos,  UnaryOp::kErfc,
                             UnaryOp::kLgamma, UnaryOp::kLog1p};
constexpr Layout kLayouts[] = {Layout::kVectorVector, Layout::kVectorScalar, Layout::kScalarVector};
constexpr int64_t kSizes[] = {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 1000, 100003};
constexpr int kSentinels = 40;  // more than one zmm of elements

const char* LayoutName(Layout l) {
  switch (l) {
    case Layout::kVectorVector:
      return "vv";
    case Layout::kVectorScalar:
      return "vs";
    case Layout::kScalarVector:
      return "sv";
  }
  return "?";
}

class Values {
 public:
  explicit Values(uint32_t seed) : rng_(seed) {}

  float Next() {
    const uint32_t pick = rng_() % 8;
    if (pick < 3) return FromBits(kSpecial[rng_() % std::size(kSpecial)]);
    if (pick < 5) return FromBits(static_cast<uint32_t>(rng_()));  // any bits
    // Small values, so that a and b are often equal or close.
    return static_cast<float>(static_cast<int>(rng_() % 9) - 4) * 0.5f;
  }

  // n values for b, a third of them copied from a (equal operands).
  std::vector<float> Like(const std::vector<float>& a) {
    std::vector<float> b(a.size());
    for (size_t i = 0; i < a.size(); ++i) b[i] = rng_() % 3 == 0 ? a[i] : Next();
    return b;
  }

  std::vector<float> Vector(int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = Next();
    return v;
  }

 private:
  std::mt19937 rng_;
};

// The bits of `got` and `want` agree over n elements (bytes when T is uint8_t).
template <typename T>
void ExpectSameBits(const T* got, const T* want, int64_t n, const std::string& what) {
  int reported = 0;
  for (int64_t i = 0; i < n && reported < 5; ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      uint32_t g = 0;
      uint32_t w = 0;
      std::memcpy(&g, &got[i], sizeof(T));
      std::memcpy(&w, &want[i], sizeof(T));
      ADD_FAILURE() << what << " at " << i << ": got 0x" << std::hex << g << ", want 0x" << w;
      ++reported;
    }
  }
}

// Output buffers are n elements followed by sentinels that must survive.
std::vector<float> WithSentinels(std::vector<float> v) {
  for (int i = 0; i < kSentinels; ++i) v.push_back(FromBits(kSentinelBits));
  return v;
}
void ExpectSentinels(const float* p, int64_t n, const std::string& what) {
  for (int i = 0; i < kSentinels; ++i) {
    ASSERT_EQ(Bits(p[n + i]), kSentinelBits) << what << ": wrote past the end at " << n + i;
  }
}

// The reference result of a op b over n elements in `layout`.
template <typename Out>
std::vector<Out> Reference(BinaryOp op, Layout layout, const std::vector<float>& a,
                           const std::vector<float>& b, int64_t n) {
  std::vector<Out> out(static_cast<size_t>(n) + 1);
  const int64_t shape[] = {n};
  const int64_t vec[] = {1};
  const int64_t scalar[] = {0};
  const kernels::Strided sa{a.data(), layout == Layout::kScalarVector ? scalar : vec};
  const kernels::Strided sb{b.data(), layout == Layout::kVectorScalar ? scalar : vec};
  kernels::Binary(op, DType::kF32, shape, sa, sb, out.data());
  return out;
}

// The operands of a binary op over n elements in `layout`: a scalar operand
// is a vector of one element (plus room for n == 0), and two vectors are
// values.Like each other.
struct Operands {
  std::vector<float> a, b;
};
Operands MakeOperands(Values& values, Layout layout, int64_t n) {
  const int64_t na = layout == Layout::kScalarVector ? 1 : n;
  const int64_t nb = layout == Layout::kVectorScalar ? 1 : n;
  Operands o;
  o.a = values.Vector(na);
  o.b = layout == Layout::kVectorVector ? values.Like(o.a) : values.Vector(nb);
  return o;
}

// The case named in failure messages: "op layout isa n=N".
std::string CaseName(BinaryOp op, Layout layout, Isa isa, int64_t n) {
  return absl::StrCat(kernels::Spelling(op), " ", LayoutName(layout), " ", Name(isa), " n=", n);
}

class ElementwiseJitTest : public testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!jit_.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
    if (GetParam() == Isa::kAvx512 && !jit_.has_avx512()) {
      GTEST_SKIP() << "this CPU lacks AVX-512F: the AVX-512 path is not tested here";
    }
  }
  Jit jit_;
};

TEST_P(ElementwiseJitTest, BinaryMatchesReferenceBitForBit) {
  Values values(1234);
  for (BinaryOp op : kArith) {
    for (Layout layout : kLayouts) {
      BinaryF32Fn fn = jit_.BinaryF32(op, layout, GetParam());
      ASSERT_NE(fn, nullptr) << kernels::Spelling(op) << " " << LayoutName(layout);
      for (int64_t n : kSizes) {
        const std::string what = CaseName(op, layout, GetParam(), n);
        const auto [a, b] = MakeOperands(values, layout, n);
        const std::vector<float> want = Reference<float>(op, layout, a, b, n);

        std::vector<float> out = WithSentinels(std::vector<float>(static_cast<size_t>(n)));
        fn(a.data(), b.data(), out.data(), n);
        ExpectSameBits(out.data(), want.data(), n, what);
        ExpectSentinels(out.data(), n, what);

        // In place over each vector operand (the reference's contract).
        if (layout != Layout::kScalarVector) {
          std::vector<float> io = WithSentinels(a);
          fn(io.data(), b.data(), io.data(), n);
          ExpectSameBits(io.data(), want.data(), n, what + " out==a");
          ExpectSentinels(io.data(), n, what + " out==a");
        }
        if (layout != Layout::kVectorScalar) {
          std::vector<float> io = WithSentinels(b);
          fn(a.data(), io.data(), io.data(), n);
          ExpectSameBits(io.data(), want.data(), n, what + " out==b");
          ExpectSentinels(io.data(), n, what + " out==b");
        }
        // The same buffer as both operands and the output.
        if (layout == Layout::kVectorVector) {
          const std::vector<float> self = Reference<float>(op, layout, a, a, n);
          std::vector<float> io = WithSentinels(a);
          fn(io.data(), io.data(), io.data(), n);
          ExpectSameBits(io.data(), self.data(), n, what + " out==a==b");
        }
      }
    }
  }
}

TEST_P(ElementwiseJitTest, CompareMatchesReferenceBitForBit) {
  Values values(99);
  for (BinaryOp op : kCompares) {
    for (Layout layout : kLayouts) {
      CompareF32Fn fn = jit_.CompareF32(op, layout, GetParam());
      ASSERT_NE(fn, nullptr) << kernels::Spelling(op) << " " << LayoutName(layout);
      for (int64_t n : kSizes) {
        const std::string what = CaseName(op, layout, GetParam(), n);
        const auto [a, b] = MakeOperands(values, layout, n);
        const std::vector<uint8_t> want = Reference<uint8_t>(op, layout, a, b, n);
        std::vector<uint8_t> out(static_cast<size_t>(n) + kSentinels, 0xab);
        fn(a.data(), b.data(), out.data(), n);
        ExpectSameBits(out.data(), want.data(), n, what);
        for (int i = 0; i < kSentinels; ++i) {
          ASSERT_EQ(out[static_cast<size_t>(n + i)], 0xab) << what << ": wrote past the end";
        }
      }
    }
  }
}

TEST_P(ElementwiseJitTest, UnaryMatchesReferenceBitForBit) {
  Values values(7);
  for (UnaryOp op : kUnaries) {
    UnaryF32Fn fn = jit_.UnaryF32(op, GetParam());
    ASSERT_NE(fn, nullptr) << kernels::Spelling(op);
    for (int64_t n : kSizes) {
      const std::string what = absl::StrCat(kernels::Spelling(op), " ", Name(GetParam()), " n=", n);
      std::vector<float> in = values.Vector(n);
      std::vector<float> want(static_cast<size_t>(n) + 1);
      kernels::Unary(op, DType::kF32, n, in.data(), want.data());
      std::vector<float> out = WithSentinels(std::vector<float>(static_cast<size_t>(n)));
      fn(in.data(), out.data(), n);
      ExpectSameBits(out.data(), want.data(), n, what);
      ExpectSentinels(out.data(), n, what);
      std::vector<float> io = WithSentinels(in);
      fn(io.data(), io.data(), n);
      ExpectSameBits(io.data(), want.data(), n, what + " in place");
      ExpectSentinels(io.data(), n, what + " in place");
    }
  }
}

// Inputs at the math functions' thresholds (clamps, overflow and underflow,
// branch points, subnormal scaling) and their neighbours.
std::vector<float> MathEdgeValues() {
  const float centres[] = {88.72283f, 88.7228394f, 89.0f, -87.33654f, -103.97208f, -104.0f, -103.5f,
                           -102.0f, -126.0f, -149.0f, 0.75f, -0.75f, 20.0f, -20.0f, 40.0f,
                           9.010913f, 0x1p-126f, 0x1p-127f, 0x1.6a09e6p-1f, 0x1.6a09e6p0f, 1.0f,
                           0.5f, 2.0f, 0.0f, 1e-7f, -1e-7f, 0x1p-24f, -0x1p-24f, 15.9424f,
                           -16.6355f, 0x1.62e430p-1f, 100.0f, -100.0f, 3.4e38f, -3.4e38f, 0x1p-149f,
                           // expm1, sinh, cosh, erf, the rounding functions
                           -30.0f, 44.3614f, 89.41599f, 90.0f, 0.3466f, 0.47f, 1.25f, 2.5f, 3.92f,
                           10.1f, 10.0546f, 0x1p23f, 0x1p22f, 2.5f, 0.49999997f,
                           // sin cos tan: quarter turns, the hardest reductions
                           0.7853982f, 1.5707964f, 3.1415927f, 0x1.f9cbe2p+7f, 0x1.2d97c8p+3f,
                           0x1.4ac55cp+21f, 0.47f, 9.194f, 1.5f, 3.0f, 2.4570382f};
  std::vector<float> v;
  for (uint32_t b : kSpecial) v.push_back(FromBits(b));
  for (float c : centres) {
    for (float x : {c, -c}) {
      const uint32_t bits = Bits(x);
      for (int d = -3; d <= 3; ++d) v.push_back(FromBits(bits + static_cast<uint32_t>(d)));
    }
  }
  return v;
}

TEST_P(ElementwiseJitTest, MathMatchesReferenceAtEdgesAndRandomBits) {
  std::mt19937 rng(2024);
  const std::vector<float> edges = MathEdgeValues();
  for (UnaryOp op : kMath) {
    UnaryF32Fn fn = jit_.UnaryF32(op, GetParam());
    ASSERT_NE(fn, nullptr) << kernels::Spelling(op);
    const std::string name = absl::StrCat(kernels::Spelling(op), " ", Name(GetParam()));
    // Every edge value in every lane position: the list shifted by 0..16.
    for (int shift = 0; shift <= 16; ++shift) {
      std::vector<float> in(static_cast<size_t>(shift), 1.0f);
      in.insert(in.end(), edges.begin(), edges.end());
      const int64_t n = static_cast<int64_t>(in.size());
      std::vector<float> want(in.size());
      kernels::Unary(op, DType::kF32, n, in.data(), want.data());
      std::vector<float> out = WithSentinels(std::vector<float>(in.size()));
      fn(in.data(), out.data(), n);
      ExpectSameBits(out.data(), want.data(), n, absl::StrCat(name, " edges shift=", shift));
      ExpectSentinels(out.data(), n, name);
    }
    // Random bit patterns, then runs of adjacent patterns from random starts,
    // in place, over sizes with every tail length.
    for (int64_t n : {1, 5, 8, 13, 16, 23, 4097, 65536 + 11}) {
      std::vector<float> in(static_cast<size_t>(n));
      uint32_t start = 0;
      for (size_t i = 0; i < in.size(); ++i) {
        if (i % 32 == 0) start = static_cast<uint32_t>(rng());
        in[i] = FromBits(i % 64 < 32 ? static_cast<uint32_t>(rng())
                                     : start + static_cast<uint32_t>(i % 32));
      }
      std::vector<float> want(in.size());
      kernels::Unary(op, DType::kF32, n, in.data(), want.data());
      std::vector<float> io = WithSentinels(in);
      fn(io.data(), io.data(), n);
      const std::string what = absl::StrCat(name, " random n=", n, " in place");
      ExpectSameBits(io.data(), want.data(), n, what);
      ExpectSentinels(io.data(), n, what);
    }
  }
}

// Both paths agree with each other too (implied by the above, but this is the
// property users rely on; it also covers random lengths).
TEST_P(ElementwiseJitTest, RandomLengthsAgreeWithReference) {
  std::mt19937 rng(42);
  Values values(4242);
  for (int trial = 0; trial < 200; ++trial) {
    const BinaryOp op = kArith[rng() % std::size(kArith)];
    const int64_t n = static_cast<int64_t>(rng() % 300);
    std::vector<float> a = values.Vector(n);
    std::vector<float> b = values.Like(a);
    const std::vector<float> want = Reference<float>(op, Layout::kVectorVector, a, b, n);
    std::vector<float> out = WithSentinels(std::vector<float>(static_cast<size_t>(n)));
    jit_.BinaryF32(op, Layout::kVectorVector, GetParam())(a.data(), b.data(), out.data(), n);
    const std::string what = absl::StrCat(kernels::Spelling(op), " n=", n);
    ExpectSameBits(out.data(), want.data(), n, what);
    ExpectSentinels(out.data(), n, what);
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, ElementwiseJitTest, kBothIsas, IsaParamName);

TEST(JitTest, KernelsAreCachedPerOpLayoutAndIsa) {
  Jit jit;
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA";
  BinaryF32Fn add = jit.BinaryF32(BinaryOp::kAdd, Layout::kVectorVector, Isa::kAvx2);
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(jit.BinaryF32(BinaryOp::kAdd, Layout::kVectorVector, Isa::kAvx2), add);
  EXPECT_EQ(jit.stats().kernels_compiled, 1);
  EXPECT_NE(jit.BinaryF32(BinaryOp::kAdd, Layout::kVectorScalar, Isa::kAvx2), add);
  EXPECT_NE(jit.BinaryF32(BinaryOp::kMul, Layout::kVectorVector, Isa::kAvx2), add);
  EXPECT_EQ(jit.stats().kernels_compiled, 3);
  EXPECT_EQ(jit.stats().compile_failures, 0);
  EXPECT_GT(jit.stats().compile_nanos, 0);
}

TEST(JitTest, WithoutAvx2EveryRequestFails) {
  Jit jit(Options{.pretend_no_avx2 = true});
  EXPECT_FALSE(jit.available());
  EXPECT_FALSE(jit.has_avx512());
  for (Isa isa : {Isa::kAuto, Isa::kAvx2, Isa::kAvx512}) {
    EXPECT_EQ(jit.BinaryF32(BinaryOp::kAdd, Layout::kVectorVector, isa), nullptr);
    EXPECT_EQ(jit.CompareF32(BinaryOp::kLt, Layout::kVectorVector, isa), nullptr);
    EXPECT_EQ(jit.UnaryF32(UnaryOp::kNeg, isa), nullptr);
    EXPECT_EQ(jit.UnaryF32(UnaryOp::kExp, isa), nullptr);
  }
  EXPECT_EQ(jit.stats().kernels_compiled, 0);
}

TEST(JitTest, WithoutAvx512AutoPicksAvx2) {
  Jit jit(Options{.pretend_no_avx512 = true});
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA";
  EXPECT_FALSE(jit.has_avx512());
  EXPECT_EQ(jit.BinaryF32(BinaryOp::kAdd, Layout::kVectorVector, Isa::kAvx512), nullptr);
  BinaryF32Fn fn = jit.BinaryF32(BinaryOp::kAdd, Layout::kVectorVector, Isa::kAuto);
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(fn, jit.BinaryF32(BinaryOp::kAdd, Layout::kVectorVector, Isa::kAvx2));
  EXPECT_EQ(jit.UnaryF32(UnaryOp::kLog, Isa::kAvx512), nullptr);
  UnaryF32Fn log = jit.UnaryF32(UnaryOp::kLog);
  ASSERT_NE(log, nullptr);
  EXPECT_EQ(log, jit.UnaryF32(UnaryOp::kLog, Isa::kAvx2));
}

TEST(JitTest, UnsupportedRequestsReturnNull) {
  Jit jit;
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA";
  EXPECT_EQ(jit.UnaryF32(static_cast<UnaryOp>(200)), nullptr);
  EXPECT_EQ(jit.BinaryF32(BinaryOp::kEq, Layout::kVectorVector), nullptr);  // a comparison
  EXPECT_EQ(jit.CompareF32(BinaryOp::kAdd, Layout::kVectorVector), nullptr);
  EXPECT_EQ(jit.BinaryF32(static_cast<BinaryOp>(200), Layout::kVectorVector), nullptr);
  EXPECT_EQ(jit.stats().kernels_compiled, 0);
  EXPECT_EQ(jit.stats().compile_failures, 0);
}

TEST(JitTest, AnAsmjitErrorGivesNullNotACrash) {
  Jit jit(Options{.inject_asmjit_error = true});
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA";
  EXPECT_EQ(jit.BinaryF32(BinaryOp::kAdd, Layout::kVectorVector, Isa::kAvx2), nullptr);
  EXPECT_EQ(jit.UnaryF32(UnaryOp::kSqrt, Isa::kAvx2), nullptr);
  EXPECT_EQ(jit.UnaryF32(UnaryOp::kExp, Isa::kAvx2), nullptr);
  EXPECT_EQ(jit.CompareF32(BinaryOp::kLt, Layout::kVectorScalar, Isa::kAvx2), nullptr);
  EXPECT_EQ(jit.stats().compile_failures, 4);
  if (jit.has_avx512()) {
    EXPECT_EQ(jit.UnaryF32(UnaryOp::kTanh, Isa::kAvx512), nullptr);
    EXPECT_EQ(jit.stats().compile_failures, 5);
  }
  // Failures are cached: asking again does not compile again.
  EXPECT_EQ(jit.BinaryF32(BinaryOp::kAdd, Layout::kVectorVector, Isa::kAvx2), nullptr);
  EXPECT_EQ(jit.stats().compile_failures, jit.has_avx512() ? 5 : 4);
  EXPECT_EQ(jit.stats().kernels_compiled, 0);
}

}  // namespace
}  // namespace alea::vm::jit

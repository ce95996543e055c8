// The math ops added after sigmoid (floor ceil round trunc sign expm1 sinh
// cosh erf sin cos tan atan asin acos erfc lgamma) in fused programs: a chain such as exp(sinh(a) *
// b) compiles to one kernel on both ISA paths and gives, bit for bit, the reference kernels applied
// one op at a time (each node rounded to f32 as the unfused chain).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/vm/jit/jit_test_values.h"
#include "vm/bytecode.h"
#include "vm/dtype.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"

namespace alea::vm::jit {
namespace {

using namespace jit::testing_values;  // NOLINT: the shared test values

using kernels::BinaryOp;
using kernels::UnaryOp;

constexpr UnaryOp kNewOps[] = {UnaryOp::kFloor,  UnaryOp::kCeil,  UnaryOp::kRound, UnaryOp::kTrunc,
                               UnaryOp::kSign,   UnaryOp::kExpm1, UnaryOp::kSinh,  UnaryOp::kCosh,
                               UnaryOp::kErf,    UnaryOp::kSin,   UnaryOp::kCos,   UnaryOp::kTan,
                               UnaryOp::kAtan,   UnaryOp::kAsin,  UnaryOp::kAcos,  UnaryOp::kErfc,
                               UnaryOp::kLgamma, UnaryOp::kLog1p};

FusedNode Un(UnaryOp op, uint16_t a) {
  FusedNode n;
  n.unary = true;
  n.op = static_cast<uint8_t>(op);
  n.a = a;
  return n;
}
FusedNode Bin(BinaryOp op, uint16_t a, uint16_t b) {
  FusedNode n;
  n.op = static_cast<uint8_t>(op);
  n.a = a;
  n.b = b;
  return n;
}

std::vector<float> Inputs(std::mt19937& rng, size_t n, float scale) {
  std::uniform_real_distribution<float> dist(-scale, scale);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  for (size_t i = 0; i < std::size(kSpecial) && i < n; ++i) v[i * 7 % n] = FromBits(kSpecial[i]);
  return v;
}

// fn on the leaves a and b, against the reference's `want` bit for bit (a NaN
// need only be a NaN).
void ExpectFusedMatches(FusedF32Fn fn, const std::vector<float>& a, const std::vector<float>& b,
                        const std::vector<float>& want, const std::string& what) {
  const int64_t n = static_cast<int64_t>(want.size());
  std::vector<float> got(want.size());
  const float* inputs[] = {a.data(), b.data()};
  fn(inputs, got.data(), n);
  for (int64_t i = 0; i < n; ++i) {
    if (want[i] != want[i]) {
      EXPECT_NE(got[i], got[i]) << what << " at " << i;
    } else {
      EXPECT_EQ(Bits(got[i]), Bits(want[i])) << what << " at " << i << " a=" << a[i];
    }
  }
}

class MathOpsJitTest : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!jit_.available()) GTEST_SKIP() << "no AVX2+FMA";
    if (GetParam() == Isa::kAvx512 && !jit_.has_avx512()) GTEST_SKIP() << "no AVX-512";
  }
  Jit jit_;
};

// op2(op1(a) * b) for every pair of new ops, n with a tail on both paths.
TEST_P(MathOpsJitTest, FusedChainsMatchUnfusedReference) {
  std::mt19937 rng(77);
  const int64_t n = 1003;
  const std::vector<float> a = Inputs(rng, n, 6.0f);
  const std::vector<float> b = Inputs(rng, n, 3.0f);
  for (UnaryOp first : kNewOps) {
    for (UnaryOp second : {UnaryOp::kExp, UnaryOp::kSinh, UnaryOp::kRound, UnaryOp::kErf,
                           UnaryOp::kTan, UnaryOp::kAsin}) {
      FusedProgram p;
      p.leaves.resize(2);
      p.nodes = {Un(first, 0), Bin(BinaryOp::kMul, 2, 1), Un(second, 3)};
      FusedF32Fn fn = jit_.FusedF32(p, 0, GetParam());
      const std::string what = absl::StrCat(
          kernels::Spelling(second), "(", kernels::Spelling(first), "(a) * b) ", Name(GetParam()));
      ASSERT_NE(fn, nullptr) << what;
      std::vector<float> want(n), t(n);
      kernels::Unary(first, DType::kF32, n, a.data(), t.data());
      for (int64_t i = 0; i < n; ++i) t[i] = t[i] * b[i];
      kernels::Unary(second, DType::kF32, n, t.data(), want.data());
      ExpectFusedMatches(fn, a, b, want, what);
    }
  }
}

// The binary math functions in fused programs: f(op(a), b) and
// f(b, op(a) * b) for f in atan2 hypot pow, with special values among the inputs.
TEST_P(MathOpsJitTest, FusedBinaryMathMatchesUnfusedReference) {
  std::mt19937 rng(78);
  const int64_t n = 1003;
  const std::vector<float> a = Inputs(rng, n, 6.0f);
  const std::vector<float> b = Inputs(rng, n, 3.0f);
  for (BinaryOp f : {BinaryOp::kAtan2, BinaryOp::kHypot, BinaryOp::kPow}) {
    for (UnaryOp op : {UnaryOp::kSin, UnaryOp::kExp, UnaryOp::kErfc}) {
      FusedProgram p;
      p.leaves.resize(2);
      // n2 = op(a); n3 = f(n2, b); n4 = n2 * b; n5 = f(b, n4); n6 = n3 + n5
      p.nodes = {Un(op, 0), Bin(f, 2, 1), Bin(BinaryOp::kMul, 2, 1), Bin(f, 1, 4),
                 Bin(BinaryOp::kAdd, 3, 5)};
      FusedF32Fn fn = jit_.FusedF32(p, 0, GetParam());
      const std::string what =
          absl::StrCat(kernels::Spelling(f), " of ", kernels::Spelling(op), " ", Name(GetParam()));
      ASSERT_NE(fn, nullptr) << what;
      std::vector<float> t(n), u(n), v(n), w(n), want(n);
      kernels::Unary(op, DType::kF32, n, a.data(), t.data());
      const int64_t shape[] = {n};
      const int64_t stride[] = {1};
      const auto strided = [&](const std::vector<float>& x) {
        return kernels::Strided{x.data(), stride};
      };
      kernels::Binary(f, DType::kF32, shape, strided(t), strided(b), u.data());
      kernels::Binary(BinaryOp::kMul, DType::kF32, shape, strided(t), strided(b), v.data());
      kernels::Binary(f, DType::kF32, shape, strided(b), strided(v), w.data());
      kernels::Binary(BinaryOp::kAdd, DType::kF32, shape, strided(u), strided(w), want.data());
      ExpectFusedMatches(fn, a, b, want, what);
    }
  }
}

// The binary math kernels bit for bit against the reference over a million
// pairs: random bit patterns, adjacent patterns, bases near 1 with large
// exponents, negative bases with integer exponents, and every layout.
TEST_P(MathOpsJitTest, BinaryMathDenseMatchesReference) {
  std::mt19937_64 rng(79);
  const int64_t n = 1 << 20;
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = rng();
    a[i] = FromBits(static_cast<uint32_t>(r));
    b[i] = FromBits(static_cast<uint32_t>(r >> 32));
    if (i % 4 == 1) b[i] = FromBits(Bits(a[i]) + static_cast<uint32_t>((r >> 32) % 64) - 32u);
    if (i % 4 == 2) {
      a[i] = 1.0f + static_cast<float>(static_cast<int32_t>(r) >> 8) * 0x1p-30f;
      b[i] = static_cast<float>(static_cast<int32_t>(r >> 32)) * 0x1p-20f;
    }
    if (i % 4 == 3) {
      a[i] = -static_cast<float>(r % 1000) * 0.01f;
      b[i] = static_cast<float>(static_cast<int32_t>((r >> 32) % 41) - 20);
    }
  }
  for (BinaryOp f : {BinaryOp::kAtan2, BinaryOp::kHypot, BinaryOp::kPow}) {
    for (Layout layout : {Layout::kVectorVector, Layout::kVectorScalar, Layout::kScalarVector}) {
      BinaryF32Fn fn = jit_.BinaryF32(f, layout, GetParam());
      ASSERT_NE(fn, nullptr);
      const int64_t shape[] = {n};
      const int64_t one[] = {1};
      const int64_t zero[] = {0};
      const bool a_scalar = layout == Layout::kScalarVector;
      const bool b_scalar = layout == Layout::kVectorScalar;
      std::vector<float> want(n), got(n);
      kernels::Binary(f, DType::kF32, shape, kernels::Strided{a.data(), a_scalar ? zero : one},
                      kernels::Strided{b.data(), b_scalar ? zero : one}, want.data());
      fn(a.data(), b.data(), got.data(), n);
      int64_t mismatches = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (Bits(got[i]) != Bits(want[i]) && ++mismatches <= 3) {
          ADD_FAILURE() << kernels::Spelling(f) << " " << Name(GetParam()) << " at " << i
                        << ": a=" << a[a_scalar ? 0 : i] << " b=" << b[b_scalar ? 0 : i];
        }
      }
      EXPECT_EQ(mismatches, 0) << kernels::Spelling(f);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, MathOpsJitTest, kBothIsas, IsaParamName);

}  // namespace
}  // namespace alea::vm::jit

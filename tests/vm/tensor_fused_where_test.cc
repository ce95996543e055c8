// Fused programs with comparisons, `where` and bool leaves (vm/bytecode.h
// FusedProgram): the cases the random property (tensor_fused_test.cc) meets
// only by chance. Leaky relu as the compiler emits it; every tail length of
// a bool leaf in each layout; bool bytes, f32 leaves and the output ending
// at an unmapped page (no read or write past the end, both ISA paths);
// NaN in comparisons; the declines a bool leaf adds; and the verifier
// (vm/verifier.cc), which must reject ill-typed programs before the JIT sees
// them.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "tests/vm/tensor_fused_testing.h"
#include "tests/vm/test_util.h"
#include "vm/bytecode.h"
#include "vm/heap.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/value.h"
#include "vm/vm.h"

namespace alea::vm::fused_testing {
namespace {

class TensorFusedWhere : public TensorFusedFixture {
 protected:
  // Runs p on regs (which it may consume), compares with the reference and
  // releases everything: the result, the registers' tensors, the reference.
  void ExpectFusedMatches(const FusedProgram& p, std::vector<Value>& regs,
                          const std::string& what) {
    SCOPED_TRACE(what + ": " + Describe(p));
    Object* expected = Reference(p, regs.data());
    ASSERT_NE(expected, nullptr);
    FusedKernelCache cache;
    Value result = kNoResult;
    EXPECT_TRUE(RunFused(*cx_, p, cache, 1, regs.data(), &result));
    if (result != kNoResult) {
      ExpectSameTensor(AsObject(result), expected, what);
      heap_.Release(AsObject(result));
    }
    ReleaseTensorRegs(p, regs.data());
    heap_.Release(expected);
  }
};

// The f32 bits worth comparing: NaNs of both signs and payloads, signed
// zeros, infinities, subnormals, equal values.
const std::vector<float> kCompareValues = {
    0.0f,
    -0.0f,
    1.0f,
    -1.0f,
    0.5f,
    std::numeric_limits<float>::infinity(),
    -std::numeric_limits<float>::infinity(),
    std::bit_cast<float>(0x7fc00000u),
    std::bit_cast<float>(0xffc00001u),
    std::bit_cast<float>(0x7f800001u),  // signalling
    std::bit_cast<float>(0x00000001u),
    std::bit_cast<float>(0x80000001u),
    std::numeric_limits<float>::max(),
    3.0f,
    -3.0f,
    0.5f,
    1.0f,
};

TEST_P(TensorFusedWhere, LeakyReluAsTheCompilerEmitsIt) {
  // where(x > 0.0, x, x * 0.01) with x a last use: the leaves x, 0.0, x, x,
  // 0.01; the copies under `>` and `*` are moved (those ops consume), the
  // one under `where` is borrowed.
  FusedProgram p;
  p.leaves = {Leaf(0, true), Leaf(1, false, Kind::kFloat), Leaf(2), Leaf(3, true),
              Leaf(4, false, Kind::kFloat)};
  p.nodes = {Bin(BinaryOp::kGt, 0, 1), Bin(BinaryOp::kMul, 3, 4), WhereNode(5, 2, 6)};
  std::mt19937 rng(11);
  for (int64_t n : {1, 7, 8, 9, 15, 16, 17, 31, 33, 1000, 1031}) {
    std::vector<float> values;
    for (int64_t i = 0; i < n; ++i) {
      values.push_back(i < static_cast<int64_t>(kCompareValues.size()) ? kCompareValues[i]
                                                                       : RandomFloat(rng));
    }
    Object* x = F32({n}, values);
    // Three registers hold x, as the compiler's copies do.
    Retain(FromObject(x));
    Retain(FromObject(x));
    std::vector<Value> regs = Regs();
    regs[0] = regs[2] = regs[3] = FromObject(x);
    regs[1] = FromFloat(0.0);
    regs[4] = FromFloat(0.01);
    ExpectFusedMatches(p, regs, "n = " + std::to_string(n));
  }
}

TEST_P(TensorFusedWhere, EveryComparisonOnSpecialValues) {
  // where(a cmp b, a, b) and where(a cmp b, b - a, a): the unordered `!=`,
  // the ordered others, and a NaN's bits picked unchanged.
  const std::vector<float>& v = kCompareValues;
  std::vector<float> as, bs;
  for (float a : v) {
    for (float b : v) {
      as.push_back(a);
      bs.push_back(b);
    }
  }
  const int64_t n = static_cast<int64_t>(as.size());
  for (BinaryOp op :
       {BinaryOp::kEq, BinaryOp::kNe, BinaryOp::kLt, BinaryOp::kLe, BinaryOp::kGt, BinaryOp::kGe}) {
    for (int form = 0; form < 2; ++form) {
      FusedProgram p;
      p.leaves = {Leaf(0), Leaf(1)};
      if (form == 0) {
        p.nodes = {Bin(op, 0, 1), WhereNode(2, 0, 1)};
      } else {
        p.nodes = {Bin(op, 0, 1), Bin(BinaryOp::kSub, 1, 0), WhereNode(2, 3, 0)};
      }
      std::vector<Value> regs = Regs();
      regs[0] = FromObject(F32({n}, as));
      regs[1] = FromObject(F32({n}, bs));
      ExpectFusedMatches(p, regs,
                         std::string(kernels::Spelling(op)) + " form " + std::to_string(form));
    }
  }
}

TEST_P(TensorFusedWhere, NaNMaskIsXNotEqualToX) {
  // where(x != x, 0.0, x): the mask of `x != x` is exactly the NaNs.
  FusedProgram p;
  p.leaves = {Leaf(0), Leaf(1), Leaf(2, false, Kind::kFloat), Leaf(3)};
  p.nodes = {Bin(BinaryOp::kNe, 0, 1), WhereNode(4, 2, 3)};
  std::mt19937 rng(12);
  Object* x = F32({1025}, rng);
  for (int i = 0; i < 1025; i += 3) ElementsOf<float>(x)[i] = std::bit_cast<float>(0xffc12345u);
  Retain(FromObject(x));
  Retain(FromObject(x));
  std::vector<Value> regs = Regs();
  regs[0] = regs[1] = regs[3] = FromObject(x);
  regs[2] = FromFloat(0.0);
  ExpectFusedMatches(p, regs, "x != x");
}

TEST_P(TensorFusedWhere, BoolLeafInEveryLayoutAndTailLength) {
  // where(m, a, b * 2) with m full, one element, or a row; n over every
  // tail length of both paths.
  std::mt19937 rng(13);
  FusedProgram p;
  p.leaves = {Leaf(0), Leaf(1), Leaf(2, false, Kind::kBool), Leaf(3, false, Kind::kInt)};
  p.nodes = {Bin(BinaryOp::kMul, 1, 3), WhereNode(2, 0, 4)};
  for (int64_t n = 1; n <= 40; ++n) {
    for (int layout = 0; layout < 4; ++layout) {
      Dims full = {n}, mask = {n};
      std::string what = "n = " + std::to_string(n);
      if (layout == 1) {
        mask = {};
        what += ", one-element mask";
      } else if (layout == 2) {
        full = {3, n};
        what += ", a mask row of [3, n]";
      } else if (layout == 3) {
        full = {3, n};
        mask = {3, n};
        what += ", a full [3, n] mask, a row for a";
      }
      std::vector<Value> regs = Regs();
      regs[0] = FromObject(F32(layout == 3 ? Dims{n} : full, rng));
      regs[1] = FromObject(F32(full, rng));
      regs[2] = FromObject(Bool(mask, rng));
      regs[3] = FromInt(2);
      ExpectFusedMatches(p, regs, what);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST_P(TensorFusedWhere, OneMaskForTwoWheresAndNestedWheres) {
  // m = a < b; where(m, where(c >= 0, a, c), where(m, b, -a)) * a
  std::mt19937 rng(14);
  FusedProgram p;
  p.leaves = {Leaf(0), Leaf(1), Leaf(2), Leaf(3, false, Kind::kInt)};
  p.nodes = {Bin(BinaryOp::kLt, 0, 1),    // 4: m
             Bin(BinaryOp::kGe, 2, 3),    // 5
             WhereNode(5, 0, 2),          // 6
             Un(UnaryOp::kNeg, 0),        // 7
             WhereNode(4, 1, 7),          // 8
             WhereNode(4, 6, 8),          // 9
             Bin(BinaryOp::kMul, 9, 0)};  // 10
  for (int64_t n : {5, 16, 23, 1031}) {
    std::vector<Value> regs = Regs();
    for (int r = 0; r < 3; ++r) regs[r] = FromObject(F32({n}, rng));
    regs[3] = FromInt(0);
    ExpectFusedMatches(p, regs, "n = " + std::to_string(n));
  }
}

TEST_P(TensorFusedWhere, ManyMasksLiveAtOnce) {
  // Eight comparisons computed first and used last: more masks than the
  // k registers the allocator has free, so some are spilled (AVX-512).
  std::mt19937 rng(15);
  FusedProgram p;
  for (uint16_t l = 0; l < 9; ++l) p.leaves.push_back(Leaf(l));
  const uint16_t leaves = 9;
  for (uint16_t k = 0; k < 8; ++k) p.nodes.push_back(Bin(BinaryOp::kLt, k, k + 1));
  uint16_t acc = 0;
  for (uint16_t k = 0; k < 8; ++k) {
    p.nodes.push_back(WhereNode(leaves + k, acc, k + 1));
    acc = static_cast<uint16_t>(leaves + p.nodes.size() - 1);
  }
  std::vector<Value> regs = Regs();
  for (int r = 0; r < 9; ++r) regs[r] = FromObject(F32({77}, rng));
  ExpectFusedMatches(p, regs, "8 masks");
}

TEST_P(TensorFusedWhere, ScalarBranchesAndAllScalarValues) {
  // where(m, 1.5, -7): a bool tensor and two scalars (kWhereFloats-like,
  // with the Int rounded to f32).
  std::mt19937 rng(16);
  FusedProgram p;
  p.leaves = {Leaf(0, false, Kind::kBool), Leaf(1, false, Kind::kFloat),
              Leaf(2, false, Kind::kInt)};
  p.nodes = {WhereNode(0, 1, 2)};
  for (int64_t n : {1, 8, 19, 100}) {
    std::vector<Value> regs = Regs();
    regs[0] = FromObject(Bool({n}, rng));
    regs[1] = FromFloat(1.5);
    regs[2] = FromInt(-7);
    ExpectFusedMatches(p, regs, "n = " + std::to_string(n));
  }
}

TEST_P(TensorFusedWhere, AMovedBoolLeafIsReleasedNeverTheResult) {
  // The compiler never moves a bool leaf (`where` borrows), but a program
  // that does must still be safe: the mask has the result's shape and
  // refcount 1, yet the result is a new f32 tensor and the mask is freed.
  std::mt19937 rng(17);
  FusedProgram p;
  p.leaves = {Leaf(0, true, Kind::kBool), Leaf(1), Leaf(2)};
  p.nodes = {WhereNode(0, 1, 2)};
  std::vector<Value> regs = Regs();
  Object* m = Bool({4, 9}, rng);
  regs[0] = FromObject(m);
  regs[1] = FromObject(F32({4, 9}, rng));
  regs[2] = FromObject(F32({9}, rng));
  Object* expected = Reference(p, regs.data());
  const uint64_t live = heap_.bytes_live();
  const uint64_t m_bytes = Heap::SizeOf(m);
  FusedKernelCache cache;
  Value result = kNoResult;
  ASSERT_TRUE(RunFused(*cx_, p, cache, 1, regs.data(), &result));
  Object* out = AsObject(result);
  EXPECT_NE(out, m);
  EXPECT_EQ(DTypeOf(out), DType::kF32);
  EXPECT_EQ(regs[0], Value{0});
  EXPECT_EQ(heap_.bytes_live(), live - m_bytes + Heap::SizeOf(out));
  ExpectSameTensor(out, expected, "moved mask");
  heap_.Release(out);
  heap_.Release(expected);
  ReleaseTensorRegs(p, regs.data());
}

TEST_P(TensorFusedWhere, DeclinesWhatABoolLeafCannotBe) {
  std::mt19937 rng(18);
  FusedProgram p;
  p.leaves = {Leaf(0, false, Kind::kBool), Leaf(1), Leaf(2, false, Kind::kFloat)};
  p.nodes = {WhereNode(0, 1, 2)};
  {
    std::vector<Value> regs = Regs();
    regs[0] = FromObject(F32({8}, rng));  // an f32 where a mask should be
    regs[1] = FromObject(F32({8}, rng));
    regs[2] = FromFloat(1.0);
    ExpectDeclines(*cx_, p, regs.data(), "an f32 tensor in a bool leaf");
    ReleaseTensorRegs(p, regs.data());
  }
  {
    std::vector<Value> regs = Regs();
    regs[0] = FromObject(Bool({8}, rng));
    regs[1] = FromObject(Bool({8}, rng));  // a bool where an f32 should be
    regs[2] = FromFloat(1.0);
    ExpectDeclines(*cx_, p, regs.data(), "a bool tensor in an f32 leaf");
    ReleaseTensorRegs(p, regs.data());
  }
  {
    std::vector<Value> regs = Regs();
    regs[0] = FromObject(Bool({2, 1, 9}, rng));  // an interior broadcast
    regs[1] = FromObject(F32({2, 7, 9}, rng));
    regs[2] = FromFloat(1.0);
    ExpectDeclines(*cx_, p, regs.data(), "a bool interior broadcast");
    ReleaseTensorRegs(p, regs.data());
  }
  {
    std::vector<Value> regs = Regs();
    regs[0] = FromObject(Bool({3, 4}, rng));
    regs[1] = FromObject(F32({4, 3}, rng));
    regs[2] = FromFloat(1.0);
    ExpectDeclines(*cx_, p, regs.data(), "shapes that do not broadcast");
    ReleaseTensorRegs(p, regs.data());
  }
}

TEST_P(TensorFusedWhere, JitRejectsIllTypedPrograms) {
  // What Verify rejects, the JIT refuses as well (no kernel, no crash).
  const jit::Isa isa = GetParam() == Path::kAvx2 ? jit::Isa::kAvx2 : jit::Isa::kAvx512;
  FusedProgram ok;
  ok.leaves = {Leaf(0, false, Kind::kBool), Leaf(1), Leaf(2)};
  ok.nodes = {WhereNode(0, 1, 2)};
  EXPECT_NE(jit_->FusedF32(ok, 0, isa), nullptr);
  std::vector<FusedProgram> bad(6, ok);
  bad[0].nodes = {WhereNode(1, 0, 2)};                     // an f32 as the mask
  bad[1].nodes = {WhereNode(0, 0, 2)};                     // a mask as a branch
  bad[2].nodes = {Bin(BinaryOp::kLt, 1, 2)};               // a mask result
  bad[3].nodes = {Bin(BinaryOp::kAdd, 0, 1)};              // arithmetic on a mask
  bad[4].nodes = {WhereNode(0, 1, 3)};                     // c not yet defined
  bad[5].nodes = {Bin(static_cast<BinaryOp>(200), 1, 2)};  // no such op
  for (size_t i = 0; i < bad.size(); ++i) {
    EXPECT_EQ(jit_->FusedF32(bad[i], 0, isa), nullptr) << i << ": " << Describe(bad[i]);
  }
}

// ---- No access past the end ----

// Two pages, the second inaccessible: a buffer placed to end at the first
// page's end faults on any read or write past it.
class GuardedPages {
 public:
  GuardedPages() {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    void* p = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return;
    base_ = static_cast<uint8_t*>(p);
    if (mprotect(base_ + page_, page_, PROT_NONE) != 0) {
      munmap(base_, 2 * page_);
      base_ = nullptr;
    }
  }
  ~GuardedPages() {
    if (base_ != nullptr) munmap(base_, 2 * page_);
  }
  GuardedPages(const GuardedPages&) = delete;
  GuardedPages& operator=(const GuardedPages&) = delete;
  bool ok() const { return base_ != nullptr; }
  // `bytes` bytes that end at the guard page.
  uint8_t* End(size_t bytes) { return base_ + page_ - bytes; }

 private:
  size_t page_ = 0;
  uint8_t* base_ = nullptr;
};

TEST_P(TensorFusedWhere, TailsReadAndWriteNothingPastTheEnd) {
  // where(m, a, 0.5) straight through the kernel, every buffer ending at a
  // guard page; each n leaves a tail of every length.
  const jit::Isa isa = GetParam() == Path::kAvx2 ? jit::Isa::kAvx2 : jit::Isa::kAvx512;
  FusedProgram p;
  p.leaves = {Leaf(0, false, Kind::kBool), Leaf(1), Leaf(2, false, Kind::kFloat)};
  p.nodes = {WhereNode(0, 1, 2)};
  const jit::FusedF32Fn kernel = jit_->FusedF32(p, /*scalar_leaves=*/4, isa);
  ASSERT_NE(kernel, nullptr);
  GuardedPages mask_pages, a_pages, out_pages;
  ASSERT_TRUE(mask_pages.ok() && a_pages.ok() && out_pages.ok());
  std::mt19937 rng(19);
  const float half = 0.5f;
  for (int64_t n = 1; n <= 40; ++n) {
    uint8_t* m = mask_pages.End(static_cast<size_t>(n));
    auto* a = reinterpret_cast<float*>(a_pages.End(static_cast<size_t>(n) * sizeof(float)));
    auto* out = reinterpret_cast<float*>(out_pages.End(static_cast<size_t>(n) * sizeof(float)));
    for (int64_t i = 0; i < n; ++i) {
      m[i] = RandomBoolByte(rng);
      a[i] = RandomFloat(rng);
    }
    const float* inputs[] = {reinterpret_cast<const float*>(m), a, &half};
    kernel(inputs, out, n);
    for (int64_t i = 0; i < n; ++i) {
      const float want = m[i] != 0 ? a[i] : half;
      ASSERT_EQ(std::bit_cast<uint32_t>(out[i]), std::bit_cast<uint32_t>(want))
          << "n = " << n << ", element " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, TensorFusedWhere, ::testing::Values(Path::kAvx2, Path::kAvx512),
                         [](const ::testing::TestParamInfo<Path>& info) {
                           return info.param == Path::kAvx2 ? std::string("Avx2")
                                                            : std::string("Avx512");
                         });

// ---- Verify ----

// A module whose function f(r0, r1, r2: Tensor, r3: Float) -> Tensor runs
// FUSED_T with `program` into register 4 (its unfused block: a copy of r1);
// only loaded, never run.
Module WithProgram(const FusedProgram& program) {
  testing::ModuleBuilder b;
  const uint32_t tt = b.Tensor();
  b.Fn("f", {{tt, tt, tt, b.Float()}, tt}, 5,
       {testing::I(Op::FUSED_T, 4, 0), testing::IsBx(Op::JMP, 0, 1), testing::I(Op::COPY, 4, 1),
        testing::I(Op::RET, 4)},
       {0, 1, 2, 4});
  b.module().fused.push_back(program);
  return b.Build(-1);
}

TEST(TensorFusedVerify, AcceptsWellTypedProgramsAndRejectsTheRest) {
  FusedProgram ok;
  ok.leaves = {Leaf(0, false, Kind::kBool), Leaf(1), Leaf(2), Leaf(3, false, Kind::kFloat)};
  ok.nodes = {Bin(BinaryOp::kGe, 1, 3), WhereNode(4, 1, 2), WhereNode(0, 5, 3)};
  {
    Vm vm;
    EXPECT_TRUE(vm.Load(WithProgram(ok)).ok());
  }
  struct Bad {
    const char* what;
    FusedProgram p;
    std::string message;
  };
  std::vector<Bad> bad;
  const std::string ill_typed =
      "malformed module: fused program 0 is not well typed (bytecode.h FusedProgram)";
  auto add = [&](const char* what, auto change, std::string message) {
    FusedProgram p = ok;
    change(p);
    bad.push_back({what, p, std::move(message)});
  };
  add(
      "an f32 as a mask", [](FusedProgram& p) { p.nodes[1].a = 1; }, ill_typed);
  add(
      "a mask as a branch", [](FusedProgram& p) { p.nodes[1].b = 0; }, ill_typed);
  add(
      "a mask as the else branch", [](FusedProgram& p) { p.nodes[2].c = 4; }, ill_typed);
  add(
      "a comparison of a mask", [](FusedProgram& p) { p.nodes[0].a = 0; }, ill_typed);
  add(
      "arithmetic on a mask", [](FusedProgram& p) { p.nodes[0] = Bin(BinaryOp::kAdd, 0, 1); },
      ill_typed);
  add(
      "a unary op of a mask", [](FusedProgram& p) { p.nodes[0] = Un(UnaryOp::kNeg, 0); },
      ill_typed);
  add(
      "a mask result", [](FusedProgram& p) { p.nodes.push_back(Bin(BinaryOp::kEq, 1, 2)); },
      ill_typed);
  add(
      "a program of one comparison", [](FusedProgram& p) { p.nodes = {Bin(BinaryOp::kNe, 1, 1)}; },
      ill_typed);
  add(
      "c out of range", [](FusedProgram& p) { p.nodes[2].c = 7; }, ill_typed);
  add(
      "c not yet defined", [](FusedProgram& p) { p.nodes[1].c = 5; }, ill_typed);
  add(
      "where and unary at once", [](FusedProgram& p) { p.nodes[1].unary = true; }, ill_typed);
  add(
      "no such binary op", [](FusedProgram& p) { p.nodes[0].op = 12; }, ill_typed);
  add(
      "no such leaf kind", [](FusedProgram& p) { p.leaves[0].kind = static_cast<Kind>(4); },
      ill_typed);
  add(
      "a tensor leaf in a plain register", [](FusedProgram& p) { p.leaves[2].reg = 3; },
      "malformed module: function 0 `f` pc 0: FUSED_T needs leaf R(3) to hold a reference; it "
      "holds a plain value");
  add(
      "a scalar leaf in a reference register", [](FusedProgram& p) { p.leaves[3].reg = 2; },
      "malformed module: function 0 `f` pc 0: FUSED_T needs leaf R(2) to be a plain register");
  add(
      "a leaf past the registers", [](FusedProgram& p) { p.leaves[1].reg = 5; },
      "malformed module: function 0 `f` pc 0: FUSED_T has a leaf R(5) past its registers");
  for (const Bad& b : bad) {
    Vm vm;
    const absl::Status s = vm.Load(WithProgram(b.p));
    EXPECT_EQ(std::string(s.message()), b.message) << b.what << ": " << Describe(b.p);
  }
}

}  // namespace
}  // namespace alea::vm::fused_testing

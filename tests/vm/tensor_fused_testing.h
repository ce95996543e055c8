// Shared by the RunFused tests (tensor_fused_test.cc: the property and the
// f32 chains; tensor_fused_where_test.cc: comparisons, `where`, bool leaves
// and Verify): random values and shapes, the reference (the unfused chain on
// the reference kernels, no JIT) and a fixture over both ISA paths.
#ifndef ALEA_TESTS_VM_TENSOR_FUSED_TESTING_H_
#define ALEA_TESTS_VM_TENSOR_FUSED_TESTING_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "vm/bytecode.h"
#include "vm/heap.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/value.h"

namespace alea::vm::fused_testing {

using kernels::BinaryOp;
using kernels::UnaryOp;
using Dims = std::vector<int64_t>;
using Kind = FusedLeaf::Kind;

constexpr int kRegs = 24;  // more than a kernel's leaves
// Registers that no leaf uses hold this, and must keep it.
constexpr Value kUnusedReg = 0x5eed5eed5eed5eedull;
constexpr Value kNoResult = 0xdeadbeefcafef00dull;

constexpr BinaryOp kBinaryOps[] = {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul,
                                   BinaryOp::kDiv, BinaryOp::kMax, BinaryOp::kMin};
constexpr UnaryOp kUnaryOps[] = {UnaryOp::kNeg, UnaryOp::kAbs, UnaryOp::kSqrt, UnaryOp::kRelu,
                                 UnaryOp::kExp, UnaryOp::kLog, UnaryOp::kTanh, UnaryOp::kSigmoid};

inline bool IsTranscendental(UnaryOp op) {
  return op == UnaryOp::kExp || op == UnaryOp::kLog || op == UnaryOp::kTanh ||
         op == UnaryOp::kSigmoid;
}

// f32 bit patterns worth meeting: zeros, infinities, quiet NaNs with payloads
// of both signs, signalling NaNs, subnormals, the normal extremes, and the
// thresholds of exp/tanh/sigmoid.
constexpr uint32_t kSpecialBits[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fc12345,
    0xffe00001, 0x7f800001, 0x7fa00000, 0xff812345, 0x7fbfffff, 0x00000001, 0x80000001,
    0x007fffff, 0x807fffff, 0x00400000, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,
    0x3f800000, 0xbf800000, 0x3f000000, 0x42b17218, 0x42b20000, 0xc2aeac50, 0xc2ce8ed0,
    0x41a00000, 0xc1100000, 0x4b800000, 0x0d000000, 0x72000000, 0x3e800001, 0xb3800000};

inline float RandomFloat(std::mt19937& rng) {
  const uint32_t pick = rng() % 20;
  if (pick < 6) return std::bit_cast<float>(kSpecialBits[rng() % std::size(kSpecialBits)]);
  if (pick < 8) return std::bit_cast<float>(static_cast<uint32_t>(rng()));  // any bits
  if (pick < 11) {
    // Magnitudes from tiny (subnormal) to huge, either sign.
    const float e = std::uniform_real_distribution<float>(-44.0f, 38.0f)(rng);
    const float m = std::pow(10.0f, e);
    return rng() % 2 ? -m : m;
  }
  if (pick < 14) return std::uniform_real_distribution<float>(-100.0f, 100.0f)(rng);
  return std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng);
}

// Int and Float register values for scalar leaves: rounding to f32 (ties,
// out of f32's range, beyond 2^53), and double NaNs with payloads.
inline Value RandomInt(std::mt19937& rng) {
  constexpr int64_t kInts[] = {0,
                               1,
                               -1,
                               2,
                               16777217,
                               -16777219,
                               (int64_t{1} << 53) + 1,
                               std::numeric_limits<int64_t>::max(),
                               std::numeric_limits<int64_t>::min(),
                               123456789,
                               -7};
  if (rng() % 2) return FromInt(kInts[rng() % std::size(kInts)]);
  return FromInt(static_cast<int64_t>((uint64_t{rng()} << 32) | rng()) >> (rng() % 64));
}

inline Value RandomFloatValue(std::mt19937& rng) {
  constexpr uint64_t kBits[] = {
      0x7ff8000000000000ull,  // quiet NaN
      0x7ff8000000000001ull,  // payload below f32's
      0xfffc0000deadbeefull,  // payload reaching f32's
      0x7ff0000000000001ull,  // signalling
      0x7ff4000000000000ull,  // signalling, payload in f32's bits
      0x7ff0000000000000ull, 0xfff0000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull,
      0x36a0000000000000ull,  // 2^-149: the least f32 subnormal
      0x3690000000000000ull,  // 2^-150: a tie to zero
      0x47efffffe0000000ull,  // FLT_MAX + half an ulp: rounds to inf
      0x47efffffdfffffffull,  // just below: FLT_MAX
      0x3fb999999999999aull,  // 0.1
  };
  const uint32_t pick = rng() % 4;
  if (pick < 2) return kBits[rng() % std::size(kBits)];
  if (pick < 3) return (uint64_t{rng()} << 32) | rng();  // any bits
  return FromFloat(std::uniform_real_distribution<double>(-10.0, 10.0)(rng));
}

inline Dims RandomShape(std::mt19937& rng) {
  constexpr int64_t kSmall[] = {1, 1, 2, 3, 7, 8, 9, 15, 16, 17};
  constexpr int64_t kBig[] = {1000, 1023, 1024, 1025, 1031, 4099};
  const int rank = static_cast<int>(rng() % 5);
  Dims shape;
  int64_t total = 1;
  for (int i = 0; i < rank; ++i) {
    int64_t d = rng() % 5 == 0 ? kBig[rng() % std::size(kBig)] : kSmall[rng() % std::size(kSmall)];
    if (total * d > 20000) d = kSmall[rng() % std::size(kSmall)];
    total *= d;
    shape.push_back(d);
  }
  return shape;
}

// A bool element: mostly 0 and 1, sometimes another nonzero byte (true to
// the reference's `mask != 0`, and to the JIT's).
inline uint8_t RandomBoolByte(std::mt19937& rng) {
  const uint32_t pick = rng() % 16;
  if (pick == 0) return static_cast<uint8_t>(2 + rng() % 254);
  return static_cast<uint8_t>(pick % 2);
}

inline std::string Describe(const FusedProgram& p) {
  std::ostringstream s;
  for (size_t l = 0; l < p.leaves.size(); ++l) {
    const FusedLeaf& leaf = p.leaves[l];
    const char* kind = leaf.kind == Kind::kTensor ? "T"
                       : leaf.kind == Kind::kBool ? "B"
                       : leaf.kind == Kind::kInt  ? "I"
                                                  : "F";
    s << "v" << l << "=" << kind << "r" << leaf.reg << (leaf.moved ? "(moved) " : " ");
  }
  for (size_t j = 0; j < p.nodes.size(); ++j) {
    const FusedNode& n = p.nodes[j];
    s << "v" << p.leaves.size() + j << "=";
    if (n.where) {
      s << "where(v" << n.a << ",v" << n.b << ",v" << n.c << ") ";
    } else if (n.unary) {
      s << kernels::Spelling(static_cast<UnaryOp>(n.op)) << "(v" << n.a << ") ";
    } else {
      s << "v" << n.a << kernels::Spelling(static_cast<BinaryOp>(n.op)) << "v" << n.b << " ";
    }
  }
  return s.str();
}

inline std::string ShapeText(const Dims& d) { return ShapeString(d); }
inline Dims ShapeVec(const Object* t) { return Dims(ShapeOf(t).begin(), ShapeOf(t).end()); }

// The elements' bits (a bool tensor's bytes, one per entry).
inline std::vector<uint32_t> Bits(const Object* t) {
  std::vector<uint32_t> v(static_cast<size_t>(SizeOf(t)));
  if (DTypeOf(t) == DType::kBool) {
    const uint8_t* bytes = ElementsOf<uint8_t>(t);
    for (size_t i = 0; i < v.size(); ++i) v[i] = bytes[i];
  } else if (!v.empty()) {
    std::memcpy(v.data(), DataOf(t), v.size() * sizeof(uint32_t));
  }
  return v;
}

// A Tensor(f32) or Tensor(bool) leaf (the others are scalars).
inline bool IsTensor(const FusedLeaf& leaf) {
  return leaf.kind == Kind::kTensor || leaf.kind == Kind::kBool;
}

// Everything a declined RunFused must leave as it was.
struct Snapshot {
  std::vector<Value> regs;
  std::vector<uint64_t> refcounts;
  std::vector<Dims> shapes;
  std::vector<std::vector<uint32_t>> data;
  uint64_t allocations;
  uint64_t bytes_live;
};

enum class Path { kAvx2, kAvx512 };
inline void PrintTo(Path p, std::ostream* os) { *os << (p == Path::kAvx2 ? "AVX2" : "AVX-512"); }

class TensorFusedFixture : public ::testing::TestWithParam<Path> {
 protected:
  void SetUp() override {
    jit::Options options;
    options.pretend_no_avx512 = GetParam() == Path::kAvx2;
    jit_ = std::make_unique<jit::Jit>(options);
    if (!jit_->available()) GTEST_SKIP() << "this CPU has no AVX2+FMA: the JIT is off";
    if (GetParam() == Path::kAvx512 && !jit_->has_avx512()) GTEST_SKIP() << "no AVX-512F";
    if (GetParam() == Path::kAvx2) {
      ASSERT_FALSE(jit_->has_avx512());
    }
    cx_ = std::make_unique<TensorContext>(heap_, jit_.get());
    start_bytes_ = heap_.bytes_live();
  }
  void TearDown() override {
    // Parked site buffers count as live until dropped.
    heap_.DropParked();
    EXPECT_EQ(heap_.bytes_live(), start_bytes_) << "something was leaked or not released";
  }

  Object* F32(const Dims& shape, std::mt19937& rng) {
    Object* t = heap_.NewTensor(DType::kF32, shape);
    EXPECT_NE(t, nullptr);
    float* x = ElementsOf<float>(t);
    for (int64_t i = 0; i < SizeOf(t); ++i) x[i] = RandomFloat(rng);
    return t;
  }
  Object* F32(const Dims& shape, const std::vector<float>& values) {
    Object* t = heap_.NewTensor(DType::kF32, shape);
    EXPECT_NE(t, nullptr);
    EXPECT_EQ(SizeOf(t), static_cast<int64_t>(values.size()));
    if (!values.empty()) std::memcpy(DataOf(t), values.data(), values.size() * sizeof(float));
    return t;
  }
  Object* Bool(const Dims& shape, std::mt19937& rng) {
    Object* t = heap_.NewTensor(DType::kBool, shape);
    EXPECT_NE(t, nullptr);
    uint8_t* x = ElementsOf<uint8_t>(t);
    for (int64_t i = 0; i < SizeOf(t); ++i) x[i] = RandomBoolByte(rng);
    return t;
  }
  Object* Bool(const Dims& shape, const std::vector<uint8_t>& values) {
    Object* t = heap_.NewTensor(DType::kBool, shape);
    EXPECT_NE(t, nullptr);
    EXPECT_EQ(SizeOf(t), static_cast<int64_t>(values.size()));
    if (!values.empty()) std::memcpy(DataOf(t), values.data(), values.size());
    return t;
  }

  // The unfused chain on reference kernels, every leaf borrowed: an owned
  // result. Comparisons give bool tensors, as EQ_T..GE_T; `where` is the
  // t_where native's vm::Where.
  Object* Reference(const FusedProgram& p, const Value* regs) {
    TensorContext cx(heap_, nullptr);
    std::vector<Object*> values;
    std::vector<bool> owned;
    for (const FusedLeaf& leaf : p.leaves) {
      if (leaf.transposed) {  // the unfused block's transpose first
        values.push_back(Transpose(cx, AsObject(regs[leaf.reg])));
        owned.push_back(true);
      } else if (IsTensor(leaf)) {
        values.push_back(AsObject(regs[leaf.reg]));
        owned.push_back(false);
      } else {
        values.push_back(FromScalar(cx, DType::kF32, regs[leaf.reg], leaf.kind == Kind::kFloat));
        owned.push_back(true);
      }
      EXPECT_NE(values.back(), nullptr);
    }
    for (const FusedNode& n : p.nodes) {
      Object* r = n.where   ? Where(cx, values[n.a], values[n.b], values[n.c])
                  : n.unary ? Unary(cx, static_cast<UnaryOp>(n.op), {values[n.a], false})
                            : Binary(cx, static_cast<BinaryOp>(n.op), {values[n.a], false},
                                     {values[n.b], false});
      EXPECT_NE(r, nullptr);
      values.push_back(r);
      owned.push_back(true);
    }
    for (size_t v = 0; v + 1 < values.size(); ++v) {
      if (owned[v]) heap_.Release(values[v]);
    }
    return values.back();
  }

  // Whether RunFused may decline this program because the JIT does not
  // compile one of its transcendental ops (yet).
  bool MayDecline(const FusedProgram& p) {
    for (const FusedNode& n : p.nodes) {
      if (n.unary && IsTranscendental(static_cast<UnaryOp>(n.op)) &&
          jit_->UnaryF32(static_cast<UnaryOp>(n.op)) == nullptr) {
        return true;
      }
    }
    return false;
  }

  Snapshot Take(const FusedProgram& p, const Value* regs) {
    Snapshot s;
    s.regs.assign(regs, regs + kRegs);
    for (const FusedLeaf& leaf : p.leaves) {
      if (!IsTensor(leaf)) continue;
      const Object* t = AsObject(regs[leaf.reg]);
      s.refcounts.push_back(t->refcount);
      s.shapes.push_back(ShapeVec(t));
      s.data.push_back(Bits(t));
    }
    s.allocations = heap_.allocations();
    s.bytes_live = heap_.bytes_live();
    return s;
  }
  void ExpectUnchanged(const FusedProgram& p, const Value* regs, const Snapshot& s) {
    EXPECT_EQ(std::vector<Value>(regs, regs + kRegs), s.regs);
    size_t t = 0;
    for (const FusedLeaf& leaf : p.leaves) {
      if (!IsTensor(leaf)) continue;
      const Object* o = AsObject(regs[leaf.reg]);
      EXPECT_EQ(o->refcount, s.refcounts[t]) << "leaf r" << leaf.reg;
      EXPECT_EQ(ShapeVec(o), s.shapes[t]);
      EXPECT_EQ(Bits(o), s.data[t]) << "leaf r" << leaf.reg;
      ++t;
    }
    EXPECT_EQ(heap_.allocations(), s.allocations);
    EXPECT_EQ(heap_.bytes_live(), s.bytes_live);
  }
  // RunFused declines and touches nothing; then the registers' references
  // are released (as the unfused block would end up doing).
  void ExpectDeclines(TensorContext& cx, const FusedProgram& p, Value* regs,
                      const std::string& what) {
    SCOPED_TRACE(what);
    const Snapshot s = Take(p, regs);
    FusedKernelCache cache;
    Value result = kNoResult;
    EXPECT_FALSE(RunFused(cx, p, cache, 1, regs, &result));
    EXPECT_EQ(result, kNoResult);
    ExpectUnchanged(p, regs, s);
  }
  void ReleaseTensorRegs(const FusedProgram& p, Value* regs) {
    for (const FusedLeaf& leaf : p.leaves) {
      if (IsTensor(leaf) && regs[leaf.reg] != 0) {
        heap_.Release(AsObject(regs[leaf.reg]));
        regs[leaf.reg] = 0;
      }
    }
  }

  static void ExpectSameTensor(const Object* got, const Object* want, const std::string& what) {
    ASSERT_EQ(DTypeOf(got), DType::kF32) << what;
    ASSERT_EQ(ShapeVec(got), ShapeVec(want)) << what;
    const size_t bytes = static_cast<size_t>(SizeOf(want)) * sizeof(float);
    if (std::memcmp(DataOf(got), DataOf(want), bytes) == 0) return;
    const uint32_t* g = ElementsOf<uint32_t>(got);
    const uint32_t* w = ElementsOf<uint32_t>(want);
    for (int64_t i = 0; i < SizeOf(want); ++i) {
      if (g[i] != w[i]) {
        ADD_FAILURE() << what << ": element " << i << " of " << SizeOf(want) << " is 0x" << std::hex
                      << g[i] << ", the unfused chain gives 0x" << w[i];
        return;
      }
    }
  }

  Heap heap_{0};
  std::unique_ptr<jit::Jit> jit_;
  std::unique_ptr<TensorContext> cx_;
  uint64_t start_bytes_ = 0;
};

inline FusedLeaf Leaf(uint16_t reg, bool moved = false, Kind kind = Kind::kTensor) {
  FusedLeaf l;
  l.reg = reg;
  l.kind = kind;
  l.moved = moved;
  return l;
}
inline FusedNode Bin(BinaryOp op, uint16_t a, uint16_t b) {
  FusedNode n;
  n.op = static_cast<uint8_t>(op);
  n.a = a;
  n.b = b;
  return n;
}
inline FusedNode Un(UnaryOp op, uint16_t a) {
  FusedNode n;
  n.unary = true;
  n.op = static_cast<uint8_t>(op);
  n.a = a;
  return n;
}
inline FusedNode WhereNode(uint16_t mask, uint16_t a, uint16_t b) {
  FusedNode n;
  n.where = true;
  n.a = mask;
  n.b = a;
  n.c = b;
  return n;
}
inline std::vector<Value> Regs() { return std::vector<Value>(kRegs, kUnusedReg); }

inline constexpr BinaryOp kComparisons[] = {BinaryOp::kEq, BinaryOp::kNe, BinaryOp::kLt,
                                            BinaryOp::kLe, BinaryOp::kGt, BinaryOp::kGe};

// A random program of 1..12 nodes (and a few more to finish) over 2..6
// leaves in which every value but the last is used (a tree, sometimes
// sharing a value: `x * x`, `x != x`, a mask read by two `where`s). Two
// programs in three also have comparisons, `where` and bool leaves: f32 and
// mask values are kept apart, every mask is the first operand of a `where`,
// and the result is an f32.
inline FusedProgram RandomProgram(std::mt19937& rng) {
  FusedProgram p;
  const bool masks = rng() % 3 != 0;
  const int target = 1 + static_cast<int>(rng() % 12);
  const int leaves = 2 + static_cast<int>(rng() % (std::min(6, target + 1) - 1));
  std::vector<int> regs(kRegs);
  for (int r = 0; r < kRegs; ++r) regs[r] = r;
  std::shuffle(regs.begin(), regs.end(), rng);
  std::vector<uint16_t> f32_pool, mask_pool;      // values not used yet
  std::vector<uint16_t> f32_values, mask_values;  // every value so far
  auto define = [&](uint16_t value, bool mask) {
    (mask ? mask_pool : f32_pool).push_back(value);
    (mask ? mask_values : f32_values).push_back(value);
  };
  for (int l = 0; l < leaves; ++l) {
    FusedLeaf leaf;
    leaf.reg = static_cast<uint16_t>(regs[l]);
    const uint32_t k = rng() % 10;
    leaf.kind = k < 7 ? Kind::kTensor : k < 8 ? Kind::kInt : Kind::kFloat;
    if (masks && l > 0 && rng() % 4 == 0) leaf.kind = Kind::kBool;  // leaf 0 stays an f32
    leaf.moved = IsTensor(leaf) && rng() % 2 == 0;
    p.leaves.push_back(leaf);
    define(static_cast<uint16_t>(l), leaf.kind == Kind::kBool);
  }
  // An operand: an unused value, or (sometimes, or when none is left) any
  // earlier one.
  auto take = [&](std::vector<uint16_t>& pool, const std::vector<uint16_t>& all,
                  bool reuse = true) {
    if (pool.empty() || (reuse && rng() % 4 == 0)) return all[rng() % all.size()];
    const size_t i = rng() % pool.size();
    const uint16_t v = pool[i];
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(i));
    return v;
  };
  auto add = [&](FusedNode node, bool mask) {
    p.nodes.push_back(node);
    define(static_cast<uint16_t>(p.leaves.size() + p.nodes.size() - 1), mask);
  };
  auto where = [&](bool reuse_mask) {
    const uint16_t m = take(mask_pool, mask_values, reuse_mask);
    const uint16_t a = take(f32_pool, f32_values);
    add(WhereNode(m, a, take(f32_pool, f32_values)), false);
  };
  while (static_cast<int>(p.nodes.size()) < target) {
    const uint32_t c = rng() % 100;
    if (masks && c < 20) {
      const BinaryOp op = kComparisons[rng() % std::size(kComparisons)];
      const uint16_t a = take(f32_pool, f32_values);
      const uint16_t b = rng() % 5 == 0 ? a : take(f32_pool, f32_values);  // `x != x`
      add(Bin(op, a, b), true);
    } else if (masks && c < 40 && !mask_values.empty()) {
      where(true);
    } else if (c < 70) {
      add(Un(kUnaryOps[rng() % std::size(kUnaryOps)], take(f32_pool, f32_values)), false);
    } else {
      const uint16_t a = take(f32_pool, f32_values);
      add(Bin(kBinaryOps[rng() % std::size(kBinaryOps)], a, take(f32_pool, f32_values)), false);
    }
  }
  // Every mask into a `where`, then the f32s merged into one result.
  while (!mask_pool.empty()) where(false);
  while (f32_pool.size() > 1) {
    const uint16_t a = take(f32_pool, f32_values, false);
    add(Bin(kBinaryOps[rng() % std::size(kBinaryOps)], a, take(f32_pool, f32_values, false)),
        false);
  }
  return p;
}

}  // namespace alea::vm::fused_testing

#endif  // ALEA_TESTS_VM_TENSOR_FUSED_TESTING_H_

// vm/tensor_fused.cc RunFused: a fused program gives bitwise the same tensor
// as its unfused chain of typed ops (opcodes.def FUSED_T), evaluated here node
// by node with Binary / Unary / Where / FromScalar on reference kernels (no
// JIT). Both ISA paths; random programs (f32 arithmetic, comparisons, `where`,
// bool leaves), shapes and values (NaN payloads, signalling NaNs, infinities,
// subnormals, signed zeros); moved and borrowed leaves; in-place reuse;
// per-site buffers; aliasing; and the declines, which must change nothing.
// Tests specific to comparisons, `where` and bool leaves are in
// tensor_fused_where_test.cc; the fixture in tensor_fused_testing.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tests/vm/tensor_fused_testing.h"
#include "vm/bytecode.h"
#include "vm/heap.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/value.h"

namespace alea::vm::fused_testing {
namespace {

class TensorFused : public TensorFusedFixture {};

// ---- The property ----

TEST_P(TensorFused, RandomProgramsGiveTheUnfusedBits) {
  std::mt19937 rng(GetParam() == Path::kAvx2 ? 20240601 : 20240602);
  constexpr int kPrograms = 200;
  constexpr int kInstances = 3;  // layouts per program, through one site's cache
  int fused = 0, in_place = 0, tolerated = 0, rows = 0, columns = 0, wheres = 0, bool_leaves = 0;
  for (int prog = 0; prog < kPrograms; ++prog) {
    const FusedProgram p = RandomProgram(rng);
    const bool may_decline = MayDecline(p);
    const bool has_where =
        std::any_of(p.nodes.begin(), p.nodes.end(), [](const FusedNode& n) { return n.where; });
    const bool has_bool = std::any_of(p.leaves.begin(), p.leaves.end(),
                                      [](const FusedLeaf& l) { return l.kind == Kind::kBool; });
    FusedKernelCache cache;
    const uint32_t site = 1 + static_cast<uint32_t>(prog % 4);
    for (int inst = 0; inst < kInstances; ++inst) {
      const Dims full = RandomShape(rng);
      const int rank = static_cast<int>(full.size());
      const int row_axes = rank >= 2 ? 1 + static_cast<int>(rng() % (rank - 1)) : 0;
      std::vector<Value> regs = Regs();
      std::vector<Object*> extra;  // references the test holds beside the registers
      std::string shapes;
      bool has_row = false, has_column = false;
      for (const FusedLeaf& leaf : p.leaves) {
        if (leaf.kind == Kind::kInt) {
          regs[leaf.reg] = RandomInt(rng);
          shapes += "int ";
          continue;
        }
        if (leaf.kind == Kind::kFloat) {
          regs[leaf.reg] = RandomFloatValue(rng);
          shapes += "float ";
          continue;
        }
        Dims shape;
        const uint32_t k = rng() % 8;
        if (k < 4 || (k >= 6 && row_axes == 0)) {  // the full shape, maybe with leading 1s
          if (rng() % 4 == 0) shape.assign(1 + rng() % 2, 1);
          shape.insert(shape.end(), full.begin(), full.end());
        } else if (k < 6) {  // one element
          shape.assign(rng() % 3, 1);
        } else if (k == 6) {  // a row: the trailing axes, repeated
          has_row = true;
          if (rng() % 3 == 0) shape.push_back(1);
          shape.insert(shape.end(), full.end() - row_axes, full.end());
        } else {  // a column: the leading axes (maybe not all), 1 on the rest
          has_column = true;
          const int dropped = static_cast<int>(rng() % (rank - row_axes));
          shape.assign(full.begin() + dropped, full.end() - row_axes);
          shape.insert(shape.end(), row_axes, 1);
        }
        shapes += ShapeText(shape) + " ";
        Object* t = leaf.kind == Kind::kBool ? Bool(shape, rng) : F32(shape, rng);
        regs[leaf.reg] = FromObject(t);
        if (leaf.moved && rng() % 3 == 0) {
          Retain(FromObject(t));  // shared: cannot be reused
          extra.push_back(t);
        }
      }
      const std::string what = "program " + std::to_string(prog) + "." + std::to_string(inst) +
                               ": " + Describe(p) + "| leaves " + shapes;
      SCOPED_TRACE(what);

      Object* expected = Reference(p, regs.data());
      ASSERT_NE(expected, nullptr);
      const Snapshot before = Take(p, regs.data());
      std::vector<Object*> candidates;  // moved leaves that may become the result
      for (const FusedLeaf& leaf : p.leaves) {
        if (leaf.kind != Kind::kTensor || !leaf.moved) continue;
        const Object* t = AsObject(regs[leaf.reg]);
        if (t->refcount == 1 && ShapeVec(t) == ShapeVec(expected)) {
          candidates.push_back(AsObject(regs[leaf.reg]));
        }
      }
      std::vector<Value> leaf_regs_before = regs;

      Value result = kNoResult;
      const bool ran = RunFused(*cx_, p, cache, site, regs.data(), &result);
      if (!ran) {
        EXPECT_TRUE(may_decline) << "RunFused declined a program and layout it handles";
        EXPECT_EQ(result, kNoResult);
        ExpectUnchanged(p, regs.data(), before);
        ++tolerated;
        ReleaseTensorRegs(p, regs.data());
      } else {
        ++fused;
        if (has_row) ++rows;
        if (has_column) ++columns;
        if (has_where) ++wheres;
        if (has_bool) ++bool_leaves;
        Object* out = AsObject(result);
        ExpectSameTensor(out, expected, what);
        EXPECT_EQ(out->refcount, 1u);
        const bool reused =
            std::find(candidates.begin(), candidates.end(), out) != candidates.end();
        if (candidates.empty()) {
          for (const FusedLeaf& leaf : p.leaves) {
            if (IsTensor(leaf)) {
              EXPECT_NE(FromObject(out), leaf_regs_before[leaf.reg]);
            }
          }
        } else {
          EXPECT_TRUE(reused) << "a moved leaf with refcount 1 and the result's shape was not "
                                 "reused";
          ++in_place;
        }
        size_t t = 0;
        for (const FusedLeaf& leaf : p.leaves) {
          if (!IsTensor(leaf)) {
            EXPECT_EQ(regs[leaf.reg], leaf_regs_before[leaf.reg]);
            continue;
          }
          Object* o = AsObject(leaf_regs_before[leaf.reg]);
          if (leaf.moved) {
            EXPECT_EQ(regs[leaf.reg], Value{0}) << "a moved leaf's register is cleared";
          } else {
            EXPECT_EQ(regs[leaf.reg], leaf_regs_before[leaf.reg]);
            EXPECT_EQ(o->refcount, before.refcounts[t]) << "borrowed leaf r" << leaf.reg;
            EXPECT_EQ(Bits(o), before.data[t]) << "borrowed leaf r" << leaf.reg;
          }
          ++t;
        }
        for (Object* o : extra) {
          EXPECT_EQ(o->refcount, 1u) << "a shared moved leaf gave up its register's reference";
          EXPECT_NE(o, out);
        }
        // Extra references were taken on moved leaves only, so the data of
        // those is the leaf's original data (checked by index).
        t = 0;
        for (const FusedLeaf& leaf : p.leaves) {
          if (!IsTensor(leaf)) continue;
          Object* o = AsObject(leaf_regs_before[leaf.reg]);
          if (leaf.moved && std::find(extra.begin(), extra.end(), o) != extra.end()) {
            EXPECT_EQ(Bits(o), before.data[t]) << "shared moved leaf r" << leaf.reg;
          }
          ++t;
        }
        heap_.Release(out);
        ReleaseTensorRegs(p, regs.data());  // the borrowed ones (moved are cleared)
      }
      for (const FusedLeaf& leaf : p.leaves) {
        if (IsTensor(leaf)) {
          EXPECT_EQ(regs[leaf.reg], Value{0});
        }
      }
      for (int r = 0; r < kRegs; ++r) {
        if (std::none_of(p.leaves.begin(), p.leaves.end(),
                         [&](const FusedLeaf& leaf) { return leaf.reg == r; })) {
          EXPECT_EQ(regs[r], kUnusedReg) << "r" << r << " is no leaf's";
        }
      }
      for (Object* o : extra) heap_.Release(o);
      heap_.Release(expected);
      if (::testing::Test::HasFailure()) return;
    }
  }
  RecordProperty("fused", fused);
  RecordProperty("in_place", in_place);
  RecordProperty("rows", rows);
  RecordProperty("columns", columns);
  RecordProperty("where", wheres);
  RecordProperty("bool_leaves", bool_leaves);
  RecordProperty("tolerated_declines", tolerated);
  RecordProperty("compile_ms", static_cast<int>(jit_->stats().compile_nanos / 1000000));
  EXPECT_GT(fused, kPrograms * kInstances / 2) << tolerated << " declined";
  EXPECT_GT(in_place, 20);
  EXPECT_GT(rows, 20);
  EXPECT_GT(columns, 20);
  EXPECT_GT(wheres, kPrograms * kInstances / 3);
  EXPECT_GT(bool_leaves, 40);
}

// ---- Moved leaves ----

TEST_P(TensorFused, MovedLeafWithTheResultsShapeIsReusedInPlace) {
  std::mt19937 rng(1);
  // relu(x * w + s), x [5, 17] moved, w [17] borrowed, s a Float.
  FusedProgram p;
  p.leaves = {Leaf(3, true), Leaf(7), Leaf(2, false, Kind::kFloat)};
  p.nodes = {Bin(BinaryOp::kMul, 0, 1), Bin(BinaryOp::kAdd, 3, 2), Un(UnaryOp::kRelu, 4)};
  std::vector<Value> regs = Regs();
  Object* x = F32({5, 17}, rng);
  Object* w = F32({17}, rng);
  regs[3] = FromObject(x);
  regs[7] = FromObject(w);
  regs[2] = FromFloat(-0.75);
  const std::vector<uint32_t> w_bits = Bits(w);
  Object* expected = Reference(p, regs.data());
  FusedKernelCache cache;
  Value result = kNoResult;
  ASSERT_TRUE(RunFused(*cx_, p, cache, 1, regs.data(), &result));
  EXPECT_EQ(AsObject(result), x) << "x is the result, in place";
  EXPECT_EQ(regs[3], Value{0});
  EXPECT_EQ(regs[7], FromObject(w));
  EXPECT_EQ(w->refcount, 1u);
  EXPECT_EQ(Bits(w), w_bits);
  EXPECT_EQ(regs[2], FromFloat(-0.75));
  ExpectSameTensor(AsObject(result), expected, "in place");
  heap_.Release(AsObject(result));
  heap_.Release(w);
  heap_.Release(expected);
}

TEST_P(TensorFused, MovedLeavesNotReusedAreReleased) {
  std::mt19937 rng(2);
  // a - b * c: a [4, 9] moved but shared (refcount 2), b [9] moved (a row: not
  // the result's shape), c [1] moved (one element), d [1, 4, 9] borrowed
  // (the result is [1, 4, 9], so even a lone `a` could not be reused).
  FusedProgram p;
  p.leaves = {Leaf(0, true), Leaf(1, true), Leaf(2, true), Leaf(3)};
  p.nodes = {Bin(BinaryOp::kMul, 1, 2), Bin(BinaryOp::kSub, 0, 4), Bin(BinaryOp::kMax, 5, 3)};
  std::vector<Value> regs = Regs();
  Object* a = F32({4, 9}, rng);
  Object* b = F32({9}, rng);
  Object* c = F32({1}, rng);
  Object* d = F32({1, 4, 9}, rng);
  Retain(FromObject(a));
  regs[0] = FromObject(a);
  regs[1] = FromObject(b);
  regs[2] = FromObject(c);
  regs[3] = FromObject(d);
  const std::vector<uint32_t> a_bits = Bits(a), d_bits = Bits(d);
  Object* expected = Reference(p, regs.data());
  const uint64_t live_before = heap_.bytes_live();
  const uint64_t b_bytes = Heap::SizeOf(b), c_bytes = Heap::SizeOf(c);
  FusedKernelCache cache;
  Value result = kNoResult;
  ASSERT_TRUE(RunFused(*cx_, p, cache, 1, regs.data(), &result));
  Object* out = AsObject(result);
  EXPECT_NE(out, a);
  EXPECT_NE(out, d);
  EXPECT_EQ(regs[0], Value{0});
  EXPECT_EQ(regs[1], Value{0});
  EXPECT_EQ(regs[2], Value{0});
  EXPECT_EQ(regs[3], FromObject(d));
  EXPECT_EQ(a->refcount, 1u);
  EXPECT_EQ(Bits(a), a_bits);
  EXPECT_EQ(d->refcount, 1u);
  EXPECT_EQ(Bits(d), d_bits);
  // b and c were freed; the result was allocated.
  EXPECT_EQ(heap_.bytes_live(), live_before - b_bytes - c_bytes + Heap::SizeOf(out));
  ExpectSameTensor(out, expected, "not in place");
  for (Object* o : {out, a, d, expected}) heap_.Release(o);
}

// ---- Aliasing ----

TEST_P(TensorFused, SameObjectInTwoRegistersBorrowedAndMoved) {
  std::mt19937 rng(3);
  // x * x + x: leaf 0 borrows r4, leaf 1 moves r9, both hold x (refcount 2).
  FusedProgram p;
  p.leaves = {Leaf(4), Leaf(9, true)};
  p.nodes = {Bin(BinaryOp::kMul, 0, 1), Bin(BinaryOp::kAdd, 2, 1)};
  Object* x = F32({1031}, rng);
  Retain(FromObject(x));
  std::vector<Value> regs = Regs();
  regs[4] = FromObject(x);
  regs[9] = FromObject(x);
  const std::vector<uint32_t> x_bits = Bits(x);
  Object* expected = Reference(p, regs.data());
  FusedKernelCache cache;
  Value result = kNoResult;
  ASSERT_TRUE(RunFused(*cx_, p, cache, 1, regs.data(), &result));
  EXPECT_NE(AsObject(result), x) << "x is shared: not reusable";
  EXPECT_EQ(regs[4], FromObject(x));
  EXPECT_EQ(regs[9], Value{0});
  EXPECT_EQ(x->refcount, 1u);
  EXPECT_EQ(Bits(x), x_bits);
  ExpectSameTensor(AsObject(result), expected, "x * x + x");
  for (Object* o : {AsObject(result), x, expected}) heap_.Release(o);
}

TEST_P(TensorFused, SameRegisterBorrowedAndMovedIsComputedInPlace) {
  std::mt19937 rng(4);
  // sqrt(x * x) - x with one register read twice and its last use moved:
  // every read of an index happens before the write of that index.
  FusedProgram p;
  p.leaves = {Leaf(5), Leaf(5, true)};
  p.nodes = {Bin(BinaryOp::kMul, 0, 1), Un(UnaryOp::kSqrt, 2), Bin(BinaryOp::kSub, 3, 1)};
  Object* x = F32({3, 333}, rng);
  std::vector<Value> regs = Regs();
  regs[5] = FromObject(x);
  Object* expected = Reference(p, regs.data());
  FusedKernelCache cache;
  Value result = kNoResult;
  ASSERT_TRUE(RunFused(*cx_, p, cache, 1, regs.data(), &result));
  EXPECT_EQ(AsObject(result), x);
  EXPECT_EQ(regs[5], Value{0});
  ExpectSameTensor(AsObject(result), expected, "sqrt(x * x) - x");
  heap_.Release(AsObject(result));
  heap_.Release(expected);
}

// ---- Declines ----

TEST_P(TensorFused, DeclinesLayoutsItDoesNotHandleAndChangesNothing) {
  std::mt19937 rng(5);
  FusedProgram p;
  p.leaves = {Leaf(0, true), Leaf(1, true), Leaf(2, false, Kind::kInt)};
  p.nodes = {Bin(BinaryOp::kAdd, 0, 1), Bin(BinaryOp::kDiv, 3, 2)};
  struct Case {
    const char* what;
    Dims a, b;
  };
  const Case cases[] = {
      {"shapes that do not broadcast", {3, 4}, {5}},
      {"an interior broadcast", {2, 1, 9}, {2, 7, 9}},
      {"a zero-size result", {0, 5}, {5}},
      {"a zero-size result against one element", {0}, {1}},
  };
  for (const Case& c : cases) {
    std::vector<Value> regs = Regs();
    regs[0] = FromObject(F32(c.a, rng));
    regs[1] = FromObject(F32(c.b, rng));
    regs[2] = FromInt(3);
    ExpectDeclines(*cx_, p, regs.data(), c.what);
    ReleaseTensorRegs(p, regs.data());
  }
  {
    // Two row lengths among three leaves: [2, 3, 4] with [4] and [3, 4].
    FusedProgram q;
    q.leaves = {Leaf(0, true), Leaf(1, true), Leaf(2, true)};
    q.nodes = {Bin(BinaryOp::kMul, 0, 1), Bin(BinaryOp::kSub, 3, 2)};
    std::vector<Value> regs = Regs();
    regs[0] = FromObject(F32({2, 3, 4}, rng));
    regs[1] = FromObject(F32({4}, rng));
    regs[2] = FromObject(F32({3, 4}, rng));
    ExpectDeclines(*cx_, q, regs.data(), "rows of two lengths");
    ReleaseTensorRegs(q, regs.data());
    // A column over rows of 63 elements, a row of 9: [2, 7, 9] with [2, 1, 1]
    // and [9].
    regs = Regs();
    regs[0] = FromObject(F32({2, 7, 9}, rng));
    regs[1] = FromObject(F32({2, 1, 1}, rng));
    regs[2] = FromObject(F32({9}, rng));
    ExpectDeclines(*cx_, q, regs.data(), "a row and a column of two lengths");
    ReleaseTensorRegs(q, regs.data());
  }
  {
    // More leaves than a kernel takes: x0 + x1 + ... + x16.
    FusedProgram q;
    std::vector<Value> regs = Regs();
    for (int l = 0; l <= jit::Jit::kMaxFusedLeaves; ++l) {
      q.leaves.push_back(Leaf(static_cast<uint16_t>(l), l % 2 == 0));
      regs[l] = FromObject(F32({16}, rng));
      if (l > 0) {
        const int acc = l == 1 ? 0 : jit::Jit::kMaxFusedLeaves + l - 1;
        q.nodes.push_back(
            Bin(BinaryOp::kAdd, static_cast<uint16_t>(acc), static_cast<uint16_t>(l)));
      }
    }
    ExpectDeclines(*cx_, q, regs.data(), "17 leaves");
    ReleaseTensorRegs(q, regs.data());
  }
  {
    // A tensor leaf that is not f32.
    std::vector<Value> regs = Regs();
    regs[0] = FromObject(F32({8}, rng));
    Object* i = heap_.NewTensor(DType::kI32, Dims{8});
    std::memset(DataOf(i), 0, 32);
    regs[1] = FromObject(i);
    regs[2] = FromInt(3);
    ExpectDeclines(*cx_, p, regs.data(), "an i32 leaf");
    ReleaseTensorRegs(p, regs.data());
  }
  {
    // No JIT in the context.
    TensorContext no_jit(heap_, nullptr);
    std::vector<Value> regs = Regs();
    regs[0] = FromObject(F32({8}, rng));
    regs[1] = FromObject(F32({8}, rng));
    regs[2] = FromInt(3);
    ExpectDeclines(no_jit, p, regs.data(), "no JIT");
    ReleaseTensorRegs(p, regs.data());
  }
}

TEST_P(TensorFused, DeclinesWhenTheResultDoesNotFitTheBudget) {
  std::mt19937 rng(6);
  uint64_t bytes = 0;
  {
    Heap probe(0);
    Object* t = probe.NewTensor(DType::kF32, Dims{4096});
    bytes = Heap::SizeOf(t);
    probe.Release(t);
  }
  Heap small(2 * bytes + bytes / 2);  // the two leaves, not a third tensor
  TensorContext cx(small, jit_.get());
  FusedProgram p;
  p.leaves = {Leaf(0), Leaf(1)};
  p.nodes = {Bin(BinaryOp::kMul, 0, 1)};
  std::vector<Value> regs = Regs();
  for (int r = 0; r < 2; ++r) {
    Object* t = small.NewTensor(DType::kF32, Dims{4096});
    ASSERT_NE(t, nullptr);
    float* x = ElementsOf<float>(t);
    for (int i = 0; i < 4096; ++i) x[i] = RandomFloat(rng);
    regs[r] = FromObject(t);
  }
  const std::vector<Value> before = regs;
  FusedKernelCache cache;
  Value result = kNoResult;
  EXPECT_FALSE(RunFused(cx, p, cache, 1, regs.data(), &result));
  EXPECT_EQ(result, kNoResult);
  EXPECT_EQ(regs, before);
  EXPECT_EQ(AsObject(regs[0])->refcount, 1u);
  EXPECT_EQ(AsObject(regs[1])->refcount, 1u);
  small.Release(AsObject(regs[0]));
  small.Release(AsObject(regs[1]));
  EXPECT_EQ(small.bytes_live(), 0u);
}

TEST(TensorFusedNoAvx2, DeclinesAndChangesNothing) {
  jit::Jit jit(jit::Options{.pretend_no_avx2 = true});
  Heap heap(0);
  TensorContext cx(heap, &jit);
  FusedProgram p;
  p.leaves = {Leaf(0, true), Leaf(1)};
  p.nodes = {Bin(BinaryOp::kMul, 0, 1), Un(UnaryOp::kNeg, 2)};
  std::vector<Value> regs = Regs();
  Object* a = heap.NewTensor(DType::kF32, Dims{100});
  Object* b = heap.NewTensor(DType::kF32, Dims{100});
  for (int i = 0; i < 100; ++i) {
    ElementsOf<float>(a)[i] = static_cast<float>(i);
    ElementsOf<float>(b)[i] = -0.5f * static_cast<float>(i);
  }
  regs[0] = FromObject(a);
  regs[1] = FromObject(b);
  const std::vector<Value> before = regs;
  const std::vector<uint32_t> a_bits = Bits(a), b_bits = Bits(b);
  const uint64_t allocations = heap.allocations(), live = heap.bytes_live();
  FusedKernelCache cache;
  Value result = kNoResult;
  EXPECT_FALSE(RunFused(cx, p, cache, 1, regs.data(), &result));
  EXPECT_EQ(result, kNoResult);
  EXPECT_EQ(regs, before);
  EXPECT_EQ(a->refcount, 1u);
  EXPECT_EQ(b->refcount, 1u);
  EXPECT_EQ(Bits(a), a_bits);
  EXPECT_EQ(Bits(b), b_bits);
  EXPECT_EQ(heap.allocations(), allocations);
  EXPECT_EQ(heap.bytes_live(), live);
  // Declining again (the cached lookup) changes nothing either.
  EXPECT_FALSE(RunFused(cx, p, cache, 1, regs.data(), &result));
  EXPECT_EQ(regs, before);
  EXPECT_EQ(heap.allocations(), allocations);
  heap.Release(a);
  heap.Release(b);
  EXPECT_EQ(heap.bytes_live(), 0u);
}

// ---- Per-site buffers ----

TEST_P(TensorFused, SiteKeepsItsResultBufferBetweenExecutions) {
  std::mt19937 rng(7);
  // x * y + 1.5 (Float), x and y borrowed.
  FusedProgram p;
  p.leaves = {Leaf(0), Leaf(1), Leaf(2, false, Kind::kFloat)};
  p.nodes = {Bin(BinaryOp::kMul, 0, 1), Bin(BinaryOp::kAdd, 3, 2)};
  FusedKernelCache cache;
  constexpr uint32_t kSite = 11;
  auto run = [&](const Dims& xs, const Dims& ys, bool release_result) -> Object* {
    std::vector<Value> regs = Regs();
    Object* x = F32(xs, rng);
    Object* y = F32(ys, rng);
    regs[0] = FromObject(x);
    regs[1] = FromObject(y);
    regs[2] = FromFloat(1.5);
    Object* expected = Reference(p, regs.data());
    Value result = kNoResult;
    EXPECT_TRUE(RunFused(*cx_, p, cache, kSite, regs.data(), &result));
    Object* out = result == kNoResult ? nullptr : AsObject(result);
    if (out != nullptr) ExpectSameTensor(out, expected, ShapeText(xs) + " * " + ShapeText(ys));
    for (Object* o : {x, y, expected}) heap_.Release(o);
    if (release_result && out != nullptr) heap_.Release(out);
    return out;
  };
  Object* first = run({1000}, {1000}, false);
  ASSERT_NE(first, nullptr);
  heap_.Release(first);  // parked at the site
  uint64_t allocations = heap_.allocations();
  Object* second = run({1000}, {}, false);  // another layout: the cache looks up again
  EXPECT_EQ(second, first) << "the site's parked buffer is the result";
  // Reference() allocates its own tensors; count only RunFused's: the two
  // leaves, the reference's 0-d scalar, two nodes are 5 allocations.
  EXPECT_EQ(heap_.allocations(), allocations + 5);
  heap_.Release(second);
  allocations = heap_.allocations();
  Object* third = run({999}, {999}, false);  // another shape: a new buffer
  EXPECT_EQ(heap_.allocations(), allocations + 5 + 1);
  heap_.Release(third);
  // While a result is still alive, the next one is a new buffer.
  Object* a = run({999}, {1}, false);
  allocations = heap_.allocations();
  Object* b = run({999}, {999}, false);
  EXPECT_NE(a, b);
  EXPECT_EQ(heap_.allocations(), allocations + 5 + 1);
  heap_.Release(a);
  heap_.Release(b);
}

INSTANTIATE_TEST_SUITE_P(Isas, TensorFused, ::testing::Values(Path::kAvx2, Path::kAvx512),
                         [](const ::testing::TestParamInfo<Path>& info) {
                           return info.param == Path::kAvx2 ? std::string("Avx2")
                                                            : std::string("Avx512");
                         });

}  // namespace
}  // namespace alea::vm::fused_testing

// vm/tensor_ops.h: broadcasting, result dtypes, in-place reuse of owned
// operands, error messages, and that every path (success or error) leaves
// nothing allocated. f32 constants marked "NumPy" were computed offline with
// NumPy 1.24 (float32 arrays) and pasted here.
#include "vm/tensor_ops.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "vm/heap.h"
#include "vm/kernels/elementwise.h"
#include "vm/kernels/reduce.h"
#include "vm/tensor.h"
#include "vm/value.h"

namespace alea::vm {
namespace {

using kernels::BinaryOp;
using kernels::ReduceOp;
using kernels::UnaryOp;
using Dims = std::vector<int64_t>;

class TensorOps : public ::testing::Test {
 protected:
  // Every test releases what it made: the heap must end empty.
  void TearDown() override { EXPECT_EQ(heap_.bytes_live(), 0u); }

  template <typename T>
  Object* Make(DType dtype, const Dims& shape, const std::vector<T>& values) {
    Object* t = heap_.NewTensor(dtype, shape);
    EXPECT_NE(t, nullptr);
    EXPECT_EQ(SizeOf(t), static_cast<int64_t>(values.size()));
    if (!values.empty()) std::memcpy(DataOf(t), values.data(), values.size() * sizeof(T));
    return t;
  }
  Object* F32(const Dims& shape, const std::vector<float>& v) {
    return Make(DType::kF32, shape, v);
  }
  Object* I32(const Dims& shape, const std::vector<int32_t>& v) {
    return Make(DType::kI32, shape, v);
  }
  Object* U32(const Dims& shape, const std::vector<uint32_t>& v) {
    return Make(DType::kU32, shape, v);
  }
  Object* Bool(const Dims& shape, const std::vector<uint8_t>& v) {
    return Make(DType::kBool, shape, v);
  }

  template <typename T>
  static std::vector<T> Values(const Object* t) {
    const T* p = ElementsOf<T>(t);
    return std::vector<T>(p, p + SizeOf(t));
  }
  static Dims ShapeVec(const Object* t) {
    absl::Span<const int64_t> s = ShapeOf(t);
    return Dims(s.begin(), s.end());
  }

  void Release(Object* t) { heap_.Release(t); }

  // The message of the error the last call recorded.
  std::string Error() {
    EXPECT_FALSE(cx_.out_of_memory());
    return cx_.TakeError().message;
  }

  Heap heap_{0};
  TensorContext cx_{heap_};
};

TensorArg Own(Object* t) { return TensorArg{t, true}; }
TensorArg Borrow(Object* t) { return TensorArg{t, false}; }

// ---- Binary ----

TEST_F(TensorOps, BroadcastRowAgainstMatrix) {
  Object* a = F32({2, 3}, {0.1f, 0.7f, -3.3f, 1e-3f, 123.456f, 2.5f});
  Object* b = F32({3}, {3.0f, 0.3f, 7.1f});
  // NumPy: a / b, a * b, a - b, a + b.
  const std::vector<std::pair<BinaryOp, std::vector<float>>> cases = {
      {BinaryOp::kDiv,
       {0.033333335f, 2.3333333f, -0.46478873f, 0.00033333336f, 411.52f, 0.35211268f}},
      {BinaryOp::kMul, {0.3f, 0.21000001f, -23.429998f, 0.003f, 37.0368f, 17.75f}},
      {BinaryOp::kSub, {-2.9f, 0.39999998f, -10.4f, -2.999f, 123.156f, -4.6f}},
      {BinaryOp::kAdd, {3.1f, 1.0f, 3.8f, 3.001f, 123.756004f, 9.6f}},
  };
  for (const auto& [op, expected] : cases) {
    Object* r = Binary(cx_, op, Borrow(a), Borrow(b));
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(ShapeVec(r), (Dims{2, 3}));
    EXPECT_EQ(DTypeOf(r), DType::kF32);
    EXPECT_EQ(Values<float>(r), expected) << kernels::Spelling(op);
    Release(r);
  }
  // The other way round broadcasts the same.
  Object* r = Binary(cx_, BinaryOp::kSub, Borrow(b), Borrow(a));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Values<float>(r),
            (std::vector<float>{2.9f, -0.39999998f, 10.4f, 2.999f, -123.156f, 4.6f}));
  Release(r);
  Release(a);
  Release(b);
}

TEST_F(TensorOps, OuterProductByBroadcasting) {
  Object* a = I32({2, 1}, {2, 3});
  Object* b = I32({1, 3}, {1, 10, 100});
  Object* r = Binary(cx_, BinaryOp::kMul, Borrow(a), Borrow(b));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{2, 3}));
  EXPECT_EQ(Values<int32_t>(r), (std::vector<int32_t>{2, 20, 200, 3, 30, 300}));
  Release(r);
  // Different ranks: [3, 1, 2] + [4, 1] -> [3, 4, 2].
  Object* c = I32({3, 1, 2}, {0, 1, 10, 11, 20, 21});
  Object* d = I32({4, 1}, {100, 200, 300, 400});
  r = Binary(cx_, BinaryOp::kAdd, Borrow(c), Borrow(d));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{3, 4, 2}));
  std::vector<int32_t> expected;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 2; ++k) expected.push_back(10 * i + k + 100 * (j + 1));
    }
  }
  EXPECT_EQ(Values<int32_t>(r), expected);
  Release(r);
  Release(a);
  Release(b);
  Release(c);
  Release(d);
}

TEST_F(TensorOps, ZeroDimensionalOperands) {
  Object* s = F32({}, {2.0f});
  Object* m = F32({2, 2}, {1.0f, 2.0f, 3.0f, 4.0f});
  Object* r = Binary(cx_, BinaryOp::kSub, Borrow(s), Borrow(m));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{2, 2}));
  EXPECT_EQ(Values<float>(r), (std::vector<float>{1.0f, 0.0f, -1.0f, -2.0f}));
  Release(r);
  r = Binary(cx_, BinaryOp::kMul, Borrow(s), Borrow(s));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{});
  EXPECT_EQ(Values<float>(r), std::vector<float>{4.0f});
  Release(r);
  Release(s);
  Release(m);
}

TEST_F(TensorOps, EmptyDimensions) {
  Object* e = F32({0, 3}, {});
  Object* row = F32({3}, {1.0f, 2.0f, 3.0f});
  Object* one = F32({1}, {5.0f});
  Object* zero = F32({0}, {});
  Object* r = Binary(cx_, BinaryOp::kAdd, Borrow(e), Borrow(row));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{0, 3}));
  EXPECT_EQ(SizeOf(r), 0);
  Release(r);
  // A 1 against a 0 gives 0, either way round.
  r = Binary(cx_, BinaryOp::kAdd, Borrow(one), Borrow(zero));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{0});
  Release(r);
  r = Binary(cx_, BinaryOp::kLt, Borrow(zero), Borrow(one));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{0});
  EXPECT_EQ(DTypeOf(r), DType::kBool);
  Release(r);
  // 0 against 3 does not broadcast.
  EXPECT_EQ(Binary(cx_, BinaryOp::kAdd, Borrow(zero), Borrow(row)), nullptr);
  EXPECT_EQ(Error(), "shapes (0,) and (3,) cannot be broadcast together in `+`");
  Release(e);
  Release(row);
  Release(one);
  Release(zero);
}

TEST_F(TensorOps, BroadcastErrorConsumesOwnedOperands) {
  Object* a = F32({2, 3}, std::vector<float>(6, 1.0f));
  Object* b = F32({2}, {1.0f, 2.0f});
  EXPECT_EQ(Binary(cx_, BinaryOp::kMax, Own(a), Own(b)), nullptr);
  EXPECT_EQ(Error(), "shapes (2, 3) and (2,) cannot be broadcast together in `max`");
  // Both references were consumed: nothing is left (checked by TearDown).
  Object* c = F32({4, 1, 3}, std::vector<float>(12, 1.0f));
  Object* d = F32({2, 5, 1}, std::vector<float>(10, 1.0f));
  EXPECT_EQ(Binary(cx_, BinaryOp::kLe, Borrow(c), Own(d)), nullptr);
  EXPECT_EQ(Error(), "shapes (4, 1, 3) and (2, 5, 1) cannot be broadcast together in `<=`");
  EXPECT_EQ(c->refcount, 1u);
  Release(c);
}

TEST_F(TensorOps, ComparisonsGiveBool) {
  Object* a = F32({4}, {1.0f, 2.0f, NAN, -0.0f});
  Object* b = F32({}, {0.0f});
  struct Case {
    BinaryOp op;
    std::vector<uint8_t> expected;
  };
  const std::vector<Case> cases = {
      {BinaryOp::kEq, {0, 0, 0, 1}}, {BinaryOp::kNe, {1, 1, 1, 0}}, {BinaryOp::kLt, {0, 0, 0, 0}},
      {BinaryOp::kLe, {0, 0, 0, 1}}, {BinaryOp::kGt, {1, 1, 0, 0}}, {BinaryOp::kGe, {1, 1, 0, 1}},
  };
  for (const Case& c : cases) {
    Object* r = Binary(cx_, c.op, Borrow(a), Borrow(b));
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(DTypeOf(r), DType::kBool);
    EXPECT_EQ(ShapeVec(r), Dims{4});
    EXPECT_EQ(Values<uint8_t>(r), c.expected) << kernels::Spelling(c.op);
    Release(r);
  }
  Release(a);
  Release(b);
}

TEST_F(TensorOps, MaxMinFollowNumPy) {
  // NumPy: np.maximum / np.minimum with 0 (NaN wins).
  Object* x = F32({4}, {1.5f, -2.5f, NAN, 3.0f});
  Object* zero = F32({}, {0.0f});
  Object* r = Binary(cx_, BinaryOp::kMax, Borrow(x), Borrow(zero));
  ASSERT_NE(r, nullptr);
  std::vector<float> v = Values<float>(r);
  EXPECT_EQ(v[0], 1.5f);
  EXPECT_EQ(v[1], 0.0f);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], 3.0f);
  Release(r);
  r = Binary(cx_, BinaryOp::kMin, Borrow(x), Borrow(zero));
  ASSERT_NE(r, nullptr);
  v = Values<float>(r);
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_EQ(v[1], -2.5f);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], 0.0f);
  Release(r);
  Release(x);
  Release(zero);
}

TEST_F(TensorOps, IntegerArithmeticChecksAndTruncates) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  Object* a = I32({4}, {kMin + 1, 7, -7, std::numeric_limits<int32_t>::max()});
  Object* b = I32({4}, {-1, 2, 2, 1});
  Object* r = Binary(cx_, BinaryOp::kDiv, Borrow(a), Borrow(b));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Values<int32_t>(r), (std::vector<int32_t>{2147483647, 3, -3, 2147483647}));
  Release(r);
  r = Binary(cx_, BinaryOp::kSub, Borrow(a), Borrow(b));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Values<int32_t>(r), (std::vector<int32_t>{kMin + 2, 5, -9, 2147483646}));
  Release(r);
  // The first element in index order whose sum leaves i32, with its operands.
  EXPECT_EQ(Binary(cx_, BinaryOp::kAdd, Borrow(a), Borrow(b)), nullptr);
  EXPECT_EQ(Error(), "integer overflow in `+` at index 3 (2147483647 + 1)");
  // Broadcast against a row, in place over the owned left operand: the
  // operand still holds the overflowing element for the message.
  Object* m = I32({2, 2}, {1, 2, 3, 2000000000});  // row 0 fits
  Object* row = I32({2}, {10, 200000000});
  EXPECT_EQ(Binary(cx_, BinaryOp::kMul, Own(m), Borrow(row)), nullptr);
  EXPECT_EQ(Error(), "integer overflow in `*` at index (1, 1) (2000000000 * 200000000)");
  Object* q = I32({1}, {kMin});
  Object* minus_one = I32({}, {-1});
  EXPECT_EQ(Binary(cx_, BinaryOp::kDiv, Borrow(q), Borrow(minus_one)), nullptr);
  EXPECT_EQ(Error(), "integer overflow in `/` at index 0 (-2147483648 / -1)");
  Object* u = U32({2}, {0u, 5u});
  Object* one = U32({}, {1u});
  r = Binary(cx_, BinaryOp::kSub, Borrow(u), Borrow(one));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Values<uint32_t>(r), (std::vector<uint32_t>{4294967295u, 4u}));
  Release(r);
  Release(a);
  Release(b);
  Release(row);
  Release(q);
  Release(minus_one);
  Release(u);
  Release(one);
}

TEST_F(TensorOps, DivisionByZero) {
  Object* a = I32({3}, {1, 2, 3});
  Object* b = I32({3}, {1, 0, 1});
  // Borrowed: the fresh result is freed.
  EXPECT_EQ(Binary(cx_, BinaryOp::kDiv, Borrow(a), Borrow(b)), nullptr);
  EXPECT_EQ(Error(), "division by zero");
  EXPECT_EQ(a->refcount, 1u);
  // Owned and reused in place: the partly written operand is freed once.
  EXPECT_EQ(Binary(cx_, BinaryOp::kDiv, Own(a), Borrow(b)), nullptr);
  EXPECT_EQ(Error(), "division by zero");
  // Both owned, the divisor a broadcast 0-d zero.
  Object* c = U32({2, 2}, {1u, 2u, 3u, 4u});
  Object* z = U32({}, {0u});
  EXPECT_EQ(Binary(cx_, BinaryOp::kDiv, Own(c), Own(z)), nullptr);
  EXPECT_EQ(Error(), "division by zero");
  // The divisor reused in place.
  Object* d = I32({}, {5});
  Object* e = I32({2}, {1, 0});
  EXPECT_EQ(Binary(cx_, BinaryOp::kDiv, Borrow(d), Own(e)), nullptr);
  EXPECT_EQ(Error(), "division by zero");
  Release(b);
  Release(d);
}

TEST_F(TensorOps, InPlaceReuse) {
  Object* a = F32({2, 3}, {1, 2, 3, 4, 5, 6});
  Object* b = F32({3}, {10, 20, 30});
  // The only reference, and the result's shape: reused.
  Object* r = Binary(cx_, BinaryOp::kAdd, Own(a), Borrow(b));
  ASSERT_EQ(r, a);
  EXPECT_EQ(Values<float>(r), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  EXPECT_EQ(r->refcount, 1u);
  // b cannot hold a [2, 3] result, so a (the right operand) is.
  Object* r2 = Binary(cx_, BinaryOp::kSub, Own(b), Own(r));
  ASSERT_EQ(r2, a);
  EXPECT_EQ(Values<float>(r2), (std::vector<float>{-1, -2, -3, -4, -5, -6}));
  // Both reusable: the left one is.
  Object* c = F32({2, 3}, std::vector<float>(6, 1.0f));
  Object* r3 = Binary(cx_, BinaryOp::kMul, Own(c), Own(r2));
  ASSERT_EQ(r3, c);
  EXPECT_EQ(Values<float>(r3), (std::vector<float>{-1, -2, -3, -4, -5, -6}));
  Release(r3);
}

TEST_F(TensorOps, NoReuseWhenShared) {
  Object* a = F32({2}, {1, 2});
  ++a->refcount;  // another owner
  Object* r = Binary(cx_, BinaryOp::kAdd, Own(a), Borrow(a));
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r, a);
  EXPECT_EQ(a->refcount, 1u);  // our reference was consumed
  EXPECT_EQ(Values<float>(a), (std::vector<float>{1, 2}));
  EXPECT_EQ(Values<float>(r), (std::vector<float>{2, 4}));
  Release(r);
  // `x + x` where the one reference is moved into the left operand: reusing
  // it is fine, each element is read before it is written.
  r = Binary(cx_, BinaryOp::kAdd, Own(a), Borrow(a));
  ASSERT_EQ(r, a);
  EXPECT_EQ(Values<float>(r), (std::vector<float>{2, 4}));
  Release(r);
}

// A tensor that views host memory is never written. The test fakes one by
// flagging an ordinary tensor, so the heap (which counts no elements for a
// view) under-counts the bytes it frees by exactly the elements' share.
TEST(TensorOpsHostView, NeverReused) {
  Heap heap(0);
  TensorContext cx(heap);
  Object* a = heap.NewTensor(DType::kF32, Dims{2});
  ElementsOf<float>(a)[0] = 1;
  ElementsOf<float>(a)[1] = 2;
  const uint64_t inline_size = Heap::SizeOf(a);
  Head(a)->host_view = 1;
  const uint64_t drift = inline_size - Heap::SizeOf(a);
  ASSERT_GT(drift, 0u);
  Object* r = Unary(cx, UnaryOp::kNeg, TensorArg{a, true});  // consumes a
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r, a);
  EXPECT_EQ(std::vector<float>(ElementsOf<float>(r), ElementsOf<float>(r) + 2),
            (std::vector<float>{-1, -2}));
  heap.Release(r);
  EXPECT_EQ(heap.bytes_live(), drift);

  // Borrowed views are read like any tensor; reset the flag before freeing.
  Object* v = heap.NewTensor(DType::kF32, Dims{2});
  ElementsOf<float>(v)[0] = 3;
  ElementsOf<float>(v)[1] = 4;
  Head(v)->host_view = 1;
  Object* s = Binary(cx, BinaryOp::kMul, TensorArg{v, false}, TensorArg{v, false});
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(ElementsOf<float>(s)[1], 16.0f);
  Object* c = Cast(cx, TensorArg{s, true}, DType::kI32);
  ASSERT_EQ(c, s);  // an ordinary tensor is cast in place
  heap.Release(c);
  Head(v)->host_view = 0;
  heap.Release(v);
  EXPECT_EQ(heap.bytes_live(), drift);
}

TEST_F(TensorOps, NoReuseForComparisonsUnlessBool) {
  Object* a = F32({3}, {1, 2, 3});
  Object* b = F32({3}, {2, 2, 2});
  Object* r = Binary(cx_, BinaryOp::kLt, Own(a), Own(b));
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r, a);
  EXPECT_NE(r, b);
  EXPECT_EQ(Values<uint8_t>(r), (std::vector<uint8_t>{1, 0, 0}));
  // bool == bool has the operands' element size: reused.
  Object* m = Bool({3}, {1, 1, 0});
  Object* r2 = Binary(cx_, BinaryOp::kEq, Own(m), Borrow(r));
  ASSERT_EQ(r2, m);
  EXPECT_EQ(Values<uint8_t>(r2), (std::vector<uint8_t>{1, 0, 1}));
  Release(r);
  Release(r2);
}

TEST_F(TensorOps, DTypeMismatchIsAnInternalError) {
  Object* a = F32({2}, {1, 2});
  Object* b = I32({2}, {1, 2});
  EXPECT_EQ(Binary(cx_, BinaryOp::kAdd, Own(a), Borrow(b)), nullptr);
  EXPECT_EQ(Error(), "internal error: `+` of f32 and i32 tensors");
  Object* m = Bool({2}, {1, 0});
  EXPECT_EQ(Binary(cx_, BinaryOp::kAdd, Borrow(m), Borrow(m)), nullptr);
  EXPECT_EQ(Error(), "internal error: `+` of bool and bool tensors");
  EXPECT_EQ(Unary(cx_, UnaryOp::kExp, Own(b)), nullptr);
  EXPECT_EQ(Error(), "internal error: `exp` of a tensor of dtype i32");
  Release(m);
}

// ---- Unary ----

TEST_F(TensorOps, Unary) {
  Object* x = F32({2, 3}, {0.1f, 0.7f, -3.3f, 1e-3f, 123.456f, 2.5f});
  Object* a = Unary(cx_, UnaryOp::kAbs, Borrow(x));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(ShapeVec(a), (Dims{2, 3}));
  Object* s = Unary(cx_, UnaryOp::kSqrt, Own(a));
  ASSERT_EQ(s, a);  // in place
  // NumPy: np.sqrt(np.abs(x)).
  EXPECT_EQ(Values<float>(s), (std::vector<float>{0.31622776f, 0.83666f, 1.8165902f, 0.03162278f,
                                                  11.111075f, 1.5811388f}));
  Release(s);
  Object* r = Unary(cx_, UnaryOp::kRelu, Borrow(x));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Values<float>(r), (std::vector<float>{0.1f, 0.7f, 0.0f, 1e-3f, 123.456f, 2.5f}));
  Release(r);
  Release(x);
  // exp uses the project's approximation (within 2 ulp of the true value).
  x = F32({2, 3}, {0.1f, 0.7f, -3.3f, 1e-3f, 12.5f, 2.5f});
  Object* e = Unary(cx_, UnaryOp::kExp, Borrow(x));
  ASSERT_NE(e, nullptr);
  const std::vector<float> in = Values<float>(x), out = Values<float>(e);
  for (size_t i = 0; i < in.size(); ++i) {
    const double want = std::exp(static_cast<double>(in[i]));
    EXPECT_NEAR(out[i], want, want * 3e-7) << in[i];
  }
  Release(e);
  Release(x);

  Object* i = I32({3}, {std::numeric_limits<int32_t>::max(), -4, 5});
  Object* n = Unary(cx_, UnaryOp::kNeg, Own(i));
  ASSERT_EQ(n, i);
  EXPECT_EQ(Values<int32_t>(n),
            (std::vector<int32_t>{-std::numeric_limits<int32_t>::max(), 4, -5}));
  Release(n);
  // -INT32_MIN is no i32: an error naming the element, whose value the
  // in-place walk left unwritten.
  Object* m = I32({2, 2}, {1, 2, std::numeric_limits<int32_t>::min(), 3});
  EXPECT_EQ(Unary(cx_, UnaryOp::kNeg, Own(m)), nullptr);
  EXPECT_EQ(Error(), "integer overflow in `-` at index (1, 0) (-(-2147483648))");
  Object* z = F32({0, 2}, {});
  Object* nz = Unary(cx_, UnaryOp::kLog, Borrow(z));
  ASSERT_NE(nz, nullptr);
  EXPECT_EQ(ShapeVec(nz), (Dims{0, 2}));
  Release(nz);
  Release(z);
}

// ---- FromScalar ----

TEST_F(TensorOps, FromScalar) {
  Object* t = FromScalar(cx_, DType::kF32, FromInt(16777217), false);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(ShapeVec(t), Dims{});
  EXPECT_EQ(Values<float>(t), std::vector<float>{16777216.0f});  // nearest even
  Release(t);
  t = FromScalar(cx_, DType::kF32, FromFloat(0.1), true);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Values<float>(t), std::vector<float>{0.1f});
  Release(t);
  t = FromScalar(cx_, DType::kF32, FromFloat(1e300), true);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Values<float>(t), std::vector<float>{std::numeric_limits<float>::infinity()});
  Release(t);
  t = FromScalar(cx_, DType::kI32, FromInt(-2147483648), false);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Values<int32_t>(t), std::vector<int32_t>{std::numeric_limits<int32_t>::min()});
  Release(t);
  t = FromScalar(cx_, DType::kU32, FromInt(4294967295), false);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Values<uint32_t>(t), std::vector<uint32_t>{4294967295u});
  Release(t);
  t = FromScalar(cx_, DType::kBool, FromInt(7), false);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Values<uint8_t>(t), std::vector<uint8_t>{1});
  Release(t);

  EXPECT_EQ(FromScalar(cx_, DType::kI32, FromInt(2147483648), false), nullptr);
  EXPECT_EQ(Error(), "2147483648 does not fit in dtype i32");
  EXPECT_EQ(FromScalar(cx_, DType::kI32, FromInt(-2147483649), false), nullptr);
  EXPECT_EQ(Error(), "-2147483649 does not fit in dtype i32");
  EXPECT_EQ(FromScalar(cx_, DType::kU32, FromInt(-1), false), nullptr);
  EXPECT_EQ(Error(), "-1 does not fit in dtype u32");
  EXPECT_EQ(FromScalar(cx_, DType::kU32, FromInt(4294967296), false), nullptr);
  EXPECT_EQ(Error(), "4294967296 does not fit in dtype u32");
  EXPECT_EQ(FromScalar(cx_, DType::kI32, FromFloat(1.0), true), nullptr);
  EXPECT_EQ(cx_.TakeError().id, RuntimeErrorId::kBadCall);
}

// ---- Where ----

TEST_F(TensorOps, WhereBroadcastsThreeWays) {
  Object* mask = Bool({2, 1}, {1, 0});
  Object* a = F32({3}, {1, 2, 3});
  Object* b = F32({}, {-1});
  Object* r = Where(cx_, mask, a, b);
  ASSERT_NE(r, nullptr);
  // NumPy: np.where([[True], [False]], [1, 2, 3], -1).
  EXPECT_EQ(ShapeVec(r), (Dims{2, 3}));
  EXPECT_EQ(Values<float>(r), (std::vector<float>{1, 2, 3, -1, -1, -1}));
  Release(r);
  Object* c = F32({2}, {5, 6});
  EXPECT_EQ(Where(cx_, mask, a, c), nullptr);
  EXPECT_EQ(Error(), "shapes (2, 1), (3,) and (2,) cannot be broadcast together in `where`");
  Object* m = Bool({2}, {0, 1});
  r = Where(cx_, m, c, b);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Values<float>(r), (std::vector<float>{-1, 6}));
  Release(r);
  EXPECT_EQ(Where(cx_, a, a, a), nullptr);
  EXPECT_EQ(cx_.TakeError().id, RuntimeErrorId::kBadCall);
  for (Object* t : {mask, a, b, c, m}) Release(t);
}

// ---- Cast ----

TEST_F(TensorOps, CastConverts) {
  // NumPy: .astype(np.int32) truncates toward zero.
  Object* x = F32({4}, {-1.5f, 2.7f, -0.9f, 1e9f});
  Object* r = Cast(cx_, Borrow(x), DType::kI32);
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r, x);
  EXPECT_EQ(DTypeOf(r), DType::kI32);
  EXPECT_EQ(Values<int32_t>(r), (std::vector<int32_t>{-1, 2, 0, 1000000000}));
  // i32 -> u32 wraps, in place (same element size).
  Object* u = Cast(cx_, Own(r), DType::kU32);
  ASSERT_EQ(u, r);
  EXPECT_EQ(DTypeOf(u), DType::kU32);
  EXPECT_EQ(Values<uint32_t>(u), (std::vector<uint32_t>{4294967295u, 2u, 0u, 1000000000u}));
  // To bool changes the element size: a new tensor, the operand released.
  Object* b = Cast(cx_, Own(u), DType::kBool);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(Values<uint8_t>(b), (std::vector<uint8_t>{1, 1, 0, 1}));
  Object* f = Cast(cx_, Own(b), DType::kF32);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(ShapeVec(f), Dims{4});
  EXPECT_EQ(Values<float>(f), (std::vector<float>{1, 1, 0, 1}));
  Release(f);
  // In place f32 -> i32.
  Object* y = F32({2, 2}, {0.5f, -2.5f, 3.0f, -0.0f});
  Object* yi = Cast(cx_, Own(y), DType::kI32);
  ASSERT_EQ(yi, y);
  EXPECT_EQ(ShapeVec(yi), (Dims{2, 2}));
  EXPECT_EQ(Values<int32_t>(yi), (std::vector<int32_t>{0, -2, 3, 0}));
  Release(yi);
  Release(x);
}

TEST_F(TensorOps, CastToSameDTypeShares) {
  Object* x = F32({2}, {1, 2});
  Object* r = Cast(cx_, Borrow(x), DType::kF32);
  EXPECT_EQ(r, x);
  EXPECT_EQ(x->refcount, 2u);
  Object* r2 = Cast(cx_, Own(r), DType::kF32);
  EXPECT_EQ(r2, x);
  EXPECT_EQ(x->refcount, 2u);
  Release(r2);
  Release(x);
}

TEST_F(TensorOps, CastErrors) {
  Object* x = F32({3}, {1.0f, 3e9f, NAN});
  EXPECT_EQ(Cast(cx_, Borrow(x), DType::kI32), nullptr);
  EXPECT_EQ(Error(), "`cast` of 3000000000.0 to i32 is out of range");
  Object* y = F32({3}, {1.0f, NAN, 3e9f});
  EXPECT_EQ(Cast(cx_, Borrow(y), DType::kU32), nullptr);
  EXPECT_EQ(Error(), "`cast` of NaN to u32");
  // Owned and converted in place up to the bad element: still reported
  // exactly, and freed.
  Object* z = F32({3}, {1.0f, 2.0f, -1.0f});
  EXPECT_EQ(Cast(cx_, Own(z), DType::kU32), nullptr);
  EXPECT_EQ(Error(), "`cast` of -1.0 to u32 is out of range");
  Object* w = F32({2}, {-2147483904.0f, 0.0f});
  EXPECT_EQ(Cast(cx_, Own(w), DType::kI32), nullptr);
  EXPECT_EQ(Error(), "`cast` of -2147483904.0 to i32 is out of range");
  // Values print as NumPy's str(np.float32(x)): scientific from 1e16.
  Object* v = F32({1}, {1e20f});
  EXPECT_EQ(Cast(cx_, Borrow(v), DType::kU32), nullptr);
  EXPECT_EQ(Error(), "`cast` of 1.0000000200408773e+20 to u32 is out of range");
  Release(x);
  Release(y);
  Release(v);
}

// ---- Reduce ----

TEST_F(TensorOps, ReduceWholeAndAlongAxes) {
  Object* x = I32({2, 3}, {1, 5, 3, 4, 2, 6});
  Object* r = Reduce(cx_, ReduceOp::kSum, x, std::nullopt);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{});
  EXPECT_EQ(Values<int32_t>(r), std::vector<int32_t>{21});
  Release(r);
  r = Reduce(cx_, ReduceOp::kSum, x, 0);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{3});
  EXPECT_EQ(Values<int32_t>(r), (std::vector<int32_t>{5, 7, 9}));
  Release(r);
  r = Reduce(cx_, ReduceOp::kMax, x, -1);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{2});
  EXPECT_EQ(Values<int32_t>(r), (std::vector<int32_t>{5, 6}));
  Release(r);
  r = Reduce(cx_, ReduceOp::kMin, x, -2);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Values<int32_t>(r), (std::vector<int32_t>{1, 2, 3}));
  Release(r);
  r = Reduce(cx_, ReduceOp::kArgmax, x, 1);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(DTypeOf(r), DType::kI32);
  EXPECT_EQ(Values<int32_t>(r), (std::vector<int32_t>{1, 2}));
  Release(r);
  r = Reduce(cx_, ReduceOp::kArgmax, x, std::nullopt);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{});
  EXPECT_EQ(Values<int32_t>(r), std::vector<int32_t>{5});
  Release(r);
  Release(x);

  // A middle axis: [2, 3, 2] along 1.
  Object* y = F32({2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  r = Reduce(cx_, ReduceOp::kSum, y, 1);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{2, 2}));
  EXPECT_EQ(Values<float>(r), (std::vector<float>{9, 12, 27, 30}));
  Release(r);
  r = Reduce(cx_, ReduceOp::kArgmax, y, 0);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(DTypeOf(r), DType::kI32);
  EXPECT_EQ(ShapeVec(r), (Dims{3, 2}));
  EXPECT_EQ(Values<int32_t>(r), std::vector<int32_t>(6, 1));
  Release(r);
  Release(y);

  // NumPy: np.mean([[0.1, 0.2], [1.1, 2.7]], axis=1) in float32.
  Object* m = F32({2, 2}, {0.1f, 0.2f, 1.1f, 2.7f});
  r = Reduce(cx_, ReduceOp::kMean, m, 1);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Values<float>(r), (std::vector<float>{0.15f, 1.9000001f}));
  Release(r);
  Release(m);
}

TEST_F(TensorOps, ReduceZeroDimensionalAndEmpty) {
  Object* s = F32({}, {2.5f});
  Object* r = Reduce(cx_, ReduceOp::kMax, s, std::nullopt);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{});
  EXPECT_EQ(Values<float>(r), std::vector<float>{2.5f});
  Release(r);
  EXPECT_EQ(Reduce(cx_, ReduceOp::kSum, s, 0), nullptr);
  EXPECT_EQ(Error(), "axis 0 is out of range for a tensor of shape ()");

  Object* e = F32({0, 3}, {});
  r = Reduce(cx_, ReduceOp::kSum, e, std::nullopt);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Values<float>(r), std::vector<float>{0.0f});
  Release(r);
  r = Reduce(cx_, ReduceOp::kSum, e, 0);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{3});
  EXPECT_EQ(Values<float>(r), (std::vector<float>{0, 0, 0}));
  Release(r);
  r = Reduce(cx_, ReduceOp::kMean, e, std::nullopt);
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(std::isnan(Values<float>(r)[0]));
  Release(r);
  // Along the non-empty axis there is nothing to reduce: an empty result.
  r = Reduce(cx_, ReduceOp::kMax, e, 1);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{0});
  Release(r);
  EXPECT_EQ(Reduce(cx_, ReduceOp::kMax, e, 0), nullptr);
  EXPECT_EQ(Error(), "`max` of an empty sequence (shape (0, 3))");
  EXPECT_EQ(Reduce(cx_, ReduceOp::kMin, e, std::nullopt), nullptr);
  EXPECT_EQ(Error(), "`min` of an empty sequence (shape (0, 3))");
  EXPECT_EQ(Reduce(cx_, ReduceOp::kArgmax, e, -2), nullptr);
  EXPECT_EQ(Error(), "`argmax` of an empty sequence (shape (0, 3))");
  Release(s);
  Release(e);
}

TEST_F(TensorOps, ReduceAxisOutOfRange) {
  Object* x = F32({2, 3}, std::vector<float>(6, 1.0f));
  EXPECT_EQ(Reduce(cx_, ReduceOp::kSum, x, 2), nullptr);
  EXPECT_EQ(Error(), "axis 2 is out of range for a tensor of shape (2, 3)");
  EXPECT_EQ(Reduce(cx_, ReduceOp::kArgmax, x, -3), nullptr);
  EXPECT_EQ(Error(), "axis -3 is out of range for a tensor of shape (2, 3)");
  EXPECT_EQ(Reduce(cx_, ReduceOp::kMax, x, std::numeric_limits<int64_t>::min()), nullptr);
  EXPECT_EQ(Error(), "axis -9223372036854775808 is out of range for a tensor of shape (2, 3)");
  Object* i = I32({2}, {1, 2});
  EXPECT_EQ(Reduce(cx_, ReduceOp::kMean, i, std::nullopt), nullptr);
  EXPECT_EQ(cx_.TakeError().id, RuntimeErrorId::kBadCall);
  Release(x);
  Release(i);
}

// ---- MatMul ----

// The reference definition: an FMA chain over ascending k from +0.0.
std::vector<float> NaiveMatMul(const std::vector<float>& a, const std::vector<float>& b, int64_t m,
                               int64_t k, int64_t n) {
  std::vector<float> out(m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < k; ++p) acc = std::fma(a[i * k + p], b[p * n + j], acc);
      out[i * n + j] = acc;
    }
  }
  return out;
}

std::vector<float> Sequence(int64_t count, float scale) {
  std::vector<float> v(count);
  for (int64_t i = 0; i < count; ++i) v[i] = std::sin(static_cast<float>(i) * 0.7f) * scale;
  return v;
}

TEST_F(TensorOps, MatMul2D) {
  const std::vector<float> av = Sequence(3 * 4, 1.3f), bv = Sequence(4 * 5, 0.9f);
  Object* a = F32({3, 4}, av);
  Object* b = F32({4, 5}, bv);
  Object* r = MatMul(cx_, a, b);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{3, 5}));
  EXPECT_EQ(Values<float>(r), NaiveMatMul(av, bv, 3, 4, 5));
  Release(r);
  Object* i = I32({2, 2}, {1, 2, 3, 4});
  Object* j = I32({2, 2}, {5, 6, 7, 8});
  r = MatMul(cx_, i, j);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Values<int32_t>(r), (std::vector<int32_t>{19, 22, 43, 50}));
  Release(r);
  for (Object* t : {a, b, i, j}) Release(t);
}

TEST_F(TensorOps, MatMulVectors) {
  Object* v = F32({3}, {1, 2, 3});
  Object* w = F32({3}, {4, 5, 6});
  Object* m = F32({3, 2}, {1, 2, 3, 4, 5, 6});
  Object* mt = F32({2, 3}, {1, 3, 5, 2, 4, 6});
  Object* r = MatMul(cx_, v, w);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{});
  EXPECT_EQ(Values<float>(r), std::vector<float>{32});
  Release(r);
  r = MatMul(cx_, v, m);  // [3] @ [3, 2] -> [2]
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{2});
  EXPECT_EQ(Values<float>(r), (std::vector<float>{22, 28}));
  Release(r);
  r = MatMul(cx_, mt, v);  // [2, 3] @ [3] -> [2]
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), Dims{2});
  EXPECT_EQ(Values<float>(r), (std::vector<float>{22, 28}));
  Release(r);
  for (Object* t : {v, w, m, mt}) Release(t);
}

TEST_F(TensorOps, MatMulBatched) {
  // [2, 1, 3, 4] @ [5, 4, 2] -> [2, 5, 3, 2]: x's batch axis of 1 and y's
  // missing leading axis broadcast.
  const std::vector<float> xv = Sequence(2 * 3 * 4, 1.1f), yv = Sequence(5 * 4 * 2, 0.7f);
  Object* x = F32({2, 1, 3, 4}, xv);
  Object* y = F32({5, 4, 2}, yv);
  Object* r = MatMul(cx_, x, y);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{2, 5, 3, 2}));
  std::vector<float> expected;
  for (int bi = 0; bi < 2; ++bi) {
    for (int bj = 0; bj < 5; ++bj) {
      const std::vector<float> xs(xv.begin() + bi * 12, xv.begin() + bi * 12 + 12);
      const std::vector<float> ys(yv.begin() + bj * 8, yv.begin() + bj * 8 + 8);
      for (float f : NaiveMatMul(xs, ys, 3, 4, 2)) expected.push_back(f);
    }
  }
  EXPECT_EQ(Values<float>(r), expected);
  Release(r);
  // A 1-d operand against a batch: [4] @ [5, 4, 2] -> [5, 2].
  Object* v = F32({4}, {1, -1, 2, 0.5f});
  r = MatMul(cx_, v, y);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{5, 2}));
  expected.clear();
  for (int bj = 0; bj < 5; ++bj) {
    const std::vector<float> ys(yv.begin() + bj * 8, yv.begin() + bj * 8 + 8);
    for (float f : NaiveMatMul({1, -1, 2, 0.5f}, ys, 1, 4, 2)) expected.push_back(f);
  }
  EXPECT_EQ(Values<float>(r), expected);
  Release(r);
  for (Object* t : {x, y, v}) Release(t);
}

TEST_F(TensorOps, MatMulEmpty) {
  Object* a = F32({2, 0}, {});
  Object* b = F32({0, 3}, {});
  Object* r = MatMul(cx_, a, b);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{2, 3}));
  EXPECT_EQ(Values<float>(r), std::vector<float>(6, 0.0f));
  Release(r);
  Object* e = F32({3, 0}, {});
  r = MatMul(cx_, b, e);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{0, 0}));
  Release(r);
  Object* c = F32({0, 2, 3}, {});
  Object* d = F32({3, 4}, std::vector<float>(12, 1.0f));
  r = MatMul(cx_, c, d);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ShapeVec(r), (Dims{0, 2, 4}));
  Release(r);
  for (Object* t : {a, b, c, d, e}) Release(t);
}

TEST_F(TensorOps, MatMulErrors) {
  Object* a = F32({2, 3}, std::vector<float>(6, 1.0f));
  Object* s = F32({}, {1});
  Object* v = F32({3}, {1, 2, 3});
  Object* w = F32({2}, {1, 2});
  EXPECT_EQ(MatMul(cx_, a, a), nullptr);
  EXPECT_EQ(Error(), "shapes (2, 3) and (2, 3) do not match in `@`");
  EXPECT_EQ(MatMul(cx_, s, v), nullptr);
  EXPECT_EQ(Error(), "`@` of a 0-d tensor (shapes () and (3,))");
  EXPECT_EQ(MatMul(cx_, a, s), nullptr);
  EXPECT_EQ(Error(), "`@` of a 0-d tensor (shapes (2, 3) and ())");
  EXPECT_EQ(MatMul(cx_, v, w), nullptr);
  EXPECT_EQ(Error(), "shapes (3,) and (2,) do not match in `@`");
  EXPECT_EQ(MatMul(cx_, a, w), nullptr);
  EXPECT_EQ(Error(), "shapes (2, 3) and (2,) do not match in `@`");
  Object* x = F32({2, 2, 3}, std::vector<float>(12, 1.0f));
  Object* y = F32({3, 3, 1}, std::vector<float>(9, 1.0f));
  EXPECT_EQ(MatMul(cx_, x, y), nullptr);
  EXPECT_EQ(Error(), "shapes (2, 2, 3) and (3, 3, 1) do not match in `@`");
  for (Object* t : {a, s, v, w, x, y}) Release(t);
}

// ---- Allocation failures ----

TEST_F(TensorOps, BadShape) {
  EXPECT_EQ(cx_.New(DType::kF32, Dims{2, -1}), nullptr);
  EXPECT_EQ(Error(), "invalid shape (2, -1)");
  EXPECT_EQ(cx_.New(DType::kBool, Dims(33, 1)), nullptr);
  EXPECT_EQ(Error().substr(0, 17), "invalid shape (1,");
  // Three 2^16-element operands whose broadcast would hold 2^48 f32s.
  Object* m = Bool({1 << 16, 1, 1}, std::vector<uint8_t>(1 << 16, 0));
  Object* a = F32({1, 1 << 16, 1}, std::vector<float>(1 << 16, 0.0f));
  Object* b = F32({1, 1, 1 << 16}, std::vector<float>(1 << 16, 0.0f));
  EXPECT_EQ(Where(cx_, m, a, b), nullptr);
  EXPECT_EQ(Error(), "invalid shape (65536, 65536, 65536)");
  for (Object* t : {m, a, b}) Release(t);
}

TEST(TensorOpsBudget, OutOfMemoryConsumesOwnedOperands) {
  Heap heap(1024);
  TensorContext cx(heap);
  Object* a = heap.NewTensor(DType::kF32, Dims{16});
  Object* b = heap.NewTensor(DType::kF32, Dims{16, 1});
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  std::memset(DataOf(a), 0, 64);
  std::memset(DataOf(b), 0, 64);
  // A [16, 16] result does not fit in what is left.
  EXPECT_EQ(Binary(cx, BinaryOp::kAdd, TensorArg{a, true}, TensorArg{b, true}), nullptr);
  EXPECT_TRUE(cx.out_of_memory());
  EXPECT_EQ(heap.bytes_live(), 0u);
}

}  // namespace
}  // namespace alea::vm

// vm/tensor_ops.h "Shapes and creation" (vm/tensor_layout.cc), called
// directly on a Heap: values, shapes, error messages, in-place reshape, views, and
// that every path releases what it should (bytes_live back to 0).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "vm/heap.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

class TensorLayout : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_EQ(heap_.bytes_live(), 0u); }

  Object* F32(std::vector<int64_t> shape, std::vector<float> values) {
    Object* t = cx_.New(DType::kF32, shape);
    EXPECT_NE(t, nullptr);
    EXPECT_EQ(SizeOf(t), static_cast<int64_t>(values.size()));
    if (!values.empty()) std::memcpy(DataOf(t), values.data(), values.size() * sizeof(float));
    return t;
  }
  // 0, 1, 2... as f32 in `shape`.
  Object* Iota(std::vector<int64_t> shape) {
    Object* t = cx_.New(DType::kF32, shape);
    EXPECT_NE(t, nullptr);
    for (int64_t i = 0; i < SizeOf(t); ++i) ElementsOf<float>(t)[i] = static_cast<float>(i);
    return t;
  }
  static std::vector<float> Floats(const Object* t) {
    return std::vector<float>(ElementsOf<float>(t), ElementsOf<float>(t) + SizeOf(t));
  }
  static std::vector<int64_t> Shape(const Object* t) {
    return std::vector<int64_t>(ShapeOf(t).begin(), ShapeOf(t).end());
  }
  // The message of the failure just recorded.
  std::string Error(Object* result) {
    EXPECT_EQ(result, nullptr);
    if (result != nullptr) {
      heap_.Release(result);
      return "(no error)";
    }
    EXPECT_FALSE(cx_.out_of_memory());
    return cx_.TakeError().message;
  }
  void Release(Object* t) { heap_.Release(t); }

  Heap heap_{0};
  TensorContext cx_{heap_};
};

TEST_F(TensorLayout, Full) {
  const std::vector<int64_t> shape = {2, 3};
  Object* f = Full(cx_, DType::kF32, shape, std::bit_cast<uint32_t>(1.5f));
  EXPECT_EQ(Shape(f), shape);
  EXPECT_EQ(Floats(f), std::vector<float>(6, 1.5f));
  Release(f);

  Object* i = Full(cx_, DType::kI32, {shape.data(), 1}, static_cast<uint32_t>(-7));
  EXPECT_EQ(Shape(i), std::vector<int64_t>{2});
  EXPECT_EQ(ElementsOf<int32_t>(i)[0], -7);
  EXPECT_EQ(ElementsOf<int32_t>(i)[1], -7);
  Release(i);

  Object* b = Full(cx_, DType::kBool, shape, 1);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(ElementsOf<uint8_t>(b)[k], 1);
  Release(b);

  // A NaN's payload survives: the value is bits, never converted.
  Object* nan = Full(cx_, DType::kF32, {}, 0x7fc00123u);
  EXPECT_EQ(RankOf(nan), 0);
  EXPECT_EQ(ElementsOf<uint32_t>(nan)[0], 0x7fc00123u);
  Release(nan);

  const std::vector<int64_t> empty = {0, 3};
  Object* e = Full(cx_, DType::kU32, empty, 5);
  EXPECT_EQ(Shape(e), empty);
  EXPECT_EQ(SizeOf(e), 0);
  Release(e);

  const std::vector<int64_t> negative = {2, -1};
  EXPECT_EQ(Error(Full(cx_, DType::kF32, negative, 0)), "invalid shape (2, -1)");
}

TEST_F(TensorLayout, Arange) {
  Object* f = Arange(cx_, DType::kF32, -2, 3);
  EXPECT_EQ(Shape(f), std::vector<int64_t>{5});
  EXPECT_EQ(Floats(f), (std::vector<float>{-2, -1, 0, 1, 2}));
  Release(f);

  // Each element rounds to nearest even on its own: 2^24 + 1 is not an f32.
  Object* r = Arange(cx_, DType::kF32, (1 << 24) + 1, (1 << 24) + 3);
  EXPECT_EQ(Floats(r), (std::vector<float>{16777216.0f, 16777218.0f}));
  Release(r);

  Object* i = Arange(cx_, DType::kI32, -3, 0);
  EXPECT_EQ(ElementsOf<int32_t>(i)[0], -3);
  EXPECT_EQ(ElementsOf<int32_t>(i)[2], -1);
  Release(i);

  Object* u = Arange(cx_, DType::kU32, 4294967294, 4294967296);
  EXPECT_EQ(ElementsOf<uint32_t>(u)[0], 4294967294u);
  EXPECT_EQ(ElementsOf<uint32_t>(u)[1], 4294967295u);
  Release(u);

  for (int64_t stop : {5, 4}) {
    Object* e = Arange(cx_, DType::kI32, 5, stop);
    EXPECT_EQ(Shape(e), std::vector<int64_t>{0});
    Release(e);
  }
  // Empty ranges need not fit.
  Object* e = Arange(cx_, DType::kU32, -5, -5);
  EXPECT_EQ(SizeOf(e), 0);
  Release(e);

  EXPECT_EQ(Error(Arange(cx_, DType::kI32, 2147483646, 2147483649)),
            "2147483648 does not fit in dtype i32");
  EXPECT_EQ(Error(Arange(cx_, DType::kI32, -2147483649, 0)),
            "-2147483649 does not fit in dtype i32");
  EXPECT_EQ(Error(Arange(cx_, DType::kU32, -1, 3)), "-1 does not fit in dtype u32");
  EXPECT_EQ(Error(Arange(cx_, DType::kF32, std::numeric_limits<int64_t>::min(),
                         std::numeric_limits<int64_t>::max())),
            "invalid shape (9223372036854775807,)");
}

TEST_F(TensorLayout, ReshapeCopies) {
  Object* x = Iota({2, 3});
  const std::vector<int64_t> to = {3, 1, 2};
  Object* y = Reshape(cx_, {x, false}, to);
  ASSERT_NE(y, nullptr);
  EXPECT_NE(y, x);
  EXPECT_EQ(Shape(y), to);
  EXPECT_EQ(Floats(y), Floats(x));
  Release(y);

  const std::vector<int64_t> inferred = {-1, 2};
  y = Reshape(cx_, {x, false}, inferred);
  EXPECT_EQ(Shape(y), (std::vector<int64_t>{3, 2}));
  Release(y);
  const std::vector<int64_t> flat = {-1};
  y = Reshape(cx_, {x, false}, flat);
  EXPECT_EQ(Shape(y), std::vector<int64_t>{6});
  Release(y);
  y = Reshape(cx_, {x, false}, {});
  EXPECT_EQ(Error(y), "cannot reshape a tensor of shape (2, 3) (6 elements) into ()");
  // The same shape: the operand itself, shared.
  const std::vector<int64_t> same = {2, -1};
  y = Reshape(cx_, {x, false}, same);
  EXPECT_EQ(y, x);
  EXPECT_EQ(x->refcount, 2u);
  Release(y);
  Release(x);

  Object* one = Iota({1, 1});
  y = Reshape(cx_, {one, false}, {});
  EXPECT_EQ(Shape(y), std::vector<int64_t>{});
  Release(y);
  Release(one);

  // Zero elements: any shape with a 0 matches; a -1 beside a 0 is ambiguous.
  Object* z = Iota({0, 4});
  const std::vector<int64_t> z1 = {2, 0, 5};
  y = Reshape(cx_, {z, false}, z1);
  EXPECT_EQ(Shape(y), z1);
  Release(y);
  const std::vector<int64_t> huge = {int64_t{1} << 40, int64_t{1} << 40, 0};
  EXPECT_EQ(Error(Reshape(cx_, {z, false}, huge)),
            "invalid shape (1099511627776, 1099511627776, 0)");
  const std::vector<int64_t> z2 = {0, -1};
  EXPECT_EQ(Error(Reshape(cx_, {z, false}, z2)),
            "cannot reshape a tensor of shape (0, 4) (0 elements) into (0, -1)");
  Release(z);
}

TEST_F(TensorLayout, ReshapeErrors) {
  Object* x = Iota({2, 3});
  const std::vector<int64_t> big = {4, -1};
  EXPECT_EQ(Error(Reshape(cx_, {x, false}, big)),
            "cannot reshape a tensor of shape (2, 3) (6 elements) into (4, -1)");
  const std::vector<int64_t> wrong = {7};
  EXPECT_EQ(Error(Reshape(cx_, {x, false}, wrong)),
            "cannot reshape a tensor of shape (2, 3) (6 elements) into (7,)");
  const std::vector<int64_t> two = {-1, -1, 6};
  EXPECT_EQ(Error(Reshape(cx_, {x, false}, two)), "invalid shape (-1, -1, 6)");
  const std::vector<int64_t> neg = {-2, -3};
  EXPECT_EQ(Error(Reshape(cx_, {x, false}, neg)), "invalid shape (-2, -3)");
  const std::vector<int64_t> overflow = {1 << 30, 1 << 30, 1 << 30, -1};
  EXPECT_EQ(Error(Reshape(cx_, {x, false}, overflow)),
            "cannot reshape a tensor of shape (2, 3) (6 elements) into "
            "(1073741824, 1073741824, 1073741824, -1)");
  std::vector<int64_t> deep(33, 1);
  deep[0] = 6;
  EXPECT_NE(Error(Reshape(cx_, {x, false}, deep)).find("invalid shape (6, 1, 1,"),
            std::string::npos);
  // An owned operand is released on failure too.
  Retain(FromObject(x));
  EXPECT_EQ(Error(Reshape(cx_, {x, true}, wrong)),
            "cannot reshape a tensor of shape (2, 3) (6 elements) into (7,)");
  EXPECT_EQ(x->refcount, 1u);
  Release(x);
}

TEST_F(TensorLayout, ReshapeInPlace) {
  Object* x = Iota({2, 3});
  const std::vector<int64_t> same_rank = {3, 2};
  Object* y = Reshape(cx_, {x, true}, same_rank);
  EXPECT_EQ(y, x);  // rewritten in place
  EXPECT_EQ(Shape(y), same_rank);
  EXPECT_EQ(Floats(y), (std::vector<float>{0, 1, 2, 3, 4, 5}));

  // A shared operand is read in place (a view holding its own reference to
  // it), and only the passed reference dropped.
  Retain(FromObject(y));
  const std::vector<int64_t> back = {2, -1};
  Object* w = Reshape(cx_, {y, true}, back);
  EXPECT_NE(w, y);
  EXPECT_EQ(BaseOf(w), y);
  EXPECT_EQ(y->refcount, 2u);
  EXPECT_EQ(Shape(w), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Floats(w), Floats(y));
  Release(w);
  EXPECT_EQ(y->refcount, 1u);

  // Another rank needs a new header: a view, and the operand's reference
  // handed to it.
  const std::vector<int64_t> other_rank = {6};
  Object* z = Reshape(cx_, {y, true}, other_rank);
  EXPECT_EQ(Shape(z), other_rank);
  EXPECT_EQ(Floats(z), (std::vector<float>{0, 1, 2, 3, 4, 5}));

  // The same shape: the owned reference comes back, even when shared.
  Retain(FromObject(z));
  const std::vector<int64_t> flat = {-1};
  w = Reshape(cx_, {z, true}, flat);
  EXPECT_EQ(w, z);
  EXPECT_EQ(z->refcount, 2u);
  Release(w);
  Release(z);
}

TEST_F(TensorLayout, Transpose) {
  Object* x = Iota({2, 3});
  Object* t = Transpose(cx_, x);
  EXPECT_EQ(Shape(t), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(Floats(t), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  Release(t);
  Release(x);

  x = Iota({2, 3, 4});
  t = Transpose(cx_, x);
  EXPECT_EQ(Shape(t), (std::vector<int64_t>{4, 3, 2}));
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 4; ++k) {
        EXPECT_EQ(ElementsOf<float>(t)[k * 6 + j * 2 + i],
                  ElementsOf<float>(x)[i * 12 + j * 4 + k]);
      }
    }
  }
  Release(t);
  Release(x);

  const std::vector<int64_t> shape = {2, 1, 3};
  Object* b = cx_.New(DType::kBool, shape);
  for (int k = 0; k < 6; ++k) ElementsOf<uint8_t>(b)[k] = k % 4 == 0;
  t = Transpose(cx_, b);
  EXPECT_EQ(Shape(t), (std::vector<int64_t>{3, 1, 2}));
  const uint8_t expected[] = {1, 0, 0, 1, 0, 0};
  EXPECT_EQ(std::memcmp(DataOf(t), expected, 6), 0);
  Release(t);
  Release(b);

  x = Iota({0, 3});
  t = Transpose(cx_, x);
  EXPECT_EQ(Shape(t), (std::vector<int64_t>{3, 0}));
  Release(t);
  Release(x);

  // 0-d and 1-d: the operand itself, with a new reference.
  for (std::vector<int64_t> s : {std::vector<int64_t>{}, std::vector<int64_t>{4}}) {
    x = Iota(s);
    t = Transpose(cx_, x);
    EXPECT_EQ(t, x);
    EXPECT_EQ(x->refcount, 2u);
    Release(t);
    Release(x);
  }
}

TEST_F(TensorLayout, Index) {
  Object* x = Iota({3, 2});
  Object* row = Index(cx_, x, 1);
  EXPECT_EQ(Shape(row), std::vector<int64_t>{2});
  EXPECT_EQ(Floats(row), (std::vector<float>{2, 3}));
  Object* scalar = Index(cx_, row, 1);
  EXPECT_EQ(Shape(scalar), std::vector<int64_t>{});
  EXPECT_EQ(Floats(scalar), std::vector<float>{3});
  EXPECT_EQ(Error(Index(cx_, scalar, 0)), "cannot index a 0-d tensor");
  EXPECT_EQ(Error(Index(cx_, x, 3)), "index 3 is out of bounds for axis 0 with size 3");
  EXPECT_EQ(Error(Index(cx_, x, -1)), "index -1 is out of bounds for axis 0 with size 3");
  Release(scalar);
  Release(row);
  Release(x);

  x = Iota({2, 0});
  row = Index(cx_, x, 1);
  EXPECT_EQ(Shape(row), std::vector<int64_t>{0});
  Release(row);
  Release(x);
}

TEST_F(TensorLayout, Slice) {
  Object* x = Iota({4, 2});
  Object* s = Slice(cx_, x, 1, 3);
  EXPECT_EQ(Shape(s), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Floats(s), (std::vector<float>{2, 3, 4, 5}));
  Release(s);
  s = Slice(cx_, x, 3, 100);  // clamped to the end
  EXPECT_EQ(Floats(s), (std::vector<float>{6, 7}));
  Release(s);
  for (auto [lo, hi] : {std::pair<int64_t, int64_t>{3, 1}, {9, 12}, {2, 2}}) {
    s = Slice(cx_, x, lo, hi);
    EXPECT_EQ(Shape(s), (std::vector<int64_t>{0, 2}));
    Release(s);
  }
  s = Slice(cx_, x, 0, 4);  // the whole tensor: shared
  EXPECT_EQ(s, x);
  Release(s);
  EXPECT_EQ(Error(Slice(cx_, x, -1, 2)), "slice bound -1 is negative");
  EXPECT_EQ(Error(Slice(cx_, x, 0, -2)), "slice bound -2 is negative");
  Release(x);

  x = Iota({});
  EXPECT_EQ(Error(Slice(cx_, x, 0, 1)), "cannot slice a 0-d tensor");
  Release(x);
}

TEST_F(TensorLayout, Concat) {
  Object* a = Iota({2, 3});
  Object* b = F32({1, 3}, {10, 11, 12});
  Object* c = F32({2, 1}, {20, 21});
  const Object* ab[] = {a, b};
  Object* r = Concat(cx_, ab, 0);
  EXPECT_EQ(Shape(r), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(Floats(r), (std::vector<float>{0, 1, 2, 3, 4, 5, 10, 11, 12}));
  Release(r);

  const Object* cac[] = {c, a, c};
  for (int64_t axis : {1, -1}) {
    r = Concat(cx_, cac, axis);
    EXPECT_EQ(Shape(r), (std::vector<int64_t>{2, 5}));
    EXPECT_EQ(Floats(r), (std::vector<float>{20, 0, 1, 2, 20, 21, 3, 4, 5, 21}));
    Release(r);
  }

  EXPECT_EQ(Error(Concat(cx_, ab, 1)),
            "`concat` along axis 1: shapes (2, 3) and (1, 3) differ elsewhere");
  EXPECT_EQ(Error(Concat(cx_, cac, -2)),
            "`concat` along axis -2: shapes (2, 1) and (2, 3) differ elsewhere");
  EXPECT_EQ(Error(Concat(cx_, ab, 2)), "axis 2 is out of range for a tensor of shape (2, 3)");
  EXPECT_EQ(Error(Concat(cx_, ab, -3)), "axis -3 is out of range for a tensor of shape (2, 3)");
  EXPECT_EQ(Error(Concat(cx_, {}, 0)), "`concat` of an empty array of tensors");

  Object* flat = Iota({6});
  const Object* mixed[] = {a, flat};
  EXPECT_EQ(Error(Concat(cx_, mixed, 0)),
            "`concat` along axis 0: shapes (2, 3) and (6,) differ elsewhere");
  Release(flat);

  Object* s = Iota({});
  const Object* scalars[] = {s, s};
  EXPECT_EQ(Error(Concat(cx_, scalars, 0)), "axis 0 is out of range for a tensor of shape ()");
  Release(s);

  // One tensor: itself. Zero-sized ones join too.
  const Object* just_a[] = {a};
  r = Concat(cx_, just_a, 0);
  EXPECT_EQ(r, a);
  Release(r);
  Object* e = Iota({0, 3});
  const Object* eae[] = {e, a, e};
  r = Concat(cx_, eae, 0);
  EXPECT_EQ(Floats(r), Floats(a));
  Release(r);
  const Object* ee[] = {e, e};
  r = Concat(cx_, ee, 1);
  EXPECT_EQ(Shape(r), (std::vector<int64_t>{0, 6}));
  Release(r);
  Release(e);
  Release(a);
  Release(b);
  Release(c);

  // Bools (1-byte elements) along an inner axis.
  const std::vector<int64_t> shape = {2, 2};
  Object* t = Full(cx_, DType::kBool, shape, 1);
  Object* f = Full(cx_, DType::kBool, shape, 0);
  const Object* tf[] = {t, f};
  r = Concat(cx_, tf, 1);
  const uint8_t expected[] = {1, 1, 0, 0, 1, 1, 0, 0};
  EXPECT_EQ(std::memcmp(DataOf(r), expected, 8), 0);
  Release(r);
  Release(t);
  Release(f);
}

// A reshape, and a row or slice of at least half a tensor, read its
// elements in place (a view holding a reference to the base; nothing
// copied); a smaller part is copied, so that it does not keep the whole
// alive. Views are never written in place, and a view of a view reads the
// first one's base.
TEST_F(TensorLayout, ViewsShareTheElements) {
  Object* x = Iota({4, 3});
  const uint64_t copied = heap_.bytes_copied();
  const std::vector<int64_t> flat = {12};
  Object* r = Reshape(cx_, {x, false}, flat);
  EXPECT_EQ(DataOf(r), DataOf(x));
  EXPECT_EQ(Head(r)->host_view, TensorHead::kViewOfTensor);
  EXPECT_EQ(BaseOf(r), x);
  EXPECT_EQ(x->refcount, 2u);
  EXPECT_FALSE(IsReusable(r));
  Object* s = Slice(cx_, x, 1, 3);  // 6 of 12: a view
  EXPECT_EQ(DataOf(s), ElementsOf<float>(x) + 3);
  EXPECT_EQ(Floats(s), (std::vector<float>{3, 4, 5, 6, 7, 8}));
  Object* t = Reshape(cx_, {s, false}, std::vector<int64_t>{3, 2});  // a view of a view
  EXPECT_EQ(BaseOf(t), x);
  EXPECT_EQ(Floats(t), (std::vector<float>{3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(x->refcount, 4u);
  EXPECT_EQ(heap_.bytes_copied(), copied);
  Object* row = Index(cx_, x, 2);  // 3 of 12: copied
  EXPECT_NE(Head(row)->host_view, TensorHead::kViewOfTensor);
  EXPECT_EQ(Floats(row), (std::vector<float>{6, 7, 8}));
  EXPECT_EQ(heap_.bytes_copied(), copied + 12);
  // An owned view is not written in place: the result is new, x unchanged.
  Object* sum = Binary(cx_, kernels::BinaryOp::kAdd, {t, true}, {t, false});
  ASSERT_NE(sum, nullptr);
  EXPECT_NE(DataOf(sum), DataOf(s));
  EXPECT_EQ(Floats(sum), (std::vector<float>{6, 8, 10, 12, 14, 16}));
  EXPECT_EQ(Floats(s), (std::vector<float>{3, 4, 5, 6, 7, 8}));
  // Released in any order, the base goes with its last view.
  Release(x);
  Release(row);
  Release(sum);
  Release(r);
  Release(s);
}

TEST_F(TensorLayout, OutOfMemory) {
  Heap small(1024);
  TensorContext cx(small);
  const std::vector<int64_t> shape = {1000};
  EXPECT_EQ(Full(cx, DType::kF32, shape, 0), nullptr);
  EXPECT_TRUE(cx.out_of_memory());
  EXPECT_EQ(small.bytes_live(), 0u);
}

}  // namespace
}  // namespace alea::vm

// vm/tensor_ops.h's Linspace, Eye, Stack and Roll (tensor_build.cc): NumPy's
// shapes for every axis, dtypes, empty and 0-d tensors, and their errors.
#include <cstdint>
#include <vector>

#include "tests/vm/tensor_search_testing.h"

namespace alea::vm {
namespace {

using TensorBuild = testing::TensorSearchTest;

TEST_F(TensorBuild, Linspace) {
  Object* y = Linspace(cx_, 0.0, 1.0, 5);
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(Shape(y), (std::vector<int64_t>{5}));
  EXPECT_EQ(Values<float>(y), (std::vector<float>{0.0f, 0.25f, 0.5f, 0.75f, 1.0f}));
  Object* empty = Linspace(cx_, 0.0, 1.0, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(Shape(empty), (std::vector<int64_t>{0}));
  EXPECT_EQ(Error(Linspace(cx_, 0.0, 1.0, -2)), "`linspace` of a negative count (-2)");
  Release({y, empty});
}

TEST_F(TensorBuild, EyeOfEveryDType) {
  Object* f = Eye(cx_, DType::kF32, 2);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(Values<float>(f), (std::vector<float>{1, 0, 0, 1}));
  Object* u = Eye(cx_, DType::kU32, 3);
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(Values<uint32_t>(u), (std::vector<uint32_t>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  Object* b = Eye(cx_, DType::kBool, 2);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(Values<uint8_t>(b), (std::vector<uint8_t>{1, 0, 0, 1}));
  Object* none = Eye(cx_, DType::kI32, 0);
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(Shape(none), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(Message(Eye(cx_, DType::kF32, -1)), "invalid shape (-1, -1)");
  Release({f, u, b, none});
}

TEST_F(TensorBuild, StackAddsAnAxisAnywhere) {
  Object* a = I32({2, 3}, {0, 1, 2, 3, 4, 5});
  Object* b = I32({2, 3}, {10, 11, 12, 13, 14, 15});
  const std::vector<const Object*> xs = {a, b};
  Object* s0 = Stack(cx_, xs, 0);
  ASSERT_NE(s0, nullptr);
  EXPECT_EQ(Shape(s0), (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ(Values<int32_t>(s0), (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15}));
  Object* s1 = Stack(cx_, xs, 1);
  ASSERT_NE(s1, nullptr);
  EXPECT_EQ(Shape(s1), (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ(Values<int32_t>(s1), (std::vector<int32_t>{0, 1, 2, 10, 11, 12, 3, 4, 5, 13, 14, 15}));
  Object* last = Stack(cx_, xs, -1);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(Shape(last), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_EQ(Values<int32_t>(last),
            (std::vector<int32_t>{0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15}));
  Object* s2 = Stack(cx_, xs, 2);
  ASSERT_NE(s2, nullptr);
  EXPECT_EQ(Values<int32_t>(s2), Values<int32_t>(last));
  Release({a, b, s0, s1, last, s2});
}

TEST_F(TensorBuild, StackOfScalarsAndEmptyTensors) {
  Object* x = F32({}, {1.5f});
  Object* y = F32({}, {2.5f});
  Object* v = Stack(cx_, std::vector<const Object*>{x, y, x}, 0);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(Shape(v), (std::vector<int64_t>{3}));
  EXPECT_EQ(Values<float>(v), (std::vector<float>{1.5f, 2.5f, 1.5f}));
  Object* e = F32({0, 2}, {});
  Object* se = Stack(cx_, std::vector<const Object*>{e, e}, 1);
  ASSERT_NE(se, nullptr);
  EXPECT_EQ(Shape(se), (std::vector<int64_t>{0, 2, 2}));
  Release({x, y, v, e, se});
}

TEST_F(TensorBuild, StackErrors) {
  Object* a = F32({2, 3}, std::vector<float>(6, 1.0f));
  Object* b = F32({3, 2}, std::vector<float>(6, 1.0f));
  EXPECT_EQ(Error(Stack(cx_, {}, 0)),
            "`stack` of an empty array of tensors | NumPy's stack too needs at least one tensor");
  EXPECT_EQ(Error(Stack(cx_, std::vector<const Object*>{a, b}, 0)),
            "`stack`: shapes (2, 3) and (3, 2) differ | every tensor must have the same shape; "
            "`concat` joins along an existing axis");
  EXPECT_EQ(Message(Stack(cx_, std::vector<const Object*>{a, a}, 3)),
            "axis 3 is out of range for a tensor of shape (2, 2, 3)");
  EXPECT_EQ(Message(Stack(cx_, std::vector<const Object*>{a, a}, -4)),
            "axis -4 is out of range for a tensor of shape (2, 2, 3)");
  Release({a, b});
}

TEST_F(TensorBuild, RollFlattenedKeepsTheShape) {
  Object* x = I32({2, 3}, {0, 1, 2, 3, 4, 5});
  Object* r = Roll(cx_, x, 2, std::nullopt);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(Shape(r), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<int32_t>(r), (std::vector<int32_t>{4, 5, 0, 1, 2, 3}));
  Object* back = Roll(cx_, x, -7, std::nullopt);  // -7 mod 6 = 5
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(Values<int32_t>(back), (std::vector<int32_t>{1, 2, 3, 4, 5, 0}));
  Object* same = Roll(cx_, x, 12, std::nullopt);
  EXPECT_EQ(same, x);  // a whole turn: the operand itself, shared
  Release({x, r, back, same});
}

TEST_F(TensorBuild, RollAlongAnAxis) {
  Object* x = Make<uint8_t>(DType::kBool, {2, 3}, {1, 0, 0, 0, 1, 1});
  Object* r0 = Roll(cx_, x, 1, 0);
  ASSERT_NE(r0, nullptr);
  EXPECT_EQ(Values<uint8_t>(r0), (std::vector<uint8_t>{0, 1, 1, 1, 0, 0}));
  Object* r1 = Roll(cx_, x, -1, -1);
  ASSERT_NE(r1, nullptr);
  EXPECT_EQ(Values<uint8_t>(r1), (std::vector<uint8_t>{0, 0, 1, 1, 1, 0}));
  Object* e = F32({2, 0}, {});
  Object* re = Roll(cx_, e, 3, 1);
  ASSERT_NE(re, nullptr);
  EXPECT_EQ(Shape(re), (std::vector<int64_t>{2, 0}));
  Object* scalar = F32({}, {4.0f});
  Object* rs = Roll(cx_, scalar, 3, std::nullopt);
  ASSERT_NE(rs, nullptr);
  EXPECT_EQ(Values<float>(rs), (std::vector<float>{4.0f}));
  EXPECT_EQ(Message(Roll(cx_, scalar, 1, 0)), "axis 0 is out of range for a tensor of shape ()");
  EXPECT_EQ(Message(Roll(cx_, x, 1, 2)), "axis 2 is out of range for a tensor of shape (2, 3)");
  Release({x, r0, r1, e, re, scalar, rs});
}

}  // namespace
}  // namespace alea::vm

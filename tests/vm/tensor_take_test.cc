// vm/tensor_ops.h's Take (tensor_take.cc): np.take's result shapes for
// every axis and index shape, and its errors.
#include <cstdint>
#include <vector>

#include "tests/vm/tensor_search_testing.h"

namespace alea::vm {
namespace {

using TensorTake = testing::TensorSearchTest;

TEST_F(TensorTake, ResultShapeIsTheAxisReplacedByTheIndices) {
  Object* x = F32({2, 3}, {0, 1, 2, 3, 4, 5});
  Object* rows = I32({2, 2}, {1, 0, 1, 1});
  Object* out = Take(cx_, x, rows, 0);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(Shape(out), (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ(Values<float>(out), (std::vector<float>{3, 4, 5, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  Object* cols = I32({3}, {2, 2, 0});
  Object* last = Take(cx_, x, cols, -1);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(Shape(last), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<float>(last), (std::vector<float>{2, 2, 0, 5, 5, 3}));
  Release({x, rows, out, cols, last});
}

TEST_F(TensorTake, AZeroDIndexDropsTheAxis) {
  Object* x = I32({2, 3}, {0, 1, 2, 3, 4, 5});
  Object* one = I32({}, {2});
  Object* col = Take(cx_, x, one, 1);
  ASSERT_NE(col, nullptr);
  EXPECT_EQ(Shape(col), (std::vector<int64_t>{2}));
  EXPECT_EQ(Values<int32_t>(col), (std::vector<int32_t>{2, 5}));
  Object* v = I32({3}, {7, 8, 9});
  Object* scalar = Take(cx_, v, one, 0);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(Shape(scalar), (std::vector<int64_t>{}));
  EXPECT_EQ(Values<int32_t>(scalar), (std::vector<int32_t>{9}));
  Release({x, one, col, v, scalar});
}

TEST_F(TensorTake, ZeroSizeShapes) {
  Object* x = F32({0, 3}, {});
  Object* none = I32({0}, {});
  Object* seven = I32({1}, {7});
  Object* a = Take(cx_, x, none, 0);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(Shape(a), (std::vector<int64_t>{0, 3}));
  // No row before axis 1, so nothing is taken and nothing checked (np.take).
  Object* b = Take(cx_, x, seven, 1);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(Shape(b), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(Error(Take(cx_, x, seven, 0)),
            "index 7 is out of bounds for axis 0 with size 0 | indices run from 0 to the size - "
            "1; a negative index is an error, it does not count from the end as in NumPy");
  Release({x, none, seven, a, b});
}

TEST_F(TensorTake, BoolTensors) {
  Object* x = Make<uint8_t>(DType::kBool, {3}, {1, 0, 1});
  Object* idx = I32({4}, {1, 1, 2, 0});
  Object* out = Take(cx_, x, idx, 0);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(Values<uint8_t>(out), (std::vector<uint8_t>{0, 0, 1, 1}));
  Release({x, idx, out});
}

TEST_F(TensorTake, Errors) {
  Object* x = F32({2, 5}, std::vector<float>(10, 1.0f));
  Object* big = I32({2}, {0, 7});
  Object* negative = I32({2}, {-1, 9});
  EXPECT_EQ(Message(Take(cx_, x, big, 1)), "index 7 is out of bounds for axis 1 with size 5");
  EXPECT_EQ(Message(Take(cx_, x, big, -1)), "index 7 is out of bounds for axis 1 with size 5");
  EXPECT_EQ(Message(Take(cx_, x, negative, 0)), "index -1 is out of bounds for axis 0 with size 2");
  EXPECT_EQ(Error(Take(cx_, x, big, 2)),
            "axis 2 is out of range for a tensor of shape (2, 5) | axes count from 0; -1 is the "
            "last");
  EXPECT_EQ(Message(Take(cx_, x, big, -3)), "axis -3 is out of range for a tensor of shape (2, 5)");
  Object* scalar = F32({}, {1.0f});
  EXPECT_EQ(Message(Take(cx_, scalar, big, 0)), "axis 0 is out of range for a tensor of shape ()");
  Release({x, big, negative, scalar});
}

TEST_F(TensorTake, ARankPast32IsAnInvalidShape) {
  Object* x = F32({1, 1}, {1.0f});
  Object* idx = I32(std::vector<int64_t>(32, 1), {0});
  EXPECT_EQ(Message(Take(cx_, x, idx, 0)).rfind("invalid shape (1, 1, 1", 0), 0u);
  Release({x, idx});
}

}  // namespace
}  // namespace alea::vm

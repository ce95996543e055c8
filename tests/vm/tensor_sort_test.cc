// vm/tensor_ops.h's ArgSort, Sort and SearchSorted (tensor_sort.cc):
// shapes, axes, and errors.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tests/vm/tensor_search_testing.h"

namespace alea::vm {
namespace {

using TensorSort = testing::TensorSearchTest;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST_F(TensorSort, ArgSortAndSortAlongEachAxis) {
  Object* x = F32({2, 3}, {3, kNaN, -1, 2, 0, -0.0f});
  Object* last = ArgSort(cx_, x, -1);
  Object* first = ArgSort(cx_, x, 0);
  Object* sorted = Sort(cx_, x, 1);
  ASSERT_NE(last, nullptr);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(sorted, nullptr);
  EXPECT_EQ(DTypeOf(last), DType::kI32);
  EXPECT_EQ(Shape(last), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<int32_t>(last), (std::vector<int32_t>{2, 0, 1, 1, 2, 0}));
  EXPECT_EQ(Values<int32_t>(first), (std::vector<int32_t>{1, 1, 0, 0, 0, 1}));
  const std::vector<float> s = Values<float>(sorted);
  EXPECT_EQ(s[0], -1.0f);
  EXPECT_EQ(s[1], 3.0f);
  EXPECT_TRUE(std::isnan(s[2]));
  EXPECT_FALSE(std::signbit(s[3]));  // 0.0 came before -0.0: stable
  EXPECT_TRUE(std::signbit(s[4]));
  EXPECT_EQ(s[5], 2.0f);
  Release({x, last, first, sorted});
}

TEST_F(TensorSort, ZeroSizeAndZeroD) {
  Object* empty = F32({0, 4}, {});
  Object* a = ArgSort(cx_, empty, 0);
  Object* b = Sort(cx_, empty, -1);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(Shape(a), (std::vector<int64_t>{0, 4}));
  Object* scalar = F32({}, {1.0f});
  EXPECT_EQ(Message(ArgSort(cx_, scalar, -1)), "axis -1 is out of range for a tensor of shape ()");
  EXPECT_EQ(Message(Sort(cx_, scalar, 0)), "axis 0 is out of range for a tensor of shape ()");
  Release({empty, a, b, scalar});
}

TEST_F(TensorSort, SearchSortedKeepsTheValuesShape) {
  Object* s = I32({4}, {1, 3, 3, 8});
  Object* v = I32({2, 2}, {0, 3, 4, 9});
  Object* out = SearchSorted(cx_, s, v);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(DTypeOf(out), DType::kI32);
  EXPECT_EQ(Shape(out), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<int32_t>(out), (std::vector<int32_t>{0, 1, 3, 4}));
  Object* one = I32({}, {3});
  Object* scalar = SearchSorted(cx_, s, one);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(Shape(scalar), (std::vector<int64_t>{}));
  EXPECT_EQ(Values<int32_t>(scalar), (std::vector<int32_t>{1}));
  Release({s, v, out, one, scalar});
}

TEST_F(TensorSort, SearchSortedNeedsA1dSortedTensor) {
  Object* m = I32({2, 2}, {1, 2, 3, 4});
  Object* z = I32({}, {1});
  EXPECT_EQ(Error(SearchSorted(cx_, m, z)),
            "`searchsorted` needs a 1-d sorted tensor, not shape (2, 2) | search one row at a "
            "time, or flatten it with `reshape(x, [-1])`");
  EXPECT_EQ(Message(SearchSorted(cx_, z, z)),
            "`searchsorted` needs a 1-d sorted tensor, not shape ()");
  Release({m, z});
}

TEST_F(TensorSort, AnAxisPastTheI32IndicesIsAnError) {
  // Bool elements keep the tensor small: 2^31 bytes, not written.
  Object* big = cx_.New(DType::kBool, {int64_t{1} << 31});
  if (big == nullptr) GTEST_SKIP() << "no memory for a 2 GiB tensor";
  EXPECT_EQ(Error(ArgSort(cx_, big, 0)),
            "`argsort` along an axis of 2147483648 elements | its result holds i32 indices, "
            "which stop at 2147483647");
  Release({big});
}

}  // namespace
}  // namespace alea::vm

// vm/tensor_ops.h's CumSum (tensor_scan.cc): flattened without an axis, the
// same shape with one, and the i32 overflow message with the element's index.
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "tests/vm/tensor_search_testing.h"

namespace alea::vm {
namespace {

using TensorScan = testing::TensorSearchTest;

constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

TEST_F(TensorScan, WithoutAnAxisTheTensorIsFlattened) {
  Object* x = I32({2, 2}, {1, 2, 3, 4});
  Object* flat = CumSum(cx_, x, std::nullopt);
  ASSERT_NE(flat, nullptr);
  EXPECT_EQ(Shape(flat), (std::vector<int64_t>{4}));
  EXPECT_EQ(Values<int32_t>(flat), (std::vector<int32_t>{1, 3, 6, 10}));
  Object* scalar = F32({}, {2.5f});
  Object* one = CumSum(cx_, scalar, std::nullopt);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(Shape(one), (std::vector<int64_t>{1}));
  Object* empty = F32({3, 0}, {});
  Object* none = CumSum(cx_, empty, std::nullopt);
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(Shape(none), (std::vector<int64_t>{0}));
  Release({x, flat, scalar, one, empty, none});
}

TEST_F(TensorScan, AlongAnAxisTheShapeStays) {
  Object* x = F32({2, 3}, {1, 2, 3, 4, 5, 6});
  Object* down = CumSum(cx_, x, 0);
  Object* across = CumSum(cx_, x, -1);
  ASSERT_NE(down, nullptr);
  ASSERT_NE(across, nullptr);
  EXPECT_EQ(Shape(down), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<float>(down), (std::vector<float>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(Values<float>(across), (std::vector<float>{1, 3, 6, 4, 9, 15}));
  Object* empty = F32({0, 3}, {});
  Object* e = CumSum(cx_, empty, 1);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(Shape(e), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(Message(CumSum(cx_, x, 2)), "axis 2 is out of range for a tensor of shape (2, 3)");
  Object* scalar = F32({}, {1.0f});
  EXPECT_EQ(Message(CumSum(cx_, scalar, 0)), "axis 0 is out of range for a tensor of shape ()");
  Release({x, down, across, empty, e, scalar});
}

TEST_F(TensorScan, U32Wraps) {
  Object* x = Make<uint32_t>(DType::kU32, {2}, {0xffffffffu, 3});
  Object* out = CumSum(cx_, x, std::nullopt);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(Values<uint32_t>(out), (std::vector<uint32_t>{0xffffffffu, 2}));
  Release({x, out});
}

TEST_F(TensorScan, I32OverflowNamesTheElementAndTheStep) {
  Object* v = I32({3}, {kMax - 1, 1, 1});
  EXPECT_EQ(Error(CumSum(cx_, v, std::nullopt)),
            "integer overflow in `cumsum` at index 2 (2147483647 + 1) | an i32 holds "
            "-2147483648 to 2147483647; NumPy's cumsum widens int32 to int64, Alea keeps i32 "
            "and checks");
  Object* m = I32({2, 2}, {kMax, 0, 1, 0});
  // Flattened, the 1 follows kMax; along axis 1 each row starts again; along
  // axis 0 the first column overflows, named by its index in the tensor.
  EXPECT_EQ(Message(CumSum(cx_, m, std::nullopt)),
            "integer overflow in `cumsum` at index 2 (2147483647 + 1)");
  Object* rows = CumSum(cx_, m, 1);
  ASSERT_NE(rows, nullptr);
  EXPECT_EQ(Values<int32_t>(rows), (std::vector<int32_t>{kMax, kMax, 1, 1}));
  EXPECT_EQ(Message(CumSum(cx_, m, 0)),
            "integer overflow in `cumsum` at index (1, 0) (2147483647 + 1)");
  Release({v, m, rows});
}

}  // namespace
}  // namespace alea::vm

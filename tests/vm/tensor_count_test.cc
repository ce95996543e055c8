// vm/tensor_ops.h's BinCount and Histogram (tensor_count.cc): result
// lengths and dtypes, 0-d and empty inputs, and every error.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tests/vm/tensor_search_testing.h"

namespace alea::vm {
namespace {

using TensorCount = testing::TensorSearchTest;

TEST_F(TensorCount, BinCountLengthIsTheLargerOfLengthAndMaxPlusOne) {
  Object* idx = I32({4}, {1, 3, 1, 0});
  Object* a = BinCount(cx_, idx, 0, nullptr);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(DTypeOf(a), DType::kI32);
  EXPECT_EQ(Values<int32_t>(a), (std::vector<int32_t>{1, 2, 0, 1}));
  Object* b = BinCount(cx_, idx, 6, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(Values<int32_t>(b), (std::vector<int32_t>{1, 2, 0, 1, 0, 0}));
  Object* c = BinCount(cx_, idx, 2, nullptr);  // a length below max + 1 is a minimum only
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(Shape(c), (std::vector<int64_t>{4}));
  Release({idx, a, b, c});
}

TEST_F(TensorCount, BinCountOfNothing) {
  Object* none = I32({0}, {});
  Object* a = BinCount(cx_, none, 0, nullptr);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(Shape(a), (std::vector<int64_t>{0}));
  Object* b = BinCount(cx_, none, 3, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(Values<int32_t>(b), (std::vector<int32_t>{0, 0, 0}));
  Object* w = F32({0}, {});
  Object* c = BinCount(cx_, none, 2, w);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(DTypeOf(c), DType::kF32);
  EXPECT_EQ(Values<float>(c), (std::vector<float>{0.0f, 0.0f}));
  Release({none, a, b, w, c});
}

TEST_F(TensorCount, BinCountWeightsGiveF32Sums) {
  Object* idx = I32({3}, {2, 0, 2});
  Object* w = F32({3}, {0.5f, -1.0f, 0.25f});
  Object* out = BinCount(cx_, idx, 0, w);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(Values<float>(out), (std::vector<float>{-1.0f, 0.0f, 0.75f}));
  Release({idx, w, out});
}

TEST_F(TensorCount, BinCountErrors) {
  Object* m = I32({2, 2}, {0, 1, 2, 3});
  EXPECT_EQ(Message(BinCount(cx_, m, 0, nullptr)),
            "`bincount` needs a 1-d tensor of indices, not shape (2, 2)");
  Object* s = I32({}, {1});
  EXPECT_EQ(Message(BinCount(cx_, s, 0, nullptr)),
            "`bincount` needs a 1-d tensor of indices, not shape ()");
  Object* neg = I32({4}, {0, 2, -3, -1});
  EXPECT_EQ(Message(BinCount(cx_, neg, 0, nullptr)),
            "`bincount` of the negative index -3 at position 2");
  Object* idx = I32({2}, {0, 1});
  EXPECT_EQ(Message(BinCount(cx_, idx, -1, nullptr)), "`bincount` with the negative length -1");
  Object* w = F32({3}, {1, 2, 3});
  EXPECT_EQ(Message(BinCount(cx_, idx, 0, w)),
            "`bincount` with weights of shape (3,) for indices of shape (2,)");
  Release({m, s, neg, idx, w});
}

TEST_F(TensorCount, HistogramOfAnyShape) {
  Object* x = F32({2, 3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f});
  Object* out = Histogram(cx_, x, 2, 0.0, 4.0);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(DTypeOf(out), DType::kI32);
  EXPECT_EQ(Values<int32_t>(out), (std::vector<int32_t>{2, 3}));
  Object* scalar = F32({}, {4.0f});
  Object* one = Histogram(cx_, scalar, 1, 0.0, 4.0);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(Values<int32_t>(one), (std::vector<int32_t>{1}));
  Object* empty = F32({0, 3}, {});
  Object* zeros = Histogram(cx_, empty, 3, -1.0, 1.0);
  ASSERT_NE(zeros, nullptr);
  EXPECT_EQ(Values<int32_t>(zeros), (std::vector<int32_t>{0, 0, 0}));
  Release({x, out, scalar, one, empty, zeros});
}

TEST_F(TensorCount, HistogramErrors) {
  const double inf = std::numeric_limits<double>::infinity();
  Object* x = F32({2}, {0.0f, 1.0f});
  EXPECT_EQ(Message(Histogram(cx_, x, 0, 0.0, 1.0)), "`histogram` with 0 bins");
  EXPECT_EQ(Message(Histogram(cx_, x, -2, 0.0, 1.0)), "`histogram` with -2 bins");
  EXPECT_EQ(Message(Histogram(cx_, x, 3, 1.0, 1.0)), "`histogram` over [1.0, 1.0]");
  EXPECT_EQ(Message(Histogram(cx_, x, 3, 2.0, 1.0)), "`histogram` over [2.0, 1.0]");
  EXPECT_EQ(Message(Histogram(cx_, x, 3, 0.0, inf)), "`histogram` over [0.0, inf]");
  EXPECT_EQ(Message(Histogram(cx_, x, 3, std::nan(""), 1.0)), "`histogram` over [nan, 1.0]");
  Release({x});
}

}  // namespace
}  // namespace alea::vm

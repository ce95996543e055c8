// vm/tensor_ops.h's UpdateAt, UpdateTuple, UpdateTake and UpdateMask
// (tensor_scatter.cc): in place exactly when the tensor is held once and is
// no host view (so a loop of updates allocates nothing), the indexed shapes
// v broadcasts to, and every error, with the tensor's reference consumed on
// every path.
#include <cstdint>
#include <vector>

#include "tests/vm/tensor_search_testing.h"

namespace alea::vm {
namespace {

using kernels::ScatterOp;
using TensorScatter = testing::TensorSearchTest;

TEST_F(TensorScatter, AnOperandHeldOnceIsUpdatedInPlace) {
  Object* x = F32({5}, {0, 0, 0, 0, 0});
  Object* v = F32({}, {1.5f});
  const uint64_t allocations = heap_.allocations();
  for (int i = 0; i < 1000; ++i) {
    Object* out =
        UpdateAt(cx_, i % 2 == 0 ? ScatterOp::kSet : ScatterOp::kAdd, Owned{x}, i % 5, 0, v);
    ASSERT_EQ(out, x);
    x = out;
  }
  EXPECT_EQ(heap_.allocations(), allocations);
  EXPECT_EQ(Values<float>(x), (std::vector<float>{3, 1.5, 3, 1.5, 3}));  // last: add, set, ...
  Release({x, v});
}

TEST_F(TensorScatter, AnOperandHeldTwiceIsCopied) {
  Object* x = F32({3}, {1, 2, 3});
  Object* v = F32({}, {9});
  Retain(FromObject(x));  // someone else still sees x
  Object* out = UpdateAt(cx_, ScatterOp::kSet, Owned{x}, 1, 0, v);
  ASSERT_NE(out, nullptr);
  EXPECT_NE(out, x);
  EXPECT_EQ(Values<float>(out), (std::vector<float>{1, 9, 3}));
  EXPECT_EQ(Values<float>(x), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(x->refcount, 1u);  // the call consumed its reference
  Release({x, v, out});
}

TEST_F(TensorScatter, AHostViewIsNeverWritten) {
  const std::vector<int32_t> host = {1, 2, 3};
  Object* x = heap_.NewTensorView(DType::kI32, {3}, host.data());
  Object* v = I32({}, {5});
  Object* out = UpdateTuple(cx_, ScatterOp::kAdd, Owned{x}, std::vector<int64_t>{2}, v);
  ASSERT_NE(out, nullptr);
  EXPECT_NE(out, x);
  EXPECT_EQ(Values<int32_t>(out), (std::vector<int32_t>{1, 2, 8}));
  EXPECT_EQ(host, (std::vector<int32_t>{1, 2, 3}));
  Release({v, out});
}

TEST_F(TensorScatter, IndexedShapes) {
  // m[:, 1] = col; m[1, 2] = 7; m[[2, 0]] += rows; m[m > 6] = 0.
  Object* m = F32({3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  Object* col = F32({3}, {10, 20, 30});
  m = UpdateAt(cx_, ScatterOp::kSet, Owned{m}, 1, 1, col);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Values<float>(m), (std::vector<float>{0, 10, 2, 3, 20, 5, 6, 30, 8}));
  Object* seven = F32({}, {7});
  m = UpdateTuple(cx_, ScatterOp::kSet, Owned{m}, std::vector<int64_t>{1, 2}, seven);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Values<float>(m), (std::vector<float>{0, 10, 2, 3, 20, 7, 6, 30, 8}));
  Object* idx = I32({2}, {2, 0});
  Object* rows = F32({2, 1}, {100, 200});  // broadcast along the rows: a copy
  m = UpdateTake(cx_, ScatterOp::kAdd, Owned{m}, idx, 0, rows);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Values<float>(m), (std::vector<float>{200, 210, 202, 3, 20, 7, 106, 130, 108}));
  Object* mask = Make<uint8_t>(DType::kBool, {3, 3}, {0, 0, 0, 0, 1, 0, 0, 1, 1});
  Object* three = F32({3}, {-1, -2, -3});
  m = UpdateMask(cx_, ScatterOp::kSet, Owned{m}, mask, three);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Values<float>(m), (std::vector<float>{200, 210, 202, 3, -1, 7, 106, -2, -3}));
  Release({m, col, seven, idx, rows, mask, three});
}

TEST_F(TensorScatter, ZeroDAndEmpty) {
  Object* x = F32({}, {4});
  Object* yes = Make<uint8_t>(DType::kBool, {}, {1});
  Object* two = F32({}, {2});
  x = UpdateMask(cx_, ScatterOp::kAdd, Owned{x}, yes, two);
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(Values<float>(x), (std::vector<float>{6}));
  // A tuple of as many Ints as axes addresses one element: here none.
  x = UpdateTuple(cx_, ScatterOp::kSet, Owned{x}, std::vector<int64_t>{}, two);
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(Values<float>(x), (std::vector<float>{2}));
  Object* e = F32({0, 3}, {});
  Object* none = I32({0}, {});
  e = UpdateTake(cx_, ScatterOp::kAdd, Owned{e}, none, 1, two);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(Shape(e), (std::vector<int64_t>{0, 3}));
  Release({x, yes, two, e, none});
}

TEST_F(TensorScatter, Errors) {
  Object* v = F32({}, {1});
  Object* two = F32({2}, {1, 2});
  auto fresh = [&] { return F32({2, 3}, {0, 1, 2, 3, 4, 5}); };
  EXPECT_EQ(Message(UpdateAt(cx_, ScatterOp::kSet, Owned{fresh()}, 7, 1, v)),
            "index 7 is out of bounds for axis 1 with size 3");
  EXPECT_EQ(Message(UpdateAt(cx_, ScatterOp::kSet, Owned{fresh()}, -1, 0, v)),
            "index -1 is out of bounds for axis 0 with size 2");
  EXPECT_EQ(Message(UpdateAt(cx_, ScatterOp::kSet, Owned{fresh()}, 0, 2, v)),
            "axis 2 is out of range for a tensor of shape (2, 3)");
  EXPECT_EQ(Message(UpdateAt(cx_, ScatterOp::kAdd, Owned{fresh()}, 0, 0, two)),
            "`add_at`: a value of shape (2,) cannot be broadcast to shape (3,)");
  EXPECT_EQ(
      Message(UpdateTuple(cx_, ScatterOp::kSet, Owned{fresh()}, std::vector<int64_t>{1, 3}, v)),
      "index 3 is out of bounds for axis 1 with size 3");
  EXPECT_EQ(
      Message(UpdateTuple(cx_, ScatterOp::kSet, Owned{fresh()}, std::vector<int64_t>{0, 0, 0}, v)),
      "`set`: 3 indices for a tensor of shape (2, 3)");
  Object* idx = I32({3}, {0, 2, 2});
  EXPECT_EQ(Message(UpdateTake(cx_, ScatterOp::kAdd, Owned{fresh()}, idx, 0, v)),
            "index 2 is out of bounds for axis 0 with size 2");
  // Checked even though nothing would be written.
  Object* e = F32({0, 2}, {});
  EXPECT_EQ(Message(UpdateTake(cx_, ScatterOp::kAdd, Owned{e}, idx, 1, v)),
            "index 2 is out of bounds for axis 1 with size 2");
  Object* mask = Make<uint8_t>(DType::kBool, {3}, {1, 0, 1});
  EXPECT_EQ(Message(UpdateMask(cx_, ScatterOp::kSet, Owned{fresh()}, mask, v)),
            "`set`: a mask of shape (3,) for a tensor of shape (2, 3)");
  Object* x3 = F32({3}, {0, 0, 0});
  Object* three = F32({3}, {1, 2, 3});
  EXPECT_EQ(Message(UpdateMask(cx_, ScatterOp::kSet, Owned{x3}, mask, three)),
            "`set`: a value of shape (3,) cannot be broadcast to shape (2,)");
  Object* big = I32({2}, {2147483647, 0});
  Object* one = I32({}, {1});
  Object* positions = I32({2}, {1, 0});
  EXPECT_EQ(Message(UpdateTake(cx_, ScatterOp::kAdd, Owned{big}, positions, 0, one)),
            "integer overflow in `+` at index 0 (2147483647 + 1)");
  Release({v, two, idx, mask, three, one, positions});
}

}  // namespace
}  // namespace alea::vm

// `argsort`, `sort` and `searchsorted` (vm/tensor_ops.h): shapes and errors
// around kernels/sort.h, whose order they share.
#include <cstdint>
#include <limits>
#include <optional>

#include "absl/types/span.h"
#include "vm/kernels/sort.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

constexpr int64_t kMaxI32 = std::numeric_limits<int32_t>::max();

// The sorted axis of x, after the checks argsort and sort share: the kernel
// packs a position in 32 bits, and argsort's result is i32.
std::optional<AxisView> SortedAxis(TensorContext& cx, const char* name, const Object* x,
                                   int64_t axis) {
  std::optional<AxisView> view = ViewAround(cx, ShapeOf(x), axis);
  if (view && view->n > kMaxI32) {
    cx.Fail(RuntimeErrorId::kI32IndexRange, name, view->n);
    return std::nullopt;
  }
  return view;
}

}  // namespace

Object* ArgSort(TensorContext& cx, const Object* x, int64_t axis) {
  const std::optional<AxisView> view = SortedAxis(cx, "argsort", x, axis);
  if (!view) return nullptr;
  Object* out = cx.New(DType::kI32, ShapeOf(x));
  if (out == nullptr) return nullptr;
  kernels::ArgSort(DTypeOf(x), view->outer, view->n, view->inner, DataOf(x),
                   ElementsOf<int32_t>(out));
  return out;
}

Object* Sort(TensorContext& cx, const Object* x, int64_t axis) {
  const std::optional<AxisView> view = SortedAxis(cx, "sort", x, axis);
  if (!view) return nullptr;
  Object* out = cx.New(DTypeOf(x), ShapeOf(x));
  if (out == nullptr) return nullptr;
  kernels::Sort(DTypeOf(x), view->outer, view->n, view->inner, DataOf(x), DataOf(out));
  return out;
}

Object* SearchSorted(TensorContext& cx, const Object* sorted, const Object* values) {
  const DType dtype = DTypeOf(sorted);
  if (DTypeOf(values) != dtype || dtype == DType::kBool) {
    return cx.Fail(RuntimeErrorId::kBadCall, "`searchsorted` of tensors of other dtypes");
  }
  const absl::Span<const int64_t> shape = ShapeOf(sorted);
  if (shape.size() != 1) {
    return cx.Fail(RuntimeErrorId::kSearchSortedRank, ShapeString(shape));
  }
  // The result may be n itself (past every element).
  if (shape[0] > kMaxI32) return cx.Fail(RuntimeErrorId::kI32IndexRange, "searchsorted", shape[0]);
  Object* out = cx.New(DType::kI32, ShapeOf(values));
  if (out == nullptr) return nullptr;
  kernels::SearchSorted(dtype, DataOf(sorted), shape[0], DataOf(values), SizeOf(values),
                        ElementsOf<int32_t>(out));
  return out;
}

}  // namespace alea::vm

// `cumsum` and `cumprod` (vm/tensor_ops.h): np.cumsum's and np.cumprod's
// shapes and the i32 overflow errors around kernels/scan.h.
#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "vm/kernels/scan.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

Object* Scan(TensorContext& cx, bool prod, const Object* x, std::optional<int64_t> axis) {
  const DType dtype = DTypeOf(x);
  const char* name = prod ? "cumprod" : "cumsum";
  if (dtype == DType::kBool) {
    return cx.Fail(RuntimeErrorId::kBadCall, absl::StrCat("`", name, "` of a bool tensor"));
  }
  const absl::Span<const int64_t> shape = ShapeOf(x);
  // Without an axis NumPy flattens: one sequence, a 1-d result.
  const int64_t size = SizeOf(x);
  AxisView view{0, 1, size, 1};
  Shape out_shape = {size};
  if (axis.has_value()) {
    const std::optional<AxisView> around = ViewAround(cx, shape, *axis);
    if (!around) return nullptr;
    view = *around;
    out_shape.assign(shape.begin(), shape.end());
  }
  Object* out = cx.New(dtype, out_shape);
  if (out == nullptr) return nullptr;
  const int64_t at = (prod ? kernels::CumProd : kernels::CumSum)(
      dtype, view.outer, view.n, view.inner, DataOf(x), DataOf(out));
  if (at >= 0) {
    const int32_t before = ElementsOf<int32_t>(out)[at - view.inner];
    const int32_t next = ElementsOf<int32_t>(x)[at];
    cx.heap().Release(out);
    const std::string index = IndexString(out_shape, at);
    if (prod) return cx.Fail(RuntimeErrorId::kOverflowReduce, name, index, before, "*", next);
    return cx.Fail(RuntimeErrorId::kOverflowCumsum, index, before, next);
  }
  return out;
}

}  // namespace

Object* CumSum(TensorContext& cx, const Object* x, std::optional<int64_t> axis) {
  return Scan(cx, false, x, axis);
}

Object* CumProd(TensorContext& cx, const Object* x, std::optional<int64_t> axis) {
  return Scan(cx, true, x, axis);
}

}  // namespace alea::vm

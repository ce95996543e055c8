// `take` (vm/tensor_ops.h): np.take's shape rule and errors around
// kernels/take.h.
#include <cstdint>

#include "absl/types/span.h"
#include "vm/kernels/take.h"
#include "vm/tensor_ops.h"

namespace alea::vm {

Object* Take(TensorContext& cx, const Object* x, const Object* idx, int64_t axis) {
  if (DTypeOf(idx) != DType::kI32) {
    return cx.Fail(RuntimeErrorId::kBadCall, "`take` with indices that are not i32");
  }
  const absl::Span<const int64_t> shape = ShapeOf(x);
  const std::optional<AxisView> view = ViewAround(cx, shape, axis);
  if (!view) return nullptr;
  const absl::Span<const int64_t> idx_shape = ShapeOf(idx);
  Shape out_shape(shape.begin(), shape.begin() + view->axis);
  out_shape.insert(out_shape.end(), idx_shape.begin(), idx_shape.end());
  out_shape.insert(out_shape.end(), shape.begin() + view->axis + 1, shape.end());
  Object* out = cx.New(DTypeOf(x), out_shape);  // a rank past kMaxRank: kBadShape
  if (out == nullptr) return nullptr;
  const int64_t bad = kernels::Take(ElementBytes(DTypeOf(x)), view->outer, view->n, view->inner,
                                    DataOf(x), ElementsOf<int32_t>(idx), SizeOf(idx), DataOf(out));
  if (bad >= 0) {
    cx.heap().Release(out);
    return cx.Fail(RuntimeErrorId::kTakeIndex, ElementsOf<int32_t>(idx)[bad], view->axis, view->n);
  }
  return out;
}

}  // namespace alea::vm

// `set` and `add_at` of tensors (vm/tensor_ops.h): the index forms' shape
// rules and run-time errors, in-place reuse of the updated tensor, around
// kernels/scatter.h.
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"
#include "vm/kernels/elementwise.h"
#include "vm/kernels/scatter.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

using kernels::KernelStatus;
using kernels::ScatterFault;
using kernels::ScatterOp;
using kernels::ScatterValues;

const char* NameOf(ScatterOp op) { return op == ScatterOp::kSet ? "set" : "add_at"; }

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= d;
  return p;
}

// v as the kernels read it for the indexed shape `target`: itself when it has
// one element or one per target (the same row-major order, since it
// broadcasts), else a broadcast copy in `copy`, which the caller releases.
struct Values {
  ScatterValues view;
  Object* copy = nullptr;
};
std::optional<Values> ValuesFor(TensorContext& cx, ScatterOp op, const Object* v,
                                absl::Span<const int64_t> target) {
  Shape both;
  if (!BroadcastShapes({target, ShapeOf(v)}, &both) || absl::Span<const int64_t>(both) != target) {
    cx.Fail(RuntimeErrorId::kUpdateValueShape, NameOf(op), ShapeString(ShapeOf(v)),
            ShapeString(target));
    return std::nullopt;
  }
  if (SizeOf(v) == 1) return Values{{DataOf(v), true}};
  if (SizeOf(v) == Product(target)) return Values{{DataOf(v), false}};
  Object* copy = cx.New(DTypeOf(v), target);
  if (copy == nullptr) return std::nullopt;
  const Shape strides = BroadcastStrides(ShapeOf(v), target.size());
  kernels::Gather(DTypeOf(v), target, {DataOf(v), strides}, DataOf(copy));
  return Values{{DataOf(copy), false}, copy};
}

// The checks every form shares: dtypes the compiler guarantees.
bool CheckDTypes(TensorContext& cx, ScatterOp op, const Object* x, const Object* v) {
  if (DTypeOf(x) != DTypeOf(v) || (op == ScatterOp::kAdd && DTypeOf(x) == DType::kBool)) {
    cx.Fail(RuntimeErrorId::kBadCall, "`set`/`add_at` with operands of the wrong dtypes");
    return false;
  }
  return true;
}

// Runs the kernel on x itself when its only reference is ours (and it views
// no host memory), else on a copy; x's reference is consumed either way, as
// is `values`' copy. An i32 overflow names the element of x.
Object* Update(TensorContext& cx, Owned x, const Values& values,
               absl::FunctionRef<KernelStatus(void* data, ScatterFault* fault)> kernel) {
  Object* out = x.tensor;
  if (!IsReusable(x.tensor)) {
    out = cx.New(DTypeOf(x.tensor), ShapeOf(x.tensor));
    if (out != nullptr && SizeOf(out) != 0) {
      std::memcpy(DataOf(out), DataOf(x.tensor),
                  static_cast<size_t>(SizeOf(out)) * ElementBytes(DTypeOf(out)));
    }
    cx.heap().Release(x.tensor);
  }
  KernelStatus status = KernelStatus::kOk;
  ScatterFault fault;
  if (out != nullptr) status = kernel(DataOf(out), &fault);
  if (values.copy != nullptr) cx.heap().Release(values.copy);
  if (out == nullptr) return nullptr;
  if (status != KernelStatus::kOk) {
    const std::string at = IndexString(ShapeOf(out), fault.at);
    cx.heap().Release(out);
    return cx.Fail(RuntimeErrorId::kTensorOverflow, "+", at, fault.old_value, fault.added);
  }
  return out;
}

// The failure path before the update: x's reference is consumed.
std::nullptr_t Drop(TensorContext& cx, Owned x) {
  cx.heap().Release(x.tensor);
  return nullptr;
}

}  // namespace

Object* UpdateAt(TensorContext& cx, ScatterOp op, Owned x, int64_t i, int64_t axis,
                 const Object* v) {
  if (!CheckDTypes(cx, op, x.tensor, v)) return Drop(cx, x);
  const absl::Span<const int64_t> shape = ShapeOf(x.tensor);
  const std::optional<AxisView> view = ViewAround(cx, shape, axis);
  if (!view) return Drop(cx, x);
  if (i < 0 || i >= view->n) {
    cx.Fail(RuntimeErrorId::kTakeIndex, i, view->axis, view->n);
    return Drop(cx, x);
  }
  Shape target(shape.begin(), shape.begin() + view->axis);
  target.insert(target.end(), shape.begin() + view->axis + 1, shape.end());
  const std::optional<Values> values = ValuesFor(cx, op, v, target);
  if (!values) return Drop(cx, x);
  return Update(cx, x, *values, [&](void* data, ScatterFault* fault) {
    return kernels::ScatterOne(op, DTypeOf(v), view->outer, view->n, view->inner, data, i,
                               values->view, fault);
  });
}

Object* UpdateTuple(TensorContext& cx, ScatterOp op, Owned x, absl::Span<const int64_t> index,
                    const Object* v) {
  if (!CheckDTypes(cx, op, x.tensor, v)) return Drop(cx, x);
  const absl::Span<const int64_t> shape = ShapeOf(x.tensor);
  if (index.size() > shape.size()) {
    cx.Fail(RuntimeErrorId::kUpdateTooManyIndices, NameOf(op), static_cast<int64_t>(index.size()),
            ShapeString(shape));
    return Drop(cx, x);
  }
  // The leading axes taken as one of their product's length: the position
  // is the row-major offset of (i0, ..., ik-1) in them.
  int64_t at = 0;
  for (size_t a = 0; a < index.size(); ++a) {
    if (index[a] < 0 || index[a] >= shape[a]) {
      cx.Fail(RuntimeErrorId::kTakeIndex, index[a], static_cast<int64_t>(a), shape[a]);
      return Drop(cx, x);
    }
    at = at * shape[a] + index[a];
  }
  const absl::Span<const int64_t> target = shape.subspan(index.size());
  const std::optional<Values> values = ValuesFor(cx, op, v, target);
  if (!values) return Drop(cx, x);
  const int64_t n = Product(shape.subspan(0, index.size())), inner = Product(target);
  return Update(cx, x, *values, [&](void* data, ScatterFault* fault) {
    return kernels::ScatterOne(op, DTypeOf(v), 1, n, inner, data, at, values->view, fault);
  });
}

Object* UpdateTake(TensorContext& cx, ScatterOp op, Owned x, const Object* idx, int64_t axis,
                   const Object* v) {
  if (!CheckDTypes(cx, op, x.tensor, v)) return Drop(cx, x);
  if (DTypeOf(idx) != DType::kI32) {
    cx.Fail(RuntimeErrorId::kBadCall, "`set`/`add_at` with indices that are not i32");
    return Drop(cx, x);
  }
  const absl::Span<const int64_t> shape = ShapeOf(x.tensor);
  const std::optional<AxisView> view = ViewAround(cx, shape, axis);
  if (!view) return Drop(cx, x);
  // Checked even when nothing would be written (an axis before it of length
  // 0): NumPy deprecates skipping that check, and a bad index is a bug.
  const int32_t* positions = ElementsOf<int32_t>(idx);
  if (const int64_t bad = kernels::FirstIndexOutOfRange(positions, SizeOf(idx), view->n);
      bad >= 0) {
    cx.Fail(RuntimeErrorId::kTakeIndex, positions[bad], view->axis, view->n);
    return Drop(cx, x);
  }
  const absl::Span<const int64_t> idx_shape = ShapeOf(idx);
  Shape target(shape.begin(), shape.begin() + view->axis);
  target.insert(target.end(), idx_shape.begin(), idx_shape.end());
  target.insert(target.end(), shape.begin() + view->axis + 1, shape.end());
  if (target.size() > static_cast<size_t>(kMaxRank)) {
    cx.Fail(RuntimeErrorId::kBadShape, ShapeString(target));
    return Drop(cx, x);
  }
  const std::optional<Values> values = ValuesFor(cx, op, v, target);
  if (!values) return Drop(cx, x);
  return Update(cx, x, *values, [&](void* data, ScatterFault* fault) {
    return kernels::ScatterAxis(op, DTypeOf(v), view->outer, view->n, view->inner, data, positions,
                                SizeOf(idx), values->view, fault);
  });
}

Object* UpdateMask(TensorContext& cx, ScatterOp op, Owned x, const Object* mask, const Object* v) {
  if (!CheckDTypes(cx, op, x.tensor, v)) return Drop(cx, x);
  if (DTypeOf(mask) != DType::kBool) {
    cx.Fail(RuntimeErrorId::kBadCall, "`set`/`add_at` with a mask that is not bool");
    return Drop(cx, x);
  }
  if (ShapeOf(mask) != ShapeOf(x.tensor)) {
    cx.Fail(RuntimeErrorId::kUpdateMaskShape, NameOf(op), ShapeString(ShapeOf(mask)),
            ShapeString(ShapeOf(x.tensor)));
    return Drop(cx, x);
  }
  const uint8_t* selected = ElementsOf<uint8_t>(mask);
  int64_t count = 0;
  for (int64_t p = 0; p < SizeOf(mask); ++p) count += selected[p] != 0 ? 1 : 0;
  const int64_t target[] = {count};
  const std::optional<Values> values = ValuesFor(cx, op, v, target);
  if (!values) return Drop(cx, x);
  return Update(cx, x, *values, [&](void* data, ScatterFault* fault) {
    return kernels::ScatterMask(op, DTypeOf(v), SizeOf(mask), data, selected, values->view, fault);
  });
}

}  // namespace alea::vm

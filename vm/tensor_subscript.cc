// `x[i, j]`, `m[:, j]`, `x[a:b:s]`, `m[:, idx]` and `x[mask]` (vm/tensor_ops.h):
// NumPy's basic indexing (Ints and slices with positive steps), integer-array
// indexing along one axis, and boolean-mask selection, each one copy.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "absl/types/span.h"
#include "vm/kernels/elementwise.h"
#include "vm/kernels/select.h"
#include "vm/kernels/take.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

// x's elements as the basic items leave them: a strided view (no copy yet).
struct View {
  int64_t offset = 0;  // in elements
  Shape shape, strides;
  int gather_axis = -1;  // the view axis an index tensor replaces, if any
};

}  // namespace

bool SubscriptItemsOf(const Object* spec, std::vector<SubscriptItem>* items) {
  items->clear();
  for (uint64_t w = 0; w + 3 < spec->length; w += 4) {
    const Value* item = Slots(spec) + w;
    const int64_t kind = AsInt(item[0]);
    if (kind < SubscriptItem::kIndex || kind > SubscriptItem::kTensor) return false;
    items->push_back(
        {static_cast<SubscriptItem::Kind>(kind), AsInt(item[1]), AsInt(item[2]), AsInt(item[3])});
  }
  return true;
}

Object* Subscript(TensorContext& cx, const Object* x, absl::Span<const SubscriptItem> items,
                  const Object* idx) {
  const absl::Span<const int64_t> shape = ShapeOf(x);
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (static_cast<int64_t>(items.size()) > rank) {
    return cx.Fail(RuntimeErrorId::kSubscriptRank, items.size(), ShapeString(shape));
  }
  Shape contiguous(shape.size(), 1);
  for (int64_t d = rank - 1; d > 0; --d) contiguous[d - 1] = contiguous[d] * shape[d];
  View view;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t size = shape[d], stride = contiguous[d];
    const SubscriptItem item = d < static_cast<int64_t>(items.size()) ? items[d] : SubscriptItem{};
    switch (item.kind) {
      case SubscriptItem::kIndex:
        if (item.start < 0 || item.start >= size) {
          return cx.Fail(RuntimeErrorId::kTakeIndex, item.start, d, size);
        }
        view.offset += item.start * stride;
        break;
      case SubscriptItem::kSlice: {
        if (item.start < 0) return cx.Fail(RuntimeErrorId::kNegativeSliceBound, item.start);
        if (item.stop < 0) return cx.Fail(RuntimeErrorId::kNegativeSliceBound, item.stop);
        if (item.step <= 0) return cx.Fail(RuntimeErrorId::kSliceStep, item.step);
        // Clamped as `x[a:b]` is: past the end is the end, b < a is empty.
        const int64_t from = std::min(item.start, size);
        const int64_t to = std::max(from, std::min(item.stop, size));
        view.offset += from * stride;
        // A step of the size or more takes at most the first element, so
        // clamping it there changes nothing, and keeps `to - from + step` and
        // `step * stride` in range for any Int step.
        const int64_t step = std::min(item.step, std::max<int64_t>(size, 1));
        view.shape.push_back((to - from + step - 1) / step);
        view.strides.push_back(step * stride);
        break;
      }
      case SubscriptItem::kTensor:
        view.gather_axis = static_cast<int>(view.shape.size());
        view.shape.push_back(size);
        view.strides.push_back(stride);
        break;
    }
  }
  const DType dtype = DTypeOf(x);
  const int bytes = ElementBytes(dtype);
  const char* base = static_cast<const char*>(DataOf(x)) + view.offset * bytes;
  if (view.gather_axis < 0) {
    Object* out = cx.New(dtype, view.shape);
    if (out == nullptr) return nullptr;
    kernels::Gather(dtype, view.shape, kernels::Strided{base, view.strides}, DataOf(out));
    return out;
  }

  // One index tensor: the view's axis g is replaced by idx's shape. Each
  // (before g, index) pair copies the block of view axes after g.
  if (DTypeOf(idx) != DType::kI32) {
    return cx.Fail(RuntimeErrorId::kBadCall, "an index tensor that is not i32");
  }
  const int g = view.gather_axis;
  const int32_t* indices = ElementsOf<int32_t>(idx);
  const int64_t count = SizeOf(idx);
  for (int64_t j = 0; j < count; ++j) {
    if (indices[j] < 0 || indices[j] >= view.shape[g]) {
      // The axis of x (each item indexes one), not of the view.
      int64_t axis = 0;
      while (items[axis].kind != SubscriptItem::kTensor) ++axis;
      return cx.Fail(RuntimeErrorId::kTakeIndex, indices[j], axis, view.shape[g]);
    }
  }
  const absl::Span<const int64_t> before(view.shape.data(), g);
  const absl::Span<const int64_t> after = absl::MakeConstSpan(view.shape).subspan(g + 1);
  const absl::Span<const int64_t> after_strides = absl::MakeConstSpan(view.strides).subspan(g + 1);
  // NumPy counts Int items as advanced indices too, broadcast with the index
  // tensor: when a slice separates one from the tensor, the tensor's axes
  // come first (numpy.org, "Combining advanced and basic indexing").
  bool separated = false;
  {
    int64_t first = -1, last = -1, tensor_at = -1;
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].kind == SubscriptItem::kSlice) continue;
      if (first < 0) first = static_cast<int64_t>(i);
      last = static_cast<int64_t>(i);
      if (items[i].kind == SubscriptItem::kTensor) tensor_at = static_cast<int64_t>(i);
    }
    for (int64_t i = first; i <= last && tensor_at >= 0; ++i) {
      separated = separated || items[i].kind == SubscriptItem::kSlice;
    }
  }
  const absl::Span<const int64_t> idx_shape = ShapeOf(idx);
  Shape out_shape;
  if (separated) out_shape.assign(idx_shape.begin(), idx_shape.end());
  out_shape.insert(out_shape.end(), before.begin(), before.end());
  if (!separated) out_shape.insert(out_shape.end(), idx_shape.begin(), idx_shape.end());
  out_shape.insert(out_shape.end(), after.begin(), after.end());
  Object* out = cx.New(dtype, out_shape);  // a rank past kMaxRank: kBadShape
  if (out == nullptr) return nullptr;
  int64_t outer = 1;
  for (int64_t d : before) outer *= d;
  if (SizeOf(out) == 0) return out;
  // Contiguous blocks (the axes after g whole, as in `x[idx]` or
  // `m[1:3, idx]`) go to the take kernel a row at a time.
  bool block_contiguous = true;
  int64_t block = 1;  // elements per (row, index) pair
  for (size_t d = after.size(); d-- > 0;) {
    block_contiguous = block_contiguous && (after[d] == 1 || after_strides[d] == block);
    block *= after[d];
  }
  char* o = static_cast<char*>(DataOf(out));
  // Where block (r, j) goes: r-major, or j-major when the tensor's axes lead.
  const int64_t r_step = (separated ? 1 : count) * block * bytes;
  const int64_t j_step = (separated ? outer : 1) * block * bytes;
  Shape index(before.size(), 0);
  for (int64_t r = 0; r < outer; ++r) {
    int64_t offset = 0;
    for (size_t d = 0; d < before.size(); ++d) offset += index[d] * view.strides[d];
    const char* row = base + offset * bytes;
    if (!separated && block_contiguous && view.strides[g] == block) {
      kernels::Take(bytes, 1, view.shape[g], block, row, indices, count, o + r * r_step);
    } else {
      for (int64_t j = 0; j < count; ++j) {
        kernels::Gather(dtype, after,
                        kernels::Strided{row + indices[j] * view.strides[g] * bytes, after_strides},
                        o + r * r_step + j * j_step);
      }
    }
    for (size_t d = before.size(); d-- > 0;) {
      if (++index[d] < before[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

Object* MaskSelect(TensorContext& cx, const Object* x, const Object* mask) {
  const absl::Span<const int64_t> shape = ShapeOf(x), mask_shape = ShapeOf(mask);
  if (DTypeOf(mask) != DType::kBool) {
    return cx.Fail(RuntimeErrorId::kBadCall, "a mask that is not a bool tensor");
  }
  if (!std::equal(shape.begin(), shape.end(), mask_shape.begin(), mask_shape.end())) {
    return cx.Fail(RuntimeErrorId::kMaskShape, ShapeString(mask_shape), ShapeString(shape));
  }
  const uint8_t* m = ElementsOf<uint8_t>(mask);
  const int64_t n = SizeOf(x);
  const int64_t count = kernels::CountTrue(m, n);
  const int64_t out_shape[] = {count};
  Object* out = cx.New(DTypeOf(x), out_shape);
  if (out == nullptr) return nullptr;
  kernels::Select(ElementBytes(DTypeOf(x)), DataOf(x), m, n, count, DataOf(out));
  return out;
}

}  // namespace alea::vm

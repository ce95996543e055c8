// Shapes and creation (vm/tensor_ops.h): operations that only place elements
// (fill, count, copy, permute), never compute with them, so they work on
// element bytes whatever the dtype.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "vm/kernels/transpose.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

// The product of shape[from:]. Safe from overflow for a tensor's own shape:
// ElementCount bounds the product of its non-zero dimensions by 2^48, and a
// zero anywhere makes the whole product 0.
int64_t CountFrom(absl::Span<const int64_t> shape, size_t from) {
  int64_t n = 1;
  for (size_t i = from; i < shape.size(); ++i) n *= shape[i];
  return n;
}

// Copies `count` elements of `dtype`; memcpy's pointers must be valid even for
// 0 bytes, and an empty tensor's data pointer is only one past its header.
void CopyElements(DType dtype, void* to, const void* from, int64_t count) {
  if (count > 0) std::memcpy(to, from, static_cast<size_t>(count) * ElementBytes(dtype));
}

const char* ElementAt(const Object* t, int64_t index) {
  return static_cast<const char*>(DataOf(t)) + index * ElementBytes(DTypeOf(t));
}
char* ElementAt(Object* t, int64_t index) {
  return static_cast<char*>(DataOf(t)) + index * ElementBytes(DTypeOf(t));
}

// A new reference to a borrowed tensor, for operations whose result is their
// operand unchanged (tensors are immutable, so sharing is invisible).
Object* Shared(const Object* x) {
  Retain(FromObject(x));
  return const_cast<Object*>(x);
}

// x's elements [offset, offset + count) as a tensor of `shape`: a view
// (TensorHead::kViewOfTensor, nothing copied) when it keeps at least half
// of the memory it pins alive, else a copy (counted by --stats): a small
// slice should not hold a large tensor's elements alive, as NumPy's views
// do. A view of a view reads the first one's base.
Object* Part(TensorContext& cx, const Object* x, absl::Span<const int64_t> shape, int64_t offset,
             int64_t count) {
  const DType dtype = DTypeOf(x);
  Object* base =
      Head(x)->host_view == TensorHead::kViewOfTensor ? BaseOf(x) : const_cast<Object*>(x);
  if (count > 0 && count * 2 >= SizeOf(base)) {
    Object* out = cx.heap().NewTensorViewOf(base, dtype, shape, ElementAt(x, offset));
    if (out != nullptr) return out;
    return cx.OutOfMemory();
  }
  Object* out = cx.New(dtype, shape);
  if (out == nullptr) return nullptr;
  CopyElements(dtype, DataOf(out), ElementAt(x, offset), count);
  return cx.Copied(out);
}

}  // namespace

Object* Full(TensorContext& cx, DType dtype, absl::Span<const int64_t> shape, uint32_t value) {
  Object* out = cx.New(dtype, shape);
  if (out == nullptr) return nullptr;
  const int64_t n = SizeOf(out);
  if (dtype == DType::kBool) {
    if (n > 0) std::memset(DataOf(out), value != 0 ? 1 : 0, static_cast<size_t>(n));
  } else {
    // The bits, whatever the 4-byte dtype: no float conversion touches a NaN.
    std::fill_n(ElementsOf<uint32_t>(out), n, value);
  }
  return out;
}

Object* Arange(TensorContext& cx, DType dtype, int64_t start, int64_t stop) {
  if (dtype == DType::kBool) return cx.Fail(RuntimeErrorId::kBadCall, "`arange` of bool");
  // stop - start may overflow an int64_t (start = -2^63, stop = 2^63 - 1),
  // never a uint64_t; a count past 2^48 is refused by New (kBadShape).
  const uint64_t count =
      stop > start ? static_cast<uint64_t>(stop) - static_cast<uint64_t>(start) : 0;
  if (count > 0 && dtype != DType::kF32) {
    // The elements are monotonic: if the first and the last fit, all do.
    const int64_t lo = dtype == DType::kI32 ? std::numeric_limits<int32_t>::min() : 0;
    const int64_t hi = dtype == DType::kI32 ? std::numeric_limits<int32_t>::max()
                                            : std::numeric_limits<uint32_t>::max();
    if (start < lo || start > hi) {
      return cx.Fail(RuntimeErrorId::kScalarOutOfRange, start, DTypeName(dtype));
    }
    if (stop - 1 > hi) {
      return cx.Fail(RuntimeErrorId::kScalarOutOfRange, stop - 1, DTypeName(dtype));
    }
  }
  const int64_t dim = static_cast<int64_t>(
      std::min<uint64_t>(count, static_cast<uint64_t>(std::numeric_limits<int64_t>::max())));
  Object* out = cx.New(dtype, {&dim, 1});
  if (out == nullptr) return nullptr;
  const int64_t n = SizeOf(out);
  // start + i < stop for every i < n, so it never overflows.
  switch (dtype) {
    case DType::kF32: {
      float* o = ElementsOf<float>(out);
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(start + i);
      break;
    }
    case DType::kI32: {
      int32_t* o = ElementsOf<int32_t>(out);
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<int32_t>(start + i);
      break;
    }
    case DType::kU32: {
      uint32_t* o = ElementsOf<uint32_t>(out);
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<uint32_t>(start + i);
      break;
    }
    case DType::kBool:
      break;
  }
  return out;
}

Object* Reshape(TensorContext& cx, TensorArg x, absl::Span<const int64_t> shape) {
  // The owned reference is consumed on every path, failures included.
  auto fail = [&](auto... args) {
    if (x.owned) cx.heap().Release(x.tensor);
    return cx.Fail(args...);
  };
  const int64_t size = SizeOf(x.tensor);
  int inferred = -1;  // the axis of the -1, if any
  bool bad = shape.size() > static_cast<size_t>(kMaxRank);
  for (size_t i = 0; i < shape.size() && !bad; ++i) {
    if (shape[i] == -1 && inferred < 0) {
      inferred = static_cast<int>(i);
    } else if (shape[i] < 0) {
      bad = true;  // any other negative, or a second -1
    }
  }
  if (bad) return fail(RuntimeErrorId::kBadShape, ShapeString(shape));
  // The product of the given dimensions (without the -1); a product past the
  // size can never match, so overflow only needs to be noticed.
  int64_t product = 1;
  bool zero = false, overflow = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (static_cast<int>(i) == inferred) continue;
    if (shape[i] == 0) {
      zero = true;
    } else if (!overflow && __builtin_mul_overflow(product, shape[i], &product)) {
      overflow = true;
    }
  }
  if (zero) {
    // 0 matches only an empty tensor; a dimension past 2^48 beside the 0 is
    // then New's kBadShape, the message that names the real problem.
    product = 0;
    overflow = false;
  }
  Shape out_shape(shape.begin(), shape.end());
  if (inferred >= 0) {
    // NumPy refuses a -1 next to a 0 (any size would do) and a size the
    // others do not divide.
    if (product == 0 || overflow || size % product != 0) {
      return fail(RuntimeErrorId::kReshapeSize, ShapeString(ShapeOf(x.tensor)), size,
                  ShapeString(shape));
    }
    out_shape[inferred] = size / product;
  } else if (overflow || product != size) {
    return fail(RuntimeErrorId::kReshapeSize, ShapeString(ShapeOf(x.tensor)), size,
                ShapeString(shape));
  }
  if (absl::MakeConstSpan(out_shape) == ShapeOf(x.tensor)) {
    // Nothing to change, and tensors are immutable: share the operand.
    return x.owned ? x.tensor : Shared(x.tensor);
  }
  if (x.owned && IsReusable(x.tensor) && RankOf(x.tensor) == static_cast<int>(out_shape.size())) {
    // The shape lives in the header with room for exactly `rank` dimensions,
    // so only a reshape to the same rank can be done in place.
    std::copy(out_shape.begin(), out_shape.end(), ShapeData(x.tensor));
    return x.tensor;
  }
  // Another rank, or a tensor shared: the same elements, read in place.
  Object* out = Part(cx, x.tensor, out_shape, 0, size);
  if (x.owned) cx.heap().Release(x.tensor);
  return out;
}

Object* Transpose(TensorContext& cx, const Object* x) {
  const int rank = RankOf(x);
  if (rank <= 1) return Shared(x);
  const absl::Span<const int64_t> shape = ShapeOf(x);
  // The output's axis j is the input's axis rank-1-j, moved in tiles
  // (kernels/transpose.h); ranges of the output's first axis on the
  // threads, whole tiles each, at least 32K elements per range.
  Shape out_shape(shape.rbegin(), shape.rend());
  Object* out = cx.New(DTypeOf(x), out_shape);
  if (out == nullptr) return nullptr;
  const int64_t rows = shape.back();
  const int64_t row_elements = rows > 0 ? SizeOf(x) / rows : 0;
  cx.ForRanges(rows, 32, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, row_elements)),
               [&](int, int64_t begin, int64_t end) {
                 kernels::TransposeReversed(DTypeOf(x), shape, DataOf(x), DataOf(out), begin, end);
               });
  return cx.Copied(out);
}

Object* Index(TensorContext& cx, const Object* x, int64_t i) {
  const absl::Span<const int64_t> shape = ShapeOf(x);
  if (shape.empty()) return cx.Fail(RuntimeErrorId::kIndexScalarTensor, "index");
  if (i < 0 || i >= shape[0]) return cx.Fail(RuntimeErrorId::kTensorIndex, i, shape[0]);
  const int64_t inner = CountFrom(shape, 1);
  return Part(cx, x, shape.subspan(1), i * inner, inner);
}

Object* Slice(TensorContext& cx, const Object* x, int64_t lo, int64_t hi) {
  const absl::Span<const int64_t> shape = ShapeOf(x);
  if (shape.empty()) return cx.Fail(RuntimeErrorId::kIndexScalarTensor, "slice");
  if (lo < 0) return cx.Fail(RuntimeErrorId::kNegativeSliceBound, lo);
  if (hi < 0) return cx.Fail(RuntimeErrorId::kNegativeSliceBound, hi);
  // Clamped as arrays' `slice` (stdlib/arrays.cc): hi < lo gives empty.
  const int64_t from = std::min(lo, shape[0]);
  const int64_t to = std::max(from, std::min(hi, shape[0]));
  if (from == 0 && to == shape[0]) return Shared(x);
  Shape out_shape(shape.begin(), shape.end());
  out_shape[0] = to - from;
  const int64_t inner = CountFrom(shape, 1);
  return Part(cx, x, out_shape, from * inner, (to - from) * inner);
}

Object* Concat(TensorContext& cx, absl::Span<const Object* const> xs, int64_t axis) {
  if (xs.empty()) return cx.Fail(RuntimeErrorId::kConcatEmpty);
  const Object* first = xs[0];
  const absl::Span<const int64_t> shape = ShapeOf(first);
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) return cx.Fail(RuntimeErrorId::kAxisOutOfRange, axis, ShapeString(shape));
  // The sum along the axis saturates: a dimension past 2^48 is refused by New
  // (kBadShape), and only zero-element tensors can add up that far.
  int64_t total = 0;
  for (const Object* x : xs) {
    if (DTypeOf(x) != DTypeOf(first)) {
      return cx.Fail(RuntimeErrorId::kBadCall, "`concat` of tensors of different dtypes");
    }
    const absl::Span<const int64_t> s = ShapeOf(x);
    bool same = s.size() == shape.size();
    for (int64_t d = 0; same && d < rank; ++d) same = d == a || s[d] == shape[d];
    if (!same) {
      return cx.Fail(RuntimeErrorId::kConcatShapes, axis, ShapeString(shape), ShapeString(s));
    }
    if (__builtin_add_overflow(total, s[a], &total)) total = std::numeric_limits<int64_t>::max();
  }
  if (xs.size() == 1) return Shared(first);
  Shape out_shape(shape.begin(), shape.end());
  out_shape[a] = total;
  Object* out = cx.New(DTypeOf(first), out_shape);
  if (out == nullptr || SizeOf(out) == 0) return out;
  // The output is `outer` rows, each the inputs' rows one after another.
  // Every dimension is non-zero here, so these products are bounded by the
  // output's size.
  int64_t outer = 1;
  for (int64_t d = 0; d < a; ++d) outer *= shape[d];
  const int64_t inner = CountFrom(shape, a + 1);
  const int64_t row = total * inner;
  int64_t offset = 0;
  for (const Object* x : xs) {
    const int64_t chunk = ShapeOf(x)[a] * inner;
    for (int64_t o = 0; o < outer && chunk > 0; ++o) {
      CopyElements(DTypeOf(out), ElementAt(out, o * row + offset), ElementAt(x, o * chunk), chunk);
    }
    offset += chunk;
  }
  return cx.Copied(out);
}

std::optional<AxisView> ViewAround(TensorContext& cx, absl::Span<const int64_t> shape,
                                   int64_t axis) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    cx.Fail(RuntimeErrorId::kAxisOutOfRange, axis, ShapeString(shape));
    return std::nullopt;
  }
  int64_t outer = 1;
  for (int64_t d = 0; d < a; ++d) outer *= shape[d];
  return AxisView{a, outer, shape[a], CountFrom(shape, a + 1)};
}

Shape ShapeFromIntArray(Value array) {
  const Object* a = AsObject(array);
  Shape shape(a->length);
  for (uint64_t i = 0; i < a->length; ++i) shape[i] = AsInt(Slots(a)[i]);
  return shape;
}

}  // namespace alea::vm

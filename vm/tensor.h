// The tensor heap object: n-d, row-major, immutable to the program, with a
// dtype (docs/language.md "Tensors"). One allocation holds the Object header,
// the TensorHead, the shape and the elements, 64-byte aligned for the
// kernels; or, for a view, the header and shape only, the elements being the
// host's memory or a contiguous part of another tensor (a reshape, a row, a
// slice: TensorHead::host_view).
//
// "Functional but in place" (docs/decisions.md "Tensors"): an operation that
// owns its operand's only reference may write its result into that operand's
// buffer (IsReusable); a view never is.
#ifndef ALEA_VM_TENSOR_H_
#define ALEA_VM_TENSOR_H_

#include <cstdint>

#include "absl/types/span.h"
#include "vm/dtype.h"
#include "vm/heap.h"
#include "vm/value.h"

namespace alea::vm {

// NumPy's limit; deeper shapes are a run-time error where they would arise.
inline constexpr int kMaxRank = 32;

// Follows the Object header of a kTensor. Object::length is the element count.
struct TensorHead {
  void* data;  // the elements: inline after the shape, or host memory (a view)
  DType dtype;
  uint8_t rank;
  // kViewOfHost: `data` belongs to the host; never written, never freed
  // here. kViewOfTensor: `data` lies in another tensor (the base, whose
  // pointer follows the shape; the view holds a reference to it): a
  // reshape, slice or row read in place; never written (IsReusable), never
  // parked at a site. 0: the elements follow the shape.
  uint8_t host_view;
  static constexpr uint8_t kViewOfHost = 1;
  static constexpr uint8_t kViewOfTensor = 2;
  uint8_t unused;
  // The instruction site that made it (Heap::NewTensorAt), 0 for none: when
  // it dies it is parked there for that site's next result.
  uint32_t home;
  // int64_t shape[rank] follows.
};
static_assert(sizeof(TensorHead) == 16);

inline TensorHead* Head(Object* t) { return reinterpret_cast<TensorHead*>(t + 1); }
inline const TensorHead* Head(const Object* t) {
  return reinterpret_cast<const TensorHead*>(t + 1);
}
inline DType DTypeOf(const Object* t) { return Head(t)->dtype; }
inline int RankOf(const Object* t) { return Head(t)->rank; }
inline int64_t* ShapeData(Object* t) { return reinterpret_cast<int64_t*>(Head(t) + 1); }
inline absl::Span<const int64_t> ShapeOf(const Object* t) {
  return absl::Span<const int64_t>(reinterpret_cast<const int64_t*>(Head(t) + 1), Head(t)->rank);
}
inline int64_t SizeOf(const Object* t) { return static_cast<int64_t>(t->length); }
inline void* DataOf(Object* t) { return Head(t)->data; }
inline const void* DataOf(const Object* t) { return Head(t)->data; }
template <typename T>
T* ElementsOf(Object* t) {
  return static_cast<T*>(Head(t)->data);
}
template <typename T>
const T* ElementsOf(const Object* t) {
  return static_cast<const T*>(Head(t)->data);
}

// The tensor whose elements a kViewOfTensor view reads (its pointer follows
// the shape).
inline Object* BaseOf(const Object* t) {
  const int64_t bits = ShapeOf(t).data()[RankOf(t)];
  return reinterpret_cast<Object*>(static_cast<uintptr_t>(bits));
}

// Whether an operation holding this (owned) reference may overwrite it.
inline bool IsReusable(const Object* t) { return t->refcount == 1 && !Head(t)->host_view; }

// Bytes per element: 4, or 1 for bool.
inline int ElementBytes(DType dtype) { return dtype == DType::kBool ? 1 : 4; }

// "f32", "i32", "u32", "bool".
const char* DTypeName(DType dtype);

// The element count of `shape`, or -1 when a dimension is negative, the rank
// exceeds kMaxRank, or the byte size would not fit in 2^48.
int64_t ElementCount(DType dtype, absl::Span<const int64_t> shape);

// "(2, 3)", "(4,)", "()": NumPy's way, used in every shape message.
std::string ShapeString(absl::Span<const int64_t> shape);

// The element at row-major position `flat` of `shape`, as a program would
// index it: "7" along one axis, "(1, 3)" (NumPy's tuple) along several.
std::string IndexString(absl::Span<const int64_t> shape, int64_t flat);

// The offset, in elements, of that element in an operand read with
// `strides` (one per axis of `shape`; 0 along a broadcast axis).
int64_t OffsetOf(absl::Span<const int64_t> shape, absl::Span<const int64_t> strides, int64_t flat);

}  // namespace alea::vm

#endif  // ALEA_VM_TENSOR_H_

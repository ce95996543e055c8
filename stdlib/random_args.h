// What the sampler natives (random_*.cc) share: a RandState argument checked
// and consumed as the sampler opcodes do it (the use-once check first, then
// the other arguments and the allocation, and the state consumed only once
// nothing can fail), a tensor draw split across the VM's threads, a scalar
// draw, and tensor parameters (their dtype checked, broadcast in heap
// scratch). Natives named `rand_NAME` take a shape, `rand_NAME_scalar`
// not, and `rand_NAME_default` takes a shape but not the parameter JAX
// defaults before it; the use-once notes name them all NAME.
#ifndef ALEA_STDLIB_RANDOM_ARGS_H_
#define ALEA_STDLIB_RANDOM_ARGS_H_

#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "vm/native.h"
#include "vm/random/keys.h"
#include "vm/random_draw.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/thread_pool.h"

namespace alea::stdlib {

// A draw of `shape` (an [Int] argument) and `dtype`: fill(key, start, count,
// out) writes elements [start, start + count) of it (a partitionable
// sampler), on ranges of the pool's threads for draws that cost at least
// ns_per_element. `state` is consumed once the result is allocated.
template <typename T, typename Fill>
absl::StatusOr<vm::Value> DrawTensor(vm::NativeContext& ctx, vm::Value state, vm::Value shape,
                                     vm::DType dtype, double ns_per_element, Fill fill) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(state);
  if (!key.ok()) return key.status();
  vm::TensorContext cx = ctx.tensors();
  vm::Object* out = cx.New(dtype, vm::ShapeFromIntArray(shape));
  if (out == nullptr) return ctx.Fail(cx);
  T* y = vm::ElementsOf<T>(out);
  cx.ForRanges(static_cast<int64_t>(out->length), 64, vm::ThreadPool::MinRange(ns_per_element),
               [&](int, int64_t begin, int64_t end) {
                 fill(*key, static_cast<uint64_t>(begin), static_cast<uint64_t>(end - begin),
                      y + begin);
               });
  ctx.ConsumeState(state);
  return vm::FromObject(out);
}

// A tensor parameter the sampler reads as f32 elements. Loading checks no
// dtypes (the builtins take Tensor(f32)), so another dtype is refused here
// rather than misread (a bool tensor has a byte an element).
inline absl::Status CheckF32(vm::NativeContext& ctx, const char* sampler, const char* param,
                             const vm::Object* t) {
  if (vm::DTypeOf(t) == vm::DType::kF32) return absl::OkStatus();
  return ctx.Fail(
      vm::RuntimeErrorId::kBadCall,
      absl::StrCat("`", sampler, "` with `", param, "` of dtype ", vm::DTypeName(vm::DTypeOf(t))));
}

// Scratch tensors (TensorContext::Scratch) released when this goes out of
// scope, so that every return of a native releases them.
class ScratchTensors {
 public:
  explicit ScratchTensors(vm::Heap& heap) : heap_(heap) {}
  ~ScratchTensors() {
    for (vm::Object* t : held_) heap_.Release(t);
  }
  ScratchTensors(const ScratchTensors&) = delete;
  ScratchTensors& operator=(const ScratchTensors&) = delete;
  // Takes `t` (may be null) and returns it.
  vm::Object* Hold(vm::Object* t) {
    if (t != nullptr) held_.push_back(t);
    return t;
  }

 private:
  vm::Heap& heap_;
  absl::InlinedVector<vm::Object*, 4> held_;
};

// The elements of the f32 tensor `t` as read at every element of `shape`
// (NumPy's broadcast; the shapes are known to agree), or t's own when the
// shapes are equal. An expanded copy is heap scratch held by `scratch`, so
// that a program's huge shape meets the heap budget, not std::bad_alloc.
// nullptr after recording the failure in cx (kBadShape, or out of memory).
inline const float* Expanded(vm::TensorContext& cx, const vm::Object* t,
                             absl::Span<const int64_t> shape, ScratchTensors& scratch) {
  const float* x = vm::ElementsOf<float>(t);
  if (vm::ShapeOf(t) == shape) return x;
  const int64_t n = vm::ElementCount(vm::DType::kF32, shape);
  if (n < 0) return cx.Fail(vm::RuntimeErrorId::kBadShape, vm::ShapeString(shape));
  vm::Object* copy = scratch.Hold(cx.Scratch(n));
  if (copy == nullptr) return nullptr;
  float* y = static_cast<float*>(vm::DataOf(copy));
  const vm::Shape strides = vm::BroadcastStrides(vm::ShapeOf(t), shape.size());
  for (int64_t i = 0; i < n; ++i) y[i] = x[vm::OffsetOf(shape, strides, i)];
  return y;
}

// A scalar draw: draw(key) gives the result's Value (vm::FromFloat...).
template <typename Draw>
absl::StatusOr<vm::Value> DrawScalar(vm::NativeContext& ctx, vm::Value state, Draw draw) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(state);
  if (!key.ok()) return key.status();
  const vm::Value v = draw(*key);
  ctx.ConsumeState(state);
  return v;
}

}  // namespace alea::stdlib

#endif  // ALEA_STDLIB_RANDOM_ARGS_H_

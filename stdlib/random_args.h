// What the sampler natives (random_*.cc) share: a RandState argument checked
// and consumed as the sampler opcodes do it (the use-once check first, then
// the other arguments and the allocation, and the state consumed only once
// nothing can fail), a tensor draw split across the VM's threads, and a
// scalar draw. Natives named `rand_NAME` take a shape, `rand_NAME_scalar`
// not, and `rand_NAME_default` takes a shape but not the parameter JAX
// defaults before it; the use-once notes name them all NAME.
#ifndef ALEA_STDLIB_RANDOM_ARGS_H_
#define ALEA_STDLIB_RANDOM_ARGS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
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

// The elements of `t` as read at every element of `shape` (NumPy's
// broadcast; the shapes are known to agree), or t's own when the shapes are
// equal: `storage` keeps an expanded copy alive.
inline const float* Expanded(const vm::Object* t, absl::Span<const int64_t> shape,
                             std::vector<float>& storage) {
  const float* x = vm::ElementsOf<float>(t);
  if (vm::ShapeOf(t) == shape) return x;
  const vm::Shape strides = vm::BroadcastStrides(vm::ShapeOf(t), shape.size());
  const int64_t n = vm::ElementCount(vm::DType::kF32, shape);
  storage.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) storage[i] = x[vm::OffsetOf(shape, strides, i)];
  return storage.data();
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

// `linspace`, `eye`, `stack` and `roll` (vm/tensor_ops.h): NumPy's shape
// rules and errors. linspace computes (kernels/linspace.h); the others only
// place elements, so they copy element bytes whatever the dtype.
#include <cstdint>
#include <cstring>
#include <optional>

#include "absl/types/span.h"
#include "vm/kernels/linspace.h"
#include "vm/tensor_ops.h"
#include "vm/thread_pool.h"

namespace alea::vm {
namespace {

// linspace's cost per element on one thread (a double multiply, add and
// rounding: 0.51 ns at 65536 elements, measured as tensor_ops.cc's costs).
constexpr double kLinspaceNs = 0.5;

// Copies `count` elements of `bytes` each (memcpy's pointers must be valid
// even for 0 bytes, and an empty tensor's data is only one past its header).
void Copy(int bytes, void* to, const void* from, int64_t count) {
  if (count > 0) std::memcpy(to, from, static_cast<size_t>(count * bytes));
}

// A new reference to a borrowed tensor, for a result equal to its operand
// (tensors are immutable, so sharing is invisible).
Object* Shared(const Object* x) {
  Retain(FromObject(x));
  return const_cast<Object*>(x);
}

// shift modulo n, in [0, n) (n > 0): np.roll counts a negative shift back.
int64_t Modulo(int64_t shift, int64_t n) {
  const int64_t s = shift % n;
  return s < 0 ? s + n : s;
}

}  // namespace

Object* Linspace(TensorContext& cx, double a, double b, int64_t n) {
  if (n < 0) return cx.Fail(RuntimeErrorId::kNegativeCount, "linspace", n);
  const int64_t shape[] = {n};
  Object* out = cx.New(DType::kF32, shape);
  if (out == nullptr) return nullptr;
  float* y = ElementsOf<float>(out);
  cx.ForRanges(n, 64, ThreadPool::MinRange(kLinspaceNs),
               [&](int, int64_t begin, int64_t end) { kernels::Linspace(a, b, n, begin, end, y); });
  return out;
}

Object* Eye(TensorContext& cx, DType dtype, int64_t n) {
  const int64_t shape[] = {n, n};  // a negative n: kBadShape, as zeros([-1, -1])
  Object* out = Full(cx, dtype, shape, 0);
  if (out == nullptr) return nullptr;
  const uint32_t one = dtype == DType::kF32 ? 0x3f800000u : 1u;  // 1.0f's bits, or 1
  const int bytes = ElementBytes(dtype);
  char* data = static_cast<char*>(DataOf(out));
  for (int64_t i = 0; i < n; ++i) {
    // The element's low bytes: little-endian, as every bool and 4-byte element.
    std::memcpy(data + (i * n + i) * bytes, &one, static_cast<size_t>(bytes));
  }
  return out;
}

Object* Stack(TensorContext& cx, absl::Span<const Object* const> xs, int64_t axis) {
  if (xs.empty()) return cx.Fail(RuntimeErrorId::kStackEmpty);
  const Object* first = xs[0];
  const absl::Span<const int64_t> shape = ShapeOf(first);
  for (const Object* x : xs) {
    if (DTypeOf(x) != DTypeOf(first)) {
      return cx.Fail(RuntimeErrorId::kBadCall, "`stack` of tensors of different dtypes");
    }
    const absl::Span<const int64_t> s = ShapeOf(x);
    if (s != shape)
      return cx.Fail(RuntimeErrorId::kStackShapes, ShapeString(shape), ShapeString(s));
  }
  // The new axis is one of the result's: 0 to rank, or from its end.
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t a = axis < 0 ? axis + rank + 1 : axis;
  Shape out_shape(shape.begin(), shape.end());
  if (a < 0 || a > rank) {
    out_shape.insert(out_shape.begin(), static_cast<int64_t>(xs.size()));
    return cx.Fail(RuntimeErrorId::kAxisOutOfRange, axis, ShapeString(out_shape));
  }
  out_shape.insert(out_shape.begin() + a, static_cast<int64_t>(xs.size()));
  Object* out = cx.New(DTypeOf(first), out_shape);  // too large: kBadShape
  if (out == nullptr || SizeOf(out) == 0) return out;
  // Every dimension is non-zero here, so these products are bounded by the
  // output's size. The output is `outer` blocks, each one block of every input.
  int64_t outer = 1;
  for (int64_t d = 0; d < a; ++d) outer *= shape[d];
  const int64_t inner = SizeOf(first) / outer;
  const int bytes = ElementBytes(DTypeOf(out));
  char* o = static_cast<char*>(DataOf(out));
  for (int64_t b = 0; b < outer; ++b) {
    for (const Object* x : xs) {
      Copy(bytes, o, static_cast<const char*>(DataOf(x)) + b * inner * bytes, inner);
      o += inner * bytes;
    }
  }
  return cx.Copied(out);
}

Object* Roll(TensorContext& cx, const Object* x, int64_t shift, std::optional<int64_t> axis) {
  const absl::Span<const int64_t> shape = ShapeOf(x);
  // Without an axis the flattened tensor rolls: one axis of every element.
  AxisView view{0, 1, SizeOf(x), 1};
  if (axis) {
    const std::optional<AxisView> around = ViewAround(cx, shape, *axis);
    if (!around) return nullptr;
    view = *around;
  }
  if (view.n == 0 || view.outer == 0 || view.inner == 0) return Shared(x);
  const int64_t s = Modulo(shift, view.n);
  if (s == 0) return Shared(x);
  Object* out = cx.New(DTypeOf(x), shape);
  if (out == nullptr) return nullptr;
  // Each block of n rows: the last s rows move to the front, the rest follow.
  const int bytes = ElementBytes(DTypeOf(x));
  const int64_t row = view.inner * bytes;
  const char* in = static_cast<const char*>(DataOf(x));
  char* o = static_cast<char*>(DataOf(out));
  for (int64_t b = 0; b < view.outer; ++b) {
    const char* block = in + b * view.n * row;
    char* to = o + b * view.n * row;
    Copy(bytes, to, block + (view.n - s) * row, s * view.inner);
    Copy(bytes, to + s * row, block, (view.n - s) * view.inner);
  }
  return cx.Copied(out);
}

}  // namespace alea::vm

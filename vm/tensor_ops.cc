// Tensor operations on heap objects (tensor_ops.h): shapes, result
// allocation and in-place reuse, errors; the arithmetic itself is the
// reference kernels' (vm/kernels/).
#include "vm/tensor_ops.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "vm/dtype.h"
#include "vm/heap.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"
#include "vm/kernels/matmul.h"
#include "vm/kernels/reduce.h"
#include "vm/print.h"
#include "vm/runtime_error.h"
#include "vm/tensor.h"
#include "vm/value.h"

namespace alea::vm {

bool BroadcastShapes(std::initializer_list<absl::Span<const int64_t>> shapes, Shape* out) {
  size_t rank = 0;
  for (absl::Span<const int64_t> s : shapes) rank = std::max(rank, s.size());
  out->assign(rank, 1);
  for (absl::Span<const int64_t> s : shapes) {
    const size_t offset = rank - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = (*out)[offset + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o != 1) return false;
      o = s[i];
    }
  }
  return true;
}

namespace {

// The strides (in elements) of a contiguous tensor of `shape` seen in an index
// space of rank `out_rank` it broadcasts to: 0 along its size-1 axes and the
// leading axes it lacks, so every index there reads the same element.
Shape BroadcastStrides(absl::Span<const int64_t> shape, size_t out_rank) {
  Shape strides(out_rank, 0);
  const size_t offset = out_rank - shape.size();
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1) strides[offset + i] = stride;
    stride *= shape[i];
  }
  return strides;
}

// Whether an operation may write a result of `shape` and `dtype` over this
// operand: its only reference is ours, and the buffer has exactly the
// result's layout (the kernels allow that aliasing and no other).
bool CanReuse(TensorArg t, absl::Span<const int64_t> shape, DType dtype) {
  return t.owned && IsReusable(t.tensor) && ShapeOf(t.tensor) == shape &&
         ElementBytes(DTypeOf(t.tensor)) == ElementBytes(dtype);
}

// Consumes the owned operands of an operation, whatever path it returns by:
// each is released unless it became the result (Keep, on success only, so a
// failure after writing into an operand still frees it exactly once).
class OwnedOperands {
 public:
  OwnedOperands(Heap& heap, std::initializer_list<TensorArg> args) : heap_(heap) {
    for (TensorArg a : args) {
      if (a.owned && count_ < owned_.size()) owned_[count_++] = a.tensor;
    }
  }
  OwnedOperands(const OwnedOperands&) = delete;
  OwnedOperands& operator=(const OwnedOperands&) = delete;
  ~OwnedOperands() {
    for (size_t i = 0; i < count_; ++i) {
      if (owned_[i] != nullptr) heap_.Release(owned_[i]);
    }
  }

  // `result` is returned to the caller: if it is an owned operand, its
  // reference now belongs to the result.
  Object* Keep(Object* result) {
    for (size_t i = 0; i < count_; ++i) {
      if (owned_[i] == result) {
        owned_[i] = nullptr;
        break;
      }
    }
    return result;
  }

 private:
  Heap& heap_;
  std::array<Object*, 2> owned_{};  // Binary has the most owned operands
  size_t count_ = 0;
};

// Checked here rather than trusted: a malformed module must get an error, not
// a kernel's assertion or an uninitialized result.
bool BinarySupports(kernels::BinaryOp op, DType dtype) {
  return dtype != DType::kBool || kernels::IsComparison(op);
}

bool UnarySupports(kernels::UnaryOp op, DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return true;
    case DType::kI32:
      return op == kernels::UnaryOp::kNeg || op == kernels::UnaryOp::kAbs;
    case DType::kU32:
      return op == kernels::UnaryOp::kNeg;
    case DType::kBool:
      return false;
  }
  return false;
}

}  // namespace

Object* TensorContext::New(DType dtype, absl::Span<const int64_t> shape) {
  Object* t = site_ != 0 ? heap_.NewTensorAt(site_, dtype, shape) : heap_.NewTensor(dtype, shape);
  if (t != nullptr) return t;
  if (ElementCount(dtype, shape) < 0) return Fail(RuntimeErrorId::kBadShape, ShapeString(shape));
  return OutOfMemory();
}

namespace {

// The JIT's kernel for an f32 elementwise op whose operands each map onto
// the output one to one (as many elements as it) or are one broadcast
// element; false when there is no JIT or no such layout (the reference runs).
bool RunJitBinary(TensorContext& cx, kernels::BinaryOp op, DType dtype, const Object* a,
                  const Object* b, Object* out) {
  const int64_t n = SizeOf(out);
  if (cx.jit() == nullptr || dtype != DType::kF32 || n < 2) return false;
  jit::Layout layout;
  if (SizeOf(a) == n && SizeOf(b) == n) {
    layout = jit::Layout::kVectorVector;
  } else if (SizeOf(a) == n && SizeOf(b) == 1) {
    layout = jit::Layout::kVectorScalar;
  } else if (SizeOf(a) == 1 && SizeOf(b) == n) {
    layout = jit::Layout::kScalarVector;
  } else {
    return false;
  }
  const float* x = ElementsOf<float>(a);
  const float* y = ElementsOf<float>(b);
  if (kernels::IsComparison(op)) {
    jit::CompareF32Fn fn = cx.jit()->CompareF32(op, layout);
    if (fn == nullptr) return false;
    jit::Jit::KernelTimer timer(*cx.jit());
    fn(x, y, ElementsOf<uint8_t>(out), n);
  } else {
    jit::BinaryF32Fn fn = cx.jit()->BinaryF32(op, layout);
    if (fn == nullptr) return false;
    jit::Jit::KernelTimer timer(*cx.jit());
    fn(x, y, ElementsOf<float>(out), n);
  }
  return true;
}

}  // namespace

Object* Binary(TensorContext& cx, kernels::BinaryOp op, TensorArg a, TensorArg b) {
  OwnedOperands owned(cx.heap(), {a, b});
  const DType dtype = DTypeOf(a.tensor);
  if (DTypeOf(b.tensor) != dtype || !BinarySupports(op, dtype)) {
    return cx.Fail(RuntimeErrorId::kBadCall,
                   absl::StrCat("`", kernels::Spelling(op), "` of ", DTypeName(dtype), " and ",
                                DTypeName(DTypeOf(b.tensor)), " tensors"));
  }
  const absl::Span<const int64_t> sa = ShapeOf(a.tensor), sb = ShapeOf(b.tensor);
  Shape shape;
  if (!BroadcastShapes({sa, sb}, &shape)) {
    return cx.Fail(RuntimeErrorId::kBroadcast, kernels::Spelling(op), ShapeString(sa),
                   ShapeString(sb));
  }
  const DType result = kernels::IsComparison(op) ? DType::kBool : dtype;
  Object* out = CanReuse(a, shape, result)   ? a.tensor
                : CanReuse(b, shape, result) ? b.tensor
                                             : cx.New(result, shape);
  if (out == nullptr) return nullptr;
  if (RunJitBinary(cx, op, dtype, a.tensor, b.tensor, out)) return owned.Keep(out);
  const Shape stride_a = BroadcastStrides(sa, shape.size());
  const Shape stride_b = BroadcastStrides(sb, shape.size());
  const kernels::KernelStatus status =
      kernels::Binary(op, dtype, shape, kernels::Strided{DataOf(a.tensor), stride_a},
                      kernels::Strided{DataOf(b.tensor), stride_b}, DataOf(out));
  if (status == kernels::KernelStatus::kDivisionByZero) {
    if (out != a.tensor && out != b.tensor) cx.heap().Release(out);
    return cx.Fail(RuntimeErrorId::kDivisionByZero);
  }
  return owned.Keep(out);
}

Object* Unary(TensorContext& cx, kernels::UnaryOp op, TensorArg x) {
  OwnedOperands owned(cx.heap(), {x});
  const DType dtype = DTypeOf(x.tensor);
  if (!UnarySupports(op, dtype)) {
    return cx.Fail(
        RuntimeErrorId::kBadCall,
        absl::StrCat("`", kernels::Spelling(op), "` of a tensor of dtype ", DTypeName(dtype)));
  }
  const absl::Span<const int64_t> shape = ShapeOf(x.tensor);
  Object* out = CanReuse(x, shape, dtype) ? x.tensor : cx.New(dtype, shape);
  if (out == nullptr) return nullptr;
  const int64_t n = SizeOf(x.tensor);
  jit::UnaryF32Fn fn =
      cx.jit() != nullptr && dtype == DType::kF32 && n >= 2 ? cx.jit()->UnaryF32(op) : nullptr;
  if (fn != nullptr) {
    jit::Jit::KernelTimer timer(*cx.jit());
    fn(ElementsOf<float>(x.tensor), ElementsOf<float>(out), n);
  } else {
    kernels::Unary(op, dtype, n, DataOf(x.tensor), DataOf(out));
  }
  return owned.Keep(out);
}

Object* FromScalar(TensorContext& cx, DType dtype, Value scalar, bool is_float) {
  const int64_t i = AsInt(scalar);
  uint32_t bits = 0;  // the element's 4 bytes (bool uses the first)
  switch (dtype) {
    case DType::kF32: {
      // Both conversions round once, to nearest even (the default mode).
      const float f = is_float ? static_cast<float>(AsFloat(scalar)) : static_cast<float>(i);
      std::memcpy(&bits, &f, sizeof f);
      break;
    }
    case DType::kI32:
    case DType::kU32: {
      if (is_float) {
        return cx.Fail(RuntimeErrorId::kBadCall, "a Float scalar for an integer tensor");
      }
      const bool fits =
          dtype == DType::kI32
              ? i >= std::numeric_limits<int32_t>::min() && i <= std::numeric_limits<int32_t>::max()
              : i >= 0 && i <= int64_t{std::numeric_limits<uint32_t>::max()};
      if (!fits) return cx.Fail(RuntimeErrorId::kScalarOutOfRange, i, DTypeName(dtype));
      // Two's complement: the low 32 bits are the i32 or the u32.
      bits = static_cast<uint32_t>(i);
      break;
    }
    case DType::kBool:
      bits = (is_float ? AsFloat(scalar) != 0.0 : i != 0) ? 1 : 0;
      break;
  }
  Object* out = cx.New(dtype, {});
  if (out == nullptr) return nullptr;
  if (dtype == DType::kBool) {
    *ElementsOf<uint8_t>(out) = static_cast<uint8_t>(bits);
  } else {
    std::memcpy(DataOf(out), &bits, sizeof bits);
  }
  return out;
}

Object* Where(TensorContext& cx, const Object* mask, const Object* a, const Object* b) {
  const DType dtype = DTypeOf(a);
  if (DTypeOf(mask) != DType::kBool || DTypeOf(b) != dtype) {
    return cx.Fail(RuntimeErrorId::kBadCall,
                   absl::StrCat("`where` of ", DTypeName(DTypeOf(mask)), ", ", DTypeName(dtype),
                                " and ", DTypeName(DTypeOf(b)), " tensors"));
  }
  const absl::Span<const int64_t> sm = ShapeOf(mask), sa = ShapeOf(a), sb = ShapeOf(b);
  Shape shape;
  if (!BroadcastShapes({sm, sa, sb}, &shape)) {
    return cx.Fail(RuntimeErrorId::kWhereBroadcast, ShapeString(sm), ShapeString(sa),
                   ShapeString(sb));
  }
  Object* out = cx.New(dtype, shape);
  if (out == nullptr) return nullptr;
  const Shape stride_m = BroadcastStrides(sm, shape.size());
  const Shape stride_a = BroadcastStrides(sa, shape.size());
  const Shape stride_b = BroadcastStrides(sb, shape.size());
  kernels::Where(dtype, shape, kernels::Strided{DataOf(mask), stride_m},
                 kernels::Strided{DataOf(a), stride_a}, kernels::Strided{DataOf(b), stride_b},
                 DataOf(out));
  return out;
}

Object* Cast(TensorContext& cx, TensorArg x, DType dtype) {
  const DType from = DTypeOf(x.tensor);
  if (from == dtype) {
    // Tensors are immutable, so the result may share the operand.
    if (!x.owned) Retain(FromObject(x.tensor));
    return x.tensor;
  }
  OwnedOperands owned(cx.heap(), {x});
  const absl::Span<const int64_t> shape = ShapeOf(x.tensor);
  const bool in_place = CanReuse(x, shape, dtype);
  Object* out = in_place ? x.tensor : cx.New(dtype, shape);
  if (out == nullptr) return nullptr;
  int64_t bad = 0;
  const kernels::CastStatus status =
      kernels::Cast(from, dtype, SizeOf(x.tensor), DataOf(x.tensor), DataOf(out), &bad);
  if (status != kernels::CastStatus::kOk) {
    // Only f32 fails. In place, elements before `bad` are already converted,
    // but the kernel stops at the bad one before storing it, so it still
    // holds the f32 the message names.
    const bool known = from == DType::kF32 && bad >= 0 && bad < SizeOf(x.tensor);
    const float value = known ? ElementsOf<float>(x.tensor)[bad] : 0.0f;
    if (!in_place) cx.heap().Release(out);
    if (status == kernels::CastStatus::kNaN) {
      return cx.Fail(RuntimeErrorId::kCastNaN, DTypeName(dtype));
    }
    return cx.Fail(RuntimeErrorId::kCastOutOfRange, FormatFloat(value), DTypeName(dtype));
  }
  if (in_place) Head(out)->dtype = dtype;
  return owned.Keep(out);
}

namespace {

const char* ReduceName(kernels::ReduceOp op) {
  switch (op) {
    case kernels::ReduceOp::kSum:
      return "sum";
    case kernels::ReduceOp::kMean:
      return "mean";
    case kernels::ReduceOp::kMax:
      return "max";
    case kernels::ReduceOp::kMin:
      return "min";
    case kernels::ReduceOp::kArgmax:
      return "argmax";
  }
  return "?";
}

}  // namespace

namespace {

// The JIT's kernel for f32 sum/mean/max/min over contiguous rows (a whole
// tensor, or the last axis); false when there is none (the reference runs).
bool RunJitReduce(TensorContext& cx, kernels::ReduceOp op, DType dtype, int64_t outer, int64_t n,
                  int64_t inner, const float* x, Object* out) {
  if (cx.jit() == nullptr || dtype != DType::kF32 || inner != 1 || n < 1) return false;
  if (op == kernels::ReduceOp::kArgmax) return false;
  const bool mean = op == kernels::ReduceOp::kMean;
  jit::ReduceF32Fn fn = cx.jit()->ReduceF32(mean ? kernels::ReduceOp::kSum : op);
  if (fn == nullptr) return false;
  float* y = ElementsOf<float>(out);
  jit::Jit::KernelTimer timer(*cx.jit());
  // mean as kernels/reduce.h defines it: the sum divided by n rounded to f32.
  const float divisor = static_cast<float>(n);
  for (int64_t o = 0; o < outer; ++o) {
    y[o] = fn(x + o * n, n);
    if (mean) y[o] = y[o] / divisor;
  }
  return true;
}

}  // namespace

Object* Reduce(TensorContext& cx, kernels::ReduceOp op, const Object* x,
               std::optional<int64_t> axis) {
  const DType dtype = DTypeOf(x);
  if (dtype == DType::kBool || (op == kernels::ReduceOp::kMean && dtype != DType::kF32)) {
    return cx.Fail(RuntimeErrorId::kBadCall,
                   absl::StrCat("`", ReduceName(op), "` of a tensor of dtype ", DTypeName(dtype)));
  }
  const absl::Span<const int64_t> shape = ShapeOf(x);
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t outer = 1, n = SizeOf(x), inner = 1;
  Shape result_shape;
  if (axis.has_value()) {
    int64_t k = *axis;
    if (k < 0) k += rank;
    if (k < 0 || k >= rank) {
      return cx.Fail(RuntimeErrorId::kAxisOutOfRange, *axis, ShapeString(shape));
    }
    // Products of a valid shape's dimensions cannot overflow (ElementCount
    // bounds the non-zero ones by 2^48).
    outer = 1;
    for (int64_t i = 0; i < k; ++i) outer *= shape[i];
    n = shape[k];
    inner = 1;
    for (int64_t i = k + 1; i < rank; ++i) inner *= shape[i];
    result_shape.assign(shape.begin(), shape.end());
    result_shape.erase(result_shape.begin() + k);
  }
  const DType result = op == kernels::ReduceOp::kArgmax ? DType::kI32 : dtype;
  Object* out = cx.New(result, result_shape);
  if (out == nullptr) return nullptr;
  if (RunJitReduce(cx, op, dtype, outer, n, inner, ElementsOf<float>(x), out)) return out;
  if (kernels::Reduce(op, dtype, outer, n, inner, DataOf(x), DataOf(out)) ==
      kernels::ReduceStatus::kEmpty) {
    cx.heap().Release(out);
    return cx.Fail(RuntimeErrorId::kReduceEmpty, ReduceName(op), ShapeString(shape));
  }
  return out;
}

Object* MatMul(TensorContext& cx, const Object* x, const Object* y) {
  const DType dtype = DTypeOf(x);
  if (DTypeOf(y) != dtype || dtype == DType::kBool) {
    return cx.Fail(RuntimeErrorId::kBadCall, absl::StrCat("`@` of ", DTypeName(dtype), " and ",
                                                          DTypeName(DTypeOf(y)), " tensors"));
  }
  const absl::Span<const int64_t> sx = ShapeOf(x), sy = ShapeOf(y);
  if (sx.empty() || sy.empty()) {
    return cx.Fail(RuntimeErrorId::kMatMulScalar, ShapeString(sx), ShapeString(sy));
  }
  // A 1-d x is a [1, k] row and a 1-d y a [k, 1] column; those added axes are
  // not in the result.
  const bool x_vector = sx.size() == 1, y_vector = sy.size() == 1;
  const int64_t m = x_vector ? 1 : sx[sx.size() - 2];
  const int64_t k = sx.back();
  const int64_t ky = y_vector ? sy[0] : sy[sy.size() - 2];
  const int64_t n = y_vector ? 1 : sy.back();
  const absl::Span<const int64_t> bx = sx.subspan(0, x_vector ? 0 : sx.size() - 2);
  const absl::Span<const int64_t> by = sy.subspan(0, y_vector ? 0 : sy.size() - 2);
  Shape batch;
  if (k != ky || !BroadcastShapes({bx, by}, &batch)) {
    return cx.Fail(RuntimeErrorId::kMatMulShapes, ShapeString(sx), ShapeString(sy));
  }
  Shape shape = batch;
  if (!x_vector) shape.push_back(m);
  if (!y_vector) shape.push_back(n);
  Object* out = cx.New(dtype, shape);
  if (out == nullptr) return nullptr;
  if (SizeOf(out) == 0) return out;

  // The batch is walked as an odometer; each operand's batch strides count
  // whole matrices, 0 along the axes it is broadcast on.
  const Shape stride_x = BroadcastStrides(bx, batch.size());
  const Shape stride_y = BroadcastStrides(by, batch.size());
  const int64_t bytes = ElementBytes(dtype);
  const char* px = static_cast<const char*>(DataOf(x));
  const char* py = static_cast<const char*>(DataOf(y));
  char* po = static_cast<char*>(DataOf(out));
  const int64_t count = SizeOf(out) / (m * n);
  Shape index(batch.size(), 0);
  int64_t offset_x = 0, offset_y = 0;
  for (int64_t i = 0; i < count; ++i) {
    const char* a = px + offset_x * m * k * bytes;
    const char* b = py + offset_y * k * n * bytes;
    char* c = po + i * m * n * bytes;
    bool done = false;
    if (cx.jit() != nullptr && dtype == DType::kF32) {
      jit::Jit::KernelTimer timer(*cx.jit());
      done = cx.jit()->MatMulF32(m, k, n, reinterpret_cast<const float*>(a),
                                 reinterpret_cast<const float*>(b), reinterpret_cast<float*>(c));
    }
    if (!done) kernels::MatMul(dtype, m, k, n, a, b, c);
    for (size_t axis = batch.size(); axis-- > 0;) {
      offset_x += stride_x[axis];
      offset_y += stride_y[axis];
      if (++index[axis] < batch[axis]) break;
      offset_x -= stride_x[axis] * batch[axis];
      offset_y -= stride_y[axis] * batch[axis];
      index[axis] = 0;
    }
  }
  return out;
}

}  // namespace alea::vm

// Tensor operations on heap objects (tensor_ops.h): shapes, result
// allocation and in-place reuse, errors; the arithmetic itself is the
// reference kernels' (vm/kernels/).
#include "vm/tensor_ops.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "vm/dtype.h"
#include "vm/heap.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"
#include "vm/kernels/matmul.h"
#include "vm/kernels/pin_nan.h"
#include "vm/kernels/reduce.h"
#include "vm/print.h"
#include "vm/runtime_error.h"
#include "vm/tensor.h"
#include "vm/thread_pool.h"
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

namespace {

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
  if (kernels::IsF32Only(op)) return dtype == DType::kF32;
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

void TensorContext::ForRanges(int64_t n, int64_t align, int64_t min_range,
                              absl::FunctionRef<void(int, int64_t, int64_t)> body) {
  if (pool_ == nullptr || pool_->threads() < 2) {
    if (n > 0) body(0, 0, n);
    return;
  }
  pool_->ParallelFor(n, align, min_range, body);
}

int64_t TensorContext::ForRangesUntil(int64_t n, int64_t align, int64_t min_range,
                                      absl::FunctionRef<int64_t(int64_t, int64_t)> body) {
  const int ranges =
      pool_ == nullptr || pool_->threads() < 2 ? 1 : pool_->RangesFor(n, align, min_range);
  std::vector<int64_t> stops(std::max(ranges, 1), -1);
  ForRanges(n, align, min_range,
            [&](int range, int64_t begin, int64_t end) { stops[range] = body(begin, end); });
  // Ranges are consecutive and in index order, and each stops at its first.
  for (const int64_t at : stops) {
    if (at >= 0) return at;
  }
  return -1;
}

Object* TensorContext::New(DType dtype, absl::Span<const int64_t> shape) {
  Object* t = site_ != 0 ? heap_.NewTensorAt(site_, dtype, shape) : heap_.NewTensor(dtype, shape);
  if (t != nullptr) return t;
  if (ElementCount(dtype, shape) < 0) return Fail(RuntimeErrorId::kBadShape, ShapeString(shape));
  return OutOfMemory();
}

Object* TensorContext::Scratch(int64_t words) {
  const int64_t shape[] = {words};
  Object* t = heap_.NewTensor(DType::kU32, shape);
  return t != nullptr ? t : OutOfMemory();
}

namespace {

// ---- Splitting across the VM's threads ----
// Only where the result cannot depend on the split: independent elements,
// whole rows, whole reduction chunks, matmul rows (thread_pool.h). Each op
// splits by its cost per element against ThreadPool::kMinRangeNs. The costs
// are one thread's, f32 in cache (65536 elements, the sizes where the choice
// is made), measured on a 2-vCPU Xeon (AVX-512) with `alea run --threads 1`
// timing loops of each op with clock(), best of 5; the cheapest op of each
// kind stands for its kind, so no op splits sooner than it should:
//   JIT: a + b 0.09 ns, a * b + c (fused) 0.11, exp 0.28, tanh 0.54, sum 0.06
//   reference (--no-jit): a + b 0.13, exp 13.6, tanh 19.2, sum 0.29
// Cheap elementwise ops (+ - * / max min, comparisons, neg abs relu sqrt),
// the JIT's or the reference's.
constexpr double kCheapNs = 0.09;
// exp, log, tanh, sigmoid and the other math functions on the JIT...
constexpr double kMathJitNs = 0.28;
// ... and on the reference kernels.
constexpr double kMathReferenceNs = 13.0;
// The reference matmul, per multiply-add (one libm fmaf each: ~2.5 ns
// measured at 256^3, 0.8 GFLOP/s; the JIT splits itself: vm/jit/matmul.cc).
constexpr double kMatMulReferenceNs = 2.0;
// Ranges of elementwise outputs start on 64-element boundaries: whole cache
// lines of f32 and of bool outputs, so no two threads write one line.
constexpr int64_t kElementAlign = 64;

bool IsCheap(kernels::UnaryOp op) {
  switch (op) {
    case kernels::UnaryOp::kNeg:
    case kernels::UnaryOp::kSqrt:
    case kernels::UnaryOp::kAbs:
    case kernels::UnaryOp::kFloor:
    case kernels::UnaryOp::kCeil:
    case kernels::UnaryOp::kRound:
    case kernels::UnaryOp::kTrunc:
    case kernels::UnaryOp::kSign:
    case kernels::UnaryOp::kRelu:
      return true;
    default:
      return false;  // the math functions of kernels/math_f32.h
  }
}

// The smallest range worth a thread for a binary op: the math functions
// (atan2...) cost like the unary ones.
int64_t MinRange(kernels::BinaryOp op, bool jit) {
  if (!kernels::IsF32Only(op)) return ThreadPool::MinRange(kCheapNs);
  return ThreadPool::MinRange(jit ? kMathJitNs : kMathReferenceNs);
}

int64_t MinRange(kernels::UnaryOp op, bool jit) {
  if (IsCheap(op)) return ThreadPool::MinRange(kCheapNs);
  return ThreadPool::MinRange(jit ? kMathJitNs : kMathReferenceNs);
}

// Where each operand of an elementwise op over n output elements comes from:
// one element per output (kVector) or one element for all (kScalar).
// kOther: a general broadcast (the reference's strided walk, not split).
enum class Operand : uint8_t { kVector, kScalar, kOther };
Operand OperandLayout(const Object* t, int64_t n) {
  if (SizeOf(t) == n) return Operand::kVector;
  if (SizeOf(t) == 1) return Operand::kScalar;
  return Operand::kOther;
}

// The first element of [begin, ...) of an operand (a scalar stays put).
const void* At(const Object* t, Operand layout, int64_t begin) {
  const char* p = static_cast<const char*>(DataOf(t));
  return layout == Operand::kVector ? p + begin * ElementBytes(DTypeOf(t)) : p;
}

// The JIT's kernel for an f32 elementwise op whose operands each map onto
// the output one to one (as many elements as it), are one broadcast element,
// or, a segment of the output at a time (SegmentLayouts), a row repeated or
// a column's element broadcast along the segment; false when there is no
// JIT or no such layout (the reference runs).
bool RunJitBinary(TensorContext& cx, kernels::BinaryOp op, DType dtype, const Object* a,
                  const Object* b, Object* out) {
  const int64_t n = SizeOf(out);
  if (cx.jit() == nullptr || dtype != DType::kF32 || n < 2) return false;
  const std::optional<Segments> segments = SegmentLayouts({ShapeOf(a), ShapeOf(b)}, ShapeOf(out));
  if (!segments) return false;
  // Within one call (a segment, or the whole output) a row is a vector and a
  // column a scalar.
  auto is_vector = [](SegmentLayout l) {
    return l == SegmentLayout::kFull || l == SegmentLayout::kRow;
  };
  const SegmentLayout la = segments->layouts[0], lb = segments->layouts[1];
  jit::Layout layout;
  if (is_vector(la) && is_vector(lb)) {
    layout = jit::Layout::kVectorVector;
  } else if (is_vector(la)) {
    layout = jit::Layout::kVectorScalar;
  } else if (is_vector(lb)) {
    layout = jit::Layout::kScalarVector;
  } else {
    return false;
  }
  const int64_t out_bytes = ElementBytes(DTypeOf(out));
  char* o = static_cast<char*>(DataOf(out));
  const int64_t length = segments->length;
  // An operand's first element for the output's elements from `begin` (a
  // segment's first when there are segments).
  auto at = [&](const Object* t, SegmentLayout l, int64_t begin) {
    const float* p = static_cast<const float*>(DataOf(t));
    switch (l) {
      case SegmentLayout::kFull:
        return p + begin;
      case SegmentLayout::kColumn:
        return p + begin / length % SizeOf(t);
      case SegmentLayout::kScalar:
      case SegmentLayout::kRow:
        break;
    }
    return p;
  };
  // Calls the kernel over ranges of elements, or of whole segments (one
  // call each), on the pool's threads.
  auto run = [&](int64_t min_range, auto&& call) {
    if (length == 0) {
      cx.ForRanges(n, kElementAlign, min_range, [&](int, int64_t begin, int64_t end) {
        call(at(a, la, begin), at(b, lb, begin), begin, end - begin);
      });
      return;
    }
    cx.ForRanges(n / length, 1, std::max<int64_t>(1, min_range / length),
                 [&](int, int64_t first, int64_t last) {
                   for (int64_t r = first; r < last; ++r) {
                     const int64_t begin = r * length;
                     call(at(a, la, begin), at(b, lb, begin), begin, length);
                   }
                 });
  };
  // The kernel is fetched here, on the VM's thread: the Jit is not
  // thread-safe, the kernels it returns are.
  if (kernels::IsComparison(op)) {
    jit::CompareF32Fn fn = cx.jit()->CompareF32(op, layout);
    if (fn == nullptr) return false;
    jit::Jit::KernelTimer timer(*cx.jit());
    run(ThreadPool::MinRange(kCheapNs),
        [&](const float* x, const float* y, int64_t begin, int64_t count) {
          fn(x, y, reinterpret_cast<uint8_t*>(o + begin * out_bytes), count);
        });
  } else {
    jit::BinaryF32Fn fn = cx.jit()->BinaryF32(op, layout);
    if (fn == nullptr) return false;
    jit::Jit::KernelTimer timer(*cx.jit());
    run(MinRange(op, true), [&](const float* x, const float* y, int64_t begin, int64_t count) {
      fn(x, y, reinterpret_cast<float*>(o + begin * out_bytes), count);
    });
  }
  return true;
}

// The reference kernel over the same one-to-one / scalar layouts, split
// into 1-d ranges; false for any other layout (the caller runs the general
// strided walk on one thread). *stopped_at: where the walk over the whole
// would have stopped (kernels::Binary), or -1.
bool RunSplitBinary(TensorContext& cx, kernels::BinaryOp op, DType dtype, const Object* a,
                    const Object* b, Object* out, int64_t* stopped_at) {
  const int64_t n = SizeOf(out);
  ThreadPool* pool = cx.pool();
  if (pool == nullptr || pool->RangesFor(n, kElementAlign, MinRange(op, false)) < 2) return false;
  const Operand la = OperandLayout(a, n), lb = OperandLayout(b, n);
  if (la == Operand::kOther || lb == Operand::kOther) return false;
  static constexpr int64_t kOne[] = {1}, kZero[] = {0};
  const absl::Span<const int64_t> sa = la == Operand::kVector ? kOne : kZero;
  const absl::Span<const int64_t> sb = lb == Operand::kVector ? kOne : kZero;
  const int64_t out_bytes = ElementBytes(DTypeOf(out));
  char* o = static_cast<char*>(DataOf(out));
  *stopped_at =
      cx.ForRangesUntil(n, kElementAlign, MinRange(op, false), [&](int64_t begin, int64_t end) {
        const int64_t len[] = {end - begin};
        int64_t at = -1;
        kernels::Binary(op, dtype, len, kernels::Strided{At(a, la, begin), sa},
                        kernels::Strided{At(b, lb, begin), sb}, o + begin * out_bytes, &at);
        return at < 0 ? -1 : begin + at;
      });
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
  int64_t stopped_at = -1;
  const Shape stride_a = BroadcastStrides(sa, shape.size());
  const Shape stride_b = BroadcastStrides(sb, shape.size());
  if (!RunSplitBinary(cx, op, dtype, a.tensor, b.tensor, out, &stopped_at)) {
    kernels::Binary(op, dtype, shape, kernels::Strided{DataOf(a.tensor), stride_a},
                    kernels::Strided{DataOf(b.tensor), stride_b}, DataOf(out), &stopped_at);
  }
  if (stopped_at < 0) return owned.Keep(out);
  // The kernel stopped before writing the element, so an operand the output
  // reuses still holds its value; the divisor says why it stopped (only an
  // integer `/` or `%` meets a zero, and only i32 overflows).
  const int32_t x = ElementsOf<int32_t>(a.tensor)[OffsetOf(shape, stride_a, stopped_at)];
  const int32_t y = ElementsOf<int32_t>(b.tensor)[OffsetOf(shape, stride_b, stopped_at)];
  const bool division = op == kernels::BinaryOp::kDiv || op == kernels::BinaryOp::kRem;
  Object* failure = division && y == 0
                        ? cx.Fail(RuntimeErrorId::kDivisionByZero)
                        : cx.Fail(RuntimeErrorId::kTensorOverflow, kernels::Spelling(op),
                                  IndexString(shape, stopped_at), x, y);
  if (out != a.tensor && out != b.tensor) cx.heap().Release(out);
  return failure;
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
  const char* in = static_cast<const char*>(DataOf(x.tensor));
  char* o = static_cast<char*>(DataOf(out));
  const int64_t bytes = ElementBytes(dtype);
  jit::UnaryF32Fn fn =
      cx.jit() != nullptr && dtype == DType::kF32 && n >= 2 ? cx.jit()->UnaryF32(op) : nullptr;
  if (fn != nullptr) {
    jit::Jit::KernelTimer timer(*cx.jit());
    cx.ForRanges(n, kElementAlign, MinRange(op, true), [&](int, int64_t begin, int64_t end) {
      fn(reinterpret_cast<const float*>(in + begin * bytes),
         reinterpret_cast<float*>(o + begin * bytes), end - begin);
    });
    return owned.Keep(out);
  }
  const int64_t min_range = MinRange(op, false);
  if (dtype != DType::kI32) {
    cx.ForRanges(n, kElementAlign, min_range, [&](int, int64_t begin, int64_t end) {
      kernels::Unary(op, dtype, end - begin, in + begin * bytes, o + begin * bytes);
    });
    return owned.Keep(out);
  }
  // i32 can fail (-x and abs of INT32_MIN).
  const int64_t at =
      cx.ForRangesUntil(n, kElementAlign, min_range, [&](int64_t begin, int64_t end) {
        int64_t stop = -1;
        kernels::Unary(op, dtype, end - begin, in + begin * bytes, o + begin * bytes, &stop);
        return stop < 0 ? -1 : begin + stop;
      });
  if (at >= 0) {
    const int32_t value = ElementsOf<int32_t>(x.tensor)[at];  // not overwritten
    if (out != x.tensor) cx.heap().Release(out);
    return cx.Fail(op == kernels::UnaryOp::kAbs ? RuntimeErrorId::kTensorOverflowAbs
                                                : RuntimeErrorId::kTensorOverflowNeg,
                   IndexString(shape, at), value);
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

  // Each operand's batch strides count whole matrices, 0 along the axes it
  // is broadcast on.
  const Shape stride_x = BroadcastStrides(bx, batch.size());
  const Shape stride_y = BroadcastStrides(by, batch.size());
  const int64_t bytes = ElementBytes(dtype);
  const char* px = static_cast<const char*>(DataOf(x));
  const char* py = static_cast<const char*>(DataOf(y));
  char* po = static_cast<char*>(DataOf(out));
  const int64_t count = SizeOf(out) / (m * n);
  // Matrix i of the batch: its operands' offsets (in matrices) from i's
  // digits, last axis fastest.
  auto operands = [&](int64_t i, const char** a, const char** b) {
    int64_t offset_x = 0, offset_y = 0;
    for (size_t axis = batch.size(); axis-- > 0;) {
      const int64_t digit = i % batch[axis];
      i /= batch[axis];
      offset_x += digit * stride_x[axis];
      offset_y += digit * stride_y[axis];
    }
    *a = px + offset_x * m * k * bytes;
    *b = py + offset_y * k * n * bytes;
  };
  // The first element in index order whose i32 sum overflowed, found again
  // on this thread (a cold path), so that the message does not depend on
  // how the work was split.
  auto FailMatMulOverflow = [&]() -> Object* {
    cx.heap().Release(out);
    for (int64_t i = 0; i < count; ++i) {
      const char *a, *b;
      operands(i, &a, &b);
      const kernels::I32MatMulOverflow first = kernels::FirstI32MatMulOverflow(
          m, k, n, reinterpret_cast<const int32_t*>(a), reinterpret_cast<const int32_t*>(b));
      if (first.index < 0) continue;
      return cx.Fail(RuntimeErrorId::kTensorOverflowMatMul,
                     IndexString(shape, i * m * n + first.index), first.partial, first.x, first.y);
    }
    return cx.Fail(RuntimeErrorId::kBadCall, "`@`: an overflow that is not found again");
  };
  // Multiply-adds of one output row (at least 1, so empty k still counts).
  const int64_t row_flops = std::max<int64_t>(1, n * k);
  const int64_t min_rows =
      ThreadPool::MinRange(kMatMulReferenceNs * static_cast<double>(row_flops));
  const bool use_jit = cx.jit() != nullptr && dtype == DType::kF32 && cx.jit()->available();
  ThreadPool* pool = cx.pool() != nullptr && cx.pool()->threads() > 1 ? cx.pool() : nullptr;
  // The reference's batches are independent: split whole matrices when that
  // makes at least as many ranges as splitting each matrix's rows (the JIT
  // instead splits each large matrix).
  const int64_t min_matrices =
      ThreadPool::MinRange(kMatMulReferenceNs * static_cast<double>(m * row_flops));
  const int batch_ranges = pool != nullptr ? pool->RangesFor(count, 1, min_matrices) : 0;
  std::atomic<bool> overflow{false};  // an i32 partial sum left i32
  if (!use_jit && batch_ranges >= 2 && batch_ranges >= pool->RangesFor(m, 1, min_rows)) {
    pool->ParallelFor(count, 1, min_matrices, [&](int, int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const char *a, *b;
        operands(i, &a, &b);
        if (!kernels::MatMul(dtype, m, k, n, a, b, po + i * m * n * bytes)) {
          overflow.store(true, std::memory_order_relaxed);
        }
      }
    });
    return overflow.load(std::memory_order_relaxed) ? FailMatMulOverflow() : out;
  }
  for (int64_t i = 0; i < count; ++i) {
    const char *a, *b;
    operands(i, &a, &b);
    char* c = po + i * m * n * bytes;
    bool done = false;
    if (use_jit) {
      jit::Jit::KernelTimer timer(*cx.jit());
      done =
          cx.jit()->MatMulF32(m, k, n, reinterpret_cast<const float*>(a),
                              reinterpret_cast<const float*>(b), reinterpret_cast<float*>(c), pool);
    }
    if (done) continue;
    // Blocks of whole rows: each output is the same FMA chain either way.
    cx.ForRanges(m, 1, min_rows, [&](int, int64_t begin, int64_t end) {
      if (!kernels::MatMul(dtype, end - begin, k, n, a + begin * k * bytes, b,
                           c + begin * n * bytes)) {
        overflow.store(true, std::memory_order_relaxed);
      }
    });
  }
  return overflow.load(std::memory_order_relaxed) ? FailMatMulOverflow() : out;
}

Object* MatMulTransposed(TensorContext& cx, const Object* x, bool x_t, const Object* y, bool y_t) {
  // The transpose of a 0-d or 1-d tensor is itself.
  x_t = x_t && RankOf(x) >= 2;
  y_t = y_t && RankOf(y) >= 2;
  // The operands' shapes after the transposes, when both are matrices or
  // vectors (a batch, or a transposed rank > 2, takes the general path).
  auto logical = [](const Object* t, bool transposed) {
    const absl::Span<const int64_t> s = ShapeOf(t);
    return transposed ? Shape(s.rbegin(), s.rend()) : Shape(s.begin(), s.end());
  };
  const Shape sx = logical(x, x_t), sy = logical(y, y_t);
  jit::Jit* jit = cx.jit();
  const bool direct = (x_t || y_t) && jit != nullptr && jit->available() &&
                      DTypeOf(x) == DType::kF32 && DTypeOf(y) == DType::kF32 && !sx.empty() &&
                      !sy.empty() && sx.size() <= 2 && sy.size() <= 2 && sx.back() == sy[0];
  if (direct) {
    const int64_t m = sx.size() == 1 ? 1 : sx[0];
    const int64_t k = sx.back();
    const int64_t n = sy.size() == 1 ? 1 : sy[1];
    Shape shape;
    if (sx.size() == 2) shape.push_back(m);
    if (sy.size() == 2) shape.push_back(n);
    Object* out = cx.New(DType::kF32, shape);
    if (out == nullptr) return nullptr;
    if (SizeOf(out) == 0) return out;
    ThreadPool* pool = cx.pool() != nullptr && cx.pool()->threads() > 1 ? cx.pool() : nullptr;
    jit::Jit::KernelTimer timer(*jit);
    if (jit->MatMulF32(m, k, n, {static_cast<const float*>(DataOf(x)), x_t},
                       {static_cast<const float*>(DataOf(y)), y_t}, ElementsOf<float>(out), pool)) {
      return out;
    }
    cx.heap().Release(out);
  }
  // The general path: the transposes made (and counted as copies), then
  // MatMul with its checks and errors.
  Object* tx = x_t ? Transpose(cx, x) : nullptr;
  if (x_t && tx == nullptr) return nullptr;
  Object* ty = y_t ? Transpose(cx, y) : nullptr;
  if (y_t && ty == nullptr) {
    if (tx != nullptr) cx.heap().Release(tx);
    return nullptr;
  }
  Object* out = MatMul(cx, tx != nullptr ? tx : x, ty != nullptr ? ty : y);
  if (tx != nullptr) cx.heap().Release(tx);
  if (ty != nullptr) cx.heap().Release(ty);
  return out;
}

}  // namespace alea::vm

// Reductions and softmax on objects (tensor_ops.h): shapes, dtypes, errors,
// and the choice of kernel: the JIT's for contiguous f32 rows, the
// reference's (kernels/reduce.h) otherwise, split across the VM's threads
// only where the result cannot depend on the split.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "vm/dtype.h"
#include "vm/heap.h"
#include "vm/jit/jit.h"
#include "vm/kernels/math_f32.h"
#include "vm/kernels/pin_nan.h"
#include "vm/kernels/reduce.h"
#include "vm/runtime_error.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/thread_pool.h"

namespace alea::vm {
namespace {

using kernels::ReduceOp;

// Splitting across threads by cost (tensor_ops.cc has the measurements and
// the rule, ThreadPool::MinRange): per element read, sum (the cheapest fold)
// on the JIT and on the reference; those with an exp per element
// (logsumexp, softmax) cost like the math functions.
constexpr double kReduceJitNs = 0.06;
constexpr double kReduceReferenceNs = 0.29;
constexpr double kExpJitNs = 0.28;
constexpr double kExpReferenceNs = 13.0;

const char* ReduceName(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return "sum";
    case ReduceOp::kMean:
      return "mean";
    case ReduceOp::kMax:
      return "max";
    case ReduceOp::kMin:
      return "min";
    case ReduceOp::kArgmax:
      return "argmax";
    case ReduceOp::kProd:
      return "prod";
    case ReduceOp::kArgmin:
      return "argmin";
    case ReduceOp::kAny:
      return "any";
    case ReduceOp::kAll:
      return "all";
    case ReduceOp::kLogSumExp:
      return "logsumexp";
    case ReduceOp::kVar:
      return "var";
    case ReduceOp::kStd:
      return "std";
  }
  return "?";
}

// The single-pass folds, whose chunk results combine as reduce.h says.
bool IsFold(ReduceOp op) {
  return op == ReduceOp::kSum || op == ReduceOp::kMean || op == ReduceOp::kProd ||
         op == ReduceOp::kMax || op == ReduceOp::kMin;
}

// i32 sums and products are checked in index order (kernels/reduce.h), so
// they run on one thread in the reference kernel, which finds the first
// failing element.
bool IsChecked(ReduceOp op, DType dtype) {
  return dtype == DType::kI32 && (op == ReduceOp::kSum || op == ReduceOp::kProd);
}

// The JIT's kernels for contiguous f32 rows of `op`: the fold of its first
// pass and the map-sum of its second. Valid when `ok`.
struct RowKernels {
  bool ok = false;
  jit::ReduceF32Fn fold = nullptr;
  jit::MapSumF32Fn map_sum = nullptr;
};

RowKernels RowKernelsFor(TensorContext& cx, ReduceOp op, DType dtype) {
  RowKernels k;
  if (cx.jit() == nullptr || dtype != DType::kF32) return k;
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kMean:
    case ReduceOp::kProd:
    case ReduceOp::kMax:
    case ReduceOp::kMin:
      k.fold = cx.jit()->ReduceF32(op == ReduceOp::kMean ? ReduceOp::kSum : op);
      k.ok = k.fold != nullptr;
      return k;
    case ReduceOp::kVar:
    case ReduceOp::kStd:
      k.fold = cx.jit()->ReduceF32(ReduceOp::kSum);
      k.map_sum = cx.jit()->MapSumF32(jit::MapSum::kSquaredDeviation);
      break;
    case ReduceOp::kLogSumExp:
      k.fold = cx.jit()->ReduceF32(ReduceOp::kMax);
      k.map_sum = cx.jit()->MapSumF32(jit::MapSum::kExpShifted);
      break;
    default:
      return k;
  }
  k.ok = k.fold != nullptr && k.map_sum != nullptr;
  return k;
}

// One output of `op` from the contiguous row x[0..n), n >= 1, on the JIT's
// kernels: kernels/reduce.h's definition step by step.
float RowResult(const RowKernels& k, ReduceOp op, const float* x, int64_t n, int64_t ddof) {
  switch (op) {
    case ReduceOp::kMean:
      return k.fold(x, n) / static_cast<float>(n);
    case ReduceOp::kVar:
    case ReduceOp::kStd: {
      const float mean = k.fold(x, n) / static_cast<float>(n);
      const float var = k.map_sum(x, n, mean, nullptr) / kernels::VarDivisor(n, ddof);
      return op == ReduceOp::kStd ? std::sqrt(var) : var;
    }
    case ReduceOp::kLogSumExp: {
      float c = k.fold(x, n);
      if (!std::isfinite(c)) c = 0.0f;
      return kernels::LogF32(k.map_sum(x, n, c, nullptr)) + c;
    }
    default:
      return k.fold(x, n);
  }
}

// Rows [begin, end) of contiguous f32 rows of n into y.
void JitRows(const RowKernels& k, ReduceOp op, const float* x, int64_t n, int64_t ddof,
             int64_t begin, int64_t end, float* y) {
  for (int64_t r = begin; r < end; ++r) y[r] = RowResult(k, op, x + r * n, n, ddof);
}

// One step of reduce.h's "chunks combine left to right", exactly as
// reduce_lanes.h's SumOp/ProdOp/MaxOp/MinOp::Apply: the NaN payload of a sum
// or product of NaNs is the left one's (PinNaN), max/min keep a NaN on the
// left and otherwise the left operand on ties (so -0.0 vs 0.0 keeps the left
// zero), u32 sums and products wrap.
template <typename T>
T CombineChunks(ReduceOp op, T a, T b) {
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kMean:
      if constexpr (std::is_same_v<T, float>) {
        return kernels::PinNaN<float>(a, a + b);
      } else {
        return static_cast<T>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
      }
    case ReduceOp::kProd:
      if constexpr (std::is_same_v<T, float>) {
        return kernels::PinNaN<float>(a, a * b);
      } else {
        return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint32_t>(b));
      }
    case ReduceOp::kMax:
      if constexpr (std::is_same_v<T, float>) return (a >= b || std::isnan(a)) ? a : b;
      return a >= b ? a : b;
    case ReduceOp::kMin:
      if constexpr (std::is_same_v<T, float>) return (a <= b || std::isnan(a)) ? a : b;
      return a <= b ? a : b;
    default:
      break;
  }
  return a;
}

// Folds the chunk results parts[0..count) of chunks first.. (chunk i of the
// whole [outer, n] being row i / per_row, chunk i % per_row) into the rows'
// running results in y, left to right.
template <typename T>
void FoldChunks(ReduceOp op, const uint32_t* parts, int64_t first, int64_t count, int64_t per_row,
                void* out) {
  T* y = static_cast<T*>(out);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t chunk = first + i;
    const T part = std::bit_cast<T>(parts[i]);
    T& row = y[chunk / per_row];
    row = chunk % per_row == 0 ? part : CombineChunks<T>(op, row, part);
  }
}

// A fold of contiguous rows longer than one chunk, split across the pool by
// whole chunks, each reduced by the same kernel as a row of one chunk, and
// the chunk results folded here in reduce.h's order.
void SplitChunks(TensorContext& cx, ReduceOp op, DType dtype, const RowKernels& k, int64_t outer,
                 int64_t n, const void* x, void* y) {
  const bool mean = op == ReduceOp::kMean;
  const ReduceOp kernel_op = mean ? ReduceOp::kSum : op;  // mean divides afterwards
  const int64_t bytes = ElementBytes(dtype);
  const char* in = static_cast<const char*>(x);
  const int64_t per_row = (n - 1) / kernels::kReduceChunk + 1;
  const int64_t chunks = outer * per_row;
  // Batches of chunk results on the stack: no allocation however long.
  constexpr int64_t kBatch = 256;
  std::array<uint32_t, kBatch> parts;
  std::optional<jit::Jit::KernelTimer> timer;
  if (k.ok) timer.emplace(*cx.jit());
  for (int64_t first = 0; first < chunks; first += kBatch) {
    const int64_t count = std::min(kBatch, chunks - first);
    const double element_ns = k.ok ? kReduceJitNs : kReduceReferenceNs;
    const int64_t min_chunks =
        ThreadPool::MinRange(element_ns * static_cast<double>(kernels::kReduceChunk));
    cx.pool()->ParallelFor(count, 1, min_chunks, [&](int, int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const int64_t chunk = first + i;
        const int64_t start = (chunk / per_row) * n + (chunk % per_row) * kernels::kReduceChunk;
        const int64_t len =
            std::min(kernels::kReduceChunk, n - (chunk % per_row) * kernels::kReduceChunk);
        const char* p = in + start * bytes;
        if (k.ok) {
          parts[static_cast<size_t>(i)] =
              std::bit_cast<uint32_t>(k.fold(reinterpret_cast<const float*>(p), len));
        } else {
          kernels::Reduce(kernel_op, dtype, 1, len, 1, p, &parts[static_cast<size_t>(i)]);
        }
      }
    });
    switch (dtype) {
      case DType::kF32:
        FoldChunks<float>(op, parts.data(), first, count, per_row, y);
        break;
      case DType::kI32:
        FoldChunks<int32_t>(op, parts.data(), first, count, per_row, y);
        break;
      case DType::kU32:
      case DType::kBool:  // not folded (ReduceAccepts)
        FoldChunks<uint32_t>(op, parts.data(), first, count, per_row, y);
        break;
    }
  }
  if (mean) {
    // reduce.h: the sum divided by n rounded to f32.
    float* f = static_cast<float*>(y);
    const float divisor = static_cast<float>(n);
    for (int64_t o = 0; o < outer; ++o) f[o] = f[o] / divisor;
  }
}

// Runs the reduction of [outer, n, inner] (all >= 1) into out: split across
// the pool where it is large enough, on the JIT's kernels where there are
// some. Returns the kernel's status.
kernels::ReduceStatus RunReduce(TensorContext& cx, ReduceOp op, DType dtype, int64_t outer,
                                int64_t n, int64_t inner, const void* x, void* y, int64_t ddof,
                                int64_t* overflow_at) {
  if (IsChecked(op, dtype)) {
    return kernels::Reduce(op, dtype, outer, n, inner, x, y, ddof, overflow_at);
  }
  const RowKernels k = inner == 1 && n > 0 ? RowKernelsFor(cx, op, dtype) : RowKernels{};
  ThreadPool* pool = cx.pool();
  const bool threads = pool != nullptr && pool->threads() >= 2;
  if (threads && IsFold(op) && inner == 1 && n > kernels::kReduceChunk) {
    SplitChunks(cx, op, dtype, k, outer, n, x, y);
    return kernels::ReduceStatus::kOk;
  }
  // Whole outputs: rows of `inner` outputs, each reading n * inner elements.
  const bool exp = op == ReduceOp::kLogSumExp;
  // var and std read each row twice (the mean, then the deviations).
  const double passes = op == ReduceOp::kVar || op == ReduceOp::kStd ? 2.0 : 1.0;
  const double element_ns = passes * (exp ? (k.ok ? kExpJitNs : kExpReferenceNs)
                                          : (k.ok ? kReduceJitNs : kReduceReferenceNs));
  const int64_t min_rows = ThreadPool::MinRange(element_ns * static_cast<double>(n * inner));
  const int64_t bytes = ElementBytes(dtype);
  const int64_t out_bytes = op == ReduceOp::kArgmax || op == ReduceOp::kArgmin ? 4 : bytes;
  const char* in = static_cast<const char*>(x);
  char* o = static_cast<char*>(y);
  std::optional<jit::Jit::KernelTimer> timer;
  if (k.ok) timer.emplace(*cx.jit());
  // Only n == 0 can give kEmpty, and then every range does.
  std::atomic<bool> empty{false};
  auto rows = [&](int, int64_t begin, int64_t end) {
    if (k.ok) {
      JitRows(k, op, static_cast<const float*>(x), n, ddof, begin, end, static_cast<float*>(y));
      return;
    }
    if (kernels::Reduce(op, dtype, end - begin, n, inner, in + begin * n * inner * bytes,
                        o + begin * inner * out_bytes, ddof) == kernels::ReduceStatus::kEmpty) {
      empty = true;
    }
  };
  if (n == 0) {
    rows(0, 0, outer);
  } else {
    cx.ForRanges(outer, 1, min_rows, rows);
  }
  return empty ? kernels::ReduceStatus::kEmpty : kernels::ReduceStatus::kOk;
}

// The overflow error of an i32 sum or product at flat index `at` of x:
// its running value just before, recomputed (it fitted), and the element.
std::nullptr_t FailOverflow(TensorContext& cx, ReduceOp op, const Object* x, int64_t n,
                            int64_t inner, int64_t at) {
  const int32_t* e = ElementsOf<int32_t>(x);
  const bool prod = op == ReduceOp::kProd;
  const int64_t o = at / (n * inner), i = (at / inner) % n, p = at % inner;
  int64_t before = prod ? 1 : 0;
  for (int64_t k = 0; k < i; ++k) {
    const int64_t v = e[(o * n + k) * inner + p];
    before = prod ? before * v : before + v;
  }
  return cx.Fail(RuntimeErrorId::kOverflowReduce, ReduceName(op), IndexString(ShapeOf(x), at),
                 before, prod ? "*" : "+", e[at]);
}

}  // namespace

Object* Reduce(TensorContext& cx, ReduceOp op, const Object* x, std::optional<int64_t> axis,
               int64_t ddof) {
  const DType dtype = DTypeOf(x);
  if (!kernels::ReduceAccepts(op, dtype)) {
    return cx.Fail(RuntimeErrorId::kBadCall,
                   absl::StrCat("`", ReduceName(op), "` of a tensor of dtype ", DTypeName(dtype)));
  }
  const absl::Span<const int64_t> shape = ShapeOf(x);
  int64_t outer = 1, n = SizeOf(x), inner = 1;
  Shape result_shape;
  if (axis.has_value()) {
    const std::optional<AxisView> view = ViewAround(cx, shape, *axis);
    if (!view) return nullptr;
    outer = view->outer;
    n = view->n;
    inner = view->inner;
    result_shape.assign(shape.begin(), shape.end());
    result_shape.erase(result_shape.begin() + view->axis);
  }
  DType result = dtype;
  if (op == ReduceOp::kArgmax || op == ReduceOp::kArgmin) result = DType::kI32;
  Object* out = cx.New(result, result_shape);
  if (out == nullptr) return nullptr;
  // No outputs (another axis has length 0), so nothing to compute, whatever
  // n is: an empty result as NumPy's (`np.zeros((2, 0)).max(axis=0)` is
  // `[]`). Every path below may then assume outer, inner >= 1.
  if (outer == 0 || inner == 0) return out;
  int64_t at = -1;
  switch (RunReduce(cx, op, dtype, outer, n, inner, DataOf(x), DataOf(out), ddof, &at)) {
    case kernels::ReduceStatus::kOk:
      return out;
    case kernels::ReduceStatus::kEmpty:
      cx.heap().Release(out);
      return cx.Fail(RuntimeErrorId::kReduceEmpty, ReduceName(op), ShapeString(shape));
    case kernels::ReduceStatus::kOverflow:
      cx.heap().Release(out);
      return FailOverflow(cx, op, x, n, inner, at);
  }
  return out;
}

Object* ReduceTransposed(TensorContext& cx, ReduceOp op, const Object* x, int64_t axis) {
  const int rank = RankOf(x);
  const DType dtype = DTypeOf(x);
  const bool as_written = rank < 2 || SizeOf(x) == 0 || !kernels::ReduceAccepts(op, dtype) ||
                          (dtype == DType::kI32 && (op == ReduceOp::kSum || op == ReduceOp::kProd));
  if (as_written) {
    Object* t = Transpose(cx, x);
    if (t == nullptr) return nullptr;
    Object* out = Reduce(cx, op, t, axis);
    cx.heap().Release(t);
    return out;
  }
  // The transpose's axis a is x's axis rank - 1 - a; ViewAround's error,
  // naming the transpose's shape.
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    const absl::Span<const int64_t> shape = ShapeOf(x);
    return cx.Fail(RuntimeErrorId::kAxisOutOfRange, axis,
                   ShapeString(Shape(shape.rbegin(), shape.rend())));
  }
  Object* out = Reduce(cx, op, x, rank - 1 - a);
  if (out == nullptr || RankOf(out) < 2) return out;
  // x without that axis, reversed, is the transpose without axis a.
  Object* t = Transpose(cx, out);
  cx.heap().Release(out);
  return t;
}

Object* Softmax(TensorContext& cx, const Object* x, int64_t axis) {
  // The kernels read f32 elements; the loader does not check dtypes.
  if (DTypeOf(x) != DType::kF32) {
    return cx.Fail(RuntimeErrorId::kBadCall,
                   absl::StrCat("`softmax` of a tensor of dtype ", DTypeName(DTypeOf(x))));
  }
  const absl::Span<const int64_t> shape = ShapeOf(x);
  const std::optional<AxisView> view = ViewAround(cx, shape, axis);
  if (!view) return nullptr;
  Object* out = cx.New(DType::kF32, shape);
  if (out == nullptr) return nullptr;
  const int64_t outer = view->outer, n = view->n, inner = view->inner;
  if (outer == 0 || n == 0 || inner == 0) return out;
  const float* in = ElementsOf<float>(x);
  float* y = ElementsOf<float>(out);
  jit::ReduceF32Fn max = nullptr;
  jit::MapSumF32Fn exp_sum = nullptr;
  if (cx.jit() != nullptr && inner == 1) {
    max = cx.jit()->ReduceF32(ReduceOp::kMax);
    exp_sum = cx.jit()->MapSumF32(jit::MapSum::kExpShiftedStore);
  }
  const bool jitted = max != nullptr && exp_sum != nullptr;
  std::optional<jit::Jit::KernelTimer> timer;
  if (jitted) timer.emplace(*cx.jit());
  const int64_t min_rows =
      ThreadPool::MinRange((jitted ? kExpJitNs : kExpReferenceNs) * static_cast<double>(n * inner));
  cx.ForRanges(outer, 1, min_rows, [&](int, int64_t begin, int64_t end) {
    if (!jitted) {
      kernels::Softmax(end - begin, n, inner, in + begin * n * inner, y + begin * n * inner);
      return;
    }
    // kernels/reduce.h's softmax, row by row.
    for (int64_t r = begin; r < end; ++r) {
      const float* row = in + r * n;
      float* e = y + r * n;
      const float s = exp_sum(row, n, max(row, n), e);
      for (int64_t i = 0; i < n; ++i) e[i] = e[i] / s;
    }
  });
  return out;
}

}  // namespace alea::vm

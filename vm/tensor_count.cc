// `bincount` and `histogram` (vm/tensor_ops.h): NumPy's argument checks and
// their run-time errors around kernels/count.h.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "absl/types/span.h"
#include "vm/kernels/count.h"
#include "vm/print.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

constexpr int64_t kMaxI32 = std::numeric_limits<int32_t>::max();

// A zeroed 1-d tensor, the result both ops count into.
Object* Zeros(TensorContext& cx, DType dtype, int64_t n) {
  const int64_t shape[] = {n};
  return Full(cx, dtype, shape, 0);
}

}  // namespace

Object* BinCount(TensorContext& cx, const Object* idx, int64_t length, const Object* weights) {
  if (DTypeOf(idx) != DType::kI32 || (weights != nullptr && DTypeOf(weights) != DType::kF32)) {
    return cx.Fail(RuntimeErrorId::kBadCall, "`bincount` of tensors of other dtypes");
  }
  const absl::Span<const int64_t> shape = ShapeOf(idx);
  if (shape.size() != 1) return cx.Fail(RuntimeErrorId::kBinCountRank, ShapeString(shape));
  if (length < 0) return cx.Fail(RuntimeErrorId::kBinCountLength, length);
  const int64_t n = shape[0];
  if (weights != nullptr && !(ShapeOf(weights) == shape)) {
    return cx.Fail(RuntimeErrorId::kBinCountWeights, ShapeString(ShapeOf(weights)),
                   ShapeString(shape));
  }
  const int32_t* ids = ElementsOf<int32_t>(idx);
  const int64_t negative = kernels::FirstNegative(ids, n);
  if (negative >= 0) return cx.Fail(RuntimeErrorId::kBinCountNegative, ids[negative], negative);
  // NumPy's minlength: the result reaches the largest index, and `length`.
  const int64_t out_length = std::max<int64_t>(length, int64_t{kernels::MaxIndex(ids, n)} + 1);
  if (weights == nullptr) {
    if (n > kMaxI32) return cx.Fail(RuntimeErrorId::kI32CountRange, "bincount", n);
    Object* out = Zeros(cx, DType::kI32, out_length);
    if (out != nullptr) kernels::BinCount(ids, n, ElementsOf<int32_t>(out));
    return out;
  }
  const int64_t out_shape[] = {out_length};
  Object* out = cx.New(DType::kF32, out_shape);
  if (out == nullptr) return nullptr;
  Object* sums = cx.Scratch(2 * out_length);
  if (sums == nullptr) {
    cx.heap().Release(out);
    return nullptr;
  }
  double* s = static_cast<double*>(DataOf(sums));  // 64-byte aligned, as every tensor
  if (out_length > 0) std::memset(s, 0, static_cast<size_t>(out_length) * sizeof(double));
  kernels::BinCountWeighted(ids, ElementsOf<float>(weights), n, out_length, s,
                            ElementsOf<float>(out));
  cx.heap().Release(sums);
  return out;
}

Object* Histogram(TensorContext& cx, const Object* x, int64_t bins, double lo, double hi) {
  if (DTypeOf(x) != DType::kF32) {
    return cx.Fail(RuntimeErrorId::kBadCall, "`histogram` of a tensor that is not f32");
  }
  if (bins < 1) return cx.Fail(RuntimeErrorId::kHistogramBins, bins);
  if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi)) {
    return cx.Fail(RuntimeErrorId::kHistogramRange, FormatFloat(lo), FormatFloat(hi));
  }
  const int64_t n = SizeOf(x);
  if (n > kMaxI32) return cx.Fail(RuntimeErrorId::kI32CountRange, "histogram", n);
  Object* out = Zeros(cx, DType::kI32, bins);  // first: a bins too large is kBadShape
  if (out == nullptr) return nullptr;
  Object* edges = cx.Scratch(2 * (bins + 1));  // bins + 1 doubles
  if (edges == nullptr) {
    cx.heap().Release(out);
    return nullptr;
  }
  kernels::Histogram(kernels::PlanHistogram(lo, hi, bins), ElementsOf<float>(x), n, DataOf(edges),
                     ElementsOf<int32_t>(out));
  cx.heap().Release(edges);
  return out;
}

}  // namespace alea::vm

// Elementwise operands' layouts against their result (tensor_ops.h
// SegmentLayouts), shared by Binary and FUSED_T's pass (tensor_fused.cc): the
// one place that decides which broadcasts the JIT's contiguous kernels can
// run, a segment at a time.
#include <cstdint>
#include <optional>

#include "absl/types/span.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= d;
  return p;
}

// `shape` aligned to `result`'s rank (leading 1s added) is 1 on its trailing
// axes and the result's own sizes on a run of axes before them (any axes
// before that run are 1 too): the operand varies only with the result's
// leading axes. *length: the elements of the result under one operand
// element (the product of the result's axes where the operand is 1 at the
// end), *count: the operand's elements. Segment r of the result then reads
// element r % count: the segments run over the result's leading axes in
// index order, and the operand's axes are the fastest of those.
bool IsColumn(absl::Span<const int64_t> shape, absl::Span<const int64_t> result, int64_t* length,
              int64_t* count) {
  if (shape.size() > result.size()) return false;
  const size_t offset = result.size() - shape.size();
  size_t last = shape.size();  // one past the last axis of size > 1
  while (last > 0 && shape[last - 1] == 1) --last;
  size_t first = 0;  // the first axis of size > 1
  while (first < last && shape[first] == 1) ++first;
  if (first == last) return false;  // one element: a scalar
  for (size_t i = first; i < last; ++i) {
    if (shape[i] != result[offset + i]) return false;
  }
  *length = Product(result.subspan(offset + last));
  *count = Product(shape.subspan(first, last - first));
  return *length > 1;
}

}  // namespace

std::optional<Segments> SegmentLayouts(absl::Span<const absl::Span<const int64_t>> operands,
                                       absl::Span<const int64_t> result) {
  const int64_t n = Product(result);
  Segments out;
  auto agree = [&](int64_t length) {
    if (out.length != 0 && out.length != length) return false;
    out.length = length;
    return true;
  };
  for (absl::Span<const int64_t> shape : operands) {
    const int64_t count = Product(shape);
    if (count == n) {
      out.layouts.push_back(SegmentLayout::kFull);
      continue;
    }
    if (count == 1) {
      out.layouts.push_back(SegmentLayout::kScalar);
      continue;
    }
    // A row: the shape without leading 1s is the result's last axes.
    absl::Span<const int64_t> s = shape;
    while (!s.empty() && s.front() == 1) s.remove_prefix(1);
    if (s.size() <= result.size() && s == result.last(s.size())) {
      if (!agree(count)) return std::nullopt;
      out.layouts.push_back(SegmentLayout::kRow);
      continue;
    }
    int64_t length = 0, elements = 0;
    if (!IsColumn(shape, result, &length, &elements) || !agree(length)) return std::nullopt;
    out.layouts.push_back(SegmentLayout::kColumn);
  }
  return out;
}

}  // namespace alea::vm

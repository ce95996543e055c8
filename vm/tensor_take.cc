// `take` (vm/tensor_ops.h): np.take's shape rule and errors around
// kernels/take.h.
#include <cstdint>

#include "absl/types/span.h"
#include "vm/kernels/take.h"
#include "vm/tensor_ops.h"
#include "vm/thread_pool.h"

namespace alea::vm {
namespace {

// A gathered element's cost on one thread, for ThreadPool::MinRange: 0.5 ns
// when x is in cache (2-vCPU Xeon, 10^5 random indices into 10^5 f32); a
// random index into a large x costs ~5 ns (a DRAM access), so splitting
// from the in-cache cost never splits too early.
constexpr double kGatherNs = 0.5;

}  // namespace

Object* Take(TensorContext& cx, const Object* x, const Object* idx, int64_t axis) {
  if (DTypeOf(idx) != DType::kI32) {
    return cx.Fail(RuntimeErrorId::kBadCall, "`take` with indices that are not i32");
  }
  const absl::Span<const int64_t> shape = ShapeOf(x);
  const std::optional<AxisView> view = ViewAround(cx, shape, axis);
  if (!view) return nullptr;
  const absl::Span<const int64_t> idx_shape = ShapeOf(idx);
  Shape out_shape(shape.begin(), shape.begin() + view->axis);
  out_shape.insert(out_shape.end(), idx_shape.begin(), idx_shape.end());
  out_shape.insert(out_shape.end(), shape.begin() + view->axis + 1, shape.end());
  Object* out = cx.New(DTypeOf(x), out_shape);  // a rank past kMaxRank: kBadShape
  if (out == nullptr) return nullptr;
  const int bytes = ElementBytes(DTypeOf(x));
  const int32_t* indices = ElementsOf<int32_t>(idx);
  int64_t bad = -1;
  if (view->outer == 1) {
    // One block (`x[idx]`, every take along axis 0): the indices split
    // across threads, each range checking its own; the first bad one in
    // index order is reported, whatever the split.
    const int64_t count = SizeOf(idx);
    const int64_t min_range = ThreadPool::MinRange(kGatherNs * static_cast<double>(view->inner));
    char* o = static_cast<char*>(DataOf(out));
    bad = cx.ForRangesUntil(count, 64, min_range, [&](int64_t begin, int64_t end) {
      const int64_t at = kernels::Take(bytes, 1, view->n, view->inner, DataOf(x), indices + begin,
                                       end - begin, o + begin * view->inner * bytes);
      return at < 0 ? -1 : begin + at;
    });
  } else {
    bad = kernels::Take(bytes, view->outer, view->n, view->inner, DataOf(x), indices, SizeOf(idx),
                        DataOf(out));
  }
  if (bad >= 0) {
    cx.heap().Release(out);
    return cx.Fail(RuntimeErrorId::kTakeIndex, ElementsOf<int32_t>(idx)[bad], view->axis, view->n);
  }
  return out;
}

}  // namespace alea::vm

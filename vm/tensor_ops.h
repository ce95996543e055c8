// Tensor operations on heap objects: shape rules (NumPy broadcasting), result
// allocation (in place when the operation owns the operand's only reference),
// the reference kernels (vm/kernels/), and the run-time errors of
// runtime_errors.def. Shared by the interpreter's tensor opcodes and the
// natives of stdlib/tensors.cc, so both report the same messages.
//
// Every function returns the result (an owned reference), or nullptr after
// recording why in the TensorContext. Inputs are borrowed unless passed as an
// Owned operand, whose reference the call always consumes (reused as the
// result, or released), on success and on failure alike.
#ifndef ALEA_VM_TENSOR_OPS_H_
#define ALEA_VM_TENSOR_OPS_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "absl/types/span.h"
#include "vm/bytecode.h"
#include "vm/dtype.h"
#include "vm/heap.h"
#include "vm/kernels/elementwise.h"
#include "vm/kernels/reduce.h"
#include "vm/kernels/scatter.h"
#include "vm/runtime_error.h"
#include "vm/tensor.h"
#include "vm/value.h"

namespace alea::vm {

namespace jit {
class Jit;
}
class ThreadPool;

class TensorContext {
 public:
  // `jit`: the VM's JIT when it may be used (null: reference kernels only).
  // `pool`: the VM's threads for large ops (null: the caller's thread only).
  explicit TensorContext(Heap& heap, jit::Jit* jit = nullptr, ThreadPool* pool = nullptr)
      : heap_(heap), jit_(jit), pool_(pool) {}
  Heap& heap() { return heap_; }
  jit::Jit* jit() const { return jit_; }
  ThreadPool* pool() const { return pool_; }
  // body over [0, n) split across the pool (ThreadPool::ParallelFor), or in
  // one call on this thread without a pool of two or more threads.
  void ForRanges(int64_t n, int64_t align, int64_t min_range,
                 absl::FunctionRef<void(int range, int64_t begin, int64_t end)> body);
  // ForRanges for work that may stop early: body(begin, end) returns -1, or
  // the index in [begin, end) where it stopped (at its first failure).
  // Returns the first such index in index order, or -1: the same answer as
  // one call over [0, n), whatever the split.
  int64_t ForRangesUntil(int64_t n, int64_t align, int64_t min_range,
                         absl::FunctionRef<int64_t(int64_t begin, int64_t end)> body);
  // The instruction site whose results New makes (Heap::NewTensorAt: its
  // last dead result is reused); 0: none.
  void set_site(uint32_t site) { site_ = site; }

  // A tensor of `shape` with uninitialized elements; nullptr (out of memory,
  // or an invalid shape: kBadShape) with the failure recorded.
  Object* New(DType dtype, absl::Span<const int64_t> shape);
  // Scratch space beside a result: `words` uninitialized 4-byte words
  // (64-byte aligned) in a u32 tensor, so that the heap budget counts them
  // (a std::vector sized by a program's shape could abort the process
  // instead), and never the site's output buffer. The caller releases it.
  // nullptr after recording out-of-memory.
  Object* Scratch(int64_t words);

  // Counts a result whose elements were copied from an operand unchanged,
  // only to lay them out anew (Stats::bytes_copied): so a hidden copy shows
  // in `--stats`. Returns `t` for `return cx.Copied(out)`.
  Object* Copied(Object* t) {
    if (t != nullptr) heap_.CountCopy(static_cast<uint64_t>(SizeOf(t)) * ElementBytes(DTypeOf(t)));
    return t;
  }
  // Records a run-time error; returns nullptr for `return cx.Fail(...)`.
  template <typename... Args>
  std::nullptr_t Fail(RuntimeErrorId id, const Args&... args) {
    error_ = MakeRuntimeError(id, args...);
    return nullptr;
  }
  std::nullptr_t OutOfMemory() {
    out_of_memory_ = true;
    return nullptr;
  }

  // After a failure: out of memory (report with the heap's numbers), or the
  // error.
  bool out_of_memory() const { return out_of_memory_; }
  RuntimeError TakeError() { return std::move(*error_); }

 private:
  Heap& heap_;
  jit::Jit* jit_;
  ThreadPool* pool_;
  uint32_t site_ = 0;
  bool out_of_memory_ = false;
  std::optional<RuntimeError> error_;
};

// An operand passed with its reference: the operation may write its result
// into it when IsReusable (same shape and element size as the result).
struct Owned {
  Object* tensor;
};
// An operand that is either borrowed or owned.
struct TensorArg {
  Object* tensor;
  bool owned;
};

// A shape being computed (rank <= kMaxRank; most are small).
using Shape = absl::InlinedVector<int64_t, 8>;
// A shape argument as a program passes it: an [Int] (its dimensions are
// checked by TensorContext::New).
Shape ShapeFromIntArray(Value array);
// NumPy's rule over any number of shapes: aligned from the right, each
// dimension equal or 1. A 1 against a 0 gives 0 (the 1 is the broadcast one).
bool BroadcastShapes(std::initializer_list<absl::Span<const int64_t>> shapes, Shape* out);
// The strides (in elements) of a contiguous tensor of `shape` read in an
// index space of rank `out_rank` it broadcasts to (0 along its size-1 axes
// and the leading axes it lacks): a kernels::Strided operand's.
Shape BroadcastStrides(absl::Span<const int64_t> shape, size_t out_rank);
// A tensor viewed around one axis as [outer, n, inner] (the kernels' view).
struct AxisView {
  int64_t axis;  // from 0
  int64_t outer, n, inner;
};
// `axis` of `shape` counted from 0, or from the end when negative; nullopt
// after recording kAxisOutOfRange (a 0-d tensor has no axis).
std::optional<AxisView> ViewAround(TensorContext& cx, absl::Span<const int64_t> shape,
                                   int64_t axis);

// ---- Elementwise (tensor_ops.cc) ----
// a op b, broadcasting; both have one dtype (the compiler guarantees it).
// f32 operands that are contiguous, a broadcast scalar, or a row or column
// broadcast (SegmentLayouts) run on the JIT's kernel when the context has a
// JIT (bitwise equal to the reference).
// Comparisons give bool. Integer division by zero: kDivisionByZero. The
// operator's spelling (kernels::Spelling) names it in kBroadcast.
Object* Binary(TensorContext& cx, kernels::BinaryOp op, TensorArg a, TensorArg b);

// How an elementwise operand's elements meet a result of n elements seen as
// n / length segments of `length` (tensor_segments.cc): the JIT's kernels
// read only contiguous runs and broadcast scalars, so a row or column
// broadcast runs them once per segment instead of falling back to the
// reference's strided walk (or to materializing the broadcast).
enum class SegmentLayout : uint8_t {
  kFull,    // one element per result element: segment r at r * length
  kScalar,  // one element for all
  kRow,     // the result's trailing axes (`length` elements), every segment
  kColumn,  // one element per segment, broadcast along it: segment r reads
            // element r % count (the operand varies only with the leading axes)
};
struct Segments {
  // 0: only kFull and kScalar operands (one run of n); else the one segment
  // length that every kRow and kColumn operand agrees on.
  int64_t length = 0;
  absl::InlinedVector<SegmentLayout, 4> layouts;
};
// The layouts of operands of these shapes against `result` (their
// broadcast, non-empty), or nullopt when one fits none of them (or rows and
// columns disagree on the length): the caller then runs the reference's
// general strided walk.
std::optional<Segments> SegmentLayouts(absl::Span<const absl::Span<const int64_t>> operands,
                                       absl::Span<const int64_t> result);
Object* Unary(TensorContext& cx, kernels::UnaryOp op, TensorArg x);
// A 0-d tensor of `dtype` from a scalar operand: an Int (`is_float` false)
// or a Float's bits. f32 rounds (to nearest even) either; i32 and u32 take an
// Int that fits (else kScalarOutOfRange with the Int and the dtype name).
Object* FromScalar(TensorContext& cx, DType dtype, Value scalar, bool is_float);
// where(mask, a, b), the three broadcast together.
Object* Where(TensorContext& cx, const Object* mask, const Object* a, const Object* b);
// `cast(x, dtype)` (kernels::Cast's rules; kCastNaN, kCastOutOfRange naming
// the first bad element, formatted as the f32 prints).
Object* Cast(TensorContext& cx, TensorArg x, DType dtype);

// ---- Reductions (tensor_reduce.cc) and matmul (tensor_ops.cc) ----
// Whole tensor when `axis` is empty (a 0-d result), else along the axis
// (negative counts from the end; kAxisOutOfRange), which disappears from the
// shape; the dtypes of kernels::ReduceAccepts (another is kBadCall: the
// compiler never asks). kReduceEmpty names the builtin (`max`, `min`,
// `argmax`, `argmin`) when outputs exist but the axis is empty; with no
// outputs (another axis of length 0) the result is empty whatever the op, as
// NumPy's. An i32 sum or prod that leaves the range is kOverflowReduce naming
// the element. `ddof`: var's and std's.
Object* Reduce(TensorContext& cx, kernels::ReduceOp op, const Object* x,
               std::optional<int64_t> axis, int64_t ddof = 0);
// Reduce(transpose(x), op, axis) without making the transpose: x reduced
// along the mirrored axis (each output reduces the same sequence in the same
// order, so the same bits), the result transposed back when it has two axes
// or more. Where the errors would name x's layout instead (an i32 sum or
// product's overflowing element, an empty tensor's shape, a dtype the op
// does not take), the transpose is made and Reduce runs as written.
Object* ReduceTransposed(TensorContext& cx, kernels::ReduceOp op, const Object* x, int64_t axis);
// scipy.special.softmax of an f32 tensor along `axis` (kernels/reduce.h's
// steps), the same shape.
Object* Softmax(TensorContext& cx, const Object* x, int64_t axis);
// x @ y with NumPy's matmul rules: 1-d operands are promoted (and the added
// axis removed from the result), leading axes broadcast as batches.
Object* MatMul(TensorContext& cx, const Object* x, const Object* y);
// transpose(x) @ y, x @ transpose(y) or both (x_t, y_t say which), the same
// result and errors as MatMul of the transposed tensors. f32 matrices on the
// JIT read a transposed operand in place while packing (no copy of it); any
// other case makes the transpose first.
Object* MatMulTransposed(TensorContext& cx, const Object* x, bool x_t, const Object* y, bool y_t);

// ---- Fused programs (tensor_fused.cc) ----
// A FUSED_T site's kernel, looked up again only when the leaves' layout
// (which are broadcast scalars) changes.
struct FusedKernelCache {
  uint32_t scalar_leaves = 0;
  bool looked_up = false;
  void* kernel = nullptr;  // a jit::FusedF32Fn
};
// FUSED_T's one pass (opcodes.def): true with *result set when the JIT has a
// kernel and every tensor leaf has the result's shape, one element, the
// result's trailing axes (a row repeated), or a column (one element per row,
// as `x - reshape(m, [n, 1])`: SegmentLayouts); the moved leaves are
// consumed and their registers cleared. False changes nothing: the unfused block runs
// (it reports shapes that do not broadcast, and running out of memory).
// `site` (>= 1) keeps the result's buffer between executions
// (Heap::NewTensorAt).
bool RunFused(TensorContext& cx, const FusedProgram& program, FusedKernelCache& cache,
              uint32_t site, Value* regs, Value* result);

// ---- Shapes and creation (tensor_layout.cc) ----
// A tensor of `shape` with every element `value` (bits: f32 in the low 32
// bits as a float's bits, i32/u32 as the integer, bool 0/1).
Object* Full(TensorContext& cx, DType dtype, absl::Span<const int64_t> shape, uint32_t value);
// arange(start, stop): start, start + 1, ... < stop (empty when stop <= start),
// as f32 (each exactly rounded), i32 or u32 (values must fit: kScalarOutOfRange).
Object* Arange(TensorContext& cx, DType dtype, int64_t start, int64_t stop);
// The same elements in a new shape, which may contain one -1 (inferred).
// An owned, reusable operand of the same rank is reshaped in place.
Object* Reshape(TensorContext& cx, TensorArg x, absl::Span<const int64_t> shape);
// Reverses the axes (NumPy's x.T); a 0-d or 1-d tensor is returned as is.
Object* Transpose(TensorContext& cx, const Object* x);
// x[i] along axis 0 (0 <= i < shape[0], else kTensorIndex; 0-d:
// kIndexScalarTensor with "indexing").
Object* Index(TensorContext& cx, const Object* x, int64_t i);
// x[lo:hi] along axis 0, bounds clamped to [0, shape[0]] as Python; a
// negative bound is kNegativeSliceBound (as arrays).
Object* Slice(TensorContext& cx, const Object* x, int64_t lo, int64_t hi);
// Joins tensors of one dtype along `axis` (negative counts from the end).
Object* Concat(TensorContext& cx, absl::Span<const Object* const> xs, int64_t axis);

// ---- Subscripts (tensor_subscript.cc) ----
// One item of `x[...]`: an Int (start), a slice start:stop:step (an omitted
// start is 0, stop INT64_MAX, step 1), or the index tensor.
struct SubscriptItem {
  enum Kind : uint8_t { kIndex, kSlice, kTensor };
  Kind kind = kSlice;
  int64_t start = 0, stop = INT64_MAX, step = 1;
};
// NumPy's x[items]: an Int removes its axis (0 <= i < size, else
// kTakeIndex), a slice keeps it (bounds clamped as `x[a:b]`; negative:
// kNegativeSliceBound; step <= 0: kSliceStep), axes past the items are
// whole, and the one kTensor item (idx, i32 of any shape) replaces its axis
// by idx's shape, as np.take. More items than axes: kSubscriptRank.
Object* Subscript(TensorContext& cx, const Object* x, absl::Span<const SubscriptItem> items,
                  const Object* idx);
// The items of t_subscript's spec array (vm/natives.def: four Ints each,
// kind, start, stop, step); false when a kind is unknown.
bool SubscriptItemsOf(const Object* spec, std::vector<SubscriptItem>* items);
// x[mask]: the elements where the bool mask (x's shape, else kMaskShape)
// is true, in index order, as a 1-d tensor.
Object* MaskSelect(TensorContext& cx, const Object* x, const Object* mask);

// ---- Indexing by a tensor, scans, sorting (tensor_take.cc, tensor_scan.cc,
// tensor_sort.cc): NumPy's take, cumsum, argsort, sort, searchsorted ----
// np.take(x, idx, axis): x of any dtype, idx i32 of any shape (0-d
// included); the result's shape is x's with the axis replaced by idx's
// shape. An index outside [0, size) is kTakeIndex (negative ones too: they do
// not count from the end); with no element before the axis none is checked,
// as np.take.
Object* Take(TensorContext& cx, const Object* x, const Object* idx, int64_t axis);
// np.cumsum: of the flattened tensor (a 1-d result) when `axis` is empty,
// else along it (same shape). f32, i32, u32 (kernels/scan.h); an i32 step
// out of range is kOverflowCumsum naming the element's index.
Object* CumSum(TensorContext& cx, const Object* x, std::optional<int64_t> axis);
// np.cumprod, as CumSum: an i32 step out of range is kOverflowReduce naming
// the element's index; u32 wraps.
Object* CumProd(TensorContext& cx, const Object* x, std::optional<int64_t> axis);
// np.argsort(x, axis, kind='stable') as i32, and np.sort (kernels/sort.h's
// order: NaN last, -0.0 == 0.0). An axis longer than 2^31 - 1 is
// kI32IndexRange.
Object* ArgSort(TensorContext& cx, const Object* x, int64_t axis);
Object* Sort(TensorContext& cx, const Object* x, int64_t axis);
// np.searchsorted(sorted, values) (side='left'): an i32 tensor of values'
// shape. `sorted` must be 1-d (kSearchSortedRank) and is not checked to be
// sorted; both have one dtype, not bool.
Object* SearchSorted(TensorContext& cx, const Object* sorted, const Object* values);

// ---- Counting into bins (tensor_count.cc): NumPy's bincount, histogram ----
// np.bincount(idx, weights, minlength=length): idx a 1-d i32 tensor
// (kBinCountRank) of indices >= 0 (kBinCountNegative names the first
// negative one), length >= 0 (kBinCountLength); the result has
// max(length, max(idx) + 1) elements: i32 counts, or with `weights` (f32, of
// idx's shape: kBinCountWeights; null: none) the f32 of their float64 sums.
Object* BinCount(TensorContext& cx, const Object* idx, int64_t length, const Object* weights);
// np.histogram(x, bins, range=(lo, hi))[0] of an f32 x of any shape as i32
// counts (kernels/count.h: NumPy 1.24's bin of every element). bins >= 1
// (kHistogramBins); lo and hi finite with lo < hi (kHistogramRange). More
// than 2^31 - 1 elements (x, or idx above) is kI32CountRange.
Object* Histogram(TensorContext& cx, const Object* x, int64_t bins, double lo, double hi);
// ---- Functional updates (tensor_scatter.cc): set and add_at ----
// x with the elements an index selects replaced by v (kSet) or with v added
// (kAdd), in kernels/scatter.h's order: repeated indices take effect in index
// order (the last `set` stays; `add_at` accumulates, as np.add.at). v has
// x's dtype (bool: kSet only) and broadcasts to the indexed shape, the shape
// of `x[index]` (kUpdateValueShape). An index outside [0, size) is
// kTakeIndex (negative ones too), even when the indexed shape is empty; an
// i32 sum out of range is kTensorOverflow naming the element of x (u32
// wraps). x is consumed: the result is x itself when its only reference was
// ours (IsReusable), else an updated copy.
// x[.., i, ..] with `i` along `axis`: the indexed shape is x's without it.
Object* UpdateAt(TensorContext& cx, kernels::ScatterOp op, Owned x, int64_t i, int64_t axis,
                 const Object* v);
// x[i0, ..., ik-1], one Int per leading axis (k <= rank, else
// kUpdateTooManyIndices): the indexed shape is x's after those k axes.
Object* UpdateTuple(TensorContext& cx, kernels::ScatterOp op, Owned x,
                    absl::Span<const int64_t> index, const Object* v);
// The i32 positions `idx` (any shape) along `axis`, as NumPy's x[idx] or
// x[:, idx]: the indexed shape is take(x, idx, axis)'s.
Object* UpdateTake(TensorContext& cx, kernels::ScatterOp op, Owned x, const Object* idx,
                   int64_t axis, const Object* v);
// x[mask] with a bool mask of x's shape (else kUpdateMaskShape): the indexed
// shape is (the number of true elements,), taken in row-major order.
Object* UpdateMask(TensorContext& cx, kernels::ScatterOp op, Owned x, const Object* mask,
                   const Object* v);

// ---- Building (tensor_build.cc): NumPy's linspace, eye, stack, roll ----
// np.linspace(a, b, n, dtype=np.float32), bit for bit (kernels/linspace.h):
// a 1-d f32 tensor of n elements; n < 0 is kNegativeCount.
Object* Linspace(TensorContext& cx, double a, double b, int64_t n);
// np.eye(n, dtype): [n, n], one (bool: true) on the diagonal, zero elsewhere;
// a negative n is kBadShape, as for zeros.
Object* Eye(TensorContext& cx, DType dtype, int64_t n);
// np.stack(xs, axis): tensors of one dtype and shape joined along a new axis
// of the result (0 to rank; negative counts from the result's end).
// kStackEmpty for no tensors, kStackShapes naming the first shape that
// differs, kAxisOutOfRange naming the result's shape.
Object* Stack(TensorContext& cx, absl::Span<const Object* const> xs, int64_t axis);
// np.roll(x, shift, axis): each element moves `shift` places along the axis
// (negative: backwards), those past the end coming round to the front; with
// no axis the flattened tensor rolls and the shape stays.
Object* Roll(TensorContext& cx, const Object* x, int64_t shift, std::optional<int64_t> axis);

// ---- Linear algebra (tensor_linalg.cc) on f32 square matrices:
// kernels/linalg.h ----
// np.linalg.cholesky: the lower factor of each matrix of a [..., n, n]
// (only the lower triangle is read); a pivot that is not > 0 is
// kNotPositiveDefinite naming it and its value.
Object* Cholesky(TensorContext& cx, const Object* a);
// scipy.linalg.solve_triangular(a, b, lower): a [n, n] (only the triangle
// `lower` says is read), b [n] or [n, k] (else kLinalgRhs), the result b's
// shape; a zero on the diagonal is kSingularTriangular.
Object* SolveTriangular(TensorContext& cx, const Object* a, const Object* b, bool lower);
// np.linalg.solve(a, b): LU with partial pivoting; a [n, n], b [n] or
// [n, k]; a zero pivot is kSingular.
Object* Solve(TensorContext& cx, const Object* a, const Object* b);
// np.linalg.det of each matrix of a [..., n, n]: a result of shape [...]
// (0-d for one matrix); 0 for a singular matrix, 1 for a 0 x 0 one.
Object* Det(TensorContext& cx, const Object* a);
// np.linalg.inv of each matrix of a [..., n, n] (solve(a, I)); kSingular.
Object* Inv(TensorContext& cx, const Object* a);
// cholesky, det and inv of a tensor of rank < 2 or whose last two axes
// differ are kLinalgSquare; solve and solve_triangular take 2-d matrices
// only (kLinalgMatrix).

}  // namespace alea::vm

#endif  // ALEA_VM_TENSOR_OPS_H_

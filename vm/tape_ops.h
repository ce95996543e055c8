// What the tape's tensor rules share (vm/tape_tensors.cc, the elementwise,
// reduction, layout and selection rules; vm/tape_matrices.cc, `@` and linear
// algebra): building a derivative out of vm/tensor_ops.h's operations, each
// result at the tape's next output-buffer site (Tape::NextSite). Each
// helper takes nothing it is given (borrowed operands) and returns an owned
// tensor, or null when the context failed.
#ifndef ALEA_VM_TAPE_OPS_H_
#define ALEA_VM_TAPE_OPS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "vm/heap.h"
#include "vm/kernels/elementwise.h"
#include "vm/tape.h"
#include "vm/tensor_ops.h"

namespace alea::vm {

// Releases its operands: the steps chain owned temporaries.
struct TapeTemps {
  Heap& heap;
  std::vector<Object*> held;
  ~TapeTemps() {
    for (Object* o : held) {
      if (o != nullptr) heap.Release(o);
    }
  }
  Object* operator()(Object* o) {
    held.push_back(o);
    return o;
  }
};

namespace grad_ops {

using kernels::BinaryOp;
using kernels::UnaryOp;

Object* Apply(TensorContext& cx, Tape& tape, BinaryOp op, const Object* a, const Object* b);
Object* Apply(TensorContext& cx, Tape& tape, UnaryOp op, const Object* x);
// A new f32 tensor of `shape` with every element `v`.
Object* Filled(TensorContext& cx, Tape& tape, absl::Span<const int64_t> shape, float v);
Object* Scalar(TensorContext& cx, Tape& tape, float v);
// `cx` making its next tensor at the tape's next site.
TensorContext& Sited(TensorContext& cx, Tape& tape);
// Another reference to `o`: an operand an operation takes, or an adjoint
// handed on as it is; Ref: of what may be null (a failed step).
Object* NewRef(const Object* o);
Object* Ref(const Object* o);

// Composes a derivative out of tensor operations, each result held by
// `t` (released with it) and null once anything failed, so that a chain
// needs one check at its end.
struct Ops {
  TensorContext& cx;
  Tape& tape;
  TapeTemps& t;
  Object* operator()(UnaryOp op, const Object* x) {
    return x == nullptr ? nullptr : t(Apply(cx, tape, op, x));
  }
  Object* operator()(BinaryOp op, const Object* a, const Object* b) {
    return a == nullptr || b == nullptr ? nullptr : t(Apply(cx, tape, op, a, b));
  }
  Object* operator()(float v) { return t(Scalar(cx, tape, v)); }
  // where(mask, a, b)
  Object* Select(const Object* mask, const Object* a, const Object* b) {
    if (mask == nullptr || a == nullptr || b == nullptr) return nullptr;
    return t(Where(Sited(cx, tape), mask, a, b));
  }
};

// `g` (of the broadcast shape) summed back to `shape`: over the leading
// axes `shape` lacks and the axes where it has 1 (NumPy's broadcasting
// undone, as JAX's `_unbroadcast`). Returns a new reference.
Object* SumTo(TensorContext& cx, Tape& tape, const Object* g, absl::Span<const int64_t> shape);
// `g` (the reduction's result) spread back over `x`'s shape: along `axis`
// (the axis it removed), or everywhere when the whole tensor was reduced.
Object* Spread(TensorContext& cx, Tape& tape, const Object* g, const Object* x,
               std::optional<int64_t> axis);
// A bool [n, n] mask of the elements (i, j) with cmp(i, j): kGe for the
// lower triangle, kEq for the diagonal... (held by t).
Object* TriangleMask(TensorContext& cx, Tape& tape, TapeTemps& t, int64_t n, BinaryOp cmp);
// Each element's flat index, in x's shape (i32, held by t).
Object* Positions(TensorContext& cx, Tape& tape, TapeTemps& t, const Object* x);
// g (of the selection's shape) added into zeros of x's shape at
// `positions` (i32, of g's shape: the flat index each element came from).
Object* ScatterBack(TensorContext& cx, Tape& tape, TapeTemps& t, const Object* g, const Object* x,
                    const Object* positions);

}  // namespace grad_ops
}  // namespace alea::vm

#endif  // ALEA_VM_TAPE_OPS_H_

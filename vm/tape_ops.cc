#include "vm/tape_ops.h"

#include <bit>

#include "vm/kernels/reduce.h"
#include "vm/tensor.h"

namespace alea::vm::grad_ops {

Object* Apply(TensorContext& cx, Tape& tape, BinaryOp op, const Object* a, const Object* b) {
  cx.set_site(tape.NextSite());
  return Binary(cx, op, TensorArg{const_cast<Object*>(a), false},
                TensorArg{const_cast<Object*>(b), false});
}
Object* Apply(TensorContext& cx, Tape& tape, UnaryOp op, const Object* x) {
  cx.set_site(tape.NextSite());
  return Unary(cx, op, TensorArg{const_cast<Object*>(x), false});
}
Object* Filled(TensorContext& cx, Tape& tape, absl::Span<const int64_t> shape, float v) {
  cx.set_site(tape.NextSite());
  return Full(cx, DType::kF32, shape, std::bit_cast<uint32_t>(v));
}
Object* Scalar(TensorContext& cx, Tape& tape, float v) { return Filled(cx, tape, {}, v); }
TensorContext& Sited(TensorContext& cx, Tape& tape) {
  cx.set_site(tape.NextSite());
  return cx;
}
Object* NewRef(const Object* o) {
  Object* held = const_cast<Object*>(o);
  ++held->refcount;
  return held;
}

Object* Ref(const Object* o) { return o == nullptr ? nullptr : NewRef(o); }

Object* SumTo(TensorContext& cx, Tape& tape, const Object* g, absl::Span<const int64_t> shape) {
  Heap& heap = cx.heap();
  Object* cur = NewRef(g);
  while (RankOf(cur) > static_cast<int>(shape.size())) {
    cx.set_site(tape.NextSite());
    Object* next = Reduce(cx, kernels::ReduceOp::kSum, cur, int64_t{0});
    heap.Release(cur);
    if (next == nullptr) return nullptr;
    cur = next;
  }
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    if (shape[axis] != 1 || ShapeOf(cur)[axis] == 1) continue;
    cx.set_site(tape.NextSite());
    Object* summed = Reduce(cx, kernels::ReduceOp::kSum, cur, static_cast<int64_t>(axis));
    heap.Release(cur);
    if (summed == nullptr) return nullptr;
    Shape kept(ShapeOf(summed).begin(), ShapeOf(summed).end());
    kept.insert(kept.begin() + static_cast<std::ptrdiff_t>(axis), 1);
    cx.set_site(tape.NextSite());
    cur = Reshape(cx, TensorArg{summed, true}, kept);
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

Object* Spread(TensorContext& cx, Tape& tape, const Object* g, const Object* x,
               std::optional<int64_t> axis) {
  Heap& heap = cx.heap();
  Object* zeros = Filled(cx, tape, ShapeOf(x), 0.0f);
  if (zeros == nullptr) return nullptr;
  Object* shaped = NewRef(g);
  if (axis) {
    Shape kept(ShapeOf(g).begin(), ShapeOf(g).end());
    int64_t a = *axis < 0 ? *axis + RankOf(x) : *axis;
    kept.insert(kept.begin() + a, 1);
    cx.set_site(tape.NextSite());
    shaped = Reshape(cx, TensorArg{shaped, true}, kept);
    if (shaped == nullptr) {
      heap.Release(zeros);
      return nullptr;
    }
  }
  Object* out = Apply(cx, tape, BinaryOp::kAdd, zeros, shaped);
  heap.Release(zeros);
  heap.Release(shaped);
  return out;
}

Object* TriangleMask(TensorContext& cx, Tape& tape, TapeTemps& t, int64_t n, BinaryOp cmp) {
  Object* range = t(Arange(Sited(cx, tape), DType::kI32, 0, n));
  if (range == nullptr) return nullptr;
  const int64_t col[2] = {n, 1}, row[2] = {1, n};
  Object* rows = t(Reshape(Sited(cx, tape), TensorArg{range, false}, col));
  Object* cols = t(Reshape(Sited(cx, tape), TensorArg{range, false}, row));
  if (rows == nullptr || cols == nullptr) return nullptr;
  return t(Apply(cx, tape, cmp, rows, cols));
}

Object* ScatterBack(TensorContext& cx, Tape& tape, TapeTemps& t, const Object* g, const Object* x,
                    const Object* positions) {
  if (positions == nullptr) return nullptr;
  const int64_t flat[1] = {-1};
  const int64_t size[1] = {SizeOf(x)};
  Object* zeros = Filled(cx, tape, size, 0.0f);
  Object* where =
      t(Reshape(Sited(cx, tape), TensorArg{const_cast<Object*>(positions), false}, flat));
  Object* values = t(Reshape(Sited(cx, tape), TensorArg{const_cast<Object*>(g), false}, flat));
  if (zeros == nullptr || where == nullptr || values == nullptr) {
    if (zeros != nullptr) cx.heap().Release(zeros);
    return nullptr;
  }
  Object* d =
      t(UpdateTake(Sited(cx, tape), kernels::ScatterOp::kAdd, Owned{zeros}, where, 0, values));
  return d == nullptr ? nullptr : Reshape(Sited(cx, tape), TensorArg{NewRef(d), true}, ShapeOf(x));
}

Object* Positions(TensorContext& cx, Tape& tape, TapeTemps& t, const Object* x) {
  Object* range = t(Arange(Sited(cx, tape), DType::kI32, 0, SizeOf(x)));
  return range == nullptr ? nullptr
                          : t(Reshape(Sited(cx, tape), TensorArg{range, false}, ShapeOf(x)));
}

}  // namespace alea::vm::grad_ops

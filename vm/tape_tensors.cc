// The tensor rules of vm/grad_rules.def: each backward step composes the
// tensor operations of vm/tensor_ops.h (JIT kernels or the reference, the
// same bits either way), in f32 as the forward pass.
#include <bit>
#include <cmath>

#include "vm/kernels/elementwise.h"
#include "vm/kernels/reduce.h"
#include "vm/random_draw.h"
#include "vm/tape.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

using kernels::BinaryOp;
using kernels::UnaryOp;

// Each helper takes nothing it is given (borrowed operands) and returns an
// owned tensor, or null when the context failed.
// Each result takes the tape's next output-buffer site (Tape::NextSite).
Object* Apply(TensorContext& cx, Tape& tape, BinaryOp op, const Object* a, const Object* b) {
  cx.set_site(tape.NextSite());
  return Binary(cx, op, TensorArg{const_cast<Object*>(a), false},
                TensorArg{const_cast<Object*>(b), false});
}
Object* Apply(TensorContext& cx, Tape& tape, UnaryOp op, const Object* x) {
  cx.set_site(tape.NextSite());
  return Unary(cx, op, TensorArg{const_cast<Object*>(x), false});
}
// A new f32 tensor of `shape` with every element `v`.
Object* Filled(TensorContext& cx, Tape& tape, absl::Span<const int64_t> shape, float v) {
  cx.set_site(tape.NextSite());
  return Full(cx, DType::kF32, shape, std::bit_cast<uint32_t>(v));
}
Object* Scalar(TensorContext& cx, Tape& tape, float v) { return Filled(cx, tape, {}, v); }
// Another reference to `o`: an operand an operation takes, or an adjoint
// handed on as it is.
Object* NewRef(const Object* o) {
  Object* held = const_cast<Object*>(o);
  ++held->refcount;
  return held;
}

// Releases its operands: the steps chain owned temporaries.
struct Temps {
  Heap& heap;
  std::vector<Object*> held;
  ~Temps() {
    for (Object* o : held) {
      if (o != nullptr) heap.Release(o);
    }
  }
  Object* operator()(Object* o) {
    held.push_back(o);
    return o;
  }
};

// `g` (of the broadcast shape) summed back to `shape`: over the leading
// axes `shape` lacks and the axes where it has 1 (NumPy's broadcasting
// undone, as JAX's `_unbroadcast`). Returns a new reference.
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

// `g` (the reduction's result) spread back over `x`'s shape: along `axis`
// (the axis it removed), or everywhere when the whole tensor was reduced.
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

}  // namespace

TensorContext& Tape::Sited(TensorContext& cx) {
  cx.set_site(NextSite());
  return cx;
}

bool Tape::AddTensorAdjoint(uint32_t node, Object* d, TensorContext& cx) {
  if (d == nullptr) return false;
  if (node == 0) {
    cx.heap().Release(d);
    return true;
  }
  reached_[node] = 1;
  Object*& acc = tensor_adjoints_[node];
  if (acc == nullptr) {
    acc = d;
    return true;
  }
  Object* sum = Binary(Sited(cx), BinaryOp::kAdd, TensorArg{acc, true}, TensorArg{d, true});
  acc = sum;
  return sum != nullptr;
}

bool Tape::SeedTensor(uint32_t node, const Object* result, TensorContext& cx) {
  return AddTensorAdjoint(node, Filled(cx, *this, ShapeOf(result), 1.0f), cx);
}

bool Tape::TensorStep(const Entry& e, uint32_t out, TensorContext& cx) {
  Heap& heap = cx.heap();
  Temps t{heap, {}};
  // A Float's adjoint (t_item's result), or a tensor's.
  const Object* g = is_tensor_[out] ? tensor_adjoints_[out] : nullptr;
  auto to_a = [&](Object* d) { return AddTensorAdjoint(e.in0, d, cx); };
  auto to_b = [&](Object* d) { return AddTensorAdjoint(e.in1, d, cx); };
  // The two operands' adjoints of a broadcasting binary op.
  auto both = [&](Object* da, Object* db) {
    t(da);
    t(db);
    bool ok = true;
    if (e.in0 != 0) ok = da != nullptr && to_a(SumTo(cx, *this, da, ShapeOf(e.a)));
    if (ok && e.in1 != 0) ok = db != nullptr && to_b(SumTo(cx, *this, db, ShapeOf(e.b)));
    return ok;
  };
  switch (e.rule) {
    case GradRule::kTensorOp_ADD_T:
      return both(NewRef(g), NewRef(g));
    case GradRule::kTensorOp_SUB_T:
      return both(NewRef(g), e.in1 != 0 ? Apply(cx, *this, UnaryOp::kNeg, g) : nullptr);
    case GradRule::kTensorOp_MUL_T:
      return both(e.in0 != 0 ? Apply(cx, *this, BinaryOp::kMul, g, e.b) : nullptr,
                  e.in1 != 0 ? Apply(cx, *this, BinaryOp::kMul, g, e.a) : nullptr);
    case GradRule::kTensorOp_DIV_T: {
      // d(a / b) = g / b and -g * z / b.
      Object* db = nullptr;
      if (e.in1 != 0) {
        Object* gz = t(Apply(cx, *this, BinaryOp::kMul, g, e.out));
        Object* q = gz == nullptr ? nullptr : t(Apply(cx, *this, BinaryOp::kDiv, gz, e.b));
        db = q == nullptr ? nullptr : Apply(cx, *this, UnaryOp::kNeg, q);
      }
      return both(e.in0 != 0 ? Apply(cx, *this, BinaryOp::kDiv, g, e.b) : nullptr, db);
    }
    case GradRule::kTensorOp_NEG_T:
      return to_a(Apply(cx, *this, UnaryOp::kNeg, g));
    case GradRule::kTensorOp_EXP_T:
      return to_a(Apply(cx, *this, BinaryOp::kMul, g, e.out));
    case GradRule::kTensorOp_LOG_T:
      return to_a(Apply(cx, *this, BinaryOp::kDiv, g, e.a));
    case GradRule::kTensorOp_TANH_T: {
      // g * (1 - z^2)
      Object* one = t(Scalar(cx, *this, 1.0f));
      Object* z2 = t(Apply(cx, *this, BinaryOp::kMul, e.out, e.out));
      if (one == nullptr || z2 == nullptr) return false;
      Object* d = t(Apply(cx, *this, BinaryOp::kSub, one, z2));
      return d != nullptr && to_a(Apply(cx, *this, BinaryOp::kMul, g, d));
    }
    case GradRule::kTensorOp_SQRT_T: {
      // g / (2 z)
      Object* two = t(Scalar(cx, *this, 2.0f));
      Object* z2 = two == nullptr ? nullptr : t(Apply(cx, *this, BinaryOp::kMul, two, e.out));
      return z2 != nullptr && to_a(Apply(cx, *this, BinaryOp::kDiv, g, z2));
    }
    case GradRule::kTensorOp_SIGMOID_T: {
      // g * z * (1 - z)
      Object* one = t(Scalar(cx, *this, 1.0f));
      Object* rest = one == nullptr ? nullptr : t(Apply(cx, *this, BinaryOp::kSub, one, e.out));
      Object* gz = rest == nullptr ? nullptr : t(Apply(cx, *this, BinaryOp::kMul, g, e.out));
      return gz != nullptr && to_a(Apply(cx, *this, BinaryOp::kMul, gz, rest));
    }
    case GradRule::kTensorOp_RELU_T: {
      // g where x > 0, else 0 (JAX: relu'(0) = 0).
      Object* zero = t(Scalar(cx, *this, 0.0f));
      Object* mask = zero == nullptr ? nullptr : t(Apply(cx, *this, BinaryOp::kGt, e.a, zero));
      return mask != nullptr && to_a(Where(Sited(cx), mask, g, zero));
    }
    case GradRule::kTensorOp_ABS_T: {
      // g * sign(x): 0 at 0 (JAX: abs'(0) = 0).
      Object* zero = t(Scalar(cx, *this, 0.0f));
      Object* sign = t(Apply(cx, *this, UnaryOp::kSign, e.a));
      if (zero == nullptr || sign == nullptr) return false;
      Object* nonzero = t(Apply(cx, *this, BinaryOp::kNe, e.a, zero));
      Object* gs = t(Apply(cx, *this, BinaryOp::kMul, g, sign));
      return nonzero != nullptr && gs != nullptr && to_a(Where(Sited(cx), nonzero, gs, zero));
    }
    case GradRule::kTensorOp_DROPOUT: {
      // The same draw (key, rate) over g: kept elements scaled as x's were.
      Object* d = Sited(cx).New(DType::kF32, ShapeOf(g));
      if (d == nullptr) return false;
      DrawArgs draw;
      draw.key = random::Key{static_cast<uint32_t>(static_cast<uint64_t>(e.aux) >> 32),
                             static_cast<uint32_t>(static_cast<uint64_t>(e.aux))};
      draw.rate = std::bit_cast<double>(e.aux2);
      draw.x = ElementsOf<float>(g);
      FillDraw(cx, jit::RandomKernel::kDropout, draw, ElementsOf<float>(d), d->length);
      return to_a(d);
    }
    case GradRule::kTensorOp_SCALAR_T: {
      // A Float made a 0-d f32 tensor: its adjoint, to double.
      if (e.in0 != 0) {
        adjoints_[e.in0] += static_cast<double>(*ElementsOf<float>(g));
        reached_[e.in0] = 1;
      }
      return true;
    }
    case GradRule::kTensorNative_t_item: {
      // A one-element tensor read as a Float: the Float's adjoint, rounded
      // to f32, in the tensor's shape.
      return to_a(Filled(cx, *this, ShapeOf(e.a), static_cast<float>(adjoints_[out])));
    }
    case GradRule::kTensorNative_t_reshape: {
      return to_a(Reshape(Sited(cx), TensorArg{NewRef(g), true}, ShapeOf(e.a)));
    }
    case GradRule::kTensorNative_t_transpose:
      return to_a(Transpose(Sited(cx), g));
    case GradRule::kTensorNative_t_matmul: {
      // Matrices: da = g @ b^T, db = a^T @ g.
      bool ok = true;
      if (e.in0 != 0) ok = to_a(MatMulTransposed(Sited(cx), g, false, e.b, true));
      if (ok && e.in1 != 0) ok = to_b(MatMulTransposed(Sited(cx), e.a, true, g, false));
      return ok;
    }
    case GradRule::kTensorNative_t_matmul_t: {
      // z = X @ Y with X = x or x^T (bit 0), Y = y or y^T (bit 1):
      // dX = g @ Y^T and dY = X^T @ g, transposed back where x or y was.
      const bool xt = (e.aux & 1) != 0, yt = (e.aux & 2) != 0;
      bool ok = true;
      if (e.in0 != 0) {
        ok = to_a(xt ? MatMulTransposed(Sited(cx), e.b, yt, g, true)
                     : MatMulTransposed(Sited(cx), g, false, e.b, !yt));
      }
      if (ok && e.in1 != 0) {
        ok = to_b(yt ? MatMulTransposed(Sited(cx), g, true, e.a, xt)
                     : MatMulTransposed(Sited(cx), e.a, !xt, g, false));
      }
      return ok;
    }
    case GradRule::kTensorNative_t_reduce:
    case GradRule::kTensorNative_t_reduce_axis: {
      const std::optional<int64_t> axis =
          e.rule == GradRule::kTensorNative_t_reduce ? std::nullopt : std::optional(e.aux2);
      Object* spread = t(Spread(cx, *this, g, e.a, axis));
      if (spread == nullptr) return false;
      const auto op = static_cast<kernels::ReduceOp>(e.aux);
      if (op == kernels::ReduceOp::kSum) {
        return to_a(NewRef(spread));
      }
      if (op == kernels::ReduceOp::kLogSumExp) {
        // g * exp(x - z): the softmax along what was reduced.
        Object* z = t(Spread(cx, *this, e.out, e.a, axis));
        Object* diff = z == nullptr ? nullptr : t(Apply(cx, *this, BinaryOp::kSub, e.a, z));
        Object* p = diff == nullptr ? nullptr : t(Apply(cx, *this, UnaryOp::kExp, diff));
        return p != nullptr && to_a(Apply(cx, *this, BinaryOp::kMul, spread, p));
      }
      if (op == kernels::ReduceOp::kMax || op == kernels::ReduceOp::kMin) {
        // g shared evenly by the elements equal to the extreme.
        Object* z = t(Spread(cx, *this, e.out, e.a, axis));
        Object* hit = z == nullptr ? nullptr : t(Apply(cx, *this, BinaryOp::kEq, e.a, z));
        Object* ones =
            hit == nullptr ? nullptr : t(Cast(Sited(cx), TensorArg{hit, false}, DType::kF32));
        Object* count =
            ones == nullptr ? nullptr : t(Reduce(Sited(cx), kernels::ReduceOp::kSum, ones, axis));
        Object* counts = count == nullptr ? nullptr : t(Spread(cx, *this, count, e.a, axis));
        Object* share =
            counts == nullptr ? nullptr : t(Apply(cx, *this, BinaryOp::kDiv, spread, counts));
        return share != nullptr && to_a(Apply(cx, *this, BinaryOp::kMul, share, ones));
      }
      // The mean: divided by the count it averaged.
      const int64_t n =
          axis ? ShapeOf(e.a)[static_cast<size_t>(*axis < 0 ? *axis + RankOf(e.a) : *axis)]
               : SizeOf(e.a);
      Object* count = t(Scalar(cx, *this, static_cast<float>(n)));
      return count != nullptr && to_a(Apply(cx, *this, BinaryOp::kDiv, spread, count));
    }
    default:
      return false;
  }
}

}  // namespace alea::vm

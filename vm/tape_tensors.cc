// The tensor rules of vm/grad_rules.def: each backward step composes the
// tensor operations of vm/tensor_ops.h (JIT kernels or the reference, the
// same bits either way), in f32 as the forward pass.
#include <bit>
#include <cmath>

#include "vm/digamma.h"
#include "vm/kernels/elementwise.h"
#include "vm/kernels/reduce.h"
#include "vm/kernels/scatter.h"
#include "vm/random_draw.h"
#include "vm/tape.h"
#include "vm/tensor.h"
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
// `cx` making its next tensor at the tape's next site.
TensorContext& Sited(TensorContext& cx, Tape& tape) {
  cx.set_site(tape.NextSite());
  return cx;
}
// Another reference to `o`: an operand an operation takes, or an adjoint
// handed on as it is.
Object* NewRef(const Object* o) {
  Object* held = const_cast<Object*>(o);
  ++held->refcount;
  return held;
}

// NewRef of what may be null (a failed step).
Object* Ref(const Object* o) { return o == nullptr ? nullptr : NewRef(o); }

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
    cx.set_site(tape.NextSite());
    return t(Where(cx, mask, a, b));
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

// For each element of x, the product of the others along `axis` (x's only
// axis after a flattening, for a whole-tensor product): the products
// before it times those after it, with no division, so that zeros are
// exact.
Object* OthersProduct(TensorContext& cx, Tape& tape, TapeTemps& t, const Object* x, int64_t axis) {
  const int64_t n = ShapeOf(x)[static_cast<size_t>(axis)];
  if (n == 0) return t(Filled(cx, tape, ShapeOf(x), 0.0f));
  Shape one(ShapeOf(x).begin(), ShapeOf(x).end());
  one[static_cast<size_t>(axis)] = 1;
  Object* ones = t(Filled(cx, tape, one, 1.0f));
  // The elements in reverse along the axis: index n - 1 - i.
  Object* up = t(Arange(Sited(cx, tape), DType::kI32, 0, n));
  Object* last = t(Full(Sited(cx, tape), DType::kI32, {}, static_cast<uint32_t>(n - 1)));
  Object* down =
      up == nullptr || last == nullptr ? nullptr : t(Apply(cx, tape, BinaryOp::kSub, last, up));
  if (ones == nullptr || down == nullptr) return nullptr;
  // The product of the elements before each: cumprod of [1, x0, ... x(n-2)].
  auto before = [&](const Object* v) -> Object* {
    std::vector<SubscriptItem> items(static_cast<size_t>(axis) + 1);
    items.back().stop = n - 1;
    Object* head = t(Subscript(Sited(cx, tape), v, items, nullptr));
    if (head == nullptr) return nullptr;
    const Object* parts[2] = {ones, head};
    Object* shifted = t(Concat(Sited(cx, tape), parts, axis));
    return shifted == nullptr ? nullptr : t(CumProd(Sited(cx, tape), shifted, axis));
  };
  Object* left = before(x);
  Object* reversed = t(Take(Sited(cx, tape), x, down, axis));
  Object* right_reversed = reversed == nullptr ? nullptr : before(reversed);
  Object* right =
      right_reversed == nullptr ? nullptr : t(Take(Sited(cx, tape), right_reversed, down, axis));
  if (left == nullptr || right == nullptr) return nullptr;
  return t(Apply(cx, tape, BinaryOp::kMul, left, right));
}

// The derivative of a reduction `op` (vm/kernels/reduce.h) of x (whole,
// or along `axis`) whose result was z, for the result's adjoint g; var's
// and std's ddof. A new reference, or null.
Object* ReduceBackward(TensorContext& cx, Tape& tape, kernels::ReduceOp op, const Object* g,
                       const Object* x, const Object* z, std::optional<int64_t> axis,
                       int64_t ddof) {
  using kernels::ReduceOp;
  TapeTemps t{cx.heap(), {}};
  Ops o{cx, tape, t};
  Object* spread = t(Spread(cx, tape, g, x, axis));
  if (spread == nullptr) return nullptr;
  const int64_t n =
      axis ? ShapeOf(x)[static_cast<size_t>(*axis < 0 ? *axis + RankOf(x) : *axis)] : SizeOf(x);
  switch (op) {
    case ReduceOp::kSum:
      return NewRef(spread);
    case ReduceOp::kMean:
      return Ref(o(BinaryOp::kDiv, spread, o(static_cast<float>(n))));
    case ReduceOp::kLogSumExp: {
      // g * exp(x - z): the softmax along what was reduced.
      Object* zs = t(Spread(cx, tape, z, x, axis));
      return Ref(o(BinaryOp::kMul, spread, o(UnaryOp::kExp, o(BinaryOp::kSub, x, zs))));
    }
    case ReduceOp::kMax:
    case ReduceOp::kMin: {
      // g shared evenly by the elements equal to the extreme.
      Object* zs = t(Spread(cx, tape, z, x, axis));
      Object* hit = o(BinaryOp::kEq, x, zs);
      Object* ones =
          hit == nullptr ? nullptr : t(Cast(Sited(cx, tape), TensorArg{hit, false}, DType::kF32));
      Object* count =
          ones == nullptr ? nullptr : t(Reduce(Sited(cx, tape), ReduceOp::kSum, ones, axis));
      Object* counts = count == nullptr ? nullptr : t(Spread(cx, tape, count, x, axis));
      return Ref(o(BinaryOp::kMul, o(BinaryOp::kDiv, spread, counts), ones));
    }
    case ReduceOp::kProd: {
      // g times the product of the other elements.
      if (!axis) {
        const int64_t flat[1] = {SizeOf(x)};
        Object* line = t(Reshape(Sited(cx, tape), TensorArg{const_cast<Object*>(x), false}, flat));
        Object* others = line == nullptr ? nullptr : OthersProduct(cx, tape, t, line, 0);
        Object* shaped = others == nullptr
                             ? nullptr
                             : t(Reshape(Sited(cx, tape), TensorArg{others, false}, ShapeOf(x)));
        return Ref(o(BinaryOp::kMul, spread, shaped));
      }
      const int64_t a = *axis < 0 ? *axis + RankOf(x) : *axis;
      return Ref(o(BinaryOp::kMul, spread, OthersProduct(cx, tape, t, x, a)));
    }
    case ReduceOp::kVar:
    case ReduceOp::kStd: {
      // var: g * 2 (x - mean) / (n - ddof); std: that over 2 std = g (x -
      // mean) / ((n - ddof) std).
      Object* mean = t(Reduce(Sited(cx, tape), ReduceOp::kMean, x, axis));
      Object* centred =
          mean == nullptr ? nullptr : o(BinaryOp::kSub, x, t(Spread(cx, tape, mean, x, axis)));
      const float scale = ReduceOp::kVar == op ? 2.0f : 1.0f;
      Object* d = o(
          BinaryOp::kMul, spread,
          o(BinaryOp::kDiv, o(BinaryOp::kMul, centred, o(scale)), o(static_cast<float>(n - ddof))));
      if (op == ReduceOp::kStd) d = o(BinaryOp::kDiv, d, t(Spread(cx, tape, z, x, axis)));
      return Ref(d);
    }
    default:
      return nullptr;
  }
}

// A bool [n, n] mask of the elements (i, j) with cmp(i, j): kGe for the
// lower triangle, kEq for the diagonal...
Object* TriangleMask(TensorContext& cx, Tape& tape, TapeTemps& t, int64_t n, BinaryOp cmp) {
  Object* range = t(Arange(Sited(cx, tape), DType::kI32, 0, n));
  if (range == nullptr) return nullptr;
  const int64_t col[2] = {n, 1}, row[2] = {1, n};
  Object* rows = t(Reshape(Sited(cx, tape), TensorArg{range, false}, col));
  Object* cols = t(Reshape(Sited(cx, tape), TensorArg{range, false}, row));
  if (rows == nullptr || cols == nullptr) return nullptr;
  return t(Apply(cx, tape, cmp, rows, cols));
}

// g (of the selection's shape) added into zeros of x's shape at
// `positions` (i32, of g's shape: the flat index each element came from).
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

// Each element's flat index, in x's shape (i32).
Object* Positions(TensorContext& cx, Tape& tape, TapeTemps& t, const Object* x) {
  Object* range = t(Arange(Sited(cx, tape), DType::kI32, 0, SizeOf(x)));
  return range == nullptr ? nullptr
                          : t(Reshape(Sited(cx, tape), TensorArg{range, false}, ShapeOf(x)));
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

bool Tape::UpdateStep(const Entry& e, const Object* g, TensorContext& cx, TapeTemps& t) {
  Ops o{cx, *this, t};
  const bool set = e.rule == GradRule::kTensorNative_t_set_int ||
                   e.rule == GradRule::kTensorNative_t_set_tuple ||
                   e.rule == GradRule::kTensorNative_t_set_take ||
                   e.rule == GradRule::kTensorNative_t_set_mask;
  // The flat positions the update wrote, selected from x's positions as the
  // update selected x's elements (the indexed shape).
  Object* at = Positions(cx, *this, t, e.a);
  if (at == nullptr) return false;
  Object* written = nullptr;
  switch (e.rule) {
    case GradRule::kTensorNative_t_set_int:
    case GradRule::kTensorNative_t_add_at_int: {
      const int64_t axis = e.aux2 < 0 ? e.aux2 + RankOf(e.a) : e.aux2;
      std::vector<SubscriptItem> items(static_cast<size_t>(axis) + 1);
      items.back() = {SubscriptItem::kIndex, e.aux, INT64_MAX, 1};
      written = t(Subscript(Sited(cx), at, items, nullptr));
      break;
    }
    case GradRule::kTensorNative_t_set_tuple:
    case GradRule::kTensorNative_t_add_at_tuple: {
      std::vector<SubscriptItem> items;
      for (uint64_t k = 0; k < e.c->length; ++k) {
        items.push_back({SubscriptItem::kIndex, AsInt(Slots(e.c)[k]), INT64_MAX, 1});
      }
      written = t(Subscript(Sited(cx), at, items, nullptr));
      break;
    }
    case GradRule::kTensorNative_t_set_take:
    case GradRule::kTensorNative_t_add_at_take:
      written = t(Take(Sited(cx), at, e.c, e.aux2));
      break;
    default:
      written = t(MaskSelect(Sited(cx), at, e.c));
      break;
  }
  if (written == nullptr) return false;
  const int64_t flat[1] = {-1};
  Object* where = t(Reshape(Sited(cx), TensorArg{written, false}, flat));
  Object* g_flat = t(Reshape(Sited(cx), TensorArg{const_cast<Object*>(g), false}, flat));
  if (where == nullptr || g_flat == nullptr) return false;
  // v's share: g at each written position (for `set`, where that element
  // wrote last), summed back over v's broadcast.
  if (e.in1 != 0) {
    Object* picked = t(Take(Sited(cx), g_flat, where, 0));
    if (picked != nullptr && set) {
      // The last writer of each position: the element indices written in
      // order into -1s, and an element keeps its share where it is the one.
      const int64_t size[1] = {SizeOf(e.a)};
      Object* owners = Sited(cx).New(DType::kI32, size);
      if (owners == nullptr) return false;
      std::fill_n(ElementsOf<int32_t>(owners), SizeOf(e.a), -1);
      Object* order = t(Arange(Sited(cx), DType::kI32, 0, SizeOf(where)));
      Object* last =
          order == nullptr
              ? (cx.heap().Release(owners), nullptr)
              : t(UpdateTake(Sited(cx), kernels::ScatterOp::kSet, Owned{owners}, where, 0, order));
      Object* owner = last == nullptr ? nullptr : t(Take(Sited(cx), last, where, 0));
      picked = o.Select(o(BinaryOp::kEq, owner, order), picked, o(0.0f));
    }
    Object* shaped = picked == nullptr
                         ? nullptr
                         : t(Reshape(Sited(cx), TensorArg{picked, false}, ShapeOf(written)));
    if (shaped == nullptr || !AddTensorAdjoint(e.in1, SumTo(cx, *this, shaped, ShapeOf(e.b)), cx)) {
      return false;
    }
  }
  // x's share: g, but (for `set`) nothing where the update wrote.
  if (e.in0 == 0) return true;
  if (!set) return AddTensorAdjoint(e.in0, NewRef(g), cx);
  Object* zero = o(0.0f);
  Object* copy = zero == nullptr ? nullptr : Reshape(Sited(cx), TensorArg{g_flat, false}, flat);
  if (copy == nullptr) return false;
  Object* cleared = t(UpdateTake(Sited(cx), kernels::ScatterOp::kSet, Owned{copy}, where, 0, zero));
  return cleared != nullptr &&
         AddTensorAdjoint(e.in0, Reshape(Sited(cx), TensorArg{cleared, false}, ShapeOf(e.a)), cx);
}

bool Tape::TensorStep(const Entry& e, uint32_t out, TensorContext& cx) {
  Heap& heap = cx.heap();
  TapeTemps t{heap, {}};
  // A Float's adjoint (t_item's result), or a tensor's.
  const Object* g = is_tensor_[out] ? tensor_adjoints_[out] : nullptr;
  auto to_a = [&](Object* d) { return AddTensorAdjoint(e.in0, d, cx); };
  Ops o{cx, *this, t};
  // A unary rule's derivative, composed by `o` (held by t): to the operand.
  auto chain = [&](Object* d) { return d != nullptr && to_a(Ref(d)); };
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
      // Matrices: da = g @ b^T, db = a^T @ g. A vector operand is a matrix
      // of one row (on the left) or one column (on the right), and its
      // gradient is reshaped back.
      const Object* ma = e.a;
      const Object* mb = e.b;
      const Object* mg = g;
      if (RankOf(e.a) == 1 || RankOf(e.b) == 1) {
        const int64_t rows = RankOf(e.a) == 1 ? 1 : ShapeOf(e.a)[0];
        const int64_t cols = RankOf(e.b) == 1 ? 1 : ShapeOf(e.b)[1];
        const int64_t a_shape[2] = {rows, ShapeOf(e.a)[RankOf(e.a) - 1]};
        const int64_t b_shape[2] = {ShapeOf(e.b)[0], cols};
        const int64_t g_shape[2] = {rows, cols};
        ma = t(Reshape(Sited(cx), TensorArg{e.a, false}, a_shape));
        mb = t(Reshape(Sited(cx), TensorArg{e.b, false}, b_shape));
        mg = t(Reshape(Sited(cx), TensorArg{const_cast<Object*>(g), false}, g_shape));
        if (ma == nullptr || mb == nullptr || mg == nullptr) return false;
      }
      auto back = [&](Object* d, const Object* like) {
        return d == nullptr || RankOf(like) == 2
                   ? d
                   : Reshape(Sited(cx), TensorArg{d, true}, ShapeOf(like));
      };
      bool ok = true;
      if (e.in0 != 0) ok = to_a(back(MatMulTransposed(Sited(cx), mg, false, mb, true), e.a));
      if (ok && e.in1 != 0) ok = to_b(back(MatMulTransposed(Sited(cx), ma, true, mg, false), e.b));
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
    case GradRule::kTensorNative_t_reduce_axis:
    case GradRule::kTensorNative_t_reduce_ddof:
    case GradRule::kTensorNative_t_reduce_ddof_axis: {
      const bool whole = e.rule == GradRule::kTensorNative_t_reduce ||
                         e.rule == GradRule::kTensorNative_t_reduce_ddof;
      const auto op = static_cast<kernels::ReduceOp>(e.aux & 0xff);
      return to_a(ReduceBackward(cx, *this, op, g, e.a, e.out,
                                 whole ? std::nullopt : std::optional(e.aux2), e.aux >> 8));
    }
    case GradRule::kTensorNative_t_reduce_axis_t: {
      // The reduction of transpose(x): its derivative, transposed back.
      Object* xt = t(Transpose(Sited(cx), e.a));
      if (xt == nullptr) return false;
      const auto op = static_cast<kernels::ReduceOp>(e.aux);
      Object* d = t(ReduceBackward(cx, *this, op, g, xt, e.out, e.aux2, 0));
      return d != nullptr && to_a(Transpose(Sited(cx), d));
    }
    case GradRule::kTensorNative_t_softmax: {
      // z * (g - sum(g * z) along the axis)
      Object* gz = o(BinaryOp::kMul, g, e.out);
      Object* total =
          gz == nullptr ? nullptr : t(Reduce(Sited(cx), kernels::ReduceOp::kSum, gz, e.aux));
      Object* spread = total == nullptr ? nullptr : t(Spread(cx, *this, total, e.out, e.aux));
      return chain(o(BinaryOp::kMul, e.out, o(BinaryOp::kSub, g, spread)));
    }
    case GradRule::kTensorNative_t_where: {
      // Entry per operand: e.a the mask, e.b the operand, aux 0 for a.
      Object* zero = o(0.0f);
      Object* d = e.aux == 0 ? o.Select(e.a, g, zero) : o.Select(e.a, zero, g);
      return d != nullptr && to_a(SumTo(cx, *this, d, ShapeOf(e.b)));
    }
    case GradRule::kTensorNative_t_concat:
    case GradRule::kTensorNative_t_stack: {
      // Entry per operand: its slice of g along axis aux from aux2, or
      // its index aux2 there.
      std::vector<SubscriptItem> items(static_cast<size_t>(e.aux) + 1);
      SubscriptItem& at = items.back();
      at.start = e.aux2;
      if (e.rule == GradRule::kTensorNative_t_stack) {
        at.kind = SubscriptItem::kIndex;
      } else {
        at.stop = e.aux2 + ShapeOf(e.a)[static_cast<size_t>(e.aux)];
      }
      return to_a(Subscript(Sited(cx), g, items, nullptr));
    }
    case GradRule::kTensorNative_t_index:
    case GradRule::kTensorNative_t_slice:
    case GradRule::kTensorNative_t_take: {
      // g added into zeros of x's shape at what was selected.
      Object* zeros = Filled(cx, *this, ShapeOf(e.a), 0.0f);
      if (zeros == nullptr) return false;
      if (e.rule == GradRule::kTensorNative_t_index) {
        return to_a(UpdateAt(Sited(cx), kernels::ScatterOp::kAdd, Owned{zeros}, e.aux, 0, g));
      }
      if (e.rule == GradRule::kTensorNative_t_take) {
        return to_a(UpdateTake(Sited(cx), kernels::ScatterOp::kAdd, Owned{zeros}, e.b, e.aux, g));
      }
      // x[lo:hi], its bounds clamped as the forward pass did.
      const int64_t n = ShapeOf(e.a)[0];
      const int64_t lo = std::min(e.aux, n), hi = std::max(lo, std::min(e.aux2, n));
      Object* idx = t(Arange(Sited(cx), DType::kI32, lo, hi));
      if (idx == nullptr) {
        heap.Release(zeros);
        return false;
      }
      return to_a(UpdateTake(Sited(cx), kernels::ScatterOp::kAdd, Owned{zeros}, idx, 0, g));
    }
    case GradRule::kTensorNative_t_subscript: {
      std::vector<SubscriptItem> items;
      if (!SubscriptItemsOf(e.b, &items)) return false;
      Object* at = Positions(cx, *this, t, e.a);
      Object* picked = at == nullptr ? nullptr : t(Subscript(Sited(cx), at, items, e.c));
      return to_a(ScatterBack(cx, *this, t, g, e.a, picked));
    }
    case GradRule::kTensorNative_t_set_int:
    case GradRule::kTensorNative_t_set_tuple:
    case GradRule::kTensorNative_t_set_take:
    case GradRule::kTensorNative_t_set_mask:
    case GradRule::kTensorNative_t_add_at_int:
    case GradRule::kTensorNative_t_add_at_tuple:
    case GradRule::kTensorNative_t_add_at_take:
    case GradRule::kTensorNative_t_add_at_mask:
      return UpdateStep(e, g, cx, t);
    case GradRule::kTensorNative_t_mask_select: {
      Object* at = Positions(cx, *this, t, e.a);
      Object* picked = at == nullptr ? nullptr : t(MaskSelect(Sited(cx), at, e.b));
      return to_a(ScatterBack(cx, *this, t, g, e.a, picked));
    }
    case GradRule::kTensorNative_t_sort: {
      // Element k of a lane came from position argsort[k] of that lane:
      // its flat index is the lane's base plus argsort[k] strides.
      const int64_t axis = e.aux < 0 ? e.aux + RankOf(e.a) : e.aux;
      const int64_t n = ShapeOf(e.a)[static_cast<size_t>(axis)];
      int64_t stride = 1;
      for (int64_t k = axis + 1; k < RankOf(e.a); ++k)
        stride *= ShapeOf(e.a)[static_cast<size_t>(k)];
      Shape along(static_cast<size_t>(RankOf(e.a)), 1);
      along[static_cast<size_t>(axis)] = n;
      Object* step = t(Full(Sited(cx), DType::kI32, {}, static_cast<uint32_t>(stride)));
      Object* range = t(Arange(Sited(cx), DType::kI32, 0, n));
      Object* index =
          range == nullptr ? nullptr : t(Reshape(Sited(cx), TensorArg{range, false}, along));
      Object* base =
          o(BinaryOp::kSub, Positions(cx, *this, t, e.a), o(BinaryOp::kMul, index, step));
      Object* order = t(ArgSort(Sited(cx), e.a, axis));
      return to_a(ScatterBack(cx, *this, t, g, e.a,
                              o(BinaryOp::kAdd, base, o(BinaryOp::kMul, order, step))));
    }
    case GradRule::kTensorNative_t_roll:
    case GradRule::kTensorNative_t_roll_axis: {
      // Rolled back by the same shift, reduced first so that it negates.
      const bool whole = e.rule == GradRule::kTensorNative_t_roll;
      const int64_t axis = whole ? 0 : (e.aux2 < 0 ? e.aux2 + RankOf(e.a) : e.aux2);
      const int64_t n = whole ? SizeOf(e.a) : ShapeOf(e.a)[static_cast<size_t>(axis)];
      const int64_t back = n == 0 ? 0 : -(e.aux % n);
      return to_a(Roll(Sited(cx), g, back, whole ? std::nullopt : std::optional(axis)));
    }
    case GradRule::kTensorNative_t_cast:
      return to_a(NewRef(g));
    case GradRule::kTensorNative_t_cumsum:
    case GradRule::kTensorNative_t_cumsum_axis: {
      // Element i of the result sums x[0..i]: x[i]'s gradient sums g[i..].
      const bool whole = e.rule == GradRule::kTensorNative_t_cumsum;
      const std::optional<int64_t> axis = whole ? std::nullopt : std::optional(e.aux);
      Object* total = t(Reduce(Sited(cx), kernels::ReduceOp::kSum, g, axis));
      Object* spread = total == nullptr ? nullptr : t(Spread(cx, *this, total, g, axis));
      Object* running = t(CumSum(Sited(cx), g, axis));
      Object* d = o(BinaryOp::kAdd, o(BinaryOp::kSub, spread, running), g);
      if (d == nullptr) return false;
      return to_a(whole ? Reshape(Sited(cx), TensorArg{NewRef(d), true}, ShapeOf(e.a)) : Ref(d));
    }
    case GradRule::kTensorNative_t_inv: {
      // -Z^T g Z^T
      Object* left = t(MatMulTransposed(Sited(cx), e.out, true, g, false));
      Object* d =
          left == nullptr ? nullptr : t(MatMulTransposed(Sited(cx), left, false, e.out, true));
      return chain(o(UnaryOp::kNeg, d));
    }
    case GradRule::kTensorNative_t_det: {
      // g z inv(a)^T
      Object* inv = t(Inv(Sited(cx), e.a));
      Object* inv_t = inv == nullptr ? nullptr : t(Transpose(Sited(cx), inv));
      return chain(o(BinaryOp::kMul, inv_t, o(BinaryOp::kMul, g, e.out)));
    }
    case GradRule::kTensorNative_t_solve:
    case GradRule::kTensorNative_t_solve_triangular: {
      // x = a^-1 b: db = a^-T g, da = -db x^T (within the triangle read).
      const bool triangular = e.rule == GradRule::kTensorNative_t_solve_triangular;
      const bool lower = e.aux != 0;
      Object* a_t = t(Transpose(Sited(cx), e.a));
      Object* db = a_t == nullptr ? nullptr
                   : triangular   ? t(SolveTriangular(Sited(cx), a_t, g, !lower))
                                  : t(Solve(Sited(cx), a_t, g));
      if (db == nullptr) return false;
      if (e.in1 != 0 && !to_b(NewRef(db))) return false;
      if (e.in0 == 0) return true;
      Object* outer = nullptr;
      if (RankOf(e.out) == 1) {
        const int64_t n = ShapeOf(e.out)[0];
        const int64_t col[2] = {n, 1}, row[2] = {1, n};
        Object* dcol = t(Reshape(Sited(cx), TensorArg{db, false}, col));
        Object* xrow = t(Reshape(Sited(cx), TensorArg{e.out, false}, row));
        outer = o(BinaryOp::kMul, dcol, xrow);
      } else {
        outer = t(MatMulTransposed(Sited(cx), db, false, e.out, true));
      }
      Object* da = o(UnaryOp::kNeg, outer);
      if (triangular) {
        const int64_t n = ShapeOf(e.a)[0];
        Object* read = TriangleMask(cx, *this, t, n, lower ? BinaryOp::kGe : BinaryOp::kLe);
        da = o.Select(read, da, o(0.0f));
      }
      return chain(da);
    }
    case GradRule::kTensorNative_t_cholesky: {
      // P = Phi(L^T g), S = L^-T P L^-1, the gradient (S + S^T) / 2.
      const Object* l = e.out;
      const int64_t n = ShapeOf(l)[0];
      Object* ltg = t(MatMulTransposed(Sited(cx), l, true, g, false));
      Object* below = TriangleMask(cx, *this, t, n, BinaryOp::kGt);
      Object* diagonal = TriangleMask(cx, *this, t, n, BinaryOp::kEq);
      Object* p =
          o.Select(below, ltg, o.Select(diagonal, o(BinaryOp::kMul, ltg, o(0.5f)), o(0.0f)));
      Object* l_t = t(Transpose(Sited(cx), l));
      // L^-T P, then (L^-T (L^-T P)^T)^T = L^-T P L^-1.
      Object* left =
          p == nullptr || l_t == nullptr ? nullptr : t(SolveTriangular(Sited(cx), l_t, p, false));
      Object* left_t = left == nullptr ? nullptr : t(Transpose(Sited(cx), left));
      Object* right =
          left_t == nullptr ? nullptr : t(SolveTriangular(Sited(cx), l_t, left_t, false));
      Object* s_m = right == nullptr ? nullptr : t(Transpose(Sited(cx), right));
      Object* s_t = s_m == nullptr ? nullptr : t(Transpose(Sited(cx), s_m));
      return chain(o(BinaryOp::kMul, o(BinaryOp::kAdd, s_m, s_t), o(0.5f)));
    }
    case GradRule::kTensorOp_LGAMMA_T: {
      // g * digamma(x), digamma in double, rounded to f32.
      Object* psi = t(Sited(cx).New(DType::kF32, ShapeOf(e.a)));
      if (psi == nullptr) return false;
      const float* x = ElementsOf<float>(e.a);
      float* out = ElementsOf<float>(psi);
      for (int64_t i = 0; i < SizeOf(e.a); ++i) {
        out[i] = static_cast<float>(Digamma(static_cast<double>(x[i])));
      }
      return chain(o(BinaryOp::kMul, g, psi));
    }
    case GradRule::kTensorOp_EXPM1_T:
      return chain(o(BinaryOp::kMul, g, o(BinaryOp::kAdd, e.out, o(1.0f))));
    case GradRule::kTensorOp_LOG1P_T:
      return chain(o(BinaryOp::kDiv, g, o(BinaryOp::kAdd, e.a, o(1.0f))));
    case GradRule::kTensorOp_SINH_T:
      return chain(o(BinaryOp::kMul, g, o(UnaryOp::kCosh, e.a)));
    case GradRule::kTensorOp_COSH_T:
      return chain(o(BinaryOp::kMul, g, o(UnaryOp::kSinh, e.a)));
    case GradRule::kTensorOp_ERF_T:
    case GradRule::kTensorOp_ERFC_T: {
      // +-2 / sqrt(pi) * exp(-x^2)
      const float c =
          e.rule == GradRule::kTensorOp_ERF_T ? 1.1283791670955126f : -1.1283791670955126f;
      Object* bell = o(UnaryOp::kExp, o(UnaryOp::kNeg, o(BinaryOp::kMul, e.a, e.a)));
      return chain(o(BinaryOp::kMul, g, o(BinaryOp::kMul, bell, o(c))));
    }
    case GradRule::kTensorOp_SIN_T:
      return chain(o(BinaryOp::kMul, g, o(UnaryOp::kCos, e.a)));
    case GradRule::kTensorOp_COS_T:
      return chain(o(BinaryOp::kMul, g, o(UnaryOp::kNeg, o(UnaryOp::kSin, e.a))));
    case GradRule::kTensorOp_TAN_T:
      return chain(
          o(BinaryOp::kMul, g, o(BinaryOp::kAdd, o(1.0f), o(BinaryOp::kMul, e.out, e.out))));
    case GradRule::kTensorOp_ATAN_T:
      return chain(o(BinaryOp::kDiv, g, o(BinaryOp::kAdd, o(1.0f), o(BinaryOp::kMul, e.a, e.a))));
    case GradRule::kTensorOp_ASIN_T:
    case GradRule::kTensorOp_ACOS_T: {
      // +-1 / sqrt(1 - x^2)
      Object* root = o(UnaryOp::kSqrt, o(BinaryOp::kSub, o(1.0f), o(BinaryOp::kMul, e.a, e.a)));
      Object* d = o(BinaryOp::kDiv, g, root);
      return chain(e.rule == GradRule::kTensorOp_ASIN_T ? d : o(UnaryOp::kNeg, d));
    }
    case GradRule::kTensorOp_MAX_T:
    case GradRule::kTensorOp_MIN_T: {
      // Each operand's share: all of g where it alone is the result, half
      // where both are.
      Object* hit_a = o(BinaryOp::kEq, e.a, e.out);
      Object* hit_b = o(BinaryOp::kEq, e.b, e.out);
      Object* half = o(BinaryOp::kMul, g, o(0.5f));
      Object* zero = o(0.0f);
      return both(e.in0 == 0 ? nullptr : Ref(o.Select(hit_a, o.Select(hit_b, half, g), zero)),
                  e.in1 == 0 ? nullptr : Ref(o.Select(hit_b, o.Select(hit_a, half, g), zero)));
    }
    case GradRule::kTensorOp_POW_T: {
      // JAX's: g y x^(y-1), 0 where y == 0; g log(x) z, 0 where x == 0.
      Object* zero = o(0.0f);
      Object* da = nullptr;
      Object* db = nullptr;
      if (e.in0 != 0) {
        Object* p = o(BinaryOp::kPow, e.a, o(BinaryOp::kSub, e.b, o(1.0f)));
        Object* d = o(BinaryOp::kMul, g, o(BinaryOp::kMul, e.b, p));
        da = Ref(o.Select(o(BinaryOp::kEq, e.b, zero), zero, d));
      }
      if (e.in1 != 0) {
        Object* d = o(BinaryOp::kMul, g, o(BinaryOp::kMul, o(UnaryOp::kLog, e.a), e.out));
        db = Ref(o.Select(o(BinaryOp::kEq, e.a, zero), zero, d));
      }
      return both(da, db);
    }
    case GradRule::kTensorOp_ATAN2_T: {
      // atan2(a, b), a the ordinate: g b / (a^2 + b^2), -g a / (a^2 + b^2).
      Object* r2 = o(BinaryOp::kAdd, o(BinaryOp::kMul, e.a, e.a), o(BinaryOp::kMul, e.b, e.b));
      Object* gr = o(BinaryOp::kDiv, g, r2);
      return both(e.in0 == 0 ? nullptr : Ref(o(BinaryOp::kMul, gr, e.b)),
                  e.in1 == 0 ? nullptr : Ref(o(UnaryOp::kNeg, o(BinaryOp::kMul, gr, e.a))));
    }
    case GradRule::kTensorOp_HYPOT_T: {
      // g a / z and g b / z, 0 where z == 0.
      Object* zero = o(0.0f);
      Object* gz = o.Select(o(BinaryOp::kEq, e.out, zero), zero, o(BinaryOp::kDiv, g, e.out));
      return both(e.in0 == 0 ? nullptr : Ref(o(BinaryOp::kMul, gz, e.a)),
                  e.in1 == 0 ? nullptr : Ref(o(BinaryOp::kMul, gz, e.b)));
    }
    case GradRule::kTensorOp_REM_T: {
      // fmod(a, b) = a - trunc(a / b) b: g, and -g trunc(a / b).
      Object* q = o(UnaryOp::kTrunc, o(BinaryOp::kDiv, e.a, e.b));
      return both(NewRef(g), e.in1 == 0 ? nullptr : Ref(o(UnaryOp::kNeg, o(BinaryOp::kMul, g, q))));
    }
    default:
      return false;
  }
}

}  // namespace alea::vm

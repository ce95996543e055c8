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
#include "vm/tape_ops.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

using grad_ops::Apply;
using grad_ops::Filled;
using grad_ops::NewRef;
using grad_ops::Ops;
using grad_ops::Positions;
using grad_ops::Ref;
using grad_ops::Scalar;
using grad_ops::ScatterBack;
using grad_ops::Sited;
using grad_ops::Spread;
using grad_ops::SumTo;
using kernels::BinaryOp;
using kernels::UnaryOp;

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
  const bool set = IsSetRule(e.rule);
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
  if (IsUpdateRule(e.rule)) return UpdateStep(e, g, cx, t);
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
    case GradRule::kTensorNative_t_matmul:
    case GradRule::kTensorNative_t_matmul_t:
    case GradRule::kTensorNative_t_inv:
    case GradRule::kTensorNative_t_det:
    case GradRule::kTensorNative_t_cholesky:
    case GradRule::kTensorNative_t_solve:
    case GradRule::kTensorNative_t_solve_triangular:
      return MatrixStep(e, g, cx, t);
    case GradRule::kTensorNative_t_cumprod:
    case GradRule::kTensorNative_t_cumprod_axis: {
      // y_i = x_0 ... x_i: x_k's gradient is L_k S_k, L_k the product of
      // the elements before it and S_k = g_k + x_(k+1) S_(k+1) from the
      // lane's end (no division: zeros are exact), in double, lane by lane
      // in index order.
      const bool whole = e.rule == GradRule::kTensorNative_t_cumprod;
      const int64_t size = SizeOf(e.a);
      int64_t n = size, inner = 1;
      if (!whole) {
        const int64_t axis = e.aux < 0 ? e.aux + RankOf(e.a) : e.aux;
        n = ShapeOf(e.a)[static_cast<size_t>(axis)];
        for (int64_t k = axis + 1; k < RankOf(e.a); ++k)
          inner *= ShapeOf(e.a)[static_cast<size_t>(k)];
      }
      Object* d = Sited(cx).New(DType::kF32, ShapeOf(e.a));
      if (d == nullptr) return false;
      const float* x = ElementsOf<float>(e.a);
      const float* gv = ElementsOf<float>(g);
      float* out = ElementsOf<float>(d);
      const int64_t lanes = n == 0 ? 0 : size / n;
      std::vector<double> before(static_cast<size_t>(n));
      for (int64_t lane = 0; lane < lanes; ++lane) {
        const int64_t base = (lane / inner) * n * inner + lane % inner;
        double product = 1;
        for (int64_t k = 0; k < n; ++k) {
          before[static_cast<size_t>(k)] = product;
          product *= x[base + k * inner];
        }
        double sum = 0;
        for (int64_t k = n; k-- > 0;) {
          sum = gv[base + k * inner] + (k + 1 < n ? x[base + (k + 1) * inner] * sum : 0.0);
          out[base + k * inner] = static_cast<float>(before[static_cast<size_t>(k)] * sum);
        }
      }
      return to_a(d);
    }
    case GradRule::kTensorNative_t_tensor:
      // A part per Float: its element of g.
      adjoints_[e.in0] += static_cast<double>(ElementsOf<float>(g)[e.aux]);
      reached_[e.in0] = 1;
      return true;
    case GradRule::kTensorNative_t_full_f:
    case GradRule::kTensorNative_t_linspace: {
      // Float operands: full's value gets the sum of g; linspace's ends
      // a and b get g_i (1 - w_i) and g_i w_i, w_i = i / (n - 1), summed
      // in double in index order.
      const float* gv = ElementsOf<float>(g);
      const int64_t n = SizeOf(g);
      double da = 0, db = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double w = e.rule == GradRule::kTensorNative_t_full_f ? 0.0
                         : n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1)
                                 : 0.0;
        da += gv[i] * (1 - w);
        db += gv[i] * w;
      }
      for (auto [node, d] : {std::pair{e.in0, da}, std::pair{e.in1, db}}) {
        if (node == 0) continue;
        adjoints_[node] += d;
        reached_[node] = 1;
      }
      return true;
    }
    case GradRule::kTensorNative_t_bincount_weights:
      // Each weight's bin's g: g taken at idx (e.b).
      return to_a(Take(Sited(cx), g, e.b, 0));
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

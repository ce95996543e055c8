// The rules of `@` and linear algebra (vm/grad_rules.def), written for one
// matrix: a stack of matrices ([..., n, k]) is taken apart along its
// leading axes, each matrix's gradient computed as the matrices' are, and
// the gradients stacked back, in index order, so the bits are the same on
// any number of threads, with the JIT or without.
#include <cstdint>
#include <functional>
#include <vector>

#include "vm/tape.h"
#include "vm/tape_ops.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"

namespace alea::vm {
namespace {

using grad_ops::NewRef;
using grad_ops::Ops;
using grad_ops::Ref;
using grad_ops::Sited;
using grad_ops::SumTo;
using grad_ops::TriangleMask;
using kernels::BinaryOp;
using kernels::UnaryOp;

// A matrix rule: a gradient of one matrix from the matrices of its
// operands (owned, or null when it failed).
using MatrixRule = std::function<Object*(absl::Span<const Object* const> xs)>;

// `rule` over each matrix of stacks `xs` that share `lead` leading axes, the
// results stacked in index order and shaped `result` (their leading axes
// and one result's shape).
Object* PerMatrix(TensorContext& cx, Tape& tape, TapeTemps& t, int lead,
                  absl::Span<const int64_t> result, std::vector<const Object*> xs,
                  const MatrixRule& rule) {
  if (lead == 0) return rule(xs);
  int64_t count = 1;
  for (int k = 0; k < lead; ++k) count *= ShapeOf(xs[0])[static_cast<size_t>(k)];
  if (count == 0) return grad_ops::Filled(cx, tape, result, 0.0f);
  // Each as [count, rest...]: its leading axes made one.
  std::vector<const Object*> stacks;
  for (const Object* x : xs) {
    Shape shape{count};
    for (int k = lead; k < RankOf(x); ++k) shape.push_back(ShapeOf(x)[static_cast<size_t>(k)]);
    Object* flat = t(Reshape(Sited(cx, tape), TensorArg{const_cast<Object*>(x), false}, shape));
    if (flat == nullptr) return nullptr;
    stacks.push_back(flat);
  }
  std::vector<const Object*> parts;
  std::vector<const Object*> matrices(xs.size());
  for (int64_t i = 0; i < count; ++i) {
    for (size_t k = 0; k < stacks.size(); ++k) {
      matrices[k] = t(Index(Sited(cx, tape), stacks[k], i));
      if (matrices[k] == nullptr) return nullptr;
    }
    Object* d = t(rule(matrices));
    if (d == nullptr) return nullptr;
    parts.push_back(d);
  }
  Object* stacked = t(Stack(Sited(cx, tape), parts, 0));
  return stacked == nullptr ? nullptr : Reshape(Sited(cx, tape), TensorArg{stacked, false}, result);
}

// x broadcast to `batch` + its own last two axes (x + zeros of that shape).
Object* Broadcast(TensorContext& cx, Tape& tape, TapeTemps& t, const Object* x,
                  absl::Span<const int64_t> batch) {
  Shape shape(batch.begin(), batch.end());
  shape.push_back(ShapeOf(x)[static_cast<size_t>(RankOf(x) - 2)]);
  shape.push_back(ShapeOf(x)[static_cast<size_t>(RankOf(x) - 1)]);
  Object* zeros = t(grad_ops::Filled(cx, tape, shape, 0.0f));
  return zeros == nullptr ? nullptr : t(grad_ops::Apply(cx, tape, BinaryOp::kAdd, x, zeros));
}

// The gradients of z = x @ y (NumPy's matmul) for z's adjoint g: x's in
// *dx and y's in *dy (owned) when wanted. Matrices: dx = g @ y^T, dy = x^T
// @ g. A vector operand is a matrix of one row (on the left) or one column
// (on the right); stacks of matrices broadcast their leading axes, which
// the gradients are summed back over; each gradient is reshaped back to its
// operand.
bool MatMulGrads(TensorContext& cx, Tape& tape, TapeTemps& t, const Object* x, const Object* y,
                 const Object* g, bool want_x, bool want_y, Object** dx, Object** dy) {
  const bool a_vector = RankOf(x) == 1, b_vector = RankOf(y) == 1;
  auto matrix = [&](const Object* v, bool vector, bool left) -> const Object* {
    if (!vector) return v;
    const int64_t k = ShapeOf(v)[0];
    const int64_t row[2] = {1, k}, col[2] = {k, 1};
    return t(Reshape(Sited(cx, tape), TensorArg{const_cast<Object*>(v), false},
                     left ? absl::Span<const int64_t>(row) : absl::Span<const int64_t>(col)));
  };
  const Object* ma = matrix(x, a_vector, true);
  const Object* mb = matrix(y, b_vector, false);
  if (ma == nullptr || mb == nullptr) return false;
  // g with the axes the vectors' promotion removed put back.
  Shape g_shape(ShapeOf(g).begin(), ShapeOf(g).end());
  if (a_vector) g_shape.insert(g_shape.end() - (b_vector ? 0 : 1), 1);
  if (b_vector) g_shape.push_back(1);
  const Object* mg = t(Reshape(Sited(cx, tape), TensorArg{const_cast<Object*>(g), false}, g_shape));
  if (mg == nullptr) return false;
  auto back = [&](Object* d, const Object* m, const Object* like) -> Object* {
    if (d == nullptr) return nullptr;
    Object* summed = t(SumTo(cx, tape, d, ShapeOf(m)));
    return summed == nullptr ? nullptr
                             : Reshape(Sited(cx, tape), TensorArg{summed, false}, ShapeOf(like));
  };
  if (RankOf(mg) == 2) {
    bool ok = true;
    if (want_x) {
      ok =
          (*dx = back(t(MatMulTransposed(Sited(cx, tape), mg, false, mb, true)), ma, x)) != nullptr;
    }
    if (ok && want_y) {
      ok =
          (*dy = back(t(MatMulTransposed(Sited(cx, tape), ma, true, mg, false)), mb, y)) != nullptr;
    }
    return ok;
  }
  // Stacks: each operand broadcast to the whole batch, then matrix by
  // matrix.
  const absl::Span<const int64_t> batch(ShapeOf(mg).data(), static_cast<size_t>(RankOf(mg) - 2));
  Object* xa = Broadcast(cx, tape, t, ma, batch);
  Object* xb = Broadcast(cx, tape, t, mb, batch);
  if (xa == nullptr || xb == nullptr) return false;
  const int lead = RankOf(mg) - 2;
  bool ok = true;
  if (want_x) {
    ok =
        (*dx = back(t(PerMatrix(cx, tape, t, lead, ShapeOf(xa), {mg, xb},
                                [&](absl::Span<const Object* const> m) {
                                  return MatMulTransposed(Sited(cx, tape), m[0], false, m[1], true);
                                })),
                    ma, x)) != nullptr;
  }
  if (ok && want_y) {
    ok =
        (*dy = back(t(PerMatrix(cx, tape, t, lead, ShapeOf(xb), {xa, mg},
                                [&](absl::Span<const Object* const> m) {
                                  return MatMulTransposed(Sited(cx, tape), m[0], true, m[1], false);
                                })),
                    mb, y)) != nullptr;
  }
  return ok;
}

}  // namespace

bool Tape::MatrixStep(const Entry& e, const Object* g, TensorContext& cx, TapeTemps& t) {
  Ops o{cx, *this, t};
  auto to_a = [&](Object* d) { return AddTensorAdjoint(e.in0, d, cx); };
  auto to_b = [&](Object* d) { return AddTensorAdjoint(e.in1, d, cx); };
  switch (e.rule) {
    case GradRule::kTensorNative_t_matmul: {
      Object* da = nullptr;
      Object* db = nullptr;
      if (!MatMulGrads(cx, *this, t, e.a, e.b, g, e.in0 != 0, e.in1 != 0, &da, &db)) {
        t(da);
        t(db);
        return false;
      }
      return (e.in0 == 0 || to_a(da)) && (e.in1 == 0 || to_b(db));
    }
    case GradRule::kTensorNative_t_matmul_t: {
      // z = X @ Y with X = x or x^T (bit 0), Y = y or y^T (bit 1):
      // dX = g @ Y^T and dY = X^T @ g, transposed back where x or y was.
      const bool xt = (e.aux & 1) != 0, yt = (e.aux & 2) != 0;
      if (RankOf(e.a) == 2 && RankOf(e.b) == 2) {
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
      // Other ranks: the transposes made, then as `@`.
      const Object* x = xt ? t(Transpose(Sited(cx), e.a)) : e.a;
      const Object* y = yt ? t(Transpose(Sited(cx), e.b)) : e.b;
      Object* dx = nullptr;
      Object* dy = nullptr;
      if (x == nullptr || y == nullptr ||
          !MatMulGrads(cx, *this, t, x, y, g, e.in0 != 0, e.in1 != 0, &dx, &dy)) {
        t(dx);
        t(dy);
        return false;
      }
      if (e.in0 != 0 && !to_a(xt ? Transpose(Sited(cx), t(dx)) : dx)) return false;
      return e.in1 == 0 || to_b(yt ? Transpose(Sited(cx), t(dy)) : dy);
    }
    case GradRule::kTensorNative_t_inv:
      // -Z^T g Z^T, for each matrix.
      return to_a(PerMatrix(cx, *this, t, RankOf(e.a) - 2, ShapeOf(e.a), {e.out, g},
                            [&](absl::Span<const Object* const> m) -> Object* {
                              const Object* z = m[0];
                              const Object* gi = m[1];
                              Object* left = t(MatMulTransposed(Sited(cx), z, true, gi, false));
                              Object* d =
                                  left == nullptr
                                      ? nullptr
                                      : t(MatMulTransposed(Sited(cx), left, false, z, true));
                              return Ref(o(UnaryOp::kNeg, d));
                            }));
    case GradRule::kTensorNative_t_det:
      // g z inv(a)^T, for each matrix.
      return to_a(PerMatrix(cx, *this, t, RankOf(e.a) - 2, ShapeOf(e.a), {e.a, e.out, g},
                            [&](absl::Span<const Object* const> m) -> Object* {
                              const Object* a = m[0];
                              const Object* z = m[1];
                              const Object* gi = m[2];
                              Object* inv = t(Inv(Sited(cx), a));
                              Object* inv_t =
                                  inv == nullptr ? nullptr : t(Transpose(Sited(cx), inv));
                              return Ref(o(BinaryOp::kMul, inv_t, o(BinaryOp::kMul, gi, z)));
                            }));
    case GradRule::kTensorNative_t_cholesky:
      // P = Phi(L^T g), S = L^-T P L^-1, the gradient (S + S^T) / 2, for
      // each matrix.
      return to_a(PerMatrix(
          cx, *this, t, RankOf(e.a) - 2, ShapeOf(e.a), {e.out, g},
          [&](absl::Span<const Object* const> m) -> Object* {
            const Object* l = m[0];
            const Object* gi = m[1];
            const int64_t n = ShapeOf(l)[0];
            Object* ltg = t(MatMulTransposed(Sited(cx), l, true, gi, false));
            Object* below = TriangleMask(cx, *this, t, n, BinaryOp::kGt);
            Object* diagonal = TriangleMask(cx, *this, t, n, BinaryOp::kEq);
            Object* p =
                o.Select(below, ltg, o.Select(diagonal, o(BinaryOp::kMul, ltg, o(0.5f)), o(0.0f)));
            Object* l_t = t(Transpose(Sited(cx), l));
            // L^-T P, then (L^-T (L^-T P)^T)^T = L^-T P L^-1.
            Object* left = p == nullptr || l_t == nullptr
                               ? nullptr
                               : t(SolveTriangular(Sited(cx), l_t, p, false));
            Object* left_t = left == nullptr ? nullptr : t(Transpose(Sited(cx), left));
            Object* right =
                left_t == nullptr ? nullptr : t(SolveTriangular(Sited(cx), l_t, left_t, false));
            Object* s_m = right == nullptr ? nullptr : t(Transpose(Sited(cx), right));
            Object* s_t = s_m == nullptr ? nullptr : t(Transpose(Sited(cx), s_m));
            return Ref(o(BinaryOp::kMul, o(BinaryOp::kAdd, s_m, s_t), o(0.5f)));
          }));
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
      return da != nullptr && to_a(NewRef(da));
    }
    default:
      return false;
  }
}

}  // namespace alea::vm

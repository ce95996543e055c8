// The gamma family's natives (rand_gamma... rand_ball) around
// vm/random/gamma.h: tensor draws on the VM's threads (random_args.h), scalar
// draws, and the forms that take their parameters as tensors.
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "stdlib/natives.h"
#include "stdlib/random_args.h"
#include "vm/random/gamma.h"
#include "vm/random_draw.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"

namespace alea::stdlib {

using vm::Value;
using vm::random::Key;

namespace {

// One gamma draw's cost on one thread, for the split (ThreadPool::MinRange):
// about 80 ns (7 Threefry hashes, erfinv; the CPU time of `alea run --threads
// 1` on 10^7 elements of gamma(2.0)); the other draws make two or more.
constexpr double kGammaDrawNs = 80.0;
// The same on the JIT's keyed kernels: about 8 ns.
constexpr double kJitGammaDrawNs = 8.0;

using Batch = vm::random::DrawKernels;

// A draw of `shape` made of `units` units of `unit` f32 elements each (rows
// of a vector-valued draw, or single elements): fill(key, start, count, out)
// writes units [start, start + count) to out. Checked and consumed as
// DrawTensor does it.
template <typename Fill>
absl::StatusOr<Value> DrawUnits(vm::NativeContext& ctx, Value state,
                                absl::Span<const int64_t> shape, int64_t unit, Fill fill) {
  absl::StatusOr<Key> key = ctx.StateKey(state);
  if (!key.ok()) return key.status();
  vm::TensorContext cx = ctx.tensors();
  vm::Object* out = cx.New(vm::DType::kF32, shape);
  if (out == nullptr) return ctx.Fail(cx);
  float* y = vm::ElementsOf<float>(out);
  const int64_t units = unit == 0 ? 0 : static_cast<int64_t>(out->length) / unit;
  // The hashes run in batches on the JIT's keyed kernels where there are
  // some (the same bits as the reference's).
  const vm::JitDrawKernels kernels(cx);
  const double unit_ns =
      (kernels.fast() ? kJitGammaDrawNs : kGammaDrawNs) * static_cast<double>(unit);
  cx.ForRanges(units, unit == 1 ? 64 : 1, vm::ThreadPool::MinRange(unit_ns),
               [&](int, int64_t begin, int64_t end) {
                 fill(*key, static_cast<uint64_t>(begin), static_cast<uint64_t>(end - begin),
                      y + begin * unit, kernels);
               });
  ctx.ConsumeState(state);
  return vm::FromObject(out);
}

template <typename Fill>
absl::StatusOr<Value> DrawElements(vm::NativeContext& ctx, Value state, Value shape, Fill fill) {
  return DrawUnits(ctx, state, vm::ShapeFromIntArray(shape), 1, fill);
}

double FloatArg(Value v) { return vm::AsFloat(v); }

}  // namespace

// ---- gamma, loggamma ----

absl::StatusOr<Value> Native_rand_gamma(vm::NativeContext& ctx, const Value* args) {
  const double a = FloatArg(args[1]);
  return DrawElements(ctx, args[0], args[2],
                      [a](Key k, uint64_t start, uint64_t n, float* out, const Batch& batch) {
                        vm::random::Gamma(k, a, start, n, out, batch);
                      });
}

absl::StatusOr<Value> Native_rand_gamma_scalar(vm::NativeContext& ctx, const Value* args) {
  const double a = FloatArg(args[1]);
  return DrawScalar(ctx, args[0],
                    [a](Key k) { return vm::FromFloat(vm::random::GammaScalar(k, a)); });
}

absl::StatusOr<Value> Native_rand_gamma__like(vm::NativeContext& ctx, const Value* args) {
  const vm::Object* a = vm::AsObject(args[1]);
  if (absl::Status s = CheckF32(ctx, "gamma", "a", a); !s.ok()) return s;
  const float* alpha = vm::ElementsOf<float>(a);
  return DrawUnits(ctx, args[0], vm::ShapeOf(a), 1,
                   [alpha](Key k, uint64_t start, uint64_t n, float* out, const Batch& batch) {
                     vm::random::GammaEach(k, alpha + start, start, n, out, batch);
                   });
}

absl::StatusOr<Value> Native_rand_loggamma(vm::NativeContext& ctx, const Value* args) {
  const double a = FloatArg(args[1]);
  return DrawElements(ctx, args[0], args[2],
                      [a](Key k, uint64_t start, uint64_t n, float* out, const Batch& batch) {
                        vm::random::LogGamma(k, a, start, n, out, batch);
                      });
}

absl::StatusOr<Value> Native_rand_loggamma_scalar(vm::NativeContext& ctx, const Value* args) {
  const double a = FloatArg(args[1]);
  return DrawScalar(ctx, args[0],
                    [a](Key k) { return vm::FromFloat(vm::random::LogGammaScalar(k, a)); });
}

// ---- chisquare, f, t ----

absl::StatusOr<Value> Native_rand_chisquare(vm::NativeContext& ctx, const Value* args) {
  const double df = FloatArg(args[1]);
  return DrawElements(ctx, args[0], args[2],
                      [df](Key k, uint64_t start, uint64_t n, float* out, const Batch& batch) {
                        vm::random::ChiSquare(k, df, start, n, out, batch);
                      });
}

absl::StatusOr<Value> Native_rand_chisquare_scalar(vm::NativeContext& ctx, const Value* args) {
  const double df = FloatArg(args[1]);
  return DrawScalar(ctx, args[0],
                    [df](Key k) { return vm::FromFloat(vm::random::ChiSquareScalar(k, df)); });
}

absl::StatusOr<Value> Native_rand_f(vm::NativeContext& ctx, const Value* args) {
  const double num = FloatArg(args[1]);
  const double den = FloatArg(args[2]);
  return DrawElements(
      ctx, args[0], args[3],
      [num, den](Key k, uint64_t start, uint64_t n, float* out, const Batch& batch) {
        vm::random::FDist(k, num, den, start, n, out, batch);
      });
}

absl::StatusOr<Value> Native_rand_f_scalar(vm::NativeContext& ctx, const Value* args) {
  const double num = FloatArg(args[1]);
  const double den = FloatArg(args[2]);
  return DrawScalar(ctx, args[0], [num, den](Key k) {
    return vm::FromFloat(vm::random::FDistScalar(k, num, den));
  });
}

absl::StatusOr<Value> Native_rand_t(vm::NativeContext& ctx, const Value* args) {
  const double df = FloatArg(args[1]);
  return DrawElements(ctx, args[0], args[2],
                      [df](Key k, uint64_t start, uint64_t n, float* out, const Batch& batch) {
                        vm::random::StudentT(k, df, start, n, out, batch);
                      });
}

absl::StatusOr<Value> Native_rand_t_scalar(vm::NativeContext& ctx, const Value* args) {
  const double df = FloatArg(args[1]);
  return DrawScalar(ctx, args[0],
                    [df](Key k) { return vm::FromFloat(vm::random::StudentTScalar(k, df)); });
}

// ---- beta, dirichlet ----

absl::StatusOr<Value> Native_rand_beta(vm::NativeContext& ctx, const Value* args) {
  const double a = FloatArg(args[1]);
  const double b = FloatArg(args[2]);
  return DrawElements(ctx, args[0], args[3],
                      [a, b](Key k, uint64_t start, uint64_t n, float* out, const Batch& batch) {
                        vm::random::Beta(k, a, b, start, n, out, batch);
                      });
}

absl::StatusOr<Value> Native_rand_beta_scalar(vm::NativeContext& ctx, const Value* args) {
  const double a = FloatArg(args[1]);
  const double b = FloatArg(args[2]);
  return DrawScalar(ctx, args[0],
                    [a, b](Key k) { return vm::FromFloat(vm::random::BetaScalar(k, a, b)); });
}

// JAX's beta with array parameters: the shape they broadcast to.
absl::StatusOr<Value> Native_rand_beta__like(vm::NativeContext& ctx, const Value* args) {
  const vm::Object* a = vm::AsObject(args[1]);
  const vm::Object* b = vm::AsObject(args[2]);
  if (absl::Status s = CheckF32(ctx, "beta", "a", a); !s.ok()) return s;
  if (absl::Status s = CheckF32(ctx, "beta", "b", b); !s.ok()) return s;
  vm::Shape shape;
  if (!vm::BroadcastShapes({vm::ShapeOf(a), vm::ShapeOf(b)}, &shape)) {
    return ctx.Fail(vm::RuntimeErrorId::kBroadcast, "beta", vm::ShapeString(vm::ShapeOf(a)),
                    vm::ShapeString(vm::ShapeOf(b)));
  }
  vm::TensorContext cx = ctx.tensors();
  ScratchTensors scratch(cx.heap());
  const float* alpha = Expanded(cx, a, shape, scratch);
  if (alpha == nullptr) return ctx.Fail(cx);
  const float* beta = Expanded(cx, b, shape, scratch);
  if (beta == nullptr) return ctx.Fail(cx);
  return DrawUnits(
      ctx, args[0], shape, 1,
      [alpha, beta](Key k, uint64_t start, uint64_t n, float* out, const Batch& batch) {
        vm::random::BetaEach(k, alpha + start, beta + start, start, n, out, batch);
      });
}

namespace {

// dirichlet(s, alpha, shape): draws of shape + [n] for alpha [..., n], whose
// batch shape alpha[:-1] must broadcast to `shape` (JAX's _check_shape).
absl::StatusOr<Value> Dirichlet(vm::NativeContext& ctx, Value state, const vm::Object* alpha_t,
                                const vm::Shape* batch_shape) {
  if (absl::Status s = CheckF32(ctx, "dirichlet", "alpha", alpha_t); !s.ok()) return s;
  const absl::Span<const int64_t> alpha_shape = vm::ShapeOf(alpha_t);
  if (alpha_shape.empty()) {
    return ctx.Fail(vm::RuntimeErrorId::kAxisOutOfRange, -1, vm::ShapeString(alpha_shape));
  }
  const absl::Span<const int64_t> alpha_batch = alpha_shape.first(alpha_shape.size() - 1);
  const int64_t n = alpha_shape.back();
  vm::Shape batch(alpha_batch.begin(), alpha_batch.end());
  if (batch_shape != nullptr) {
    vm::Shape joined;
    if (!vm::BroadcastShapes({*batch_shape, alpha_batch}, &joined) || joined != *batch_shape) {
      return ctx.Fail(vm::RuntimeErrorId::kDirichletShape, vm::ShapeString(alpha_shape),
                      vm::ShapeString(*batch_shape));
    }
    batch = *batch_shape;
  }
  // alpha's vectors repeat over the rows when its batch shape (without
  // leading 1s) ends `batch`; otherwise they are laid out row by row.
  const float* alpha = vm::ElementsOf<float>(alpha_t);
  size_t lead = 0;
  while (lead < alpha_batch.size() && alpha_batch[lead] == 1) ++lead;
  const absl::Span<const int64_t> core = alpha_batch.subspan(lead);
  const bool repeats =
      core.size() <= batch.size() && absl::Span<const int64_t>(batch).last(core.size()) == core;
  int64_t alpha_rows = 1;
  for (int64_t dim : core) alpha_rows *= dim;
  vm::TensorContext cx = ctx.tensors();
  ScratchTensors scratch(cx.heap());
  if (!repeats) {
    vm::Shape full = batch;
    full.push_back(n);
    alpha = Expanded(cx, alpha_t, full, scratch);
    if (alpha == nullptr) return ctx.Fail(cx);
    alpha_rows = vm::ElementCount(vm::DType::kF32, batch);
  }
  vm::Shape shape = batch;
  shape.push_back(n);
  const uint64_t rows_of_alpha = alpha_rows > 0 ? static_cast<uint64_t>(alpha_rows) : 1;
  return DrawUnits(ctx, state, shape, n,
                   [alpha, rows_of_alpha, n](Key k, uint64_t start, uint64_t rows, float* out,
                                             const Batch& kernels) {
                     vm::random::Dirichlet(k, alpha, rows_of_alpha, static_cast<uint64_t>(n), start,
                                           rows, out, kernels);
                   });
}

}  // namespace

absl::StatusOr<Value> Native_rand_dirichlet(vm::NativeContext& ctx, const Value* args) {
  const vm::Shape shape = vm::ShapeFromIntArray(args[2]);
  return Dirichlet(ctx, args[0], vm::AsObject(args[1]), &shape);
}

absl::StatusOr<Value> Native_rand_dirichlet__like(vm::NativeContext& ctx, const Value* args) {
  return Dirichlet(ctx, args[0], vm::AsObject(args[1]), nullptr);
}

// ---- generalized_normal, ball ----

absl::StatusOr<Value> Native_rand_generalized_normal(vm::NativeContext& ctx, const Value* args) {
  const double p = FloatArg(args[1]);
  return DrawElements(ctx, args[0], args[2],
                      [p](Key k, uint64_t start, uint64_t n, float* out, const Batch& batch) {
                        vm::random::GeneralizedNormal(k, p, start, n, out, batch);
                      });
}

absl::StatusOr<Value> Native_rand_generalized_normal_scalar(vm::NativeContext& ctx,
                                                            const Value* args) {
  const double p = FloatArg(args[1]);
  return DrawScalar(ctx, args[0], [p](Key k) {
    return vm::FromFloat(vm::random::GeneralizedNormalScalar(k, p));
  });
}

namespace {

// ball(s, d, p, shape): rows of d; a negative d is an invalid shape.
absl::StatusOr<Value> Ball(vm::NativeContext& ctx, Value state, int64_t d, double p, Value batch) {
  vm::Shape shape = vm::ShapeFromIntArray(batch);
  shape.push_back(d);
  return DrawUnits(ctx, state, shape, d,
                   [d, p](Key k, uint64_t start, uint64_t rows, float* out, const Batch& kernels) {
                     vm::random::Ball(k, static_cast<uint64_t>(d), p, start, rows, out, kernels);
                   });
}

}  // namespace

absl::StatusOr<Value> Native_rand_ball(vm::NativeContext& ctx, const Value* args) {
  return Ball(ctx, args[0], vm::AsInt(args[1]), FloatArg(args[2]), args[3]);
}

absl::StatusOr<Value> Native_rand_ball__l2(vm::NativeContext& ctx, const Value* args) {
  return Ball(ctx, args[0], vm::AsInt(args[1]), 2.0, args[2]);
}

}  // namespace alea::stdlib
